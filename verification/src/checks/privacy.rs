//! Checks with ids under `privacy/` and their fixtures: the DP-FTS-DE accountant reproduction,
//! the PLD accountant next to it, calibrations solved to their targets, sampler distribution
//! tests with power checks, hardened defaults, typed errors on bad input.

use ndarray::Array1;
use privacy::accountant::rdp::{
    default_orders, log_a_fractional, log_a_integer, paper_preset_epsilon,
    subsampled_gaussian_epsilon,
};
use privacy::accountant::{
    PldSettings, RdpConversion, ZcdpConversion, rho_for_target, subsampled_gaussian_pld_epsilon,
    zcdp_to_epsilon,
};
use privacy::distribution_tests::{
    discrete_gaussian_cdf, discrete_laplace_cdf, dkw_threshold, hoeffding_threshold, ks_statistic,
    ks_statistic_integer, laplace_cdf,
};
use privacy::exact;
use privacy::mechanisms::gaussian::gaussian_delta;
use privacy::mechanisms::{
    ConvertToLaplace, ExponentialMechanism, GaussianMechanism, LaplaceMechanism, StreamShape,
    SubsampledGaussian, TreeAggregation, analytic_sigma, classic_sigma, node_sigma, tree_levels,
};
use privacy::sampler::{Grid, Hardened, NoiseSampler, Norm, Textbook};
use privacy::{PrivacyError, Sampler};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use serde_json::{Value, json};
use statrs::distribution::{ContinuousCDF, Normal};

use crate::check::{Check, Context, Outcome, verdict};
use crate::fixtures::{Entry, Fixture, number};
use crate::report::CheckKind;

/// The five privacy losses of DP-FTS-DE (Fig. 2c, 2d): T = 40, N = 200, delta = N^-1.1.
pub const PAPER_CASES: [(f64, f64, f64); 5] = [
    (0.15, 1.0, 5.93413386281),
    (0.25, 1.0, 9.90847934158),
    (0.5, 1.0, 20.1231098836),
    (0.25, 1.2, 7.39058115325),
    (0.25, 1.5, 5.22253499331),
];
const PAPER_STEPS: u64 = 40;

fn paper_delta() -> f64 {
    200f64.powf(-1.1)
}

/// False-alarm probability of each distribution test (DKW / Hoeffding, exact bounds).
const DISTRIBUTION_ALPHA: f64 = 1e-6;

/// The checks of this area, in the order they run.
pub fn checks() -> Vec<Check> {
    vec![
        Check {
            id: "privacy/accountant/paper-reproduction",
            run: paper_reproduction,
        },
        Check {
            id: "privacy/accountant/pld-vs-rdp",
            run: pld_vs_rdp,
        },
        Check {
            id: "privacy/accountant/pld-upper-bound-gaussian",
            run: pld_upper_bound_gaussian,
        },
        Check {
            id: "privacy/accountant/fractional-orders",
            run: fractional_orders,
        },
        Check {
            id: "privacy/calibration/solve-to-target",
            run: calibration_targets,
        },
        Check {
            id: "privacy/sampler/discrete-laplace",
            run: sampler_discrete_laplace,
        },
        Check {
            id: "privacy/sampler/discrete-gaussian",
            run: sampler_discrete_gaussian,
        },
        Check {
            id: "privacy/sampler/hardened-grid-laplace",
            run: sampler_grid_laplace,
        },
        Check {
            id: "privacy/sampler/hardened-grid-gaussian",
            run: sampler_grid_gaussian,
        },
        Check {
            id: "privacy/sampler/textbook-laplace",
            run: sampler_textbook_laplace,
        },
        Check {
            id: "privacy/sampler/textbook-gaussian",
            run: sampler_textbook_gaussian,
        },
        Check {
            id: "privacy/sampler/hardened-uniform",
            run: sampler_hardened_uniform,
        },
        Check {
            id: "privacy/mechanism/exponential-law",
            run: exponential_law,
        },
        Check {
            id: "privacy/mechanism/hardened-defaults",
            run: hardened_defaults,
        },
        Check {
            id: "privacy/params/typed-errors",
            run: typed_errors,
        },
    ]
}

fn e(err: PrivacyError) -> String {
    err.to_string()
}

fn paper_reproduction(_ctx: &Context) -> Result<Outcome, String> {
    let delta = paper_delta();
    let mut rows = Vec::new();
    let mut worst: f64 = 0.0;
    let mut lines = Vec::new();
    for (q, z, paper) in PAPER_CASES {
        let ours = paper_preset_epsilon(q, z, PAPER_STEPS, delta).map_err(e)?;
        let rel = ((ours - paper) / paper).abs();
        worst = worst.max(rel);
        rows.push(json!({"q": q, "z": z, "paper": paper, "ours": ours, "relative_error": rel}));
        lines.push(format!(
            "q={q} z={z}: paper {paper} ours {ours:.11} (rel {rel:.1e})"
        ));
    }
    Ok(Outcome::new(
        CheckKind::Reproduction,
        "RDP accountant, paper preset (integer orders 2..=33, classic conversion, T = 40 aggregation rounds)",
        "reproduces the five DP-FTS-DE privacy losses (Fig. 2c, 2d; delta = 200^-1.1) to 1e-8 relative",
        format!("worst relative error {worst:.2e}; {}", lines.join("; ")),
        verdict(worst <= 1e-8),
    )
    .value("rows", rows)
    .value("worst_relative_error", worst)
    .value("delta", delta))
}

fn pld_vs_rdp(ctx: &Context) -> Result<Outcome, String> {
    let delta = paper_delta();
    let h = ctx.mode.pick(2e-4, 5e-5);
    let settings = PldSettings {
        bin_width: h,
        ..PldSettings::default()
    };
    let mut rows = Vec::new();
    let mut ok = true;
    let mut lines = Vec::new();
    for (q, z, paper) in PAPER_CASES {
        let ours = paper_preset_epsilon(q, z, PAPER_STEPS, delta).map_err(e)?;
        let (rdp, order) = subsampled_gaussian_epsilon(
            q,
            z,
            PAPER_STEPS,
            delta,
            &default_orders(),
            RdpConversion::Improved,
        )
        .map_err(e)?;
        let pld = subsampled_gaussian_pld_epsilon(q, z, PAPER_STEPS, delta, settings).map_err(e)?;
        let gap = pld.epsilon - pld.epsilon_optimistic;
        ok &=
            pld.epsilon <= rdp && rdp <= ours && gap >= 0.0 && gap <= PAPER_STEPS as f64 * h + 1e-3;
        rows.push(json!({"q": q, "z": z, "paper": paper, "rdp_paper": ours, "rdp_improved": rdp, "rdp_improved_order": order,
                         "pld": pld.epsilon, "pld_remove": pld.epsilon_remove, "pld_add": pld.epsilon_add,
                         "pld_optimistic": pld.epsilon_optimistic}));
        lines.push(format!(
            "q={q} z={z}: paper {ours:.4}, rdp {rdp:.4}, pld {:.4} (optimistic {:.4})",
            pld.epsilon, pld.epsilon_optimistic
        ));
    }
    Ok(Outcome::new(
        CheckKind::Accuracy,
        format!("PLD accountant (pessimistic, bin width {h}) vs RDP on the DP-FTS-DE settings"),
        "eps_PLD <= eps_RDP(fractional orders, improved conversion) <= eps_RDP(paper preset); the pessimistic-optimistic gap is within T * bin width + 1e-3 (the bins shift the loss by at most h per round; tails and FFT allowance add a little)",
        lines.join("; "),
        verdict(ok),
    )
    .value("rows", rows)
    .value("bin_width", h))
}

fn pld_upper_bound_gaussian(ctx: &Context) -> Result<Outcome, String> {
    // q = 1: T rounds with multiplier z are one Gaussian mechanism with sensitivity/noise
    // sqrt(T)/z; its exact epsilon solves Balle & Wang's delta(eps) = delta.
    let h = ctx.mode.pick(1e-3, 1e-4);
    let mut rows = Vec::new();
    let mut ok = true;
    for (z, t, d) in [
        (1.0, 40u64, 200f64.powf(-1.1)),
        (2.0, 10, 1e-5),
        (0.8, 100, 1e-6),
    ] {
        let pld = subsampled_gaussian_pld_epsilon(
            1.0,
            z,
            t,
            d,
            PldSettings {
                bin_width: h,
                ..PldSettings::default()
            },
        )
        .map_err(e)?;
        let s = (t as f64).sqrt() / z;
        let (mut lo, mut hi) = (0.0, 1e3);
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            if gaussian_delta(1.0, s, mid) > d {
                lo = mid
            } else {
                hi = mid
            }
        }
        let upper = pld.epsilon >= hi && pld.epsilon <= hi + t as f64 * h + 1e-6;
        ok &= upper;
        rows.push(json!({"z": z, "steps": t, "delta": d, "exact": hi, "pld": pld.epsilon, "pld_optimistic": pld.epsilon_optimistic}));
    }
    Ok(Outcome::new(
        CheckKind::Accuracy,
        format!("PLD accountant at q = 1 (composed Gaussian, exact answer known), bin width {h}"),
        "the PLD epsilon is an upper bound on the exact one and within T * bin width of it",
        rows.iter()
            .map(|r| {
                format!(
                    "z={} T={}: exact {:.6}, pld {:.6}",
                    r["z"],
                    r["steps"],
                    r["exact"].as_f64().unwrap_or(f64::NAN),
                    r["pld"].as_f64().unwrap_or(f64::NAN)
                )
            })
            .collect::<Vec<_>>()
            .join("; "),
        verdict(ok),
    )
    .value("rows", rows))
}

fn fractional_orders(_ctx: &Context) -> Result<Outcome, String> {
    let mut worst: f64 = 0.0;
    for (q, z, _) in PAPER_CASES {
        for a in 2..=33u64 {
            let i = log_a_integer(q, z, a);
            let f = log_a_fractional(q, z, a as f64);
            worst = worst.max((i - f).abs() / i.abs().max(1e-3));
        }
    }
    Ok(Outcome::new(
        CheckKind::Property,
        "RDP of the Poisson-subsampled Gaussian: fractional-order series (Mironov, Talwar & Zhang 2019, Sec. 3.3)",
        "agrees with the exact integer-order binomial sum at alpha = 2..33 to 1e-9 relative",
        format!("worst relative difference {worst:.2e} over the five paper settings"),
        verdict(worst <= 1e-9),
    )
    .value("worst_relative_difference", worst))
}

fn calibration_targets(_ctx: &Context) -> Result<Outcome, String> {
    let mut worst: f64 = 0.0;
    let mut rows = Vec::new();
    for (eps, delta) in [
        (0.1, 1e-5),
        (0.5, 1e-6),
        (1.0, 1e-5),
        (3.0, 1e-8),
        (8.0, 1e-3),
    ] {
        let s = analytic_sigma(eps, delta, 1.0).map_err(e)?;
        let got = gaussian_delta(s, 1.0, eps);
        let r1 = ((got - delta) / delta).abs();
        let mut r = r1;
        let mut zc = Vec::new();
        for conv in [ZcdpConversion::Classic, ZcdpConversion::Cks] {
            let rho = rho_for_target(eps, delta, conv).map_err(e)?;
            let back = zcdp_to_epsilon(rho, delta, conv).map_err(e)?;
            r = r.max(((back - eps) / eps).abs());
            zc.push(rho);
        }
        let sigma_tree = node_sigma(1024, eps, delta, 1.0, ZcdpConversion::Cks).map_err(e)?;
        let levels = tree_levels(1024).map_err(e)? as f64;
        let back = zcdp_to_epsilon(
            levels / (2.0 * sigma_tree * sigma_tree),
            delta,
            ZcdpConversion::Cks,
        )
        .map_err(e)?;
        r = r.max(((back - eps) / eps).abs());
        worst = worst.max(r);
        rows.push(json!({"eps": eps, "delta": delta, "analytic_sigma": s, "delta_at_sigma": got, "rho_classic": zc[0], "rho_cks": zc[1], "tree_sigma_T1024": sigma_tree, "worst_relative": r}));
    }
    Ok(Outcome::new(
        CheckKind::Accuracy,
        "calibrations: analytic Gaussian sigma, zCDP inverse (classic and CKS conversions), tree node sigma (T = 1024, CKS)",
        "each calibration meets its target (delta for the analytic Gaussian, eps for the zCDP ones) to 1e-9 relative",
        format!("worst relative error {worst:.2e} over 5 (eps, delta) targets"),
        verdict(worst <= 1e-9),
    )
    .value("rows", rows)
    .value("worst_relative_error", worst))
}

/// Run a null test and a power test: pass iff the null statistic is within the threshold and
/// the power statistic exceeds it.
fn distribution_outcome(
    subject: String,
    claim: &str,
    n: usize,
    null: f64,
    power: f64,
    thr: f64,
) -> Outcome {
    Outcome::new(
        CheckKind::Distribution,
        subject,
        claim.to_string(),
        format!("n = {n}: statistic {null:.5} vs threshold {thr:.5}; power variant (scale x 1.1): {power:.5}"),
        verdict(null <= thr && power > thr),
    )
    .value("n", n)
    .value("statistic", null)
    .value("threshold", thr)
    .value("power_statistic", power)
    .false_alarm(DISTRIBUTION_ALPHA)
}

const KS_CLAIM: &str = "Kolmogorov-Smirnov distance within the DKW threshold sqrt(ln(2/alpha)/(2n)) at alpha = 1e-6 (plus the stated grid allowance), and the same test rejects the sampler at a scale 10% too large";

fn sampler_discrete_laplace(ctx: &Context) -> Result<Outcome, String> {
    let n = ctx.mode.pick(100_000, 1_000_000);
    let mut rng = ChaCha20Rng::seed_from_u64(ctx.seed_for("privacy/sampler/discrete-laplace"));
    let draw = |num: u64, den: u64, rng: &mut ChaCha20Rng| -> Vec<i64> {
        (0..n)
            .map(|_| exact::discrete_laplace_small(num, den, rng).unwrap_or(i64::MAX))
            .collect()
    };
    let thr = dkw_threshold(n, DISTRIBUTION_ALPHA);
    let x = draw(37, 10, &mut rng);
    let null = ks_statistic_integer(&x, |k| discrete_laplace_cdf(3.7, k));
    let y = draw(407, 100, &mut rng);
    let power = ks_statistic_integer(&y, |k| discrete_laplace_cdf(3.7, k));
    Ok(distribution_outcome(
        "exact discrete Laplace (CKS 2020 Alg. 2), scale t = 37/10".into(),
        KS_CLAIM,
        n,
        null,
        power,
        thr,
    ))
}

fn sampler_discrete_gaussian(ctx: &Context) -> Result<Outcome, String> {
    let n = ctx.mode.pick(100_000, 1_000_000);
    let mut rng = ChaCha20Rng::seed_from_u64(ctx.seed_for("privacy/sampler/discrete-gaussian"));
    let draw = |p: u64, q: u64, rng: &mut ChaCha20Rng| -> Vec<i64> {
        (0..n)
            .map(|_| exact::discrete_gaussian_small(p, q, rng).unwrap_or(i64::MAX))
            .collect()
    };
    let thr = dkw_threshold(n, DISTRIBUTION_ALPHA);
    let cdf = discrete_gaussian_cdf(2.9);
    let null = ks_statistic_integer(&draw(841, 100, &mut rng), &cdf);
    let power = ks_statistic_integer(&draw(319 * 319, 100 * 100, &mut rng), &cdf);
    Ok(distribution_outcome(
        "exact discrete Gaussian (CKS 2020 Alg. 3), sigma^2 = 841/100".into(),
        KS_CLAIM,
        n,
        null,
        power,
        thr,
    ))
}

fn grid_check(ctx: &Context, id: &str, gaussian: bool) -> Result<Outcome, String> {
    let n = ctx.mode.pick(100_000, 1_000_000);
    let mut rng = ChaCha20Rng::seed_from_u64(ctx.seed_for(id));
    let grid = Grid::for_sensitivity(1.0, 1, Norm::L1).map_err(e)?;
    let w = grid.width();
    let scale = if gaussian { 2.3 } else { 1.7 };
    let sample = |s: f64, rng: &mut ChaCha20Rng| -> Result<Vec<f64>, String> {
        (0..n)
            .map(|_| {
                if gaussian {
                    Hardened.perturb_gaussian(0.0, s, grid, rng)
                } else {
                    Hardened.perturb_laplace(0.0, s, grid, rng)
                }
            })
            .collect::<Result<Vec<f64>, _>>()
            .map_err(e)
    };
    let normal = Normal::new(0.0, scale).map_err(|x| x.to_string())?;
    let cdf = |v: f64| {
        if gaussian {
            normal.cdf(v)
        } else {
            laplace_cdf(scale, v)
        }
    };
    // One grid atom: the grid law's CDF is within w/scale of the continuous one.
    let thr = dkw_threshold(n, DISTRIBUTION_ALPHA) + w / scale;
    let null = ks_statistic(&sample(scale, &mut rng)?, cdf);
    let power = ks_statistic(&sample(1.1 * scale, &mut rng)?, cdf);
    let name = if gaussian {
        "discrete Gaussian"
    } else {
        "discrete Laplace"
    };
    Ok(distribution_outcome(
        format!(
            "hardened {name} on the grid of width 2^{} (sensitivity 1), scale {scale}, vs the continuous law",
            grid.exponent()
        ),
        KS_CLAIM,
        n,
        null,
        power,
        thr,
    ))
}

fn sampler_grid_laplace(ctx: &Context) -> Result<Outcome, String> {
    grid_check(ctx, "privacy/sampler/hardened-grid-laplace", false)
}

fn sampler_grid_gaussian(ctx: &Context) -> Result<Outcome, String> {
    grid_check(ctx, "privacy/sampler/hardened-grid-gaussian", true)
}

fn sampler_textbook_laplace(ctx: &Context) -> Result<Outcome, String> {
    let n = ctx.mode.pick(200_000, 2_000_000);
    let mut rng = ChaCha20Rng::seed_from_u64(ctx.seed_for("privacy/sampler/textbook-laplace"));
    let b = 0.8;
    let x: Vec<f64> = (0..n).map(|_| Textbook::laplace(b, &mut rng)).collect();
    let y: Vec<f64> = (0..n)
        .map(|_| Textbook::laplace(1.1 * b, &mut rng))
        .collect();
    let thr = dkw_threshold(n, DISTRIBUTION_ALPHA);
    Ok(distribution_outcome(
        "textbook Laplace (inverse CDF on a uniform double), scale 0.8".into(),
        KS_CLAIM,
        n,
        ks_statistic(&x, |v| laplace_cdf(b, v)),
        ks_statistic(&y, |v| laplace_cdf(b, v)),
        thr,
    ))
}

fn sampler_textbook_gaussian(ctx: &Context) -> Result<Outcome, String> {
    let n = ctx.mode.pick(200_000, 2_000_000);
    let mut rng = ChaCha20Rng::seed_from_u64(ctx.seed_for("privacy/sampler/textbook-gaussian"));
    let normal = Normal::new(0.0, 1.3).map_err(|x| x.to_string())?;
    let x: Vec<f64> = (0..n).map(|_| Textbook::gaussian(1.3, &mut rng)).collect();
    let y: Vec<f64> = (0..n).map(|_| Textbook::gaussian(1.43, &mut rng)).collect();
    let thr = dkw_threshold(n, DISTRIBUTION_ALPHA);
    Ok(distribution_outcome(
        "textbook Gaussian (rand_distr StandardNormal), sigma 1.3".into(),
        KS_CLAIM,
        n,
        ks_statistic(&x, |v| normal.cdf(v)),
        ks_statistic(&y, |v| normal.cdf(v)),
        thr,
    ))
}

fn sampler_hardened_uniform(ctx: &Context) -> Result<Outcome, String> {
    let n = ctx.mode.pick(200_000, 2_000_000);
    let mut rng = ChaCha20Rng::seed_from_u64(ctx.seed_for("privacy/sampler/hardened-uniform"));
    let u: Vec<f64> = (0..n).map(|_| Hardened.uniform(&mut rng)).collect();
    // Power variant: the range 10% off, i.e. 1.1 u (truncated at 1), compared with U(0, 1).
    let v: Vec<f64> = u.iter().map(|x| (x * 1.1).min(1.0)).collect();
    let thr = dkw_threshold(n, DISTRIBUTION_ALPHA);
    let cdf = |x: f64| x.clamp(0.0, 1.0);
    let below = u.iter().filter(|&&x| x < 2f64.powi(-53)).count();
    Ok(distribution_outcome(
        format!(
            "hardened uniform double on [0, 1) (geometric exponent, 52-bit mantissa); {below} draws below 2^-53"
        ),
        "KS distance within the DKW threshold at alpha = 1e-6; the same test rejects 1.1 u truncated at 1 (range 10% off)",
        n,
        ks_statistic(&u, cdf),
        ks_statistic(&v, cdf),
        thr,
    ))
}

fn exponential_law(ctx: &Context) -> Result<Outcome, String> {
    let n = ctx.mode.pick(100_000, 1_000_000);
    let u = [0.0, 1.0, 2.0, 3.0, 0.5];
    let m = ExponentialMechanism::new(2.0, 1.0).map_err(e)?;
    let p = m.probabilities(&u).map_err(e)?;
    let mut rng = ChaCha20Rng::seed_from_u64(ctx.seed_for("privacy/mechanism/exponential-law"));
    let freq = |mech: &ExponentialMechanism, rng: &mut ChaCha20Rng| -> Result<Vec<f64>, String> {
        let mut c = vec![0usize; u.len()];
        for _ in 0..n {
            c[mech.select(&u, rng).map_err(e)?] += 1;
        }
        Ok(c.into_iter().map(|x| x as f64 / n as f64).collect())
    };
    let f = freq(&m, &mut rng)?;
    let g = freq(&ExponentialMechanism::new(2.2, 1.0).map_err(e)?, &mut rng)?;
    let dev = |x: &[f64]| {
        x.iter()
            .zip(&p)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max)
    };
    let thr = hoeffding_threshold(n, u.len(), DISTRIBUTION_ALPHA);
    let (null, power) = (dev(&f), dev(&g));
    Ok(Outcome::new(
        CheckKind::Distribution,
        "exponential mechanism, exact rejection sampler (hardened), utilities (0,1,2,3,0.5), eps 2, sensitivity 1",
        "all selection frequencies within the simultaneous Hoeffding threshold of softmax(eps u / (2 Delta)) at alpha = 1e-6; eps 10% too large is rejected",
        format!("n = {n}: max deviation {null:.5} vs threshold {thr:.5}; power variant {power:.5}"),
        verdict(null <= thr && power > thr),
    )
    .value("probabilities", p)
    .value("frequencies", f)
    .value("threshold", thr)
    .false_alarm(DISTRIBUTION_ALPHA))
}

fn hardened_defaults(_ctx: &Context) -> Result<Outcome, String> {
    let defaults = [
        (
            "laplace",
            LaplaceMechanism::new(1.0, 1.0).map_err(e)?.sampler(),
        ),
        (
            "convert_to_laplace",
            ConvertToLaplace::new(1.0, 1.0, 1.0).map_err(e)?.sampler(),
        ),
        (
            "gaussian",
            GaussianMechanism::analytic(1.0, 1e-5, 1.0)
                .map_err(e)?
                .sampler(),
        ),
        (
            "tree_aggregation",
            TreeAggregation::new(StreamShape::Vector(2), 8, 1.0, 1.0)
                .map_err(e)?
                .sampler(),
        ),
        (
            "exponential",
            ExponentialMechanism::new(1.0, 1.0).map_err(e)?.sampler(),
        ),
        (
            "subsampled_gaussian",
            SubsampledGaussian::new(0.5, 1.0, 1.0).map_err(e)?.sampler(),
        ),
    ];
    let bad: Vec<&str> = defaults
        .iter()
        .filter(|(_, s)| *s != Sampler::Hardened)
        .map(|(n, _)| *n)
        .collect();
    Ok(Outcome::new(
        CheckKind::Property,
        "default sampler of every data-releasing mechanism",
        "is the hardened one (textbook samplers only by explicit choice)",
        if bad.is_empty() {
            "all six mechanisms default to the hardened sampler".to_string()
        } else {
            format!("textbook by default: {bad:?}")
        },
        verdict(bad.is_empty() && Sampler::default() == Sampler::Hardened),
    ))
}

fn typed_errors(_ctx: &Context) -> Result<Outcome, String> {
    let cases: Vec<(&str, bool)> = vec![
        ("eps = 0", LaplaceMechanism::new(0.0, 1.0).is_err()),
        (
            "eps = NaN",
            GaussianMechanism::analytic(f64::NAN, 1e-5, 1.0).is_err(),
        ),
        (
            "delta = 1",
            GaussianMechanism::analytic(1.0, 1.0, 1.0).is_err(),
        ),
        ("q = 0", SubsampledGaussian::new(0.0, 1.0, 1.0).is_err()),
        ("q = 1.5", paper_preset_epsilon(1.5, 1.0, 40, 1e-5).is_err()),
        (
            "sensitivity = -1",
            ExponentialMechanism::new(1.0, -1.0).is_err(),
        ),
        (
            "T = 0",
            node_sigma(0, 1.0, 1e-5, 1.0, ZcdpConversion::Classic).is_err(),
        ),
        ("classic eps >= 1", classic_sigma(1.5, 1e-5, 1.0).is_err()),
        (
            "NaN reward",
            ConvertToLaplace::new(1.0, 1.0, 1.0)
                .map(|c| c.privatize_with_noise(f64::NAN, 0.0).is_err())
                .unwrap_or(false),
        ),
    ];
    let failed: Vec<&str> = cases
        .iter()
        .filter(|(_, ok)| !ok)
        .map(|(n, _)| *n)
        .collect();
    Ok(Outcome::new(
        CheckKind::Property,
        "validated parameters and mechanism inputs",
        "bad input returns the crate's typed error (never a panic or NaN); the property test in crates/privacy/tests/bad_input.rs covers random bad values",
        if failed.is_empty() {
            format!("{} cases, all errors", cases.len())
        } else {
            format!("accepted: {failed:?}")
        },
        verdict(failed.is_empty()),
    ))
}

/// The fixtures of this area.
pub fn fixtures() -> Result<Vec<Entry>, String> {
    Ok(vec![
        accountant_fixture()?,
        calibration_fixture()?,
        exponential_fixture()?,
    ])
}

/// The PLD settings of the accountant fixture (coarse, so that the regeneration test is fast).
const FIXTURE_PLD: PldSettings = PldSettings {
    bin_width: 1e-3,
    tail_mass: 1e-20,
};

fn accountant_fixture() -> Result<Entry, String> {
    let mut cases = Vec::new();
    let mut outs = Vec::new();
    let delta = paper_delta();
    let mut list: Vec<(f64, f64, u64, f64)> = PAPER_CASES
        .iter()
        .map(|&(q, z, _)| (q, z, PAPER_STEPS, delta))
        .collect();
    list.push((1.0, 2.0, 10, 1e-5));
    list.push((0.05, 0.9, 100, 1e-5));
    for (q, z, t, d) in list {
        let paper = paper_preset_epsilon(q, z, t, d).map_err(e)?;
        let (rdp, order) =
            subsampled_gaussian_epsilon(q, z, t, d, &default_orders(), RdpConversion::Improved)
                .map_err(e)?;
        let pld = subsampled_gaussian_pld_epsilon(q, z, t, d, FIXTURE_PLD).map_err(e)?;
        cases.push(json!({"q": q, "noise_multiplier": z, "steps": t, "delta": d}));
        outs.push(json!({"rdp_paper": number(paper), "rdp_improved": number(rdp), "rdp_improved_order": number(order),
                         "pld": number(pld.epsilon), "pld_optimistic": number(pld.epsilon_optimistic)}));
    }
    Ok((
        "privacy/accountant.json".into(),
        Fixture {
            name: "accountant".into(),
            description: "Epsilon of `steps` rounds of the Poisson-subsampled Gaussian mechanism (sampling rate q, noise std = noise_multiplier * sensitivity, add/remove neighbours) at delta. rdp_paper: RDP at integer orders 2..=33, A_a = sum_k C(a,k)(1-q)^(a-k) q^k exp((k^2-k)/(2z^2)), RDP = steps ln(A_a)/(a-1), eps = min_a RDP + ln(1/delta)/(a-1) (the DP-FTS-DE moments accountant; the first five cases are the paper's Fig. 2c/2d, delta = 200^-1.1). rdp_improved: orders 1.1,1.2,...,10.9, 11..=64, 128, 256, 512 (fractional orders by Mironov-Talwar-Zhang 2019 Sec. 3.3), eps = min_a RDP + ln((a-1)/a) - (ln delta + ln a)/(a-1) (Balle et al. 2020). pld: privacy-loss distribution, loss bins of width 1e-3 with each bin's exact mass at its upper end (pessimistic), tail mass above the range (1e-20 per round) counted as infinite loss, T-fold FFT convolution, max over the remove and add orientations; pld_optimistic: masses at the lower bin ends. The PLD numbers depend on the bin width (the pessimistic bias is at most steps * 1e-3).".into(),
            inputs: json!({"cases": cases}),
            outputs: json!({"epsilons": outs}),
        },
    ))
}

fn calibration_fixture() -> Result<Entry, String> {
    let mut gauss = Vec::new();
    for (eps, delta, s) in [(0.5, 1e-5, 1.0), (0.9, 1e-6, 2.0), (0.1, 1e-3, 0.5)] {
        gauss.push(json!({"eps": eps, "delta": delta, "l2_sensitivity": s,
            "classic_sigma": number(classic_sigma(eps, delta, s).map_err(e)?),
            "analytic_sigma": number(analytic_sigma(eps, delta, s).map_err(e)?)}));
    }
    for (eps, delta, s) in [(1.0, 1e-5, 1.0), (4.0, 1e-8, 3.0)] {
        gauss.push(json!({"eps": eps, "delta": delta, "l2_sensitivity": s,
            "analytic_sigma": number(analytic_sigma(eps, delta, s).map_err(e)?)}));
    }
    let mut zc = Vec::new();
    for (rho, delta) in [(0.1, 1e-5), (0.5, 1e-6), (2.0, 1e-3)] {
        zc.push(json!({"rho": rho, "delta": delta,
            "eps_classic": number(zcdp_to_epsilon(rho, delta, ZcdpConversion::Classic).map_err(e)?),
            "eps_cks": number(zcdp_to_epsilon(rho, delta, ZcdpConversion::Cks).map_err(e)?)}));
    }
    let mut inv = Vec::new();
    for (eps, delta) in [(1.0, 1e-5), (0.3, 1e-6), (5.0, 1e-3)] {
        inv.push(json!({"eps": eps, "delta": delta,
            "rho_classic": number(rho_for_target(eps, delta, ZcdpConversion::Classic).map_err(e)?),
            "rho_cks": number(rho_for_target(eps, delta, ZcdpConversion::Cks).map_err(e)?)}));
    }
    let mut tree = Vec::new();
    for (t, eps, delta, s) in [
        (1000u64, 1.0, 1e-5, 1.0),
        (64, 0.5, 1e-6, std::f64::consts::SQRT_2 * 2.0),
        (1, 2.0, 1e-3, 1.0),
    ] {
        tree.push(json!({"horizon": t, "eps": eps, "delta": delta, "l2_sensitivity": number(s),
            "levels": tree_levels(t).map_err(e)?,
            "node_sigma_classic": number(node_sigma(t, eps, delta, s, ZcdpConversion::Classic).map_err(e)?),
            "node_sigma_cks": number(node_sigma(t, eps, delta, s, ZcdpConversion::Cks).map_err(e)?)}));
    }
    let mut ctl = Vec::new();
    for (eps, b, r) in [(1.0, 1.0, 0.5), (0.5, 2.0, 0.0), (8.0, 1.0, 1.0)] {
        let c = ConvertToLaplace::new(eps, b, r).map_err(e)?;
        ctl.push(json!({"eps": eps, "B": b, "R": r, "paper_scale": number(c.paper_scale()), "hardened_scale": number(c.scale())}));
    }
    Ok((
        "privacy/calibration.json".into(),
        Fixture {
            name: "calibration".into(),
            description: "Noise calibrations. gaussian: classic_sigma = Delta sqrt(2 ln(1.25/delta))/eps (only for eps < 1); analytic_sigma = the smallest sigma with Phi(Delta/(2 sigma) - eps sigma/Delta) - e^eps Phi(-Delta/(2 sigma) - eps sigma/Delta) <= delta (Balle & Wang 2018). zcdp_to_eps: eps_classic = rho + 2 sqrt(rho ln(1/delta)); eps_cks = inf_{a>1} a rho + (ln(1/delta) - ln a)/(a-1) + ln(1 - 1/a) (Canonne, Kamath & Steinke 2020). eps_to_rho: the largest rho whose conversion equals eps. tree: node noise std of the binary mechanism, sigma = Delta sqrt(L/(2 rho*)) with L = floor(log2 T) + 1 levels and rho* = eps_to_rho(eps, delta) (classic or CKS). ctl: Convert-to-Laplace scale 2(B+R)/eps (Zhou & Tan 2021, Curator 1) and the hardened scale 2(B+R)(1 + 2^-20)/eps (grid rounding counted in the sensitivity).".into(),
            inputs: json!({"note": "inputs are listed with each output row"}),
            outputs: json!({"gaussian": gauss, "zcdp_to_eps": zc, "eps_to_rho": inv, "tree": tree, "ctl": ctl}),
        },
    ))
}

fn exponential_fixture() -> Result<Entry, String> {
    let mut rows = Vec::new();
    let cases: [(Vec<f64>, f64, f64); 3] = [
        (vec![0.0, 1.0, 2.0, 3.0, 0.5], 2.0, 1.0),
        (vec![-5.0, 0.0, 5.0], 0.1, 2.0),
        (vec![1000.0, 999.0, 0.0, 1000.0], 1.0, 0.5),
    ];
    for (u, eps, s) in cases {
        let p = ExponentialMechanism::new(eps, s)
            .map_err(e)?
            .probabilities(&u)
            .map_err(e)?;
        rows.push(json!({"utilities": Array1::from(u.clone()).to_vec(), "eps": eps, "utility_sensitivity": s,
                         "probabilities": Value::Array(p.into_iter().map(number).collect())}));
    }
    Ok((
        "privacy/exponential.json".into(),
        Fixture {
            name: "exponential".into(),
            description: "Exponential mechanism selection probabilities p_i = exp(eps u_i / (2 Delta_u)) / sum_j exp(eps u_j / (2 Delta_u)), computed by log-sum-exp (no overflow for large utilities).".into(),
            inputs: json!({"note": "inputs are listed with each output row"}),
            outputs: json!({"cases": rows}),
        },
    ))
}
