//! One seeded federated run: `N` agents (Algorithm 2) and the central server (Algorithm 1),
//! iteration by iteration, agents in parallel.

use std::sync::Arc;

use bandit::domain::Partition;
use bandit::runner::TrialRecord;
use bandit::seed::seed_key;
use ndarray::Array2;
use privacy::mechanisms::subsampled::SubsampledGaussian;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use rand_distr::{Distribution, StandardNormal};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::agent::{Choice, FtsAgent};
use crate::beta::BetaSchedule;
use crate::error::DpFtsDeError;
use crate::features::SharedFeatures;
use crate::local_step::{ExactPrior, LocalStep};
use crate::messages::{AgentVector, Broadcast};
use crate::params::DpFtsDeParams;
use crate::problem::FederatedProblem;
use crate::server::{CentralServer, PrivacyLoss};
use bandit::seed::own_stream;

/// The random stream of one component of run `run` (module docs of [`run_federation`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stream {
    /// The shared random features.
    Features,
    /// The server (subsampling and noise); a curve with
    /// [`own_noise_stream`](crate::params::DpSettings) draws from a stream derived from it
    /// ([`own_server_stream`]).
    Server,
    /// Agent `n`'s own draws (initial points, `r`, Thompson samples, its vectors).
    Agent(usize),
    /// The observation noise of agent `n`'s queries.
    Noise(usize),
}

impl Stream {
    /// The ChaCha20 stream number: `run * 2^32 + k` with `k = 0` features, `1` server,
    /// `2 + 2n` agent `n`, `3 + 2n` agent `n`'s noise.
    pub fn number(self, run: usize) -> u64 {
        let k = match self {
            Self::Features => 0,
            Self::Server => 1,
            Self::Agent(n) => 2 + 2 * n as u64,
            Self::Noise(n) => 3 + 2 * n as u64,
        };
        ((run as u64) << 32) | k
    }

    /// The generator: key [`seed_key`]`(base_seed)`, stream [`Stream::number`].
    pub fn rng(self, base_seed: u64, run: usize) -> ChaCha20Rng {
        let mut rng = ChaCha20Rng::from_seed(seed_key(base_seed));
        rng.set_stream(self.number(run));
        rng
    }
}

/// What one federated run records.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FederationRecord {
    /// Agent `n`'s queries at index `n` (`trial = n`), `N_init + T` rounds each (the initial
    /// points first); regrets against `max_x f^n(x)`.
    pub agents: Vec<TrialRecord>,
    /// How each agent chose at each iteration `t = 1..=T` (`choices[t-1][n]`).
    pub choices: Vec<Vec<Choice>>,
    /// The privacy loss after each release (empty when non-private): `T` releases, the
    /// aggregates of iterations `0..T` (the last iteration's vectors are never used, so
    /// they are not sent).
    pub privacy: Vec<PrivacyLoss>,
    /// Of all vectors the server received, the fraction clipped (a diagnostic, not
    /// released; `None` when non-private).
    pub clipped_fraction: Option<f64>,
    /// The noise-to-signal ratio of each release ([`CentralServer::noise_to_signal`]; a
    /// diagnostic, not released; empty when non-private).
    pub noise_to_signal: Vec<f64>,
}

impl FederationRecord {
    /// The simple regret averaged over agents after each of the `N_init + T` queries.
    pub fn mean_simple_regret(&self) -> Vec<f64> {
        let n = self.agents.len() as f64;
        let len = self.agents.first().map_or(0, TrialRecord::horizon);
        (0..len)
            .map(|k| self.agents.iter().map(|a| a.simple_regret[k]).sum::<f64>() / n)
            .collect()
    }
}

struct AgentState {
    agent: FtsAgent,
    rng: ChaCha20Rng,
    noise: ChaCha20Rng,
    record: TrialRecord,
}

impl AgentState {
    fn query(
        &mut self,
        problem: &FederatedProblem,
        n: usize,
        x: usize,
    ) -> Result<(), DpFtsDeError> {
        let f = problem.objective(n)[x];
        let e: f64 = StandardNormal.sample(&mut self.noise);
        let y = f + problem.noise_sd() * e;
        self.agent.observe(x, y)?;
        let r = problem.maximum(n) - f;
        let rec = &mut self.record;
        rec.actions.push(x);
        rec.rewards.push(y);
        rec.mean_rewards.push(f);
        rec.instantaneous_regret.push(r);
        rec.cumulative_regret
            .push(rec.cumulative_regret.last().copied().unwrap_or(0.0) + r);
        rec.simple_regret.push(
            rec.simple_regret
                .last()
                .copied()
                .unwrap_or(f64::INFINITY)
                .min(r),
        );
        Ok(())
    }
}

/// The shared, seed-independent part of a setting: the `beta` table (it needs the greedy
/// information gain over the domain, `O((N_init + T)^2 |X|)`, so compute it once per
/// problem and setting).
pub fn beta_schedule(
    problem: &FederatedProblem,
    params: &DpFtsDeParams,
) -> Result<Arc<BetaSchedule>, DpFtsDeError> {
    Ok(Arc::new(BetaSchedule::new(
        params.beta,
        problem.domain(),
        params.lengthscale,
        params.lambda,
        params.n_init + params.iterations,
    )?))
}

/// The label of the server's own stream when `params` asks for one
/// ([`DpSettings::own_noise_stream`](crate::params::DpSettings)): the parameters' `Debug` form,
/// so every curve that differs in any parameter draws from another stream
/// ([`bandit::seed::own_stream`] of the run's [`Stream::Server`]); `None` otherwise.
pub fn own_server_stream(params: &DpFtsDeParams) -> Option<String> {
    params
        .privacy
        .is_some_and(|dp| dp.own_noise_stream)
        .then(|| format!("{params:?}"))
}

/// Run `params` on `problem`: run `run` of the batch seeded by `base_seed`.
///
/// # Protocol
///
/// - Iteration 0: the shared features are drawn (stream [`Stream::Features`]); every agent
///   queries its `N_init` initial points ([`crate::agent::Init`]); then (if federated) sends
///   its vector and the server releases the round-0 aggregate.
/// - Iteration `t = 1..=T`: every agent selects (with the broadcast of round `t - 1`), queries
///   and observes; for `t < T` it sends its vector and the server releases round `t`.
///
/// Agents run in parallel (rayon); each uses only its own streams ([`Stream`]), so the
/// record is bit-identical for any number of threads.
pub fn run_federation(
    problem: &FederatedProblem,
    params: &DpFtsDeParams,
    beta: Arc<BetaSchedule>,
    base_seed: u64,
    run: usize,
) -> Result<FederationRecord, DpFtsDeError> {
    let n = problem.n_agents();
    let params = params.validate(n)?;
    let partition = Partition::equal_volume(problem.bounds().clone(), params.sub_regions)?;
    let features = SharedFeatures::draw(
        problem.domain().clone(),
        &partition,
        params.lengthscale,
        params.features,
        &mut Stream::Features.rng(base_seed, run),
    )?;
    let weights = params.weights(n)?;
    let mut server = if !params.federated {
        None
    } else if let Some(dp) = params.privacy {
        let mech = SubsampledGaussian::new(dp.q, dp.clip, dp.z)?
            .with_sampler(dp.sampler)
            .with_calibration(dp.calibration);
        Some(CentralServer::private(
            weights.clone(),
            mech,
            dp.delta_for(n),
        )?)
    } else {
        Some(CentralServer::non_private(weights.clone())?)
    };
    let prior = match params.local.step {
        LocalStep::ExactGp => Some(ExactPrior::new(
            problem.domain().points(),
            params.lengthscale,
        )?),
        _ => None,
    };
    let mut server_rng = Stream::Server.rng(base_seed, run);
    if let Some(label) = own_server_stream(&params) {
        server_rng = own_stream(&mut server_rng, &label);
    }
    let mut agents: Vec<AgentState> = (0..n)
        .map(|k| {
            Ok(AgentState {
                agent: FtsAgent::new(
                    Arc::clone(&features),
                    Arc::clone(&beta),
                    params.exploration,
                    weights.region_of(k).unwrap_or(0),
                    params.lambda,
                )?
                .with_local(
                    params.local,
                    prior.clone(),
                    params.lengthscale,
                    params.lambda,
                )?,
                rng: Stream::Agent(k).rng(base_seed, run),
                noise: Stream::Noise(k).rng(base_seed, run),
                record: TrialRecord {
                    trial: k,
                    actions: Vec::new(),
                    rewards: Vec::new(),
                    mean_rewards: Vec::new(),
                    instantaneous_regret: Vec::new(),
                    cumulative_regret: Vec::new(),
                    simple_regret: Vec::new(),
                },
            })
        })
        .collect::<Result<_, DpFtsDeError>>()?;
    let federated = server.is_some();
    let t_max = params.iterations;
    let mut privacy = Vec::new();
    let mut choices = Vec::with_capacity(t_max);
    let mut broadcast: Option<Broadcast> = None;
    for t in 0..=t_max {
        let send = federated && t < t_max;
        let b = broadcast.as_ref();
        let out: Vec<(Option<AgentVector>, Choice)> = agents
            .par_iter_mut()
            .enumerate()
            .map(|(k, s)| {
                let choice = if t == 0 {
                    let xs = s
                        .agent
                        .initial_points(params.n_init, params.init, &mut s.rng);
                    for x in xs {
                        s.query(problem, k, x)?;
                    }
                    Choice::Initial
                } else {
                    let (x, c) = s.agent.select(t, b, &mut s.rng)?;
                    s.query(problem, k, x)?;
                    c
                };
                let v = if send {
                    Some(s.agent.sample_vector(&mut s.rng)?)
                } else {
                    None
                };
                Ok((v, choice))
            })
            .collect::<Result<_, DpFtsDeError>>()?;
        if t > 0 {
            choices.push(out.iter().map(|(_, c)| *c).collect());
        }
        if let (true, Some(server)) = (send, server.as_mut()) {
            let vectors: Vec<AgentVector> = out.into_iter().filter_map(|(v, _)| v).collect();
            broadcast = Some(server.aggregate(t, vectors, &mut server_rng)?);
            if let Some(loss) = server.privacy_loss()? {
                privacy.push(loss);
            }
        }
    }
    Ok(FederationRecord {
        agents: agents.into_iter().map(|s| s.record).collect(),
        choices,
        privacy,
        clipped_fraction: server.as_ref().and_then(CentralServer::clipped_fraction),
        noise_to_signal: server
            .as_ref()
            .map(|s| s.noise_to_signal().to_vec())
            .unwrap_or_default(),
    })
}

/// The `N x P` weights the server uses at each iteration `0..T` of `params` for `n_agents`
/// (public: they depend only on the assignment).
pub fn weights_per_round(
    params: &DpFtsDeParams,
    n_agents: usize,
) -> Result<Vec<Array2<f64>>, DpFtsDeError> {
    let w = params.weights(n_agents)?;
    Ok((0..params.iterations).map(|t| w.at(t)).collect())
}
