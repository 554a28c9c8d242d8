//! Dense linear algebra on `ndarray` views: Cholesky factorisation (factor, O(n^2) extension
//! by one row and column, solves, log-determinant), symmetric eigendecomposition, the PSD
//! matrix square root and the pseudo-inverse square root, and a PSD check.
//!
//! # Backends
//!
//! The dense factorisations (Cholesky and the symmetric eigendecomposition) run on `faer`
//! (pure Rust) by default. With the cargo feature `lapack` they run on `ndarray-linalg` with
//! the system OpenBLAS/LAPACK instead (`potrf`, `syevd`); the faer path stays compiled in
//! ([`faer_backend`]) so that a test can compare the two. Triangular solves and the Cholesky
//! extension are always done by faer on the stored factor.
//!
//! # Conventions
//!
//! Inputs are views, outputs owned arrays. Cholesky factors are lower triangular,
//! `A = L L^T`, stored column-major (a `faer::Mat`). Symmetric inputs are validated (square,
//! finite, symmetric to [`SYMMETRY_TOLERANCE`] relative to `max |A|`); only the lower triangle
//! is read by the factorisations.

pub mod faer_backend;
#[cfg(feature = "lapack")]
pub mod lapack_backend;

mod cholesky;
mod eigen;

pub use cholesky::Cholesky;
pub use eigen::{
    SymmetricEigen, ensure_psd, pinv_sqrt, psd_sqrt, symmetric_eigen, symmetric_eigenvalues,
};

use ndarray::{ArrayBase, ArrayView2, Axis, Data, Dimension};

use crate::error::KernelError;
use validation::ensure_finite_slice;

/// Relative symmetry tolerance of symmetric inputs: `|A_ij - A_ji| <= tol * max(1, max |A|)`.
pub const SYMMETRY_TOLERANCE: f64 = 1e-10;

/// Relative PSD tolerance: a symmetric matrix is accepted as positive semi-definite when its
/// smallest eigenvalue is at least `-PSD_TOLERANCE * max(1, max |eigenvalue|)` (floating-point
/// Gram matrices of smooth kernels have eigenvalues of order `-1e-16 * n * max |A|`).
pub const PSD_TOLERANCE: f64 = 1e-10;

/// Default relative eigenvalue cutoff of [`pinv_sqrt`]: eigenvalues `<= PINV_RCOND * max
/// eigenvalue` are treated as zero (their directions are dropped). `1e-10` is far above the
/// rounding noise of an eigendecomposition (`~ n * 1e-16` relative) and far below any
/// eigenvalue that carries signal in the kernels of this workspace.
pub const PINV_RCOND: f64 = 1e-10;

/// The largest entrywise difference `max |a_i - b_i|` of two arrays of the same shape (how far
/// an approximation is from what it approximates: a feature map's Gram matrix from the
/// kernel's, an incremental posterior from one computed from scratch). Arrays of different
/// shapes are not comparable entrywise: the distance is then `+inf`, never smaller than a
/// tolerance.
pub fn max_abs_diff<S1, S2, D>(a: &ArrayBase<S1, D>, b: &ArrayBase<S2, D>) -> f64
where
    S1: Data<Elem = f64>,
    S2: Data<Elem = f64>,
    D: Dimension,
{
    if a.shape() != b.shape() {
        return f64::INFINITY;
    }
    a.iter()
        .zip(b.iter())
        .fold(0.0f64, |m, (x, y)| m.max((x - y).abs()))
}

/// Validate a square, finite, symmetric matrix (see [`SYMMETRY_TOLERANCE`]).
pub fn validate_symmetric(what: &'static str, a: ArrayView2<'_, f64>) -> Result<(), KernelError> {
    let (rows, cols) = a.dim();
    if rows != cols {
        return Err(KernelError::NotSquare { what, rows, cols });
    }
    // Row-major (a copy only for a view in another layout): the flat index is the logical one.
    let standard = a.as_standard_layout();
    let s = standard
        .as_slice()
        .expect("a standard-layout array is a contiguous slice");
    ensure_finite_slice(what, s)?;
    let scale = largest_magnitude(s).max(1.0);
    if largest_asymmetry(s, rows) <= SYMMETRY_TOLERANCE * scale {
        return Ok(());
    }
    // Rejected: find the first pair (row-major order) with the largest gap for the message.
    let mut worst = (0, 0, 0.0);
    for (i, (row, col)) in a.outer_iter().zip(a.axis_iter(Axis(1))).enumerate() {
        // a[i, j] against a[j, i] for j < i, j ascending.
        for (j, (x, y)) in row.iter().zip(col.iter()).take(i).enumerate() {
            let gap = (x - y).abs();
            if gap > worst.2 {
                worst = (i, j, gap);
            }
        }
    }
    if worst.2 > SYMMETRY_TOLERANCE * scale {
        return Err(KernelError::NotSymmetric {
            what,
            i: worst.0,
            j: worst.1,
            gap: worst.2,
        });
    }
    Ok(())
}

/// `max_i |s_i|` (0 for an empty slice) of finite values, in four independent running maxima
/// (the maximum does not depend on the order).
fn largest_magnitude(s: &[f64]) -> f64 {
    let mut lanes = [0.0f64; 4];
    let chunks = s.chunks_exact(4);
    let rest = chunks.remainder();
    for chunk in chunks {
        for (lane, v) in lanes.iter_mut().zip(chunk) {
            *lane = lane.max(v.abs());
        }
    }
    rest.iter()
        .chain(&lanes)
        .fold(0.0f64, |m, v| m.max(v.abs()))
}

/// `max_{j < i} |a_ij - a_ji|` of a square matrix (row-major `n x n` slice), tile by tile (the transposed entries of a
/// tile stay in cache; the maximum does not depend on the order of the pairs).
fn largest_asymmetry(s: &[f64], n: usize) -> f64 {
    const TILE: usize = 32;
    let mut largest = 0.0f64;
    for bi in (0..n).step_by(TILE) {
        for bj in (0..=bi).step_by(TILE) {
            for i in bi..(bi + TILE).min(n) {
                for j in bj..(bj + TILE).min(i) {
                    largest = largest.max((s[i * n + j] - s[j * n + i]).abs());
                }
            }
        }
    }
    largest
}

#[cfg(test)]
mod tests;
