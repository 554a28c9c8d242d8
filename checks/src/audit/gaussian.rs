//! Audits of the Gaussian mechanism (classic and analytic) and a twice-sensitivity control.

use crate::shared::{ALPHA, Expect, MIN_TIGHTNESS, audit_outcome, gaussian_llr};
use privacy::Sampler;
use privacy::mechanisms::GaussianMechanism;
use verification::CheckKind;
use verification::audit::{AuditConfig, audit_mechanism};
use verification::{CheckResult, Context};

pub(super) fn gaussian_audit(
    ctx: &Context,
    m: &GaussianMechanism,
    distance: f64,
    expect: Expect,
    kind: CheckKind,
) -> CheckResult {
    // A flagged control needs fewer outputs than a tightness measurement; the smaller the mu,
    // the more outputs the same relative slack of mu_lower needs (slack ~ 12.6 / sqrt(n) at
    // alpha = 1e-6, so tightness 0.9 at mu = 0.19 needs n >~ 5e5, with margin 2e6).
    let n = match expect {
        Expect::Flagged => ctx.mode.pick(400_000, 2_000_000),
        Expect::Holds { .. } if distance / m.sigma() < 0.2 => ctx.mode.pick(2_000_000, 8_000_000),
        Expect::Holds { .. } => ctx.mode.pick(1_000_000, 4_000_000),
    };
    let mu = distance / m.sigma();
    let cfg = AuditConfig::new(n, ALPHA, ctx.check_seed())
        .train(n / 4)
        .delta(1e-5)
        .gaussian(Some(mu));
    let r = audit_mechanism(m, &0.0, &distance, &gaussian_llr(), &cfg)?;
    Ok(audit_outcome(
        ctx,
        kind,
        format!("{} on query values 0 and {distance}", m.claim().subject),
        &r,
        expect,
    ))
}

/// A correct Gaussian mechanism on query values at its sensitivity, 1, apart.
fn holds(ctx: &Context, m: &GaussianMechanism) -> CheckResult {
    let expect = Expect::holds(Some(MIN_TIGHTNESS));
    gaussian_audit(ctx, m, 1.0, expect, CheckKind::Audit)
}

pub(super) fn gaussian_classic(ctx: &Context) -> CheckResult {
    holds(ctx, &GaussianMechanism::classic(0.9, 1e-5, 1.0)?)
}

pub(super) fn gaussian_analytic(ctx: &Context) -> CheckResult {
    holds(ctx, &GaussianMechanism::analytic(1.0, 1e-5, 1.0)?)
}

pub(super) fn control_gaussian_twice_sensitivity(ctx: &Context) -> CheckResult {
    // The textbook analytic Gaussian claims (1, 1e-5)-DP for sensitivity 1; the inputs are at
    // distance 2.
    let m = GaussianMechanism::analytic(1.0, 1e-5, 1.0)?.with_sampler(Sampler::Textbook)?;
    gaussian_audit(ctx, &m, 2.0, Expect::Flagged, CheckKind::PositiveControl)
}
