//! Environments: where decision sets and rewards come from.
//!
//! An environment described by its current round ([`RoundState`]: decision set, means, the
//! regret's reference) implements [`RoundEnvironment`] and is an [`Environment`] by the blanket
//! implementation below; wrappers ([`Annotated`], [`BestOfSet`]) and recorded streams implement
//! [`Environment`] directly.

mod round;

pub use round::{RoundEnvironment, RoundState};

use ndarray::{Array1, Array2, ArrayView2};
use rand::Rng;

use crate::domain::BoxDomain;
use crate::error::{BanditError, InputError};
use crate::noise::RewardModel;
use crate::objective::Objective;
use validation::{Interval, ensure_finite, in_range, index_in};

/// A bandit environment: each round it offers a decision set (fixed or freshly drawn), knows
/// the mean reward `f(x)` of every candidate (for the pseudo-regret, never shown to the
/// agent) and draws a raw reward for the chosen one.
pub trait Environment {
    /// Dimension of the points of the decision sets.
    fn dim(&self) -> usize;

    /// Prepare round `round` (0-based): draw a new decision set if the environment has
    /// changing ones. Fixed-domain environments do nothing.
    fn begin_round<R: Rng + ?Sized>(
        &mut self,
        round: usize,
        rng: &mut R,
    ) -> Result<(), BanditError>;

    /// The current decision set, `n x d`, one candidate per row (never empty).
    fn decision_set(&self) -> ArrayView2<'_, f64>;

    /// The mean reward `f(x)` of row `action` of the current decision set.
    fn mean_reward(&self, action: usize) -> f64;

    /// The reference value of the pseudo-regret this round: `f(x*)`, the largest mean reward
    /// available (over the current decision set, or the known global maximum for
    /// environments that sample candidates from a continuous domain).
    fn optimal_mean(&self) -> f64;

    /// Draw the raw reward of row `action` of the current decision set.
    fn sample_reward<R: Rng + ?Sized>(
        &mut self,
        action: usize,
        rng: &mut R,
    ) -> Result<f64, BanditError>;
}

/// Every [`RoundEnvironment`] is an [`Environment`]: the decision set, the means and the
/// regret's reference are its [`RoundState`]'s.
impl<T: RoundEnvironment> Environment for T {
    fn dim(&self) -> usize {
        self.round_state().points().ncols()
    }

    fn begin_round<R: Rng + ?Sized>(
        &mut self,
        round: usize,
        rng: &mut R,
    ) -> Result<(), BanditError> {
        self.next_round(round, rng)
    }

    fn decision_set(&self) -> ArrayView2<'_, f64> {
        self.round_state().points()
    }

    fn mean_reward(&self, action: usize) -> f64 {
        self.round_state().mean(action)
    }

    fn optimal_mean(&self) -> f64 {
        self.round_state().best()
    }

    fn sample_reward<R: Rng + ?Sized>(
        &mut self,
        action: usize,
        rng: &mut R,
    ) -> Result<f64, BanditError> {
        self.draw_reward(action, rng)
    }
}

/// A fixed finite decision set with known means and a reward model: the Zhou & Tan and
/// DP-FTS-DE synthetic problems, benchmark functions on a grid, and the data-set problems.
#[derive(Debug, Clone)]
pub struct FixedSetEnvironment {
    /// The one decision set, its means and its best mean (the same every round).
    state: RoundState,
    reward: RewardModel,
}

impl FixedSetEnvironment {
    /// Validate: non-empty, finite points and means, one mean per point, a valid reward model
    /// (Bernoulli rewards need every mean in `[0, 1]`; a [`RewardModel::Rows`] table needs one
    /// column per point, in the same order, and its column means are the expected rewards, so
    /// `means` should be them).
    pub fn new(
        points: Array2<f64>,
        means: Array1<f64>,
        reward: RewardModel,
    ) -> Result<Self, BanditError> {
        if points.nrows() == 0 || points.ncols() == 0 {
            return Err(BanditError::Input(InputError::Empty {
                what: "decision set",
            }));
        }
        ensure_finite("decision set", points.iter())?;
        if means.len() != points.nrows() {
            return Err(BanditError::Input(InputError::DimensionMismatch {
                context: "mean rewards (one per point)",
                expected: points.nrows(),
                got: means.len(),
            }));
        }
        ensure_finite("mean rewards", means.iter())?;
        reward.validate()?;
        if matches!(reward, RewardModel::Bernoulli) {
            for &m in &means {
                in_range("mean reward of a Bernoulli arm", m, Interval::UNIT)?;
            }
        }
        if let RewardModel::Rows(r) = &reward
            && r.table().ncols() != points.nrows()
        {
            return Err(BanditError::Input(InputError::DimensionMismatch {
                context: "reward table columns (one per arm)",
                expected: points.nrows(),
                got: r.table().ncols(),
            }));
        }
        Ok(Self {
            state: RoundState::best_of_set(points, means),
            reward,
        })
    }

    /// Evaluate `objective` on `points` and build the environment.
    pub fn from_objective<O: Objective + ?Sized>(
        objective: &O,
        points: Array2<f64>,
        reward: RewardModel,
    ) -> Result<Self, BanditError> {
        let means = objective.values(points.view())?;
        Self::new(points, means, reward)
    }

    /// The mean rewards of all points.
    pub fn means(&self) -> &Array1<f64> {
        self.state.means()
    }

    /// The reward model.
    pub fn reward_model(&self) -> &RewardModel {
        &self.reward
    }

    /// The index of a best point (the first one attaining the maximum mean).
    pub fn best_action(&self) -> usize {
        self.state
            .means()
            .iter()
            .position(|&v| v >= self.state.best())
            .unwrap_or(0)
    }
}

impl RoundEnvironment for FixedSetEnvironment {
    fn round_state(&self) -> &RoundState {
        &self.state
    }

    /// The decision set is fixed: nothing to draw.
    fn next_round<R: Rng + ?Sized>(
        &mut self,
        _round: usize,
        _rng: &mut R,
    ) -> Result<(), BanditError> {
        Ok(())
    }

    fn draw_reward<R: Rng + ?Sized>(
        &mut self,
        action: usize,
        rng: &mut R,
    ) -> Result<f64, BanditError> {
        self.reward.sample(self.state.mean(action), action, rng)
    }
}

/// A continuous box: every round the decision set is `n` fresh uniform points of the box, and
/// the pseudo-regret is measured against the objective's known global maximum on the box
/// (the Mutny & Krause benchmarks), so that it is the regret of the continuous problem.
/// The decision set is empty until the first [`Environment::begin_round`] (the runner always
/// calls it first).
#[derive(Debug, Clone)]
pub struct SampledBoxEnvironment<O> {
    objective: O,
    bounds: BoxDomain,
    n_candidates: usize,
    optimum: f64,
    reward: RewardModel,
    /// The round's candidates and their means; the reference is the global maximum.
    state: RoundState,
}

impl<O: Objective> SampledBoxEnvironment<O> {
    /// Build from an objective whose maximum on `bounds` is known
    /// ([`Objective::maximum`]); `n_candidates >= 1` uniform points are drawn per round.
    /// The reward model must be additive or Bernoulli (not [`RewardModel::Rows`]).
    pub fn new(
        objective: O,
        bounds: BoxDomain,
        n_candidates: usize,
        reward: RewardModel,
    ) -> Result<Self, BanditError> {
        if n_candidates == 0 {
            return Err(BanditError::Input(InputError::Empty {
                what: "decision set (n_candidates = 0)",
            }));
        }
        if objective.dim() != bounds.dim() {
            return Err(BanditError::Input(InputError::DimensionMismatch {
                context: "objective on a box",
                expected: bounds.dim(),
                got: objective.dim(),
            }));
        }
        reward.validate()?;
        if matches!(reward, RewardModel::Rows(_)) {
            return Err(BanditError::RewardModelUnsupported {
                reason: "data rows need arm indices; a continuous box needs an additive noise \
                         model or Bernoulli",
            });
        }
        let optimum = objective
            .maximum()
            .ok_or(BanditError::MaximumUnknown)?
            .value;
        let d = bounds.dim();
        Ok(Self {
            objective,
            bounds,
            n_candidates,
            optimum,
            reward,
            // No candidate before the first round; the reference is known from the start.
            state: RoundState::new(Array2::zeros((0, d)), Array1::zeros(0), optimum),
        })
    }
}

impl<O: Objective> RoundEnvironment for SampledBoxEnvironment<O> {
    fn round_state(&self) -> &RoundState {
        &self.state
    }

    fn next_round<R: Rng + ?Sized>(
        &mut self,
        _round: usize,
        rng: &mut R,
    ) -> Result<(), BanditError> {
        let candidates = self.bounds.sample_uniform(self.n_candidates, rng);
        let means = self.objective.values(candidates.view())?;
        self.state = RoundState::new(candidates, means, self.optimum);
        Ok(())
    }

    fn draw_reward<R: Rng + ?Sized>(
        &mut self,
        action: usize,
        rng: &mut R,
    ) -> Result<f64, BanditError> {
        self.reward.sample(self.state.mean(action), action, rng)
    }
}

/// An environment together with facts about its instance that an agent factory may need
/// (the RKHS-norm bound `B` of a drawn objective, its kernel, ...). It behaves exactly like
/// `env`; `info` is never seen by the agent unless its factory passes it on.
#[derive(Debug, Clone)]
pub struct Annotated<E, I> {
    /// The environment.
    pub env: E,
    /// The instance facts.
    pub info: I,
}

impl<E: Environment, I> Environment for Annotated<E, I> {
    fn dim(&self) -> usize {
        self.env.dim()
    }

    fn begin_round<R: Rng + ?Sized>(
        &mut self,
        round: usize,
        rng: &mut R,
    ) -> Result<(), BanditError> {
        self.env.begin_round(round, rng)
    }

    fn decision_set(&self) -> ArrayView2<'_, f64> {
        self.env.decision_set()
    }

    fn mean_reward(&self, action: usize) -> f64 {
        self.env.mean_reward(action)
    }

    fn optimal_mean(&self) -> f64 {
        self.env.optimal_mean()
    }

    fn sample_reward<R: Rng + ?Sized>(
        &mut self,
        action: usize,
        rng: &mut R,
    ) -> Result<f64, BanditError> {
        self.env.sample_reward(action, rng)
    }
}

/// An environment whose regret is measured against the best point of the decision set `D_t`
/// (the definition of regret of Dubey 2021, Sec. 2: `max_{x in D_t} f(x) - f(x_t)`) rather than
/// against the global maximum: it behaves exactly like `env` except that
/// [`Environment::optimal_mean`] is the largest mean reward of the round's decision set.
#[derive(Debug, Clone)]
pub struct BestOfSet<E> {
    env: E,
    best: f64,
}

impl<E: Environment> BestOfSet<E> {
    /// Wrap `env`.
    pub fn new(env: E) -> Self {
        Self {
            env,
            best: f64::NAN,
        }
    }
}

impl<E: Environment> Environment for BestOfSet<E> {
    fn dim(&self) -> usize {
        self.env.dim()
    }

    fn begin_round<R: Rng + ?Sized>(
        &mut self,
        round: usize,
        rng: &mut R,
    ) -> Result<(), BanditError> {
        self.env.begin_round(round, rng)?;
        let n = self.env.decision_set().nrows();
        self.best = (0..n)
            .map(|i| self.env.mean_reward(i))
            .fold(f64::NEG_INFINITY, f64::max);
        Ok(())
    }

    fn decision_set(&self) -> ArrayView2<'_, f64> {
        self.env.decision_set()
    }

    fn mean_reward(&self, action: usize) -> f64 {
        self.env.mean_reward(action)
    }

    fn optimal_mean(&self) -> f64 {
        self.best
    }

    fn sample_reward<R: Rng + ?Sized>(
        &mut self,
        action: usize,
        rng: &mut R,
    ) -> Result<f64, BanditError> {
        self.env.sample_reward(action, rng)
    }
}

/// A recorded data stream on a fixed arm set: in round `t` the environment is user `t`, whose
/// raw reward for arm `a` is `rewards[[t, a]]` (no randomness). The mean reward of an arm in
/// round `t` is that user's reward, so the pseudo-regret is the regret against the best arm
/// for each user.
///
/// This is the data a privacy audit of a whole pipeline needs: two neighbouring streams differ
/// in one user's row, and everything the learner sees is a function of the stream and the
/// mechanisms' noise.
#[derive(Debug, Clone)]
pub struct RecordedStream {
    arms: Array2<f64>,
    rewards: Array2<f64>,
    round: usize,
}

impl RecordedStream {
    /// Validate: a non-empty finite arm set (`n x d`), and a finite reward table with one row
    /// per round and one column per arm.
    pub fn new(arms: Array2<f64>, rewards: Array2<f64>) -> Result<Self, BanditError> {
        if arms.nrows() == 0 || arms.ncols() == 0 {
            return Err(BanditError::Input(InputError::Empty { what: "arm set" }));
        }
        if rewards.nrows() == 0 {
            return Err(BanditError::Input(InputError::Empty {
                what: "recorded reward stream",
            }));
        }
        if rewards.ncols() != arms.nrows() {
            return Err(BanditError::Input(InputError::DimensionMismatch {
                context: "recorded rewards: one column per arm",
                expected: arms.nrows(),
                got: rewards.ncols(),
            }));
        }
        ensure_finite("arm coordinate", arms.iter())?;
        ensure_finite("recorded reward", rewards.iter())?;
        Ok(Self {
            arms,
            rewards,
            round: 0,
        })
    }

    /// The number of recorded rounds (users).
    pub fn rounds(&self) -> usize {
        self.rewards.nrows()
    }
}

impl Environment for RecordedStream {
    fn dim(&self) -> usize {
        self.arms.ncols()
    }

    fn begin_round<R: Rng + ?Sized>(
        &mut self,
        round: usize,
        _rng: &mut R,
    ) -> Result<(), BanditError> {
        index_in("round of a recorded stream", round, self.rewards.nrows())?;
        self.round = round;
        Ok(())
    }

    fn decision_set(&self) -> ArrayView2<'_, f64> {
        self.arms.view()
    }

    fn mean_reward(&self, action: usize) -> f64 {
        self.rewards[[self.round, action]]
    }

    fn optimal_mean(&self) -> f64 {
        self.rewards
            .row(self.round)
            .iter()
            .copied()
            .fold(f64::NEG_INFINITY, f64::max)
    }

    fn sample_reward<R: Rng + ?Sized>(
        &mut self,
        action: usize,
        _rng: &mut R,
    ) -> Result<f64, BanditError> {
        if action >= self.arms.nrows() {
            return Err(BanditError::ActionOutOfRange {
                round: self.round,
                action,
                n_actions: self.arms.nrows(),
            });
        }
        Ok(self.rewards[[self.round, action]])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::noise::RewardModel;
    use crate::objective::Camelback;
    use rand::SeedableRng;
    use rand_chacha::ChaCha20Rng;

    #[test]
    fn best_of_set_measures_regret_against_the_rounds_best_point() {
        let inner = SampledBoxEnvironment::new(
            Camelback,
            crate::domain::BoxDomain::cube(2, -0.5, 0.5).unwrap(),
            5,
            RewardModel::gaussian(0.1).unwrap(),
        )
        .unwrap();
        let mut env = BestOfSet::new(inner.clone());
        let mut rng = ChaCha20Rng::seed_from_u64(3);
        env.begin_round(1, &mut rng).unwrap();
        let means: Vec<f64> = (0..5).map(|i| env.mean_reward(i)).collect();
        let best = means.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        assert_eq!(env.optimal_mean().to_bits(), best.to_bits());
        // The global maximum of Camelback (1.03) is above the best of 5 points of the box.
        assert!(inner.optimal_mean() > best);
        assert_eq!(env.decision_set().nrows(), 5);
    }
}
