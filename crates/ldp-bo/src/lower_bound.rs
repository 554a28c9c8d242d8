//! The regret lower bound of Theorem 1 (Zhou & Tan 2021), as a rate without its unknown
//! constant, so that the report can put measured regret in context.
//!
//! # Formula (Theorem 1, `zhou-tan2021-ldp-bo-arxiv.txt`)
//!
//! For any learning algorithm and any epsilon-LDP mechanism on `D = [0,1]^d`, with
//! `zeta = e^eps - 1`, rewards with `E|y|^(1+alpha) <= v`, and `||f||_H <= B`:
//!
//! - SE kernel: `E[R_T] = Omega( v^(1/(1+a)) T^(1/(1+a)) zeta^(-2a/(1+a))
//!   (ln(B^((1+a)/a) T zeta^2 / v^(1/a)))^(d a/(2+2a)) )`;
//! - Matérn(nu): `E[R_T] = Omega( v^(nu/(nu(1+a)+d a)) T^((nu+d a)/(nu(1+a)+d a)) zeta~
//!   B^(d a/(nu(1+a)+d a)) )` with
//!   `zeta~ = zeta^(-2a/(1+a) + 2 d a^2/((1+a)(nu(1+a)+d a)))`.
//!
//! The logarithm of the SE rate is floored at 1: below that the asymptotic form says nothing,
//! and a floor keeps the rate positive and monotone in `T`.

use serde::{Deserialize, Serialize};

use crate::error::LdpBoError;
use validation::{Interval, at_least_one, in_range, positive};

/// The kernel family of Theorem 1.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum LowerBoundKernel {
    /// Squared exponential.
    SquaredExponential,
    /// Matérn with smoothness `nu`.
    Matern {
        /// The smoothness.
        nu: f64,
    },
}

/// The inputs of Theorem 1.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct LowerBoundSetting {
    /// Kernel family.
    pub kernel: LowerBoundKernel,
    /// Input dimension `d >= 1`.
    pub dimension: usize,
    /// RKHS norm bound `B > 0`.
    pub b: f64,
    /// Privacy level `eps > 0`.
    pub epsilon: f64,
    /// Moment order parameter `alpha` in (0, 1].
    pub alpha: f64,
    /// Moment bound `v > 0` (`E|y|^(1+alpha) <= v`).
    pub v: f64,
}

impl LowerBoundSetting {
    fn validate(&self) -> Result<(), LdpBoError> {
        at_least_one("dimension", self.dimension)?;
        positive("B", self.b)?;
        positive("epsilon", self.epsilon)?;
        positive("v", self.v)?;
        in_range("alpha", self.alpha, Interval::open_closed(0.0, 1.0))?;
        if let LowerBoundKernel::Matern { nu } = self.kernel {
            positive("nu", nu)?;
        }
        Ok(())
    }

    /// The rate of Theorem 1 at horizon `t` (no constant).
    pub fn rate(&self, t: u64) -> Result<f64, LdpBoError> {
        self.validate()?;
        at_least_one("horizon T", t)?;
        let (a, d, v, b, tt) = (self.alpha, self.dimension as f64, self.v, self.b, t as f64);
        let zeta = self.epsilon.exp_m1();
        Ok(match self.kernel {
            LowerBoundKernel::SquaredExponential => {
                let log = (b.powf((1.0 + a) / a) * tt * zeta * zeta / v.powf(1.0 / a))
                    .ln()
                    .max(1.0);
                v.powf(1.0 / (1.0 + a))
                    * tt.powf(1.0 / (1.0 + a))
                    * zeta.powf(-2.0 * a / (1.0 + a))
                    * log.powf(d * a / (2.0 + 2.0 * a))
            }
            LowerBoundKernel::Matern { nu } => {
                let den = nu * (1.0 + a) + d * a;
                let zeta_tilde =
                    zeta.powf(-2.0 * a / (1.0 + a) + 2.0 * d * a * a / ((1.0 + a) * den));
                v.powf(nu / den) * tt.powf((nu + d * a) / den) * zeta_tilde * b.powf(d * a / den)
            }
        })
    }

    /// The exponent of `T` in the rate: `1/(1+alpha)` for SE (up to logs),
    /// `(nu + d alpha)/(nu(1+alpha) + d alpha)` for Matérn.
    pub fn exponent(&self) -> Result<f64, LdpBoError> {
        self.validate()?;
        let (a, d) = (self.alpha, self.dimension as f64);
        Ok(match self.kernel {
            LowerBoundKernel::SquaredExponential => 1.0 / (1.0 + a),
            LowerBoundKernel::Matern { nu } => (nu + d * a) / (nu * (1.0 + a) + d * a),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    fn se(eps: f64) -> LowerBoundSetting {
        LowerBoundSetting {
            kernel: LowerBoundKernel::SquaredExponential,
            dimension: 1,
            b: 1.0,
            epsilon: eps,
            alpha: 1.0,
            v: 1.0,
        }
    }

    #[test]
    fn se_rate_by_hand() {
        // alpha = 1, d = 1, v = 1, B = 1: sqrt(T) / zeta * ln(T zeta^2)^(1/4).
        let t = 10_000u64;
        let zeta = 1f64.exp_m1();
        let expected = (t as f64).sqrt() / zeta * ((t as f64) * zeta * zeta).ln().powf(0.25);
        assert_relative_eq!(se(1.0).rate(t).unwrap(), expected, max_relative = 1e-14);
        assert_relative_eq!(se(1.0).exponent().unwrap(), 0.5);
    }

    #[test]
    fn rate_grows_as_epsilon_shrinks_like_one_over_eps() {
        // alpha = 1, d = 1: rate = sqrt(T) / zeta * ln(T zeta^2)^(1/4); halving eps roughly
        // doubles 1/zeta (zeta ~ eps for small eps), the log factor shrinks slightly.
        let t = 1_000_000u64;
        let (r1, r2) = (se(0.1).rate(t).unwrap(), se(0.05).rate(t).unwrap());
        let (z1, z2) = (0.1f64.exp_m1(), 0.05f64.exp_m1());
        let l = |z: f64| (1e6 * z * z).ln().powf(0.25);
        assert_relative_eq!(r2 / r1, (z1 / z2) * l(z2) / l(z1), max_relative = 1e-12);
        assert!(
            r2 > r1 && (1.8..2.1).contains(&(r2 / r1)),
            "ratio {}",
            r2 / r1
        );
    }

    #[test]
    fn matern_exponent_by_hand() {
        let s = LowerBoundSetting {
            kernel: LowerBoundKernel::Matern { nu: 2.5 },
            ..se(1.0)
        };
        // (2.5 + 1) / (2.5 * 2 + 1) = 3.5 / 6.
        assert_relative_eq!(s.exponent().unwrap(), 3.5 / 6.0);
        let t = 1000u64;
        let zeta = 1f64.exp_m1();
        let den = 6.0;
        let expected = (t as f64).powf(3.5 / den) * zeta.powf(-1.0 + 2.0 / (2.0 * den));
        assert_relative_eq!(s.rate(t).unwrap(), expected, max_relative = 1e-14);
    }

    #[test]
    fn bad_inputs_are_errors() {
        assert!(se(0.0).rate(10).is_err());
        assert!(se(1.0).rate(0).is_err());
        assert!(
            LowerBoundSetting {
                alpha: 1.5,
                ..se(1.0)
            }
            .rate(10)
            .is_err()
        );
        assert!(
            LowerBoundSetting {
                v: f64::NAN,
                ..se(1.0)
            }
            .rate(10)
            .is_err()
        );
        assert!(
            LowerBoundSetting {
                dimension: 0,
                ..se(1.0)
            }
            .rate(10)
            .is_err()
        );
    }
}
