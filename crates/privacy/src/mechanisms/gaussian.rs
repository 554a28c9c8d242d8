//! The Gaussian mechanism (L2 sensitivity): classic calibration (Dwork & Roth 2014, Thm A.1),
//! the analytic Gaussian mechanism (Balle & Wang 2018), and zCDP (Bun & Steinke 2016).

use crate::claim::NeighbouringRelation;
use ndarray::{Array1, ArrayView1};
use rand::Rng;
use statrs::distribution::{ContinuousCDF, Normal};

use crate::claim::{Guarantee, PrivacyClaim, TrustModel};
use crate::error::PrivacyError;
use crate::mechanism::Mechanism;
use crate::params::{Delta, Epsilon, NoiseScale, Rho, Sensitivity};
use crate::sampler::{Grid, NoiseSampler, Norm, Sampler};
use validation::{InputError, finite};

/// Classic calibration `sigma = Delta sqrt(2 ln(1.25/delta)) / eps` (Dwork & Roth 2014,
/// Theorem A.1), valid only for `eps` in (0, 1) and `delta` in (0, 1): the proof bounds the
/// privacy loss `|L| = |(2 x Delta + Delta^2) / (2 sigma^2)|` by `eps` outside a Gaussian tail
/// of mass `delta`, and uses `eps < 1` in the tail bound. Outside that range it is an error.
pub fn classic_sigma(epsilon: f64, delta: f64, l2_sensitivity: f64) -> Result<f64, PrivacyError> {
    let e = Epsilon::new(epsilon)?.get();
    if e >= 1.0 {
        return Err(InputError::Unsatisfied {
            what: "epsilon",
            value: e,
            requirement: "the classic Gaussian calibration is only valid for eps < 1 (use the analytic one)",
        }
        .into());
    }
    let d = Delta::positive(delta)?.get();
    let s = Sensitivity::positive(l2_sensitivity)?.get();
    Ok(s * (2.0 * (1.25 / d).ln()).sqrt() / e)
}

/// `ln Phi(x)` for the standard normal CDF, accurate in the lower tail (via `erfc`, and the
/// asymptotic series when `erfc` underflows).
pub fn ln_normal_cdf(x: f64) -> f64 {
    if x > -30.0 {
        Normal::standard().cdf(x).ln()
    } else {
        // Phi(x) = phi(x)/|x| (1 - 1/x^2 + 3/x^4 - 15/x^6 + ...), x -> -inf.
        let x2 = x * x;
        -0.5 * x2 - (-x).ln() - 0.5 * (2.0 * std::f64::consts::PI).ln()
            + (1.0 - 1.0 / x2 + 3.0 / (x2 * x2) - 15.0 / (x2 * x2 * x2)).ln()
    }
}

/// The exact delta of the Gaussian mechanism with noise `sigma` and L2 sensitivity `Delta` at
/// `eps` (Balle & Wang 2018, Theorem 8):
/// `delta(eps) = Phi(Delta/(2 sigma) - eps sigma/Delta) - e^eps Phi(-Delta/(2 sigma) - eps sigma/Delta)`.
pub fn gaussian_delta(sigma: f64, l2_sensitivity: f64, epsilon: f64) -> f64 {
    let (first, second) = delta_log_terms(sigma, l2_sensitivity, epsilon);
    // exp(first) - exp(second) = exp(first) (1 - exp(second - first)).
    if second >= first {
        0.0
    } else {
        first.exp() * (-(second - first).exp_m1())
    }
}

/// The exact epsilon of the Gaussian mechanism with noise `sigma` and L2 sensitivity `Delta` at
/// `delta`, as an upper bound: the smallest `eps >= 0` with `delta(eps) <= delta` on Balle &
/// Wang's exact curve ([`gaussian_delta`], their Theorem 8), which is the curve of `mu`-GDP at
/// `mu = Delta / sigma` (Dong, Roth & Su 2019, Corollary 2.13). So it is
/// [`gdp_epsilon`](crate::accountant::gdp::gdp_epsilon)`(Delta / sigma, delta)`, whose root
/// search keeps a bound on the rounding error of `delta(eps)` on the safe side: the exact
/// `delta` at the answer is at most the target. Against mpmath (80 digits), `sigma / Delta` in
/// `{0.1, 1, 10, ..., 1e4}`, `delta` in `{0.1, ..., 1e-50}`: above the exact epsilon by at most
/// `2e-11` relative up to `sigma / Delta = 100` and `5.4e-9` at `1e4`; more beyond (`1e-7` at
/// `1e6`, `0.4` at `1e12`, where the two terms of `delta(eps)` cancel within the roundoff).
/// Until 2026-12-05 it bisected on the computed [`gaussian_delta`] (statrs' `ln Phi`, off by up
/// to `1.6e-10`), so it found where the *computed* delta crosses the target: up to `3.6e-11`
/// relative below the exact epsilon on that grid, and at `sigma / Delta = 1e12`,
/// `delta = 1e-50`, an epsilon whose exact delta is 2.4 times the target.
///
/// # Errors
/// `sigma`, `Delta` not positive and finite, `delta` outside (0, 1), epsilon above `1e6`.
pub fn gaussian_epsilon(sigma: f64, l2_sensitivity: f64, delta: f64) -> Result<f64, PrivacyError> {
    let sigma = NoiseScale::new(sigma)?.get();
    let s = Sensitivity::positive(l2_sensitivity)?.get();
    let d = Delta::positive(delta)?.get();
    // mu below the smallest double: delta(0) = 2 Phi(mu / 2) - 1 < mu < delta, so eps = 0.
    let mu = s / sigma;
    if mu == 0.0 {
        return Ok(0.0);
    }
    crate::accountant::gdp::gdp_epsilon(mu, d)
}

/// The analytic Gaussian calibration of Balle & Wang 2018 (Theorem 8, Algorithm 1 solved by
/// bisection): the smallest `sigma` with `gaussian_delta(sigma, Delta, eps) <= delta`, times
/// `1 + ANALYTIC_SIGMA_MARGIN`, for `eps > 0`, `delta` in (0, 1) up to [`MAX_DELTA_ROUNDING`].
/// `gaussian_delta` is decreasing in `sigma`; the bisection stops when the bracket is below
/// `1e-15` relative.
///
/// The margin: without it the returned sigma met the target in the floating-point evaluation
/// at sensitivity 1 but not always at the caller's sensitivity (`delta` above the target by up
/// to `4e-12` relative, found by the verify check `privacy/calibration/requested-privacy-met`),
/// and `gaussian_delta` itself is accurate only to about that level (statrs' `erfc`; issue 15
/// measured sigma about `4e-12` below the exact minimum against mpmath). The elasticity
/// `-d ln delta / d ln sigma` at the calibrated sigma is at least 0.89 for every `eps` in
/// `[0.05, 20]` and `delta` in `[1e-14, 0.5]` (evaluated with mpmath at 40 digits), so a relative
/// margin of `1e-9` on sigma lowers `delta` by at least `8.9e-10` relative, far more than those
/// errors, and costs `1e-9` relative noise.
pub fn analytic_sigma(epsilon: f64, delta: f64, l2_sensitivity: f64) -> Result<f64, PrivacyError> {
    let e = Epsilon::new(epsilon)?.get();
    let d = Delta::positive(delta)?.get();
    let s = Sensitivity::positive(l2_sensitivity)?.get();
    // Work with sensitivity 1 and scale: sigma(Delta) = Delta sigma(1).
    let f = |sigma: f64| gaussian_delta(sigma, 1.0, e) - d;
    let (mut lo, mut hi) = (1e-3, 1.0);
    while f(lo) <= 0.0 {
        lo /= 2.0;
        if lo < 1e-300 {
            return Err(PrivacyError::Calibration(format!(
                "analytic Gaussian: no sigma for eps={e}, delta={d}"
            )));
        }
    }
    while f(hi) > 0.0 {
        hi *= 2.0;
        if hi > 1e300 {
            return Err(PrivacyError::Calibration(format!(
                "analytic Gaussian: no sigma for eps={e}, delta={d}"
            )));
        }
    }
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid
        } else {
            hi = mid
        }
        if hi - lo <= 1e-15 * hi {
            break;
        }
    }
    within_precision(hi, e, d).map(|hi| s * hi * (1.0 + ANALYTIC_SIGMA_MARGIN))
}

/// The relative safety margin of [`analytic_sigma`] (see there).
pub const ANALYTIC_SIGMA_MARGIN: f64 = 1e-9;

/// The zCDP of the Gaussian mechanism: `rho = Delta^2 / (2 sigma^2)` (Bun & Steinke 2016,
/// Prop. 1.6; the same for the discrete Gaussian with an integer-valued query, Canonne, Kamath &
/// Steinke 2020).
pub fn gaussian_rho(sigma: f64, l2_sensitivity: f64) -> Result<f64, PrivacyError> {
    let sigma = NoiseScale::new(sigma)?.get();
    let s = Sensitivity::positive(l2_sensitivity)?.get();
    Ok(s * s / (2.0 * sigma * sigma))
}

/// How a Gaussian mechanism was calibrated.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum GaussianCalibration {
    /// [`classic_sigma`] for (eps, delta), eps < 1.
    Classic {
        /// epsilon.
        epsilon: Epsilon,
        /// delta.
        delta: Delta,
    },
    /// [`analytic_sigma`] for (eps, delta).
    Analytic {
        /// epsilon.
        epsilon: Epsilon,
        /// delta.
        delta: Delta,
    },
    /// `sigma = Delta / sqrt(2 rho)` for rho-zCDP.
    Zcdp {
        /// rho.
        rho: Rho,
    },
}

/// The Gaussian mechanism `M(x) = f(x) + N(0, sigma^2 I)` for a query of L2 sensitivity
/// `Delta`.
///
/// # Calibration
/// See [`classic_sigma`], [`analytic_sigma`], [`gaussian_rho`]. With the hardened sampler the
/// input is rounded to a grid (sensitivity becomes `(1 + GRID_SLACK) Delta`, and `sigma` is
/// calibrated for it), and the noise is the exact discrete Gaussian on the grid. The claim of the
/// hardened mechanism is rho-zCDP with `rho = ((1 + GRID_SLACK) Delta)^2 / (2 sigma^2)` (proved for
/// the discrete Gaussian by Canonne, Kamath & Steinke 2020); the (eps, delta) statements of the
/// classic and analytic calibrations are proved for the continuous Gaussian, so the textbook
/// mechanism claims them. Both are honest; the zCDP claim implies a slightly larger epsilon at
/// the same delta.
#[derive(Debug, Clone, PartialEq)]
pub struct GaussianMechanism {
    sensitivity: Sensitivity,
    calibration: GaussianCalibration,
    sampler: Sampler,
    /// `sigma` for the current sampler, solved once (the analytic calibration is a bisection).
    sigma: f64,
    /// `rho = Delta_eff^2 / (2 sigma^2)`, validated when `sigma` is solved (the claim needs no
    /// fallback for an invalid value).
    rho: Rho,
}

impl GaussianMechanism {
    /// Classic calibration (eps < 1), hardened sampler.
    pub fn classic(epsilon: f64, delta: f64, l2_sensitivity: f64) -> Result<Self, PrivacyError> {
        classic_sigma(epsilon, delta, l2_sensitivity)?;
        Self::build(
            Sensitivity::positive(l2_sensitivity)?,
            GaussianCalibration::Classic {
                epsilon: Epsilon::new(epsilon)?,
                delta: Delta::new(delta)?,
            },
            Sampler::Hardened,
        )
    }

    /// Analytic calibration, hardened sampler.
    pub fn analytic(epsilon: f64, delta: f64, l2_sensitivity: f64) -> Result<Self, PrivacyError> {
        analytic_sigma(epsilon, delta, l2_sensitivity)?;
        Self::build(
            Sensitivity::positive(l2_sensitivity)?,
            GaussianCalibration::Analytic {
                epsilon: Epsilon::new(epsilon)?,
                delta: Delta::new(delta)?,
            },
            Sampler::Hardened,
        )
    }

    /// rho-zCDP calibration, hardened sampler.
    pub fn zcdp(rho: f64, l2_sensitivity: f64) -> Result<Self, PrivacyError> {
        Self::build(
            Sensitivity::positive(l2_sensitivity)?,
            GaussianCalibration::Zcdp {
                rho: Rho::new(rho)?,
            },
            Sampler::Hardened,
        )
    }

    /// The same mechanism with another sampler (`sigma` solved again for the sampler's
    /// effective sensitivity; an error if that calibration fails).
    pub fn with_sampler(self, sampler: Sampler) -> Result<Self, PrivacyError> {
        Self::build(self.sensitivity, self.calibration, sampler)
    }

    /// Solve `sigma` for the sampler's effective sensitivity, and the zCDP `rho` it gives; an
    /// error when either is not a finite positive number.
    fn build(
        sensitivity: Sensitivity,
        calibration: GaussianCalibration,
        sampler: Sampler,
    ) -> Result<Self, PrivacyError> {
        let s = sensitivity.get() * sampler.sensitivity_factor();
        let sigma = match calibration {
            GaussianCalibration::Classic { epsilon, delta } => {
                classic_sigma(epsilon.get(), delta.get(), s)?
            }
            GaussianCalibration::Analytic { epsilon, delta } => {
                analytic_sigma(epsilon.get(), delta.get(), s)?
            }
            GaussianCalibration::Zcdp { rho } => s / (2.0 * rho.get()).sqrt(),
        };
        if !(sigma.is_finite() && sigma > 0.0) {
            return Err(PrivacyError::Calibration(format!(
                "the Gaussian noise scale is {sigma} (sensitivity {s}, {calibration:?})"
            )));
        }
        let rho = Rho::new(s * s / (2.0 * sigma * sigma)).map_err(|_| {
            PrivacyError::Calibration(format!(
                "the zCDP parameter of sigma = {sigma} at sensitivity {s} is not a positive finite number"
            ))
        })?;
        Ok(Self {
            sensitivity,
            calibration,
            sampler,
            sigma,
            rho,
        })
    }

    /// The sampler.
    pub fn sampler(&self) -> Sampler {
        self.sampler
    }

    /// The calibration.
    pub fn calibration(&self) -> GaussianCalibration {
        self.calibration
    }

    /// The sensitivity the noise is calibrated for: `Delta` (textbook) or
    /// `(1 + GRID_SLACK) Delta` (hardened).
    pub fn effective_sensitivity(&self) -> f64 {
        self.sensitivity.get() * self.sampler.sensitivity_factor()
    }

    /// The noise standard deviation.
    pub fn sigma(&self) -> f64 {
        self.sigma
    }

    /// The zCDP parameter `rho = Delta_eff^2 / (2 sigma^2)`.
    pub fn rho(&self) -> f64 {
        self.rho.get()
    }

    /// The claim (see the type's documentation).
    pub fn claim(&self) -> PrivacyClaim {
        let guarantee = match (self.sampler, self.calibration) {
            (Sampler::Textbook, GaussianCalibration::Classic { epsilon, delta })
            | (Sampler::Textbook, GaussianCalibration::Analytic { epsilon, delta }) => {
                Guarantee::ApproximateDp { epsilon, delta }
            }
            _ => Guarantee::Zcdp { rho: self.rho },
        };
        PrivacyClaim::new(
            format!(
                "gaussian(sigma={}, l2_sensitivity={}, sampler={})",
                self.sigma(),
                self.sensitivity,
                self.sampler.name()
            ),
            guarantee,
            TrustModel::Central,
            NeighbouringRelation::WithinSensitivity,
            format!(
                "query values f(x), f(x') with ||f(x) - f(x')||_2 <= {}",
                self.sensitivity
            ),
        )
    }

    /// Release a vector `f(x) + N(0, sigma^2 I)` (the grid is chosen for `d` coordinates; the
    /// scalar release is [`Mechanism::release`]). All coordinates in one batch
    /// ([`NoiseSampler::perturb_gaussian_into`]): the hardened sampler shares one buffer of
    /// random bits over them.
    pub fn release_vector<R: Rng + ?Sized>(
        &self,
        value: ArrayView1<'_, f64>,
        rng: &mut R,
    ) -> Result<Array1<f64>, PrivacyError> {
        for &v in value {
            finite("query value", v)?;
        }
        let grid = Grid::for_sensitivity(self.sensitivity.get(), value.len(), Norm::L2)?;
        let mut out = value.to_vec();
        self.sampler
            .perturb_gaussian_into(&mut out, self.sigma(), grid, rng)?;
        Ok(Array1::from(out))
    }

    /// Release a scalar `f(x) + N(0, sigma^2)` (the same as [`Mechanism::release`]).
    pub fn release_scalar<R: Rng + ?Sized>(
        &self,
        value: f64,
        rng: &mut R,
    ) -> Result<f64, PrivacyError> {
        let grid = Grid::for_sensitivity(self.sensitivity.get(), 1, Norm::L2)?;
        self.sampler
            .perturb_gaussian(finite("query value", value)?, self.sigma(), grid, rng)
    }

    /// The deterministic part with the noise passed in: `value + noise`.
    pub fn release_with_noise(
        &self,
        value: ArrayView1<'_, f64>,
        noise: ArrayView1<'_, f64>,
    ) -> Result<Array1<f64>, PrivacyError> {
        super::additive::add_noise("gaussian noise", value, noise)
    }
}

/// Input: the query value `f(x)`; output: `f(x) + N(0, sigma^2)`
/// ([`GaussianMechanism::release_scalar`]). Claim: [`GaussianMechanism::claim`].
impl Mechanism for GaussianMechanism {
    type Input = f64;
    type Output = f64;

    fn claim(&self) -> PrivacyClaim {
        GaussianMechanism::claim(self)
    }

    fn release<R: Rng + ?Sized>(&self, input: &f64, rng: &mut R) -> Result<f64, PrivacyError> {
        self.release_scalar(*input, rng)
    }
}

/// The largest relative rounding error of [`gaussian_delta`] ([`gaussian_delta_rounding`]) at
/// which [`analytic_sigma`] answers: `1e-10`, a ninth of the `8.9e-10` by which its margin lowers
/// delta, and five times the largest value over the range its accuracy was verified on against
/// mpmath (`eps` in `[0.05, 20]`, `delta` in `[1e-14, 0.5]`: `2.1e-11`, at `eps = 0.05`,
/// `delta = 1e-14`). Beyond it small `eps` with a much smaller `delta` make the two terms of
/// `delta(eps)` nearly cancel: at `eps = 1e-12`, `delta = 1e-20` (bound 0.19) the bisection's
/// sigma had a true delta 4.6% above the target (mpmath), and at `eps = 1e-300` the computed
/// delta reads 0 from sigma of about `1e17` on. Refused, for example: `eps = 0.001` with
/// `delta <= 1e-8` (mpmath values of the bound: 1.2e-10 at `1e-8`, 2.6e-10 at `1e-10`).
pub const MAX_DELTA_ROUNDING: f64 = 1e-10;

/// A bound on the relative error that rounding puts into [`gaussian_delta`] as evaluated:
/// `delta = e^F (1 - e^D)` with `F = ln T1`, `D = ln T2 - ln T1` (`T1`, `T2` its two normal
/// terms), and `F`, `S = F + D` each rounded to within `2u |.|` (`u = 2^-53`), so `D` is off by
/// at most `4u (|F| + |S|)` and `delta` by that over `e^-D - 1` relatively (infinite when the
/// computed delta is 0). The error of the normal CDF itself is not in it: statrs' `ln Phi` is
/// off by `5e-11` at -5 to `1.6e-10` at -30 (absolute; mpmath), an error that varies slowly
/// in its argument, so nearly the same at the two arguments when they are close (where the
/// cancellation is); the `1e-9` margin covers it.
pub fn gaussian_delta_rounding(sigma: f64, l2_sensitivity: f64, epsilon: f64) -> f64 {
    let (first, second) = delta_log_terms(sigma, l2_sensitivity, epsilon);
    let d = second - first;
    if d >= 0.0 {
        f64::INFINITY
    } else {
        2.0 * f64::EPSILON * (first.abs() + second.abs()) / (-d).exp_m1()
    }
}

/// The two terms of [`gaussian_delta`] in log space: `(ln T1, ln T2)` with
/// `T1 = Phi(Delta/(2 sigma) - eps sigma/Delta)`, `T2 = e^eps Phi(-Delta/(2 sigma) - eps sigma/Delta)`.
fn delta_log_terms(sigma: f64, l2_sensitivity: f64, epsilon: f64) -> (f64, f64) {
    let a = l2_sensitivity / (2.0 * sigma);
    let b = epsilon * sigma / l2_sensitivity;
    (ln_normal_cdf(a - b), epsilon + ln_normal_cdf(-a - b))
}

/// `sigma_1`, the bisection's answer at sensitivity 1 for `(eps, delta)`, unless rounding alone
/// can move the computed delta there by more than [`MAX_DELTA_ROUNDING`] relative: then the
/// bisection has found where the *computed* delta crosses the target, not where the true one
/// does, and the target is refused (small `eps` with a much smaller `delta`).
fn within_precision(sigma_1: f64, epsilon: f64, delta: f64) -> Result<f64, PrivacyError> {
    let rounding = gaussian_delta_rounding(sigma_1, 1.0, epsilon);
    if rounding.is_nan() || rounding > MAX_DELTA_ROUNDING {
        return Err(PrivacyError::Calibration(format!(
            "analytic Gaussian: eps={epsilon}, delta={delta} is beyond the accurate range of the exact delta in double precision (rounding alone may move it by {rounding:e} relative at the answer, above {MAX_DELTA_ROUNDING:e})"
        )));
    }
    Ok(sigma_1)
}

#[cfg(test)]
mod tests {

    #[test]
    fn the_zcdp_mechanism_states_the_rho_of_its_sigma_at_its_effective_sensitivity() {
        use crate::Sampler;
        use crate::sampler::GRID_SLACK;
        for sampler in [Sampler::Hardened, Sampler::Textbook] {
            let m = super::GaussianMechanism::zcdp(0.5, 3.0)
                .unwrap()
                .with_sampler(sampler)
                .unwrap();
            let s = 3.0
                * if sampler == Sampler::Hardened {
                    1.0 + GRID_SLACK
                } else {
                    1.0
                };
            approx::assert_relative_eq!(m.effective_sensitivity(), s, max_relative = 1e-15);
            // sigma = s / sqrt(2 rho) = s; rho = s^2 / (2 sigma^2) = 1/2.
            approx::assert_relative_eq!(m.sigma(), s, max_relative = 1e-15);
            approx::assert_relative_eq!(m.rho(), 0.5, max_relative = 1e-15);
        }
    }

    #[test]
    fn release_with_noise_adds_the_noise_given() {
        let m = super::GaussianMechanism::zcdp(0.5, 1.0).unwrap();
        let out = m
            .release_with_noise(
                ndarray::array![1.0, -2.0].view(),
                ndarray::array![0.25, 0.5].view(),
            )
            .unwrap();
        approx::assert_relative_eq!(out[0], 1.25);
        approx::assert_relative_eq!(out[1], -1.5);
    }

    #[test]
    fn gaussian_rho_is_delta_squared_over_twice_sigma_squared() {
        approx::assert_relative_eq!(super::gaussian_rho(2.0, 3.0).unwrap(), 9.0 / 8.0);
        approx::assert_relative_eq!(super::gaussian_rho(0.5, 1.0).unwrap(), 2.0);
    }

    #[test]
    fn analytic_sigma_searches_below_its_first_bracket_at_a_huge_epsilon() {
        // eps = 1e6: sigma = 1e-3 already meets delta = 1e-5 (Phi(500 - 1000) is 0), so the
        // bracket's lower end is halved until it does not; the answer is below 1e-3 and meets
        // the target.
        let s = super::analytic_sigma(1e6, 1e-5, 1.0).unwrap();
        assert!(s < 1e-3 && s > 0.0, "{s}");
        assert!(super::gaussian_delta(s, 1.0, 1e6) <= 1e-5);
        assert!(super::gaussian_delta(s * 0.99, 1.0, 1e6) > 1e-5);
    }

    #[test]
    fn ln_normal_cdf_matches_high_precision_values_in_both_branches() {
        // ln Phi(x) by mpmath (40 digits): the erfc branch above -30, the asymptotic series
        // (four terms, relative error about 1e-13 at -30) below.
        for (x, want) in [
            (-5.0, -15.064998393988725),
            (-29.9999, -454.3182406353709),
            (-30.0001, -454.3242472873044),
            (-35.0, -616.9751012619225),
            (-40.0, -804.6084420137538),
            (-100.0, -5005.524208694205),
            (-1000.0, -500007.8266948122),
        ] {
            approx::assert_relative_eq!(super::ln_normal_cdf(x), want, max_relative = 1e-11);
        }
    }
    use super::*;
    use approx::assert_relative_eq;

    #[test]
    fn classic_formula_and_range() {
        let s = classic_sigma(0.5, 1e-5, 2.0).unwrap();
        assert_relative_eq!(
            s,
            2.0 * (2.0 * (1.25e5f64).ln()).sqrt() / 0.5,
            max_relative = 1e-15
        );
        assert!(classic_sigma(1.0, 1e-5, 1.0).is_err());
        assert!(classic_sigma(0.5, 0.0, 1.0).is_err());
        assert!(classic_sigma(0.5, 1e-5, -1.0).is_err());
    }

    #[test]
    fn analytic_solves_the_condition() {
        for &(e, d) in &[(0.1, 1e-5), (1.0, 1e-5), (4.0, 1e-8), (0.5, 0.01)] {
            let s = analytic_sigma(e, d, 1.0).unwrap();
            let got = gaussian_delta(s, 1.0, e);
            // Below the target (the margin), by no more than the margin's effect: sigma 1e-9
            // relative above the exact solution moves delta by at most ~1e-9 times the
            // elasticity (below 60 for these targets).
            assert!(got <= d && d - got <= 1e-7 * d, "eps={e}: {got} vs {d}");
            // The sigma without the margin does not meet the target with room to spare.
            let bare = s / (1.0 + ANALYTIC_SIGMA_MARGIN);
            assert!(gaussian_delta(bare * (1.0 - 1e-9), 1.0, e) > d, "eps={e}");
            // Analytic beats classic where classic is valid.
            if e < 1.0 {
                assert!(s < classic_sigma(e, d, 1.0).unwrap());
            }
        }
    }

    #[test]
    fn gaussian_epsilon_inverts_the_analytic_calibration() {
        for &(e, d) in &[(0.1, 1e-5), (1.0, 1e-5), (3.0, 1e-8), (8.0, 1e-3)] {
            let sigma = analytic_sigma(e, d, 1.0).unwrap();
            let back = gaussian_epsilon(sigma, 1.0, d).unwrap();
            assert!((back - e).abs() < 1e-6 * e, "eps {e}, delta {d}: {back}");
            // The answer's delta is at most the target (the GDP root search's guarantee;
            // statrs' `gaussian_delta` can read a little above it).
            assert!(crate::accountant::gdp::gdp_delta(1.0 / sigma, back).unwrap() <= d);
        }
        // Never below the exact epsilon (mpmath, 60 digits), and how close: (sigma, delta,
        // exact, relative excess allowed). The bisection on statrs' delta that this replaced
        // answered 3.6e-11 relative below the first and 5.2e-3 below the last.
        for (sigma, d, exact, excess) in [
            (1.0, 0.1, 1.160_333_852_791_617_2, 1e-10),
            (1e4, 1e-14, 6.070_508_964_402_029e-4, 1e-8),
            (1e6, 1e-14, 5.304_508_384_767_321e-6, 1e-6),
            (1e12, 1e-50, 1.276_463_136_135_048_8e-11, 1.0),
        ] {
            let back = gaussian_epsilon(sigma, 1.0, d).unwrap();
            assert!(
                back >= exact,
                "sigma {sigma}, delta {d}: {back} < exact {exact}"
            );
            assert!(
                back <= exact * (1.0 + excess),
                "sigma {sigma}: {back} vs {exact}"
            );
        }
        // Noise so large that eps = 0 already meets delta.
        assert!(
            gaussian_epsilon(1e6, 1.0, 0.5).unwrap() == 0.0,
            "exactly zero"
        );
        assert!(gaussian_epsilon(1e-6, 1.0, 1e-10).is_err());
        assert!(gaussian_epsilon(0.0, 1.0, 1e-5).is_err());
        assert!(gaussian_epsilon(1.0, 1.0, 1.0).is_err());
    }

    #[test]
    fn hardened_claim_is_zcdp() {
        let m = GaussianMechanism::analytic(1.0, 1e-5, 1.0).unwrap();
        assert!(matches!(m.claim().guarantee, Guarantee::Zcdp { .. }));
        let t = m.clone().with_sampler(Sampler::Textbook).unwrap();
        assert!(matches!(
            t.claim().guarantee,
            Guarantee::ApproximateDp { .. }
        ));
        assert!(m.sigma() > t.sigma());
    }
}
