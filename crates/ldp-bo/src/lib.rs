//! Zhou & Tan 2021, *Local Differential Privacy for Bayesian Optimization* (AAAI 2021;
//! arXiv version with the appendix), end to end: the CTL(eps) privacy boundary, LDP-ATA-GP-UCB
//! (Algorithm 1), LDP-TGP-UCB (Algorithm 2), LDP-MoMA-GP-UCB (Algorithm 3), their non-private
//! heavy-tailed versions, the lower bound of Theorem 1 and the experiments of Section 5.
//!
//! See `docs/ldp-bo.md` for every equation mapped to code, the defaults and the errata.

pub mod ata;
pub mod curator;
pub mod error;
pub mod experiments;
pub mod lower_bound;
pub mod median_of_means;
pub mod moma;
mod nystrom_step;
pub mod schedule;
pub mod tgp;
pub mod truncation;
mod ucb;

pub use ata::{AtaGpUcb, AtaParams};
pub use curator::{CtlCurator, PrivateReward, RewardMessage};
pub use error::LdpBoError;
pub use moma::{EpochLength, MomaGpUcb, MomaParams};
pub use tgp::{TgpParams, TgpUcb, TgpVariant};
