//! Gaussian-process posteriors: exact (function space, [`ExactGp`]) and weight space
//! (feature space, [`WeightSpaceGp`]), and the exact posterior on a fixed finite candidate set
//! updated in O(min(t, n) n) per observation ([`FiniteDomainGp`]); the log marginal likelihood
//! ([`log_marginal_likelihood`]) and a maximum-marginal-likelihood fit of the squared-exponential
//! kernel ([`fit_squared_exponential`]).
//!
//! # Convention
//!
//! Both follow Chowdhury & Gopalan (2017) and Zhou & Tan (2021): with a regulariser
//! `lambda > 0` (the noise variance of the surrogate GP),
//!
//! `mu_t(x) = k_t(x)^T (K_t + lambda I)^{-1} y_t`,
//! `sigma_t^2(x) = k(x, x) - k_t(x)^T (K_t + lambda I)^{-1} k_t(x)`.
//!
//! This is the posterior variance of `f(x)` under a GP prior with kernel `k` and Gaussian
//! observation noise of variance `lambda` (not the `lambda^{-1}`-scaled variance some papers
//! use: Dubey 2021 and Dai et al. 2021 write the feature-space variance as
//! `lambda phi^T V^{-1} phi`, which is the same quantity, see [`WeightSpaceGp`]).
//!
//! Variances are clamped at 0: round-off can make `k(x, x) - |L^{-1} k_t(x)|^2` a tiny
//! negative number (of order `1e-16 k(x, x)`) at or near observed points.

mod exact;
mod finite_domain;
mod marginal_likelihood;
mod weight_space;

pub use exact::ExactGp;
pub use finite_domain::{FiniteDomainGp, REFRESH_PERIOD_PER_CANDIDATE, Regime};
pub use marginal_likelihood::{
    SE_FIT_GRID_LAMBDAS, SE_FIT_GRID_LENGTHSCALES, SE_FIT_GRID_RATIOS, SE_FIT_GRID_VARIANCES,
    SeBounds, SeFit, fit_squared_exponential, log_marginal_likelihood,
};
pub use weight_space::WeightSpaceGp;

use crate::error::KernelError;
use validation::positive;

pub(crate) fn regulariser(lambda: f64) -> Result<f64, KernelError> {
    Ok(positive("lambda (regulariser)", lambda)?)
}
