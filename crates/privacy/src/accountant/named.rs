//! The accountants of the Poisson-subsampled Gaussian by name: what `cargo xtask accountant`
//! and the Python package compute, in one place so the two give the same numbers.
//!
//! - `rdp-paper`: integer orders 2..=33, classic conversion (the DP-FTS-DE paper's moments
//!   accountant; [`super::rdp::paper_orders`]).
//! - `rdp`: fractional and integer orders 1.1..512, the improved conversion of Balle et al. 2020
//!   ([`super::rdp::default_orders`]).
//! - `pld`: the connect-the-dots privacy-loss distribution with FFT composition and every error
//!   bounded: an upper bound ([`super::pld`]). Its bin width is the caller's, or (none given)
//!   chosen so that every grid fits [`AUTO_GRID_POINTS`] points
//!   ([`super::pld::subsampled_gaussian_pld_epsilon_auto`]). At `q = 1` (no subsampling) it
//!   answers by the exact route instead, [`PldRoute::ExactGaussian`]: `T` Gaussian mechanisms
//!   with noise multiplier `z` are exactly `mu`-GDP with `mu = sqrt(T)/z` (Dong, Roth & Su 2019,
//!   Corollary 3.3; `2 sqrt(T)/z` under replace-one, the sensitivity doubled), and
//!   [`gdp_epsilon`] inverts the exact curve `delta(eps) = Phi(-eps/mu + mu/2) - e^eps
//!   Phi(-eps/mu - mu/2)` (Balle & Wang 2018, Theorem 8) from above.
//! - `gdp-clt`: Gaussian DP with the central-limit `mu = q sqrt(T (e^(1/z^2) - 1))` (Bu, Dong,
//!   Long & Su 2020): an approximation, **not a bound**.
//!
//! Under [`Relation::ReplaceOne`] only `pld` has a bound (the dominating pair of
//! [`super::pld::subsampled_gaussian_pld_epsilon_replace_one`]); the others are refused.

use serde::{Deserialize, Serialize};

use super::calibrate::{Calibration, smallest_noise_multiplier};
use super::gdp::{gdp_epsilon, subsampled_gaussian_clt_mu};
use super::pld::{
    AUTO_GRID_POINTS, PldSettings, subsampled_gaussian_pld_epsilon,
    subsampled_gaussian_pld_epsilon_auto, subsampled_gaussian_pld_epsilon_replace_one,
    subsampled_gaussian_pld_epsilon_replace_one_auto,
};
use super::rdp::{RdpConversion, default_orders, paper_orders, subsampled_gaussian_epsilon};
use crate::error::PrivacyError;
use crate::params::{NoiseMultiplier, SamplingRate};

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

/// How the `pld` accountant answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PldRoute {
    /// The connect-the-dots PLD on a loss grid (an upper bound).
    Grid,
    /// `q = 1`: the exact epsilon of the composed Gaussian mechanism, `mu = sqrt(T)/z`-GDP
    /// (`2 sqrt(T)/z` under replace-one), from above ([`gdp_epsilon`]).
    ExactGaussian,
}

impl PldRoute {
    /// What the route computes, in a few words.
    pub fn description(self) -> &'static str {
        match self {
            Self::Grid => "connect-the-dots PLD on a loss grid: an upper bound on epsilon",
            Self::ExactGaussian => {
                "q = 1: exact Gaussian route, mu = sqrt(T)/z-GDP (2 sqrt(T)/z for replace-one), \
                 epsilon from above"
            }
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
    /// The central-limit `mu` (`gdp-clt`), or the exact `mu` of the `pld` accountant's
    /// [`PldRoute::ExactGaussian`].
    pub mu: Option<f64>,
    /// The PLD's bin width (`pld` on [`PldRoute::Grid`]).
    pub bin_width: Option<f64>,
    /// Whether the bin width was chosen (from the loss's span and the cap
    /// [`AUTO_GRID_POINTS`]) rather than given (`pld` on [`PldRoute::Grid`]).
    pub bin_width_chosen: Option<bool>,
    /// How the `pld` accountant answered.
    pub route: Option<PldRoute>,
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
/// at `delta` under `accountant` and `relation`. `pld_bin_width` sets the PLD's loss grid;
/// `None` chooses it: the default `1e-4` where every grid fits [`AUTO_GRID_POINTS`] points,
/// coarser where not ([`subsampled_gaussian_pld_epsilon_auto`]); the tail mass is
/// [`PldSettings::default`]'s. At `q = 1` without a width given, the `pld` accountant takes
/// the exact route ([`PldRoute::ExactGaussian`], no grid); a width given asks for the grid.
///
/// # Errors
/// Bad parameters; the relation refused ([`check_relation`]); the accountant's own errors; a
/// [`PrivacyError::GridTooFine`] naming the option (`pld_bin_width`, `--pld-bin-width`) when
/// a width given is too fine for the loss's span.
pub fn subsampled_gaussian(
    accountant: Accountant,
    relation: Relation,
    q: f64,
    z: f64,
    steps: u64,
    delta: f64,
    pld_bin_width: Option<f64>,
) -> Result<AccountedEpsilon, PrivacyError> {
    check_relation(accountant, relation)?;
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
        bin_width_chosen: None,
        route: None,
    };
    // q = 1 without a width given: the exact route. A width given asks for the grid, which is
    // honoured as before (the fixtures' PLD values at q = 1 are grid values).
    if accountant == Accountant::Pld
        && SamplingRate::new(q)?.get() >= 1.0
        && pld_bin_width.is_none()
    {
        return exact_gaussian(relation, z, steps, delta, empty);
    }
    let grid = |width: Option<f64>| AccountedEpsilon {
        bin_width: width,
        bin_width_chosen: Some(pld_bin_width.is_none()),
        route: Some(PldRoute::Grid),
        ..empty
    };
    if relation == Relation::ReplaceOne {
        let (epsilon, h) = match pld_bin_width {
            None => subsampled_gaussian_pld_epsilon_replace_one_auto(
                q,
                z,
                steps,
                delta,
                AUTO_GRID_POINTS,
            )?,
            Some(h) => (
                subsampled_gaussian_pld_epsilon_replace_one(q, z, steps, delta, settings(h))
                    .map_err(|e| name_the_option(e, h))?,
                h,
            ),
        };
        return Ok(AccountedEpsilon {
            epsilon,
            ..grid(Some(h))
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
            let r = match pld_bin_width {
                None => subsampled_gaussian_pld_epsilon_auto(q, z, steps, delta, AUTO_GRID_POINTS)?,
                Some(h) => subsampled_gaussian_pld_epsilon(q, z, steps, delta, settings(h))
                    .map_err(|e| name_the_option(e, h))?,
            };
            AccountedEpsilon {
                epsilon: r.epsilon,
                epsilon_remove: Some(r.epsilon_remove),
                epsilon_add: Some(r.epsilon_add),
                epsilon_optimistic: Some(r.epsilon_optimistic),
                ..grid(Some(r.bin_width))
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

fn settings(bin_width: f64) -> PldSettings {
    PldSettings {
        bin_width,
        ..PldSettings::default()
    }
}

/// A grid too fine at a width the caller gave: the message names the option to change.
fn name_the_option(e: PrivacyError, h: f64) -> PrivacyError {
    match e {
        PrivacyError::GridTooFine(m) => PrivacyError::GridTooFine(format!(
            "{}; the bin width {h} given (pld_bin_width, --pld-bin-width) is too fine for this \
             loss: give a coarser one, or none to have one chosen within {AUTO_GRID_POINTS} grid \
             points",
            m.trim_end_matches("; increase the bin width (PldSettings::bin_width)")
        )),
        other => other,
    }
}

/// The `pld` accountant at `q = 1`: the Gaussian mechanism composed `steps` times with noise
/// multiplier `z` is exactly `mu`-GDP, `mu = sqrt(T)/z` (Dong, Roth & Su 2019, Corollary 3.3:
/// the `mu_i^2` add; a Gaussian of sensitivity `Delta` and noise `sigma` is `Delta/sigma`-GDP),
/// `mu = 2 sqrt(T)/z` under replace-one (the antipodal pair's sensitivity is 2; the dominating
/// pair of [`super::pld::replace_one`] at `q = 1`). Its epsilon is [`gdp_epsilon`]'s, an upper
/// bound on the root of the exact curve. `mu` is moved up by two ulps first: its rounding (a
/// square root and a quotient, relative `2u` at most) could have lowered it, and `delta(eps)`
/// increases with `mu`.
fn exact_gaussian(
    relation: Relation,
    z: f64,
    steps: u64,
    delta: f64,
    empty: AccountedEpsilon,
) -> Result<AccountedEpsilon, PrivacyError> {
    let z = NoiseMultiplier::new(z)?.get();
    let steps = validation::at_least_one("steps", steps)?;
    let sensitivity = match relation {
        Relation::AddRemove => 1.0,
        Relation::ReplaceOne => 2.0,
    };
    let mu = (sensitivity * (steps as f64).sqrt() / z)
        .next_up()
        .next_up();
    let epsilon = gdp_epsilon(mu, delta)?;
    Ok(AccountedEpsilon {
        epsilon,
        epsilon_remove: Some(epsilon),
        epsilon_add: Some(epsilon),
        mu: Some(mu),
        route: Some(PldRoute::ExactGaussian),
        ..empty
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
    pld_bin_width: Option<f64>,
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
                subsampled_gaussian(a, Relation::ReplaceOne, 0.01, 1.0, 10, 1e-5, Some(1e-3))
                    .is_err()
            );
        }
        let r = subsampled_gaussian(
            Accountant::Pld,
            Relation::ReplaceOne,
            0.01,
            1.0,
            10,
            1e-5,
            Some(1e-3),
        )
        .unwrap();
        assert!(r.epsilon.is_finite() && r.epsilon > 0.0);
    }

    #[test]
    fn each_accountant_is_the_library_call_it_names() {
        let (q, z, t, d) = (0.02, 1.1, 200, 1e-5);
        let paper =
            subsampled_gaussian(Accountant::RdpPaper, Relation::AddRemove, q, z, t, d, None)
                .unwrap();
        assert_eq!(
            paper.epsilon.to_bits(),
            super::super::rdp::paper_preset_epsilon(q, z, t, d)
                .unwrap()
                .to_bits()
        );
        let gdp =
            subsampled_gaussian(Accountant::GdpClt, Relation::AddRemove, q, z, t, d, None).unwrap();
        assert_eq!(
            gdp.epsilon.to_bits(),
            gdp_epsilon(subsampled_gaussian_clt_mu(q, z, t).unwrap(), d)
                .unwrap()
                .to_bits()
        );
        let rdp =
            subsampled_gaussian(Accountant::Rdp, Relation::AddRemove, q, z, t, d, None).unwrap();
        // The improved conversion over more orders is never looser than the paper's preset.
        assert!(rdp.epsilon <= paper.epsilon);
    }

    /// At q = 1 the pld accountant answers by the exact route, equal to the GDP inverse at
    /// `mu = sqrt(T)/z` (moved up two ulps) and an upper bound: mpmath's exact root (60 digits)
    /// at most, `delta` there at most the target. The example of issue 30 (`z = 0.01`, one
    /// step, `delta = 1e-5`), which the grid refused at its default width; replace-one at `2z`
    /// is the same mechanism.
    #[test]
    fn at_q_one_pld_is_the_exact_gaussian() {
        let exact = 5_425.509_846_147_43;
        // A width given asks for the grid: at 1e-4 it would need 59.8 million points (refused,
        // naming the option); at 1e-2 it answers above the exact value.
        let refused = subsampled_gaussian(
            Accountant::Pld,
            Relation::AddRemove,
            1.0,
            0.01,
            1,
            1e-5,
            Some(1e-4),
        );
        assert!(
            matches!(refused, Err(PrivacyError::GridTooFine(_))),
            "{refused:?}"
        );
        let coarse = subsampled_gaussian(
            Accountant::Pld,
            Relation::AddRemove,
            1.0,
            0.01,
            1,
            1e-5,
            Some(1e-2),
        )
        .unwrap();
        assert_eq!(coarse.route, Some(PldRoute::Grid));
        assert!(coarse.epsilon >= exact, "{}", coarse.epsilon);
        let width = None;
        let r = subsampled_gaussian(
            Accountant::Pld,
            Relation::AddRemove,
            1.0,
            0.01,
            1,
            1e-5,
            width,
        )
        .unwrap();
        assert_eq!(r.route, Some(PldRoute::ExactGaussian));
        assert_eq!((r.bin_width, r.bin_width_chosen), (None, None));
        let mu = r.mu.unwrap();
        assert!(
            mu > 100.0 && mu <= 100.0 * (1.0 + 4.0 * f64::EPSILON),
            "{mu}"
        );
        assert_eq!(
            r.epsilon.to_bits(),
            gdp_epsilon(mu, 1e-5).unwrap().to_bits()
        );
        assert!(
            r.epsilon >= exact && r.epsilon <= exact * (1.0 + 1.1e-11),
            "{}",
            r.epsilon
        );
        assert!(super::super::gdp::gdp_delta(100.0, r.epsilon).unwrap() <= 1e-5);
        let ro = subsampled_gaussian(
            Accountant::Pld,
            Relation::ReplaceOne,
            1.0,
            0.02,
            1,
            1e-5,
            None,
        )
        .unwrap();
        assert_eq!(ro.route, Some(PldRoute::ExactGaussian));
        assert!(
            (ro.epsilon - exact).abs() <= 1.1e-11 * exact,
            "{}",
            ro.epsilon
        );
        // T compositions: mu = sqrt(T)/z (S8 of the reference settings).
        let s8 = subsampled_gaussian(
            Accountant::Pld,
            Relation::AddRemove,
            1.0,
            2.0,
            100,
            1e-5,
            None,
        )
        .unwrap();
        let (_, _, _, exact8) = super::super::pld::reference::EXACT_GAUSSIAN[0];
        assert!(s8.epsilon >= exact8 && s8.epsilon <= exact8 * (1.0 + 1.1e-11));
    }

    /// A width given is used as given (the same bits as the library call); none given chooses
    /// the default `1e-4` where it fits (the same answer as giving it); a width given that is
    /// too fine is an error naming the option, both spellings.
    #[test]
    fn the_bin_width_given_is_respected_and_a_too_fine_one_is_named() {
        let (q, z, t, d) = (0.25, 1.0, 4, 1e-3);
        for (width, expect) in [(Some(1e-3), 1e-3), (Some(1e-4), 1e-4), (None, 1e-4)] {
            let r = subsampled_gaussian(Accountant::Pld, Relation::AddRemove, q, z, t, d, width)
                .unwrap();
            assert_eq!(r.route, Some(PldRoute::Grid));
            assert_eq!(r.bin_width, Some(expect));
            assert_eq!(r.bin_width_chosen, Some(width.is_none()));
            let lib = subsampled_gaussian_pld_epsilon(q, z, t, d, settings(expect)).unwrap();
            assert_eq!(r.epsilon.to_bits(), lib.epsilon.to_bits());
        }
        for relation in [Relation::AddRemove, Relation::ReplaceOne] {
            let e = subsampled_gaussian(Accountant::Pld, relation, 0.5, 0.01, 1, 1e-5, Some(1e-4))
                .unwrap_err();
            let PrivacyError::GridTooFine(m) = &e else {
                panic!("{e}");
            };
            assert!(
                m.contains("--pld-bin-width") && m.contains("pld_bin_width"),
                "{m}"
            );
        }
    }
}
