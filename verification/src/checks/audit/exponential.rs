//! Audit of the exponential mechanism.

use crate::audit::{AuditConfig, DiscreteCounts, audit_mechanism};
use crate::check::{CheckResult, Context};
use crate::report::CheckKind;
use crate::shared::{ALPHA, Expect, audit_outcome};
use privacy::mechanisms::ExponentialMechanism;

pub(super) fn exponential_eps1(ctx: &Context) -> CheckResult {
    let m = ExponentialMechanism::new(1.0, 1.0)?;
    // 20 candidates; x raises candidate 0 by the sensitivity, x' raises all the others: the
    // ratio at candidate 0 is e^(1/2) (1 + 19 e^(1/2)) / (e^(1/2) + 19) = e^0.948.
    let k = 20;
    let ux: Vec<f64> = (0..k).map(|i| if i == 0 { 1.0 } else { 0.0 }).collect();
    let uxp: Vec<f64> = (0..k).map(|i| if i == 0 { 0.0 } else { 1.0 }).collect();
    let n = ctx.mode.pick(400_000, 2_000_000);
    let cfg = AuditConfig::new(n, ALPHA, ctx.check_seed()).train(n / 4);
    let r = audit_mechanism(&m, ux.as_slice(), uxp.as_slice(), &DiscreteCounts, &cfg)?;
    let best = ((0.5f64.exp() * (1.0 + 19.0 * 0.5f64.exp())) / (0.5f64.exp() + 19.0)).ln();
    let mut o = audit_outcome(
        ctx,
        CheckKind::Audit,
        format!("{} on 20 candidates", m.claim().subject),
        &r,
        Expect::holds(None),
    );
    o.measured.push_str(&format!(
        "; the largest privacy loss of this pair is {best:.4}"
    ));
    Ok(o.value("pair_privacy_loss", best))
}
