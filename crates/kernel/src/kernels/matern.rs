//! Matérn kernels with half-integer smoothness, in closed form.

use ndarray::ArrayView1;
use serde::{Deserialize, Serialize};

use super::{Kernel, Lengthscales, scaled_sq_dist};
use crate::error::KernelError;
use validation::positive;

/// The smoothness `nu` of a Matérn kernel; the half-integer values have closed forms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum MaternNu {
    /// `nu = 1/2` (the exponential / Ornstein-Uhlenbeck kernel).
    Half,
    /// `nu = 3/2`.
    ThreeHalves,
    /// `nu = 5/2`.
    FiveHalves,
}

impl MaternNu {
    /// The numerical value of `nu`.
    pub fn value(self) -> f64 {
        match self {
            Self::Half => 0.5,
            Self::ThreeHalves => 1.5,
            Self::FiveHalves => 2.5,
        }
    }
}

/// Matérn kernel with `nu` in {1/2, 3/2, 5/2}.
///
/// # Formula
///
/// With `r = sqrt(sum_i ((x_i - y_i) / l_i)^2)` and variance `s^2` (Rasmussen & Williams 2006,
/// eq. 4.16-4.17):
///
/// - `nu = 1/2`: `k = s^2 exp(-r)`
/// - `nu = 3/2`: `k = s^2 (1 + sqrt(3) r) exp(-sqrt(3) r)`
/// - `nu = 5/2`: `k = s^2 (1 + sqrt(5) r + 5 r^2 / 3) exp(-sqrt(5) r)`
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Matern {
    nu: MaternNu,
    variance: f64,
    lengthscales: Lengthscales,
}

impl Matern {
    /// Matérn kernel of smoothness `nu`, variance `s^2 = variance` and the given lengthscales.
    pub fn new(
        nu: MaternNu,
        variance: f64,
        lengthscales: Lengthscales,
    ) -> Result<Self, KernelError> {
        Ok(Self {
            nu,
            variance: positive("variance", variance)?,
            lengthscales,
        })
    }

    /// Matérn kernel with unit variance and one lengthscale `l`.
    pub fn isotropic(nu: MaternNu, l: f64) -> Result<Self, KernelError> {
        Self::new(nu, 1.0, Lengthscales::isotropic(l)?)
    }

    /// The smoothness.
    pub fn nu(&self) -> MaternNu {
        self.nu
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

impl Kernel for Matern {
    fn input_dim(&self) -> Option<usize> {
        self.lengthscales.input_dim()
    }

    fn sup_diag(&self) -> Option<f64> {
        Some(self.variance)
    }

    fn value_unchecked(&self, x: ArrayView1<'_, f64>, y: ArrayView1<'_, f64>) -> f64 {
        let r = scaled_sq_dist(x, y, &self.lengthscales).sqrt();
        let shape = match self.nu {
            MaternNu::Half => (-r).exp(),
            MaternNu::ThreeHalves => {
                let a = 3f64.sqrt() * r;
                (1.0 + a) * (-a).exp()
            }
            MaternNu::FiveHalves => {
                let a = 5f64.sqrt() * r;
                (1.0 + a + 5.0 * r * r / 3.0) * (-a).exp()
            }
        };
        self.variance * shape
    }
}
