//! Audit of the symmetric-matrix Gaussian on clipped outer products.

use crate::audit::{AuditConfig, MeanDifferenceProjection, audit};
use crate::check::{CheckResult, Context};
use crate::report::CheckKind;
use crate::shared::{ALPHA, Expect, MIN_TIGHTNESS, audit_outcome};
use ndarray::{Array1, arr1};
use privacy::Mechanism;
use privacy::mechanisms::OuterProductGaussian;
use privacy::mechanisms::matrix::Neighbouring;
use rand_chacha::ChaCha20Rng;

pub(super) fn matrix_gaussian(ctx: &Context) -> CheckResult {
    // v = [phi; y] with |phi| <= 1, |y| <= 1, replace-one: Frobenius sensitivity 2 sqrt 2;
    // rho = 0.5 (mu = sqrt(2 rho) = 1), hardened sampler.
    let m = OuterProductGaussian::zcdp(1, 1.0, 1.0, Neighbouring::Replace, 0.5)?;
    let sigma = m.sigma();
    // v = (1, 1), w = (1, -1): v v^T - w w^T = [[0, 2], [2, 0]], packed distance 2 (the largest
    // packed distance of this relation in d = 2; the Frobenius bound 2 sqrt 2 also counts the
    // mirrored entry, which the packed release does not repeat).
    let (x, xp) = ((arr1(&[1.0]), 1.0), (arr1(&[1.0]), -1.0));
    let n = ctx.mode.pick(300_000, 1_200_000);
    let cfg = AuditConfig::new(n, ALPHA, ctx.check_seed())
        .train(n / 3)
        .delta(1e-5)
        .gaussian(Some(2.0 / sigma));
    let packed =
        |v: &(Array1<f64>, f64), rng: &mut ChaCha20Rng| m.release(v, rng).map(|o| o.to_vec());
    let r = audit(packed, &x, &xp, &m.claim(), &MeanDifferenceProjection, &cfg)?;
    let mut o = audit_outcome(
        ctx,
        CheckKind::Audit,
        m.claim().subject,
        &r,
        Expect::holds(Some(MIN_TIGHTNESS)),
    );
    o.measured.push_str(&format!(
        "; claim's mu = sqrt(2 rho) = 1, the pair reaches 2 / sigma = {:.4}",
        2.0 / sigma
    ));
    Ok(o)
}
