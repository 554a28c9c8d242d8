//! The prediction stage of Algorithm 1 (lines 15-18): for a new context `c_{T+1}`, sample
//! `x_hat` from the exponential mechanism `E(mu_T(., c_{T+1}), eps, 2 B sup sigma^2)` of
//! Definition 3.2, over the finite action set `X` (exact sampling: papers/README.md).

use std::sync::Arc;

use ndarray::{Array1, ArrayView1};
use privacy::mechanisms::ExponentialMechanism;
use privacy::{Mechanism, PrivacyClaim, PrivacyError};
use rand::Rng;

use crate::error::UscaError;
use crate::estimator::{LearningData, SurrogateVariance, UscaEstimator};
use crate::problem::ContextualProblem;
use crate::sensitivity::SensitivityBound;

/// The prediction stage as a [`Mechanism`]: input the learning data `(W_T, Y_T)` (clipped),
/// output the index of `x_hat` in `X` for the fixed context `c_{T+1}`.
///
/// # Privacy
/// `Z` (hence `sigma^2` and the sensitivity) and `c_{T+1}` are fixed before the data are
/// read: `Z` comes from the algorithm's coins, `c_{T+1}` is the same in both databases of a
/// `t`-neighbouring pair (Definition 2.4). For each action `x`, the utility `mu_T(x, c_{T+1})`
/// moves by at most `Delta = 2 B sup_W sigma^2` ([`crate::sensitivity()`]; with
/// [`crate::SensitivityRule::QueryContext`], by at most `Delta(c_{T+1})`, computed here from `Z`
/// and `c_{T+1}` by [`SensitivityBound::at_context`]), so the exponential
/// mechanism with `exp(eps u / (2 Delta))` is `eps`-DP in the data (McSherry & Talwar 2007,
/// Thm 6; Dwork & Roth 2014, Thm 3.10), provided `Delta` is a bound (not the paper's
/// estimate). The learning stage's queries are uniform and data-independent, so they cost no
/// privacy, and the whole of USCA is `eps`-JDP (Theorem 7.3).
#[derive(Debug, Clone)]
pub struct PredictionStage {
    variance: Arc<SurrogateVariance>,
    problem: ContextualProblem,
    context: Array1<f64>,
    bound: SensitivityBound,
    mechanism: ExponentialMechanism,
}

impl PredictionStage {
    /// The stage for context `c_{T+1} = context` (checked to lie in `C`), privacy budget
    /// `eps > 0` and the sensitivity `bound`, which must be a proven or certified bound (the
    /// paper's estimate is refused: it would make the claim false).
    ///
    /// Each release is one `eps`-DP prediction; `k` predictions on the same data cost `k eps`
    /// (basic composition), as the paper's single `c_{T+1}` does not say.
    pub fn new(
        variance: Arc<SurrogateVariance>,
        problem: ContextualProblem,
        context: Array1<f64>,
        epsilon: f64,
        bound: SensitivityBound,
    ) -> Result<Self, UscaError> {
        problem.contexts().check(context.view(), 0)?;
        if !bound.rule().is_bound() {
            return Err(crate::InputError::Unsatisfied {
                what: "sensitivity of the prediction stage",
                value: bound.sensitivity(),
                requirement: "must be a proven or certified bound, not the paper's estimate",
            }
            .into());
        }
        // A query-context bound is placed at this stage's context (from `Z` and `c` only);
        // the other rules are context-free. Either way the bound must be this variance's.
        let bound = bound.at_context(&variance, &problem, context.view())?;
        let mechanism = ExponentialMechanism::new(epsilon, bound.sensitivity())?;
        Ok(Self {
            variance,
            problem,
            context,
            bound,
            mechanism,
        })
    }

    /// The sensitivity in use (for a query-context rule, placed at this stage's context).
    pub fn bound(&self) -> &SensitivityBound {
        &self.bound
    }

    /// The exponential mechanism in use.
    pub fn mechanism(&self) -> &ExponentialMechanism {
        &self.mechanism
    }

    /// The context `c_{T+1}`.
    pub fn context(&self) -> ArrayView1<'_, f64> {
        self.context.view()
    }

    /// A typed error unless `data` were clipped to at most the `B` of the sensitivity, every
    /// `x_t` is an action of `X` and every `c_t` lies in `C` (the sensitivity argument ranges
    /// over `X x C` and clipped rewards only).
    pub fn check_data(&self, data: &LearningData) -> Result<(), UscaError> {
        if data.bound() > self.bound.reward_bound() {
            return Err(crate::InputError::Unsatisfied {
                what: "clipping bound of the learning data",
                value: data.bound(),
                requirement: "must be at most the B of the sensitivity",
            }
            .into());
        }
        self.problem.check_points(data.points())
    }

    /// The utilities `mu_T(x, c_{T+1})` for every `x` in `X` ([`PredictionStage::check_data`]
    /// first).
    pub fn utilities(&self, data: &LearningData) -> Result<Vec<f64>, UscaError> {
        self.check_data(data)?;
        let e = UscaEstimator::fit(self.variance.clone(), data.clone())?;
        Ok(e.mu(self.problem.joint_all(self.context.view()).view())?
            .to_vec())
    }

    /// The selection probabilities of every action.
    pub fn probabilities(&self, data: &LearningData) -> Result<Vec<f64>, UscaError> {
        Ok(self.mechanism.probabilities(&self.utilities(data)?)?)
    }
}

impl Mechanism for PredictionStage {
    type Input = LearningData;
    type Output = usize;

    fn claim(&self) -> PrivacyClaim {
        let mut c = self.mechanism.claim();
        c.subject = format!(
            "USCA prediction stage ({}; Delta = {:.4})",
            self.bound.rule().label(),
            self.bound.sensitivity()
        );
        // The sensitivity is derived for t-neighbours (one user's datum replaced; docs/usca.md),
        // not for any pair within a sensitivity: the relation is replace-one.
        c.relation = privacy::NeighbouringRelation::ReplaceOne;
        c.neighbouring = "learning data sets that differ in one user's (context, reward), \
                          rewards clipped to [-B, B], the same Z and c_{T+1}"
            .into();
        c
    }

    fn release<R: Rng + ?Sized>(
        &self,
        input: &LearningData,
        rng: &mut R,
    ) -> Result<usize, PrivacyError> {
        let u = self.utilities(input)?;
        self.mechanism.select(&u, rng)
    }
}
