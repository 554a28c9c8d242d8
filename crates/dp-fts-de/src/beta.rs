//! The scale `beta_t` of the Thompson sample (Algorithm 2 line 6: `f ~ GP(mu_t, beta_{t+1}^2
//! sigma_t^2)`).

use bandit::domain::FiniteDomain;
use kernel::SquaredExponential;
use kernel::information_gain::greedy_information_gain;
use serde::{Deserialize, Serialize};
use validation::{non_negative, open_unit, positive};

use crate::error::DpFtsDeError;

/// How `beta` is chosen.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum BetaRule {
    /// Theorem 1 (and Algorithm 2): `beta_t = B + sigma sqrt(2 (gamma_{t-1} + 1 + ln(4 /
    /// delta)))`, where `gamma_{t-1}` is the maximum information gain of the posterior's
    /// observations. We use the number of observations the agent's posterior holds
    /// (`N_init + t - 1` at iteration `t`; the theorem has no initialisation) and, for
    /// `gamma`, the greedy certificate's *upper* bound `I(A_greedy) / (1 - 1/e)` over the
    /// domain ([`kernel::information_gain::greedy_information_gain`]): a larger `gamma` only widens the sample,
    /// which keeps the theorem's confidence statement.
    Theorem {
        /// `B >= 0`, the RKHS-norm bound of the objectives.
        b: f64,
        /// `sigma > 0`, the sub-Gaussian noise level.
        sigma: f64,
        /// `delta` in `(0, 1)`.
        delta: f64,
    },
    /// A constant `beta > 0` (1 is plain posterior sampling); a tuned variant, not the paper's.
    Constant(f64),
}

/// `beta` for a posterior holding `k` observations, `k = 0..=max`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BetaSchedule {
    values: Vec<f64>,
}

impl BetaSchedule {
    /// The values of `rule` for `k = 0..=max_observations`, with the SE kernel of the model
    /// (`lengthscale`, noise variance `lambda`) on `domain` for Theorem 1's `gamma`.
    pub fn new(
        rule: BetaRule,
        domain: &FiniteDomain,
        lengthscale: f64,
        lambda: f64,
        max_observations: usize,
    ) -> Result<Self, DpFtsDeError> {
        let values = match rule {
            BetaRule::Constant(b) => vec![positive("constant beta", b)?; max_observations + 1],
            BetaRule::Theorem { b, sigma, delta } => {
                let b = non_negative("RKHS-norm bound B", b)?;
                let sigma = positive("noise level sigma", sigma)?;
                let delta = open_unit("confidence delta", delta)?;
                let k = SquaredExponential::isotropic(lengthscale)?;
                let greedy =
                    greedy_information_gain(&k, domain.points(), max_observations, lambda)?;
                let upper = 1.0 / (1.0 - (-1.0f64).exp());
                (0..=max_observations)
                    .map(|n| {
                        let gamma = if n == 0 {
                            0.0
                        } else {
                            greedy.gains[n - 1] * upper
                        };
                        b + sigma * (2.0 * (gamma + 1.0 + (4.0 / delta).ln())).sqrt()
                    })
                    .collect()
            }
        };
        Ok(Self { values })
    }

    /// `beta` for a posterior with `k` observations (the last value beyond the table).
    pub fn get(&self, k: usize) -> f64 {
        self.values[k.min(self.values.len() - 1)]
    }

    /// All values, `k = 0..`.
    pub fn values(&self) -> &[f64] {
        &self.values
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bandit::domain::BoxDomain;

    #[test]
    fn theorem_1s_beta_grows_with_the_information_gain() {
        let domain = BoxDomain::unit(1).unwrap().grid(&[200]).unwrap();
        let rule = BetaRule::Theorem {
            b: 1.0,
            sigma: 0.1,
            delta: 0.1,
        };
        let s = BetaSchedule::new(rule, &domain, 0.03, 0.01, 20).unwrap();
        let v = s.values();
        assert_eq!(v.len(), 21);
        // No observation: gamma_0 = 0.
        let b0 = 1.0 + 0.1 * (2.0 * (1.0 + (40.0f64).ln())).sqrt();
        assert!((v[0] - b0).abs() < 1e-12, "{} vs {b0}", v[0]);
        assert!(v.windows(2).all(|w| w[1] > w[0]));
        // One observation: gamma_1 = (1/2) ln(1 + 1/lambda) / (1 - 1/e).
        let g1 = 0.5 * (1.0f64 + 100.0).ln() / (1.0 - (-1.0f64).exp());
        let b1 = 1.0 + 0.1 * (2.0 * (g1 + 1.0 + (40.0f64).ln())).sqrt();
        assert!((v[1] - b1).abs() < 1e-9, "{} vs {b1}", v[1]);
        assert_eq!(s.get(1000).to_bits(), v[20].to_bits());
    }

    #[test]
    fn bad_rules_are_rejected() {
        let domain = BoxDomain::unit(1).unwrap().grid(&[5]).unwrap();
        for rule in [
            BetaRule::Constant(0.0),
            BetaRule::Constant(f64::NAN),
            BetaRule::Theorem {
                b: -1.0,
                sigma: 0.1,
                delta: 0.1,
            },
            BetaRule::Theorem {
                b: 1.0,
                sigma: 0.0,
                delta: 0.1,
            },
            BetaRule::Theorem {
                b: 1.0,
                sigma: 0.1,
                delta: 1.0,
            },
        ] {
            assert!(
                BetaSchedule::new(rule, &domain, 0.1, 0.01, 3).is_err(),
                "{rule:?}"
            );
        }
    }
}
