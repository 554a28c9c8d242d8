//! Audit of the tree-aggregation prefix sums.

use crate::shared::{ALPHA, Expect, audit_outcome};
use ndarray::Array2;
use privacy::Mechanism;
use privacy::mechanisms::{StreamShape, TreeAggregation};
use rand_chacha::ChaCha20Rng;
use verification::CheckKind;
use verification::audit::{AuditConfig, FisherDiscriminant, audit};
use verification::{CheckResult, Context};

pub(super) fn tree_prefix_sums(ctx: &Context) -> CheckResult {
    let horizon = 15u64;
    let tree = TreeAggregation::new(StreamShape::Vector(1), horizon, 1.0, 2.0)?;
    let claim = tree.claim();
    let rho = tree.rho();
    // Streams of 15 scalars, equal except the first item (0 vs 1): the first item lies in one
    // node of every level, all completed by T = 15, so the released prefix sums are a Gaussian
    // shift of Mahalanobis norm sqrt(L) / sigma.
    let stream = |first: f64| {
        let mut s = Array2::<f64>::zeros((horizon as usize, 1));
        s[[0, 0]] = first;
        s
    };
    let f =
        |s: &Array2<f64>, rng: &mut ChaCha20Rng| tree.release(s, rng).map(|p| p.column(0).to_vec());
    let mu_pair = (tree.levels() as f64).sqrt() / tree.sigma();
    let n = ctx.mode.pick(120_000, 500_000);
    let cfg = AuditConfig::new(n, ALPHA, ctx.check_seed())
        .train(n / 2)
        .delta(1e-5)
        .gaussian(Some(mu_pair));
    let r = audit(
        f,
        &stream(0.0),
        &stream(1.0),
        &claim,
        &FisherDiscriminant,
        &cfg,
    )?;
    let mut o = audit_outcome(
        ctx,
        CheckKind::Audit,
        claim.subject.clone(),
        &r,
        Expect::holds(Some(0.85)),
    );
    o.measured.push_str(&format!(
        "; claimed rho = {rho:.4} (mu = sqrt(2 rho) = {:.4})",
        (2.0 * rho).sqrt()
    ));
    Ok(o)
}
