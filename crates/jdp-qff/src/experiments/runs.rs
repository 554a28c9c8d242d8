//! One curve of Section 6 as a seeded batch: the setting's algorithm on the problem's
//! environments.

use std::sync::Arc;

use bandit::BanditError;
use bandit::agent::{Agent, Curator};
use bandit::baselines::UniformRandom;
use bandit::env::Environment;
use bandit::objective::{Camelback, Michalewicz, Normalised, Objective, StyblinskiTang};
use bandit::runner::{BatchResult, RunConfig, Runner};
use rand_chacha::ChaCha20Rng;

use crate::error::JdpQffError;
use crate::params::{JdpQffParams, jdp, local, non_private};

use super::ablations::NoiseFree;
use super::panels::Setting;
use super::problems::{Features, Problem, benchmark_env, dubey_env, michalewicz_minimum};

/// Run `config.n_trials` seeded trials of `setting` on `problem` with `params` (trial `i`
/// seeded from `(config.base_seed, i)`; bit-identical for any thread count).
pub fn run(
    problem: Problem,
    setting: Setting,
    params: &JdpQffParams,
    config: &RunConfig,
) -> Result<BatchResult, JdpQffError> {
    let features = Arc::new(problem.features()?);
    match problem {
        Problem::Dubey => batch(config, dubey_env, features, setting, params),
        Problem::Camelback => {
            // Textbook range on [-2, 2] x [-1, 1]: maximum 5.7333 at (2, 1) and (-2, -1).
            let lo = -(((4.0 - 2.1 * 4.0 + 16.0 / 3.0) * 4.0) + 2.0) / 5.0;
            let hi = -Camelback::TEXTBOOK_MINIMUM / 5.0;
            let f = Normalised::new(Camelback, lo, hi)?;
            batch(config, benchmark_env(f), features, setting, params)
        }
        Problem::StyblinskiTang20 => {
            let st = StyblinskiTang::new(20)?;
            // Each textbook term z^4 - 16 z^2 + 5 z is at most 20 on [-4, 4] (at z = 4).
            let lo = -(0.5 * 20.0 / 200.0 + 0.5);
            let hi = st.maximum().map_or(f64::NAN, |m| m.value);
            batch(
                config,
                benchmark_env(Normalised::new(st, lo, hi)?),
                features,
                setting,
                params,
            )
        }
        Problem::Michalewicz10 => {
            let mw = Michalewicz::new(10)?;
            let hi = mw.maximum().map_or(f64::NAN, |m| m.value);
            let f = Normalised::new(mw, michalewicz_minimum(10), hi)?;
            batch(config, benchmark_env(f), features, setting, params)
        }
    }
}

/// The batch of one setting on the environments of `make_env`.
fn batch<E: Environment>(
    config: &RunConfig,
    make_env: impl Fn(&mut ChaCha20Rng) -> Result<E, BanditError> + Sync,
    features: Arc<Features>,
    setting: Setting,
    params: &JdpQffParams,
) -> Result<BatchResult, JdpQffError> {
    let horizon = config.horizon as u64;
    let with = |alpha: f64, beta: f64| JdpQffParams {
        alpha,
        beta,
        ..*params
    };
    match setting {
        Setting::Uniform => Ok(Runner::new(*config, make_env, |_, _| {
            Ok::<_, BanditError>(UniformRandom)
        })
        .trials()?),
        Setting::NonPrivate => {
            let make = || non_private(Arc::clone(&features), params.width);
            go(config, make_env, move |_: &E| make())
        }
        Setting::Jdp { alpha, beta } => {
            let p = with(alpha, beta).validate()?;
            go(config, make_env, move |_: &E| {
                jdp(Arc::clone(&features), horizon, &p)
            })
        }
        Setting::LocalJdp { alpha, beta } => {
            let p = with(alpha, beta).validate()?;
            go(config, make_env, move |_: &E| {
                local(Arc::clone(&features), horizon, &p)
            })
        }
        Setting::JdpProfile {
            alpha,
            beta,
            profile,
        } => {
            let p = profile.apply(with(alpha, beta))?.validate()?;
            go(config, make_env, move |_: &E| {
                jdp(Arc::clone(&features), horizon, &p)
            })
        }
        Setting::JdpNoiseFree { alpha, beta } => {
            let p = with(alpha, beta).validate()?;
            go(config, make_env, move |_: &E| {
                let (server, privatizer) = jdp(Arc::clone(&features), horizon, &p)?;
                let curator = NoiseFree::new(
                    Arc::clone(&features),
                    privatizer.calibration().reward_bound(),
                    privatizer.spectrum().shift,
                );
                Ok((server, curator))
            })
        }
        Setting::JdpWidthScaled {
            alpha,
            beta,
            width_scale,
        } => {
            let mut p = with(alpha, beta);
            p.width.scale = width_scale;
            let p = p.validate()?;
            go(config, make_env, move |_: &E| {
                jdp(Arc::clone(&features), horizon, &p)
            })
        }
    }
}

/// A [`Runner`] batch with a factory of (server, curator) pairs.
fn go<E, A, C>(
    config: &RunConfig,
    make_env: impl Fn(&mut ChaCha20Rng) -> Result<E, BanditError> + Sync,
    make: impl Fn(&E) -> Result<(A, C), JdpQffError> + Sync,
) -> Result<BatchResult, JdpQffError>
where
    E: Environment,
    C: Curator<Error = JdpQffError>,
    A: Agent<Message = C::Message, Error = JdpQffError>,
{
    Ok(
        Runner::new(*config, make_env, |e: &E, _: &mut ChaCha20Rng| {
            make(e).map(|(a, _)| a)
        })
        .curator(|e: &E, _: &mut ChaCha20Rng| make(e).map(|(_, c)| c))
        .trials()?,
    )
}
