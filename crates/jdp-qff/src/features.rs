//! The features of Section 4.2: normalised quadrature Fourier features (NQFF) of the SE kernel,
//! with the paper's size `m = 2 (6 ln T)^d` (Corollary 1) available.

use kernel::{QuadratureFourierFeatures, SquaredExponential};
use validation::at_least_one;

use crate::error::JdpQffError;

/// Corollary 1's nodes per dimension: `mbar = ceil(6 ln T)` (the proof sets `mbar = log T^6`).
pub fn paper_mbar(horizon: u64) -> Result<usize, JdpQffError> {
    let t = at_least_one("horizon T", horizon)?;
    Ok(((6.0 * (t as f64).ln()).ceil() as usize).max(1))
}

/// Corollary 1's feature count `m = 2 mbar^d` with [`paper_mbar`] (e.g. `T = 1024`, `d = 2`:
/// `mbar = 42`, `m = 3528`).
pub fn paper_feature_count(horizon: u64, d: usize) -> Result<usize, JdpQffError> {
    let mbar = paper_mbar(horizon)?;
    let d = u32::try_from(at_least_one("input dimension d", d)?).unwrap_or(u32::MAX);
    mbar.checked_pow(d)
        .and_then(|g| g.checked_mul(2))
        .ok_or_else(|| {
            validation::InputError::Unsatisfied {
                what: "input dimension d",
                value: f64::from(d),
                requirement: "2 (6 ln T)^d must fit in a usize",
            }
            .into()
        })
}

/// NQFF of the unit-variance SE kernel `exp(-||x - y||^2 / (2 l^2))` on `R^d` with `mbar`
/// nodes per dimension: `m = 2 mbar^d` features with `||Phi(x)||_2 = 1` (the Gauss-Hermite
/// weights sum to one), as Theorem 1 requires.
pub fn nqff(
    d: usize,
    lengthscale: f64,
    mbar: usize,
) -> Result<QuadratureFourierFeatures, JdpQffError> {
    let k = SquaredExponential::isotropic(lengthscale)?;
    Ok(QuadratureFourierFeatures::new(&k, d, mbar)?)
}
