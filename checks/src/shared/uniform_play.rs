//! The regret curve of uniform random play, the positive control of every scaling check: its
//! regret is linear, so a checker that passes it has no power.

use bandit::BanditError;
use bandit::baselines::UniformRandom;
use bandit::env::Environment;
use bandit::runner::{RunConfig, Runner};
use rand_chacha::ChaCha20Rng;

/// `curve(T_max, seed)`: the cumulative regret after each round of uniform random play on the
/// environment `make_env` builds (for [`verification::scaling::check_scaling_curves`]).
pub fn uniform_play_curve<E, FE>(
    make_env: FE,
) -> impl Fn(usize, u64) -> Result<Vec<f64>, BanditError> + Sync
where
    E: Environment,
    FE: Fn(&mut ChaCha20Rng) -> Result<E, BanditError> + Sync,
{
    move |t_max: usize, seed: u64| {
        Runner::new(
            RunConfig::single(t_max, seed),
            &make_env,
            |_: &E, _: &mut ChaCha20Rng| Ok::<_, BanditError>(UniformRandom),
        )
        .trial(0)
        .map(|r| r.cumulative_regret)
    }
}
