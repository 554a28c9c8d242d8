//! GP-UCB on the RKHS synthetic problem: sublinear regret, far below uniform random.

use crate::shared::ALPHA;
use bandit::baselines::{GpUcb, IgpUcbParams, UniformRandom};
use bandit::noise::RewardModel;
use bandit::objective::RkhsSynthetic;
use bandit::runner::{BatchResult, RunConfig, Runner};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha20Rng;
use verification::CheckKind;
use verification::{CheckResult, Context, Outcome, verdict};

/// A cumulative regret curve is called sublinear when the slope of `ln R_t` against `ln t`
/// over `[T/8, T]` is below this exponent (with confidence `1 - ALPHA`).
pub(super) const SUBLINEAR_EXPONENT: f64 = 0.9;

/// "Far below random": mean `R_T` of GP-UCB at most this fraction of random's.
pub(super) const FAR_BELOW_RATIO: f64 = 0.5;

pub(super) const BOOTSTRAP: usize = 2000;

/// OLS slope of `ln curve[t-1]` against `ln t` at 8 geometric points of `[T/8, T]`.
pub(super) fn loglog_slope(curve: &[f64]) -> f64 {
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

pub(super) fn mean_curve(b: &BatchResult, idx: &[usize]) -> Vec<f64> {
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

pub(super) fn gp_ucb_vs_random(ctx: &Context) -> CheckResult {
    let horizon = ctx.mode.pick(500, 1000);
    let n_trials = ctx.mode.pick(10, 20);
    let config = RunConfig {
        horizon,
        n_trials,
        base_seed: ctx.seed_for("bandit/gp-ucb/rkhs"),
        shard: None,
    };
    let problem = RkhsSynthetic::default();
    let env = problem.annotated_environments(RewardModel::uniform(1.0)?);
    let random = Runner::new(config, &env, |_, _| Ok(UniformRandom)).trials()?;
    let ucb = Runner::new(config, &env, |en, _| {
        GpUcb::new(
            en.info.1.clone(),
            horizon,
            IgpUcbParams::with_norm_bound(en.info.0),
        )
    })
    .trials()?;

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
    let z = -verification::stats::normal_quantile(ALPHA / 2.0);
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
