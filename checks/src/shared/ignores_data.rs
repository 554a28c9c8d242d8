//! A learner that ignores its data, the second learner-specific positive control of every
//! regret-scaling check (the first is the learner with its confidence width set to 0): the
//! messages the curator releases never reach it, so it keeps choosing from its prior, and its
//! regret is linear unless the prior's choice happens to be optimal. A scaling check that does
//! not fail it has no power against a learner whose updates are lost.

use bandit::agent::Agent;
use ndarray::ArrayView2;
use rand::Rng;

/// Wraps a learner as built (its prior) and drops every message.
///
/// - [`IgnoresData::new`]: the learner's `observe` is never called; every `select` is made by
///   the learner in its initial state. For learners whose select/observe guard lets a selection
///   replace the previous one (`bandit::policy::Reselect::Replace`); a learner that forbids it
///   fails its second `select` with an error (never a silent result).
/// - [`IgnoresData::restarting`]: after each round the learner is replaced by a copy of its
///   initial state, for learners that count their rounds between messages (MoMA-GP-UCB's
///   epochs forbid a second `select` without a message).
pub struct IgnoresData<A> {
    agent: A,
    restart: Option<Restart<A>>,
}

/// The learner's initial state and how to copy it.
type Restart<A> = (A, fn(&A) -> A);

impl<A> IgnoresData<A> {
    /// `agent`, never told anything.
    pub fn new(agent: A) -> Self {
        Self {
            agent,
            restart: None,
        }
    }
}

impl<A: Clone> IgnoresData<A> {
    /// `agent`, restored to its initial state after every round.
    pub fn restarting(agent: A) -> Self {
        Self {
            restart: Some((agent.clone(), A::clone)),
            agent,
        }
    }
}

impl<A: Agent> Agent for IgnoresData<A> {
    type Message = A::Message;
    type Error = A::Error;

    fn select<R: Rng + ?Sized>(
        &mut self,
        decision_set: ArrayView2<'_, f64>,
        rng: &mut R,
    ) -> Result<usize, Self::Error> {
        self.agent.select(decision_set, rng)
    }

    /// Drops the message.
    fn observe(&mut self, _message: Self::Message) -> Result<(), Self::Error> {
        if let Some((prior, copy)) = &self.restart {
            self.agent = copy(prior);
        }
        Ok(())
    }
}
