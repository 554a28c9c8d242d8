//! Kernels, feature maps, Gaussian-process posteriors, linear algebra and information gain,
//! shared by every paper crate of the workspace.
//!
//! Conventions: `f64` throughout; a batch of `n` points in dimension `d` is an `n x d`
//! `ndarray` array (rows are points); views in, owned arrays out; every constructor validates
//! its parameters and returns [`KernelError`] on bad input.

pub mod error;
pub mod features;
pub mod gp;
pub mod information_gain;
pub mod kernels;
pub mod linalg;

#[cfg(test)]
mod test_util;

pub use error::KernelError;
pub use features::{
    FeatureMap, NormalizedRandomFourierFeatures, NystromEmbedding, QuadratureFourierFeatures,
    RandomFourierFeatures, SpectralKernel,
};
pub use gp::{ExactGp, FiniteDomainGp, WeightSpaceGp};
pub use kernels::{
    Kernel, Lengthscales, Linear, Matern, MaternNu, Precomputed, SquaredExponential,
};
