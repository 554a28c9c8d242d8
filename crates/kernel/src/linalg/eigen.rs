//! Symmetric eigendecomposition, PSD square root, pseudo-inverse square root, PSD check.

use ndarray::{Array1, Array2, ArrayView2};

use super::{PSD_TOLERANCE, validate_symmetric};
use crate::error::KernelError;
use validation::{Interval, in_range};

/// Eigendecomposition `A = U diag(values) U^T` of a symmetric matrix.
#[derive(Debug, Clone, PartialEq)]
pub struct SymmetricEigen {
    /// Eigenvalues in ascending order.
    pub values: Array1<f64>,
    /// Orthonormal eigenvectors, one per column, in the order of `values`.
    pub vectors: Array2<f64>,
}

impl SymmetricEigen {
    /// `U diag(f(values)) U^T`.
    pub fn map_values(&self, f: impl Fn(f64) -> f64) -> Array2<f64> {
        let fv: Array1<f64> = self.values.mapv(f);
        let scaled = &self.vectors * &fv.view().insert_axis(ndarray::Axis(0));
        scaled.dot(&self.vectors.t())
    }

    /// The largest `|eigenvalue|`, floored at 1: the scale of the relative PSD tolerance.
    fn psd_scale(&self) -> f64 {
        self.values.iter().fold(1.0f64, |m, v| m.max(v.abs()))
    }
}

/// Eigendecomposition of a symmetric matrix (validated: square, finite, symmetric).
pub fn symmetric_eigen(
    what: &'static str,
    a: ArrayView2<'_, f64>,
) -> Result<SymmetricEigen, KernelError> {
    validate_symmetric(what, a)?;
    if a.nrows() == 0 {
        return Ok(SymmetricEigen {
            values: Array1::zeros(0),
            vectors: Array2::zeros((0, 0)),
        });
    }
    #[cfg(feature = "lapack")]
    let (values, vectors) = super::lapack_backend::eigh(what, a)?;
    #[cfg(not(feature = "lapack"))]
    let (values, vectors) = super::faer_backend::eigh(what, a)?;
    Ok(SymmetricEigen { values, vectors })
}

/// The eigenvalues (ascending) of a symmetric matrix (validated: square, finite, symmetric),
/// without eigenvectors: faer's symmetric eigensolver with either backend (the values agree
/// with [`symmetric_eigen`]'s to rounding, not bit for bit).
pub fn symmetric_eigenvalues(
    what: &'static str,
    a: ArrayView2<'_, f64>,
) -> Result<Array1<f64>, KernelError> {
    validate_symmetric(what, a)?;
    if a.nrows() == 0 {
        return Ok(Array1::zeros(0));
    }
    super::faer_backend::eigvalsh(what, a)
}

fn check_psd(what: &'static str, e: &SymmetricEigen) -> Result<(), KernelError> {
    let scale = e.psd_scale();
    if let Some(&min) = e.values.iter().min_by(|a, b| a.total_cmp(b))
        && min < -PSD_TOLERANCE * scale
    {
        return Err(KernelError::NotPositiveDefinite {
            what,
            kind: "semi-",
            detail: format!(
                "smallest eigenvalue {min:e} < -{PSD_TOLERANCE:e} * max(1, max |eigenvalue|) = {:e}",
                -PSD_TOLERANCE * scale
            ),
        });
    }
    Ok(())
}

/// Return an error unless the symmetric matrix `a` is positive semi-definite: its smallest
/// eigenvalue must be at least `-PSD_TOLERANCE * max(1, max |eigenvalue|)`
/// ([`PSD_TOLERANCE`](super::PSD_TOLERANCE) = 1e-10). Non-square, non-finite and asymmetric
/// inputs give their own error variants.
pub fn ensure_psd(what: &'static str, a: ArrayView2<'_, f64>) -> Result<(), KernelError> {
    let e = symmetric_eigen(what, a)?;
    check_psd(what, &e)
}

/// The PSD square root `A^{1/2} = U diag(sqrt(max(values, 0))) U^T` of a symmetric positive
/// semi-definite matrix (validated with the tolerance of [`ensure_psd`]; eigenvalues within
/// that tolerance below zero are clamped to zero).
pub fn psd_sqrt(what: &'static str, a: ArrayView2<'_, f64>) -> Result<Array2<f64>, KernelError> {
    let e = symmetric_eigen(what, a)?;
    check_psd(what, &e)?;
    Ok(e.map_values(|v| v.max(0.0).sqrt()))
}

/// The pseudo-inverse square root `(A^{1/2})^+ = U diag(g(values)) U^T` of a symmetric PSD
/// matrix, with `g(v) = 1 / sqrt(v)` when `v > rcond * max(values)` and `g(v) = 0` otherwise
/// (the relative eigenvalue cutoff; [`PINV_RCOND`](super::PINV_RCOND) is the default).
///
/// `rcond` must be in `[0, 1)`. The input is validated as in [`ensure_psd`].
pub fn pinv_sqrt(
    what: &'static str,
    a: ArrayView2<'_, f64>,
    rcond: f64,
) -> Result<Array2<f64>, KernelError> {
    in_range("rcond", rcond, Interval::closed_open(0.0, 1.0))?;
    let e = symmetric_eigen(what, a)?;
    check_psd(what, &e)?;
    let max = e.values.iter().fold(0.0f64, |m, &v| m.max(v));
    let cut = rcond * max;
    Ok(e.map_values(|v| {
        if v > cut && v > 0.0 {
            1.0 / v.sqrt()
        } else {
            0.0
        }
    }))
}
