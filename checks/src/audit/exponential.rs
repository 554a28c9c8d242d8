//! Audit of the exponential mechanism.

use crate::shared::{ALPHA, Expect, MIN_EXACT_TIGHTNESS, audit_outcome};
use privacy::Mechanism;
use privacy::mechanisms::ExponentialMechanism;
use rand_chacha::ChaCha20Rng;
use verification::CheckKind;
use verification::audit::{AuditConfig, DiscreteCounts, audit, audit_mechanism};
use verification::{CheckResult, Context};

/// Utilities over `k` candidates: `x` raises candidate 0 by the sensitivity 1, `x'` raises all
/// the others.
fn raised_pair(k: usize) -> (Vec<f64>, Vec<f64>) {
    let ux = (0..k).map(|i| if i == 0 { 1.0 } else { 0.0 }).collect();
    let uxp = (0..k).map(|i| if i == 0 { 0.0 } else { 1.0 }).collect();
    (ux, uxp)
}

/// The privacy loss of the raised pair on `k` candidates at candidate 0,
/// `ln(p_x(0) / p_x'(0)) = eps/2 + ln((1 + (k - 1) e^(eps/2)) / (e^(eps/2) + k - 1))`, and the
/// two probabilities `(p_x(0), p_x'(0))`.
fn raised_pair_loss(eps: f64, k: usize) -> (f64, f64, f64) {
    let (h, others) = ((eps / 2.0).exp(), (k - 1) as f64);
    let (p, q) = (h / (h + others), 1.0 / (1.0 + others * h));
    ((p / q).ln(), p, q)
}

/// The number of candidates of the raised pair that maximises the lower bound predicted at `n`
/// held-out outputs per input: `ln(p_lower / q_upper)` with the two probabilities of the event
/// {candidate 0} moved by their normal-approximation confidence bounds at the audit's level
/// (as the auditor predicts when it chooses an event). More candidates bring the pair's loss
/// closer to eps but make the event rarer: at eps = 1 the best is 24 candidates for 400 000
/// outputs (0.878 predicted), 42 for 2 000 000 (0.929), 78 for 12 000 000 (0.961).
fn candidates_for_budget(eps: f64, n: usize) -> usize {
    let z = -verification::stats::normal_quantile(ALPHA / 2.0);
    let nf = n as f64;
    let spread = |p: f64| z * (p * (1.0 - p) / nf).sqrt() + z * z / nf;
    let predicted = |k: usize| {
        let (_, p, q) = raised_pair_loss(eps, k);
        ((p - spread(p)) / (q + spread(q))).ln()
    };
    (2..=2000)
        .max_by(|&a, &b| predicted(a).total_cmp(&predicted(b)))
        .unwrap_or(2)
}

/// Audit the exponential mechanism `m` on the raised pair over `k` candidates against `claim`
/// (the mechanism's own, or a broken variant's claimed one), `n` held-out outputs per input.
fn raised_pair_audit(
    ctx: &Context,
    m: &ExponentialMechanism,
    claim: &privacy::PrivacyClaim,
    k: usize,
    n: usize,
) -> Result<verification::audit::AuditResult, verification::CheckError> {
    let (ux, uxp) = raised_pair(k);
    let cfg = AuditConfig::new(n, ALPHA, ctx.check_seed()).train(n / 4);
    let f = |u: &Vec<f64>, rng: &mut ChaCha20Rng| m.release(u.as_slice(), rng);
    Ok(audit(f, &ux, &uxp, claim, &DiscreteCounts, &cfg)?)
}

/// The exponential mechanism at eps = 1 on the raised pair (`x` raises candidate 0 by the
/// sensitivity, `x'` raises all the others): the pair's loss `eps/2 + ln(Z_x' / Z_x)` approaches
/// eps only as the number of candidates grows, while its event {candidate 0} gets rarer, so
/// the number of candidates is the one that maximises the certified bound predicted at the
/// budget ([`candidates_for_budget`]: 42 in the quick run, loss 0.975). No pair reaches eps
/// (the loss is below eps for every finite set of candidates and utilities), so the tightness is
/// against the claim, and must reach 0.9 (quick) or 0.95 (full).
pub(super) fn exponential_eps1(ctx: &Context) -> CheckResult {
    let eps = 1.0;
    let m = ExponentialMechanism::new(eps, 1.0)?;
    let n = ctx.mode.pick(2_000_000, 12_000_000);
    let k = candidates_for_budget(eps, n);
    let r = raised_pair_audit(ctx, &m, &m.claim(), k, n)?;
    let (best, _, _) = raised_pair_loss(eps, k);
    let min = ctx.mode.pick(MIN_EXACT_TIGHTNESS.0, MIN_EXACT_TIGHTNESS.1);
    let mut o = audit_outcome(
        ctx,
        CheckKind::Audit,
        format!("{} on {k} candidates, raised pair", m.claim().subject),
        &r,
        Expect::holds(Some(min)),
    );
    o.measured.push_str(&format!(
        "; {k} candidates (the most powerful at this budget); the pair's largest privacy loss is \
         {best:.4} ({:.3} eps)",
        best / eps
    ));
    Ok(o.value("pair_privacy_loss", best).value("candidates", k))
}

/// Positive control: the exponential mechanism without the factor 2 of its exponent (selection
/// `∝ exp(eps u / Delta_u)`, which is `2 eps`-DP) claimed as `eps = 1`, on the raised pair of
/// the quick audit: its loss is 1.94, so the audit must certify more than the claim.
pub(super) fn control_missing_factor_two(ctx: &Context) -> CheckResult {
    let claimed = ExponentialMechanism::new(1.0, 1.0)?;
    let broken = ExponentialMechanism::new(2.0, 1.0)?;
    let n = ctx.mode.pick(400_000, 2_000_000);
    let k = candidates_for_budget(1.0, ctx.mode.pick(2_000_000, 12_000_000));
    let r = raised_pair_audit(ctx, &broken, &claimed.claim(), k, n)?;
    let (loss, _, _) = raised_pair_loss(2.0, k);
    let mut o = audit_outcome(
        ctx,
        CheckKind::PositiveControl,
        format!(
            "{} sampled with exp(eps u / Delta_u) (the factor 2 missing) on {k} candidates",
            claimed.claim().subject
        ),
        &r,
        Expect::Flagged,
    );
    o.measured
        .push_str(&format!("; the pair's largest privacy loss is {loss:.4}"));
    Ok(o.value("pair_privacy_loss", loss).value("candidates", k))
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
