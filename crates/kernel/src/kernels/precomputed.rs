//! A kernel over a finite set of arms, given by its Gram matrix.

use ndarray::{Array2, ArrayView1, ArrayView2};
use serde::{Deserialize, Serialize};

use super::Kernel;
use crate::error::{InputError, KernelError};
use validation::ensure_finite;

/// A kernel on the finite set `{0, ..., n-1}` of arms, given as an `n x n` symmetric
/// positive semi-definite Gram matrix (the data-set experiments use an empirical covariance).
///
/// A point is a one-dimensional array holding the arm index as a float (`[3.0]` is arm 3), so
/// that arms fit the same `n x d` batch convention as Euclidean points.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Precomputed {
    gram: Array2<f64>,
}

impl Precomputed {
    /// Relative tolerance of the symmetry check, `|K_ij - K_ji| <= tol * max |K|`.
    pub const SYMMETRY_TOLERANCE: f64 = 1e-12;

    /// Validate and wrap a Gram matrix: square, non-empty, finite, symmetric to
    /// [`Self::SYMMETRY_TOLERANCE`] (then symmetrised exactly) and positive semi-definite
    /// (smallest eigenvalue >= -1e-10 times the largest |eigenvalue|).
    pub fn new(gram: ArrayView2<'_, f64>) -> Result<Self, KernelError> {
        let (rows, cols) = gram.dim();
        if rows != cols {
            return Err(KernelError::NotSquare {
                what: "precomputed Gram matrix",
                rows,
                cols,
            });
        }
        if rows == 0 {
            return Err(KernelError::Input(InputError::Empty {
                what: "precomputed Gram matrix",
            }));
        }
        ensure_finite("precomputed Gram matrix", gram.iter())?;
        let scale = gram.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        let mut worst = (0, 0, 0.0);
        for i in 0..rows {
            for j in 0..i {
                let gap = (gram[[i, j]] - gram[[j, i]]).abs();
                if gap > worst.2 {
                    worst = (i, j, gap);
                }
            }
        }
        if worst.2 > Self::SYMMETRY_TOLERANCE * scale {
            return Err(KernelError::NotSymmetric {
                what: "precomputed Gram matrix",
                i: worst.0,
                j: worst.1,
                gap: worst.2,
            });
        }
        let sym = (&gram + &gram.t()) * 0.5;
        crate::linalg::ensure_psd("precomputed Gram matrix", sym.view())?;
        Ok(Self { gram: sym })
    }

    /// Number of arms.
    pub fn n_arms(&self) -> usize {
        self.gram.nrows()
    }

    /// The Gram matrix.
    pub fn gram_matrix(&self) -> ArrayView2<'_, f64> {
        self.gram.view()
    }

    /// All arms as an `n x 1` batch of points `[[0.0], [1.0], ...]`.
    pub fn arms(&self) -> Array2<f64> {
        Array2::from_shape_fn((self.n_arms(), 1), |(i, _)| i as f64)
    }

    fn index(&self, x: ArrayView1<'_, f64>) -> usize {
        x[0] as usize
    }
}

impl Kernel for Precomputed {
    fn input_dim(&self) -> Option<usize> {
        Some(1)
    }

    fn sup_diag(&self) -> Option<f64> {
        Some(self.gram.diag().iter().fold(0.0f64, |m, &v| m.max(v)))
    }

    fn validate_point(&self, x: ArrayView1<'_, f64>) -> Result<(), KernelError> {
        if x.len() != 1 {
            return Err(KernelError::Input(InputError::DimensionMismatch {
                context: "precomputed kernel input (an arm index)",
                expected: 1,
                got: x.len(),
            }));
        }
        let v = x[0];
        if !(v.is_finite() && v >= 0.0 && v.fract() == 0.0 && (v as usize) < self.n_arms()) {
            return Err(KernelError::ArmIndexOutOfRange {
                value: v,
                n_arms: self.n_arms(),
            });
        }
        Ok(())
    }

    fn value_unchecked(&self, x: ArrayView1<'_, f64>, y: ArrayView1<'_, f64>) -> f64 {
        self.gram[[self.index(x), self.index(y)]]
    }
}
