//! The seeded trial runner: one trial wires an environment, a curator and an agent together
//! and records the pseudo-regret; a batch runs trials in parallel (rayon) with results that
//! are bit-identical whatever the number of threads.
//!
//! # Seeding (reproducible in any language)
//!
//! Trial `i` of a batch with base seed `s` gives each of its three components its own
//! ChaCha20 stream, so that the environment's randomness (its random instance, decision sets
//! and reward noise) is the same whatever agent or curator runs against it:
//!
//! - key: the 32 bytes of four consecutive SplitMix64 outputs from state `s`, each written
//!   little-endian ([`seed_key`]);
//! - stream: `4 i + role`, with role 0 for the environment, 1 for the agent, 2 for the curator
//!   ([`Role`]); the word position starts at 0.
//!
//! (These live in [`crate::seed`], with the SplitMix64 mixer itself; the runner re-exports
//! them.)
//!
//! A component's factory and its per-round calls draw from the same stream, in that order.
//! Trials share nothing, so running them in parallel changes nothing but the wall time.
//!
//! # Regret
//!
//! Round `t` (0-based) records the instantaneous pseudo-regret
//! `r_t = f(x*_t) - f(x_t)`, with `f(x*_t)` = [`Environment::optimal_mean`];
//! the cumulative regret `R_t = sum_{s <= t} r_s`; and the simple regret
//! `S_t = min_{s <= t} r_s`, which on a fixed decision set is `f(x*) - max_{s <= t} f(x_s)`
//! (the gap of the best point played so far).
//!
//! # Running
//!
//! [`Runner`] is the one way in: `Runner::new(config, make_env, make_agent)`, optionally
//! `.curator(make_curator)`, then `.trials()` (the batch), `.trial(i)` or
//! `.trial_observed(i, &mut observer)`. [`run_trial`] is the loop itself, on components
//! already built.
//!
//! # Observing a trial
//!
//! [`Runner::trial_observed`] (and [`run_trial`]) hand a [`RoundObserver`] each round's
//! decision set, action, raw reward (trusted side) and the curator's message, after the
//! curator released it and before the agent receives it: a [`Transcript`] records them, a
//! closure `|r: &RoundView<'_, M>| ...` sees them, `()` watches nothing. The observer draws no
//! randomness, so an observed run makes exactly the same draws and records the same
//! [`TrialRecord`].

use std::convert::Infallible;
use std::io::Write;

use ndarray::{Array2, ArrayView2};
use rand_chacha::ChaCha20Rng;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::agent::{Agent, Curator, Feedback, Identity};
use crate::env::Environment;
use crate::error::{BanditError, InputError};
pub use crate::seed::{Role, seed_key, trial_rng};

/// What a batch runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunConfig {
    /// Rounds per trial `T`.
    pub horizon: usize,
    /// Number of trials of the whole batch (a shard runs a block of them, seeded as in the
    /// whole batch).
    pub n_trials: usize,
    /// Base seed (see the module docs for how trial seeds derive from it).
    pub base_seed: u64,
    /// Run only this shard's block of the trials ([`Shard::trials`]); `None`: every trial.
    /// Absent from the JSON of a whole batch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
}

impl RunConfig {
    /// One trial (trial 0) of `horizon` rounds under `base_seed`: e.g. the seeded regret curve
    /// of a regret-scaling check.
    pub fn single(horizon: usize, base_seed: u64) -> Self {
        Self {
            horizon,
            n_trials: 1,
            base_seed,
            shard: None,
        }
    }

    /// The trial indices this configuration runs, in order: `0..n_trials`, or the block of its
    /// [`shard`](Self::shard). Every loop over the trials of a batch goes over these, so that a
    /// shard runs exactly its share.
    pub fn trial_indices(&self) -> std::ops::Range<usize> {
        self.shard
            .map_or(0..self.n_trials, |s| s.trials(self.n_trials))
    }
}

/// Shard `index` of `count` of every batch: the block of trials [`Shard::trials`] gives it.
/// Trial `i` keeps its seed from `(base seed, i)`, so the shards' records, concatenated in
/// shard order, are the whole batch's bit for bit. Written and read as `index/count` (`0/4`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "ShardParts", into = "ShardParts")]
pub struct Shard {
    index: usize,
    count: usize,
}

/// The serde form of a [`Shard`] (validated on the way in).
#[derive(Serialize, Deserialize)]
struct ShardParts {
    index: usize,
    count: usize,
}

impl TryFrom<ShardParts> for Shard {
    type Error = BanditError;

    fn try_from(p: ShardParts) -> Result<Self, BanditError> {
        Shard::new(p.index, p.count)
    }
}

impl From<Shard> for ShardParts {
    fn from(s: Shard) -> Self {
        Self {
            index: s.index,
            count: s.count,
        }
    }
}

impl Shard {
    /// Shard `index` of `count`.
    ///
    /// # Errors
    /// [`BanditError::InvalidShard`] unless `0 <= index < count`.
    pub fn new(index: usize, count: usize) -> Result<Self, BanditError> {
        if count == 0 {
            return Err(BanditError::InvalidShard {
                shard: format!("{index}/{count}"),
                reason: "the number of shards n must be >= 1",
            });
        }
        if index >= count {
            return Err(BanditError::InvalidShard {
                shard: format!("{index}/{count}"),
                reason: "the shard index i must satisfy 0 <= i < n",
            });
        }
        Ok(Self { index, count })
    }

    /// The shard's index `i` (`0 <= i < n`).
    pub fn index(self) -> usize {
        self.index
    }

    /// The number of shards `n`.
    pub fn count(self) -> usize {
        self.count
    }

    /// The shard's block of the trials `0..n_trials`: `floor(i N / n)..floor((i + 1) N / n)`.
    /// The blocks of shards `0..n` are contiguous, in order, cover every trial once, and differ
    /// in size by at most one; a block is empty when `N < n` leaves it no trial.
    ///
    /// Contiguous blocks (rather than every `n`-th trial) make a merge a concatenation: what a
    /// run records per trial in trial order (its records, a diagnostics list, a table's rows)
    /// comes out of the shards, taken in order, exactly as out of one process.
    pub fn trials(self, n_trials: usize) -> std::ops::Range<usize> {
        // u128: i N cannot overflow.
        let at = |k: usize| (k as u128 * n_trials as u128 / self.count as u128) as usize;
        at(self.index)..at(self.index + 1)
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl std::str::FromStr for Shard {
    type Err = BanditError;

    /// `i/n`, e.g. `0/4`.
    fn from_str(s: &str) -> Result<Self, BanditError> {
        let invalid = |reason| BanditError::InvalidShard {
            shard: s.to_string(),
            reason,
        };
        let (i, n) = s
            .split_once('/')
            .ok_or_else(|| invalid("expected i/n, e.g. 0/4"))?;
        let i = i
            .trim()
            .parse()
            .map_err(|_| invalid("the shard index i is not a non-negative integer"))?;
        let n = n
            .trim()
            .parse()
            .map_err(|_| invalid("the number of shards n is not a non-negative integer"))?;
        Shard::new(i, n)
    }
}

/// The record of one trial: per-round actions, rewards and regrets.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrialRecord {
    /// Trial index in its batch.
    pub trial: usize,
    /// Action (row of the decision set) chosen in each round.
    pub actions: Vec<usize>,
    /// Raw reward `y_t` of each round (what the curator saw).
    pub rewards: Vec<f64>,
    /// Mean reward `f(x_t)` of the chosen action.
    pub mean_rewards: Vec<f64>,
    /// Instantaneous pseudo-regret `r_t = f(x*_t) - f(x_t)`.
    pub instantaneous_regret: Vec<f64>,
    /// Cumulative regret `R_t = sum_{s <= t} r_s`.
    pub cumulative_regret: Vec<f64>,
    /// Simple regret `S_t = min_{s <= t} r_s`.
    pub simple_regret: Vec<f64>,
}

impl TrialRecord {
    /// Number of rounds recorded.
    pub fn horizon(&self) -> usize {
        self.actions.len()
    }

    /// `R_T`, the cumulative regret after the last round (0 for an empty trial).
    pub fn final_cumulative_regret(&self) -> f64 {
        self.cumulative_regret.last().copied().unwrap_or(0.0)
    }

    /// `S_T`, the simple regret after the last round (`+inf` for an empty trial).
    pub fn final_simple_regret(&self) -> f64 {
        self.simple_regret.last().copied().unwrap_or(f64::INFINITY)
    }
}

/// The records of a batch, in trial order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BatchResult {
    /// What was run.
    pub config: RunConfig,
    /// One record per trial in trial order: trial `i` at index `i` of a whole batch, the
    /// block of [`RunConfig::trial_indices`] when the configuration names a shard.
    pub trials: Vec<TrialRecord>,
}

impl BatchResult {
    /// The mean over trials of the cumulative regret after each round.
    pub fn mean_cumulative_regret(&self) -> Vec<f64> {
        self.mean_of(|r| &r.cumulative_regret)
    }

    /// The mean over trials of the simple regret after each round.
    pub fn mean_simple_regret(&self) -> Vec<f64> {
        self.mean_of(|r| &r.simple_regret)
    }

    /// `R_T` of every trial.
    pub fn final_cumulative_regrets(&self) -> Vec<f64> {
        self.trials
            .iter()
            .map(TrialRecord::final_cumulative_regret)
            .collect()
    }

    fn mean_of(&self, pick: impl Fn(&TrialRecord) -> &Vec<f64>) -> Vec<f64> {
        let t = self.config.horizon;
        let n = self.trials.len().max(1) as f64;
        (0..t)
            .map(|s| self.trials.iter().map(|r| pick(r)[s]).sum::<f64>() / n)
            .collect()
    }

    /// The batch as pretty-printed JSON (floats round-trip exactly).
    pub fn to_json(&self) -> Result<String, BanditError> {
        serde_json::to_string_pretty(self).map_err(|e| BanditError::Serialise(e.to_string()))
    }

    /// The batch as CSV in long format, one row per (trial, round), with the header
    /// `trial,round,action,reward,mean_reward,instantaneous_regret,cumulative_regret,simple_regret`
    /// (rounds 0-based; floats in Rust's shortest round-trip representation).
    pub fn write_csv<W: Write>(&self, out: W) -> Result<(), BanditError> {
        let mut w = csv::Writer::from_writer(out);
        let ser = |e: csv::Error| BanditError::Serialise(e.to_string());
        w.write_record([
            "trial",
            "round",
            "action",
            "reward",
            "mean_reward",
            "instantaneous_regret",
            "cumulative_regret",
            "simple_regret",
        ])
        .map_err(ser)?;
        for r in &self.trials {
            for t in 0..r.horizon() {
                w.write_record([
                    r.trial.to_string(),
                    t.to_string(),
                    r.actions[t].to_string(),
                    r.rewards[t].to_string(),
                    r.mean_rewards[t].to_string(),
                    r.instantaneous_regret[t].to_string(),
                    r.cumulative_regret[t].to_string(),
                    r.simple_regret[t].to_string(),
                ])
                .map_err(ser)?;
            }
        }
        w.flush().map_err(|e| BanditError::Serialise(e.to_string()))
    }
}

/// The three RNG streams of one trial.
#[derive(Debug, Clone)]
pub struct TrialRngs {
    /// The environment's stream.
    pub environment: ChaCha20Rng,
    /// The agent's stream.
    pub agent: ChaCha20Rng,
    /// The curator's stream.
    pub curator: ChaCha20Rng,
}

impl TrialRngs {
    /// The streams of trial `trial` under `base_seed` (see the module docs).
    pub fn new(base_seed: u64, trial: usize) -> Self {
        Self {
            environment: trial_rng(base_seed, trial, Role::Environment),
            agent: trial_rng(base_seed, trial, Role::Agent),
            curator: trial_rng(base_seed, trial, Role::Curator),
        }
    }
}

/// What a [`RoundObserver`] sees of one round: everything the runner handled, after the
/// curator released its message and before the agent receives it.
///
/// `reward`, `mean_reward` and `optimal_mean` are trusted-side data (the raw reward and the
/// environment's means): an observer is part of the harness (an audit, a recorder), not of
/// the learner, which only ever receives `message`.
#[derive(Debug)]
pub struct RoundView<'a, M> {
    /// The round (0-based).
    pub round: usize,
    /// The decision set `D_t` offered to the agent, `n x d`.
    pub decision_set: ArrayView2<'a, f64>,
    /// The action `a_t` (row of `decision_set`) the agent chose.
    pub action: usize,
    /// The raw reward `y_t` (what the curator saw).
    pub reward: f64,
    /// The mean reward `f(x_t)` of the chosen action.
    pub mean_reward: f64,
    /// `f(x*_t)`, the reference of the pseudo-regret ([`Environment::optimal_mean`]).
    pub optimal_mean: f64,
    /// The curator's message `m_t`, about to be moved into [`Agent::observe`].
    pub message: &'a M,
}

impl<M> RoundView<'_, M> {
    /// The instantaneous pseudo-regret `f(x*_t) - f(x_t)` of the round.
    pub fn regret(&self) -> f64 {
        self.optimal_mean - self.mean_reward
    }
}

/// Something that watches the rounds of a trial ([`run_trial`], [`Runner::trial_observed`]). Implemented by `()`
/// (watches nothing), by [`Transcript`] (records everything), and by every closure
/// `FnMut(&RoundView<'_, M>)`.
pub trait RoundObserver<M> {
    /// Called once per round, after the curator released `round.message` and before the agent
    /// observes it.
    fn on_round(&mut self, round: &RoundView<'_, M>);
}

impl<M> RoundObserver<M> for () {
    fn on_round(&mut self, _round: &RoundView<'_, M>) {}
}

impl<M, F: FnMut(&RoundView<'_, M>)> RoundObserver<M> for F {
    fn on_round(&mut self, round: &RoundView<'_, M>) {
        self(round)
    }
}

/// One recorded round of a [`Transcript`] (an owned [`RoundView`]).
#[derive(Debug, Clone, PartialEq)]
pub struct TranscriptRound<M> {
    /// The round (0-based).
    pub round: usize,
    /// The decision set offered.
    pub decision_set: Array2<f64>,
    /// The action chosen.
    pub action: usize,
    /// The raw reward `y_t` (trusted side).
    pub reward: f64,
    /// The mean reward `f(x_t)`.
    pub mean_reward: f64,
    /// `f(x*_t)`.
    pub optimal_mean: f64,
    /// The curator's message `m_t` (a clone of what the agent received).
    pub message: M,
}

/// A [`RoundObserver`] that records every round: the transcript of a trial, e.g. the sequence
/// of actions and messages a privacy audit compares between neighbouring inputs.
#[derive(Debug, Clone, PartialEq)]
pub struct Transcript<M> {
    /// The rounds, in order.
    pub rounds: Vec<TranscriptRound<M>>,
}

impl<M> Default for Transcript<M> {
    fn default() -> Self {
        Self { rounds: Vec::new() }
    }
}

impl<M> Transcript<M> {
    /// An empty transcript.
    pub fn new() -> Self {
        Self::default()
    }

    /// The actions `a_1, ..., a_T`.
    pub fn actions(&self) -> Vec<usize> {
        self.rounds.iter().map(|r| r.action).collect()
    }

    /// The messages `m_1, ..., m_T`, in order.
    pub fn messages(&self) -> impl Iterator<Item = &M> {
        self.rounds.iter().map(|r| &r.message)
    }

    /// The instantaneous pseudo-regrets `f(x*_t) - f(x_t)`.
    pub fn instantaneous_regret(&self) -> Vec<f64> {
        self.rounds
            .iter()
            .map(|r| r.optimal_mean - r.mean_reward)
            .collect()
    }

    /// The cumulative regrets `R_t`, summed in round order (bit-identical to
    /// [`TrialRecord::cumulative_regret`] of the same run).
    pub fn cumulative_regret(&self) -> Vec<f64> {
        let mut cum = 0.0;
        self.rounds
            .iter()
            .map(|r| {
                cum += r.optimal_mean - r.mean_reward;
                cum
            })
            .collect()
    }
}

impl<M: Clone> RoundObserver<M> for Transcript<M> {
    fn on_round(&mut self, round: &RoundView<'_, M>) {
        self.rounds.push(TranscriptRound {
            round: round.round,
            decision_set: round.decision_set.to_owned(),
            action: round.action,
            reward: round.reward,
            mean_reward: round.mean_reward,
            optimal_mean: round.optimal_mean,
            message: round.message.clone(),
        });
    }
}

/// Run `horizon` rounds of `agent` against `env` with `curator` in between, and record them;
/// each round is shown to `observer` ([`RoundView`]: decision set, action, raw reward, means
/// and the curator's message) before the agent receives the message. Pass `&mut ()` to watch
/// nothing: the observer draws no randomness, so the run and its record do not depend on it.
///
/// This is the loop on components already built; [`Runner`] builds them from factories and
/// seeds (the usual way in).
///
/// Errors: an agent or curator error (boxed with the round), an action outside the decision
/// set ([`BanditError::ActionOutOfRange`]), a non-finite raw reward
/// ([`BanditError::NonFiniteReward`]), or an environment failure
/// ([`BanditError::Environment`] with the round: an error drawing the decision set or the
/// reward, an empty decision set, a non-finite mean reward).
pub fn run_trial<E, A, C, O>(
    trial: usize,
    env: &mut E,
    agent: &mut A,
    curator: &mut C,
    horizon: usize,
    rngs: &mut TrialRngs,
    observer: &mut O,
) -> Result<TrialRecord, BanditError>
where
    E: Environment,
    C: Curator,
    A: Agent<Message = C::Message>,
    O: RoundObserver<C::Message> + ?Sized,
{
    let env_error = |round: usize, e: BanditError| BanditError::Environment {
        round: Some(round),
        source: Box::new(e),
    };
    let mut rec = TrialRecord {
        trial,
        actions: Vec::with_capacity(horizon),
        rewards: Vec::with_capacity(horizon),
        mean_rewards: Vec::with_capacity(horizon),
        instantaneous_regret: Vec::with_capacity(horizon),
        cumulative_regret: Vec::with_capacity(horizon),
        simple_regret: Vec::with_capacity(horizon),
    };
    let (mut cum, mut simple) = (0.0, f64::INFINITY);
    for round in 0..horizon {
        env.begin_round(round, &mut rngs.environment)
            .map_err(|e| env_error(round, e))?;
        let n_actions = env.decision_set().nrows();
        if n_actions == 0 {
            return Err(env_error(
                round,
                BanditError::Input(InputError::Empty {
                    what: "decision set",
                }),
            ));
        }
        let action = agent
            .select(env.decision_set(), &mut rngs.agent)
            .map_err(|e| BanditError::Agent {
                round: Some(round),
                source: Box::new(e),
            })?;
        if action >= n_actions {
            return Err(BanditError::ActionOutOfRange {
                round,
                action,
                n_actions,
            });
        }
        let mean = env.mean_reward(action);
        let best = env.optimal_mean();
        if !mean.is_finite() || !best.is_finite() {
            let (what, value) = if mean.is_finite() {
                ("optimal mean reward of the environment", best)
            } else {
                ("mean reward of the environment", mean)
            };
            return Err(env_error(
                round,
                BanditError::Input(InputError::NonFinite {
                    what,
                    index: Some(action),
                    value,
                }),
            ));
        }
        let reward = env
            .sample_reward(action, &mut rngs.environment)
            .map_err(|e| env_error(round, e))?;
        if !reward.is_finite() {
            return Err(BanditError::NonFiniteReward {
                round,
                action,
                value: reward,
            });
        }
        let decision_set = env.decision_set();
        let feedback = Feedback {
            round,
            action,
            point: decision_set.row(action),
            reward,
        };
        let message =
            curator
                .curate(&feedback, &mut rngs.curator)
                .map_err(|e| BanditError::Curator {
                    round: Some(round),
                    source: Box::new(e),
                })?;
        observer.on_round(&RoundView {
            round,
            decision_set,
            action,
            reward,
            mean_reward: mean,
            optimal_mean: best,
            message: &message,
        });
        agent.observe(message).map_err(|e| BanditError::Agent {
            round: Some(round),
            source: Box::new(e),
        })?;

        let r = best - mean;
        cum += r;
        simple = simple.min(r);
        rec.actions.push(action);
        rec.rewards.push(reward);
        rec.mean_rewards.push(mean);
        rec.instantaneous_regret.push(r);
        rec.cumulative_regret.push(cum);
        rec.simple_regret.push(simple);
    }
    Ok(rec)
}

/// The curator factory of a [`Runner`] built without one: the [`Identity`] curator, so the
/// agent receives the raw reward (a non-private agent, `Message = f64`).
pub type IdentityFactory<E> = fn(&E, &mut ChaCha20Rng) -> Result<Identity, Infallible>;

fn identity_curator<E>(_env: &E, _rng: &mut ChaCha20Rng) -> Result<Identity, Infallible> {
    Ok(Identity)
}

/// The seeded trial runner: factories for the environment, the agent and the curator, and
/// what to run ([`RunConfig`]: horizon, number of trials, base seed).
///
/// ```text
/// Runner::new(config, make_env, make_agent)   // identity curator: a non-private agent
///     .curator(make_curator)                  // or a curator between rewards and agent
///     .trials()                               // all trials, in parallel -> BatchResult
///     // .trial(i)                            // trial i alone -> TrialRecord
///     // .trial_observed(i, &mut transcript)  // trial i, each round shown to an observer
/// ```
///
/// Trial `i` builds its environment (`make_env(rng_env)`), then its agent
/// (`make_agent(&env, rng_agent)`) and its curator (`make_curator(&env, rng_curator)`) from
/// its own seeded streams (module docs), and runs [`run_trial`]. The factories are any
/// `Fn` (closures, or references to them); a factory of another crate whose environment
/// cannot be built reports [`BanditError::Environment`] with `round: None` (its own error
/// boxed). The cumulative-regret curve of one seeded trial, for regret-scaling checks, is
/// `trial(0)?.cumulative_regret`.
#[derive(Debug, Clone)]
pub struct Runner<FE, FA, FC> {
    config: RunConfig,
    make_env: FE,
    make_agent: FA,
    make_curator: FC,
}

impl<E, FE, FA> Runner<FE, FA, IdentityFactory<E>>
where
    FE: Fn(&mut ChaCha20Rng) -> Result<E, BanditError>,
{
    /// A runner of `config` for the agent built by `make_agent`, which receives the raw
    /// rewards ([`Identity`] curator) until [`Runner::curator`] puts a curator in between.
    pub fn new<A>(config: RunConfig, make_env: FE, make_agent: FA) -> Self
    where
        A: Agent,
        FA: Fn(&E, &mut ChaCha20Rng) -> Result<A, A::Error>,
    {
        Self {
            config,
            make_env,
            make_agent,
            make_curator: identity_curator::<E>,
        }
    }
}

impl<FE, FA, FC> Runner<FE, FA, FC> {
    /// The same runner with the curator built by `make_curator` between the rewards and the
    /// agent.
    pub fn curator<E, C, G>(self, make_curator: G) -> Runner<FE, FA, G>
    where
        FE: Fn(&mut ChaCha20Rng) -> Result<E, BanditError>,
        C: Curator,
        G: Fn(&E, &mut ChaCha20Rng) -> Result<C, C::Error>,
    {
        Runner {
            config: self.config,
            make_env: self.make_env,
            make_agent: self.make_agent,
            make_curator,
        }
    }

    /// What the runner runs.
    pub fn config(&self) -> &RunConfig {
        &self.config
    }

    /// Trial `trial` alone (its record equals that of trial `trial` of [`Runner::trials`]).
    pub fn trial<E, A, C>(&self, trial: usize) -> Result<TrialRecord, BanditError>
    where
        E: Environment,
        C: Curator,
        A: Agent<Message = C::Message>,
        FE: Fn(&mut ChaCha20Rng) -> Result<E, BanditError>,
        FA: Fn(&E, &mut ChaCha20Rng) -> Result<A, A::Error>,
        FC: Fn(&E, &mut ChaCha20Rng) -> Result<C, C::Error>,
    {
        self.trial_observed(trial, &mut ())
    }

    /// Trial `trial`, each round shown to `observer` ([`run_trial`]): e.g. the
    /// [`Transcript`] of trial `trial` of the batch, whose record equals the batch's.
    pub fn trial_observed<E, A, C, O>(
        &self,
        trial: usize,
        observer: &mut O,
    ) -> Result<TrialRecord, BanditError>
    where
        E: Environment,
        C: Curator,
        A: Agent<Message = C::Message>,
        FE: Fn(&mut ChaCha20Rng) -> Result<E, BanditError>,
        FA: Fn(&E, &mut ChaCha20Rng) -> Result<A, A::Error>,
        FC: Fn(&E, &mut ChaCha20Rng) -> Result<C, C::Error>,
        O: RoundObserver<C::Message> + ?Sized,
    {
        let mut rngs = TrialRngs::new(self.config.base_seed, trial);
        let mut env = (self.make_env)(&mut rngs.environment)?;
        let mut agent =
            (self.make_agent)(&env, &mut rngs.agent).map_err(|e| BanditError::Agent {
                round: None,
                source: Box::new(e),
            })?;
        let mut curator =
            (self.make_curator)(&env, &mut rngs.curator).map_err(|e| BanditError::Curator {
                round: None,
                source: Box::new(e),
            })?;
        run_trial(
            trial,
            &mut env,
            &mut agent,
            &mut curator,
            self.config.horizon,
            &mut rngs,
            observer,
        )
    }

    /// The trials of [`RunConfig::trial_indices`] (all `config.n_trials` of them, or a shard's
    /// block) in parallel, as [`Runner::trials`], trial `i` shown to its
    /// own observer `make_observer(i)` ([`Runner::trial_observed`]); returns the batch and the
    /// observers in trial order. The observers draw no randomness, so the batch equals
    /// [`Runner::trials`]'s bit for bit.
    pub fn trials_observed<E, A, C, O>(
        &self,
        make_observer: impl Fn(usize) -> O + Sync,
    ) -> Result<(BatchResult, Vec<O>), BanditError>
    where
        E: Environment,
        C: Curator,
        A: Agent<Message = C::Message>,
        FE: Fn(&mut ChaCha20Rng) -> Result<E, BanditError> + Sync,
        FA: Fn(&E, &mut ChaCha20Rng) -> Result<A, A::Error> + Sync,
        FC: Fn(&E, &mut ChaCha20Rng) -> Result<C, C::Error> + Sync,
        O: RoundObserver<C::Message> + Send,
    {
        let (trials, observers): (Vec<_>, Vec<_>) = self
            .config
            .trial_indices()
            .into_par_iter()
            .map(|i| {
                let mut observer = make_observer(i);
                self.trial_observed(i, &mut observer)
                    .map(|record| (record, observer))
            })
            .collect::<Vec<_>>()
            .into_iter()
            .collect::<Result<Vec<_>, _>>()?
            .into_iter()
            .unzip();
        Ok((
            BatchResult {
                config: self.config,
                trials,
            },
            observers,
        ))
    }

    /// The trials of [`RunConfig::trial_indices`] (all `config.n_trials` of them, or a shard's
    /// block), in parallel on the current rayon pool. Each trial builds
    /// its components from its own seeded streams, so the result is bit-identical for any
    /// number of threads. The first failing trial's error (in trial order) is returned.
    pub fn trials<E, A, C>(&self) -> Result<BatchResult, BanditError>
    where
        E: Environment,
        C: Curator,
        A: Agent<Message = C::Message>,
        FE: Fn(&mut ChaCha20Rng) -> Result<E, BanditError> + Sync,
        FA: Fn(&E, &mut ChaCha20Rng) -> Result<A, A::Error> + Sync,
        FC: Fn(&E, &mut ChaCha20Rng) -> Result<C, C::Error> + Sync,
    {
        self.trials_observed(|_| ()).map(|(batch, _)| batch)
    }
}
