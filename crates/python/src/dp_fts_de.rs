//! Dai et al. 2021 (`dp_fts_de`, DP federated Thompson sampling with distributed exploration)
//! from Python: the agents (each holds its own observations and sends only a sampled
//! `AgentVector`) and the central server (subsampling, clipping, Gaussian noise; it releases a
//! `Broadcast`), with the protocol of `dp_fts_de::run_federation`. Neither message type can be
//! constructed from Python: an `AgentVector` comes from an agent, a `Broadcast` from the server.
//!
//! Seeding: `seed` and `run` select the streams of `dp_fts_de::Stream` (features, server, agent
//! `k`), so a loop fed the same rewards takes the actions of `run_federation`.

use std::sync::Arc;

use bandit::domain::{BoxDomain, FiniteDomain, Partition};
use dp_fts_de::{
    AgentVector, BetaSchedule, Broadcast, CentralServer, Choice, DpFtsDeError, DpFtsDeParams,
    FederatedProblem, FtsAgent, Init, SharedFeatures, Stream, run_federation,
};
use numpy::{PyReadonlyArray1, PyReadonlyArray2};
use privacy::mechanisms::SubsampledGaussian;
use pyo3::prelude::*;
use rand_chacha::ChaCha20Rng;

use crate::errors;

fn fts(e: DpFtsDeError) -> PyErr {
    errors::value(e)
}

/// One agent: its own posterior and its own stream.
#[pyclass(module = "dpgpbandits._native", name = "FtsAgent")]
struct PyAgent {
    inner: FtsAgent,
    rng: ChaCha20Rng,
    n_init: usize,
    init: Init,
}

/// An agent's sampled vector: what the server may see of an agent. Not constructible from
/// Python.
#[pyclass(frozen, module = "dpgpbandits._native", name = "AgentVector")]
struct PyAgentVector {
    inner: AgentVector,
}

/// The server's release of one round. Not constructible from Python.
#[pyclass(frozen, module = "dpgpbandits._native", name = "Broadcast")]
struct PyBroadcast {
    inner: Broadcast,
}

#[pymethods]
impl PyAgent {
    /// The initial points to query at iteration 0 (indices of the domain).
    fn initial_points(&mut self) -> Vec<usize> {
        self.inner
            .initial_points(self.n_init, self.init, &mut self.rng)
    }

    /// The point to query at iteration `t >= 1` (with the broadcast of round `t - 1`, or none)
    /// and how it was chosen (`thompson` or `server`).
    fn select(
        &mut self,
        py: Python<'_>,
        t: usize,
        broadcast: Option<&PyBroadcast>,
    ) -> PyResult<(usize, &'static str)> {
        let b = broadcast.map(|b| &b.inner);
        let (inner, rng) = (&mut self.inner, &mut self.rng);
        let (x, c) = py.detach(|| inner.select(t, b, rng)).map_err(fts)?;
        Ok((
            x,
            match c {
                Choice::Initial => "initial",
                Choice::Thompson => "thompson",
                Choice::Server => "server",
                Choice::Replaced => "replaced",
            },
        ))
    }

    /// Observe the reward `y` of the point `x` (the agent's own data).
    fn observe(&mut self, x: usize, y: f64) -> PyResult<()> {
        self.inner.observe(x, y).map_err(fts)
    }

    /// The vector to send to the server this round.
    fn sample_vector(&mut self) -> PyResult<PyAgentVector> {
        Ok(PyAgentVector {
            inner: self.inner.sample_vector(&mut self.rng).map_err(fts)?,
        })
    }

    /// The sub-region this agent explores.
    #[getter]
    fn region(&self) -> usize {
        self.inner.region()
    }
}

/// The central server.
#[pyclass(module = "dpgpbandits._native", name = "FtsServer")]
struct PyServer {
    inner: CentralServer,
    rng: ChaCha20Rng,
}

#[pymethods]
impl PyServer {
    /// Aggregate round `t`'s vectors (one per agent) and release the broadcast.
    fn aggregate(
        &mut self,
        py: Python<'_>,
        t: usize,
        vectors: Vec<PyRef<'_, PyAgentVector>>,
    ) -> PyResult<PyBroadcast> {
        let v: Vec<AgentVector> = vectors.iter().map(|a| a.inner.clone()).collect();
        let (inner, rng) = (&mut self.inner, &mut self.rng);
        Ok(PyBroadcast {
            inner: py.detach(|| inner.aggregate(t, v, rng)).map_err(fts)?,
        })
    }

    /// The privacy loss of the releases so far (the paper's RDP accountant), as JSON, or
    /// `None` for a non-private server.
    fn privacy_loss_json(&self) -> PyResult<Option<String>> {
        self.inner
            .privacy_loss()
            .map_err(fts)?
            .map(|l| serde_json::to_string(&l).map_err(errors::value))
            .transpose()
    }

    /// Releases so far.
    #[getter]
    fn releases(&self) -> u64 {
        self.inner.releases()
    }
}

/// The parameters of `preset` (`synthetic` or `real-world`) for `iterations`: private with
/// `(q, z, clip)` when given, non-private when `non_private`, the preset's own privacy
/// otherwise.
fn params(
    preset: &str,
    iterations: usize,
    privacy: Option<(f64, f64, f64)>,
    non_private: bool,
) -> PyResult<DpFtsDeParams> {
    let base = match preset {
        "synthetic" => DpFtsDeParams::synthetic(),
        "real-world" => DpFtsDeParams::real_world(),
        other => {
            return Err(errors::value(format!(
                "preset {other:?}: synthetic or real-world"
            )));
        }
    };
    let p = DpFtsDeParams { iterations, ..base };
    Ok(match (privacy, non_private) {
        (Some(_), true) => {
            return Err(errors::value(
                "privacy (q, z, clip) given for a non-private federation",
            ));
        }
        (Some((q, z, clip)), false) => p.with_privacy(q, z, clip),
        (None, true) => DpFtsDeParams { privacy: None, ..p },
        (None, false) => p,
    })
}

/// The agents and the server of one run (see [`run_federation`] for the protocol).
#[pyfunction]
#[pyo3(signature = (points, lower, upper, n_agents, preset, iterations, privacy, non_private, seed, run))]
#[allow(clippy::too_many_arguments)]
fn fts_federation(
    points: PyReadonlyArray2<'_, f64>,
    lower: PyReadonlyArray1<'_, f64>,
    upper: PyReadonlyArray1<'_, f64>,
    n_agents: usize,
    preset: &str,
    iterations: usize,
    privacy: Option<(f64, f64, f64)>,
    non_private: bool,
    seed: u64,
    run: usize,
) -> PyResult<(Vec<PyAgent>, PyServer)> {
    let p = params(preset, iterations, privacy, non_private)?;
    let valid = p.validate(n_agents).map_err(fts)?;
    if !valid.federated {
        return Err(errors::value(
            "the preset is not federated: no server to build",
        ));
    }
    let bounds = BoxDomain::new(lower.as_array().to_owned(), upper.as_array().to_owned())
        .map_err(errors::value)?;
    let domain = FiniteDomain::new(points.as_array().to_owned()).map_err(errors::value)?;
    let partition = Partition::equal_volume(bounds, valid.sub_regions).map_err(errors::value)?;
    let features = SharedFeatures::draw(
        domain.clone(),
        &partition,
        valid.lengthscale,
        valid.features,
        &mut Stream::Features.rng(seed, run),
    )
    .map_err(fts)?;
    let beta = Arc::new(
        BetaSchedule::new(
            valid.beta,
            &domain,
            valid.lengthscale,
            valid.lambda,
            valid.n_init + valid.iterations,
        )
        .map_err(fts)?,
    );
    let weights = valid.weights(n_agents).map_err(fts)?;
    let server = match valid.privacy {
        Some(dp) => {
            let mech = SubsampledGaussian::new(dp.q, dp.clip, dp.z)
                .map_err(errors::privacy)?
                .with_sampler(dp.sampler);
            CentralServer::private(weights.clone(), mech, dp.delta_for(n_agents)).map_err(fts)?
        }
        None => CentralServer::non_private(weights.clone()).map_err(fts)?,
    };
    let agents = (0..n_agents)
        .map(|k| {
            Ok(PyAgent {
                inner: FtsAgent::new(
                    Arc::clone(&features),
                    Arc::clone(&beta),
                    valid.exploration,
                    weights.region_of(k).unwrap_or(0),
                    valid.lambda,
                )
                .map_err(fts)?,
                rng: Stream::Agent(k).rng(seed, run),
                n_init: valid.n_init,
                init: valid.init,
            })
        })
        .collect::<PyResult<Vec<_>>>()?;
    Ok((
        agents,
        PyServer {
            inner: server,
            rng: Stream::Server.rng(seed, run),
        },
    ))
}

/// Each agent's actions and rewards, in order.
type AgentTranscripts = (Vec<Vec<usize>>, Vec<Vec<f64>>);

/// `run_federation` on the objectives `objectives` (one row per agent, one column per point)
/// with Gaussian noise `noise_sd`: each agent's actions and rewards, in order.
#[pyfunction]
#[pyo3(signature = (points, lower, upper, objectives, noise_sd, preset, iterations, privacy, non_private, seed, run))]
#[allow(clippy::too_many_arguments)]
fn fts_rust_federation(
    py: Python<'_>,
    points: PyReadonlyArray2<'_, f64>,
    lower: PyReadonlyArray1<'_, f64>,
    upper: PyReadonlyArray1<'_, f64>,
    objectives: PyReadonlyArray2<'_, f64>,
    noise_sd: f64,
    preset: &str,
    iterations: usize,
    privacy: Option<(f64, f64, f64)>,
    non_private: bool,
    seed: u64,
    run: usize,
) -> PyResult<AgentTranscripts> {
    let p = params(preset, iterations, privacy, non_private)?;
    let bounds = BoxDomain::new(lower.as_array().to_owned(), upper.as_array().to_owned())
        .map_err(errors::value)?;
    let domain = FiniteDomain::new(points.as_array().to_owned()).map_err(errors::value)?;
    let problem = FederatedProblem::new(
        "python",
        bounds,
        domain,
        objectives.as_array().to_owned(),
        noise_sd,
    )
    .map_err(fts)?;
    let record = py
        .detach(|| {
            let beta = dp_fts_de::beta_schedule(&problem, &p)?;
            run_federation(&problem, &p, beta, seed, run)
        })
        .map_err(fts)?;
    Ok((
        record.agents.iter().map(|a| a.actions.clone()).collect(),
        record.agents.iter().map(|a| a.rewards.clone()).collect(),
    ))
}

/// Adds DP-FTS-DE's agents and server to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyAgent>()?;
    m.add_class::<PyAgentVector>()?;
    m.add_class::<PyBroadcast>()?;
    m.add_class::<PyServer>()?;
    m.add_function(wrap_pyfunction!(fts_federation, m)?)?;
    m.add_function(wrap_pyfunction!(fts_rust_federation, m)?)?;
    Ok(())
}
