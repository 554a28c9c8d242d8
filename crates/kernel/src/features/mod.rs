//! Finite-dimensional feature maps `phi: R^d -> R^m` with `phi(x)^T phi(y) ~ k(x, y)`.
//!
//! - [`RandomFourierFeatures`]: Monte-Carlo features of Rahimi & Recht (2007) for the SE and
//!   Matérn kernels, and [`NormalizedRandomFourierFeatures`], the unit-norm variant used by the
//!   federated BO code of Dai et al.
//! - [`QuadratureFourierFeatures`]: Gauss-Hermite quadrature features for the SE kernel
//!   (Mutny & Krause 2018, as used in Dubey 2021, Section 4.2), with [`gauss_hermite`] nodes.
//! - [`AdditiveFeatures`]: one feature map per disjoint group of coordinates, concatenated and
//!   scaled by `G^{-1/2}` (the additive kernels of Mutny & Krause 2018, Dubey 2021 Table 1).
//! - [`NystromEmbedding`]: the data-dependent embedding of Zhou & Tan (2021), Appendix D.3,
//!   Algorithm 4.

mod additive;
mod gauss_hermite;
mod nystrom;
mod qff;
mod rff;

pub use additive::AdditiveFeatures;
pub use gauss_hermite::{GaussHermite, gauss_hermite};
pub use nystrom::{NystromEmbedding, nystrom_features_from_gram};
pub use qff::QuadratureFourierFeatures;
pub use rff::{NormalizedRandomFourierFeatures, RandomFourierFeatures, SpectralKernel};

use ndarray::{Array1, Array2, ArrayView1, ArrayView2, ArrayViewMut1};

use crate::error::{InputError, KernelError};
use validation::ensure_finite;

/// A feature map `phi: R^d -> R^m`.
///
/// Implementors provide [`FeatureMap::map_into_unchecked`]; the checked methods validate the
/// input (finite, dimension `d`) and are provided.
pub trait FeatureMap: Send + Sync + std::fmt::Debug {
    /// The input dimension `d`.
    fn input_dim(&self) -> usize;

    /// The feature dimension `m`.
    fn dim(&self) -> usize;

    /// Write `phi(x)` into `out` (length [`FeatureMap::dim`]) without validation.
    fn map_into_unchecked(&self, x: ArrayView1<'_, f64>, out: ArrayViewMut1<'_, f64>);

    /// Check that `x` is finite and of dimension [`FeatureMap::input_dim`].
    fn validate_point(&self, x: ArrayView1<'_, f64>) -> Result<(), KernelError> {
        ensure_finite("feature map input", x.iter())?;
        if x.len() != self.input_dim() {
            return Err(KernelError::Input(InputError::DimensionMismatch {
                context: "feature map input",
                expected: self.input_dim(),
                got: x.len(),
            }));
        }
        Ok(())
    }

    /// `phi(x)`, validated.
    fn map(&self, x: ArrayView1<'_, f64>) -> Result<Array1<f64>, KernelError> {
        self.validate_point(x)?;
        let mut out = Array1::zeros(self.dim());
        self.map_into_unchecked(x, out.view_mut());
        Ok(out)
    }

    /// The `n x m` feature matrix whose row `i` is `phi(x_i)` for the rows `x_i` of `x`.
    fn map_batch(&self, x: ArrayView2<'_, f64>) -> Result<Array2<f64>, KernelError> {
        for row in x.rows() {
            self.validate_point(row)?;
        }
        let mut out = Array2::zeros((x.nrows(), self.dim()));
        for (row, o) in x.rows().into_iter().zip(out.rows_mut()) {
            self.map_into_unchecked(row, o);
        }
        Ok(out)
    }
}

macro_rules! forward_feature_map {
    ($($ty:ty),*) => {$(
        impl<F: FeatureMap + ?Sized> FeatureMap for $ty {
            fn input_dim(&self) -> usize {
                (**self).input_dim()
            }
            fn dim(&self) -> usize {
                (**self).dim()
            }
            fn map_into_unchecked(&self, x: ArrayView1<'_, f64>, out: ArrayViewMut1<'_, f64>) {
                (**self).map_into_unchecked(x, out)
            }
            fn validate_point(&self, x: ArrayView1<'_, f64>) -> Result<(), KernelError> {
                (**self).validate_point(x)
            }
            fn map(&self, x: ArrayView1<'_, f64>) -> Result<Array1<f64>, KernelError> {
                (**self).map(x)
            }
            fn map_batch(&self, x: ArrayView2<'_, f64>) -> Result<Array2<f64>, KernelError> {
                (**self).map_batch(x)
            }
        }
    )*};
}

forward_feature_map!(Box<F>, std::sync::Arc<F>, &F);
