//! Audit of the symmetric-matrix Gaussian on clipped outer products.

use crate::audit::{AuditConfig, MeanDifferenceProjection, audit};
use crate::check::{CheckResult, Context};
use crate::report::CheckKind;
use crate::shared::{ALPHA, Expect, MIN_TIGHTNESS, audit_outcome};
use privacy::mechanisms::matrix::{
    Neighbouring, clipped_outer_product, outer_product_sensitivity, pack_upper,
    symmetric_gaussian_noise,
};
use privacy::{Guarantee, PrivacyClaim, Sampler};
use rand_chacha::ChaCha20Rng;

pub(super) fn matrix_gaussian(ctx: &Context) -> CheckResult {
    // v = [phi; y] with |phi| <= 1, |y| <= 1, replace-one: Frobenius sensitivity 2 sqrt 2.
    let sens = outer_product_sensitivity(1.0, 1.0, Neighbouring::Replace)?;
    let rho: f64 = 0.5;
    let sampler = Sampler::Hardened;
    let sigma = sens * sampler.sensitivity_factor() / (2.0 * rho).sqrt();
    let claim = PrivacyClaim::new(
        format!(
            "clipped outer product [phi; y][phi; y]^T + symmetric Gaussian noise (sigma = {sigma:.4}, d = 2, hardened)"
        ),
        Guarantee::Zcdp {
            rho: privacy::Rho::new(rho)?,
        },
        privacy::TrustModel::Central,
        "one (phi, y) replaced, |phi| <= 1, |y| <= 1",
    );
    let f = |v: &(f64, f64), rng: &mut ChaCha20Rng| -> Result<Vec<f64>, privacy::PrivacyError> {
        let phi = ndarray::arr1(&[v.0]);
        let m = clipped_outer_product(phi.view(), v.1, 1.0, 1.0)?
            + symmetric_gaussian_noise(2, sigma, sens, sampler, rng)?;
        Ok(pack_upper(m.view())?.to_vec())
    };
    // v = (1, 1), w = (1, -1): v v^T - w w^T = [[0, 2], [2, 0]], packed distance 2 (the largest
    // packed distance of this relation in d = 2; the Frobenius bound 2 sqrt 2 also counts the
    // mirrored entry, which the packed release does not repeat).
    let (x, xp) = ((1.0, 1.0), (1.0, -1.0));
    let n = ctx.mode.pick(300_000, 1_200_000);
    let cfg = AuditConfig::new(n, ALPHA, ctx.check_seed())
        .train(n / 3)
        .delta(1e-5)
        .gaussian(Some(2.0 / sigma));
    let r = audit(f, &x, &xp, &claim, &MeanDifferenceProjection, &cfg)?;
    let mut o = audit_outcome(
        ctx,
        CheckKind::Audit,
        claim.subject.clone(),
        &r,
        Expect::Holds {
            min_tightness: Some(MIN_TIGHTNESS),
        },
    );
    o.measured.push_str(&format!(
        "; claim's mu = sqrt(2 rho) = 1, the pair reaches 2 / sigma = {:.4}",
        2.0 / sigma
    ));
    Ok(o)
}
