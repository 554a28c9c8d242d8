//! The exponential mechanism over a finite set (McSherry & Talwar 2007), sampled exactly.

use crate::claim::NeighbouringRelation;
use num_bigint::BigInt;
use num_traits::Zero;
use rand::Rng;

use crate::claim::{Guarantee, PrivacyClaim, TrustModel};
use crate::error::PrivacyError;
use crate::exact;
use crate::mechanism::Mechanism;
use crate::params::{Epsilon, Sensitivity};
use crate::sampler::{NoiseSampler, Sampler};
use validation::{InputError, Interval, ensure_finite, in_range};

/// The exponential mechanism: select `i` with probability proportional to
/// `exp(eps u_i / (2 Delta_u))`, where `Delta_u` bounds the change of every utility between
/// neighbouring inputs.
///
/// # Calibration
/// For neighbours, each `u_i` moves by at most `Delta_u`, so each unnormalised weight changes by
/// a factor at most `e^(eps/2)` and the normaliser by at most `e^(eps/2)`: eps-DP (McSherry &
/// Talwar 2007; Dwork & Roth 2014, Thm 3.10). The utility sensitivity is a parameter: the caller
/// must supply a *proved* bound (papers/README.md on USCA).
///
/// # Sampling
/// Hardened (default): exact rejection sampling. Let `x_i = eps (u_max - u_i) / (2 Delta_u)`,
/// computed exactly as a rational from the doubles `eps`, `u_i`, `Delta_u`. Draw `i` uniformly
/// (exact integer) and accept with probability `exp(-x_i)` (exact Bernoulli, Canonne, Kamath &
/// Steinke 2020, Algorithm 1); the accepted `i` has probability `∝ exp(-x_i)`, which is the
/// target law. Expected number of proposals `n / sum_i exp(-x_i) <= n`. No exponential is
/// evaluated in floating point, so there is no overflow and no rounding of probabilities.
/// Textbook: inverse CDF of the log-sum-exp normalised probabilities on a uniform double.
#[derive(Debug, Clone, PartialEq)]
pub struct ExponentialMechanism {
    epsilon: Epsilon,
    sensitivity: Sensitivity,
    sampler: Sampler,
}

impl ExponentialMechanism {
    /// eps-DP selection for utilities of sensitivity `utility_sensitivity > 0`, hardened.
    pub fn new(epsilon: f64, utility_sensitivity: f64) -> Result<Self, PrivacyError> {
        Ok(Self {
            epsilon: Epsilon::new(epsilon)?,
            sensitivity: Sensitivity::positive(utility_sensitivity)?,
            sampler: Sampler::Hardened,
        })
    }

    /// Use another sampler.
    pub fn with_sampler(mut self, sampler: Sampler) -> Self {
        self.sampler = sampler;
        self
    }

    /// The sampler in use.
    pub fn sampler(&self) -> Sampler {
        self.sampler
    }

    /// The claim: pure eps-DP.
    pub fn claim(&self) -> PrivacyClaim {
        PrivacyClaim::new(
            format!(
                "exponential(eps={}, utility_sensitivity={}, sampler={})",
                self.epsilon,
                self.sensitivity,
                self.sampler.name()
            ),
            Guarantee::PureDp {
                epsilon: self.epsilon,
            },
            TrustModel::Central,
            NeighbouringRelation::WithinSensitivity,
            format!(
                "inputs whose utilities differ by at most {} in every coordinate",
                self.sensitivity
            ),
        )
    }

    fn check(utilities: &[f64]) -> Result<(), PrivacyError> {
        if utilities.is_empty() {
            return Err(PrivacyError::Input(InputError::Empty {
                what: "candidate set",
            }));
        }
        Ok(ensure_finite("utilities", utilities)?)
    }

    /// The selection probabilities `softmax(eps u / (2 Delta_u))`, computed by log-sum-exp.
    pub fn probabilities(&self, utilities: &[f64]) -> Result<Vec<f64>, PrivacyError> {
        Self::check(utilities)?;
        let c = self.epsilon.get() / (2.0 * self.sensitivity.get());
        let a: Vec<f64> = utilities.iter().map(|u| c * u).collect();
        let m = a.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let lse = m + a.iter().map(|x| (x - m).exp()).sum::<f64>().ln();
        Ok(a.iter().map(|x| (x - lse).exp()).collect())
    }

    /// The inverse-CDF selection for a given uniform `u` in [0, 1) (deterministic test vectors):
    /// the first `i` with `sum_{j <= i} p_j > u`.
    pub fn select_with_uniform(&self, utilities: &[f64], u: f64) -> Result<usize, PrivacyError> {
        in_range("uniform", u, Interval::closed_open(0.0, 1.0))?;
        let p = self.probabilities(utilities)?;
        let mut acc = 0.0;
        for (i, pi) in p.iter().enumerate() {
            acc += pi;
            if u < acc {
                return Ok(i);
            }
        }
        // Rounding left the total just below 1: the last candidate with positive probability.
        Ok(p.iter().rposition(|&x| x > 0.0).unwrap_or(p.len() - 1))
    }

    /// Select an index (the same as [`Mechanism::release`]).
    pub fn select<R: Rng + ?Sized>(
        &self,
        utilities: &[f64],
        rng: &mut R,
    ) -> Result<usize, PrivacyError> {
        Self::check(utilities)?;
        match self.sampler {
            Sampler::Textbook => {
                let u = self.sampler.uniform(rng);
                self.select_with_uniform(utilities, u)
            }
            Sampler::Hardened => self.select_exact(utilities, rng),
        }
    }

    fn select_exact<R: Rng + ?Sized>(
        &self,
        utilities: &[f64],
        rng: &mut R,
    ) -> Result<usize, PrivacyError> {
        // Exact dyadic arithmetic: u_i = m_i 2^(e_i). With e_min = min_i e_i, U_i = u_i 2^-e_min
        // is an integer, and x_i = eps (u_max - u_i) / (2 Delta_u)
        //   = m_eps (U_max - U_i) 2^(e_eps + e_min - e_Delta - 1) / m_Delta   (exact, unreduced).
        // Zeros do not constrain the exponent (their mantissa is 0); utilities were checked finite.
        let e_min = utilities
            .iter()
            .filter(|&&u| u != 0.0)
            .filter_map(|&u| exact::signed_dyadic(u).map(|d| d.1))
            .min()
            .unwrap_or(0);
        let scaled = |u: f64| -> BigInt {
            let (m, e) = exact::signed_dyadic(u).unwrap_or((BigInt::zero(), 0));
            m << ((e - e_min) as usize)
        };
        let imax = (0..utilities.len())
            .max_by(|&a, &b| utilities[a].total_cmp(&utilities[b]))
            .unwrap_or(0);
        let u_max = scaled(utilities[imax]);
        let (m_eps, e_eps) =
            exact::signed_dyadic(self.epsilon.get()).ok_or(InputError::NotPositive {
                what: "epsilon",
                value: self.epsilon.get(),
            })?;
        let (m_del, e_del) =
            exact::signed_dyadic(self.sensitivity.get()).ok_or(InputError::NotPositive {
                what: "sensitivity",
                value: self.sensitivity.get(),
            })?;
        let (m_eps, m_del) = (m_eps.magnitude().clone(), m_del.magnitude().clone());
        let shift = e_eps + e_min - e_del - 1;
        let n = utilities.len() as u64;
        loop {
            let i = exact::uniform_below_u64(n, rng) as usize;
            let diff = (&u_max - scaled(utilities[i])).magnitude() * &m_eps;
            let (num, den) = if shift >= 0 {
                (diff << (shift as usize), m_del.clone())
            } else {
                (diff, &m_del << ((-shift) as usize))
            };
            if exact::bernoulli_exp_neg(&num, &den, rng) {
                return Ok(i);
            }
        }
    }
}

/// Input: the utilities `u_i` of the candidates (non-empty, finite); output: the selected index
/// ([`ExponentialMechanism::select`]). Claim: [`ExponentialMechanism::claim`].
impl Mechanism for ExponentialMechanism {
    type Input = [f64];
    type Output = usize;

    fn claim(&self) -> PrivacyClaim {
        ExponentialMechanism::claim(self)
    }

    fn release<R: Rng + ?Sized>(&self, input: &[f64], rng: &mut R) -> Result<usize, PrivacyError> {
        self.select(input, rng)
    }
}

#[cfg(test)]
mod tests {
    use super::ExponentialMechanism;
    use crate::Sampler;

    #[test]
    fn the_probabilities_scale_utilities_by_eps_over_twice_the_sensitivity() {
        // eps = 1, Delta_u = 2: p_1 / p_0 = exp(1 * (1 - 0) / (2 * 2)) = e^(1/4).
        let m = ExponentialMechanism::new(1.0, 2.0).unwrap();
        let p = m.probabilities(&[0.0, 1.0]).unwrap();
        approx::assert_relative_eq!(p[1] / p[0], 0.25f64.exp(), max_relative = 1e-12);
        approx::assert_relative_eq!(p[0] + p[1], 1.0, max_relative = 1e-12);
    }

    #[test]
    fn a_uniform_beyond_the_rounded_total_selects_the_last_candidate_with_positive_mass() {
        // Nine equal utilities and one 5e5 below (probability 0 in floating point): the nine
        // probabilities sum to 1 - 3 * 2^-53 < 1, so u = 1 - 2^-53 passes every partial sum and
        // the selection is the ninth candidate (index 8), never the one of probability 0.
        let m = ExponentialMechanism::new(1.0, 1.0).unwrap();
        let mut u = vec![0.0; 9];
        u.push(-1e6);
        let p = m.probabilities(&u).unwrap();
        assert!(p[9] <= 0.0);
        let u_max = 1.0 - f64::EPSILON / 2.0;
        assert!(p.iter().sum::<f64>() < u_max);
        assert_eq!(m.select_with_uniform(&u, u_max).unwrap(), 8);
    }

    #[test]
    fn the_sampler_is_the_one_chosen() {
        let m = ExponentialMechanism::new(1.0, 1.0).unwrap();
        assert_eq!(m.sampler(), Sampler::Hardened);
        assert_eq!(
            m.with_sampler(Sampler::Textbook).sampler(),
            Sampler::Textbook
        );
    }
}
