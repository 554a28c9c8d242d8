//! Accountants: zCDP, RDP of the Poisson-subsampled Gaussian, Gaussian DP, and privacy-loss
//! distributions;
//! calibration of the noise multiplier for a target epsilon.

pub mod calibrate;
pub mod gdp;
pub mod named;
pub mod pld;
pub mod rdp;
pub mod zcdp;

pub use calibrate::{Calibration, smallest_noise_multiplier};
pub use gdp::{GdpAccountant, gdp_delta, gdp_epsilon, subsampled_gaussian_clt_mu};
pub use pld::{PldEpsilon, PldSettings, PrivacyLossDistribution, subsampled_gaussian_pld_epsilon};
pub use rdp::{
    RdpAccountant, RdpConversion, paper_preset_epsilon, subsampled_gaussian_epsilon,
    subsampled_gaussian_rdp,
};
pub use zcdp::{
    ZcdpAccountant, ZcdpConversion, gaussian_sigma_for_target, rho_for_target, zcdp_to_epsilon,
};
