//! The accountants of the Poisson-subsampled Gaussian by name: what `cargo xtask accountant`
//! and the Python package compute, in one place so the two give the same numbers.
//!
//! - `rdp-paper`: integer orders 2..=33, classic conversion (the DP-FTS-DE paper's moments
//!   accountant; [`super::rdp::paper_orders`]).
//! - `rdp`: fractional and integer orders 1.1..512, the improved conversion of Balle et al. 2020
//!   ([`super::rdp::default_orders`]).
//! - `pld`: the connect-the-dots privacy-loss distribution with FFT composition and every error
//!   bounded: an upper bound ([`super::pld`]).
//! - `gdp-clt`: Gaussian DP with the central-limit `mu = q sqrt(T (e^(1/z^2) - 1))` (Bu, Dong,
//!   Long & Su 2020): an approximation, **not a bound**.
//!
//! Under [`Relation::ReplaceOne`] only `pld` has a bound (the dominating pair of
//! [`super::pld::subsampled_gaussian_pld_epsilon_replace_one`]); the others are refused.

use serde::{Deserialize, Serialize};

use super::calibrate::{Calibration, smallest_noise_multiplier};
use super::gdp::{gdp_epsilon, subsampled_gaussian_clt_mu};
use super::pld::{
    PldSettings, subsampled_gaussian_pld_epsilon, subsampled_gaussian_pld_epsilon_replace_one,
};
use super::rdp::{RdpConversion, default_orders, paper_orders, subsampled_gaussian_epsilon};
use crate::error::PrivacyError;

/// An accountant of the Poisson-subsampled Gaussian (module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Accountant {
    /// Integer orders 2..=33, classic conversion.
    RdpPaper,
    /// Orders 1.1..512, improved conversion.
    Rdp,
    /// Privacy-loss distribution (an upper bound).
    Pld,
    /// Central-limit Gaussian DP: an approximation, not a bound.
    GdpClt,
}

impl Accountant {
    /// Every accountant, in the order of the CLI's help.
    pub const ALL: [Self; 4] = [Self::RdpPaper, Self::Rdp, Self::Pld, Self::GdpClt];

    /// The name (`rdp-paper`, `rdp`, `pld`, `gdp-clt`).
    pub fn name(self) -> &'static str {
        match self {
            Self::RdpPaper => "rdp-paper",
            Self::Rdp => "rdp",
            Self::Pld => "pld",
            Self::GdpClt => "gdp-clt",
        }
    }

    /// The accountant called `name` (also with `_` for `-`).
    pub fn named(name: &str) -> Result<Self, PrivacyError> {
        let wanted = name.replace('_', "-");
        Self::ALL
            .into_iter()
            .find(|a| a.name() == wanted)
            .ok_or_else(|| {
                PrivacyError::Calibration(format!(
                    "unknown accountant {name:?}: one of rdp-paper, rdp, pld, gdp-clt"
                ))
            })
    }

    /// Whether its epsilon is an upper bound (every accountant but `gdp-clt`).
    pub fn is_bound(self) -> bool {
        self != Self::GdpClt
    }

    /// What it computes, in a few words.
    pub fn description(self, relation: Relation) -> &'static str {
        match (self, relation) {
            (Self::Pld, Relation::ReplaceOne) => {
                "replace-one: connect-the-dots PLD of the dominating pair, an upper bound"
            }
            (Self::RdpPaper, _) => "integer orders 2..=33, classic conversion",
            (Self::Rdp, _) => "orders 1.1..512, improved conversion (Balle et al. 2020)",
            (Self::Pld, _) => "connect-the-dots PLD: an upper bound on epsilon",
            (Self::GdpClt, _) => {
                "Gaussian DP, central-limit mu (Bu et al. 2020): an APPROXIMATION, not a bound"
            }
        }
    }
}

/// The neighbouring relation accounted for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Relation {
    /// One participant added or removed.
    #[default]
    AddRemove,
    /// One participant's record replaced by another (the PLD accountant of the dominating pair).
    ReplaceOne,
}

impl Relation {
    /// The name (`add-remove`, `replace-one`).
    pub fn name(self) -> &'static str {
        match self {
            Self::AddRemove => "add-remove",
            Self::ReplaceOne => "replace-one",
        }
    }

    /// The relation called `name` (also with `_` for `-`).
    pub fn named(name: &str) -> Result<Self, PrivacyError> {
        match name.replace('_', "-").as_str() {
            "add-remove" => Ok(Self::AddRemove),
            "replace-one" => Ok(Self::ReplaceOne),
            _ => Err(PrivacyError::Calibration(format!(
                "unknown neighbouring relation {name:?}: add-remove or replace-one"
            ))),
        }
    }

    /// A label for text output (`add/remove`, `replace-one`).
    pub fn label(self) -> &'static str {
        match self {
            Self::AddRemove => "add/remove",
            Self::ReplaceOne => "replace-one",
        }
    }
}

/// One accountant's answer for `steps` rounds of the Poisson-subsampled Gaussian.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct AccountedEpsilon {
    /// Which accountant.
    pub accountant: Accountant,
    /// The relation.
    pub relation: Relation,
    /// Epsilon at the requested delta (an upper bound unless the accountant is `gdp-clt`).
    pub epsilon: f64,
    /// The RDP order that attains it (RDP accountants).
    pub order: Option<f64>,
    /// The PLD's epsilon for each orientation and the optimistic (lower) estimate (`pld`,
    /// add/remove).
    pub epsilon_remove: Option<f64>,
    /// See [`AccountedEpsilon::epsilon_remove`].
    pub epsilon_add: Option<f64>,
    /// See [`AccountedEpsilon::epsilon_remove`]: the optimistic PLD, **not a bound**.
    pub epsilon_optimistic: Option<f64>,
    /// The central-limit `mu` (`gdp-clt`).
    pub mu: Option<f64>,
    /// The PLD's bin width (`pld`).
    pub bin_width: Option<f64>,
}

/// A typed refusal unless `accountant` has a bound under `relation`.
pub fn check_relation(accountant: Accountant, relation: Relation) -> Result<(), PrivacyError> {
    if relation == Relation::ReplaceOne && accountant != Accountant::Pld {
        return Err(PrivacyError::Calibration(format!(
            "the {} accountant has no replace-one bound for the Poisson-subsampled Gaussian; \
             use the pld accountant",
            accountant.name()
        )));
    }
    Ok(())
}

/// Epsilon of `steps` rounds of the Poisson-subsampled Gaussian (rate `q`, noise multiplier `z`)
/// at `delta` under `accountant` and `relation`; `pld_bin_width` sets the PLD's loss grid
/// (the CLI's default is `1e-4`; the tail mass is [`PldSettings::default`]'s).
pub fn subsampled_gaussian(
    accountant: Accountant,
    relation: Relation,
    q: f64,
    z: f64,
    steps: u64,
    delta: f64,
    pld_bin_width: f64,
) -> Result<AccountedEpsilon, PrivacyError> {
    check_relation(accountant, relation)?;
    let settings = PldSettings {
        bin_width: pld_bin_width,
        ..PldSettings::default()
    };
    let empty = AccountedEpsilon {
        accountant,
        relation,
        epsilon: f64::NAN,
        order: None,
        epsilon_remove: None,
        epsilon_add: None,
        epsilon_optimistic: None,
        mu: None,
        bin_width: None,
    };
    if relation == Relation::ReplaceOne {
        let epsilon = subsampled_gaussian_pld_epsilon_replace_one(q, z, steps, delta, settings)?;
        return Ok(AccountedEpsilon {
            epsilon,
            bin_width: Some(settings.bin_width),
            ..empty
        });
    }
    Ok(match accountant {
        Accountant::RdpPaper | Accountant::Rdp => {
            let (orders, conversion) = if accountant == Accountant::RdpPaper {
                (paper_orders(), RdpConversion::Classic)
            } else {
                (default_orders(), RdpConversion::Improved)
            };
            let (epsilon, order) =
                subsampled_gaussian_epsilon(q, z, steps, delta, &orders, conversion)?;
            AccountedEpsilon {
                epsilon,
                order: Some(order),
                ..empty
            }
        }
        Accountant::Pld => {
            let r = subsampled_gaussian_pld_epsilon(q, z, steps, delta, settings)?;
            AccountedEpsilon {
                epsilon: r.epsilon,
                epsilon_remove: Some(r.epsilon_remove),
                epsilon_add: Some(r.epsilon_add),
                epsilon_optimistic: Some(r.epsilon_optimistic),
                bin_width: Some(settings.bin_width),
                ..empty
            }
        }
        Accountant::GdpClt => {
            let mu = subsampled_gaussian_clt_mu(q, z, steps)?;
            AccountedEpsilon {
                epsilon: gdp_epsilon(mu, delta)?,
                mu: Some(mu),
                ..empty
            }
        }
    })
}

/// The smallest noise multiplier (to `resolution`) whose epsilon under `accountant` is at most
/// `target` ([`smallest_noise_multiplier`]: `eps(z) <= target` and `eps(z - resolution) >
/// target` are both evaluated); `progress(z, eps)` is called at every evaluation.
#[allow(clippy::too_many_arguments)]
pub fn subsampled_gaussian_noise_multiplier(
    accountant: Accountant,
    relation: Relation,
    target: f64,
    q: f64,
    steps: u64,
    delta: f64,
    resolution: f64,
    pld_bin_width: f64,
    progress: impl FnMut(f64, f64),
) -> Result<Calibration, PrivacyError> {
    check_relation(accountant, relation)?;
    smallest_noise_multiplier(
        target,
        resolution,
        |z| {
            let eps = subsampled_gaussian(accountant, relation, q, z, steps, delta, pld_bin_width)?
                .epsilon;
            // NaN goes through as NaN (the calibration refuses it); +inf is unbounded.
            if eps == f64::INFINITY {
                Err(PrivacyError::Unbounded(format!(
                    "{} at z = {z}",
                    accountant.name()
                )))
            } else {
                Ok(eps)
            }
        },
        progress,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_replace_one_is_pld_only() {
        for a in Accountant::ALL {
            assert_eq!(Accountant::named(a.name()).unwrap(), a);
            assert_eq!(Accountant::named(&a.name().replace('-', "_")).unwrap(), a);
        }
        assert!(Accountant::named("moments").is_err());
        for r in [Relation::AddRemove, Relation::ReplaceOne] {
            assert_eq!(Relation::named(r.name()).unwrap(), r);
        }
        for a in [Accountant::RdpPaper, Accountant::Rdp, Accountant::GdpClt] {
            assert!(
                subsampled_gaussian(a, Relation::ReplaceOne, 0.01, 1.0, 10, 1e-5, 1e-3).is_err()
            );
        }
        let r = subsampled_gaussian(
            Accountant::Pld,
            Relation::ReplaceOne,
            0.01,
            1.0,
            10,
            1e-5,
            1e-3,
        )
        .unwrap();
        assert!(r.epsilon.is_finite() && r.epsilon > 0.0);
    }

    #[test]
    fn each_accountant_is_the_library_call_it_names() {
        let (q, z, t, d) = (0.02, 1.1, 200, 1e-5);
        let paper =
            subsampled_gaussian(Accountant::RdpPaper, Relation::AddRemove, q, z, t, d, 1e-4)
                .unwrap();
        assert_eq!(
            paper.epsilon.to_bits(),
            super::super::rdp::paper_preset_epsilon(q, z, t, d)
                .unwrap()
                .to_bits()
        );
        let gdp =
            subsampled_gaussian(Accountant::GdpClt, Relation::AddRemove, q, z, t, d, 1e-4).unwrap();
        assert_eq!(
            gdp.epsilon.to_bits(),
            gdp_epsilon(subsampled_gaussian_clt_mu(q, z, t).unwrap(), d)
                .unwrap()
                .to_bits()
        );
        let rdp =
            subsampled_gaussian(Accountant::Rdp, Relation::AddRemove, q, z, t, d, 1e-4).unwrap();
        // The improved conversion over more orders is never looser than the paper's preset.
        assert!(rdp.epsilon <= paper.epsilon);
    }
}
