//! Audits of the Laplace mechanism: at eps = 1, a half-scale control, a black-box reference
//! control and the floating-point LLR control of the textbook sampler.

use crate::shared::{ALPHA, Expect, MIN_TIGHTNESS, audit_outcome, laplace_llr};
use privacy::mechanisms::LaplaceMechanism;
use privacy::{Mechanism, Sampler};
use rand_chacha::ChaCha20Rng;
use verification::CheckKind;
use verification::audit::{AuditConfig, HistogramRatio, audit, audit_mechanism};
use verification::{CheckResult, Context};

pub(super) fn laplace_eps1(ctx: &Context) -> CheckResult {
    let m = LaplaceMechanism::new(1.0, 1.0)?;
    let n = ctx.mode.pick(1_000_000, 4_000_000);
    let cfg = AuditConfig::new(n, ALPHA, ctx.check_seed()).train(n / 4);
    let r = audit_mechanism(&m, &0.0, &1.0, &laplace_llr(1.0, m.scale()), &cfg)?;
    Ok(audit_outcome(
        ctx,
        CheckKind::Audit,
        m.claim().subject,
        &r,
        Expect::holds(Some(MIN_TIGHTNESS)),
    ))
}

pub(super) fn control_laplace_half_scale(ctx: &Context) -> CheckResult {
    let claimed = LaplaceMechanism::new(1.0, 1.0)?;
    // eps = 2 gives half the scale of the claimed eps = 1 mechanism.
    let broken = LaplaceMechanism::new(2.0, 1.0)?;
    let f = |x: &f64, rng: &mut ChaCha20Rng| broken.release(x, rng);
    let n = ctx.mode.pick(200_000, 1_000_000);
    let cfg = AuditConfig::new(n, ALPHA, ctx.check_seed());
    let r = audit(
        f,
        &0.0,
        &1.0,
        &claimed.claim(),
        &HistogramRatio { bins: 100 },
        &cfg,
    )?;
    Ok(audit_outcome(
        ctx,
        CheckKind::PositiveControl,
        format!(
            "Laplace with scale {} claiming {}",
            broken.scale(),
            claimed.claim().subject
        ),
        &r,
        Expect::Flagged,
    ))
}

pub(super) fn control_reference_laplace(ctx: &Context) -> CheckResult {
    // The auditor's own continuous Laplace at exactly its claim, audited black-box.
    let f = |x: &f64, rng: &mut ChaCha20Rng| {
        let u: f64 = rand::RngExt::random::<f64>(rng) - 0.5;
        Ok::<_, std::convert::Infallible>(x - u.signum() * (-2.0 * u.abs()).ln_1p())
    };
    let claim = LaplaceMechanism::new(1.0, 1.0)?
        .with_sampler(Sampler::Textbook)
        .claim();
    let n = ctx.mode.pick(1_000_000, 4_000_000);
    let cfg = AuditConfig::new(n, ALPHA, ctx.check_seed()).train(n / 2);
    let r = audit(f, &0.0, &1.0, &claim, &HistogramRatio { bins: 200 }, &cfg)?;
    Ok(audit_outcome(
        ctx,
        CheckKind::NegativeControl,
        "continuous Laplace(1) written in the auditor, claim eps = 1, black box (histogram)".into(),
        &r,
        Expect::holds(Some(0.85)),
    ))
}

pub(super) fn control_textbook_float_llr(ctx: &Context) -> CheckResult {
    // The textbook Laplace at its exact scale, audited with the exact LLR formula evaluated in
    // floating point: `(|o - 1| - |o|) / b` equals 1/b for every real o <= 0, but its rounding
    // depends on the low-order bits of o, which differ between outputs near 0 (from x = 0) and
    // outputs from x' = 1. The auditor finds that event (a floating-point attack in the sense of
    // Mironov 2012, found by the statistical route instead of the porosity search).
    let m = LaplaceMechanism::new(1.0, 1.0)?.with_sampler(Sampler::Textbook);
    let n = ctx.mode.pick(200_000, 1_000_000);
    let cfg = AuditConfig::new(n, ALPHA, ctx.check_seed());
    let r = audit_mechanism(&m, &0.0, &1.0, &laplace_llr(1.0, m.scale()), &cfg)?;
    Ok(audit_outcome(
        ctx,
        CheckKind::PositiveControl,
        format!(
            "{} with the floating-point LLR statistic",
            m.claim().subject
        ),
        &r,
        Expect::Flagged,
    ))
}
