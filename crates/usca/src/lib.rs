#![doc = include_str!("../../../docs/usca.md")]

pub mod algorithm;
pub mod approximating_set;
pub mod baselines;
pub mod certificate;
pub mod error;
pub mod estimator;
pub mod experiments;
mod factored_mu;
pub mod gamma;
pub mod joint_kernel;
pub mod light_sensor;
pub mod params;
pub mod prediction;
pub mod problem;
pub mod regulariser;
pub mod rounding;
pub mod sensitivity;
pub mod synthetic;
pub mod tau_rule;

pub use algorithm::{Usca, UscaSummary, argmax_distribution, learning_stage};
pub use approximating_set::{ApproximatingSetSize, paper_k, sample_approximating_set};
pub use baselines::{PosteriorMeanBaseline, posterior_mean_sensitivity};
pub use error::{InputError, UscaError};
pub use estimator::{LearningData, SurrogateVariance, UscaEstimator};
pub use gamma::DesignSpectrum;
pub use joint_kernel::{JointKernel, KernelFamily};
pub use params::UscaParams;
pub use prediction::PredictionStage;
pub use problem::{ContextDistribution, ContextSpace, ContextualProblem, ErrorRate, Instance};
pub use regulariser::Regulariser;
pub use sensitivity::{SensitivityBound, SensitivityRule, sensitivity};
pub use tau_rule::suggested_tau;
