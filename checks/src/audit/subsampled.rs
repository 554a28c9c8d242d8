//! Audits of the Poisson-subsampled Gaussian (one and four steps) against its RDP claim and the
//! PLD accountant's epsilon at `delta = 1e-2`, which they must reach to 0.8.

use crate::shared::{ALPHA, Expect, audit_outcome, fmt_opt};
use privacy::mechanisms::{Participants, SubsampledGaussian};
use privacy::params::{Delta, Epsilon};
use privacy::{Guarantee, Mechanism, NeighbouringRelation, PrivacyClaim, TrustModel};
use rand_chacha::ChaCha20Rng;
use verification::audit::{AuditConfig, Known, audit};
use verification::{CheckKind, Verdict};
use verification::{CheckResult, Context};

/// The delta at which the audits certify epsilon and compare it with the accountants.
const AUDIT_DELTA: f64 = 1e-2;

/// Smallest `eps_lower / eps_PLD` a PASS needs (issue 14, item 4: 0.8 in the quick run).
const MIN_PLD_TIGHTNESS: f64 = 0.8;

pub(super) fn subsampled(ctx: &Context, steps: usize) -> CheckResult {
    let (q, z) = (0.25, 1.0);
    let m = SubsampledGaussian::new(q, 1.0, z)?;
    let claim = m.composed_claim(steps as u64)?;
    // At delta = 1e-2 the PLD's epsilon is set by events of probability about 1e-2, which the
    // quick budget certifies to within 15-20%; at 1e-5 (events of probability 1e-5) the same
    // budget reached only 0.47 of it (issue 14, item 4).
    let delta = AUDIT_DELTA;
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
    let n = ctx.mode.pick(400_000, 2_000_000);
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
    // The PLD's epsilon is the tightest we claim: the audit must not exceed it, and (for a
    // PASS) must reach MIN_PLD_TIGHTNESS of it.
    let pld_tightness = r.eps_lower / pld.epsilon;
    if r.eps_lower > pld.epsilon {
        o.verdict = Verdict::Fail;
    } else if o.verdict == Verdict::Pass && pld_tightness < MIN_PLD_TIGHTNESS {
        o.verdict = Verdict::Inconclusive;
    }
    o.claim.push_str(&format!(
        "; and eps_lower <= the PLD accountant's epsilon {:.4} at delta = {delta:e}, reaching at \
         least {MIN_PLD_TIGHTNESS} of it",
        pld.epsilon
    ));
    o.measured.push_str(&format!(
        "; accountants at delta = {delta:e}: RDP claim {}, PLD {:.4} (optimistic {:.4}); \
         tightness against the PLD {pld_tightness:.3}",
        fmt_opt(r.eps_claimed),
        pld.epsilon,
        pld.epsilon_optimistic
    ));
    Ok(o.value("pld_epsilon", pld.epsilon)
        .value("pld_tightness", pld_tightness)
        .value("rdp_epsilon", r.eps_claimed)
        .value("steps", steps))
}

pub(super) fn subsampled_one(ctx: &Context) -> CheckResult {
    subsampled(ctx, 1)
}

pub(super) fn subsampled_four(ctx: &Context) -> CheckResult {
    subsampled(ctx, 4)
}

/// `(q, z)` of the replace-one audit and its control.
const REPLACE_ONE_SETTING: (f64, f64) = (0.25, 1.0);

/// Replace-one: the target's vector `+1` replaced by `-1` (the most distant admissible record,
/// `S = 1`), one step at `(q, z) = (0.25, 1)`. `claimed`: the epsilon claimed at
/// [`AUDIT_DELTA`] under replace-one; `expect`: whether the claim must hold (with the
/// tightness against it) or be flagged.
fn replace_one_audit(
    ctx: &Context,
    claimed: f64,
    label: &str,
    expect: Expect,
    kind: CheckKind,
) -> CheckResult {
    let (q, z) = REPLACE_ONE_SETTING;
    let m = SubsampledGaussian::new(q, 1.0, z)?;
    let delta = AUDIT_DELTA;
    let claim = PrivacyClaim::new(
        format!("subsampled_gaussian(q={q}, z={z}, S=1, steps=1) under replace-one: {label}"),
        Guarantee::ApproximateDp {
            epsilon: Epsilon::new(claimed)?,
            delta: Delta::new(delta)?,
        },
        TrustModel::Central,
        NeighbouringRelation::ReplaceOne,
        "the target's vector +1 replaced by -1 (norms <= S = 1, enforced by clipping)",
    );
    let plus = Participants {
        vectors: ndarray::arr2(&[[0.0], [1.0]]),
        weights: ndarray::Array2::ones((2, 1)),
    };
    let minus = Participants {
        vectors: ndarray::arr2(&[[0.0], [-1.0]]),
        weights: ndarray::Array2::ones((2, 1)),
    };
    let f = |d: &Participants, rng: &mut ChaCha20Rng| -> Result<f64, privacy::PrivacyError> {
        m.release(d, rng).map(|a| a.vectors()[[0, 0]])
    };
    // Exact LLR of the pair: ln(1 - q + q e^((y mu - mu^2/2)/sigma^2)) minus the same at -y.
    let (sigma, mu) = (m.sigma(1.0), 1.0 / q);
    let llr = Known::new(
        "exact LLR of the replace-one mixture pair",
        move |y: &f64| {
            let part =
                |s: f64| (1.0 - q + q * ((s * mu - mu * mu / 2.0) / (sigma * sigma)).exp()).ln();
            part(*y) - part(-*y)
        },
    );
    let n = ctx.mode.pick(400_000, 2_000_000);
    let cfg = AuditConfig::new(n, ALPHA, ctx.check_seed())
        .train(n / 2)
        .delta(delta);
    let r = audit(f, &plus, &minus, &claim, &llr, &cfg)?;
    let o = audit_outcome(ctx, kind, claim.subject.clone(), &r, expect);
    Ok(o.value("claimed_epsilon", claimed))
}

/// The replace-one epsilon of the PLD accountant (its dominating pair) holds for the most
/// distant replace-one pair and reaches [`MIN_PLD_TIGHTNESS`] of it.
pub(super) fn subsampled_replace_one(ctx: &Context) -> CheckResult {
    let (q, z) = REPLACE_ONE_SETTING;
    let r = privacy::accountant::pld::subsampled_gaussian_pld_epsilon_replace_one(
        q,
        z,
        1,
        AUDIT_DELTA,
        Default::default(),
    )?;
    replace_one_audit(
        ctx,
        r,
        "the PLD accountant's replace-one epsilon (the dominating pair)",
        Expect::holds(Some(MIN_PLD_TIGHTNESS)),
        CheckKind::Audit,
    )
}

/// Positive control: the add/remove epsilon claimed for a replace-one pair (the relation
/// mixed up) is flagged.
pub(super) fn control_add_remove_epsilon_for_replace_one(ctx: &Context) -> CheckResult {
    let (q, z) = REPLACE_ONE_SETTING;
    let ar = privacy::accountant::pld::subsampled_gaussian_pld_epsilon(
        q,
        z,
        1,
        AUDIT_DELTA,
        Default::default(),
    )?;
    replace_one_audit(
        ctx,
        ar.epsilon,
        "the add/remove epsilon claimed (wrong relation)",
        Expect::Flagged,
        CheckKind::PositiveControl,
    )
}
