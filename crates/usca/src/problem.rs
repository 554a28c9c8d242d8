//! The problem of Sec. 2.3: contexts `c ~ kappa` i.i.d. in a compact set `C`, actions `x` in a
//! finite set `X`, rewards `y = f(x, c) + eta` with `f` in the RKHS of a kernel on
//! `W = X x C`, and the error rate `ER` of eq. (1) estimated on fresh contexts.

use std::sync::Arc;

use bandit::domain::{BoxDomain, FiniteDomain};
use bandit::objective::Objective;
use ndarray::{Array1, Array2, ArrayView1, ArrayView2, Axis, concatenate};
use rand::{Rng, RngExt};
use rand_distr::{Distribution, Normal};
use serde::Serialize;

use crate::error::{InputError, UscaError};
use validation::{ensure_finite, non_negative};

/// The context distribution `kappa` on `C` (the paper's context generator, Assumption 2.10).
#[derive(Debug, Clone, PartialEq)]
pub enum ContextDistribution {
    /// Uniform on the box `C`.
    Uniform,
    /// Uniform over a finite list of contexts in `C` (rows). The list is public and must not
    /// depend on the learning data: `Z` is drawn from `kappa`, and the proof needs `Z`
    /// independent of the data (a list of other, public contexts, as in the light-sensor
    /// instance where it is the distribution of the ambient level, is fine).
    Empirical(Array2<f64>),
}

/// The context set `C` (a box: the privacy guarantee ranges over all of it) and `kappa`.
#[derive(Debug, Clone, PartialEq)]
pub struct ContextSpace {
    set: BoxDomain,
    distribution: ContextDistribution,
}

impl ContextSpace {
    /// `kappa` uniform on `C = set`.
    pub fn uniform(set: BoxDomain) -> Self {
        Self {
            set,
            distribution: ContextDistribution::Uniform,
        }
    }

    /// `kappa` uniform over the rows of `contexts`, each of which must lie in `set`.
    pub fn empirical(set: BoxDomain, contexts: Array2<f64>) -> Result<Self, UscaError> {
        let s = Self::uniform(set);
        if contexts.nrows() == 0 {
            return Err(InputError::Empty {
                what: "context list of an empirical context distribution",
            }
            .into());
        }
        s.check_batch(contexts.view())?;
        Ok(Self {
            distribution: ContextDistribution::Empirical(contexts),
            ..s
        })
    }

    /// `dim C`.
    pub fn dim(&self) -> usize {
        self.set.dim()
    }

    /// The box `C`.
    pub fn set(&self) -> &BoxDomain {
        &self.set
    }

    /// `kappa`.
    pub fn distribution(&self) -> &ContextDistribution {
        &self.distribution
    }

    /// A typed error unless `c` is finite, of dimension `dim C` and inside `C` (`index` names
    /// it in the error).
    pub fn check(&self, c: ArrayView1<'_, f64>, index: usize) -> Result<(), UscaError> {
        ensure_finite("context", c.iter())?;
        if c.len() != self.dim() {
            return Err(InputError::DimensionMismatch {
                context: "context (dimension of C)",
                expected: self.dim(),
                got: c.len(),
            }
            .into());
        }
        if !self.set.contains(c) {
            return Err(UscaError::ContextOutside {
                index,
                set: format!("{} x {}", self.set.lower(), self.set.upper()),
            });
        }
        Ok(())
    }

    /// [`ContextSpace::check`] for every row.
    pub fn check_batch(&self, c: ArrayView2<'_, f64>) -> Result<(), UscaError> {
        c.rows()
            .into_iter()
            .enumerate()
            .try_for_each(|(i, r)| self.check(r, i))
    }

    /// `n` i.i.d. contexts from `kappa` (rows). Draw order: uniform: `n` rows of
    /// [`BoxDomain::sample_uniform`]; empirical: `n` indices `random_range(0..len)`.
    pub fn sample<R: Rng + ?Sized>(&self, n: usize, rng: &mut R) -> Array2<f64> {
        match &self.distribution {
            ContextDistribution::Uniform => self.set.sample_uniform(n, rng),
            ContextDistribution::Empirical(list) => {
                let idx: Vec<usize> = (0..n).map(|_| rng.random_range(0..list.nrows())).collect();
                list.select(Axis(0), &idx)
            }
        }
    }
}

/// A contextual kernel bandit problem (Sec. 2.3) on a finite action set.
#[derive(Debug, Clone)]
pub struct ContextualProblem {
    actions: FiniteDomain,
    contexts: ContextSpace,
    reward: Arc<dyn Objective>,
    noise_sd: f64,
}

impl ContextualProblem {
    /// `X = actions` (rows), `C` and `kappa` = `contexts`, mean reward `f(w)` for
    /// `w = [x; c]` (`reward.dim() = dim X + dim C`), Gaussian noise of standard deviation
    /// `noise_sd >= 0` (R-sub-Gaussian with `R = noise_sd`, Assumption 2.6).
    pub fn new(
        actions: FiniteDomain,
        contexts: ContextSpace,
        reward: Arc<dyn Objective>,
        noise_sd: f64,
    ) -> Result<Self, UscaError> {
        let expected = actions.dim() + contexts.dim();
        if reward.dim() != expected {
            return Err(InputError::DimensionMismatch {
                context: "reward function input (dim X + dim C)",
                expected,
                got: reward.dim(),
            }
            .into());
        }
        Ok(Self {
            actions,
            contexts,
            reward,
            noise_sd: non_negative("noise standard deviation", noise_sd)?,
        })
    }

    /// `X`.
    pub fn actions(&self) -> &FiniteDomain {
        &self.actions
    }

    /// `C` and `kappa`.
    pub fn contexts(&self) -> &ContextSpace {
        &self.contexts
    }

    /// The noise standard deviation.
    pub fn noise_sd(&self) -> f64 {
        self.noise_sd
    }

    /// The joint point `w = [x_i; c]` (unchecked).
    pub fn joint(&self, action: usize, c: ArrayView1<'_, f64>) -> Array1<f64> {
        concatenate![Axis(0), self.actions.points().row(action), c]
    }

    /// Check that every row `[x; c]` of `points` is a point of `W = X x C`: `dim X + dim C`
    /// columns, the action part equal to a row of `X`, the context part in `C`. The sensitivity
    /// bound `2 B sup_W sigma^2` covers learning rows in `W` only (`docs/usca.md`).
    pub fn check_points(&self, points: ArrayView2<'_, f64>) -> Result<(), UscaError> {
        let dx = self.actions.dim();
        let dw = dx + self.contexts.dim();
        validation::matching_dimension(
            "learning points (columns = dim X + dim C)",
            dw,
            points.ncols(),
        )?;
        let (xs, cs) = points.split_at(Axis(1), dx);
        self.contexts.check_batch(cs)?;
        let actions = self.actions.points();
        for (t, x) in xs.rows().into_iter().enumerate() {
            if !actions.rows().into_iter().any(|a| a == x) {
                return Err(InputError::IndexOutOfRange {
                    what: "learning row whose action is not in X; row",
                    index: t,
                    len: points.nrows(),
                }
                .into());
            }
        }
        Ok(())
    }

    /// The joint points `[x_i; c]` of every action for one context: an `|X| x (dim W)` batch.
    pub fn joint_all(&self, c: ArrayView1<'_, f64>) -> Array2<f64> {
        let n = self.actions.len();
        let ctx = c.insert_axis(Axis(0));
        let ctx = ctx.broadcast((n, c.len())).expect("one row broadcasts");
        concatenate![Axis(1), self.actions.points(), ctx]
    }

    /// `f(x_i, c)` for every action `i` (the context is checked).
    pub fn means(&self, c: ArrayView1<'_, f64>) -> Result<Array1<f64>, UscaError> {
        self.contexts.check(c, 0)?;
        Ok(self
            .joint_all(c)
            .rows()
            .into_iter()
            .map(|w| self.reward.value_unchecked(w))
            .collect())
    }

    /// A noisy reward `f(x_i, c) + eta`, `eta ~ N(0, noise_sd^2)`.
    pub fn observe<R: Rng + ?Sized>(
        &self,
        action: usize,
        c: ArrayView1<'_, f64>,
        rng: &mut R,
    ) -> Result<f64, UscaError> {
        validation::index_in("action", action, self.actions.len())?;
        self.contexts.check(c, 0)?;
        let f = self.reward.value_unchecked(self.joint(action, c).view());
        if self.noise_sd == 0.0 {
            return Ok(f);
        }
        let n = Normal::new(0.0, self.noise_sd).map_err(|_| InputError::NotPositive {
            what: "noise standard deviation",
            value: self.noise_sd,
        })?;
        Ok(f + n.sample(rng))
    }

    /// The error rate of eq. (1) of a predictor that, for a context `c`, returns a probability
    /// vector over `X` (one-hot for a deterministic predictor, the exponential mechanism's
    /// selection probabilities for a private one): the mean over `n_contexts` fresh contexts
    /// `c ~ kappa` of `max_i f(x_i, c) - sum_i p_i(c) f(x_i, c)`, which is the error rate in
    /// expectation over the predictor's own coins, with its standard error.
    pub fn error_rate<R, P>(
        &self,
        mut predictor: P,
        n_contexts: usize,
        rng: &mut R,
    ) -> Result<ErrorRate, UscaError>
    where
        R: Rng + ?Sized,
        P: FnMut(ArrayView1<'_, f64>) -> Result<Vec<f64>, UscaError>,
    {
        validation::at_least_one("number of evaluation contexts", n_contexts)?;
        let contexts = self.contexts.sample(n_contexts, rng);
        let mut gaps = Vec::with_capacity(n_contexts);
        for c in contexts.rows() {
            let f = self.means(c)?;
            let p = predictor(c)?;
            if p.len() != f.len() {
                return Err(InputError::DimensionMismatch {
                    context: "predictor probabilities (one per action)",
                    expected: f.len(),
                    got: p.len(),
                }
                .into());
            }
            let best = f.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let got: f64 = p.iter().zip(f.iter()).map(|(p, f)| p * f).sum();
            gaps.push((best - got).max(0.0));
        }
        Ok(ErrorRate::of(&gaps))
    }
}

/// A problem with its kernel on `W` (a [`JointKernel`](crate::JointKernel), so that the
/// certified sensitivity applies; pass `inst.kernel.clone()` as the estimator's kernel and
/// `Some(&inst.kernel)` as the certified rule's).
#[derive(Debug, Clone)]
pub struct Instance {
    /// The problem.
    pub problem: ContextualProblem,
    /// The kernel on `W`.
    pub kernel: Arc<crate::JointKernel>,
}

/// An estimate of the error rate of eq. (1) over `n` fresh contexts.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ErrorRate {
    /// The mean gap `max_x f(x, c) - E f(x_hat(c), c)` over the contexts.
    pub mean: f64,
    /// Its standard error `sd / sqrt(n)`.
    pub standard_error: f64,
    /// The number of contexts.
    pub n: usize,
}

impl ErrorRate {
    /// The mean and standard error of `gaps`.
    pub fn of(gaps: &[f64]) -> Self {
        let n = gaps.len();
        let mean = gaps.iter().sum::<f64>() / n.max(1) as f64;
        let var = if n > 1 {
            gaps.iter().map(|g| (g - mean) * (g - mean)).sum::<f64>() / (n - 1) as f64
        } else {
            0.0
        };
        Self {
            mean,
            standard_error: (var / n.max(1) as f64).sqrt(),
            n,
        }
    }

    /// The normal-approximation 95% interval `mean +- 1.96 se`.
    pub fn interval95(&self) -> (f64, f64) {
        (
            self.mean - 1.96 * self.standard_error,
            self.mean + 1.96 * self.standard_error,
        )
    }
}
