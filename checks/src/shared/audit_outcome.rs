//! How an audit result becomes an outcome: the verdict rule of a correct mechanism or of a
//! deliberately broken one, the measured text, the report's audit fields and the trade-off plot.

use super::ALPHA;
use verification::audit::AuditResult;
use verification::{CheckKind, Verdict};
use verification::{Context, Outcome};

/// Draw the check's trade-off plot and return its path relative to the report (`None` when it
/// cannot be drawn: a missing plot is not a failed audit).
pub fn tradeoff_plot(ctx: &Context, r: &AuditResult) -> Option<String> {
    let (rel, abs) = ctx.plot_path(verification::plot::TRADEOFF_SUFFIX);
    verification::plot::tradeoff(&abs, ctx.id(), r)
        .ok()
        .map(|()| rel)
}

/// How an audit result turns into a verdict.
#[derive(Clone, Copy)]
pub enum Expect {
    /// A correct mechanism: fail when violated; inconclusive when the tightness (of the route
    /// reported as `tightness`) is below the bound.
    Holds {
        /// The tightness below which the audit is inconclusive (`None`: no requirement).
        min_tightness: Option<f64>,
    },
    /// A broken variant: pass when violated.
    Flagged,
}

impl Expect {
    /// A correct mechanism that must reach `min_tightness` (if any).
    pub const fn holds(min_tightness: Option<f64>) -> Self {
        Self::Holds { min_tightness }
    }
}

/// A number with four decimals, or `-` when absent.
pub fn fmt_opt(v: Option<f64>) -> String {
    v.map_or_else(|| "-".into(), |x| format!("{x:.4}"))
}

/// The outcome of check `ctx` from audit `r`: the verdict by `expect` (a correct mechanism
/// fails when violated and is inconclusive below its tightness; a broken one passes when
/// flagged), the measured numbers, the report's audit fields, the false-alarm probability
/// [`ALPHA`] (correct mechanisms only) and the trade-off plot.
pub fn audit_outcome(
    ctx: &Context,
    kind: CheckKind,
    subject: String,
    r: &AuditResult,
    expect: Expect,
) -> Outcome {
    let tight = r.mu_tightness.or(r.eps_tightness);
    let (claim, verdict) = match expect {
        Expect::Holds { min_tightness } => {
            let claim = match min_tightness {
                Some(t) => format!(
                    "no certified point below the claim's trade-off curve at confidence 1 - {ALPHA:e}, and tightness >= {t}"
                ),
                None => format!(
                    "no certified point below the claim's trade-off curve at confidence 1 - {ALPHA:e}"
                ),
            };
            let v = if r.violated {
                Verdict::Fail
            } else if min_tightness.is_some_and(|t| tight.is_none_or(|x| x < t)) {
                Verdict::Inconclusive
            } else {
                Verdict::Pass
            };
            (claim, v)
        }
        Expect::Flagged => (
            "the auditor flags the broken variant (a certified point below the claimed curve)"
                .to_string(),
            verification::verdict(r.violated),
        ),
    };
    let measured = format!(
        "eps_lower = {:.4} (claimed {} at delta = {:e}), mu_lower = {} (mu of the pair {}), tightness eps {} / mu {}; {} + {} outputs per input; event {}",
        r.eps_lower,
        fmt_opt(r.eps_claimed),
        r.delta,
        fmt_opt(r.mu_lower),
        fmt_opt(r.mu_reference),
        fmt_opt(r.eps_tightness),
        fmt_opt(r.mu_tightness),
        r.train_samples,
        r.samples,
        r.eps_event.event
    );
    let mut o = Outcome::new(kind, subject, claim, measured, verdict)
        .audit(r.summary.clone())
        .value("eps_lower", r.eps_lower)
        .value("eps_claimed", r.eps_claimed)
        .value("mu_lower", r.mu_lower)
        .value("violated", r.violated)
        .value("samples_per_input", r.samples)
        .value("train_samples_per_input", r.train_samples);
    if !matches!(expect, Expect::Flagged) {
        o = o.false_alarm(ALPHA);
    }
    if let Some(p) = tradeoff_plot(ctx, r) {
        o = o.plot(p);
    }
    o
}
