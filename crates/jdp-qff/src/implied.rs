//! The privacy a given node noise carries: for any `sigma` a user sets for Algorithm 2's tree,
//! the `(alpha, beta)`-JDP it implies, and the reverse, the smallest `sigma` for a target under
//! each route (`docs/jdp-qff.md`, "Implied privacy and the tightened calibrations").
//!
//! # Derivation
//! 1. *The tree is at most as distinguishable as one Gaussian mechanism.* Two neighbouring user
//!    streams differ in one user's item `v v^T` (each user contributes one clipped item). Which
//!    nodes hold that item does not depend on the data: at most `L = floor(log2 T) + 1` (one per
//!    level), and each moves by at most `Delta` in L2 (the packed sensitivity, under the chosen
//!    [`SensitivityBound`]). Every node gets independent `N(0, sigma^2)` noise on every packed
//!    entry, and every other user's item depends on this user only through the noisy nodes
//!    already released. So, given the past, each released node is a Gaussian with mean shift at
//!    most `Delta` (`Delta / sigma`-GDP) if it holds the item and has the same law in both
//!    worlds otherwise, and adaptive GDP composition (Dong, Roth & Su 2019, Theorem 3.2 /
//!    Corollary 3.3) bounds the whole stream by `mu = sqrt(L) Delta / sigma`-GDP; for a fixed
//!    stream it is literally the Gaussian mechanism of sensitivity `sqrt(L) Delta`, and the
//!    bound is attained by the first item, which lies in all `L` nodes. Everything the server
//!    computes is post-processing, and the billboard lemma turns the server's view into JDP
//!    (the crate docs, "Algorithm 2", step 6).
//! 2. *Continuous Gaussian noise* (the textbook sampler, what the paper analyses): `mu`-GDP is
//!    `(alpha, beta)`-DP for `beta = Phi(-alpha/mu + mu/2) - e^alpha Phi(-alpha/mu - mu/2)`
//!    (Dong, Roth & Su 2019, Corollary 2.13; [`privacy::accountant::gdp_epsilon`]): this
//!    conversion is exact (no slack added to the `mu`-GDP bound of step 1). But the textbook
//!    sampler leaks through its low-order bits in floating point (`docs/privacy.md`), so it
//!    carries no guarantee as implemented.
//! 3. *The hardened sampler* (exact discrete Gaussian on a grid, the default) is proved
//!    `rho`-zCDP with `rho = L Delta_eff^2 / (2 sigma^2)`, `Delta_eff = (1 + 2^-20) Delta`
//!    (Canonne, Kamath & Steinke 2020), not GDP: its `(alpha, beta)` is a zCDP conversion,
//!    Bun & Steinke's classic one or the tighter one of Canonne, Kamath & Steinke
//!    ([`ZcdpConversion`]).

use privacy::accountant::gdp_epsilon;
use privacy::accountant::zcdp::ZcdpConversion;
use privacy::mechanisms::SensitivityBound;
use privacy::mechanisms::gaussian::analytic_sigma;
use serde::Serialize;

use crate::calibration::JdpCalibration;
use crate::error::JdpQffError;

/// The `(alpha, beta)`-JDP that a node noise `sigma` of Algorithm 2's tree implies, under each
/// route of the module's derivation.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ImpliedPrivacy {
    /// The node noise standard deviation of every packed entry.
    pub sigma: f64,
    /// `beta` at which `alpha` is reported.
    pub beta: f64,
    /// The horizon `T`.
    pub horizon: u64,
    /// Tree levels `L = floor(log2 T) + 1`.
    pub levels: usize,
    /// The reward clipping bound `B_y`.
    pub reward_bound: f64,
    /// The sensitivity bound.
    pub bound: SensitivityBound,
    /// `Delta` under [`Self::bound`].
    pub sensitivity: f64,
    /// Hardened sampler: `rho = L ((1 + 2^-20) Delta)^2 / (2 sigma^2)`.
    pub rho: f64,
    /// Hardened sampler: `alpha` by the classic conversion `rho + 2 sqrt(rho ln(1/beta))`.
    pub alpha_zcdp_classic: f64,
    /// Hardened sampler: `alpha` by the Canonne, Kamath & Steinke conversion.
    pub alpha_zcdp_cks: f64,
    /// Continuous Gaussian (textbook sampler): `mu = sqrt(L) Delta / sigma`.
    pub mu: f64,
    /// Continuous Gaussian: the exact `alpha` of `mu`-GDP at `beta`.
    pub alpha_gdp: f64,
}

impl ImpliedPrivacy {
    /// The privacy of node noise `sigma` over `T` rounds with rewards clipped to `reward_bound`,
    /// at failure probability `beta`.
    ///
    /// # Errors
    /// `sigma` not positive and finite (including NaN), `beta` outside `(0, 1)`, `T = 0`,
    /// `reward_bound` not positive; [`privacy::PrivacyError::Unbounded`] when the noise is so
    /// small that `alpha` exceeds `1e6`.
    pub fn of_sigma(
        sigma: f64,
        beta: f64,
        horizon: u64,
        reward_bound: f64,
        bound: SensitivityBound,
    ) -> Result<Self, JdpQffError> {
        let classic = JdpCalibration::of_sigma(
            sigma,
            beta,
            horizon,
            reward_bound,
            ZcdpConversion::Classic,
            bound,
        )?;
        let cks = JdpCalibration::of_sigma(
            sigma,
            beta,
            horizon,
            reward_bound,
            ZcdpConversion::Cks,
            bound,
        )?;
        let (levels, sensitivity, rho) = (classic.levels(), classic.sensitivity(), classic.rho());
        let mu = (levels as f64).sqrt() * sensitivity / sigma;
        Ok(Self {
            sigma,
            beta,
            horizon,
            levels,
            reward_bound,
            bound,
            sensitivity,
            rho,
            alpha_zcdp_classic: classic.alpha(),
            alpha_zcdp_cks: cks.alpha(),
            mu,
            alpha_gdp: gdp_epsilon(mu, beta)?,
        })
    }
}

/// The node sigma for `(alpha, beta)` under each route, for one sensitivity bound.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SigmaByRoute {
    /// The sensitivity bound.
    pub bound: SensitivityBound,
    /// `Delta` under it.
    pub sensitivity: f64,
    /// Hardened sampler, classic zCDP conversion ([`JdpCalibration`]).
    pub zcdp_classic: f64,
    /// Hardened sampler, Canonne-Kamath-Steinke conversion.
    pub zcdp_cks: f64,
    /// Continuous Gaussian (textbook sampler only): the smallest sigma whose `mu`-GDP is
    /// `(alpha, beta)`-DP, `sigma = sqrt(L) Delta / mu*` ([`analytic_sigma`] at sensitivity
    /// `sqrt(L) Delta`, which carries a `1e-9` relative safety margin).
    pub gdp_textbook: f64,
}

impl SigmaByRoute {
    /// The node sigma of each route for `(alpha, beta)`-JDP over `T` rounds.
    ///
    /// # Errors
    /// As [`JdpCalibration::new`].
    pub fn for_target(
        alpha: f64,
        beta: f64,
        horizon: u64,
        reward_bound: f64,
        bound: SensitivityBound,
    ) -> Result<Self, JdpQffError> {
        let classic =
            JdpCalibration::new(alpha, beta, horizon, reward_bound, ZcdpConversion::Classic)?
                .with_bound(bound)?;
        let cks = JdpCalibration::new(alpha, beta, horizon, reward_bound, ZcdpConversion::Cks)?
            .with_bound(bound)?;
        let whole = (classic.levels() as f64).sqrt() * classic.sensitivity();
        Ok(Self {
            bound,
            sensitivity: classic.sensitivity(),
            zcdp_classic: classic.sigma(),
            zcdp_cks: cks.sigma(),
            gdp_textbook: analytic_sigma(alpha, beta, whole)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each route's sigma for a target implies that target back (the round trip), and the
    /// routes order as proved: GDP (exact) <= CKS <= classic.
    #[test]
    fn round_trip_and_order() {
        for &(alpha, beta, t, b) in &[
            (10.0, 0.1, 10_000, 1.5),
            (1.0, 0.1, 1024, 1.0),
            (0.1, 0.01, 5, 2.0),
        ] {
            for bound in [SensitivityBound::Frobenius, SensitivityBound::PackedExact] {
                let s = SigmaByRoute::for_target(alpha, beta, t, b, bound).unwrap();
                assert!(
                    s.gdp_textbook < s.zcdp_cks && s.zcdp_cks < s.zcdp_classic,
                    "{s:?}"
                );
                let c = ImpliedPrivacy::of_sigma(s.zcdp_classic, beta, t, b, bound).unwrap();
                assert!((c.alpha_zcdp_classic / alpha - 1.0).abs() < 1e-9, "{c:?}");
                let k = ImpliedPrivacy::of_sigma(s.zcdp_cks, beta, t, b, bound).unwrap();
                assert!((k.alpha_zcdp_cks / alpha - 1.0).abs() < 1e-6, "{k:?}");
                let g = ImpliedPrivacy::of_sigma(s.gdp_textbook, beta, t, b, bound).unwrap();
                // The 1e-9 margin of analytic_sigma puts alpha just below the target.
                assert!(
                    g.alpha_gdp <= alpha && g.alpha_gdp > alpha * (1.0 - 1e-6),
                    "{g:?}"
                );
            }
        }
    }

    #[test]
    fn bad_input_is_refused_with_its_name() {
        for sigma in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            let e = ImpliedPrivacy::of_sigma(sigma, 0.1, 100, 1.0, SensitivityBound::Frobenius)
                .unwrap_err()
                .to_string();
            assert!(e.contains("sigma"), "{e}");
        }
        let e = ImpliedPrivacy::of_sigma(1.0, 1.0, 100, 1.0, SensitivityBound::Frobenius)
            .unwrap_err()
            .to_string();
        assert!(e.contains("beta"), "{e}");
    }
}
