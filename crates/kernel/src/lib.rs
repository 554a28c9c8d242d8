#![doc = include_str!("../../../docs/kernel.md")]

pub mod error;
pub mod features;
pub mod gp;
pub mod information_gain;
pub mod kernels;
pub mod linalg;

#[cfg(test)]
mod test_util;

pub use error::{InputError, KernelError};
pub use features::{
    AdditiveFeatures, FeatureMap, NormalizedRandomFourierFeatures, NystromEmbedding,
    QuadratureFourierFeatures, RandomFourierFeatures, SpectralKernel,
};
pub use gp::{
    ExactGp, FiniteDomainGp, SeBounds, SeFit, WeightSpaceGp, fit_squared_exponential,
    log_marginal_likelihood,
};
pub use kernels::{
    Kernel, Lengthscales, Linear, Matern, MaternNu, Precomputed, Product, SquaredExponential,
};
