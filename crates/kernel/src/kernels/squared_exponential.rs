//! The squared exponential (RBF, Gaussian) kernel.

use ndarray::ArrayView1;
use serde::{Deserialize, Serialize};

use super::{Kernel, Lengthscales, scaled_sq_dist};
use crate::error::KernelError;
use validation::positive;

/// Squared exponential kernel.
///
/// # Formula
///
/// `k(x, y) = s^2 exp(-r^2 / 2)`, with `r^2 = sum_i ((x_i - y_i) / l_i)^2` and variance `s^2`.
///
/// This is the convention of Rasmussen & Williams (2006, eq. 4.9) and of all four papers'
/// analyses. Some code in the literature writes `exp(-r^2)` (lengthscale `l / sqrt 2` in
/// this convention): the environments of this workspace always state which they use.
///
/// # Examples
///
/// At distance one lengthscale the kernel is `s^2 exp(-1/2)`; the Gram matrix is symmetric
/// with the variance on its diagonal; a bad lengthscale is a typed error, not a panic.
///
/// ```
/// use kernel::{InputError, Kernel, KernelError, SquaredExponential};
/// use ndarray::array;
///
/// let k = SquaredExponential::isotropic(0.5)?;
/// let v = k.value(array![0.0, 0.0].view(), array![0.3, 0.4].view())?; // |x - y| = 0.5
/// assert!((v - (-0.5f64).exp()).abs() < 1e-15);
///
/// let g = k.gram(array![[0.0], [0.25], [1.0]].view())?;
/// assert_eq!(g[[0, 1]], g[[1, 0]]);
/// assert!(g.diag().iter().all(|&d| d == 1.0));
///
/// assert!(matches!(
///     SquaredExponential::isotropic(0.0),
///     Err(KernelError::Input(InputError::NotPositive { .. }))
/// ));
/// # Ok::<(), KernelError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SquaredExponential {
    variance: f64,
    lengthscales: Lengthscales,
}

impl SquaredExponential {
    /// SE kernel with variance `s^2 = variance` and the given lengthscales.
    pub fn new(variance: f64, lengthscales: Lengthscales) -> Result<Self, KernelError> {
        Ok(Self {
            variance: positive("variance", variance)?,
            lengthscales,
        })
    }

    /// SE kernel with unit variance and one lengthscale `l`.
    pub fn isotropic(l: f64) -> Result<Self, KernelError> {
        Self::new(1.0, Lengthscales::isotropic(l)?)
    }

    /// The variance `s^2 = k(x, x)`.
    pub fn variance(&self) -> f64 {
        self.variance
    }

    /// The lengthscales.
    pub fn lengthscales(&self) -> &Lengthscales {
        &self.lengthscales
    }
}

impl Kernel for SquaredExponential {
    fn input_dim(&self) -> Option<usize> {
        self.lengthscales.input_dim()
    }

    fn sup_diag(&self) -> Option<f64> {
        Some(self.variance)
    }

    fn value_unchecked(&self, x: ArrayView1<'_, f64>, y: ArrayView1<'_, f64>) -> f64 {
        self.variance * (-0.5 * scaled_sq_dist(x, y, &self.lengthscales)).exp()
    }
}
