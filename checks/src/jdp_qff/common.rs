//! What the audits and controls share: the audited calibration, the small feature map, the
//! worst-case pair of users and the flattening of the server's view.

use std::sync::Arc;

use jdp_qff::{JdpCalibration, PrivatizedStatistics};
use kernel::QuadratureFourierFeatures;
use ndarray::{Array1, Array2};
use privacy::accountant::zcdp::ZcdpConversion;
use privacy::mechanisms::SensitivityBound;
use privacy::mechanisms::matrix::{clipped_outer_product, pack_upper};
use verification::CheckError;

/// `alpha` of the audited `(alpha, beta)`-JDP target: the largest of Figure 1 (the least noise,
/// where a broken calibration is easiest to see relative to its claim).
pub(super) const AUDIT_ALPHA: f64 = 10.0;

/// `beta` of the audited target (Section 6.1).
pub(super) const AUDIT_BETA: f64 = 0.1;

/// The reward bound `B_y` (Bernoulli rewards).
pub(super) const REWARD_BOUND: f64 = 1.0;

/// The raw rewards of the differing user: far outside `[-B_y, B_y]`, so the audits also test
/// the clipping (clipped, they are `+-B_y`: the worst case for the same point `x`).
pub(super) const OUT_OF_RANGE_REWARD: f64 = 5.0;

/// `alpha` of the positive controls: the paper's default (Section 6.1). Its claim (rho* = 0.09)
/// is strong enough that an auditor with 10^4-10^5 outputs can certify a violation of it; the
/// zCDP trade-off curve of `alpha = 10` (rho* = 3.96) lies so low that only a Gaussian-DP
/// distance above about 4.75 crosses it at rates above 10^-3.
pub(super) const CONTROL_ALPHA: f64 = 1.0;

/// The calibration of Algorithm 2 for the audits, over `T` rounds.
pub(super) fn calibration(horizon: u64) -> Result<JdpCalibration, CheckError> {
    calibration_at(AUDIT_ALPHA, horizon)
}

/// The calibration of Algorithm 2 at `alpha` (`beta` = [`AUDIT_BETA`]), over `T` rounds.
pub(super) fn calibration_at(alpha: f64, horizon: u64) -> Result<JdpCalibration, CheckError> {
    Ok(JdpCalibration::new(
        alpha,
        AUDIT_BETA,
        horizon,
        REWARD_BOUND,
        ZcdpConversion::Classic,
    )?)
}

/// The calibration of Algorithm 2 at `alpha` (`beta` = [`AUDIT_BETA`]) over `T` rounds with
/// rewards clipped to `reward_bound` and the exact packed sensitivity
/// ([`SensitivityBound::PackedExact`]).
pub(super) fn packed_calibration_at(
    alpha: f64,
    horizon: u64,
    reward_bound: f64,
) -> Result<JdpCalibration, CheckError> {
    Ok(JdpCalibration::new(
        alpha,
        AUDIT_BETA,
        horizon,
        reward_bound,
        ZcdpConversion::Classic,
    )?
    .with_bound(SensitivityBound::PackedExact)?)
}

/// The packed distance `u(v v^T) - u(w w^T)` of two clipped inputs `(phi, y)`: the direction
/// of the Gaussian shift between their releases, whose dot product with an output is the exact
/// log-likelihood-ratio ordering.
pub(super) fn packed_difference(
    x: &(Array1<f64>, f64),
    xp: &(Array1<f64>, f64),
    reward_bound: f64,
) -> Result<Array1<f64>, CheckError> {
    let u = |(phi, y): &(Array1<f64>, f64)| -> Result<Array1<f64>, CheckError> {
        let item = clipped_outer_product(phi.view(), *y, 1.0, reward_bound)?;
        Ok(pack_upper(item.view())?)
    };
    Ok(u(x)? - u(xp)?)
}

/// NQFF of the SE kernel (lengthscale 1) in `d = 1` with `mbar = 2`: `m = 4` features of unit
/// norm (small, so that each audit can draw hundreds of thousands of releases).
pub(super) fn audit_features() -> Result<Arc<QuadratureFourierFeatures>, CheckError> {
    Ok(Arc::new(jdp_qff::features::nqff(1, 1.0, 2)?))
}

/// The packed `(m+1) x (m+1)` item `pack_upper([phi; clip(y)][phi; clip(y)]^T)` of Algorithm 2
/// for a feature vector `phi` (`||phi|| <= 1`).
pub(super) fn packed_item(phi: &[f64], y: f64) -> Result<Array1<f64>, CheckError> {
    let item = clipped_outer_product(ndarray::ArrayView1::from(phi), y, 1.0, REWARD_BOUND)?;
    Ok(pack_upper(item.view())?)
}

/// A stream of `T` packed items (one per row) for `phi = (1)`, `m = 1`: the first item has
/// reward `first`, the others the fixed rewards `0.3, -0.7, 0.5, ...` (`changed` selects which
/// row holds `first`).
pub(super) fn scalar_feature_stream(
    horizon: usize,
    changed: usize,
    first: f64,
) -> Result<Array2<f64>, CheckError> {
    let others = [0.3, -0.7, 0.5, 0.9, -0.2, 0.1, -0.4, 0.8];
    let mut s = Array2::zeros((horizon, 3));
    for t in 0..horizon {
        let y = if t == changed {
            first
        } else {
            others[t % others.len()]
        };
        s.row_mut(t).assign(&packed_item(&[1.0], y)?);
    }
    Ok(s)
}

/// The server's view as one vector: for every release, the upper triangle of `Sigma~` (row by
/// row) and then `u~` (the PSD shift is a constant and does not matter to any statistic).
pub(super) fn flatten_view(view: &[PrivatizedStatistics]) -> Vec<f64> {
    let mut out = Vec::new();
    for r in view {
        let s = r.sigma();
        let m = s.nrows();
        for i in 0..m {
            for j in i..m {
                out.push(s[[i, j]]);
            }
        }
        out.extend(r.u().iter().copied());
    }
    out
}

/// The rows of an array as one vector (row-major).
pub(super) fn flatten_rows(a: &Array2<f64>) -> Vec<f64> {
    a.iter().copied().collect()
}
