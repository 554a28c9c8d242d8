//! Gaussian differential privacy (Dong, Roth & Su 2019): `mu`-GDP means that telling two
//! neighbouring inputs apart is at least as hard as telling `N(0, 1)` from `N(mu, 1)`.
//!
//! * Conversion (their Corollary 2.13): `mu`-GDP holds iff `(eps, delta(eps))`-DP holds for every
//!   `eps >= 0` with `delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2)`; this is
//!   exact, not a bound (the same curve as Balle & Wang's analytic Gaussian at
//!   `mu = sensitivity / sigma`).
//! * Composition (their Corollary 3.3): `mu_1`-GDP then `mu_2`-GDP is
//!   `sqrt(mu_1^2 + mu_2^2)`-GDP, exactly; [`GdpAccountant`] adds the squares.
//! * The Gaussian mechanism with L2 sensitivity `Delta` and noise `N(0, sigma^2)` is
//!   `Delta / sigma`-GDP, exactly.
//! * The Poisson-subsampled Gaussian is **not** GDP for any finite `mu` in general; Bu, Dong,
//!   Long & Su 2020 (Theorem 5, a central limit theorem as `T -> infinity` with `q sqrt(T)`
//!   fixed) show that `T` rounds approach `mu_CLT`-GDP with
//!   `mu_CLT = q sqrt(T (e^(1/z^2) - 1))`. [`subsampled_gaussian_clt_mu`] returns this as an
//!   **approximation**, not a bound: at finite `T` it can be below the truth (it is, for
//!   example, at small `T` and small `z`), so it must not be used as a guarantee; the PLD
//!   accountant gives the bound.

use crate::error::{InputError, PrivacyError};
use crate::normal;
use crate::params::{Delta, Mu, NoiseMultiplier, SamplingRate};
use validation::{at_least_one, non_negative, positive};

/// `delta(eps)` of `mu`-GDP (Dong, Roth & Su 2019, Corollary 2.13).
///
/// # Errors
/// `mu` not positive and finite, `eps` negative or NaN.
pub fn gdp_delta(mu: f64, epsilon: f64) -> Result<f64, PrivacyError> {
    let mu = Mu::new(mu)?.get();
    let eps = non_negative("epsilon", epsilon)?;
    Ok(delta_unchecked(mu, eps))
}

/// `u`, the unit roundoff.
const U: f64 = f64::EPSILON / 2.0;

/// The two terms of `delta(eps) = Phi(a) - e^eps Phi(b)`, `a = -eps/mu + mu/2`, `b = a - mu`.
/// The second is formed in log space, `exp(eps + ln Phi(b))`, where `e^eps` would overflow or
/// `Phi(b)` underflow: at `mu = 100` (one Gaussian with `z = 0.01`) the root for
/// `delta = 1e-5` is at `eps = 5425.5`, where `e^eps` is infinite, `Phi(b) = Phi(-104.3)` is
/// 0 and their product `e^eps Phi(b) = 5e-7` is not negligible; formed directly it was `NaN`,
/// taken as `delta = 0`, and the bisection stopped near `eps = 709.8`, below the truth.
fn terms(mu: f64, eps: f64) -> (f64, f64) {
    let (a, b) = (-eps / mu + mu / 2.0, -eps / mu - mu / 2.0);
    let pb = normal::cdf(b);
    let second = if eps < 700.0 && pb > 1e-290 {
        eps.exp() * pb
    } else {
        (eps + normal::ln_cdf(b)).exp()
    };
    (normal::cdf(a), second)
}

fn delta_unchecked(mu: f64, eps: f64) -> f64 {
    let (first, second) = terms(mu, eps);
    (first - second).max(0.0)
}

/// An upper bound on the exact `delta(eps)` of `mu`-GDP from its floating-point evaluation.
///
/// # Formula
/// The arguments `a`, `b` are computed with absolute error at most
/// `e_arg = 2u (eps/mu + mu/2)` (a rounded quotient and a rounded sum). [`normal::cdf`] is
/// accurate to `(4 + t^2)` ulps (relative `2u (4 + t^2)`) at `t`, and
/// `d ln Phi(t)/dt = phi(t)/Phi(t) <= max(-t, 0) + 1`, so `Phi(a)` has relative error at most
/// `r1 = 2u (4 + a^2) + (max(-a, 0) + 1) e_arg`, and `ln Phi(b)` ([`normal::ln_cdf`]) absolute
/// error at most `2u (4 + b^2) + (|b| + 1) e_arg`; the sum `eps + ln Phi(b)` adds
/// `u (eps + |ln Phi(b)|)` and `exp` one ulp, which gives the second term's relative error
/// `r2`. The bound is `Phi(a) (1 + 2 r1) - e^eps Phi(b) (1 - 2 r2)` (a factor 2 to spare, which
/// also covers the subtraction's rounding): at least the exact value.
fn delta_upper(mu: f64, eps: f64) -> f64 {
    let (a, b) = (-eps / mu + mu / 2.0, -eps / mu - mu / 2.0);
    let e_arg = 2.0 * U * (eps / mu + mu / 2.0);
    let r1 = 2.0 * U * (4.0 + a * a) + ((-a).max(0.0) + 1.0) * e_arg;
    let ln_b = normal::ln_cdf(b);
    let r2 = 2.0 * U * (4.0 + b * b) + (b.abs() + 1.0) * e_arg + U * (eps + ln_b.abs()) + 2.0 * U;
    let (first, second) = terms(mu, eps);
    (first * (1.0 + 2.0 * r1) - second * (1.0 - 2.0 * r2)).max(0.0)
}

/// The smallest `eps >= 0` with `delta(eps) <= delta` under `mu`-GDP, as an upper bound: 0
/// when `delta >= delta(0) = 2 Phi(mu/2) - 1`.
///
/// # Root search
/// `delta(eps)` is decreasing in `eps`. The bracket `[lo, hi]` starts at `[0, 1]`, doubles
/// `hi` until a *bound* on `delta(hi)` (`delta_upper`: the evaluation with its floating-point
/// error added, derived at that function) is at most `delta`, then bisects to `1e-12`
/// relative (`hi - lo <= 1e-12 max(hi, 1)`) keeping `delta_upper(hi) <= delta`, and returns
/// `hi`, the upper end. So the exact `delta` at the returned epsilon is at most the target
/// (the epsilon is never optimistic), and the returned epsilon exceeds the exact root by at
/// most the bracket's `1e-12` relative plus what the error allowance moves the root (about
/// `r / (-d ln delta / d eps)`, below `1e-11` relative at `mu = 100`).
///
/// # Errors
/// `mu` not positive and finite, `delta` outside (0, 1); [`PrivacyError::Unbounded`] when the
/// epsilon exceeds `1e6`.
pub fn gdp_epsilon(mu: f64, delta: f64) -> Result<f64, PrivacyError> {
    let mu = Mu::new(mu)?.get();
    let delta = Delta::positive(delta)?.get();
    if delta_upper(mu, 0.0) <= delta {
        return Ok(0.0);
    }
    let (mut lo, mut hi) = (0.0, 1.0);
    while delta_upper(mu, hi) > delta {
        hi *= 2.0;
        if hi > 1e6 {
            return Err(PrivacyError::Unbounded(format!(
                "mu = {mu}-GDP at delta = {delta:e}: epsilon above 1e6"
            )));
        }
    }
    while hi - lo > 1e-12 * hi.max(1.0) {
        let mid = 0.5 * (lo + hi);
        if delta_upper(mu, mid) > delta {
            lo = mid
        } else {
            hi = mid
        }
    }
    Ok(hi)
}

/// Composition of GDP guarantees: `mu = sqrt(sum mu_i^2)` (exact).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct GdpAccountant {
    mu_squared: f64,
}

impl GdpAccountant {
    /// Nothing composed yet (`mu = 0`).
    pub fn new() -> Self {
        Self::default()
    }

    /// Compose a `mu`-GDP mechanism.
    ///
    /// # Errors
    /// `mu` not positive and finite.
    pub fn compose(&mut self, mu: f64) -> Result<&mut Self, PrivacyError> {
        let mu = Mu::new(mu)?.get();
        self.mu_squared += mu * mu;
        Ok(self)
    }

    /// Compose `steps` Gaussian mechanisms with L2 sensitivity `sensitivity` and noise standard
    /// deviation `sigma` (each `sensitivity / sigma`-GDP).
    ///
    /// # Errors
    /// Non-positive or non-finite arguments, `steps = 0`.
    pub fn compose_gaussian(
        &mut self,
        sensitivity: f64,
        sigma: f64,
        steps: u64,
    ) -> Result<&mut Self, PrivacyError> {
        let mu = positive("sensitivity", sensitivity)? / positive("sigma", sigma)?;
        let steps = at_least_one("steps", steps)?;
        let mu = Mu::new(mu)?.get();
        self.mu_squared += steps as f64 * mu * mu;
        Ok(self)
    }

    /// The composed `mu`.
    pub fn mu(&self) -> f64 {
        self.mu_squared.sqrt()
    }

    /// The composed guarantee's epsilon at `delta` ([`gdp_epsilon`]; 0 before any composition).
    ///
    /// # Errors
    /// As [`gdp_epsilon`].
    pub fn epsilon(&self, delta: f64) -> Result<f64, PrivacyError> {
        if self.mu_squared == 0.0 {
            Delta::positive(delta)?;
            return Ok(0.0);
        }
        gdp_epsilon(self.mu(), delta)
    }
}

/// **An approximation, not a bound**: the central-limit `mu` of `steps` rounds of the
/// Poisson-subsampled Gaussian (sampling rate `q`, noise multiplier `z`), Bu, Dong, Long & Su
/// 2020, Theorem 5: `mu_CLT = q sqrt(T (e^(1/z^2) - 1))`.
///
/// # Errors
/// Bad parameters; [`InputError::NonFinite`] when `e^(1/z^2)` overflows (`z` below about
/// 0.0376).
pub fn subsampled_gaussian_clt_mu(q: f64, z: f64, steps: u64) -> Result<f64, PrivacyError> {
    let q = SamplingRate::new(q)?.get();
    let z = NoiseMultiplier::new(z)?.get();
    let steps = at_least_one("steps", steps)?;
    let mu = q * (steps as f64 * (1.0 / (z * z)).exp_m1()).sqrt();
    if !mu.is_finite() {
        return Err(InputError::NonFinite {
            what: "mu_CLT = q sqrt(T (e^(1/z^2) - 1))",
            index: None,
            value: mu,
        }
        .into());
    }
    Ok(mu)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// GDP at `mu = Delta / sigma` is the analytic Gaussian's exact curve: the epsilons agree
    /// with Balle & Wang's calibration inverse to the bisection's accuracy.
    #[test]
    fn gdp_is_the_analytic_gaussian() {
        for (sigma, delta) in [(1.0, 1e-5), (3.73, 1e-5), (0.7, 1e-3)] {
            let ours = gdp_epsilon(1.0 / sigma, delta).unwrap();
            let bw = crate::mechanisms::gaussian::gaussian_epsilon(sigma, 1.0, delta).unwrap();
            assert!(
                (ours - bw).abs() < 1e-8 * bw.max(1.0),
                "{sigma}: {ours} vs {bw}"
            );
            let back = gdp_delta(1.0 / sigma, ours).unwrap();
            assert!(back <= delta && back > delta * (1.0 - 1e-9), "{back}");
        }
        assert_eq!(gdp_epsilon(0.01, 0.5).unwrap().to_bits(), 0f64.to_bits());
    }

    /// Far from the origin (`mu = 100`, `200`: one Gaussian with `z = 0.01`, and its
    /// replace-one pair), where `e^eps` overflows and `Phi(b)` underflows: the epsilon is at
    /// least mpmath's exact root (60 digits, bisection to `1e-60`) and above it by at most the
    /// bracket's `1e-12` relative plus the allowance's `1e-11` (see [`gdp_epsilon`]), and
    /// `delta` at it (mpmath's `delta` there, also given) is at most the target. Before, the
    /// product `e^eps Phi(b)` was `NaN`, taken as 0, and the answer was about 709.8.
    #[test]
    fn large_mu_is_exact_and_an_upper_bound() {
        for (mu, exact) in [
            (100.0, 5_425.509_846_147_43),
            (200.0, 20_851.988_679_700_93),
            (50.0, 1_462.285_015_964_779_8),
        ] {
            let e = gdp_epsilon(mu, 1e-5).unwrap();
            assert!(
                e >= exact && e <= exact * (1.0 + 1.1e-11),
                "mu = {mu}: {e} vs {exact}"
            );
            let d = gdp_delta(mu, e).unwrap();
            assert!(d <= 1e-5 && d > 1e-5 * (1.0 - 1e-9), "mu = {mu}: {d:e}");
        }
    }

    /// `delta_upper` is the evaluation plus exactly the allowance derived in its docs: the
    /// formula transcribed here term by term in the same order (so equal to the bit), at four
    /// points, two in each branch of `terms`. That the allowance covers the true error is
    /// checked against mpmath by `large_mu_is_exact_and_an_upper_bound`; this pins each term
    /// (a term dropped or its sign flipped changes the bound by a few ulps).
    #[test]
    fn the_upper_bound_adds_the_documented_allowance() {
        let u = f64::EPSILON / 2.0;
        for (mu, eps) in [(3.0, 2.0), (0.5, 0.3), (100.0, 5425.5), (5.0, 187.5)] {
            let (a, b) = (-eps / mu + mu / 2.0, -eps / mu - mu / 2.0);
            let e_arg = 2.0 * u * (eps / mu + mu / 2.0);
            let r1 = 2.0 * u * (4.0 + a * a) + ((-a).max(0.0) + 1.0) * e_arg;
            let ln_b = normal::ln_cdf(b);
            let r2 = 2.0 * u * (4.0 + b * b)
                + (b.abs() + 1.0) * e_arg
                + u * (eps + ln_b.abs())
                + 2.0 * u;
            let (first, second) = terms(mu, eps);
            let want = (first * (1.0 + 2.0 * r1) - second * (1.0 - 2.0 * r2)).max(0.0);
            let got = delta_upper(mu, eps);
            assert_eq!(got.to_bits(), want.to_bits(), "mu {mu}, eps {eps}");
            assert!(got > delta_unchecked(mu, eps), "mu {mu}, eps {eps}");
        }
    }

    /// Where `Phi(b)` underflows below an `eps` at which `e^eps` is still finite (`mu = 5`,
    /// `eps = 187.5`: `a = -35`, `b = -40`, `Phi(b) = 3.7e-350`), the second term is formed in
    /// log space: `delta = 1.40426173285576569e-269` (mpmath, 50 digits), not `Phi(a) =
    /// 1.12e-268` (the value with the second term lost).
    #[test]
    fn the_second_term_survives_an_underflowing_normal_tail() {
        let d = gdp_delta(5.0, 187.5).unwrap();
        assert!(
            (d / 1.404_261_732_855_765_7e-269 - 1.0).abs() < 1e-9,
            "{d:e}"
        );
    }

    /// Past `eps = 1e6` the answer is `Unbounded`, not a search without end: at `mu = 1500` the
    /// root is about `mu^2 / 2 = 1.1e6`; at `mu = 1000` (about `5.0e5`) it is found.
    #[test]
    fn an_epsilon_beyond_a_million_is_unbounded() {
        assert!(matches!(
            gdp_epsilon(1500.0, 1e-5),
            Err(PrivacyError::Unbounded(_))
        ));
        let e = gdp_epsilon(1000.0, 1e-5).unwrap();
        assert!(e > 5.0e5 && e < 5.1e5, "{e}");
    }

    /// Composition adds the squares: T Gaussians of mu each are one of mu sqrt(T); the
    /// composed epsilon equals the single mechanism's at that mu.
    #[test]
    fn composition_adds_squares() {
        let mut a = GdpAccountant::new();
        a.compose_gaussian(1.0, 4.0, 16).unwrap();
        assert!((a.mu() - 1.0).abs() < 1e-15);
        a.compose(0.75).unwrap();
        assert!((a.mu() - 1.25).abs() < 1e-15);
        let e = a.epsilon(1e-6).unwrap();
        assert_eq!(e.to_bits(), gdp_epsilon(1.25, 1e-6).unwrap().to_bits());
        assert_eq!(GdpAccountant::new().epsilon(1e-6).unwrap().to_bits(), 0);
        assert!(a.compose(-1.0).is_err() && a.compose(f64::NAN).is_err());
    }

    /// The CLT mu by hand: q = 0.01, z = 2, T = 10^4: 0.01 * sqrt(10^4 (e^0.25 - 1)).
    #[test]
    fn clt_mu_by_hand() {
        let mu = subsampled_gaussian_clt_mu(0.01, 2.0, 10_000).unwrap();
        let hand = 0.01 * (1e4 * (0.25f64.exp() - 1.0)).sqrt();
        assert!((mu - hand).abs() < 1e-15, "{mu} vs {hand}");
        assert!(subsampled_gaussian_clt_mu(0.5, 0.01, 10).is_err());
        assert!(subsampled_gaussian_clt_mu(0.0, 1.0, 10).is_err());
    }
}
