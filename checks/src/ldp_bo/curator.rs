//! Audits of the CTL curator through the ldp-bo wrapper, and the unclipped control.

use crate::shared::{ALPHA, Expect, MIN_TIGHTNESS, audit_outcome, laplace_llr};
use bandit::agent::{Curator, Feedback};
use ldp_bo::{CtlCurator, LdpBoError};
use privacy::sampler::{Grid, NoiseSampler, Norm, Sampler};
use rand_chacha::ChaCha20Rng;
use verification::CheckKind;
use verification::audit::{AuditConfig, audit};
use verification::{CheckError, CheckResult, Context};

/// The curator of the checks: eps = 1, B = 1, R = 1 (the paper's synthetic LDP setting).
pub(super) fn curator() -> Result<CtlCurator, CheckError> {
    CtlCurator::new(1.0, 1.0, 1.0).map_err(CheckError::from)
}

/// The curator as the runner calls it: a [`Feedback`] for arm 0 with the given raw reward.
pub(super) fn curate(
    c: &CtlCurator,
    reward: f64,
    rng: &mut ChaCha20Rng,
) -> Result<f64, LdpBoError> {
    let point = [0.0];
    let fb = Feedback {
        round: 0,
        action: 0,
        point: ndarray::ArrayView1::from(&point),
        reward,
    };
    c.clone().curate(&fb, rng).map(|m| m.value())
}

pub(super) fn curator_audit(ctx: &Context, x: f64, xp: f64) -> CheckResult {
    audit_curator(ctx, &curator()?, x, xp)
}

/// The asymmetric `(eps, B, R)` points of the grid audits (issue 13: at the symmetric point
/// `eps = B = R = 1` a formula such as `4 / eps` or a swap of the curator's arguments would pass).
pub(super) const GRID: [(f64, f64, f64); 3] = [(0.25, 1.0, 0.5), (1.0, 2.0, 0.3), (4.0, 0.5, 1.0)];

/// The worst-case pair `-(B+R)`, `B+R` at grid point `i`, through the curator built by
/// `CtlCurator::new(eps, B, R)`.
pub(super) fn grid_audit(ctx: &Context, i: usize) -> CheckResult {
    let (eps, b, r) = GRID[i];
    let c = CtlCurator::new(eps, b, r)?;
    audit_curator(ctx, &c, -(b + r), b + r)
}

/// Positive control: at the first grid point, the curator built with `eps` and `B` swapped
/// (`CtlCurator::new(B, eps, R)`), audited against the claim of the correct one.
pub(super) fn control_eps_b_swapped(ctx: &Context) -> CheckResult {
    let (eps, b, r) = GRID[0];
    let swapped = CtlCurator::new(b, eps, r)?;
    let correct = CtlCurator::new(eps, b, r)?;
    let mut o = audit_against(
        ctx,
        &swapped,
        &correct,
        -(b + r),
        b + r,
        Expect::Flagged,
        CheckKind::PositiveControl,
    )?;
    o.subject = format!(
        "CtlCurator::new(B, eps, R) (eps and B swapped) at eps = {eps}, B = {b}, R = {r}, against \
         the claim of CtlCurator::new(eps, B, R); {}",
        o.subject
    );
    Ok(o)
}

/// Audit `c` on rewards `x`, `x'` against its own claim (tightness at least [`MIN_TIGHTNESS`]).
fn audit_curator(ctx: &Context, c: &CtlCurator, x: f64, xp: f64) -> CheckResult {
    let expect = Expect::holds(Some(MIN_TIGHTNESS));
    audit_against(ctx, c, c, x, xp, expect, CheckKind::Audit)
}

/// Audit the outputs of `c` on rewards `x`, `x'` against the claim of `claimed`.
fn audit_against(
    ctx: &Context,
    c: &CtlCurator,
    claimed: &CtlCurator,
    x: f64,
    xp: f64,
    expect: Expect,
    kind: CheckKind,
) -> CheckResult {
    let n = ctx.mode.pick(400_000, 2_000_000);
    let f = |y: &f64, rng: &mut ChaCha20Rng| curate(c, *y, rng);
    // The LLR of clip(x) vs clip(x') after Laplace noise: shift d = clip(x') - clip(x). The
    // statistic is centred at clip(x); the discrete Laplace on the grid has the same ratio.
    let (cx, cxp) = (c.mechanism().clip(x)?, c.mechanism().clip(xp)?);
    let shift = cxp - cx;
    let stat = laplace_llr(shift, c.laplace_scale());
    let centred = move |y: &f64, rng: &mut ChaCha20Rng| f(y, rng).map(|v| v - cx);
    let cfg = AuditConfig::new(n, ALPHA, ctx.check_seed()).train(n / 4);
    let r = audit(centred, &x, &xp, &claimed.claim(), &stat, &cfg)?;
    Ok(audit_outcome(
        ctx,
        kind,
        format!(
            "ldp_bo::CtlCurator (the learner's message type) {} on rewards {x} and {xp}",
            c.claim().subject
        ),
        &r,
        expect,
    ))
}

pub(super) fn curator_worst_case(ctx: &Context) -> CheckResult {
    // The two ends of [-(B+R), B+R]: the largest shift the clipped reward allows.
    curator_audit(ctx, -2.0, 2.0)
}

pub(super) fn curator_out_of_range(ctx: &Context) -> CheckResult {
    // A reward far outside the range: clipping keeps the shift at 2(B+R).
    curator_audit(ctx, -2.0, 50.0)
}

pub(super) fn control_unclipped(ctx: &Context) -> CheckResult {
    let c = curator()?;
    let scale = c.laplace_scale();
    let grid = Grid::for_sensitivity(2.0 * c.mechanism().bound(), 1, Norm::L1)?;
    // Curator 1 as printed (no clip): the same noise on the raw reward.
    let f =
        |y: &f64, rng: &mut ChaCha20Rng| Sampler::Hardened.perturb_laplace(*y, scale, grid, rng);
    let (x, xp) = (-2.0, 6.0);
    let n = ctx.mode.pick(200_000, 1_000_000);
    let cfg = AuditConfig::new(n, ALPHA, ctx.check_seed()).train(n / 4);
    let r = audit(f, &x, &xp, &c.claim(), &laplace_llr(xp - x, scale), &cfg)?;
    Ok(audit_outcome(
        ctx,
        CheckKind::PositiveControl,
        format!(
            "Curator 1 without clipping on rewards {x} and {xp} (outside [-2, 2]), claiming {}",
            c.claim().subject
        ),
        &r,
        Expect::Flagged,
    ))
}
