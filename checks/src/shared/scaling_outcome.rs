//! How a scaling result becomes an outcome, and the suite's scaling configuration.

use super::ALPHA;
use verification::scaling::{ScalingConfig, ScalingResult, replicate_fail_rate};
use verification::{CheckKind, Verdict};
use verification::{CheckResult, Context, Outcome};

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
/// algorithm that meets its bound, FAIL for a positive control), by [`against_expected`]; with
/// the slope, its interval, the mean regrets and the scaling plot.
pub fn scaling_outcome(
    ctx: &Context,
    kind: CheckKind,
    subject: &str,
    r: &ScalingResult,
    expected: Verdict,
) -> Outcome {
    let verdict = against_expected(r.verdict, expected);
    let claim = format!(
        "the scaling checker returns {} against exponent {} with log factor (ln T)^{} (slope of ln(R_T / (ln T)^{}) vs ln T, {}-seed bootstrap interval at level 1 - {:e}){}",
        expected.to_string().to_uppercase(),
        r.config.theory_exponent,
        r.config.log_power,
        r.config.log_power,
        r.config.seeds,
        r.config.alpha,
        if expected == Verdict::Fail {
            "; a PASS or INCONCLUSIVE of this control is a FAIL of the check (a checker that cannot fail it has no power against it)"
        } else {
            ""
        }
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

/// Resampled experiments behind a control's measured power ([`control_outcome`]).
pub const POWER_REPLICATES: usize = 200;

/// The outcome of a positive control of a scaling check (a learner with its confidence width set
/// to 0, or one that ignores its data): [`scaling_outcome`] expecting FAIL, with the measured
/// power, the fraction of [`POWER_REPLICATES`] experiments resampled from the control's own runs
/// that the checker FAILs ([`replicate_fail_rate`]): an estimate of the probability that this
/// control fails the check although the checker has the power the control shows (`1 - rate`).
pub fn control_outcome(ctx: &Context, subject: &str, r: &ScalingResult) -> CheckResult {
    let rate = replicate_fail_rate(r, POWER_REPLICATES)?;
    let mut o = scaling_outcome(ctx, CheckKind::PositiveControl, subject, r, Verdict::Fail)
        .value("replicate_fail_rate", rate)
        .value("replicates", POWER_REPLICATES);
    o.measured.push_str(&format!(
        "; power: the checker FAILs {rate:.3} of {POWER_REPLICATES} experiments resampled from these runs (with replacement, as many runs each)"
    ));
    Ok(o)
}

/// A check's verdict from the checker's `got` and the verdict the check `expected` of it: pass
/// when they agree. Otherwise, for a check of a correct algorithm (`expected` PASS), inconclusive
/// when the checker is and fail when it FAILs; for a positive control (`expected` FAIL), fail
/// whatever the checker returned: a control that ends INCONCLUSIVE shows the check cannot tell
/// the broken learner from a correct one, and a suite that let it through would let a planted
/// bug of the same kind through (issue 31: a learner with its width removed ended
/// INCONCLUSIVE and the run stayed green).
pub fn against_expected(got: Verdict, expected: Verdict) -> Verdict {
    if got == expected {
        Verdict::Pass
    } else if got == Verdict::Inconclusive && expected != Verdict::Fail {
        Verdict::Inconclusive
    } else {
        Verdict::Fail
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A positive control that the checker does not FAIL is a failed check, never inconclusive.
    #[test]
    fn a_control_that_is_not_failed_fails() {
        use Verdict::{Fail, Inconclusive, Pass};
        assert_eq!(against_expected(Fail, Fail), Pass);
        assert_eq!(against_expected(Inconclusive, Fail), Fail);
        assert_eq!(against_expected(Pass, Fail), Fail);
        assert_eq!(against_expected(Pass, Pass), Pass);
        assert_eq!(against_expected(Inconclusive, Pass), Inconclusive);
        assert_eq!(against_expected(Fail, Pass), Fail);
    }
}
