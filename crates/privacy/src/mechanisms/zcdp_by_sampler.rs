//! The zCDP parameter of a Gaussian-noise mechanism under each sampler, validated once when the
//! mechanism is built, so that its claim never needs a fallback for an invalid value.
//!
//! A mechanism that adds Gaussian noise of standard deviation `sigma` to a statistic of L2
//! sensitivity `Delta` is `rho`-zCDP with `rho = k Delta_eff^2 / (2 sigma^2)` (`k` releases of
//! the same noise level, e.g. the `L` levels of a tree), where `Delta_eff = Delta` for the
//! textbook sampler and `(1 + GRID_SLACK) Delta` for the hardened one (its grid rounding moves
//! the input by at most `GRID_SLACK Delta`). Both values are checked to be finite and positive
//! when the mechanism is built; switching samplers afterwards cannot fail.

use crate::error::PrivacyError;
use crate::params::Rho;
use crate::sampler::{NoiseSampler, Sampler};

/// `rho` for the textbook and for the hardened sampler.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct ZcdpBySampler {
    textbook: Rho,
    hardened: Rho,
}

impl ZcdpBySampler {
    /// `rho(sampler) = releases * (Delta * factor(sampler))^2 / (2 sigma^2)`; an error naming
    /// `what` when either value is not a finite positive number (a degenerate `sigma` or
    /// `Delta`, at the edge of the floating-point range).
    pub(crate) fn of_noise(
        what: &str,
        releases: f64,
        sensitivity: f64,
        sigma: f64,
    ) -> Result<Self, PrivacyError> {
        let at = |sampler: Sampler| {
            let s = sensitivity * sampler.sensitivity_factor();
            let rho = releases * s * s / (2.0 * sigma * sigma);
            Rho::new(rho).map_err(|_| {
                PrivacyError::Calibration(format!(
                    "{what}: the zCDP parameter {rho} of sigma = {sigma} at sensitivity {s} \
                     ({releases} release(s), {} sampler) is not a positive finite number",
                    if sampler.is_hardened() {
                        "hardened"
                    } else {
                        "textbook"
                    }
                ))
            })
        };
        Ok(Self {
            textbook: at(Sampler::Textbook)?,
            hardened: at(Sampler::Hardened)?,
        })
    }

    /// The same `rho` whatever the sampler (a mechanism calibrated for a stated `rho`, whose
    /// `sigma` is solved for each sampler's effective sensitivity).
    pub(crate) fn stated(rho: Rho) -> Self {
        Self {
            textbook: rho,
            hardened: rho,
        }
    }

    /// `rho` under `sampler`.
    pub(crate) fn get(self, sampler: Sampler) -> Rho {
        if sampler.is_hardened() {
            self.hardened
        } else {
            self.textbook
        }
    }
}
