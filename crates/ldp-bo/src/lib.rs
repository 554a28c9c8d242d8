#![doc = include_str!("../../../docs/ldp-bo.md")]

mod arm_rewards;
pub mod ata;
pub mod convert_to_laplace;
pub mod curator;
pub mod error;
pub mod experiments;
pub mod lower_bound;
pub mod median_of_means;
pub mod moma;
mod nystrom_step;
pub mod preset;
pub mod schedule;
pub mod tgp;
pub mod truncation;
mod ucb;

pub use ata::{AtaGpUcb, AtaParams};
pub use convert_to_laplace::ConvertToLaplace;
pub use curator::{CtlCurator, PrivateReward, RewardMessage};
pub use error::{InputError, LdpBoError};
pub use moma::{EpochLength, MomaGpUcb, MomaParams};
pub use preset::Preset;
pub use tgp::{TgpParams, TgpUcb, TgpVariant};
