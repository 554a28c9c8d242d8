//! The linear (dot-product) kernel.

use ndarray::ArrayView1;
use serde::{Deserialize, Serialize};

use super::Kernel;
use crate::error::KernelError;
use validation::positive;

/// Linear kernel.
///
/// # Formula
///
/// `k(x, y) = s^2 <x, y>`. Unbounded on unbounded domains, so [`Kernel::sup_diag`] is `None`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Linear {
    variance: f64,
}

impl Linear {
    /// Linear kernel with scale `s^2 = variance`.
    pub fn new(variance: f64) -> Result<Self, KernelError> {
        Ok(Self {
            variance: positive("variance", variance)?,
        })
    }

    /// The scale `s^2`.
    pub fn variance(&self) -> f64 {
        self.variance
    }
}

impl Kernel for Linear {
    fn input_dim(&self) -> Option<usize> {
        None
    }

    fn sup_diag(&self) -> Option<f64> {
        None
    }

    fn value_unchecked(&self, x: ArrayView1<'_, f64>, y: ArrayView1<'_, f64>) -> f64 {
        self.variance * x.dot(&y)
    }
}
