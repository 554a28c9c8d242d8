//! Positive controls of the privacy audits: the known implementation mistakes of Algorithm 2,
//! written here (never in the crate) on top of the real tree and calibration. Each must be
//! flagged (a certified point below the claim's trade-off curve) for the check to pass.

use super::common::{
    AUDIT_ALPHA, AUDIT_BETA, CONTROL_ALPHA, OUT_OF_RANGE_REWARD, REWARD_BOUND, calibration_at,
    flatten_rows, packed_calibration_at, packed_difference, packed_item, scalar_feature_stream,
};
use crate::shared::{ALPHA, Expect, audit_outcome};
use ndarray::{Array1, Array2, arr1};
use privacy::mechanisms::matrix::{Neighbouring, pack_upper, packed_len};
use privacy::mechanisms::{OuterProductGaussian, SensitivityBound, packed_worst_pair};
use privacy::sampler::{Grid, NoiseSampler, Norm, Sampler};
use privacy::{Mechanism, PrivacyError};
use rand_chacha::ChaCha20Rng;
use verification::CheckKind;
use verification::audit::{AuditConfig, FisherDiscriminant, Known, Mapped, audit};
use verification::{CheckResult, Context};

/// Algorithm 2's tree (`m = 1`, `T = 4`) where ONE noise draw is reused for every node instead
/// of fresh noise per node (the real [`privacy::mechanisms::TreeAggregation`] with its node
/// noise passed in). The released increment `p_2 - p_1` is then exactly item 2: the streams
/// differ in item 2 (rewards `+-5`, clipped), and the test reads the `(phi, y)` entry of that
/// increment. Claim: the real tree's rho-zCDP.
pub(super) fn noise_reused_across_nodes(ctx: &Context) -> CheckResult {
    let horizon = 4;
    let cal = calibration_at(CONTROL_ALPHA, horizon)?;
    let tree = cal.tree(1)?;
    let claim = tree.claim();
    let sigma = tree.sigma();
    let k = packed_len(2);
    let grid = Grid::for_sensitivity(cal.sensitivity(), k, Norm::L2)?;
    let broken = |s: &Array2<f64>, rng: &mut ChaCha20Rng| -> Result<Vec<f64>, PrivacyError> {
        let z: Array1<f64> = (0..k)
            .map(|_| Sampler::Hardened.perturb_gaussian(0.0, sigma, grid, rng))
            .collect::<Result<_, _>>()?;
        let mut t = tree.fresh();
        let mut out = Vec::with_capacity(s.len());
        for row in s.rows() {
            out.extend(t.push_packed_with_noise(row, z.view())?);
        }
        Ok(out)
    };
    let s0 = scalar_feature_stream(horizon as usize, 1, OUT_OF_RANGE_REWARD)?;
    let s1 = scalar_feature_stream(horizon as usize, 1, -OUT_OF_RANGE_REWARD)?;
    // Packed (m+1) x (m+1) = 2 x 2: entries (0,0), (0,1), (1,1); release t occupies 3t..3t+3.
    let stat = Known::new(
        "the (phi, y) entry of the increment p_2 - p_1",
        |o: &Vec<f64>| o[4] - o[1],
    );
    let n = ctx.mode.pick(20_000, 100_000);
    let cfg = AuditConfig::new(n, ALPHA, ctx.check_seed())
        .train(n / 2)
        .delta(1e-5)
        .gaussian(None);
    let r = audit(broken, &s0, &s1, &claim, &stat, &cfg)?;
    Ok(audit_outcome(
        ctx,
        CheckKind::PositiveControl,
        format!(
            "Algorithm 2's tree with one noise draw reused for every node (alpha = {CONTROL_ALPHA}, beta = {AUDIT_BETA}, T = {horizon}, m = 1), streams differing in item 2, claiming {}",
            claim.subject
        ),
        &r,
        Expect::Flagged,
    ))
}

/// One node release where a single scalar `z ~ N(0, sigma^2)` is added to every packed entry
/// instead of a symmetric matrix of independent entries, at the derived node sigma (`T = 1024`):
/// the differences between entries are exact. Pair: `phi = (1)` with rewards `+-5` (clipped);
/// the test reads `o_(0,1) - o_(0,0) = y phi - phi^2`. Claim: the real symmetric matrix Gaussian
/// at that sigma.
pub(super) fn scalar_noise(ctx: &Context) -> CheckResult {
    let cal = calibration_at(CONTROL_ALPHA, 1024)?;
    let real =
        OuterProductGaussian::with_noise(1, 1.0, REWARD_BOUND, Neighbouring::Replace, cal.sigma())?;
    let claim = real.claim();
    let grid = Grid::for_sensitivity(cal.sensitivity(), real.packed_len(), Norm::L2)?;
    let sigma = cal.sigma();
    let broken = |i: &(Array1<f64>, f64),
                  rng: &mut ChaCha20Rng|
     -> Result<Vec<f64>, verification::CheckError> {
        let item = packed_item(&i.0.to_vec(), i.1)?;
        let z = Sampler::Hardened.perturb_gaussian(0.0, sigma, grid, rng)?;
        Ok(item.iter().map(|v| v + z).collect())
    };
    let (x, xp) = (
        (arr1(&[1.0]), OUT_OF_RANGE_REWARD),
        (arr1(&[1.0]), -OUT_OF_RANGE_REWARD),
    );
    let stat = Known::new("o_(0,1) - o_(0,0)", |o: &Vec<f64>| o[1] - o[0]);
    let n = ctx.mode.pick(20_000, 100_000);
    let cfg = AuditConfig::new(n, ALPHA, ctx.check_seed())
        .train(n / 2)
        .delta(1e-5)
        .gaussian(None);
    let r = audit(broken, &x, &xp, &claim, &stat, &cfg)?;
    Ok(audit_outcome(
        ctx,
        CheckKind::PositiveControl,
        format!(
            "one tree node (alpha = {CONTROL_ALPHA}, beta = {AUDIT_BETA}, T = 1024) with a scalar noise added to every entry (not a symmetric matrix of independent entries), node sigma {:.4}, claiming {}",
            cal.sigma(),
            claim.subject
        ),
        &r,
        Expect::Flagged,
    ))
}

/// Algorithm 2's tree (`m = 1`, `T = 4`) fed the outer product of the RAW reward (no clipping to
/// `[-B_y, B_y]`): item 1 has reward `+4` vs `-4`, so the packed items differ by `8` where the
/// calibration assumed at most `2 sqrt 2`. Same statistic as the real prefix-sum audit. Claim:
/// the real tree's rho-zCDP.
pub(super) fn unclipped_reward(ctx: &Context) -> CheckResult {
    let horizon = 4usize;
    let cal = calibration_at(CONTROL_ALPHA, horizon as u64)?;
    let tree = cal.tree(1)?;
    let raw = 4.0;
    let stream = |y: f64| -> Result<Array2<f64>, verification::CheckError> {
        let mut s = scalar_feature_stream(horizon, 0, 0.0)?;
        // The unclipped outer product of v = [1; y].
        let v = ndarray::arr2(&[[1.0, y], [y, y * y]]);
        s.row_mut(0).assign(&pack_upper(v.view())?);
        Ok(s)
    };
    let (s0, s1) = (stream(raw)?, stream(-raw)?);
    let mu_pair = 2.0 * raw * (tree.levels() as f64).sqrt() / tree.sigma();
    let stat = Mapped::new("the released prefix sums", flatten_rows, FisherDiscriminant);
    let n = ctx.mode.pick(60_000, 200_000);
    let cfg = AuditConfig::new(n, ALPHA, ctx.check_seed())
        .train(n / 2)
        .delta(1e-5)
        .gaussian(Some(mu_pair));
    let r = audit(
        |s: &Array2<f64>, rng: &mut ChaCha20Rng| tree.release(s, rng),
        &s0,
        &s1,
        &tree.claim(),
        &stat,
        &cfg,
    )?;
    let mut o = audit_outcome(
        ctx,
        CheckKind::PositiveControl,
        format!(
            "Algorithm 2's tree without reward clipping (alpha = {CONTROL_ALPHA}, beta = {AUDIT_BETA}, T = {horizon}, m = 1), item 1's reward {raw} vs -{raw} (B_y = {REWARD_BOUND}), claiming {}",
            tree.claim().subject
        ),
        &r,
        Expect::Flagged,
    );
    o.measured.push_str(&format!(
        "; claimed mu = sqrt(2 rho) = {:.4}, the unclipped pair's mu = 2 * {raw} sqrt(L) / sigma = {mu_pair:.4}",
        (2.0 * tree.rho()).sqrt()
    ));
    Ok(o)
}

/// The rewards' clipping bound of Table 1 (`B_y = 1.5`), where the exact packed sensitivity
/// (3.052) is furthest below the Frobenius bound (4.596).
const TABLE1_REWARD_BOUND: f64 = 1.5;

/// An over-tight calibration: one tree node whose noise is calibrated for 0.8 times the exact
/// packed sensitivity (sigma 0.8 times the real node sigma, `alpha = 10`, `T = 1024`,
/// `B_y = 1.5`), claiming the real node's rho, on the pair that attains the sensitivity
/// ([`packed_worst_pair`]: `phi = e1`, `y = 1.5` against `phi = e2`, `y = 0`). The pair's `mu`
/// is 1.25 times the claim's `sqrt(2 rho)`: the auditor must flag it, which shows the audit of
/// the tightened calibration (`jdp-qff/audit/tree-node-packed`) could fail.
pub(super) fn packed_sensitivity_understated(ctx: &Context) -> CheckResult {
    let horizon = 1024;
    let cal = packed_calibration_at(AUDIT_ALPHA, horizon, TABLE1_REWARD_BOUND)?;
    let real = OuterProductGaussian::with_noise(
        2,
        1.0,
        TABLE1_REWARD_BOUND,
        Neighbouring::Replace,
        cal.sigma(),
    )?
    .with_bound(SensitivityBound::PackedExact)?;
    let broken = OuterProductGaussian::with_noise(
        2,
        1.0,
        TABLE1_REWARD_BOUND,
        Neighbouring::Replace,
        UNDERSTATED * cal.sigma(),
    )?
    .with_bound(SensitivityBound::PackedExact)?;
    let claim = real.claim();
    let (x, xp) = packed_worst_pair(1.0, TABLE1_REWARD_BOUND)?;
    let diff = packed_difference(&x, &xp, TABLE1_REWARD_BOUND)?;
    let mu_pair = diff.dot(&diff).sqrt() / broken.sigma();
    let stat = Known::new(
        "exact Gaussian LLR ordering (the output's projection on u(x) - u(x'))",
        move |o: &Array1<f64>| o.dot(&diff),
    );
    let n = ctx.mode.pick(100_000, 400_000);
    let cfg = AuditConfig::new(n, ALPHA, ctx.check_seed())
        .train(n / 4)
        .delta(1e-5)
        .gaussian(Some(mu_pair));
    let r = audit(
        |i: &(Array1<f64>, f64), rng: &mut ChaCha20Rng| broken.release(i, rng),
        &x,
        &xp,
        &claim,
        &stat,
        &cfg,
    )?;
    let mut o = audit_outcome(
        ctx,
        CheckKind::PositiveControl,
        format!(
            "one tree node (alpha = {AUDIT_ALPHA}, beta = {AUDIT_BETA}, T = {horizon}, B_y = {TABLE1_REWARD_BOUND}, m = 2) with its noise calibrated for {UNDERSTATED} times the exact packed sensitivity (sigma {:.4} instead of {:.4}), claiming {}",
            broken.sigma(),
            cal.sigma(),
            claim.subject
        ),
        &r,
        Expect::Flagged,
    );
    o.measured.push_str(&format!(
        "; the pair's mu {mu_pair:.4} against the claim's sqrt(2 rho) = {:.4}",
        (2.0 * real.rho()).sqrt()
    ));
    Ok(o.value("mu_pair", mu_pair))
}

/// The factor by which the over-tight control understates the sensitivity.
const UNDERSTATED: f64 = 0.8;
