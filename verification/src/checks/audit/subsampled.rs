//! Audits of the Poisson-subsampled Gaussian (one and four steps) against RDP and PLD.

use crate::audit::{AuditConfig, Known, audit};
use crate::check::{CheckResult, Context};
use crate::report::{CheckKind, Verdict};
use crate::shared::{ALPHA, Expect, audit_outcome, fmt_opt};
use privacy::Mechanism;
use privacy::mechanisms::{Participants, SubsampledGaussian};
use rand_chacha::ChaCha20Rng;

pub(super) fn subsampled(ctx: &Context, steps: usize) -> CheckResult {
    let (q, z) = (0.25, 1.0);
    let m = SubsampledGaussian::new(q, 1.0, z)?;
    let claim = m.composed_claim(steps as u64)?;
    let delta = 1e-5;
    let pld = privacy::accountant::pld::subsampled_gaussian_pld_epsilon(
        q,
        z,
        steps as u64,
        delta,
        Default::default(),
    )?;
    // D' = {a zero vector, the target with vector S = 1}; D = {the zero vector}. x = D'. Each
    // of the `steps` rounds is one release of the mechanism on the same participants.
    let with = Participants {
        vectors: ndarray::arr2(&[[0.0], [1.0]]),
        weights: ndarray::Array2::ones((2, 1)),
    };
    let without = Participants {
        vectors: ndarray::arr2(&[[0.0]]),
        weights: ndarray::Array2::ones((1, 1)),
    };
    let f = |d: &Participants, rng: &mut ChaCha20Rng| -> Result<Vec<f64>, privacy::PrivacyError> {
        (0..steps)
            .map(|_| m.release(d, rng).map(|a| a.vectors()[[0, 0]]))
            .collect()
    };
    // Exact LLR of D' against D: sum over steps of ln(1 - q + q exp((y mu - mu^2/2) / sigma^2)),
    // mu = S/q the shift of the target, sigma the noise.
    let sigma = m.sigma(1.0);
    let mu = 1.0 / q;
    let llr = Known::new(
        "exact LLR of the subsampled Gaussian mixture",
        move |ys: &Vec<f64>| {
            ys.iter()
                .map(|y| (1.0 - q + q * ((y * mu - mu * mu / 2.0) / (sigma * sigma)).exp()).ln())
                .sum::<f64>()
        },
    );
    let n = ctx.mode.pick(400_000, 2_000_000) / steps.max(1);
    let cfg = AuditConfig::new(n, ALPHA, ctx.check_seed())
        .train(n / 2)
        .delta(delta);
    let r = audit(f, &with, &without, &claim, &llr, &cfg)?;
    let mut o = audit_outcome(
        ctx,
        CheckKind::Audit,
        claim.subject.clone(),
        &r,
        Expect::holds(None),
    );
    let pld_violated = r.eps_lower > pld.epsilon;
    if pld_violated {
        o.verdict = Verdict::Fail;
    }
    o.claim.push_str(&format!(
        "; and eps_lower <= the PLD accountant's epsilon {:.4} at delta = {delta:e}",
        pld.epsilon
    ));
    o.measured.push_str(&format!(
        "; accountants at delta = {delta:e}: RDP (orders 2..33) {}, PLD {:.4} (optimistic {:.4})",
        fmt_opt(r.eps_claimed),
        pld.epsilon,
        pld.epsilon_optimistic
    ));
    Ok(o.value("pld_epsilon", pld.epsilon)
        .value("rdp_epsilon", r.eps_claimed)
        .value("steps", steps))
}

pub(super) fn subsampled_one(ctx: &Context) -> CheckResult {
    subsampled(ctx, 1)
}

pub(super) fn subsampled_four(ctx: &Context) -> CheckResult {
    subsampled(ctx, 4)
}
