//! Distribution tests of the samplers (DKW/KS at 1e-6), each with a power check.

use crate::shared::ALPHA;
use privacy::distribution_tests::{
    discrete_gaussian_cdf, discrete_laplace_cdf, dkw_threshold, ks_statistic, ks_statistic_integer,
    laplace_cdf,
};
use privacy::exact;
use privacy::sampler::{Grid, Hardened, NoiseSampler, Norm, Textbook};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use statrs::distribution::{ContinuousCDF, Normal};
use verification::CheckKind;
use verification::{CheckError, CheckResult, Context, Outcome, verdict};

/// Run a null test and a power test: pass iff the null statistic is within the threshold and
/// the power statistic exceeds it.
pub(super) fn distribution_outcome(
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
    .false_alarm(ALPHA)
}

pub(super) const KS_CLAIM: &str = "Kolmogorov-Smirnov distance within the DKW threshold sqrt(ln(2/alpha)/(2n)) at alpha = 1e-6 (plus the stated grid allowance), and the same test rejects the sampler at a scale 10% too large";

pub(super) fn sampler_discrete_laplace(ctx: &Context) -> CheckResult {
    let n = ctx.mode.pick(100_000, 1_000_000);
    let mut rng = ChaCha20Rng::seed_from_u64(ctx.seed_for("privacy/sampler/discrete-laplace"));
    let draw = |num: u64, den: u64, rng: &mut ChaCha20Rng| -> Vec<i64> {
        (0..n)
            .map(|_| exact::discrete_laplace_small(num, den, rng).unwrap_or(i64::MAX))
            .collect()
    };
    let thr = dkw_threshold(n, ALPHA);
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

pub(super) fn sampler_discrete_gaussian(ctx: &Context) -> CheckResult {
    let n = ctx.mode.pick(100_000, 1_000_000);
    let mut rng = ChaCha20Rng::seed_from_u64(ctx.seed_for("privacy/sampler/discrete-gaussian"));
    let draw = |p: u64, q: u64, rng: &mut ChaCha20Rng| -> Vec<i64> {
        (0..n)
            .map(|_| exact::discrete_gaussian_small(p, q, rng).unwrap_or(i64::MAX))
            .collect()
    };
    let thr = dkw_threshold(n, ALPHA);
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

pub(super) fn grid_check(ctx: &Context, gaussian: bool) -> CheckResult {
    let n = ctx.mode.pick(100_000, 1_000_000);
    let mut rng = ChaCha20Rng::seed_from_u64(ctx.check_seed());
    let grid = Grid::for_sensitivity(1.0, 1, Norm::L1)?;
    let w = grid.width();
    let scale = if gaussian { 2.3 } else { 1.7 };
    let sample = |s: f64, rng: &mut ChaCha20Rng| -> Result<Vec<f64>, CheckError> {
        (0..n)
            .map(|_| {
                if gaussian {
                    Hardened.perturb_gaussian(0.0, s, grid, rng)
                } else {
                    Hardened.perturb_laplace(0.0, s, grid, rng)
                }
            })
            .collect::<Result<Vec<f64>, _>>()
            .map_err(CheckError::from)
    };
    let normal = Normal::new(0.0, scale)?;
    let cdf = |v: f64| {
        if gaussian {
            normal.cdf(v)
        } else {
            laplace_cdf(scale, v)
        }
    };
    // One grid atom: the grid law's CDF is within w/scale of the continuous one.
    let thr = dkw_threshold(n, ALPHA) + w / scale;
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

pub(super) fn sampler_grid_laplace(ctx: &Context) -> CheckResult {
    grid_check(ctx, false)
}

pub(super) fn sampler_grid_gaussian(ctx: &Context) -> CheckResult {
    grid_check(ctx, true)
}

pub(super) fn sampler_textbook_laplace(ctx: &Context) -> CheckResult {
    let n = ctx.mode.pick(200_000, 2_000_000);
    let mut rng = ChaCha20Rng::seed_from_u64(ctx.seed_for("privacy/sampler/textbook-laplace"));
    let b = 0.8;
    let x: Vec<f64> = (0..n).map(|_| Textbook::laplace(b, &mut rng)).collect();
    let y: Vec<f64> = (0..n)
        .map(|_| Textbook::laplace(1.1 * b, &mut rng))
        .collect();
    let thr = dkw_threshold(n, ALPHA);
    Ok(distribution_outcome(
        "textbook Laplace (inverse CDF on a uniform double), scale 0.8".into(),
        KS_CLAIM,
        n,
        ks_statistic(&x, |v| laplace_cdf(b, v)),
        ks_statistic(&y, |v| laplace_cdf(b, v)),
        thr,
    ))
}

pub(super) fn sampler_textbook_gaussian(ctx: &Context) -> CheckResult {
    let n = ctx.mode.pick(200_000, 2_000_000);
    let mut rng = ChaCha20Rng::seed_from_u64(ctx.seed_for("privacy/sampler/textbook-gaussian"));
    let normal = Normal::new(0.0, 1.3)?;
    let x: Vec<f64> = (0..n).map(|_| Textbook::gaussian(1.3, &mut rng)).collect();
    let y: Vec<f64> = (0..n).map(|_| Textbook::gaussian(1.43, &mut rng)).collect();
    let thr = dkw_threshold(n, ALPHA);
    Ok(distribution_outcome(
        "textbook Gaussian (rand_distr StandardNormal), sigma 1.3".into(),
        KS_CLAIM,
        n,
        ks_statistic(&x, |v| normal.cdf(v)),
        ks_statistic(&y, |v| normal.cdf(v)),
        thr,
    ))
}

pub(super) fn sampler_hardened_uniform(ctx: &Context) -> CheckResult {
    let n = ctx.mode.pick(200_000, 2_000_000);
    let mut rng = ChaCha20Rng::seed_from_u64(ctx.seed_for("privacy/sampler/hardened-uniform"));
    let u: Vec<f64> = (0..n).map(|_| Hardened.uniform(&mut rng)).collect();
    // Power variant: the range 10% off, i.e. 1.1 u (truncated at 1), compared with U(0, 1).
    let v: Vec<f64> = u.iter().map(|x| (x * 1.1).min(1.0)).collect();
    let thr = dkw_threshold(n, ALPHA);
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
