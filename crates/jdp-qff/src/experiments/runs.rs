//! One curve of Section 6 as a seeded batch: the setting's algorithm on the problem's
//! environments.

use std::sync::Arc;

use bandit::BanditError;
use bandit::agent::{Agent, Curator};
use bandit::baselines::UniformRandom;
use bandit::env::Environment;
use bandit::experiment::RunTable;
use bandit::objective::{Camelback, Michalewicz, Normalised, Objective, StyblinskiTang};
use bandit::runner::{BatchResult, RunConfig, Runner};
use rand_chacha::ChaCha20Rng;

use crate::error::JdpQffError;
use crate::params::{JdpQffParams, jdp, local, non_private};
use crate::statistics::StatisticsMessage;

use super::ablations::NoiseFree;
use super::diagnostics::{Band, COLUMNS, Learner, Recorder, UniformRecorder, push};
use super::noise_streams::{NoiseStreams, OwnNoise};
use super::panels::Setting;
use super::problems::{Features, Problem, benchmark_env, dubey_env, michalewicz_minimum};

/// Run `config.n_trials` seeded trials of `setting` on `problem` with `params` (trial `i`
/// seeded from `(config.base_seed, i)`; bit-identical for any thread count), with the per-trial
/// diagnostics of [`super::diagnostics`].
pub fn run(
    problem: Problem,
    setting: Setting,
    params: &JdpQffParams,
    config: &RunConfig,
) -> Result<(BatchResult, RunTable), JdpQffError> {
    run_with_noise_streams(problem, setting, params, config, NoiseStreams::Shared)
}

/// [`run`] with the curve's privacy noise drawn from `streams` ([`NoiseStreams::Shared`]: the
/// trial's curator stream, as [`run`]; [`NoiseStreams::PerCurve`]: a stream of the curve's
/// own, the control for the coupling of a figure's curves through their noise).
pub fn run_with_noise_streams(
    problem: Problem,
    setting: Setting,
    params: &JdpQffParams,
    config: &RunConfig,
    streams: NoiseStreams,
) -> Result<(BatchResult, RunTable), JdpQffError> {
    let label = streams.curve_label(&setting);
    let noise_stream = label.as_deref();
    let features = Arc::new(problem.features()?);
    let box_band = Band::Box { lo: -0.5, hi: 0.5 };
    match problem {
        Problem::Dubey => batch(
            config,
            dubey_env,
            features,
            setting,
            params,
            Band::Ball {
                radius: bandit::objective::BALL_RADIUS,
            },
            noise_stream,
        ),
        Problem::Camelback => {
            // Textbook range on [-2, 2] x [-1, 1]: maximum 5.7333 at (2, 1) and (-2, -1).
            let lo = -(((4.0 - 2.1 * 4.0 + 16.0 / 3.0) * 4.0) + 2.0) / 5.0;
            let hi = -Camelback::TEXTBOOK_MINIMUM / 5.0;
            let f = Normalised::new(Camelback, lo, hi)?;
            batch(
                config,
                benchmark_env(f),
                features,
                setting,
                params,
                box_band,
                noise_stream,
            )
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
                box_band,
                noise_stream,
            )
        }
        Problem::Michalewicz10 => {
            let mw = Michalewicz::new(10)?;
            let hi = mw.maximum().map_or(f64::NAN, |m| m.value);
            let f = Normalised::new(mw, michalewicz_minimum(10), hi)?;
            batch(
                config,
                benchmark_env(f),
                features,
                setting,
                params,
                box_band,
                noise_stream,
            )
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
    band: Band,
    noise_stream: Option<&str>,
) -> Result<(BatchResult, RunTable), JdpQffError> {
    let horizon = config.horizon as u64;
    let with = |alpha: f64, beta: f64| JdpQffParams {
        alpha,
        beta,
        ..*params
    };
    let diagnostics = Diagnostics {
        features: Arc::clone(&features),
        horizon: config.horizon,
        band,
    };
    // The learner's public width and its noise, for the diagnostics.
    let jdp_learner = |p: &JdpQffParams| -> Result<Learner, JdpQffError> {
        let (server, privatizer) = jdp(Arc::clone(&features), horizon, p)?;
        let sigma = privatizer.calibration().sigma();
        Ok(Learner {
            width: *server.width(),
            sigma_x: sigma,
            sigma_u: sigma,
        })
    };
    // Algorithms 1 + 2 with these parameters.
    let run_jdp = |p: JdpQffParams| {
        let p = p.validate()?;
        let learner = jdp_learner(&p)?;
        go(
            config,
            &make_env,
            |_: &E| jdp(Arc::clone(&features), horizon, &p),
            &diagnostics,
            learner,
            noise_stream,
        )
    };
    match setting {
        Setting::Uniform => {
            let (batch, recorders) = Runner::new(*config, make_env, |_, _| {
                Ok::<_, BanditError>(UniformRandom)
            })
            .trials_observed(|i| UniformRecorder::new(i, config.horizon, band))?;
            let mut table = RunTable::new(COLUMNS);
            for row in recorders.into_iter().flat_map(UniformRecorder::finish) {
                push(&mut table, row)?;
            }
            Ok((batch, table))
        }
        Setting::NonPrivate => {
            let make = || non_private(Arc::clone(&features), params.width);
            let learner = Learner {
                width: *make()?.0.width(),
                sigma_x: 0.0,
                sigma_u: 0.0,
            };
            go(
                config,
                make_env,
                move |_: &E| make(),
                &diagnostics,
                learner,
                noise_stream,
            )
        }
        Setting::Jdp { alpha, beta } => run_jdp(with(alpha, beta)),
        Setting::LocalJdp { alpha, beta } => {
            let p = with(alpha, beta).validate()?;
            let (protocol, client) = local(Arc::clone(&features), horizon, &p)?;
            let learner = Learner {
                width: *protocol.clients().width(),
                sigma_x: client.calibration().sigma_x(),
                sigma_u: client.calibration().sigma_u(),
            };
            go(
                config,
                make_env,
                move |_: &E| local(Arc::clone(&features), horizon, &p),
                &diagnostics,
                learner,
                noise_stream,
            )
        }
        Setting::JdpProfile {
            alpha,
            beta,
            profile,
        } => run_jdp(profile.apply(with(alpha, beta))?),
        Setting::JdpNoiseFree { alpha, beta } => {
            let p = with(alpha, beta).validate()?;
            let learner = Learner {
                sigma_x: 0.0,
                sigma_u: 0.0,
                ..jdp_learner(&p)?
            };
            go(
                config,
                make_env,
                move |_: &E| {
                    let (server, privatizer) = jdp(Arc::clone(&features), horizon, &p)?;
                    let curator = NoiseFree::new(
                        Arc::clone(&features),
                        privatizer.calibration().reward_bound(),
                        privatizer.spectrum().shift,
                    );
                    Ok((server, curator))
                },
                &diagnostics,
                learner,
                noise_stream,
            )
        }
        Setting::JdpWidthScaled {
            alpha,
            beta,
            width_scale,
        } => {
            let mut p = with(alpha, beta);
            p.width.scale = width_scale;
            run_jdp(p)
        }
    }
}

/// What every trial's recorder shares.
struct Diagnostics {
    features: Arc<Features>,
    horizon: usize,
    band: Band,
}

/// A [`Runner`] batch with a factory of (server, curator) pairs, each trial watched by a
/// [`Recorder`] of `learner`; the curator's noise from `noise_stream` of its own when given
/// ([`OwnNoise`]), from the trial's curator stream otherwise.
fn go<E, A, C>(
    config: &RunConfig,
    make_env: impl Fn(&mut ChaCha20Rng) -> Result<E, BanditError> + Sync,
    make: impl Fn(&E) -> Result<(A, C), JdpQffError> + Sync,
    diagnostics: &Diagnostics,
    learner: Learner,
    noise_stream: Option<&str>,
) -> Result<(BatchResult, RunTable), JdpQffError>
where
    E: Environment,
    C: Curator<Error = JdpQffError>,
    C::Message: StatisticsMessage + Clone,
    A: Agent<Message = C::Message, Error = JdpQffError>,
{
    let (batch, recorders) = Runner::new(*config, make_env, |e: &E, _: &mut ChaCha20Rng| {
        make(e).map(|(a, _)| a)
    })
    .curator(|e: &E, rng: &mut ChaCha20Rng| {
        make(e).map(|(_, c)| OwnNoise::new(c, noise_stream, rng))
    })
    .trials_observed(|i| {
        Recorder::new(
            i,
            diagnostics.horizon,
            Arc::clone(&diagnostics.features),
            learner,
            diagnostics.band,
        )
    })?;
    let mut table = RunTable::new(COLUMNS);
    for recorder in recorders {
        for row in recorder.finish()? {
            push(&mut table, row)?;
        }
    }
    Ok((batch, table))
}
