//! Audits of convert-to-Laplace (CTL): an out-of-range reward, and the control without
//! clipping.

use crate::shared::{ALPHA, Expect, audit_outcome};
use ::ldp_bo::ConvertToLaplace;
use privacy::Sampler;
use privacy::sampler::{Grid, NoiseSampler, Norm};
use rand_chacha::ChaCha20Rng;
use verification::CheckKind;
use verification::audit::{AuditConfig, HistogramRatio, audit, audit_mechanism};
use verification::{CheckResult, Context};

pub(super) fn ctl_eps1(ctx: &Context) -> CheckResult {
    let m = ConvertToLaplace::new(1.0, 1.0, 0.5)?;
    let n = ctx.mode.pick(1_000_000, 4_000_000);
    // Worst case: the lower end of the range against a reward far above it (clipped to B + R).
    let (x, xp) = (-m.bound(), 10.0 * m.bound());
    let cfg = AuditConfig::new(n, ALPHA, ctx.check_seed()).train(n / 2);
    let r = audit_mechanism(&m, &x, &xp, &HistogramRatio { bins: 200 }, &cfg)?;
    Ok(audit_outcome(
        ctx,
        CheckKind::Audit,
        format!(
            "{} on rewards {x} and {xp} (black box: histogram)",
            m.claim().subject
        ),
        &r,
        Expect::holds(Some(0.85)),
    ))
}

pub(super) fn control_ctl_without_clipping(ctx: &Context) -> CheckResult {
    let m = ConvertToLaplace::new(1.0, 1.0, 0.5)?;
    let grid = Grid::for_sensitivity(2.0 * m.bound(), 1, Norm::L1)?;
    let scale = m.scale();
    // CTL's noise without the clipping step, on a reward outside [-(B+R), B+R].
    let f =
        |y: &f64, rng: &mut ChaCha20Rng| Sampler::Hardened.perturb_laplace(*y, scale, grid, rng);
    let (x, xp) = (-m.bound(), 3.0 * m.bound());
    let n = ctx.mode.pick(200_000, 1_000_000);
    let cfg = AuditConfig::new(n, ALPHA, ctx.check_seed());
    let r = audit(f, &x, &xp, &m.claim(), &HistogramRatio { bins: 100 }, &cfg)?;
    Ok(audit_outcome(
        ctx,
        CheckKind::PositiveControl,
        format!(
            "CTL noise without clipping on rewards {x} and {xp}, claiming {}",
            m.claim().subject
        ),
        &r,
        Expect::Flagged,
    ))
}
