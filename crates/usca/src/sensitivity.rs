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
//!   On a grid of `C` with cells of half-width `h_i` and every `x` of the finite `X`:
//!   `sup_W sigma <= max_grid sigma + tau^{-1/2} d_max`, with
//!   `d_max^2 = 2 sup k_X (k_C(0,0) - k_C(0, h))`, valid for a product kernel whose context
//!   factor is stationary and decreasing in every `|c_i - c'_i|`: the rule accepts only a
//!   [`JointKernel`] (SE or Matérn 5/2 factors) and checks that it is the estimator's kernel
//!   (the same object). It depends only on `Z` (not on the data), so the mechanism stays
//!   `eps`-DP; the result is capped at the proven `sup_diag / tau`. The grid maximum carries the
//!   rounding margin of [`crate::rounding`] (a computed `sigma^2` may fall below the exact one).
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

use ndarray::{Array1, Array2};
use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::error::{InputError, UscaError};
use crate::estimator::SurrogateVariance;
use crate::factored_mu::FactoredSigma2;
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
    /// `points_per_dim` points per context dimension (the Lipschitz argument of the module docs).
    Certified {
        /// Grid points per dimension of `C` (>= 1).
        points_per_dim: usize,
    },
    /// `Delta(c) = 2 B S min(max_x sigma(x, c), S)` at the query context `c` (module docs), with
    /// `S^2` the proven bound on `sup_W sigma^2`, or the certified one from a grid of
    /// `points_per_dim` points per context dimension when that is given. The context-free value
    /// `2 B S^2` is the cap; [`SensitivityBound::at_context`] gives the value at `c`.
    QueryContext {
        /// Grid points per dimension of `C` for a certified `S` (>= 1); `None` for the proven `S`.
        points_per_dim: Option<usize>,
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
            } => "query-context 2B S max_x sigma(x, c), proven S",
            Self::QueryContext {
                points_per_dim: Some(_),
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
        let points_per_dim = match self.rule {
            SensitivityRule::Proven => None,
            SensitivityRule::Certified { points_per_dim } => Some(points_per_dim),
            SensitivityRule::QueryContext { .. } => return Some(*self),
            SensitivityRule::PaperEstimate { .. } => return None,
        };
        Some(Self {
            rule: SensitivityRule::QueryContext { points_per_dim },
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
    let sup_sigma2 = match rule {
        SensitivityRule::Proven => proven,
        SensitivityRule::Certified { points_per_dim } => {
            certified(variance, problem, joint, points_per_dim, proven)?
        }
        SensitivityRule::QueryContext { points_per_dim } => match points_per_dim {
            None => proven,
            Some(points_per_dim) => certified(variance, problem, joint, points_per_dim, proven)?,
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

/// The certified bound on `sup_W sigma^2`, capped at the proven `proven`, after checking that
/// `joint` is given and is the variance's own kernel.
fn certified(
    variance: &SurrogateVariance,
    problem: &ContextualProblem,
    joint: Option<&std::sync::Arc<JointKernel>>,
    points_per_dim: usize,
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
    Ok(certified_sup_sigma2(variance, problem, joint, points_per_dim)?.min(proven))
}

/// `sigma^2` at every action of every row of `contexts` (validated contexts of `C`), context
/// after context (`|X|` values each), with one triangular solve for all of them; `factored`
/// (the variance's own product kernel) gives the action factors of `k_Z` once.
fn sigma2_at_contexts(
    variance: &SurrogateVariance,
    problem: &ContextualProblem,
    factored: Option<&FactoredSigma2<'_>>,
    contexts: ndarray::ArrayView2<'_, f64>,
) -> Result<Array1<f64>, UscaError> {
    let n = problem.actions().len();
    let m = variance.approximating_set().nrows();
    let mut kzw = Array2::zeros((m, n * contexts.nrows()));
    let mut diag = Array1::zeros(n * contexts.nrows());
    for (i, c) in contexts.rows().into_iter().enumerate() {
        let w = problem.joint_all(c);
        let block = match factored {
            Some(f) => f.k_z(c),
            None => variance
                .kernel()
                .cross(variance.approximating_set(), w.view())?,
        };
        for (j, col) in block.columns().into_iter().enumerate() {
            kzw.column_mut(i * n + j).assign(&col);
        }
        for (j, d) in variance.kernel().diag(w.view())?.into_iter().enumerate() {
            diag[i * n + j] = d;
        }
    }
    variance.sigma2_from(kzw.view(), diag.view())
}

/// Grid contexts per triangular solve of the certificate.
const GRID_CHUNK: usize = 32;

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

/// The two parts of the certified bound of the module docs: the largest `sigma` on the grid of
/// cell centres and the Lipschitz slack `tau^{-1/2} d_max` that covers the rest of each cell.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Certificate {
    /// `max sigma(x, g)` over every action `x` and every grid context `g`, as computed.
    pub grid_max_sigma: f64,
    /// `tau^{-1/2} d_max`: how much `sigma` can grow from a grid context to any context of its
    /// cell.
    pub slack: f64,
    /// The rounding margin `M` of [`crate::rounding`] (in units of `sigma^2`), by which a
    /// computed `sigma^2` may fall short of the exact one; `None` when it cannot be made small
    /// (then the certificate is no bound and the rule uses the proven cap).
    pub rounding: Option<f64>,
}

impl Certificate {
    /// The certified bound `(sqrt(grid_max_sigma^2 + M) + slack)^2` on `sup_W sigma^2` (with
    /// the upward roundings of [`RoundingMargin::upper`]), not capped (the rule caps it at
    /// `sup_diag / tau`); infinite without a rounding margin.
    pub fn bound(&self) -> f64 {
        match self.rounding {
            None => f64::INFINITY,
            Some(absolute) => {
                let g = RoundingMargin { absolute }
                    .upper(self.grid_max_sigma * self.grid_max_sigma)
                    .sqrt();
                let b = g + self.slack;
                b * b * (1.0 + 4.0 * f64::EPSILON)
            }
        }
    }
}

/// The certified bound `(max_grid sigma + tau^{-1/2} d_max)^2` of the module docs, not capped
/// (the rule caps it at `sup_diag / tau`). `joint` must be the variance's kernel (the rule
/// checks it; this function is for the verification of the bound itself).
pub fn certified_sup_sigma2(
    variance: &SurrogateVariance,
    problem: &ContextualProblem,
    joint: &JointKernel,
    points_per_dim: usize,
) -> Result<f64, UscaError> {
    Ok(certificate(variance, problem, joint, points_per_dim)?.bound())
}

/// The parts of [`certified_sup_sigma2`] (`n = points_per_dim` cell centres per dimension of
/// `C`, every action of `X`).
pub fn certificate(
    variance: &SurrogateVariance,
    problem: &ContextualProblem,
    joint: &JointKernel,
    points_per_dim: usize,
) -> Result<Certificate, UscaError> {
    let product = joint.product();
    let n = validation::at_least_one("grid points per context dimension", points_per_dim)?;
    let set = problem.contexts().set();
    let dc = set.dim();
    // Cell centres: the grid of n points per dimension at the centres of n equal cells, so every
    // context is within half a cell width h_i = (u_i - l_i) / (2 n) of a grid point per coordinate.
    let counts = vec![n; dc];
    let total: usize = counts.iter().product();
    let mut grid = Array2::zeros((total, dc));
    for (idx, mut row) in grid.rows_mut().into_iter().enumerate() {
        let mut rem = idx;
        for i in 0..dc {
            let j = rem % n;
            rem /= n;
            let (l, u) = (set.lower()[i], set.upper()[i]);
            row[i] = l + (u - l) * (j as f64 + 0.5) / n as f64;
        }
    }
    let half: Array1<f64> = (0..dc)
        .map(|i| (set.upper()[i] - set.lower()[i]) / (2.0 * n as f64))
        .collect();
    let kc = product.context_kernel();
    let zero = Array1::<f64>::zeros(dc);
    let d2 = 2.0
        * product.action_kernel().sup_diag().unwrap_or(f64::INFINITY)
        * (kc.value(zero.view(), zero.view())? - kc.value(zero.view(), half.view())?).max(0.0);
    let factored = FactoredSigma2::new(variance, Some(joint), problem.actions().points());
    let mut max_sigma = 0.0f64;
    // The grid in chunks of contexts, one triangular solve per chunk (the factor is read once
    // per chunk instead of once per context).
    for chunk in grid.axis_chunks_iter(ndarray::Axis(0), GRID_CHUNK) {
        let s2 = sigma2_at_contexts(variance, problem, factored.as_ref(), chunk)?;
        max_sigma = s2.iter().fold(max_sigma, |m, v| m.max(v.sqrt()));
    }
    Ok(Certificate {
        grid_max_sigma: max_sigma,
        slack: (d2 / variance.tau()).sqrt(),
        rounding: RoundingMargin::new(variance).map(|m| m.absolute),
    })
}

/// The point of `W` (an action index and a context on a grid of `points_per_dim` per
/// dimension) with the largest `sigma^2`, and that value: where the prediction-stage audit puts
/// the differing user. `joint`, if it is the variance's own kernel (the same object), lets the
/// action factors be computed once (the same values, faster); any other kernel is ignored.
pub fn argmax_sigma2(
    variance: &SurrogateVariance,
    problem: &ContextualProblem,
    joint: Option<&JointKernel>,
    points_per_dim: usize,
) -> Result<(usize, Array1<f64>, f64), UscaError> {
    let factored = FactoredSigma2::new(variance, joint, problem.actions().points());
    let n = validation::at_least_one("grid points per context dimension", points_per_dim)?;
    let set = problem.contexts().set();
    let dc = set.dim();
    let total = n.pow(dc as u32);
    let mut best = (0, Array1::zeros(dc), f64::NEG_INFINITY);
    for idx in 0..total {
        let mut rem = idx;
        let c: Array1<f64> = (0..dc)
            .map(|i| {
                let j = rem % n;
                rem /= n;
                let (l, u) = (set.lower()[i], set.upper()[i]);
                if n == 1 {
                    0.5 * (l + u)
                } else {
                    l + (u - l) * j as f64 / (n - 1) as f64
                }
            })
            .collect();
        let w = problem.joint_all(c.view());
        let s2 = match &factored {
            Some(f) => f.sigma2(c.view(), w.view())?,
            None => variance.sigma2(w.view())?,
        };
        for (a, &v) in s2.iter().enumerate() {
            if v > best.2 {
                best = (a, c.clone(), v);
            }
        }
    }
    Ok(best)
}
