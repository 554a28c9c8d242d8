#![doc = include_str!("../../../docs/privacy.md")]

pub mod accountant;
pub mod claim;
pub mod distribution_tests;
pub mod error;
pub mod exact;
pub mod exact_fixed;
pub mod karney_index;
pub mod mechanism;
pub mod mechanisms;
pub mod normal;
pub mod params;
pub mod sampler;

pub use claim::{Guarantee, NeighbouringRelation, PrivacyClaim, TrustModel};
pub use error::{InputError, PrivacyError};
pub use mechanism::Mechanism;
pub use mechanisms::{
    ExponentialMechanism, GaussianMechanism, LaplaceMechanism, OuterProductGaussian, StreamShape,
    SubsampledGaussian, TreeAggregation,
};
pub use params::{Delta, Epsilon, Mu, NoiseMultiplier, NoiseScale, Rho, SamplingRate, Sensitivity};
pub use sampler::{Grid, Hardened, NoiseSampler, Sampler, Textbook};
