//! The learner and the curator: the two roles between which a private algorithm puts its
//! privacy boundary (DESIGN.md, "How an algorithm looks").
//!
//! Each round the runner ([`crate::runner`]) does
//!
//! ```text
//! env.begin_round(t)                          environment draws D_t (fixed domains: no-op)
//! a_t   = agent.select(D_t, rng_agent)        the learner picks a row of D_t
//! y_t   = env.sample_reward(a_t, rng_env)     raw reward: trusted side only
//! m_t   = curator.curate(&Feedback{t, a_t, x_t, y_t}, rng_curator)
//! agent.observe(m_t)                          the learner sees only the message
//! ```
//!
//! The learner never receives `y_t`: only the curator's message. A non-private algorithm uses
//! [`Identity`], whose message is the raw reward. A private algorithm defines a message type
//! that cannot be built from raw data except through its mechanism (a private constructor),
//! a curator that produces it, and an agent whose `Message` is that type. The type checker
//! then guarantees that the raw reward cannot reach the learner.
//!
//! # Example: a curator between the environment and the learner
//!
//! A local-DP curator in the style of Zhou & Tan's CTL(eps) (clip, then add Laplace noise);
//! the real one lives in the `ldp-bo` crate, with the derived calibration.
//!
//! ```
//! use bandit::agent::{Agent, Curator, Feedback};
//! use ndarray::ArrayView2;
//! use rand::{Rng, RngExt};
//!
//! /// What the learner may see: built only by `ClipLaplace::curate`.
//! pub struct PrivateReward(f64);
//! impl PrivateReward {
//!     pub fn value(&self) -> f64 { self.0 }
//! }
//!
//! pub struct ClipLaplace { bound: f64, epsilon: f64 }
//!
//! impl Curator for ClipLaplace {
//!     type Message = PrivateReward;
//!     type Error = std::convert::Infallible;
//!     fn curate<R: Rng + ?Sized>(&mut self, fb: &Feedback<'_>, rng: &mut R)
//!         -> Result<PrivateReward, Self::Error> {
//!         let clipped = fb.reward.clamp(-self.bound, self.bound);
//!         // Laplace(2 bound / eps) by inversion (an illustration; use the privacy crate).
//!         let u: f64 = rng.random::<f64>() - 0.5;
//!         let b = 2.0 * self.bound / self.epsilon;
//!         Ok(PrivateReward(clipped - b * u.signum() * (1.0 - 2.0 * u.abs()).ln()))
//!     }
//! }
//!
//! /// A learner that only ever sees private rewards (here: greedy on their running means).
//! pub struct Greedy { sums: Vec<f64>, counts: Vec<u64>, last: usize }
//!
//! impl Agent for Greedy {
//!     type Message = PrivateReward;
//!     type Error = std::convert::Infallible;
//!     fn select<R: Rng + ?Sized>(&mut self, d: ArrayView2<'_, f64>, _rng: &mut R)
//!         -> Result<usize, Self::Error> {
//!         let score = |i: usize| if self.counts[i] == 0 { f64::INFINITY }
//!                                else { self.sums[i] / self.counts[i] as f64 };
//!         self.last = (0..d.nrows()).fold(0, |b, i| if score(i) > score(b) { i } else { b });
//!         Ok(self.last)
//!     }
//!     fn observe(&mut self, m: PrivateReward) -> Result<(), Self::Error> {
//!         self.sums[self.last] += m.value();
//!         self.counts[self.last] += 1;
//!         Ok(())
//!     }
//! }
//!
//! // Wire them with the runner: trial i of the batch gets its own seeded streams.
//! use bandit::{env::FixedSetEnvironment, noise::RewardModel, runner::{RunConfig, Runner}};
//! use ndarray::array;
//! let config = RunConfig { horizon: 50, n_trials: 4, base_seed: 7, shard: None };
//! let result = Runner::new(
//!     config,
//!     |_rng| FixedSetEnvironment::new(array![[0.0], [1.0], [2.0]], array![0.1, 0.5, 0.9],
//!                                     RewardModel::uniform(1.0)?),
//!     |_env, _rng| Ok(Greedy { sums: vec![0.0; 3], counts: vec![0; 3], last: 0 }),
//! )
//! .curator(|_env, _rng| Ok(ClipLaplace { bound: 2.0, epsilon: 1.0 }))
//! .trials()
//! .unwrap();
//! assert_eq!(result.trials.len(), 4);
//! ```

use ndarray::{ArrayView1, ArrayView2};
use rand::Rng;

/// A learning policy as a state machine: [`Agent::select`] an action from the decision set,
/// then [`Agent::observe`] the message the curator releases about it.
pub trait Agent {
    /// What the learner sees after each of its actions (the raw reward for non-private
    /// agents, a privatised statistic for private ones).
    type Message;
    /// The agent's error type.
    type Error: std::error::Error + Send + Sync + 'static;

    /// Choose an action: the index of a row of `decision_set` (`n x d`, one candidate per row).
    fn select<R: Rng + ?Sized>(
        &mut self,
        decision_set: ArrayView2<'_, f64>,
        rng: &mut R,
    ) -> Result<usize, Self::Error>;

    /// Receive the message about the action chosen by the last [`Agent::select`].
    fn observe(&mut self, message: Self::Message) -> Result<(), Self::Error>;
}

/// What the environment produced in one round: the raw data that only a curator may see.
#[derive(Debug, Clone, Copy)]
pub struct Feedback<'a> {
    /// The round (0-based).
    pub round: usize,
    /// The action (row of the decision set) chosen.
    pub action: usize,
    /// The chosen point `x_t`.
    pub point: ArrayView1<'a, f64>,
    /// The raw reward `y_t`.
    pub reward: f64,
}

/// The trusted party between the environment and the learner: turns the raw [`Feedback`] of
/// each round into the message the learner is allowed to see.
pub trait Curator {
    /// The message type (must equal the agent's `Message`).
    type Message;
    /// The curator's error type.
    type Error: std::error::Error + Send + Sync + 'static;

    /// Turn one round's raw feedback into a message, using `rng` for its noise.
    fn curate<R: Rng + ?Sized>(
        &mut self,
        feedback: &Feedback<'_>,
        rng: &mut R,
    ) -> Result<Self::Message, Self::Error>;
}

/// The non-private curator: the message is the raw reward `y_t`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Identity;

impl Curator for Identity {
    type Message = f64;
    type Error = std::convert::Infallible;

    fn curate<R: Rng + ?Sized>(
        &mut self,
        feedback: &Feedback<'_>,
        _rng: &mut R,
    ) -> Result<f64, Self::Error> {
        Ok(feedback.reward)
    }
}
