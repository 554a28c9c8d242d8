//! The faer backend of the dense factorisations, and conversions between `ndarray` and `faer`.
//!
//! Always compiled, so that the `lapack` backend can be compared against it.

use faer::diag::Diag;
use faer::dyn_stack::{MemBuffer, MemStack};
use faer::linalg::evd::{self, ComputeEigenvectors};
use faer::{Mat, MatRef, Par, Side};
use ndarray::{Array1, Array2, ArrayView2};

use crate::error::KernelError;

/// Copy an `ndarray` view into a (column-major) `faer::Mat`.
pub fn to_faer(a: ArrayView2<'_, f64>) -> Mat<f64> {
    let (r, c) = a.dim();
    // A standard-layout array is a row-major slice: faer copies it in one pass (the same
    // values; only the layout changes).
    match a.as_slice() {
        Some(s) => MatRef::from_row_major_slice(s, r, c).to_owned(),
        None => Mat::from_fn(r, c, |i, j| a[[i, j]]),
    }
}

/// Copy a `faer` matrix into an owned `ndarray` array.
pub fn to_ndarray(m: MatRef<'_, f64>) -> Array2<f64> {
    Array2::from_shape_fn((m.nrows(), m.ncols()), |(i, j)| m[(i, j)])
}

/// Lower Cholesky factor `L` (`A = L L^T`, column-major) of a symmetric matrix, reading its
/// lower triangle. The caller validates shape, finiteness and symmetry.
pub fn cholesky_lower(what: &'static str, a: ArrayView2<'_, f64>) -> Result<Mat<f64>, KernelError> {
    let m = to_faer(a);
    let llt = m
        .llt(Side::Lower)
        .map_err(|e| KernelError::NotPositiveDefinite {
            what,
            kind: "",
            detail: format!("Cholesky factorisation failed ({e:?})"),
        })?;
    let l = llt.L();
    // faer leaves the strict upper triangle of `L()` at zero; copy to an owned matrix.
    Ok(Mat::from_fn(l.nrows(), l.ncols(), |i, j| {
        if i >= j { l[(i, j)] } else { 0.0 }
    }))
}

/// Below this dimension the eigendecomposition runs on one thread: for the small matrices of
/// the bandit algorithms (a Nyström dictionary of tens of points, decomposed every round) the
/// cost of dispatching to the thread pool exceeds the work (measured with `perf` on
/// `cargo bench -p ldp-bo --bench growth`: 15% of ATA-GP-UCB's time was spent yielding).
pub const SEQUENTIAL_EIGEN_BELOW: usize = 256;

/// Sequential below [`SEQUENTIAL_EIGEN_BELOW`], faer's global parallelism above.
fn eigen_parallelism(n: usize) -> Par {
    if n < SEQUENTIAL_EIGEN_BELOW {
        Par::Seq
    } else {
        faer::get_global_parallelism()
    }
}

/// Eigenvalues (ascending) of a symmetric matrix, without eigenvectors, reading its lower
/// triangle. The caller validates shape, finiteness and symmetry. Parallelism as [`eigh`].
pub fn eigvalsh(what: &'static str, a: ArrayView2<'_, f64>) -> Result<Array1<f64>, KernelError> {
    let m = to_faer(a);
    let n = m.nrows();
    let par = eigen_parallelism(n);
    let mut s = Diag::<f64>::zeros(n);
    let scratch =
        evd::self_adjoint_evd_scratch::<f64>(n, ComputeEigenvectors::No, par, Default::default());
    evd::self_adjoint_evd(
        m.as_ref(),
        s.as_mut(),
        None,
        par,
        MemStack::new(&mut MemBuffer::new(scratch)),
        Default::default(),
    )
    .map_err(|e| {
        KernelError::Unsupported(format!("eigenvalues of {what} did not converge ({e:?})"))
    })?;
    let s = s.column_vector();
    Ok((0..s.nrows()).map(|i| s[i]).collect())
}

/// Eigenvalues (ascending) and orthonormal eigenvectors (columns) of a symmetric matrix,
/// reading its lower triangle. The caller validates shape, finiteness and symmetry.
/// Sequential below [`SEQUENTIAL_EIGEN_BELOW`], faer's global parallelism above.
pub fn eigh(
    what: &'static str,
    a: ArrayView2<'_, f64>,
) -> Result<(Array1<f64>, Array2<f64>), KernelError> {
    let m = to_faer(a);
    let n = m.nrows();
    let par = eigen_parallelism(n);
    let mut u = Mat::<f64>::zeros(n, n);
    let mut s = Diag::<f64>::zeros(n);
    let scratch =
        evd::self_adjoint_evd_scratch::<f64>(n, ComputeEigenvectors::Yes, par, Default::default());
    evd::self_adjoint_evd(
        m.as_ref(),
        s.as_mut(),
        Some(u.as_mut()),
        par,
        MemStack::new(&mut MemBuffer::new(scratch)),
        Default::default(),
    )
    .map_err(|e| {
        KernelError::Unsupported(format!(
            "eigendecomposition of {what} did not converge ({e:?})"
        ))
    })?;
    let s = s.column_vector();
    let values: Array1<f64> = (0..s.nrows()).map(|i| s[i]).collect();
    Ok((values, to_ndarray(u.as_ref())))
}
