//! The faer backend of the dense factorisations, and conversions between `ndarray` and `faer`.
//!
//! Always compiled, so that the `lapack` backend can be compared against it.

use faer::diag::Diag;
use faer::dyn_stack::{MemBuffer, MemStack};
use faer::linalg::cholesky::llt;
use faer::linalg::evd::{self, ComputeEigenvectors};
use faer::{Mat, MatRef, Par};
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
///
/// The same computation as `faer::Mat::llt(Side::Lower)` (faer's `cholesky_in_place` with the
/// default parameters and the global parallelism, the strict upper triangle zeroed), run in a
/// matrix filled directly from `a`'s lower triangle: faer's solver would first copy `a`, copy
/// it again into its own storage and hand back a view that is copied a third time.
pub fn cholesky_lower(what: &'static str, a: ArrayView2<'_, f64>) -> Result<Mat<f64>, KernelError> {
    let n = a.nrows();
    let mut l = Mat::<f64>::zeros(n, n);
    match a.as_slice() {
        // A row-major slice into column-major storage, 32 x 32 tiles at a time (both sides of a
        // tile stay in cache).
        Some(s) => {
            const TILE: usize = 32;
            for bj in (0..n).step_by(TILE) {
                for bi in (bj..n).step_by(TILE) {
                    for j in bj..(bj + TILE).min(n) {
                        let column = l.col_as_slice_mut(j);
                        for i in bi.max(j)..(bi + TILE).min(n) {
                            column[i] = s[i * n + j];
                        }
                    }
                }
            }
        }
        None => {
            for (j, source) in a.columns().into_iter().enumerate() {
                let column = l.col_as_slice_mut(j);
                for (entry, &value) in column.iter_mut().zip(source.iter()).skip(j) {
                    *entry = value;
                }
            }
        }
    }
    let par = faer::get_global_parallelism();
    let mut mem = MemBuffer::new(llt::factor::cholesky_in_place_scratch::<f64>(
        n,
        par,
        Default::default(),
    ));
    llt::factor::cholesky_in_place(
        l.as_mut(),
        Default::default(),
        par,
        MemStack::new(&mut mem),
        Default::default(),
    )
    .map_err(|e| KernelError::NotPositiveDefinite {
        what,
        kind: "",
        detail: format!("Cholesky factorisation failed ({e:?})"),
    })?;
    for j in 1..n {
        l.col_as_slice_mut(j)[..j].fill(0.0);
    }
    Ok(l)
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
