//! Checks with ids under `bandit/` and their fixtures.
//!
//! - `bandit/gp-ucb/rkhs-sublinear-and-below-random`: exact GP-UCB (IGP-UCB width) against
//!   uniform random on the Zhou & Tan synthetic RKHS objective, paired trials (trial `i` of
//!   both policies runs on the same drawn instance and noise stream);
//! - `bandit/datasets/load`: the light-sensor and stock problems load with 41 and 29 arms,
//!   `max f = 1`, one scale for `f` and rewards, a PSD correlation kernel;
//! - `bandit/runner/thread-invariance`: a batch is bit-identical on 1 and 2 threads;
//! - `bandit/benchmarks/maxima`: the documented maxima of the benchmark functions are
//!   attained and not beaten by uniform samples.

use std::path::PathBuf;

use bandit::BanditError;
use bandit::baselines::{GpUcb, IgpUcbParams, UniformRandom};
use bandit::dataset::{DataSetProblem, light_sensor, stocks};
use bandit::domain::{BoxDomain, Partition};
use bandit::noise::RewardModel;
use bandit::objective::{Camelback, Michalewicz, Objective, RkhsSynthetic, StyblinskiTang};
use bandit::runner::{BatchResult, Role, RunConfig, run_trials_non_private, seed_key, trial_rng};
use ndarray::Array2;
use rand::{Rng as _, RngExt, SeedableRng};
use rand_chacha::ChaCha20Rng;
use serde_json::json;

use crate::check::{Check, Context, Outcome, verdict};
use crate::fixtures::{Entry, Fixture, matrix, number, vector};
use crate::report::CheckKind;

/// The checks of this area, in the order they run.
pub fn checks() -> Vec<Check> {
    vec![
        Check {
            id: "bandit/gp-ucb/rkhs-sublinear-and-below-random",
            run: gp_ucb_vs_random,
        },
        Check {
            id: "bandit/datasets/load",
            run: datasets_load,
        },
        Check {
            id: "bandit/runner/thread-invariance",
            run: thread_invariance,
        },
        Check {
            id: "bandit/benchmarks/maxima",
            run: benchmark_maxima,
        },
    ]
}

fn e(err: BanditError) -> String {
    err.to_string()
}

/// False-alarm probability of the GP-UCB check: its two claims (sublinear, far below random)
/// each get a one-sided normal bootstrap bound at level `ALPHA / 2` (nominal: the normal
/// bootstrap interval's level is asymptotic).
const ALPHA: f64 = 1e-6;
/// A cumulative regret curve is called sublinear when the slope of `ln R_t` against `ln t`
/// over `[T/8, T]` is below this exponent (with confidence `1 - ALPHA`).
const SUBLINEAR_EXPONENT: f64 = 0.9;
/// "Far below random": mean `R_T` of GP-UCB at most this fraction of random's.
const FAR_BELOW_RATIO: f64 = 0.5;
const BOOTSTRAP: usize = 2000;

/// OLS slope of `ln curve[t-1]` against `ln t` at 8 geometric points of `[T/8, T]`.
fn loglog_slope(curve: &[f64]) -> f64 {
    let t_max = curve.len() as f64;
    let pts: Vec<(f64, f64)> = (0..8)
        .map(|i| {
            let t = (t_max / 8.0 * 8f64.powf(i as f64 / 7.0)).round().max(1.0) as usize;
            ((t as f64).ln(), curve[t - 1].max(1e-300).ln())
        })
        .collect();
    let mx = pts.iter().map(|p| p.0).sum::<f64>() / 8.0;
    let my = pts.iter().map(|p| p.1).sum::<f64>() / 8.0;
    let sxy: f64 = pts.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let sxx: f64 = pts.iter().map(|p| (p.0 - mx).powi(2)).sum();
    sxy / sxx
}

fn mean_curve(b: &BatchResult, idx: &[usize]) -> Vec<f64> {
    let t = b.config.horizon;
    (0..t)
        .map(|s| {
            idx.iter()
                .map(|&i| b.trials[i].cumulative_regret[s])
                .sum::<f64>()
                / idx.len() as f64
        })
        .collect()
}

fn gp_ucb_vs_random(ctx: &Context) -> Result<Outcome, String> {
    let horizon = ctx.mode.pick(500, 1000);
    let n_trials = ctx.mode.pick(10, 20);
    let config = RunConfig {
        horizon,
        n_trials,
        base_seed: ctx.seed_for("bandit/gp-ucb/rkhs"),
    };
    let problem = RkhsSynthetic::default();
    let env = |rng: &mut ChaCha20Rng| {
        problem
            .sample(rng)?
            .annotated_environment(RewardModel::uniform(1.0)?)
    };
    let random = run_trials_non_private(&config, env, |_, _| Ok(UniformRandom)).map_err(e)?;
    let ucb = run_trials_non_private(&config, env, |en, _| {
        GpUcb::new(
            en.info.1.clone(),
            IgpUcbParams::new(en.info.0, 1.0, 0.1, horizon)?,
        )
    })
    .map_err(e)?;

    let all: Vec<usize> = (0..n_trials).collect();
    let (ucb_curve, rnd_curve) = (mean_curve(&ucb, &all), mean_curve(&random, &all));
    let (ucb_slope, rnd_slope) = (loglog_slope(&ucb_curve), loglog_slope(&rnd_curve));
    let ratio = ucb_curve[horizon - 1] / rnd_curve[horizon - 1];
    // Paired bootstrap over trials (the same resample for both policies).
    let mut rng = ChaCha20Rng::seed_from_u64(ctx.seed_for("bandit/gp-ucb/rkhs/bootstrap"));
    let (mut bs_ucb, mut bs_rnd, mut bs_ratio) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..BOOTSTRAP {
        let idx: Vec<usize> = (0..n_trials)
            .map(|_| rng.random_range(0..n_trials))
            .collect();
        let (u, r) = (mean_curve(&ucb, &idx), mean_curve(&random, &idx));
        bs_ucb.push(loglog_slope(&u));
        bs_rnd.push(loglog_slope(&r));
        bs_ratio.push(u[horizon - 1] / r[horizon - 1]);
    }
    // Normal bootstrap bounds: estimate +- z se_boot with z = Phi^-1(1 - ALPHA/2); percentiles
    // of a few thousand resamples cannot reach a level of 1e-6.
    let z = -crate::stats::normal_quantile(ALPHA / 2.0);
    let se = |v: &[f64]| {
        let m = v.iter().sum::<f64>() / v.len() as f64;
        (v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (v.len() - 1) as f64).sqrt()
    };
    let ucb_slope_upper = ucb_slope + z * se(&bs_ucb);
    let rnd_slope_lower = rnd_slope - z * se(&bs_rnd);
    let ratio_upper = ratio + z * se(&bs_ratio);
    let sublinear = ucb_slope_upper < SUBLINEAR_EXPONENT;
    let control_flagged = rnd_slope_lower > SUBLINEAR_EXPONENT;
    let far_below = ratio_upper <= FAR_BELOW_RATIO;
    let ok = sublinear && control_flagged && far_below;
    let finals_u = ucb.final_cumulative_regrets();
    let finals_r = random.final_cumulative_regrets();
    let measured = format!(
        "T = {horizon}, {n_trials} paired trials: mean R_T GP-UCB {:.2} vs random {:.2} (ratio {:.3}, bootstrap upper {:.3}); \
         log-log slope of mean R_t over [T/8, T]: GP-UCB {:.3} (upper {:.3}), random {:.3} (lower {:.3}, positive control)",
        ucb_curve[horizon - 1],
        rnd_curve[horizon - 1],
        ratio,
        ratio_upper,
        ucb_slope,
        ucb_slope_upper,
        rnd_slope,
        rnd_slope_lower
    );
    Ok(Outcome::new(
        CheckKind::Sanity,
        "exact GP-UCB with the IGP-UCB width (B = ||f||_H of each drawn f, R = 1, delta = 0.1, lambda = 1 + 2/T) on the Zhou & Tan \
         synthetic (100 arms on [0, 1], SE l = 0.2, max |f| = 1, uniform noise on [-1, 1]), against uniform random",
        format!(
            "sublinear: the {:.5}% normal-bootstrap upper bound of the slope of ln(mean R_t) vs ln t over [T/8, T] is < {SUBLINEAR_EXPONENT} \
             (and the same test on uniform random, whose regret is linear, has lower bound > {SUBLINEAR_EXPONENT}); far below random: \
             the upper bound of mean R_T(GP-UCB) / mean R_T(random) is <= {FAR_BELOW_RATIO}",
            100.0 * (1.0 - ALPHA)
        ),
        measured,
        verdict(ok),
    )
    .value("horizon", horizon)
    .value("trials", n_trials)
    .value("mean_final_regret_gp_ucb", ucb_curve[horizon - 1])
    .value("mean_final_regret_random", rnd_curve[horizon - 1])
    .value("final_regret_gp_ucb", finals_u)
    .value("final_regret_random", finals_r)
    .value("ratio", ratio)
    .value("ratio_upper", ratio_upper)
    .value("slope_gp_ucb", ucb_slope)
    .value("slope_gp_ucb_upper", ucb_slope_upper)
    .value("slope_random", rnd_slope)
    .value("slope_random_lower", rnd_slope_lower)
    .false_alarm(ALPHA))
}

fn describe(p: &DataSetProblem) -> String {
    format!(
        "{}: {} arms, {} reward rows, scale {:.4}, max f = {}, argmax {}, R = {:.4}, v = {:.4}, c = {:.4}",
        p.name,
        p.n_arms(),
        p.rewards.nrows(),
        p.scale,
        p.b,
        p.arm_names[p
            .f
            .iter()
            .enumerate()
            .fold(0, |b, (i, &v)| if v > p.f[b] { i } else { b })],
        p.r,
        p.v,
        p.c
    )
}

fn datasets_load(ctx: &Context) -> Result<Outcome, String> {
    let light = light_sensor(&ctx.data_dir).map_err(e)?;
    let stock = stocks(&ctx.data_dir).map_err(e)?;
    let mut ok = light.n_arms() == 41 && stock.n_arms() == 29;
    for p in [&light, &stock] {
        let means = p
            .rewards
            .mean_axis(ndarray::Axis(0))
            .ok_or("empty reward table")?;
        let one_scale = means
            .iter()
            .zip(p.f.iter())
            .all(|(m, f)| (m - f).abs() <= 1e-12);
        let unit_diag = p.gram.diag().iter().all(|d| (d - 1.0).abs() <= 1e-12);
        ok &= one_scale && unit_diag && (p.b - 1.0).abs() <= 1e-15 && p.kernel().is_ok();
    }
    Ok(Outcome::new(
        CheckKind::Sanity,
        format!("data-set problems from {}", ctx.data_dir.display()),
        "light sensors: 41 arms (192 test rows), stocks: 29 arms (823 days); max f = 1; the expected reward of every arm equals f_i \
         (one scale); K is a PSD correlation matrix (unit diagonal)",
        format!("{}; {}", describe(&light), describe(&stock)),
        verdict(ok),
    )
    .value("light_sensor_arms", light.n_arms())
    .value("stocks_arms", stock.n_arms())
    .value("light_sensor_scale", light.scale)
    .value("stocks_scale", stock.scale))
}

fn thread_invariance(ctx: &Context) -> Result<Outcome, String> {
    let config = RunConfig {
        horizon: 40,
        n_trials: 6,
        base_seed: ctx.seed_for("bandit/runner/thread-invariance"),
    };
    let problem = RkhsSynthetic::matern();
    let run = |threads: usize| -> Result<String, String> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|x| x.to_string())?;
        let b = pool
            .install(|| {
                run_trials_non_private(
                    &config,
                    |rng| {
                        problem
                            .sample(rng)?
                            .annotated_environment(RewardModel::student_t(3.0, 1.0)?)
                    },
                    |en, _| {
                        GpUcb::new(
                            en.info.1.clone(),
                            IgpUcbParams::new(en.info.0, 1.0, 0.1, config.horizon)?,
                        )
                    },
                )
            })
            .map_err(e)?;
        b.to_json().map_err(e)
    };
    let (one, two) = (run(1)?, run(2)?);
    Ok(Outcome::new(
        CheckKind::Property,
        "the seeded batch runner (GP-UCB, Matérn 5/2 RKHS synthetic, Student-t(3) noise, 6 trials x 40 rounds)",
        "the JSON result records are byte-identical on a rayon pool of 1 thread and of 2 threads",
        format!("{} bytes each, identical: {}", one.len(), one == two),
        verdict(one == two),
    ))
}

fn benchmark_maxima(ctx: &Context) -> Result<Outcome, String> {
    let n = ctx.mode.pick(100_000, 1_000_000);
    let mut rng = ChaCha20Rng::seed_from_u64(ctx.seed_for("bandit/benchmarks/maxima"));
    let fs: Vec<(String, Box<dyn Objective>)> = vec![
        ("camelback".into(), Box::new(Camelback)),
        (
            "styblinski-tang-20".into(),
            Box::new(StyblinskiTang::new(20).map_err(e)?),
        ),
        (
            "michalewicz-10".into(),
            Box::new(Michalewicz::new(10).map_err(e)?),
        ),
    ];
    let mut ok = true;
    let mut parts = Vec::new();
    for (name, f) in &fs {
        let m = f.maximum().ok_or("maximum unknown")?;
        let attained = m
            .maximisers
            .rows()
            .into_iter()
            .all(|x| (f.value_unchecked(x) - m.value).abs() <= 1e-12);
        let b = BoxDomain::cube(f.dim(), -0.5, 0.5).map_err(e)?;
        let xs = b.sample_uniform(n, &mut rng);
        let best = xs
            .rows()
            .into_iter()
            .map(|x| f.value_unchecked(x))
            .fold(f64::NEG_INFINITY, f64::max);
        ok &= attained && best <= m.value + 1e-12;
        parts.push(format!(
            "{name}: max {:.12} attained {attained}, best of {n} uniform samples {best:.6}",
            m.value
        ));
    }
    Ok(Outcome::new(
        CheckKind::Property,
        "Mutny & Krause benchmark functions on [-0.5, 0.5]^d (docs/bandit.md)",
        "each documented maximum is attained at its maximiser (to 1e-12) and no uniform sample exceeds it",
        parts.join("; "),
        verdict(ok),
    ))
}

// ----------------------------------------------------------------------------------------
// Fixtures

fn entry(path: &str, f: Fixture) -> Entry {
    (PathBuf::from(path), f)
}

fn fixed_points(n: usize, d: usize, seed: u64) -> Array2<f64> {
    // Rounded to 3 decimals in [-0.5, 0.5] so that the inputs are exact in text.
    let mut r = ChaCha20Rng::seed_from_u64(seed);
    Array2::from_shape_fn((n, d), |_| {
        (r.random::<f64>() * 1000.0).round() / 1000.0 - 0.5
    })
}

fn dataset_fixture(name: &str, p: &DataSetProblem, description: &str) -> Entry {
    let rows = 3.min(p.n_arms());
    entry(
        &format!("bandit/{name}.json"),
        Fixture {
            name: name.into(),
            description: description.into(),
            inputs: json!({"data_folder_files": if p.coords.is_some() {
                json!(["light_sensor_train.csv", "light_sensor_test.csv"]) } else { json!(["stocks_adjusted_close.csv"]) },
                "arm_names": p.arm_names}),
            outputs: json!({
                "n_arms": p.n_arms(),
                "scale": number(p.scale),
                "f": vector(p.f.view()),
                "gram_first_rows": matrix(p.gram.slice_axis(ndarray::Axis(0), ndarray::Slice::from(0..rows))),
                "b": number(p.b),
                "r": number(p.r),
                "v": number(p.v),
                "c": number(p.c),
            }),
        },
    )
}

/// The fixtures of this area.
pub fn fixtures() -> Result<Vec<Entry>, String> {
    let mut out = Vec::new();

    let cam_x = fixed_points(6, 2, 31);
    let st_x = fixed_points(4, 5, 32);
    let mi_x = fixed_points(4, 10, 33);
    let st = StyblinskiTang::new(5).map_err(e)?;
    let mi = Michalewicz::new(10).map_err(e)?;
    let cam_max = Camelback.maximum().ok_or("camelback maximum")?;
    let st_max = st.maximum().ok_or("styblinski-tang maximum")?;
    let mi_max = mi.maximum().ok_or("michalewicz maximum")?;
    out.push(entry(
        "bandit/benchmarks.json",
        Fixture {
            name: "benchmarks".into(),
            description: "Mutny & Krause (2018) benchmark functions on [-0.5, 0.5]^d (maximisation forms, docs/bandit.md). \
                camelback (d = 2): u = 4 x1, v = 2 x2, f = -((4 - 2.1 u^2 + u^4/3) u^2 + u v + (-4 + 4 v^2) v^2) / 5. \
                styblinski_tang (d = 5): z = 8 x, f = -(0.5 sum_i (z_i^4 - 16 z_i^2 + 5 z_i) / (200 d) + 0.5). \
                michalewicz (d = 10): w_i = x_i / 0.75 + 0.5, f = sum_{i=1}^d sin(pi w_i) sin(i w_i)^(2d). \
                Values at the given points (rows) and the maxima with one maximiser each."
                .into(),
            inputs: json!({
                "camelback_points": matrix(cam_x.view()),
                "styblinski_tang_points": matrix(st_x.view()),
                "michalewicz_points": matrix(mi_x.view()),
            }),
            outputs: json!({
                "camelback_values": vector(Camelback.values(cam_x.view()).map_err(e)?.view()),
                "styblinski_tang_values": vector(st.values(st_x.view()).map_err(e)?.view()),
                "michalewicz_values": vector(mi.values(mi_x.view()).map_err(e)?.view()),
                "camelback_max": number(cam_max.value),
                "camelback_maximisers": matrix(cam_max.maximisers.view()),
                "styblinski_tang_max": number(st_max.value),
                "styblinski_tang_maximiser": vector(st_max.maximisers.row(0)),
                "michalewicz_max": number(mi_max.value),
                "michalewicz_maximiser": vector(mi_max.maximisers.row(0)),
            }),
        },
    ));

    let dir = bandit::dataset::default_data_dir();
    let light = light_sensor(&dir).map_err(e)?;
    out.push(dataset_fixture(
        "light_sensor",
        &light,
        "Light-sensor bandit problem (41 arms = sensors) from ../shared/data: scale = max of the test-set column means; \
         f_i = (test column mean i) / scale (so max f = 1); rewards = test readings / scale; K = sample correlation matrix \
         (n - 1 normalisation) of the train columns; gram_first_rows = the first 3 rows of K; b = max f; r = max |reading/scale - f_i|; \
         v = mean of (reading/scale)^2; c = mean of (reading/scale - f_i)^2, over all test rows and arms.",
    ));
    let stock = stocks(&dir).map_err(e)?;
    out.push(dataset_fixture(
        "stocks",
        &stock,
        "Stock bandit problem (29 arms = tickers, Date column dropped) from ../shared/data: scale = max of the column means \
         over all 823 days; f_i = (column mean i) / scale; rewards = prices / scale; K = sample correlation matrix (n - 1) of \
         the price columns; gram_first_rows = the first 3 rows of K; b, r, v, c as for the light sensors, over all days and arms.",
    ));

    // Partitions of DP-FTS-DE's distributed exploration.
    let cases: Vec<(usize, usize)> = vec![(1, 2), (1, 3), (2, 4), (3, 4), (2, 6), (2, 8), (3, 12)];
    let mut parts = Vec::new();
    for &(d, p) in &cases {
        let part = Partition::equal_volume(BoxDomain::unit(d).map_err(e)?, p).map_err(e)?;
        let mut lowers = Vec::new();
        let mut uppers = Vec::new();
        for c in 0..p {
            let b = part.cell_bounds(c).map_err(e)?;
            lowers.push(b.lower().to_vec());
            uppers.push(b.upper().to_vec());
        }
        parts.push(json!({"d": d, "p": p, "splits": part.splits(), "cell_lower": lowers, "cell_upper": uppers}));
    }
    out.push(entry(
        "bandit/partitions.json",
        Fixture {
            name: "partitions".into(),
            description: "Equal-volume partitions of [0,1]^d into P hyper-rectangles (DP-FTS-DE distributed exploration): \
                primes of P, largest first, each multiplies the split count of the dimension with the fewest parts (ties: lowest \
                dimension). Cells in row-major order of per-dimension indices (last dimension fastest); intervals [a, b) except the \
                last of each dimension, [a, 1]."
                .into(),
            inputs: json!({"cases": cases.iter().map(|(d, p)| json!({"d": d, "p": p})).collect::<Vec<_>>()}),
            outputs: json!({"partitions": parts}),
        },
    ));

    // Trial seeding, for reproducing runs in another language.
    let base = 2021u64;
    let key = seed_key(base);
    let mut streams = Vec::new();
    for trial in 0..2 {
        for role in [Role::Environment, Role::Agent, Role::Curator] {
            let mut r = trial_rng(base, trial, role);
            let words: Vec<String> = (0..4).map(|_| format!("{:016x}", r.next_u64())).collect();
            streams.push(json!({"trial": trial, "role": role as u64, "stream": 4 * trial as u64 + role as u64, "first_u64_hex": words}));
        }
    }
    out.push(entry(
        "bandit/trial_seeds.json",
        Fixture {
            name: "trial_seeds".into(),
            description: "Seeding of trial i of a batch with base seed s: ChaCha20 (20 rounds, rand_chacha's ChaCha20Rng) keyed by \
                four consecutive SplitMix64 outputs from state s (each little-endian), stream 4 i + role (role 0 = environment, \
                1 = agent, 2 = curator), word position 0. first_u64_hex: the first four next_u64() outputs of each stream."
                .into(),
            inputs: json!({"base_seed": base}),
            outputs: json!({"key_hex": key.iter().map(|b| format!("{b:02x}")).collect::<String>(), "streams": streams}),
        },
    ));
    Ok(out)
}
