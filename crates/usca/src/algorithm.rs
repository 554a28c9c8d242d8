//! Algorithm 1 (USCA) end to end: the learning stage, the approximating set, the estimator and
//! the private prediction.

use std::sync::Arc;

use kernel::Kernel;
use ndarray::{Array1, ArrayView1, Axis, concatenate};
use rand::{Rng, RngExt};
use serde::Serialize;
use validation::Valid;

use crate::approximating_set::{paper_k, sample_approximating_set};
use crate::error::UscaError;
use crate::estimator::{LearningData, SurrogateVariance, UscaEstimator};
use crate::factored_mu::FactoredMu;
use crate::gamma::DesignSpectrum;
use crate::joint_kernel::JointKernel;
use crate::params::UscaParams;
use crate::prediction::PredictionStage;
use crate::problem::ContextualProblem;
use crate::sensitivity::{SensitivityBound, sensitivity};

/// Algorithm 1, lines 3-8 (the learning stage): for `t = 1..T`, receive `c_t ~ kappa`, query
/// `x_t` uniformly at random from `X` (independent of everything seen), observe `y_t`; record
/// `w_t = [x_t; c_t]` and `y_t` clipped to `[-B, B]`.
///
/// Draw order: the `T` contexts, then the `T` action indices, then the `T` noises.
pub fn learning_stage<R: Rng + ?Sized>(
    problem: &ContextualProblem,
    t: usize,
    b: f64,
    rng: &mut R,
) -> Result<LearningData, UscaError> {
    validation::at_least_one("T (learning rounds)", t)?;
    let contexts = problem.contexts().sample(t, rng);
    let n = problem.actions().len();
    let actions: Vec<usize> = (0..t).map(|_| rng.random_range(0..n)).collect();
    let mut rewards = Array1::zeros(t);
    for (i, (&a, c)) in actions.iter().zip(contexts.rows()).enumerate() {
        rewards[i] = problem.observe(a, c, rng)?;
    }
    let xs = problem.actions().points().select(Axis(0), &actions);
    LearningData::new(concatenate![Axis(1), xs, contexts], rewards, b)
}

/// What USCA built from the learning stage: `gamma_T`, `K`, `Z`, `sigma^2`, `mu_T` and the
/// sensitivity, ready to predict for any new context.
#[derive(Debug, Clone)]
pub struct Usca {
    problem: ContextualProblem,
    params: Valid<UscaParams>,
    estimator: UscaEstimator,
    bound: SensitivityBound,
    summary: UscaSummary,
    /// The action factors of `mu_T` when the kernel is the given [`JointKernel`] (the same
    /// `Arc`): the same utilities, bit for bit, at a fraction of the cost.
    pub(crate) factored: Option<FactoredMu>,
}

/// The numbers of a fitted [`Usca`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct UscaSummary {
    /// `T`.
    pub horizon: usize,
    /// The estimate of `gamma_T` ([`DesignSpectrum::gamma`]).
    pub gamma_t: f64,
    /// `K = ceil(T / gamma_T)`.
    pub k: usize,
    /// `|Z|`.
    pub z_size: usize,
    /// The regulariser `rho` of `K_ZZ + rho I` ([`crate::Regulariser`]).
    pub rho: f64,
    /// The sensitivity.
    pub bound: SensitivityBound,
}

impl Usca {
    /// Run the learning stage for `T` rounds on `problem` with the environment's `env` (its
    /// contexts and noise) and build the estimator with the algorithm's own `coins` (Algorithm
    /// 1, lines 1-14): two streams, so that `Z` is independent of the data. `joint` (the same
    /// `Arc` as `kernel`) is needed only by [`crate::SensitivityRule::Certified`].
    pub fn learn<E: Rng + ?Sized, R: Rng + ?Sized>(
        problem: &ContextualProblem,
        kernel: Arc<dyn Kernel>,
        joint: Option<&Arc<JointKernel>>,
        params: UscaParams,
        t: usize,
        env: &mut E,
        coins: &mut R,
    ) -> Result<Self, UscaError> {
        let params = params.validate()?;
        let data = learning_stage(problem, t, params.reward_bound, env)?;
        Self::from_data(problem, kernel, joint, *params, data, coins)
    }

    /// Lines 9-14 on given learning data, clipped to the parameters' `B` (checked), whose
    /// contexts lie in `C` (checked). `rng` is the algorithm's coins (independent of the data).
    ///
    /// Draw order: the design sample for `gamma_T` ([`sample_approximating_set`] with
    /// `design_sample` points), then `Z` (same function), then the sensitivity's own draws.
    pub fn from_data<R: Rng + ?Sized>(
        problem: &ContextualProblem,
        kernel: Arc<dyn Kernel>,
        joint: Option<&Arc<JointKernel>>,
        params: UscaParams,
        data: LearningData,
        rng: &mut R,
    ) -> Result<Self, UscaError> {
        let params = params.validate()?;
        #[allow(clippy::float_cmp)] // the same parameter, passed through
        if data.bound() != params.reward_bound {
            return Err(crate::InputError::Unsatisfied {
                what: "clipping bound of the learning data",
                value: data.bound(),
                requirement: "must equal the parameters' reward bound B (the sensitivity uses B)",
            }
            .into());
        }
        problem.check_points(data.points())?;
        let t = data.len();
        let design = sample_approximating_set(problem, params.design_sample, rng)?;
        let gamma_t =
            DesignSpectrum::estimate(kernel.as_ref(), design.view())?.gamma(t, params.tau)?;
        let z_size = params.approximating_set.size(t, gamma_t)?;
        let z = sample_approximating_set(problem, z_size, rng)?;
        let k = paper_k(t, gamma_t);
        let rho = params.regulariser.rho(z_size, t, k, params.tau)?;
        let variance = Arc::new(SurrogateVariance::with_rho(kernel, z, t, params.tau, rho)?);
        let bound = sensitivity(
            params.sensitivity,
            &variance,
            problem,
            joint,
            params.reward_bound,
            rng,
        )?;
        let estimator = UscaEstimator::fit(variance, data)?;
        let factored = joint
            .filter(|j| j.is(estimator.variance().kernel()))
            .map(|j| FactoredMu::new(Arc::clone(j), problem.actions().points(), &estimator));
        Ok(Self {
            problem: problem.clone(),
            params,
            estimator,
            factored,
            bound,
            summary: UscaSummary {
                horizon: t,
                gamma_t,
                k,
                z_size,
                rho,
                bound,
            },
        })
    }

    /// The numbers.
    pub fn summary(&self) -> UscaSummary {
        self.summary
    }

    /// The estimator `mu_T`.
    pub fn estimator(&self) -> &UscaEstimator {
        &self.estimator
    }

    /// The parameters.
    pub fn params(&self) -> &UscaParams {
        &self.params
    }

    /// The prediction stage for context `c_{T+1}` with budget `eps` (lines 15-18).
    pub fn prediction_stage(
        &self,
        context: ArrayView1<'_, f64>,
        epsilon: f64,
    ) -> Result<PredictionStage, UscaError> {
        PredictionStage::new(
            self.estimator.variance().clone(),
            self.problem.clone(),
            context.to_owned(),
            epsilon,
            self.bound,
        )
    }

    /// `mu_T(x, c)` for every action.
    pub fn utilities(&self, context: ArrayView1<'_, f64>) -> Result<Array1<f64>, UscaError> {
        self.problem.contexts().check(context, 0)?;
        match &self.factored {
            Some(f) => Ok(f.mu(&self.estimator, context)),
            None => self.estimator.mu(self.problem.joint_all(context).view()),
        }
    }

    /// The selection probabilities of the exponential mechanism at `c` for `eps > 0` with the
    /// fitted sensitivity (with [`crate::SensitivityRule::PaperEstimate`] this is the paper's
    /// variant, for comparison only: no privacy claim; [`Usca::predict`] refuses it), or for
    /// `eps = inf` the non-private predictor `argmax_x mu_T(x, c)` ([`argmax_distribution`]).
    pub fn probabilities(
        &self,
        context: ArrayView1<'_, f64>,
        epsilon: f64,
    ) -> Result<Vec<f64>, UscaError> {
        let u = self.utilities(context)?;
        if epsilon == f64::INFINITY {
            return predictor_probabilities(&u.to_vec(), epsilon, self.bound.sensitivity());
        }
        let bound = self.sensitivity_at(context)?;
        predictor_probabilities(&u.to_vec(), epsilon, bound.sensitivity())
    }

    /// The sensitivity of the prediction at context `c`: the fitted bound, placed at `c` for
    /// [`crate::SensitivityRule::QueryContext`] ([`SensitivityBound::at_context`]).
    pub fn sensitivity_at(
        &self,
        context: ArrayView1<'_, f64>,
    ) -> Result<SensitivityBound, UscaError> {
        self.bound
            .at_context(self.estimator.variance(), &self.problem, context)
    }

    /// Sample `x_hat(c)` (an index of `X`) with budget `eps > 0`.
    pub fn predict<R: Rng + ?Sized>(
        &self,
        context: ArrayView1<'_, f64>,
        epsilon: f64,
        rng: &mut R,
    ) -> Result<usize, UscaError> {
        let stage = self.prediction_stage(context, epsilon)?;
        let u = self.utilities(context)?;
        Ok(stage.mechanism().select(&u.to_vec(), rng)?)
    }
}

/// The selection probabilities of a predictor on utilities `u`: for `eps = inf` the
/// non-private `argmax` ([`argmax_distribution`]), else the exponential mechanism with budget
/// `eps` and utility sensitivity `sensitivity` (shared by USCA and the posterior-mean baselines).
pub fn predictor_probabilities(
    u: &[f64],
    epsilon: f64,
    sensitivity: f64,
) -> Result<Vec<f64>, UscaError> {
    if epsilon == f64::INFINITY {
        return Ok(argmax_distribution(ArrayView1::from(u)));
    }
    Ok(privacy::mechanisms::ExponentialMechanism::new(epsilon, sensitivity)?.probabilities(u)?)
}

/// The predictor `argmax_x u(x)` as a distribution: uniform over the bit-equal maxima (the
/// workspace's tie rule, [`bandit::policy::argmax`], in expectation over its coin).
pub fn argmax_distribution(u: ArrayView1<'_, f64>) -> Vec<f64> {
    let m = u.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    #[allow(clippy::float_cmp)] // bit-equal maxima are the ties of the tie rule
    let ties: Vec<bool> = u.iter().map(|&v| v == m).collect();
    let k = ties.iter().filter(|&&t| t).count().max(1) as f64;
    ties.iter()
        .map(|&t| if t { 1.0 / k } else { 0.0 })
        .collect()
}
