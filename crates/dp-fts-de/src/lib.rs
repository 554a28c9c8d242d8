#![doc = include_str!("../../../docs/dp-fts-de.md")]

pub mod agent;
pub mod beta;
pub mod error;
pub mod experiments;
pub mod features;
pub mod federation;
pub mod local_step;
pub mod messages;
pub mod params;
pub mod problem;
pub mod schedule;
pub mod server;
pub mod weights;

pub use agent::{Choice, FtsAgent, Init};
pub use beta::{BetaRule, BetaSchedule};
pub use error::{DpFtsDeError, InputError};
pub use features::SharedFeatures;
pub use federation::{FederationRecord, Stream, beta_schedule, run_federation};
pub use local_step::{ExactPrior, LocalSettings, LocalStep};
pub use messages::{AgentVector, Broadcast};
pub use params::{DpFtsDeParams, DpSettings};
pub use problem::FederatedProblem;
pub use schedule::{Annealing, Exploration};
pub use server::{CentralServer, PrivacyLoss, PrivateAggregator, RoundInput};
pub use weights::{SubRegionWeights, Weighting};
