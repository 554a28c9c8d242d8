//! The LAPACK backend (feature `lapack`): `ndarray-linalg` on the system OpenBLAS.

use faer::Mat;
use ndarray::{Array1, Array2, ArrayView2};
use ndarray_linalg::{Cholesky as _, Eigh as _, UPLO};

use crate::error::KernelError;

/// Lower Cholesky factor `L` (`A = L L^T`) by LAPACK `potrf`, returned column-major.
pub fn cholesky_lower(what: &'static str, a: ArrayView2<'_, f64>) -> Result<Mat<f64>, KernelError> {
    let l = a
        .to_owned()
        .cholesky(UPLO::Lower)
        .map_err(|e| KernelError::NotPositiveDefinite {
            what,
            kind: "",
            detail: format!("LAPACK Cholesky factorisation failed ({e})"),
        })?;
    Ok(Mat::from_fn(l.nrows(), l.ncols(), |i, j| {
        if i >= j { l[[i, j]] } else { 0.0 }
    }))
}

/// Eigenvalues (ascending) and orthonormal eigenvectors (columns) by LAPACK `syevd`.
pub fn eigh(
    what: &'static str,
    a: ArrayView2<'_, f64>,
) -> Result<(Array1<f64>, Array2<f64>), KernelError> {
    a.to_owned().eigh(UPLO::Lower).map_err(|e| {
        KernelError::Unsupported(format!("LAPACK eigendecomposition of {what} failed ({e})"))
    })
}
