//! Cholesky factorisation `A = L L^T` with an O(n^2) extension by one row and column.

use faer::{Mat, MatRef};
use ndarray::{Array1, Array2, ArrayView1, ArrayView2};

use super::{faer_backend, validate_symmetric};
use crate::error::{InputError, KernelError};
use validation::ensure_finite;

/// The lower Cholesky factor `L` of a symmetric positive-definite matrix `A = L L^T`, stored
/// column-major, which can be extended by one row and column in O(n^2) (the incremental GP
/// posterior adds one observation per round this way instead of refactorising in O(n^3)).
#[derive(Debug)]
pub struct Cholesky {
    l: Mat<f64>,
    capacity: usize,
}

impl Clone for Cholesky {
    /// Clones keep the spare capacity, so that extending a clone stays O(n^2).
    fn clone(&self) -> Self {
        let mut l = self.l.clone();
        l.reserve(self.capacity, self.capacity);
        Self {
            l,
            capacity: self.capacity,
        }
    }
}

impl Default for Cholesky {
    fn default() -> Self {
        Self::empty()
    }
}

impl Cholesky {
    /// The factor of the empty (`0 x 0`) matrix, to be grown with [`Cholesky::extend`].
    pub fn empty() -> Self {
        Self {
            l: Mat::zeros(0, 0),
            capacity: 0,
        }
    }

    /// Factor the symmetric positive-definite matrix `a` (validated: square, finite,
    /// symmetric). A matrix that is not numerically positive definite (a non-positive pivot)
    /// gives [`KernelError::NotPositiveDefinite`]. `what` names the matrix in error messages.
    pub fn factor(what: &'static str, a: ArrayView2<'_, f64>) -> Result<Self, KernelError> {
        validate_symmetric(what, a)?;
        #[cfg(feature = "lapack")]
        let l = super::lapack_backend::cholesky_lower(what, a)?;
        #[cfg(not(feature = "lapack"))]
        let l = faer_backend::cholesky_lower(what, a)?;
        let capacity = l.nrows();
        Ok(Self { l, capacity })
    }

    /// The dimension `n` of the factored matrix.
    pub fn dim(&self) -> usize {
        self.l.nrows()
    }

    /// The lower factor `L` as a faer view (column-major).
    pub fn factor_ref(&self) -> MatRef<'_, f64> {
        self.l.as_ref()
    }

    /// The lower factor `L` copied into an `ndarray` array.
    pub fn lower(&self) -> Array2<f64> {
        faer_backend::to_ndarray(self.l.as_ref())
    }

    /// Extend the factor of `A` (`n x n`) to the factor of
    /// `[[A, b], [b^T, c]]` in O(n^2): `L' = [[L, 0], [w^T, d]]` with `L w = b` and
    /// `d = sqrt(c - w^T w)`.
    ///
    /// Returns [`KernelError::NotPositiveDefinite`] (and leaves the factor unchanged) when the
    /// new Schur complement `c - w^T w` is not positive, i.e. the extended matrix is not
    /// numerically positive definite.
    pub fn extend(&mut self, b: ArrayView1<'_, f64>, c: f64) -> Result<(), KernelError> {
        let n = self.dim();
        if b.len() != n {
            return Err(KernelError::Input(InputError::DimensionMismatch {
                context: "Cholesky extension: new column",
                expected: n,
                got: b.len(),
            }));
        }
        ensure_finite("Cholesky extension: new column", b.iter())?;
        ensure_finite("Cholesky extension: new diagonal entry", [c].iter())?;
        let mut w = Mat::from_fn(n, 1, |i, _| b[i]);
        if n > 0 {
            self.l.as_ref().solve_lower_triangular_in_place(w.as_mut());
        }
        let ww: f64 = (0..n).map(|i| w[(i, 0)] * w[(i, 0)]).sum();
        let schur = c - ww;
        if !(schur > 0.0 && schur.is_finite()) {
            return Err(KernelError::NotPositiveDefinite {
                what: "extended matrix (Cholesky extension)",
                kind: "",
                detail: format!("new pivot c - w^T w = {schur:e} <= 0 (c = {c:e})"),
            });
        }
        if n + 1 > self.capacity {
            // Amortised growth: doubling keeps the total copying cost O(n^2).
            let cap = (2 * self.capacity).max(n + 1).max(8);
            self.l.reserve(cap, cap);
            self.capacity = cap;
        }
        let d = schur.sqrt();
        self.l.resize_with(n + 1, n + 1, |i, j| {
            if i == n && j < n {
                w[(j, 0)]
            } else if i == n && j == n {
                d
            } else {
                0.0
            }
        });
        Ok(())
    }

    /// Rank-one update in O(n^2): replace the factor of `A` by the factor of `A + v v^T`
    /// (the classical Givens-like update, e.g. Golub & Van Loan, Section 6.5.4), which is
    /// numerically stable because `A + v v^T` stays positive definite.
    pub fn rank_one_update(&mut self, v: ArrayView1<'_, f64>) -> Result<(), KernelError> {
        let n = self.dim();
        if v.len() != n {
            return Err(KernelError::Input(InputError::DimensionMismatch {
                context: "Cholesky rank-one update: vector",
                expected: n,
                got: v.len(),
            }));
        }
        ensure_finite("Cholesky rank-one update: vector", v.iter())?;
        let mut v = v.to_vec();
        for k in 0..n {
            // Column k of L, contiguous (an owned faer matrix is column-major): the same
            // arithmetic as indexing L(i, k), without a bounds check per entry.
            let col = self
                .l
                .col_mut(k)
                .try_as_col_major_mut()
                .expect("an owned faer matrix has contiguous columns")
                .as_slice_mut();
            let (lkk, vk) = (col[k], v[k]);
            let r = lkk.hypot(vk);
            let c = r / lkk;
            let s = vk / lkk;
            col[k] = r;
            for (lik, vi) in col[k + 1..].iter_mut().zip(&mut v[k + 1..]) {
                let updated = (*lik + s * *vi) / c;
                *lik = updated;
                *vi = c * *vi - s * updated;
            }
        }
        Ok(())
    }

    fn check_rhs(&self, rows: usize) -> Result<(), KernelError> {
        if rows != self.dim() {
            return Err(KernelError::Input(InputError::DimensionMismatch {
                context: "Cholesky solve: right-hand side rows",
                expected: self.dim(),
                got: rows,
            }));
        }
        Ok(())
    }

    /// `L^{-1} B` (forward substitution) for a matrix right-hand side `B` (`n x k`).
    pub fn solve_lower_matrix(&self, b: ArrayView2<'_, f64>) -> Result<Array2<f64>, KernelError> {
        self.check_rhs(b.nrows())?;
        ensure_finite("Cholesky solve: right-hand side", b.iter())?;
        let mut x = faer_backend::to_faer(b);
        if self.dim() > 0 && b.ncols() > 0 {
            self.l.as_ref().solve_lower_triangular_in_place(x.as_mut());
        }
        Ok(faer_backend::to_ndarray(x.as_ref()))
    }

    /// `L^{-1} b` (forward substitution).
    pub fn solve_lower(&self, b: ArrayView1<'_, f64>) -> Result<Array1<f64>, KernelError> {
        let b2 = b.insert_axis(ndarray::Axis(1));
        Ok(self.solve_lower_matrix(b2)?.column(0).to_owned())
    }

    /// `A^{-1} B = L^{-T} L^{-1} B` for a matrix right-hand side `B` (`n x k`).
    pub fn solve_matrix(&self, b: ArrayView2<'_, f64>) -> Result<Array2<f64>, KernelError> {
        self.check_rhs(b.nrows())?;
        ensure_finite("Cholesky solve: right-hand side", b.iter())?;
        let mut x = faer_backend::to_faer(b);
        if self.dim() > 0 && b.ncols() > 0 {
            self.l.as_ref().solve_lower_triangular_in_place(x.as_mut());
            self.l
                .as_ref()
                .transpose()
                .solve_upper_triangular_in_place(x.as_mut());
        }
        Ok(faer_backend::to_ndarray(x.as_ref()))
    }

    /// `A^{-1} b`.
    pub fn solve(&self, b: ArrayView1<'_, f64>) -> Result<Array1<f64>, KernelError> {
        let b2 = b.insert_axis(ndarray::Axis(1));
        Ok(self.solve_matrix(b2)?.column(0).to_owned())
    }

    /// `log det A = 2 sum_i log L_ii` (0 for the empty matrix).
    pub fn log_det(&self) -> f64 {
        2.0 * (0..self.dim()).map(|i| self.l[(i, i)].ln()).sum::<f64>()
    }
}
