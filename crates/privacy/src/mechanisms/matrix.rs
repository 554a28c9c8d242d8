//! Symmetric matrix Gaussian noise: the upper triangle (diagonal included) i.i.d.
//! `N(0, sigma^2)`, mirrored below the diagonal, and the sensitivity of the outer-product
//! statistic `v v^T` with `v = [phi; y]`.

use ndarray::{Array1, Array2, ArrayView1, ArrayView2};
use rand::Rng;

use crate::error::PrivacyError;
use crate::params::{Sensitivity, finite};
use crate::sampler::{Grid, NoiseSampler, Norm, Sampler};

/// The number of entries of the upper triangle (diagonal included) of a `d x d` matrix.
pub fn packed_len(d: usize) -> usize {
    d * (d + 1) / 2
}

/// Pack the upper triangle of a square matrix row by row: `(0,0), (0,1), ..., (0,d-1), (1,1), ...`.
pub fn pack_upper(m: ArrayView2<'_, f64>) -> Result<Array1<f64>, PrivacyError> {
    let d = m.nrows();
    if m.ncols() != d {
        return Err(PrivacyError::DimensionMismatch {
            context: "symmetric matrix: columns",
            expected: d,
            got: m.ncols(),
        });
    }
    let mut out = Vec::with_capacity(packed_len(d));
    for i in 0..d {
        for j in i..d {
            out.push(finite("matrix entry", m[[i, j]])?);
        }
    }
    Ok(Array1::from(out))
}

/// The symmetric matrix whose upper triangle is `packed` (the inverse of [`pack_upper`]).
pub fn unpack_symmetric(
    packed: ArrayView1<'_, f64>,
    d: usize,
) -> Result<Array2<f64>, PrivacyError> {
    if packed.len() != packed_len(d) {
        return Err(PrivacyError::DimensionMismatch {
            context: "packed symmetric matrix",
            expected: packed_len(d),
            got: packed.len(),
        });
    }
    let mut m = Array2::zeros((d, d));
    let mut k = 0;
    for i in 0..d {
        for j in i..d {
            m[[i, j]] = packed[k];
            m[[j, i]] = packed[k];
            k += 1;
        }
    }
    Ok(m)
}

/// Neighbouring relation for a sensitivity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Neighbouring {
    /// One datum added or removed.
    AddRemove,
    /// One datum replaced by another.
    Replace,
}

/// The L2 sensitivity, measured on the packed upper triangle (equivalently a bound on the
/// Frobenius norm), of the statistic `v v^T` with `v = [phi; y]`, `||phi||_2 <= phi_bound`,
/// `|y| <= y_bound`.
///
/// # Derivation
/// Let `c = phi_bound^2 + y_bound^2 >= ||v||^2`. Add/remove: `||v v^T||_F = ||v||^2 <= c`.
/// Replace: `||v v^T - w w^T||_F^2 = ||v||^4 + ||w||^4 - 2 (v.w)^2 <= 2 c^2`, so `sqrt(2) c`.
/// The packed upper triangle `u(D)` of a symmetric `D` has `||u(D)||^2 = (||D||_F^2 + sum_i
/// D_ii^2) / 2 <= ||D||_F^2`, so the same numbers bound the sensitivity of the packed vector.
pub fn outer_product_sensitivity(
    phi_bound: f64,
    y_bound: f64,
    relation: Neighbouring,
) -> Result<f64, PrivacyError> {
    let p = Sensitivity::new(phi_bound)?.get();
    let y = Sensitivity::new(y_bound)?.get();
    let c = p * p + y * y;
    if !(c > 0.0 && c.is_finite()) {
        return Err(PrivacyError::OutOfRange {
            name: "phi_bound^2 + y_bound^2",
            value: c,
            reason: "must be finite and > 0",
        });
    }
    Ok(match relation {
        Neighbouring::AddRemove => c,
        Neighbouring::Replace => std::f64::consts::SQRT_2 * c,
    })
}

/// The outer product `v v^T` of `v = [phi; y]`, after clipping `phi` to L2 norm `phi_bound` and
/// `y` to `[-y_bound, y_bound]` (so that [`outer_product_sensitivity`] holds for every input).
pub fn clipped_outer_product(
    phi: ArrayView1<'_, f64>,
    y: f64,
    phi_bound: f64,
    y_bound: f64,
) -> Result<Array2<f64>, PrivacyError> {
    let pb = Sensitivity::new(phi_bound)?.get();
    let yb = Sensitivity::new(y_bound)?.get();
    let mut v = Array1::zeros(phi.len() + 1);
    let mut norm2 = 0.0;
    for (i, &x) in phi.iter().enumerate() {
        v[i] = finite("feature", x)?;
        norm2 += x * x;
    }
    let norm = norm2.sqrt();
    if norm > pb {
        let f = pb / norm;
        for x in v.iter_mut().take(phi.len()) {
            *x *= f;
        }
    }
    v[phi.len()] = finite("reward", y)?.clamp(-yb, yb);
    let col = v.view().insert_axis(ndarray::Axis(1));
    Ok(col.dot(&col.t()))
}

/// Symmetric Gaussian noise: upper triangle i.i.d. `N(0, sigma^2)` (hardened: exact discrete
/// Gaussian on a grid chosen from `sensitivity`), mirrored.
pub fn symmetric_gaussian_noise<R: Rng + ?Sized>(
    d: usize,
    sigma: f64,
    sensitivity: f64,
    sampler: Sampler,
    rng: &mut R,
) -> Result<Array2<f64>, PrivacyError> {
    let grid = Grid::for_sensitivity(sensitivity, packed_len(d), Norm::L2)?;
    let packed: Result<Array1<f64>, _> = (0..packed_len(d))
        .map(|_| sampler.perturb_gaussian(0.0, sigma, grid, rng))
        .collect();
    unpack_symmetric(packed?.view(), d)
}

/// The spectral-norm bound of symmetric Gaussian noise (Tropp 2015, "An Introduction to Matrix
/// Concentration Inequalities", Theorem 4.1.1, matrix Gaussian series).
///
/// A sum of `m` independent symmetric `d x d` noise matrices, each with i.i.d. `N(0, sigma^2)`
/// upper triangle, is `N = sum_{i<=j} g_ij H_ij` with `g_ij ~ N(0, m sigma^2)`, `H_ii = e_i e_i^T`,
/// `H_ij = e_i e_j^T + e_j e_i^T`. Then `sum H_ij^2 = I + (d - 1) I = d I`, so the variance
/// parameter is `v = m sigma^2 d` and `P(||N||_2 >= t) <= 2 d exp(-t^2 / (2 v))`. A union bound
/// over `count` matrices gives: with probability at least `1 - alpha` all have
/// `||N||_2 <= sigma sqrt(2 m d ln(2 d count / alpha))`.
pub fn spectral_bound(
    sigma: f64,
    d: usize,
    m: usize,
    count: u64,
    alpha: f64,
) -> Result<f64, PrivacyError> {
    if !(alpha > 0.0 && alpha < 1.0) {
        return Err(PrivacyError::OutOfRange {
            name: "alpha",
            value: alpha,
            reason: "must lie in (0, 1)",
        });
    }
    if d == 0 || m == 0 || count == 0 {
        return Err(PrivacyError::ZeroCount {
            what: "dimension, node count and number of matrices",
            got: 0,
        });
    }
    let v = m as f64 * sigma * sigma * d as f64;
    Ok((2.0 * v * (2.0 * d as f64 * count as f64 / alpha).ln()).sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn pack_roundtrip_and_outer_product() {
        let m = array![[1.0, 2.0], [2.0, 3.0]];
        let p = pack_upper(m.view()).unwrap();
        assert_eq!(p.to_vec(), vec![1.0, 2.0, 3.0]);
        assert_eq!(unpack_symmetric(p.view(), 2).unwrap(), m);
        let o = clipped_outer_product(array![3.0, 4.0].view(), 5.0, 1.0, 2.0).unwrap();
        // phi clipped to (0.6, 0.8), y to 2.
        assert!((o[[0, 1]] - 0.48).abs() < 1e-15 && (o[[2, 2]] - 4.0).abs() < 1e-15);
        assert!((o[[0, 2]] - 1.2).abs() < 1e-15);
        // Worst case replace: v = (1, 0, B), w = (0, 1, -B) at phi_bound = 1.
        let b: f64 = 2.0;
        let v = clipped_outer_product(array![1.0, 0.0].view(), b, 1.0, b).unwrap();
        let w = clipped_outer_product(array![0.0, 1.0].view(), 0.0, 1.0, b).unwrap();
        let diff = pack_upper((&v - &w).view()).unwrap();
        let bound = outer_product_sensitivity(1.0, b, Neighbouring::Replace).unwrap();
        assert!(diff.dot(&diff).sqrt() <= bound);
    }
}
