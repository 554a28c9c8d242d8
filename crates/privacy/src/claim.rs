//! Privacy claims: what a mechanism or an algorithm promises, in a form the auditor of the
//! verification crate can test.
//!
//! A claim has three parts: the *guarantee* (pure DP, approximate DP, zCDP, an RDP curve,
//! Gaussian DP), the *trust model* (central, local, joint DP) and the *neighbouring relation*
//! in words. Every guarantee is turned into the two things an auditor needs:
//! [`PrivacyClaim::epsilon_at`] (the epsilon the claim implies at a given delta) and
//! [`PrivacyClaim::tradeoff`] (the smallest false-negative rate any test can have at a given
//! false-positive rate when distinguishing two neighbouring inputs; Dong, Roth & Su 2019).

use serde::{Deserialize, Serialize};
use statrs::distribution::{ContinuousCDF, Normal};

use crate::accountant::rdp::rdp_to_epsilon;
use crate::accountant::{RdpConversion, ZcdpConversion, zcdp_to_epsilon};
use crate::error::{InputError, PrivacyError};
use crate::params::{Delta, Epsilon, Mu, Rho};
use validation::{Interval, in_range, non_negative};

/// The quantitative guarantee of a claim.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "notion", rename_all = "snake_case")]
pub enum Guarantee {
    /// Pure epsilon-DP.
    PureDp {
        /// epsilon.
        epsilon: Epsilon,
    },
    /// Approximate (epsilon, delta)-DP.
    ApproximateDp {
        /// epsilon.
        epsilon: Epsilon,
        /// delta.
        delta: Delta,
    },
    /// rho-zero-concentrated DP (Bun & Steinke 2016).
    Zcdp {
        /// rho.
        rho: Rho,
    },
    /// Renyi DP (Mironov 2017) at a list of orders: `D_alpha(M(x) || M(x')) <= epsilon(alpha)`.
    RdpCurve {
        /// Orders alpha > 1.
        orders: Vec<f64>,
        /// epsilon(alpha) >= 0 at each order.
        epsilons: Vec<f64>,
    },
    /// mu-Gaussian DP (Dong, Roth & Su 2019): the trade-off curve of N(0,1) vs N(mu,1).
    GaussianDp {
        /// mu.
        mu: Mu,
    },
}

/// Who is trusted: the curator (central DP), nobody (local DP: each user's report is private on
/// its own), or the outputs to every *other* user (joint DP, Kearns et al. 2014).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TrustModel {
    /// Central DP: a trusted curator releases the output.
    Central,
    /// Local DP: each user's data is privatised before it leaves the user.
    Local,
    /// Joint DP: the outputs to all other users are private with respect to one user's data.
    Joint,
}

/// Which pairs of inputs a claim holds for.
///
/// Under add/remove a data set and the same data set with one record more are neighbours
/// (unbounded DP); under replace-one two data sets of the same size that differ in one record
/// (bounded DP). A claim under one does not in general give the same numbers under the other:
/// for a sum of records clipped to norm `C` the sensitivity is `C` under add/remove and `2C`
/// under replace-one, and subsampling amplifies them differently (see
/// `docs/privacy.md`, "Neighbouring relations").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NeighbouringRelation {
    /// One participant's record added or removed.
    AddRemove,
    /// One participant's record replaced by another.
    ReplaceOne,
    /// Any two inputs whose query values differ by at most the stated sensitivity: the claim
    /// holds under add/remove and under replace-one alike, with the sensitivity computed for
    /// the relation the user needs (the additive-noise and exponential mechanisms).
    WithinSensitivity,
    /// One stated pair of inputs (an audit of another implementation's mechanism).
    StatedPair,
}

impl NeighbouringRelation {
    /// A short name (`add/remove`, `replace-one`, ...).
    pub fn label(self) -> &'static str {
        match self {
            Self::AddRemove => "add/remove",
            Self::ReplaceOne => "replace-one",
            Self::WithinSensitivity => "any pair within the sensitivity",
            Self::StatedPair => "the stated pair",
        }
    }
}

/// What a mechanism or algorithm promises.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PrivacyClaim {
    /// What makes the claim (a mechanism name with its parameters).
    pub subject: String,
    /// The guarantee.
    pub guarantee: Guarantee,
    /// The trust model.
    pub model: TrustModel,
    /// The neighbouring relation.
    pub relation: NeighbouringRelation,
    /// The neighbouring relation in words, with its bounds ("one reward in [-(B+R), B+R]
    /// replaced by another").
    pub neighbouring: String,
}

impl Guarantee {
    /// An RDP curve, validated: same lengths, non-empty, orders finite and > 1, epsilons finite
    /// and >= 0.
    pub fn rdp_curve(orders: Vec<f64>, epsilons: Vec<f64>) -> Result<Self, PrivacyError> {
        if orders.is_empty() {
            return Err(PrivacyError::Input(InputError::Empty {
                what: "RDP orders",
            }));
        }
        if orders.len() != epsilons.len() {
            return Err(PrivacyError::Input(InputError::DimensionMismatch {
                context: "RDP curve: epsilons per order",
                expected: orders.len(),
                got: epsilons.len(),
            }));
        }
        for &a in &orders {
            in_range("Renyi order", a, Interval::above(1.0))?;
        }
        for &e in &epsilons {
            non_negative("RDP epsilon", e)?;
        }
        Ok(Self::RdpCurve { orders, epsilons })
    }
}

/// The grid of deltas over which the trade-off curves of zCDP and RDP claims are assembled:
/// `10^(-k/10)` for `k = 1..=160`.
fn delta_grid() -> impl Iterator<Item = f64> {
    (1..=160).map(|k| 10f64.powf(-(k as f64) / 10.0))
}

/// The trade-off function of (epsilon, delta)-DP (Kairouz, Oh & Viswanath 2015):
/// `f(alpha) = max(0, 1 - delta - e^eps alpha, e^-eps (1 - delta - alpha))`.
pub fn approximate_dp_tradeoff(epsilon: f64, delta: f64, alpha: f64) -> f64 {
    let a = 1.0 - delta - epsilon.exp() * alpha;
    let b = (-epsilon).exp() * (1.0 - delta - alpha);
    a.max(b).max(0.0)
}

fn standard_normal() -> Normal {
    Normal::standard()
}

/// The delta of mu-GDP at epsilon (Dong, Roth & Su 2019, Corollary 2.13; see
/// [`crate::accountant::gdp`]): `delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2)`,
/// 0 for invalid arguments.
pub fn gaussian_dp_delta(mu: f64, epsilon: f64) -> f64 {
    crate::accountant::gdp::gdp_delta(mu, epsilon).unwrap_or(0.0)
}

impl PrivacyClaim {
    /// A claim.
    pub fn new(
        subject: impl Into<String>,
        guarantee: Guarantee,
        model: TrustModel,
        relation: NeighbouringRelation,
        neighbouring: impl Into<String>,
    ) -> Self {
        Self {
            subject: subject.into(),
            guarantee,
            model,
            relation,
            neighbouring: neighbouring.into(),
        }
    }

    /// The delta the claim is stated at, for approximate DP; 0 for pure DP; `None` for the
    /// notions that hold at every delta (zCDP, RDP, GDP).
    pub fn stated_delta(&self) -> Option<f64> {
        match &self.guarantee {
            Guarantee::PureDp { .. } => Some(0.0),
            Guarantee::ApproximateDp { delta, .. } => Some(delta.get()),
            _ => None,
        }
    }

    /// The smallest epsilon such that the claim implies (epsilon, delta)-DP, or `None` when the
    /// claim implies no finite epsilon at this delta.
    ///
    /// # Formula
    /// The tightest valid conversion of each notion (issue 15, defect 6: the classic ones made
    /// every zCDP or RDP claim looser than it is, which hides a mechanism that is noisier than
    /// it needs to be and, for an auditor, a mechanism that is *less* noisy than claimed):
    /// - pure: `eps`; approximate `(eps, delta0)`: `eps` if `delta >= delta0`, else none;
    /// - zCDP: the conversion of Canonne, Kamath & Steinke 2020, Corollary 13
    ///   ([`ZcdpConversion::Cks`]; at `rho = 1/(2 sigma^2)` with `sigma` the analytic Gaussian's
    ///   for `(1, 1e-5)` it gives 1.09 where the classic `rho + 2 sqrt(rho ln(1/delta))` of Bun &
    ///   Steinke 2016, Prop. 1.3, gives 1.32), `delta > 0`;
    /// - RDP: Balle et al. 2020, Thm 21 ([`RdpConversion::Improved`]):
    ///   `min_alpha eps(alpha) + ln((alpha - 1)/alpha) - (ln delta + ln alpha)/(alpha - 1)`,
    ///   never above Mironov 2017's `min_alpha eps(alpha) + ln(1/delta)/(alpha - 1)`;
    /// - GDP: [`crate::accountant::gdp::gdp_epsilon`], the root in epsilon of
    ///   [`gaussian_dp_delta`]`(mu, eps) = delta` (bisection to 1e-12), 0 when
    ///   `delta >= 2 Phi(mu/2) - 1`.
    pub fn epsilon_at(&self, delta: f64) -> Option<f64> {
        if !(delta.is_finite() && (0.0..1.0).contains(&delta)) {
            return None;
        }
        match &self.guarantee {
            Guarantee::PureDp { epsilon } => Some(epsilon.get()),
            Guarantee::ApproximateDp { epsilon, delta: d0 } => {
                (delta >= d0.get()).then_some(epsilon.get())
            }
            Guarantee::Zcdp { rho } => {
                if delta == 0.0 {
                    return None;
                }
                zcdp_to_epsilon(rho.get(), delta, ZcdpConversion::Cks).ok()
            }
            Guarantee::RdpCurve { orders, epsilons } => {
                if delta == 0.0 {
                    return None;
                }
                rdp_to_epsilon(orders, epsilons, delta, RdpConversion::Improved)
                    .ok()
                    .map(|(e, _)| e)
            }
            Guarantee::GaussianDp { mu } => {
                if delta == 0.0 {
                    return None;
                }
                crate::accountant::gdp::gdp_epsilon(mu.get(), delta).ok()
            }
        }
    }

    /// The smallest false-negative rate the claim allows a test to have at false-positive rate
    /// `alpha` in [0, 1] (the claim's trade-off function).
    ///
    /// # Formula
    /// - pure and approximate DP: [`approximate_dp_tradeoff`];
    /// - GDP: `Phi(Phi^-1(1 - alpha) - mu)`;
    /// - zCDP and RDP: the maximum over a grid of deltas (`10^(-k/10)`, `k = 1..160`) of the
    ///   (epsilon(delta), delta) trade-off. A finite grid gives a curve at or below the true one,
    ///   so an audit against it can only under-report a violation, never invent one.
    pub fn tradeoff(&self, alpha: f64) -> f64 {
        let alpha = alpha.clamp(0.0, 1.0);
        match &self.guarantee {
            Guarantee::PureDp { epsilon } => approximate_dp_tradeoff(epsilon.get(), 0.0, alpha),
            Guarantee::ApproximateDp { epsilon, delta } => {
                approximate_dp_tradeoff(epsilon.get(), delta.get(), alpha)
            }
            Guarantee::GaussianDp { mu } => {
                let n = standard_normal();
                if alpha <= 0.0 {
                    1.0
                } else if alpha >= 1.0 {
                    0.0
                } else {
                    n.cdf(n.inverse_cdf(1.0 - alpha) - mu.get())
                }
            }
            Guarantee::Zcdp { .. } | Guarantee::RdpCurve { .. } => delta_grid()
                .filter_map(|d| {
                    self.epsilon_at(d)
                        .map(|e| approximate_dp_tradeoff(e, d, alpha))
                })
                .fold(0.0, f64::max),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_abs_diff_eq;

    fn claim(g: Guarantee) -> PrivacyClaim {
        PrivacyClaim::new(
            "test",
            g,
            TrustModel::Central,
            NeighbouringRelation::WithinSensitivity,
            "any",
        )
    }

    #[test]
    fn pure_dp_tradeoff_is_the_two_lines() {
        let c = claim(Guarantee::PureDp {
            epsilon: Epsilon::new(1.0).unwrap(),
        });
        assert_abs_diff_eq!(c.tradeoff(0.0), 1.0);
        assert_abs_diff_eq!(
            c.tradeoff(0.1),
            1.0 - std::f64::consts::E * 0.1,
            epsilon = 1e-15
        );
        assert_abs_diff_eq!(c.tradeoff(0.9), (-1f64).exp() * 0.1, epsilon = 1e-15);
        assert_abs_diff_eq!(c.tradeoff(1.0), 0.0);
    }

    /// zCDP and RDP claims convert with the tightest valid conversions: CKS (below the classic
    /// Bun & Steinke value) and Balle et al.'s improved RDP conversion (below Mironov's).
    #[test]
    fn zcdp_and_rdp_claims_use_the_tight_conversions() {
        let c = claim(Guarantee::Zcdp {
            rho: Rho::new(0.5).unwrap(),
        });
        let d: f64 = 1e-5;
        let cks = zcdp_to_epsilon(0.5, d, ZcdpConversion::Cks).unwrap();
        assert_eq!(c.epsilon_at(d).unwrap().to_bits(), cks.to_bits());
        assert!(cks < 0.5 + 2.0 * (0.5 * (1.0 / d).ln()).sqrt() - 0.1);
        assert!(c.epsilon_at(0.0).is_none());
        // Issue 15, defect 6: the analytic Gaussian for (1, 1e-5) at sensitivity 1 has
        // sigma = 3.7300 (Balle & Wang); as zCDP with rho = 1/(2 sigma^2) the classic conversion
        // claims 1.32 and CKS 1.09.
        let sigma = crate::mechanisms::gaussian::analytic_sigma(1.0, 1e-5, 1.0).unwrap();
        let rho = 1.0 / (2.0 * sigma * sigma);
        let c = claim(Guarantee::Zcdp {
            rho: Rho::new(rho).unwrap(),
        });
        let e = c.epsilon_at(1e-5).unwrap();
        assert!((e - 1.09).abs() < 0.01 && e >= 1.0, "{e}");
        // An RDP curve: the improved conversion, never above the classic one.
        let orders = vec![2.0, 4.0, 8.0, 16.0, 32.0];
        let eps: Vec<f64> = orders.iter().map(|a| a * rho).collect();
        let c = claim(Guarantee::rdp_curve(orders.clone(), eps.clone()).unwrap());
        let improved = rdp_to_epsilon(&orders, &eps, 1e-5, RdpConversion::Improved)
            .unwrap()
            .0;
        let classic = rdp_to_epsilon(&orders, &eps, 1e-5, RdpConversion::Classic)
            .unwrap()
            .0;
        assert_eq!(c.epsilon_at(1e-5).unwrap().to_bits(), improved.to_bits());
        assert!(improved < classic);
    }

    #[test]
    fn gdp_epsilon_inverts_delta() {
        let c = claim(Guarantee::GaussianDp {
            mu: Mu::new(1.0).unwrap(),
        });
        let eps = c.epsilon_at(1e-5).unwrap();
        assert_abs_diff_eq!(gaussian_dp_delta(1.0, eps), 1e-5, epsilon = 1e-12);
        // GDP trade-off at alpha = Phi(-mu/2) equals Phi(-mu/2) by symmetry.
        let n = Normal::standard();
        let a = n.cdf(-0.5);
        assert_abs_diff_eq!(c.tradeoff(a), a, epsilon = 1e-12);
    }

    #[test]
    fn approximate_dp_needs_its_delta() {
        let c = claim(Guarantee::ApproximateDp {
            epsilon: Epsilon::new(1.0).unwrap(),
            delta: Delta::new(1e-6).unwrap(),
        });
        assert_eq!(c.epsilon_at(1e-6), Some(1.0));
        assert_eq!(c.epsilon_at(1e-7), None);
    }

    /// Hand values on both lines of the (eps, delta) trade-off (eps = ln 2, delta = 0.1): at
    /// alpha = 0.2, `1 - 0.1 - 2 * 0.2 = 0.5`; at alpha = 0.5, `(1 - 0.1 - 0.5) / 2 = 0.2`.
    #[test]
    fn approximate_dp_tradeoff_at_hand_values() {
        let l2 = 2f64.ln();
        assert_abs_diff_eq!(approximate_dp_tradeoff(l2, 0.1, 0.2), 0.5, epsilon = 1e-15);
        assert_abs_diff_eq!(approximate_dp_tradeoff(l2, 0.1, 0.5), 0.2, epsilon = 1e-15);
        assert_eq!(
            approximate_dp_tradeoff(l2, 0.1, 0.95).to_bits(),
            0f64.to_bits()
        );
    }

    #[test]
    fn the_stated_delta_is_zero_for_pure_its_own_for_approximate_none_otherwise() {
        let eps = Epsilon::new(1.0).unwrap();
        let pure = claim(Guarantee::PureDp { epsilon: eps });
        assert_eq!(pure.stated_delta().map(f64::to_bits), Some(0f64.to_bits()));
        let approx = claim(Guarantee::ApproximateDp {
            epsilon: eps,
            delta: Delta::new(1e-6).unwrap(),
        });
        assert_eq!(
            approx.stated_delta().map(f64::to_bits),
            Some(1e-6f64.to_bits())
        );
        let rho = claim(Guarantee::Zcdp {
            rho: Rho::new(0.5).unwrap(),
        });
        assert_eq!(rho.stated_delta(), None);
        // A delta outside [0, 1) has no epsilon, whatever the guarantee.
        for d in [1.0, 1.5, -0.1, f64::INFINITY, f64::NAN] {
            assert_eq!(pure.epsilon_at(d), None, "{d}");
        }
    }

    /// A zCDP claim's trade-off is the maximum over its grid of deltas of the (eps(delta),
    /// delta) lines: at or below the maximum over a grid ten times finer (the same formula, so
    /// this checks the grid, not the conversion), and within 1e-3 of it; at alpha = 0 it is
    /// `1 - 1e-16`, the grid's smallest delta.
    #[test]
    fn the_zcdp_tradeoff_is_the_maximum_over_its_delta_grid() {
        let c = claim(Guarantee::Zcdp {
            rho: Rho::new(0.5).unwrap(),
        });
        let fine = |alpha: f64| {
            (1..=1600)
                .map(|j| 10f64.powf(-f64::from(j) / 100.0))
                .filter_map(|d| {
                    zcdp_to_epsilon(0.5, d, ZcdpConversion::Cks)
                        .ok()
                        .map(|e| approximate_dp_tradeoff(e, d, alpha))
                })
                .fold(0.0, f64::max)
        };
        for alpha in [1e-6, 1e-3, 0.01, 0.1, 0.3, 0.6] {
            let (t, f) = (c.tradeoff(alpha), fine(alpha));
            assert!(t <= f + 1e-15 && t >= f - 1e-3, "alpha {alpha}: {t} vs {f}");
        }
        assert_eq!(c.tradeoff(0.0).to_bits(), (1.0 - 1e-16f64).to_bits());
    }

    #[test]
    fn rdp_curve_validation() {
        assert!(Guarantee::rdp_curve(vec![], vec![]).is_err());
        assert!(Guarantee::rdp_curve(vec![1.0], vec![0.1]).is_err());
        assert!(Guarantee::rdp_curve(vec![2.0], vec![f64::NAN]).is_err());
        assert!(Guarantee::rdp_curve(vec![2.0, 3.0], vec![0.1]).is_err());
        assert!(Guarantee::rdp_curve(vec![2.0], vec![0.1]).is_ok());
    }
}
