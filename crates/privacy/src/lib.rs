//! Privacy parameters and claims, noise samplers (textbook and hardened), mechanisms and
//! accountants, shared by every paper crate of the workspace.
//!
//! See `docs/privacy.md` for the derivation of every calibration and the threat model.

pub mod claim;
pub mod error;
pub mod params;

pub use claim::{Guarantee, PrivacyClaim, TrustModel};
pub use error::PrivacyError;
pub use params::{Delta, Epsilon, Mu, NoiseMultiplier, NoiseScale, Rho, SamplingRate, Sensitivity};
