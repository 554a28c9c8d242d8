//! Audit of the exponential mechanism.

use crate::shared::{ALPHA, Expect, audit_outcome};
use privacy::mechanisms::ExponentialMechanism;
use verification::CheckKind;
use verification::audit::{AuditConfig, DiscreteCounts, audit_mechanism};
use verification::{CheckResult, Context};

/// Utilities over `k` candidates: `x` raises candidate 0 by the sensitivity 1, `x'` raises all
/// the others.
fn raised_pair(k: usize) -> (Vec<f64>, Vec<f64>) {
    let ux = (0..k).map(|i| if i == 0 { 1.0 } else { 0.0 }).collect();
    let uxp = (0..k).map(|i| if i == 0 { 0.0 } else { 1.0 }).collect();
    (ux, uxp)
}

pub(super) fn exponential_eps1(ctx: &Context) -> CheckResult {
    let m = ExponentialMechanism::new(1.0, 1.0)?;
    // 20 candidates; x raises candidate 0 by the sensitivity, x' raises all the others: the
    // ratio at candidate 0 is e^(1/2) (1 + 19 e^(1/2)) / (e^(1/2) + 19) = e^0.948.
    let (ux, uxp) = raised_pair(20);
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

/// The worst-case pair for the exponential mechanism (issue 14, item 4): with utility
/// sensitivity `Delta`, the loss at candidate 0 is
/// `ln(p_x(0) / p_x'(0)) = eps/2 + ln(Z_x' / Z_x)`, and it approaches `eps` when `x` raises
/// candidate 0 by `Delta` and `x'` raises every other candidate by `Delta`, over many
/// candidates. At `eps = 4` and 100 candidates the pair's loss is
/// `ln(e^2 (1 + 99 e^2) / (e^2 + 99)) = 3.929` (0.982 eps), and the event {candidate 0} has
/// probabilities 0.069 and 0.0014, frequent enough for 3 000 000 held-out outputs per input
/// to certify more than 0.95 eps (the estimate beforehand: Clopper-Pearson slack about
/// `5 (1/sqrt(c_1) + 1/sqrt(c_2))` with the two counts).
pub(super) fn exponential_worst_case(ctx: &Context) -> CheckResult {
    let eps = 4.0;
    let m = ExponentialMechanism::new(eps, 1.0)?;
    let k = 100;
    let (ux, uxp) = raised_pair(k);
    // 3 000 000: the expected eps_lower is about 3.84 with a spread of 0.016 over seeds, so a
    // PASS at 0.95 (3.8) does not hang on the seed (at 2 000 000: 3.82 and 0.019, one seed in
    // ten would have been INCONCLUSIVE; review of issue 14).
    let n = ctx.mode.pick(3_000_000, 8_000_000);
    let cfg = AuditConfig::new(n, ALPHA, ctx.check_seed()).train(n / 4);
    let r = audit_mechanism(&m, ux.as_slice(), uxp.as_slice(), &DiscreteCounts, &cfg)?;
    let h = eps / 2.0;
    let others = (k - 1) as f64;
    let best = (h.exp() * (1.0 + others * h.exp()) / (h.exp() + others)).ln();
    let mut o = audit_outcome(
        ctx,
        CheckKind::Audit,
        format!("{} on {k} candidates, worst-case pair", m.claim().subject),
        &r,
        Expect::holds(Some(0.95)),
    );
    o.measured.push_str(&format!(
        "; the pair's largest privacy loss is {best:.4} ({:.3} eps)",
        best / eps
    ));
    Ok(o.value("pair_privacy_loss", best))
}
