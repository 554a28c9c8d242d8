//! The kernels on `W = X x C` for which the certified sensitivity is valid: a product
//! `k_X(x, x') k_C(c, c')` of two SE or two Matérn 5/2 factors (isotropic, unit variance).
//!
//! [`crate::SensitivityRule::Certified`] needs the context factor to be stationary and
//! decreasing in every `|c_i - c'_i|` (crate::sensitivity); a kernel of this type is, by
//! construction, and the rule refuses any other kernel (it checks that the estimator's kernel is
//! this very object).

use std::sync::Arc;

use kernel::{Kernel, KernelError, Matern, MaternNu, Product, SquaredExponential};
use ndarray::{ArrayView1, ArrayView2};
use serde::{Deserialize, Serialize};

use crate::error::UscaError;

/// The family of both factors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KernelFamily {
    /// Squared exponential `exp(-r^2 / 2)`.
    SquaredExponential,
    /// Matérn 5/2 `(1 + sqrt5 r + 5 r^2 / 3) exp(-sqrt5 r)`.
    Matern52,
}

impl KernelFamily {
    /// The short name ("SE", "Matern-5/2").
    pub fn name(self) -> &'static str {
        match self {
            Self::SquaredExponential => "SE",
            Self::Matern52 => "Matern-5/2",
        }
    }

    fn factor(self, l: f64) -> Result<Box<dyn Kernel>, UscaError> {
        Ok(match self {
            Self::SquaredExponential => Box::new(SquaredExponential::isotropic(l)?),
            Self::Matern52 => Box::new(Matern::isotropic(MaternNu::FiveHalves, l)?),
        })
    }
}

/// `k((x, c), (x', c')) = k_X(x, x') k_C(c, c')` with both factors of one [`KernelFamily`],
/// isotropic with unit variance (so `k(w, w) = 1`).
#[derive(Debug)]
pub struct JointKernel {
    family: KernelFamily,
    action_lengthscale: f64,
    context_lengthscale: f64,
    product: Product,
}

impl JointKernel {
    /// The product on `dim X = action_dim`, `dim C = context_dim`.
    pub fn new(
        family: KernelFamily,
        action_lengthscale: f64,
        context_lengthscale: f64,
        action_dim: usize,
        context_dim: usize,
    ) -> Result<Self, UscaError> {
        Ok(Self {
            family,
            action_lengthscale,
            context_lengthscale,
            product: Product::new(
                family.factor(action_lengthscale)?,
                family.factor(context_lengthscale)?,
                action_dim,
                context_dim,
            )?,
        })
    }

    /// The family.
    pub fn family(&self) -> KernelFamily {
        self.family
    }

    /// The lengthscales `(l_X, l_C)`.
    pub fn lengthscales(&self) -> (f64, f64) {
        (self.action_lengthscale, self.context_lengthscale)
    }

    /// The product kernel.
    pub fn product(&self) -> &Product {
        &self.product
    }

    /// Whether `kernel` is this very object (the same allocation, not an equal kernel): the
    /// condition under which the certified rule and the factored evaluations may use this
    /// kernel's structure for an estimator built on `kernel`.
    pub(crate) fn is(&self, kernel: &Arc<dyn Kernel>) -> bool {
        std::ptr::addr_eq(Arc::as_ptr(kernel), std::ptr::from_ref(self))
    }
}

impl Kernel for JointKernel {
    fn input_dim(&self) -> Option<usize> {
        self.product.input_dim()
    }

    fn sup_diag(&self) -> Option<f64> {
        self.product.sup_diag()
    }

    fn value_unchecked(&self, x: ArrayView1<'_, f64>, y: ArrayView1<'_, f64>) -> f64 {
        self.product.value_unchecked(x, y)
    }

    fn validate_point(&self, x: ArrayView1<'_, f64>) -> Result<(), KernelError> {
        self.product.validate_point(x)
    }

    fn validate_batch(&self, x: ArrayView2<'_, f64>) -> Result<(), KernelError> {
        self.product.validate_batch(x)
    }
}
