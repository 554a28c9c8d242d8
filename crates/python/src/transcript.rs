//! The Rust runner's transcript of one trial on a fixed arm set, for the tests that a Python
//! loop with the same seed, fed the same rewards, takes the same actions.

use bandit::agent::{Agent, Curator};
use bandit::env::FixedSetEnvironment;
use bandit::noise::RewardModel;
use bandit::runner::{Transcript, TrialRngs, run_trial};
use ndarray::{Array1, Array2};
use pyo3::prelude::*;

use crate::errors;

/// `(actions, raw rewards)` of trial 0 under `seed`: `bandit::runner::run_trial` with `agent`
/// and `curator` on the arms `arms` with means `means` and rewards from `reward`, without the
/// GIL.
#[allow(clippy::too_many_arguments)]
pub(crate) fn fixed_set_trial<A, C>(
    py: Python<'_>,
    arms: Array2<f64>,
    means: Array1<f64>,
    reward: RewardModel,
    agent: &mut A,
    curator: &mut C,
    horizon: usize,
    seed: u64,
) -> PyResult<(Vec<usize>, Vec<f64>)>
where
    A: Agent<Message = C::Message> + Send,
    C: Curator + Send,
    C::Message: Clone + Send,
{
    let mut env = FixedSetEnvironment::new(arms, means, reward).map_err(errors::value)?;
    let mut rngs = TrialRngs::new(seed, 0);
    let mut transcript = Transcript::new();
    py.detach(|| {
        run_trial(
            0,
            &mut env,
            agent,
            curator,
            horizon,
            &mut rngs,
            &mut transcript,
        )
    })
    .map_err(errors::value)?;
    Ok((
        transcript.actions(),
        transcript.rounds.iter().map(|r| r.reward).collect(),
    ))
}
