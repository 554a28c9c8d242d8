//! The approximating set `Z` of Algorithm 1, lines 9-13, and its size.

use ndarray::{Array2, Axis, concatenate};
use rand::{Rng, RngExt};
use serde::{Deserialize, Serialize};

use crate::error::{InputError, UscaError};
use crate::problem::ContextualProblem;

/// How many points `|Z|` the approximating set has, for `T` learning rounds and an effective
/// dimension `gamma_T` (see [`crate::gamma`]).
///
/// The paper: `K = ceil(T / gamma_T)` and Algorithm 1, line 9, "for k = 1, ..., TK": Lemma 4.4
/// and Lemma 9.1 make it explicit that `Z` has `T K` points (`Z~ = (1/K) sum_{i=1}^{TK}
/// phi(z_i) phi(z_i)^T + tau I`, an estimate of `T Lambda + tau I`). The estimator of
/// [`crate::estimator`] accepts any size `m` with the regulariser `(m / T) tau`, which is the
/// paper's `K tau` when `m = T K` (docs/usca.md, "Deviations and errata").
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ApproximatingSetSize {
    /// The paper's `|Z| = T K`, `K = ceil(T / gamma_T)`, refused above `limit` points (the
    /// `|Z| x |Z|` Cholesky costs `|Z|^3 / 3`, and `|Z|` grows like `T^2 / gamma_T`).
    Paper {
        /// The largest `|Z|` accepted.
        limit: usize,
    },
    /// `min(T K, cap)`: the paper's size up to a cap (a named deviation above it).
    Capped {
        /// The cap (>= 1).
        cap: usize,
    },
    /// A fixed `|Z| = m` whatever `T`.
    Fixed {
        /// `m >= 1`.
        m: usize,
    },
}

impl Default for ApproximatingSetSize {
    fn default() -> Self {
        Self::Paper { limit: 4096 }
    }
}

impl ApproximatingSetSize {
    /// `|Z|` for `T >= 1` rounds and `gamma_T > 0`.
    ///
    /// # Errors
    /// [`UscaError::ApproximatingSetTooLarge`] for [`ApproximatingSetSize::Paper`] above its
    /// limit; input errors for `T = 0`, `gamma_T <= 0`, a zero cap or size.
    pub fn size(self, t: usize, gamma_t: f64) -> Result<usize, UscaError> {
        validation::at_least_one("T (learning rounds)", t)?;
        validation::positive("gamma_T", gamma_t)?;
        let k = paper_k(t, gamma_t);
        let tk = t.saturating_mul(k);
        match self {
            Self::Paper { limit } => {
                if tk > limit {
                    Err(UscaError::ApproximatingSetTooLarge { size: tk, limit })
                } else {
                    Ok(tk)
                }
            }
            Self::Capped { cap } => Ok(tk.min(validation::at_least_one("|Z| cap", cap)?)),
            Self::Fixed { m } => Ok(validation::at_least_one("|Z|", m)?),
        }
    }

    /// A short label for plots and tables.
    pub fn label(self) -> String {
        match self {
            Self::Paper { .. } => "|Z| = TK".into(),
            Self::Capped { cap } => format!("|Z| = min(TK, {cap})"),
            Self::Fixed { m } => format!("|Z| = {m}"),
        }
    }
}

/// The paper's `K = ceil(T / gamma_T)` (at least 1).
pub fn paper_k(t: usize, gamma_t: f64) -> usize {
    ((t as f64 / gamma_t).ceil() as usize).max(1)
}

/// Algorithm 1, lines 9-13: `m` points `z_k = (x_k, c_k)`, `c_k ~ kappa` (the context
/// generator of Assumption 2.10), `x_k` uniform on `X`, drawn with the algorithm's own coins
/// (independent of the data). Draw order: the `m` contexts ([`crate::problem::ContextSpace::sample`]),
/// then the `m` action indices `random_range(0..|X|)`. Rows are `[x_k; c_k]`.
pub fn sample_approximating_set<R: Rng + ?Sized>(
    problem: &ContextualProblem,
    m: usize,
    rng: &mut R,
) -> Result<Array2<f64>, UscaError> {
    if m == 0 {
        return Err(InputError::ZeroCount {
            what: "approximating set size |Z|",
        }
        .into());
    }
    let contexts = problem.contexts().sample(m, rng);
    let n = problem.actions().len();
    let idx: Vec<usize> = (0..m).map(|_| rng.random_range(0..n)).collect();
    let actions = problem.actions().points().select(Axis(0), &idx);
    Ok(concatenate![Axis(1), actions, contexts])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(paper_k(100, 10.0), 10);
        assert_eq!(paper_k(100, 30.0), 4);
        assert_eq!(paper_k(5, 30.0), 1);
        let p = ApproximatingSetSize::Paper { limit: 1000 };
        assert_eq!(p.size(100, 10.0).unwrap(), 1000);
        assert!(matches!(
            p.size(101, 10.0),
            Err(UscaError::ApproximatingSetTooLarge {
                size: 1111,
                limit: 1000
            })
        ));
        assert_eq!(
            ApproximatingSetSize::Capped { cap: 500 }
                .size(100, 10.0)
                .unwrap(),
            500
        );
        assert_eq!(
            ApproximatingSetSize::Fixed { m: 7 }
                .size(100, 10.0)
                .unwrap(),
            7
        );
        assert!(p.size(0, 10.0).is_err());
        assert!(p.size(10, 0.0).is_err());
        assert!(ApproximatingSetSize::Fixed { m: 0 }.size(10, 1.0).is_err());
    }
}
