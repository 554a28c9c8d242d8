//! Zhou & Tan 2021, *Local Differential Privacy for Bayesian Optimization* (AAAI 2021;
//! arXiv version with the appendix), end to end: the CTL(eps) privacy boundary, LDP-ATA-GP-UCB
//! (Algorithm 1), LDP-TGP-UCB (Algorithm 2), LDP-MoMA-GP-UCB (Algorithm 3), their non-private
//! heavy-tailed versions, the lower bound of Theorem 1 and the experiments of Section 5.
//!
//! See `docs/ldp-bo.md` for every equation mapped to code, the defaults and the errata.

pub mod error;
pub mod lower_bound;
pub mod median_of_means;
pub mod schedule;
pub mod truncation;

pub use error::LdpBoError;
