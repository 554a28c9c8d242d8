//! The sensitivity of `mu_T` (Lemma 4.2 / 7.1) and the bounds on `sup_W sigma^2` it needs.
//!
//! # The argument (Lemma 7.1, with a bound instead of an estimate)
//!
//! `mu_T(w) = phi(w)^T Z~^{-1} sum_t phi(w_t) y_t`, and `Z~` depends only on `Z` (the
//! algorithm's coins), never on the data. Two `t`-neighbouring data sets differ in one
//! `(w_t, y_t)` versus `(w'_t, y'_t)` (the query `x_t` is data-independent; the context and the
//! clipped reward may change, the context anywhere in `C`). By Cauchy-Schwarz in the inner
//! product `<a, b> = a^T Z~^{-1} b` (`Z~` is positive definite),
//!
//! `|mu_T(w) - mu'_T(w)| = |<phi(w), phi(w_t) y_t - phi(w'_t) y'_t>|
//!   <= B sigma(w) (sigma(w_t) + sigma(w'_t)) <= 2 B sup_W sigma^2`,
//!
//! because `|y| <= B` after clipping ([`crate::estimator::LearningData::new`]) and
//! `sigma^2(w) = <phi(w), phi(w)>` (eq. 5). The supremum is over all of `W = X x C`, since
//! `w'_t` may carry any context of `C`.
//!
//! The paper states `Delta = 2 B sup_W sigma^2` and bounds `sup sigma^2` only with probability
//! `1 - delta` (Lemma 7.1), while Algorithm 1 uses `sup sigma^2` without saying how it is
//! computed. The rules here:
//!
//! - [`SensitivityRule::Proven`] (default): `sigma^2(w) <= k(w, w) / tau <= sup_diag / tau`
//!   (`Z~ >= tau I`), so `Delta = 2 B sup_diag / tau`. Always valid, data- and `Z`-free.
//! - [`SensitivityRule::Certified`]: a certified upper bound on `sup_W sigma^2` for this `Z`.
//!   `sigma(w) = |Z~^{-1/2} phi(w)|_H` and `|Z~^{-1/2}|_op <= tau^{-1/2}`, so
//!   `|sigma(w) - sigma(w')| <= tau^{-1/2} d_k(w, w')`, `d_k^2 = k(w,w) + k(w',w') - 2 k(w,w')`.
//!   On box cells that tile `C` (centre `g`, half-widths `h`) and every `x` of the finite `X`:
//!   `sup_W sigma <= max over cells of (max_x sigma(x, g) + tau^{-1/2} d_h)`, with
//!   `d_h^2 = 2 sup k_X (k_C(0,0) - k_C(0, h))`, valid for a product kernel whose context
//!   factor is stationary and decreasing in every `|c_i - c'_i|`; the cells are a uniform grid
//!   refined best-first around the maximum ([`crate::certificate`]). The rule accepts only a
//!   [`JointKernel`] (SE or Matérn 5/2 factors) and checks that it is the estimator's kernel
//!   (the same object). It depends only on `Z` (not on the data), so the mechanism stays
//!   `eps`-DP; the result is capped at the proven `sup_diag / tau`. Each cell's `sigma` carries
//!   the rounding margin of [`crate::rounding`] (a computed `sigma^2` may fall below the exact
//!   one).
//! - [`SensitivityRule::QueryContext`]: the sensitivity at the query context `c = c_{T+1}` only.
//!   The prediction stage evaluates `mu_T(., c)` and nothing else, and for `w = (x, c)` the same
//!   Cauchy-Schwarz step gives `|mu_T(w) - mu'_T(w)| <= B sigma(w) (sigma(w_t) + sigma(w'_t))
//!   <= 2 B sigma(w) S` for any `S >= sup_W sigma`; over the finite `X`,
//!   `Delta(c) = 2 B S min(sigma_c, S)` with `sigma_c = max_{x in X} sigma(x, c)`, computed exactly
//!   (one `sigma^2` per action, raised by the rounding margin of [`crate::rounding`]), and `S^2`
//!   the proven bound or, with a grid, the certified one.
//!   `Delta(c)` depends on `Z`, the kernel, `X`, `B` and `c` only: `c_{T+1}` is the same in both
//!   neighbours (Definition 2.4), so the stage stays `eps`-DP in the data ([`SensitivityBound::at_context`]).
//! - [`SensitivityRule::PaperEstimate`]: `2 B max sigma^2` over a finite sample of `W`: **not a
//!   bound** (the supremum can be larger between the samples); offered only to compare with the
//!   paper (papers/README.md).

use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::certificate::certified_sup_sigma2;
use crate::error::{InputError, UscaError};
use crate::estimator::SurrogateVariance;
use crate::factored_mu::{FactoredSigma2, sigma2_at_contexts};
use crate::joint_kernel::JointKernel;
use crate::problem::ContextualProblem;
use crate::rounding::RoundingMargin;
use kernel::Kernel;

/// How the sensitivity `2 B sup_W sigma^2` of the prediction stage is computed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SensitivityRule {
    /// `2 B sup_diag / tau` (always valid); the default.
    #[default]
    Proven,
    /// `2 B` times a certified bound on `sup_W sigma^2` for the drawn `Z`, from a grid of
    /// `points_per_dim` cells per context dimension refined around the maximum with at most
    /// `refinement_contexts` further cell centres ([`crate::certificate`]).
    Certified {
        /// Grid points per dimension of `C` (>= 1).
        points_per_dim: usize,
        /// Further cell centres the refinement may evaluate (0: the uniform grid only; the
        /// default when absent from a serialised rule).
        #[serde(default)]
        refinement_contexts: usize,
    },
    /// `Delta(c) = 2 B S min(max_x sigma(x, c), S)` at the query context `c` (module docs), with
    /// `S^2` the proven bound on `sup_W sigma^2`, or the certified one
    /// ([`crate::certificate`]) from a grid of `points_per_dim` cells per context dimension,
    /// refined with at most `refinement_contexts` further centres, when that is given. The
    /// context-free value `2 B S^2` is the cap; [`SensitivityBound::at_context`] gives the value
    /// at `c`.
    QueryContext {
        /// Grid points per dimension of `C` for a certified `S` (>= 1); `None` for the proven `S`.
        points_per_dim: Option<usize>,
        /// Further cell centres the certificate's refinement may evaluate (0: the uniform grid
        /// only; must be 0 without a grid).
        #[serde(default)]
        refinement_contexts: usize,
    },
    /// The paper's estimate `2 B max sigma^2` over `samples` points of `W` drawn like `Z`:
    /// not a bound.
    PaperEstimate {
        /// Number of sampled points (>= 1).
        samples: usize,
    },
}

impl SensitivityRule {
    /// Whether the rule gives a proven upper bound (so the mechanism is `eps`-DP).
    pub fn is_bound(self) -> bool {
        !matches!(self, Self::PaperEstimate { .. })
    }

    /// A short label.
    pub fn label(self) -> &'static str {
        match self {
            Self::Proven => "proven 2B/tau",
            Self::Certified { .. } => "certified 2B sup sigma^2",
            Self::QueryContext {
                points_per_dim: None,
                ..
            } => "query-context 2B S max_x sigma(x, c), proven S",
            Self::QueryContext {
                points_per_dim: Some(_),
                ..
            } => "query-context 2B S max_x sigma(x, c), certified S",
            Self::PaperEstimate { .. } => "paper's estimate (not a bound)",
        }
    }
}

/// `sup_W sigma^2` as bounded or estimated by a rule, the clipping bound `B`, and the
/// sensitivity `2 B` times it (for [`SensitivityRule::QueryContext`], once placed at a context by
/// [`SensitivityBound::at_context`], `2 B S min(sigma_c, S)`). Only [`sensitivity()`] makes one
/// (the fields are private), so a [`crate::PredictionStage`] never runs on a hand-written
/// `Delta`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct SensitivityBound {
    rule: SensitivityRule,
    sup_sigma2: f64,
    reward_bound: f64,
    sensitivity: f64,
    context_sigma: Option<f64>,
    /// The `Z`, `T` and `tau` the bound was computed for ([`VarianceId`]).
    variance: VarianceId,
}

/// What identifies the [`SurrogateVariance`] a bound was computed for: `T`, `tau`, `rho` and a
/// fingerprint of `Z`'s bits (FNV-1a over the entries and the shape). A bound is refused by
/// [`SensitivityBound::at_context`] and [`crate::PredictionStage`] for any other variance, so a
/// certified or query-context `Delta` of one `Z` is never used with another.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct VarianceId {
    horizon: usize,
    tau_bits: u64,
    rho_bits: u64,
    z_fingerprint: u64,
}

impl VarianceId {
    /// The identity of `variance`.
    pub fn of(variance: &SurrogateVariance) -> Self {
        Self {
            horizon: variance.horizon(),
            tau_bits: variance.tau().to_bits(),
            rho_bits: variance.rho().to_bits(),
            z_fingerprint: variance.z_fingerprint(),
        }
    }

    /// A typed error unless `variance` is the one this identity was taken of.
    pub fn check(&self, variance: &SurrogateVariance) -> Result<(), UscaError> {
        if Self::of(variance) == *self {
            Ok(())
        } else {
            Err(InputError::Unsatisfied {
                what: "surrogate variance of the sensitivity bound",
                value: variance.tau(),
                requirement: "must be the one the bound was computed for (the same Z, T, tau and rho)",
            }
            .into())
        }
    }
}

impl SensitivityBound {
    /// The rule.
    pub fn rule(&self) -> SensitivityRule {
        self.rule
    }

    /// The value used for `sup_W sigma^2`.
    pub fn sup_sigma2(&self) -> f64 {
        self.sup_sigma2
    }

    /// The clipping bound `B` the sensitivity assumes.
    pub fn reward_bound(&self) -> f64 {
        self.reward_bound
    }

    /// `Delta = 2 B sup_sigma2`, or for [`SensitivityRule::QueryContext`] placed at a context,
    /// `2 B S min(sigma_c, S)` with `S = sup_sigma2^{1/2}`.
    pub fn sensitivity(&self) -> f64 {
        self.sensitivity
    }

    /// The identity of the variance (`Z`, `T`, `tau`) the bound was computed for.
    pub fn variance_id(&self) -> VarianceId {
        self.variance
    }

    /// `sigma_c = max_{x in X} sigma(x, c)` at the context this bound was placed at
    /// ([`SensitivityBound::at_context`]; `None` before, and for the other rules).
    pub fn context_sigma(&self) -> Option<f64> {
        self.context_sigma
    }

    /// The same `S` under [`SensitivityRule::QueryContext`]: a proven bound becomes the
    /// query-context rule with the proven `S`, a certified one (grid of `n` points per dimension)
    /// the rule with the certified `S` from the same grid; a query-context bound comes back as
    /// it is. `None` for [`SensitivityRule::PaperEstimate`] (not a bound). No value is computed
    /// again: the `S^2` is this bound's. Place the result at a context with
    /// [`SensitivityBound::at_context`].
    pub fn as_query_context(&self) -> Option<Self> {
        let (points_per_dim, refinement_contexts) = match self.rule {
            SensitivityRule::Proven => (None, 0),
            SensitivityRule::Certified {
                points_per_dim,
                refinement_contexts,
            } => (Some(points_per_dim), refinement_contexts),
            SensitivityRule::QueryContext { .. } => return Some(*self),
            SensitivityRule::PaperEstimate { .. } => return None,
        };
        Some(Self {
            rule: SensitivityRule::QueryContext {
                points_per_dim,
                refinement_contexts,
            },
            context_sigma: None,
            ..*self
        })
    }

    /// The bound for the prediction at context `c` (checked to lie in `C`; `variance` checked
    /// to be the one the bound was computed for): for
    /// [`SensitivityRule::QueryContext`], `Delta(c) = 2 B S min(sigma_c, S)` with
    /// `sigma_c = max_{x in X} sigma(x, c)` from `variance` (the `Z` the bound was computed for;
    /// module docs); every other rule is context-free and comes back unchanged.
    ///
    /// The value depends on `Z`, the kernel, `X`, `B` and `c` only, never on the learning data.
    pub fn at_context(
        &self,
        variance: &SurrogateVariance,
        problem: &ContextualProblem,
        c: ndarray::ArrayView1<'_, f64>,
    ) -> Result<Self, UscaError> {
        self.variance.check(variance)?;
        if !matches!(self.rule, SensitivityRule::QueryContext { .. }) {
            return Ok(*self);
        }
        problem.contexts().check(c, 0)?;
        Ok(self.placed(
            variance.sigma2(problem.joint_all(c).view())?.as_slice(),
            RoundingMargin::new(variance),
        ))
    }

    /// [`SensitivityBound::at_context`] at every row of `contexts`, with one triangular solve
    /// for all of them and, when `joint` is the variance's own kernel (the same object), the
    /// action factors of `k_Z` computed once. The same values as `at_context` up to the
    /// rounding of the batched solve (a test compares them).
    pub fn at_contexts(
        &self,
        variance: &SurrogateVariance,
        problem: &ContextualProblem,
        joint: Option<&JointKernel>,
        contexts: ndarray::ArrayView2<'_, f64>,
    ) -> Result<Vec<Self>, UscaError> {
        self.variance.check(variance)?;
        for (i, c) in contexts.rows().into_iter().enumerate() {
            problem.contexts().check(c, i)?;
        }
        if !matches!(self.rule, SensitivityRule::QueryContext { .. }) {
            return Ok(vec![*self; contexts.nrows()]);
        }
        let n = problem.actions().len();
        let factored = FactoredSigma2::new(variance, joint, problem.actions().points());
        let s2 = sigma2_at_contexts(variance, problem, factored.as_ref(), contexts)?;
        let margin = RoundingMargin::new(variance);
        Ok(s2
            .as_slice()
            .ok_or(InputError::Empty { what: "sigma^2" })?
            .chunks(n)
            .map(|block| self.placed(Some(block), margin))
            .collect())
    }

    /// The query-context bound with `sigma_c` the square root of the largest of the computed
    /// `sigma2` (the `sigma^2` of every action at the context), raised by the rounding
    /// `margin` ([`crate::rounding`]) so that it bounds the exact value; a value that is NaN
    /// somewhere, zero or subnormal (cancellation at a tiny `tau`), a missing slice or a
    /// missing margin falls back to the cap `S`, which is always a bound.
    fn placed(&self, sigma2: Option<&[f64]>, margin: Option<RoundingMargin>) -> Self {
        let cap = self.sup_sigma2.sqrt();
        let sigma_c = sigma2
            .and_then(|s2| {
                s2.iter()
                    .try_fold(0.0f64, |m, &v| (!v.is_nan()).then(|| m.max(v)))
            })
            .filter(|s| s.is_normal())
            .zip(margin)
            .map(|(s2, margin)| margin.upper(s2).sqrt())
            .unwrap_or(cap);
        // Below the cap, the product is rounded upwards (a few units of roundoff), and never
        // above the context-free value 2 B S^2, which is itself the rule's bound.
        let context_free = 2.0 * self.reward_bound * self.sup_sigma2;
        let sensitivity = if sigma_c < cap {
            (2.0 * self.reward_bound * cap * sigma_c * (1.0 + 4.0 * f64::EPSILON)).min(context_free)
        } else {
            context_free
        };
        Self {
            sensitivity,
            context_sigma: Some(sigma_c),
            ..*self
        }
    }
}

/// Compute the sensitivity of `mu_T` by `rule`, for rewards clipped to `B`.
///
/// [`SensitivityRule::Certified`] needs the estimator's kernel to be a [`JointKernel`]: pass
/// that same `Arc` as `joint` (checked by address); the sampling of
/// [`SensitivityRule::PaperEstimate`] uses `rng` (the algorithm's coins).
pub fn sensitivity<R: Rng + ?Sized>(
    rule: SensitivityRule,
    variance: &SurrogateVariance,
    problem: &ContextualProblem,
    joint: Option<&std::sync::Arc<JointKernel>>,
    b: f64,
    rng: &mut R,
) -> Result<SensitivityBound, UscaError> {
    let b = validation::positive("reward bound B", b)?;
    let proven = proven_sup_sigma2(variance)?;
    // The certificate's grid (cells per dimension, refinement budget), if the rule has one.
    let grid = match rule {
        SensitivityRule::Certified {
            points_per_dim,
            refinement_contexts,
        } => Some((points_per_dim, refinement_contexts)),
        SensitivityRule::QueryContext {
            points_per_dim,
            refinement_contexts,
        } => points_per_dim.map(|n| (n, refinement_contexts)),
        _ => None,
    };
    let sup_sigma2 = match rule {
        SensitivityRule::Proven
        | SensitivityRule::QueryContext { .. }
        | SensitivityRule::Certified { .. } => match grid {
            None => proven,
            Some(grid) => certified(variance, problem, joint, grid, proven)?,
        },
        SensitivityRule::PaperEstimate { samples } => {
            let w = crate::approximating_set::sample_approximating_set(problem, samples, rng)?;
            variance
                .sigma2(w.view())?
                .iter()
                .copied()
                .fold(0.0, f64::max)
        }
    };
    Ok(SensitivityBound {
        rule,
        sup_sigma2,
        reward_bound: b,
        sensitivity: 2.0 * b * sup_sigma2,
        context_sigma: None,
        variance: VarianceId::of(variance),
    })
}

/// The certified bound on `sup_W sigma^2` from a grid of `points_per_dim` cells per dimension
/// and `refinement_contexts` further centres (`grid`), capped at the proven `proven`, after
/// checking that `joint` is given and is the variance's own kernel.
fn certified(
    variance: &SurrogateVariance,
    problem: &ContextualProblem,
    joint: Option<&std::sync::Arc<JointKernel>>,
    (points_per_dim, refinement_contexts): (usize, usize),
    proven: f64,
) -> Result<f64, UscaError> {
    let joint = joint.ok_or(InputError::Unsatisfied {
        what: "kernel for the certified sensitivity",
        value: f64::NAN,
        requirement: "must be given: a JointKernel (SE or Matern-5/2 factors)",
    })?;
    if !joint.is(variance.kernel()) {
        return Err(InputError::Unsatisfied {
            what: "kernel for the certified sensitivity",
            value: f64::NAN,
            requirement: "must be the estimator's own kernel (the same Arc)",
        }
        .into());
    }
    Ok(certified_sup_sigma2(
        variance,
        problem,
        joint,
        points_per_dim,
        refinement_contexts,
    )?
    .min(proven))
}

/// `sup_diag / tau`, the proven bound on `sup_W sigma^2`.
pub fn proven_sup_sigma2(variance: &SurrogateVariance) -> Result<f64, UscaError> {
    let sup = variance
        .kernel()
        .sup_diag()
        .ok_or(InputError::Unsatisfied {
            what: "kernel sup_x k(x, x)",
            value: f64::INFINITY,
            requirement: "must be finite (a bounded kernel) for a sensitivity bound",
        })?;
    Ok(sup / variance.tau())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each rule has its own non-empty label (reports name the rule a bound came from).
    #[test]
    fn every_rule_has_its_own_label() {
        let rules = [
            SensitivityRule::Proven,
            SensitivityRule::Certified {
                points_per_dim: 8,
                refinement_contexts: 0,
            },
            SensitivityRule::QueryContext {
                points_per_dim: None,
                refinement_contexts: 0,
            },
            SensitivityRule::QueryContext {
                points_per_dim: Some(8),
                refinement_contexts: 0,
            },
            SensitivityRule::PaperEstimate { samples: 10 },
        ];
        let labels: Vec<&str> = rules.iter().map(|r| r.label()).collect();
        for (i, l) in labels.iter().enumerate() {
            assert!(!l.is_empty());
            assert!(!labels[..i].contains(l), "{l} twice");
        }
    }
}
