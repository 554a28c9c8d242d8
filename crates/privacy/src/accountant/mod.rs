//! Accountants: zCDP, RDP of the Poisson-subsampled Gaussian, and privacy-loss distributions.

pub mod pld;
pub mod rdp;
pub mod zcdp;

pub use pld::{PldEpsilon, PldSettings, subsampled_gaussian_pld_epsilon};
pub use rdp::{
    RdpAccountant, RdpConversion, paper_preset_epsilon, subsampled_gaussian_epsilon,
    subsampled_gaussian_rdp,
};
pub use zcdp::{
    ZcdpAccountant, ZcdpConversion, gaussian_sigma_for_target, rho_for_target, zcdp_to_epsilon,
};
