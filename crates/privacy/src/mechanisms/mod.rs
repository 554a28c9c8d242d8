//! Mechanisms, each implementing [`crate::Mechanism`] with its [`crate::PrivacyClaim`], the
//! derivation of its calibration, and a way to pass the noise in for deterministic test
//! vectors. Every mechanism uses the hardened sampler unless the textbook one is chosen by name.

mod additive;
pub mod exponential;
pub mod gaussian;
pub mod laplace;
pub mod matrix;
pub mod sensitivity;
pub mod subsampled;
pub mod tree;
mod zcdp_by_sampler;

pub use exponential::ExponentialMechanism;
pub use gaussian::{
    GaussianCalibration, GaussianMechanism, analytic_sigma, classic_sigma, gaussian_delta,
    gaussian_rho,
};
pub use laplace::LaplaceMechanism;
pub use matrix::{OuterProductCalibration, OuterProductGaussian, symmetric_gaussian_noise};
pub use sensitivity::{
    Neighbouring, SensitivityBound, outer_product_sensitivity, packed_outer_product_sensitivity,
    packed_worst_pair,
};
pub use subsampled::{
    AggregateWithSubsample, NoisyAggregate, Participants, SubsampledGaussian, WeightCalibration,
};
pub use tree::{StreamShape, TreeAggregation, node_sigma, tree_levels};
