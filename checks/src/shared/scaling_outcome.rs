//! How a scaling result becomes an outcome, and the suite's scaling configuration.

use super::ALPHA;
use verification::scaling::{ScalingConfig, ScalingResult};
use verification::{CheckKind, Verdict};
use verification::{Context, Outcome};

/// A scaling check at the suite's level [`ALPHA`] with 1000 bootstrap replicates, against the
/// exponent `theory_exponent` of `T` with log factor `(ln T)^log_power`.
pub fn scaling_config(
    horizons: Vec<usize>,
    seeds: usize,
    seed: u64,
    theory_exponent: f64,
    log_power: f64,
) -> ScalingConfig {
    ScalingConfig {
        horizons,
        seeds,
        bootstrap: 1000,
        alpha: ALPHA,
        theory_exponent,
        log_power,
        seed,
    }
}

/// The outcome of check `ctx` from scaling result `r`, expected to be `expected` (PASS for an
/// algorithm that meets its bound, FAIL for a positive control): pass when the checker returns
/// it, inconclusive when the checker is, fail otherwise; with the slope, its interval, the mean
/// regrets and the scaling plot.
pub fn scaling_outcome(
    ctx: &Context,
    kind: CheckKind,
    subject: &str,
    r: &ScalingResult,
    expected: Verdict,
) -> Outcome {
    let verdict = against_expected(r.verdict, expected);
    let claim = format!(
        "the scaling checker returns {} against exponent {} with log factor (ln T)^{} (slope of ln(R_T / (ln T)^{}) vs ln T, {}-seed bootstrap interval at level 1 - {:e})",
        expected.to_string().to_uppercase(),
        r.config.theory_exponent,
        r.config.log_power,
        r.config.log_power,
        r.config.seeds,
        r.config.alpha
    );
    // Distance of the interval from the boundary the verdict uses: PASS needs the upper end
    // <= a, FAIL the lower end > a.
    let a = r.config.theory_exponent;
    let (margin_pass, margin_fail) = (a - r.slope_upper, r.slope_lower - a);
    let measured = format!(
        "{}: slope {:.3}, interval [{:.3}, {:.3}] (bootstrap se {:.3}, 95% percentile [{:.3}, {:.3}]); the upper end is {:.3} below the exponent {} (negative: above it) and the lower end {:.3} above it (negative: below); raw slope of ln(mean) vs ln T {:.3} (the verdict tests the slope after dividing the mean by (ln T)^{}, the paper's log factor, which moves it by {:+.3}); horizons {:?}; mean regret {:?}",
        r.verdict.to_string().to_uppercase(),
        r.slope,
        r.slope_lower,
        r.slope_upper,
        r.slope_se,
        r.percentile_95.0,
        r.percentile_95.1,
        margin_pass,
        a,
        margin_fail,
        r.raw_slope,
        r.config.log_power,
        r.slope - r.raw_slope,
        r.config.horizons,
        r.mean
            .iter()
            .map(|m| (m * 100.0).round() / 100.0)
            .collect::<Vec<_>>()
    );
    let mut o = Outcome::new(kind, subject, claim, measured, verdict)
        .value("scaling_verdict", r.verdict)
        .value("slope", r.slope)
        .value("slope_lower", r.slope_lower)
        .value("slope_upper", r.slope_upper)
        .value("slope_se", r.slope_se)
        .value("raw_slope", r.raw_slope)
        .value("margin_below_exponent", margin_pass)
        .value("theory_exponent", r.config.theory_exponent)
        .value("log_power", r.config.log_power)
        .value("horizons", &r.config.horizons)
        .value("mean_regret", &r.mean)
        .value("seeds", r.config.seeds);
    if expected == Verdict::Pass {
        // Nominal (asymptotic) level of the normal bootstrap interval.
        o = o.false_alarm(r.config.alpha);
    }
    let (rel, abs) = ctx.plot_path(verification::plot::SCALING_SUFFIX);
    if verification::plot::scaling(&abs, ctx.id(), r).is_ok() {
        o = o.plot(rel);
    }
    o
}

/// A check's verdict from the checker's `got` and the verdict the check `expected` of it
/// (`Fail` for a positive control): pass when they agree, inconclusive when the checker is,
/// fail otherwise.
pub fn against_expected(got: Verdict, expected: Verdict) -> Verdict {
    if got == expected {
        Verdict::Pass
    } else if got == Verdict::Inconclusive {
        Verdict::Inconclusive
    } else {
        Verdict::Fail
    }
}
