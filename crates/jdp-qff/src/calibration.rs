//! The noise calibrations of Algorithms 2 (JDP, tree-based) and 3 (local JDP), derived through
//! zero-concentrated DP, with the paper's Lemma 2 / Lemma 12 / Lemma 5 values beside them for
//! comparison (`docs/jdp-qff.md`, "Derivations" and "Deviations and errata").

use privacy::Sampler;
use privacy::accountant::zcdp::{ZcdpConversion, rho_for_target, zcdp_to_epsilon};
use privacy::mechanisms::SensitivityBound;
use privacy::mechanisms::matrix::Neighbouring;
use privacy::mechanisms::tree::{StreamShape, TreeAggregation, node_sigma, tree_levels};
use serde::Serialize;
use validation::{at_least_one, open_unit, positive};

use crate::error::JdpQffError;

/// Check `alpha > 0` (finite) and `beta` in `(0, 1)`: the `(alpha, beta)` of joint DP.
pub fn check_target(alpha: f64, beta: f64) -> Result<(), JdpQffError> {
    positive("alpha (privacy budget)", alpha)?;
    open_unit("beta (privacy failure probability)", beta)?;
    Ok(())
}

/// The calibration of Algorithm 2: the tree-based mechanism over the `(m+1) x (m+1)` outer
/// products `v v^T`, `v = [Phi(x_t); clip(y_t)]`, with symmetric Gaussian node noise.
///
/// # Derivation (`docs/jdp-qff.md`, "Algorithm 2")
/// 1. *Sensitivity.* Features are clipped to `||Phi(x)||_2 <= 1` (NQFF already satisfy it) and
///    rewards to `|y| <= B_y` ([`privacy::mechanisms::matrix::clipped_outer_product`]). Two
///    neighbouring streams differ in one user's `(x_t, y_t)`, so in one item `v v^T` replaced by
///    `w w^T`: `||v v^T - w w^T||_F^2 = ||v||^4 + ||w||^4 - 2 (v.w)^2 <= 2 (1 + B_y^2)^2`, and
///    the packed upper triangle has no larger norm: `Delta = sqrt(2) (1 + B_y^2)`
///    ([`SensitivityBound::Frobenius`], the default). The exact supremum of the packed
///    distance ([`SensitivityBound::PackedExact`], [`JdpCalibration::with_bound`]) counts the
///    last column once: `sqrt(2 + 2B_y^2 + B_y^4/2)` for `B_y^2 <= 2`, else
///    `sqrt(2 + B_y^2 + B_y^4)` (2.121 against 2.828 at `B_y = 1`, 3.052 against 4.596 at
///    `B_y = 1.5`; derivation in [`privacy::mechanisms::sensitivity`]).
/// 2. *One node* is the Gaussian mechanism: `Delta^2 / (2 sigma^2)`-zCDP.
/// 3. *Composition.* An item enters one node per level, `L = floor(log2 T) + 1 <= 1 +
///    ceil(log2 T)` nodes; zCDP adds: `rho = L Delta^2 / (2 sigma^2)` for the whole stream of
///    nodes, and every released prefix sum (and the PSD shift, and everything the server computes)
///    is post-processing.
/// 4. *Joint DP.* The server's view is `(alpha, beta)`-DP in each user's data when
///    `rho <= rho*(alpha, beta)` ([`rho_for_target`], Bun & Steinke 2016 Prop. 1.3, or the tighter
///    Canonne, Kamath & Steinke conversion); the action `x_t` shown to user `t` is a function of
///    this view and of user `t`'s own `D_t`, so the algorithm is `(alpha, beta)`-JDP by the
///    billboard lemma (Hsu et al. 2014; Shariff & Sheffet 2018, Claim 7).
/// 5. Hence `sigma = Delta_eff sqrt(L / (2 rho*))`, with `Delta_eff = (1 + GRID_SLACK) Delta` for
///    the hardened (exact discrete Gaussian) sampler ([`TreeAggregation::calibrated`]).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct JdpCalibration {
    /// `alpha` of `(alpha, beta)`-JDP.
    alpha: f64,
    /// `beta` of `(alpha, beta)`-JDP.
    beta: f64,
    /// The horizon `T`.
    horizon: u64,
    /// The reward clipping bound `B_y`.
    reward_bound: f64,
    /// The zCDP to `(alpha, beta)` conversion.
    conversion: ZcdpConversion,
    /// Tree levels `L = floor(log2 T) + 1`.
    levels: usize,
    /// Which bound on the packed sensitivity.
    bound: SensitivityBound,
    /// `Delta`: `sqrt(2) (1 + B_y^2)` under the Frobenius bound.
    sensitivity: f64,
    /// `rho*`, the zCDP budget of the whole stream.
    rho: f64,
    /// The node noise standard deviation of every packed entry (hardened sampler).
    sigma: f64,
    /// Whether `sigma` was given ([`JdpCalibration::of_sigma`]) rather than derived from a
    /// target: then `alpha` is what `sigma` implies at `beta`, not a request.
    given_sigma: bool,
}

/// The derived values, read-only: a calibration is made only by its constructors, so its
/// fields always agree with its derivation.
impl JdpCalibration {
    /// `alpha` of `(alpha, beta)`-JDP.
    pub fn alpha(&self) -> f64 {
        self.alpha
    }

    /// `beta` of `(alpha, beta)`-JDP.
    pub fn beta(&self) -> f64 {
        self.beta
    }

    /// The horizon `T`.
    pub fn horizon(&self) -> u64 {
        self.horizon
    }

    /// The reward clipping bound `B_y`.
    pub fn reward_bound(&self) -> f64 {
        self.reward_bound
    }

    /// The zCDP to `(alpha, beta)` conversion.
    pub fn conversion(&self) -> ZcdpConversion {
        self.conversion
    }

    /// Tree levels `L = floor(log2 T) + 1`.
    pub fn levels(&self) -> usize {
        self.levels
    }

    /// Which bound on the packed sensitivity.
    pub fn bound(&self) -> SensitivityBound {
        self.bound
    }

    /// `Delta`: `sqrt(2) (1 + B_y^2)` under the Frobenius bound, the exact packed supremum
    /// under [`SensitivityBound::PackedExact`].
    pub fn sensitivity(&self) -> f64 {
        self.sensitivity
    }

    /// `rho*`, the zCDP budget of the whole stream.
    pub fn rho(&self) -> f64 {
        self.rho
    }

    /// The node noise standard deviation of every packed entry (hardened sampler).
    pub fn sigma(&self) -> f64 {
        self.sigma
    }

    /// Whether `sigma` was given ([`JdpCalibration::of_sigma`]): then [`Self::alpha`] is the
    /// privacy it implies, not a target.
    pub fn given_sigma(&self) -> bool {
        self.given_sigma
    }
}

impl JdpCalibration {
    /// The calibration for `(alpha, beta)`-JDP over `T` rounds with rewards clipped to
    /// `|y| <= reward_bound`, with the Frobenius sensitivity bound.
    pub fn new(
        alpha: f64,
        beta: f64,
        horizon: u64,
        reward_bound: f64,
        conversion: ZcdpConversion,
    ) -> Result<Self, JdpQffError> {
        Self::build(
            alpha,
            beta,
            horizon,
            reward_bound,
            conversion,
            SensitivityBound::Frobenius,
        )
    }

    /// A calibration with a given node `sigma` (for example the paper's Lemma 2 as printed,
    /// [`paper_lemma2_sigma`]): `rho = L Delta_eff^2 / (2 sigma^2)` is the zCDP this noise
    /// carries (hardened sampler) and [`Self::alpha`] is the `alpha` it implies at `beta` under
    /// `conversion` (the derivation of [`JdpCalibration`], read backwards).
    ///
    /// # Errors
    /// `sigma` not positive and finite, and the errors of [`JdpCalibration::new`];
    /// [`privacy::PrivacyError::Unbounded`] when `sigma` is so small that `alpha > 1e6`.
    pub fn of_sigma(
        sigma: f64,
        beta: f64,
        horizon: u64,
        reward_bound: f64,
        conversion: ZcdpConversion,
        bound: SensitivityBound,
    ) -> Result<Self, JdpQffError> {
        positive("node noise sigma", sigma)?;
        open_unit("beta (privacy failure probability)", beta)?;
        at_least_one("horizon T", horizon)?;
        positive("reward bound B_y", reward_bound)?;
        let sensitivity = bound.sensitivity(1.0, reward_bound, Neighbouring::Replace)?;
        let levels = tree_levels(horizon)?;
        let eff = sensitivity * Sampler::Hardened.sensitivity_factor();
        let rho = levels as f64 * eff * eff / (2.0 * sigma * sigma);
        let alpha = zcdp_to_epsilon(rho, beta, conversion)?;
        Ok(Self {
            alpha,
            beta,
            horizon,
            reward_bound,
            conversion,
            levels,
            bound,
            sensitivity,
            rho,
            sigma,
            given_sigma: true,
        })
    }

    /// The same target with the sensitivity from `bound` (sigma re-derived; a given sigma is
    /// kept and its implied `alpha` re-computed).
    pub fn with_bound(self, bound: SensitivityBound) -> Result<Self, JdpQffError> {
        if self.given_sigma {
            return Self::of_sigma(
                self.sigma,
                self.beta,
                self.horizon,
                self.reward_bound,
                self.conversion,
                bound,
            );
        }
        Self::build(
            self.alpha,
            self.beta,
            self.horizon,
            self.reward_bound,
            self.conversion,
            bound,
        )
    }

    fn build(
        alpha: f64,
        beta: f64,
        horizon: u64,
        reward_bound: f64,
        conversion: ZcdpConversion,
        bound: SensitivityBound,
    ) -> Result<Self, JdpQffError> {
        check_target(alpha, beta)?;
        at_least_one("horizon T", horizon)?;
        positive("reward bound B_y", reward_bound)?;
        let sensitivity = bound.sensitivity(1.0, reward_bound, Neighbouring::Replace)?;
        let sigma = node_sigma(
            horizon,
            alpha,
            beta,
            sensitivity * Sampler::Hardened.sensitivity_factor(),
            conversion,
        )?;
        Ok(Self {
            alpha,
            beta,
            horizon,
            reward_bound,
            conversion,
            levels: tree_levels(horizon)?,
            bound,
            sensitivity,
            rho: rho_for_target(alpha, beta, conversion)?,
            sigma,
            given_sigma: false,
        })
    }

    /// A fresh tree over the `(m+1) x (m+1)` outer products for `m` features, with this
    /// calibration (hardened sampler).
    pub fn tree(&self, m: usize) -> Result<TreeAggregation, JdpQffError> {
        at_least_one("feature dimension m", m)?;
        if self.given_sigma {
            return Ok(TreeAggregation::new(
                StreamShape::Symmetric(m + 1),
                self.horizon,
                self.sensitivity,
                self.sigma,
            )?);
        }
        Ok(TreeAggregation::calibrated(
            StreamShape::Symmetric(m + 1),
            self.horizon,
            self.alpha,
            self.beta,
            self.sensitivity,
            self.conversion,
        )?)
    }
}

/// The node noise "standard deviation" of the paper's main-text Lemma 2, evaluated as printed:
/// `16 n (1 + B^2 + 2 rho^2 ln(8T/beta)) ln(10/beta)^2 / alpha^2` with `n = 1 + ceil(log2 T)`.
/// Not used by any algorithm: reported beside [`JdpCalibration::sigma`] (its units are
/// inconsistent, see `docs/jdp-qff.md`, "Deviations and errata").
pub fn paper_lemma2_sigma(
    alpha: f64,
    beta: f64,
    horizon: u64,
    b: f64,
    rho: f64,
) -> Result<f64, JdpQffError> {
    check_target(alpha, beta)?;
    let n = 1.0 + ceil_log2(horizon)? as f64;
    let t = horizon as f64;
    Ok(16.0
        * n
        * (1.0 + b * b + 2.0 * rho * rho * (8.0 * t / beta).ln())
        * (10.0 / beta).ln().powi(2)
        / (alpha * alpha))
}

/// The appendix's Lemma 12 as printed: `16 (1 + ceil(log2 T)) (1 + B^2 + rho^2 ln(4T/beta))
/// ln(4/beta)^2 alpha^2` (alpha squared in the numerator). Reported for comparison only.
pub fn paper_lemma12_sigma(
    alpha: f64,
    beta: f64,
    horizon: u64,
    b: f64,
    rho: f64,
) -> Result<f64, JdpQffError> {
    check_target(alpha, beta)?;
    let n = 1.0 + ceil_log2(horizon)? as f64;
    let t = horizon as f64;
    Ok(16.0
        * n
        * (1.0 + b * b + rho * rho * (4.0 * t / beta).ln())
        * (4.0 / beta).ln().powi(2)
        * alpha
        * alpha)
}

/// `ceil(log2 T)` for `T >= 1`.
pub fn ceil_log2(horizon: u64) -> Result<u32, JdpQffError> {
    let t = at_least_one("horizon T", horizon)?;
    Ok(64 - (t - 1).leading_zeros())
}

/// The calibration of Algorithm 3 (local JDP): each client releases once
/// `Phi Phi^T + N_t` (symmetric, i.i.d. `N(0, sigma_X^2)` upper triangle) and
/// `y Phi + n_t` (i.i.d. `N(0, sigma_u^2)`), re-derived (the paper's Lemma 5 has typos).
///
/// # Derivation (`docs/jdp-qff.md`, "Algorithm 3")
/// The client clips `||Phi|| <= 1` and `|y| <= B_y`. For any two inputs of one client:
/// `||Phi Phi^T - Phi' Phi'^T||_F <= sqrt(2)` (so `Delta_X = sqrt(2)` on the packed upper
/// triangle) and `||y Phi - y' Phi'||_2 <= 2 B_y` (`Delta_u = 2 B_y`). Each part is a Gaussian
/// mechanism; giving each half the zCDP budget, `sigma_X = Delta_X,eff / sqrt(rho*)` and
/// `sigma_u = Delta_u,eff / sqrt(rho*)` make the message `rho*/2 + rho*/2 = rho*`-zCDP, hence
/// `(alpha, beta)`-DP in the client's data for `rho* = rho*(alpha, beta)`. A client's data enter
/// only its own message; the sums the later clients see are post-processing, so the protocol is
/// `(alpha, beta)`-local JDP (Definition 7), and JDP (Lemma 4).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LocalCalibration {
    /// `alpha`.
    alpha: f64,
    /// `beta`.
    beta: f64,
    /// The reward clipping bound `B_y`.
    reward_bound: f64,
    /// The zCDP conversion.
    conversion: ZcdpConversion,
    /// `rho*` of one message.
    rho: f64,
    /// `Delta_X = sqrt(2)`.
    sensitivity_x: f64,
    /// `Delta_u = 2 B_y`.
    sensitivity_u: f64,
    /// Noise standard deviation of each packed entry of `N_t`.
    sigma_x: f64,
    /// Noise standard deviation of each entry of `n_t`.
    sigma_u: f64,
    /// The sampler whose effective sensitivity the sigmas are calibrated for.
    #[serde(skip)]
    sampler: Sampler,
}

/// The derived values, read-only: a calibration is made only by its constructors, so its
/// fields always agree with its derivation.
impl LocalCalibration {
    /// `alpha`.
    pub fn alpha(&self) -> f64 {
        self.alpha
    }

    /// `beta`.
    pub fn beta(&self) -> f64 {
        self.beta
    }

    /// The reward clipping bound `B_y`.
    pub fn reward_bound(&self) -> f64 {
        self.reward_bound
    }

    /// The zCDP conversion.
    pub fn conversion(&self) -> ZcdpConversion {
        self.conversion
    }

    /// `rho*` of one message.
    pub fn rho(&self) -> f64 {
        self.rho
    }

    /// `Delta_X = sqrt(2)`.
    pub fn sensitivity_x(&self) -> f64 {
        self.sensitivity_x
    }

    /// `Delta_u = 2 B_y`.
    pub fn sensitivity_u(&self) -> f64 {
        self.sensitivity_u
    }

    /// Noise standard deviation of each packed entry of `N_t`.
    pub fn sigma_x(&self) -> f64 {
        self.sigma_x
    }

    /// Noise standard deviation of each entry of `n_t`.
    pub fn sigma_u(&self) -> f64 {
        self.sigma_u
    }

    /// The sampler whose effective sensitivity the sigmas are calibrated for.
    pub fn sampler(&self) -> Sampler {
        self.sampler
    }
}

impl LocalCalibration {
    /// The calibration for `(alpha, beta)`-local JDP with `|y| <= reward_bound` (hardened
    /// sampler).
    pub fn new(
        alpha: f64,
        beta: f64,
        reward_bound: f64,
        conversion: ZcdpConversion,
    ) -> Result<Self, JdpQffError> {
        check_target(alpha, beta)?;
        positive("reward bound B_y", reward_bound)?;
        let rho = rho_for_target(alpha, beta, conversion)?;
        let sampler = Sampler::Hardened;
        let f = sampler.sensitivity_factor();
        let sensitivity_x = std::f64::consts::SQRT_2;
        let sensitivity_u = 2.0 * reward_bound;
        Ok(Self {
            alpha,
            beta,
            reward_bound,
            conversion,
            rho,
            sensitivity_x,
            sensitivity_u,
            sigma_x: f * sensitivity_x / rho.sqrt(),
            sigma_u: f * sensitivity_u / rho.sqrt(),
            sampler,
        })
    }

    /// A calibration with given noise (for example the paper's Lemma 5 as printed,
    /// [`paper_lemma5_variances`]): `rho` is the zCDP one message carries,
    /// `Delta_X,eff^2 / (2 sigma_X^2) + Delta_u,eff^2 / (2 sigma_u^2)` (hardened sampler), and
    /// [`Self::alpha`] the `alpha` it implies at `beta` under `conversion`.
    ///
    /// # Errors
    /// A sigma not positive and finite, `beta` outside `(0, 1)`, `reward_bound` not positive;
    /// [`privacy::PrivacyError::Unbounded`] when the noise is so small that `alpha > 1e6`.
    pub fn of_sigmas(
        sigma_x: f64,
        sigma_u: f64,
        beta: f64,
        reward_bound: f64,
        conversion: ZcdpConversion,
    ) -> Result<Self, JdpQffError> {
        positive("noise sigma_X", sigma_x)?;
        positive("noise sigma_u", sigma_u)?;
        open_unit("beta (privacy failure probability)", beta)?;
        positive("reward bound B_y", reward_bound)?;
        let mut c = Self {
            alpha: f64::NAN,
            beta,
            reward_bound,
            conversion,
            rho: f64::NAN,
            sensitivity_x: std::f64::consts::SQRT_2,
            sensitivity_u: 2.0 * reward_bound,
            sigma_x,
            sigma_u,
            sampler: Sampler::Hardened,
        };
        c.rho = c.message_rho();
        c.alpha = zcdp_to_epsilon(c.rho, beta, conversion)?;
        Ok(c)
    }

    /// The same calibration with another sampler (sigmas unchanged: calibrated for the
    /// hardened sampler's effective sensitivity, so conservative for the textbook one).
    #[must_use]
    pub fn with_sampler(mut self, sampler: Sampler) -> Self {
        self.sampler = sampler;
        self
    }

    /// The zCDP of one message: `Delta_X,eff^2 / (2 sigma_X^2) + Delta_u,eff^2 / (2 sigma_u^2)`.
    pub fn message_rho(&self) -> f64 {
        let f = self.sampler.sensitivity_factor();
        let (x, u) = (f * self.sensitivity_x, f * self.sensitivity_u);
        x * x / (2.0 * self.sigma_x * self.sigma_x) + u * u / (2.0 * self.sigma_u * self.sigma_u)
    }
}

/// The paper's Lemma 5 as printed, with its undefined `delta` read as `beta`:
/// `(sigma_X^2, sigma_u^2) = (8 ln(5 / (2 beta)) / alpha^2, 8 (B^2 + 2 ln(8 m / beta)) ln(5 / beta) / alpha^2)`.
/// Reported for comparison only.
pub fn paper_lemma5_variances(
    alpha: f64,
    beta: f64,
    b: f64,
    m: usize,
) -> Result<(f64, f64), JdpQffError> {
    check_target(alpha, beta)?;
    at_least_one("feature dimension m", m)?;
    let a2 = alpha * alpha;
    Ok((
        8.0 * (5.0 / (2.0 * beta)).ln() / a2,
        8.0 * (b * b + 2.0 * (8.0 * m as f64 / beta).ln()) * (5.0 / beta).ln() / a2,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::Array1;

    #[test]
    fn the_target_must_be_alpha_positive_and_beta_in_the_open_unit_interval() {
        assert!(check_target(0.5, 0.01).is_ok());
        for (alpha, beta) in [
            (0.0, 0.1),
            (-1.0, 0.1),
            (f64::NAN, 0.1),
            (f64::INFINITY, 0.1),
        ] {
            assert!(check_target(alpha, beta).is_err(), "alpha {alpha}");
        }
        for beta in [0.0, 1.0, 1.5, f64::NAN] {
            assert!(check_target(1.0, beta).is_err(), "beta {beta}");
        }
        // The paper's printed formulas refuse the same targets.
        assert!(paper_lemma2_sigma(0.0, 0.1, 100, 1.0, 0.1).is_err());
        assert!(paper_lemma12_sigma(1.0, 1.0, 100, 1.0, 0.1).is_err());
    }

    /// Lemma 2 and Lemma 12 as printed, at `alpha = 0.5`, `beta = 0.01`, `T = 1000`
    /// (`n = 1 + ceil(log2 T) = 11`), `B = 3` (not 2, where `B^2 = 2B`), `rho = 0.3`; the reference values are the
    /// printed formulas evaluated in 30-digit arithmetic (mpmath):
    /// `16 n (1 + B^2 + 2 rho^2 ln(8T/beta)) ln(10/beta)^2 / alpha^2` and
    /// `16 n (1 + B^2 + rho^2 ln(4T/beta)) ln(4/beta)^2 alpha^2`.
    #[test]
    fn the_papers_printed_sigmas_are_the_printed_formulas() {
        let l2 = paper_lemma2_sigma(0.5, 0.01, 1000, 3.0, 0.3).unwrap();
        let l12 = paper_lemma12_sigma(0.5, 0.01, 1000, 3.0, 0.3).unwrap();
        let (want2, want12) = (418_117.348_887_902_1, 17_628.649_379_860_424);
        assert!((l2 - want2).abs() <= 1e-12 * want2, "{l2}");
        assert!((l12 - want12).abs() <= 1e-12 * want12, "{l12}");
    }

    /// The accessors return what the calibration was built with, and a given sigma's tree is
    /// over the `(m+1) x (m+1)` packed outer products (`(m+1)(m+2)/2` entries).
    #[test]
    fn accessors_and_the_given_sigmas_tree() {
        let c = JdpCalibration::new(0.5, 0.01, 64, 2.0, ZcdpConversion::Cks).unwrap();
        assert_eq!(c.beta().to_bits(), 0.01f64.to_bits());
        assert_eq!(c.reward_bound().to_bits(), 2f64.to_bits());
        assert_eq!(c.conversion(), ZcdpConversion::Cks);
        assert_eq!(c.bound(), SensitivityBound::Frobenius);
        assert!(!c.given_sigma());
        // Frobenius: sqrt(2) (1 + B_y^2) = 5 sqrt(2).
        assert!((c.sensitivity() - 5.0 * 2f64.sqrt()).abs() <= 1e-12);
        let exact = c.clone().with_bound(SensitivityBound::PackedExact).unwrap();
        assert_eq!(exact.bound(), SensitivityBound::PackedExact);
        let g = JdpCalibration::of_sigma(
            3.0,
            0.01,
            64,
            2.0,
            ZcdpConversion::Classic,
            SensitivityBound::Frobenius,
        )
        .unwrap();
        assert!(g.given_sigma());
        for tree in [g.tree(3).unwrap(), c.tree(3).unwrap()] {
            let mut tree = tree;
            let zeros = Array1::<f64>::zeros(10);
            assert!(
                tree.push_packed_with_noise(zeros.view(), zeros.view())
                    .is_ok()
            );
            let short = Array1::<f64>::zeros(6);
            assert!(
                tree.push_packed_with_noise(short.view(), short.view())
                    .is_err()
            );
        }
        assert_eq!(g.tree(3).unwrap().sigma().to_bits(), 3f64.to_bits());
    }

    /// Lemma 5 as printed (its `delta` read as `beta`) at `alpha = 0.5`, `beta = 0.01`,
    /// `B = 3`, `m = 30`; references from mpmath (30 digits):
    /// `8 ln(5 / (2 beta)) / alpha^2` and `8 (B^2 + 2 ln(8 m / beta)) ln(5 / beta) / alpha^2`.
    #[test]
    fn the_papers_printed_lemma5_variances_are_the_printed_formulas() {
        let (vx, vu) = paper_lemma5_variances(0.5, 0.01, 3.0, 30).unwrap();
        let (want_x, want_u) = (176.686_749_371_591_9, 5_801.285_594_424_506);
        assert!((vx - want_x).abs() <= 1e-12 * want_x, "{vx}");
        assert!((vu - want_u).abs() <= 1e-12 * want_u, "{vu}");
        assert!(paper_lemma5_variances(0.5, 0.01, 3.0, 0).is_err());
    }

    #[test]
    fn ceil_log2_at_and_around_powers_of_two() {
        for (t, want) in [
            (1, 0),
            (2, 1),
            (3, 2),
            (4, 2),
            (5, 3),
            (1024, 10),
            (1025, 11),
        ] {
            assert_eq!(ceil_log2(t).unwrap(), want, "T = {t}");
        }
        assert_eq!(ceil_log2(u64::MAX).unwrap(), 64);
        assert!(ceil_log2(0).is_err());
    }

    /// Algorithm 3's calibration: the accessors return what it was built with, the
    /// sensitivities are `sqrt(2)` and `2 B_y`, and the noise of a target read back by
    /// `of_sigmas` implies the same `rho` and `alpha` (each part carries half of `rho`).
    #[test]
    fn local_calibration_round_trips_through_its_sigmas() {
        let c = LocalCalibration::new(0.8, 0.02, 3.0, ZcdpConversion::Cks).unwrap();
        assert_eq!(c.alpha().to_bits(), 0.8f64.to_bits());
        assert_eq!(c.beta().to_bits(), 0.02f64.to_bits());
        assert_eq!(c.reward_bound().to_bits(), 3f64.to_bits());
        assert_eq!(c.conversion(), ZcdpConversion::Cks);
        assert_eq!(c.sampler(), Sampler::Hardened);
        assert_eq!(
            c.clone().with_sampler(Sampler::Textbook).sampler(),
            Sampler::Textbook
        );
        assert_eq!(c.sensitivity_x().to_bits(), 2f64.sqrt().to_bits());
        assert_eq!(c.sensitivity_u().to_bits(), 6f64.to_bits());
        let back =
            LocalCalibration::of_sigmas(c.sigma_x(), c.sigma_u(), 0.02, 3.0, ZcdpConversion::Cks)
                .unwrap();
        assert_eq!(back.sensitivity_u().to_bits(), 6f64.to_bits());
        assert!((back.rho() - c.rho()).abs() <= 1e-12 * c.rho());
        assert!((back.alpha() - 0.8).abs() <= 1e-9, "{}", back.alpha());
    }
}
