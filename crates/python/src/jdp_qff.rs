//! Dubey 2021 (`jdp_qff`, joint differential privacy with quadrature Fourier features) from
//! Python: the PRIVATIZER (the trusted curator: raw `(x_t, y_t)` in, tree-aggregated noisy
//! statistics out) and the SERVER (approximate GP-UCB on those statistics), with the
//! select/observe protocol. The server's `observe` takes a `PrivatizedStatistics`, which only
//! `Privatizer.privatize` makes (no constructor is exported). The local model (Algorithm 3):
//! each client perturbs its own round (`ClientMessage`, made only by a `LocalClient`).
//!
//! Seeding: `seed` and `trial` select the Rust runner's curator and agent streams
//! (`bandit::seed::trial_rng`), so a loop fed the same rewards takes the Rust run's actions.

use std::sync::Arc;

use bandit::agent::Agent;
use bandit::seed::{Role, trial_rng};
use jdp_qff::features::{nqff, paper_mbar};
use jdp_qff::statistics::{ClientMessage, PrivatizedStatistics};
use jdp_qff::{
    ApproximateGpUcb, JdpPrivatizer, JdpQffError, JdpQffParams, LocalClient, LocalJdpGpUcb, Profile,
};
use kernel::QuadratureFourierFeatures;
use numpy::{PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;
use rand_chacha::ChaCha20Rng;

use crate::errors;

fn jdp(e: JdpQffError) -> PyErr {
    errors::value(e)
}

type F = QuadratureFourierFeatures;

/// The trusted privatizer of Algorithm 2: sees each round's point and reward, releases the
/// tree-aggregated noisy statistics.
#[pyclass(module = "dpgpbandits._native", name = "JdpPrivatizer")]
struct PyPrivatizer {
    inner: JdpPrivatizer<F>,
    rng: ChaCha20Rng,
}

#[pymethods]
impl PyPrivatizer {
    /// Release the statistics after the round with `point` (the chosen action's row) and the
    /// raw `reward` (clipped to the reward bound inside).
    fn privatize(
        &mut self,
        py: Python<'_>,
        point: PyReadonlyArray1<'_, f64>,
        reward: f64,
    ) -> PyResult<PyStatistics> {
        let point = point.as_array().to_owned();
        let (inner, rng) = (&mut self.inner, &mut self.rng);
        let stats = py
            .detach(|| inner.privatize(point.view(), reward, rng))
            .map_err(jdp)?;
        Ok(PyStatistics { inner: stats })
    }

    /// Rounds privatized so far.
    #[getter]
    fn time(&self) -> u64 {
        self.inner.time()
    }
}

/// Noisy statistics released by a `JdpPrivatizer`: what the server may observe. Not
/// constructible from Python.
#[pyclass(frozen, module = "dpgpbandits._native", name = "PrivatizedStatistics")]
struct PyStatistics {
    inner: PrivatizedStatistics,
}

#[pymethods]
impl PyStatistics {
    /// Observations aggregated so far.
    #[getter]
    fn observations(&self) -> usize {
        self.inner.observations()
    }
}

/// The server of Algorithm 1 (approximate GP-UCB on the privatized statistics).
#[pyclass(module = "dpgpbandits._native", name = "JdpServer")]
struct PyServer {
    inner: ApproximateGpUcb<F, PrivatizedStatistics>,
    rng: ChaCha20Rng,
}

#[pymethods]
impl PyServer {
    /// The index of the row of `decision_set` to play.
    fn select(
        &mut self,
        py: Python<'_>,
        decision_set: PyReadonlyArray2<'_, f64>,
    ) -> PyResult<usize> {
        let d = decision_set.as_array().to_owned();
        let (inner, rng) = (&mut self.inner, &mut self.rng);
        py.detach(|| inner.select(d.view(), rng)).map_err(jdp)
    }

    /// Replace the statistics with the privatizer's latest release.
    fn observe(&mut self, statistics: &PyStatistics) -> PyResult<()> {
        self.inner.observe(statistics.inner.clone()).map_err(jdp)
    }
}

/// The parameters of Section 6.1 with `alpha`, `beta` and the reward bound, under `profile`.
fn params(profile: &str, alpha: f64, beta: f64, reward_bound: f64) -> PyResult<JdpQffParams> {
    let profile: Profile = profile.parse().map_err(jdp)?;
    let base = JdpQffParams {
        alpha,
        beta,
        reward_bound,
        ..JdpQffParams::section_6_1()
    };
    profile.apply(base).map_err(jdp)
}

/// SE quadrature Fourier features on `[0, 1]^d` with `mbar` nodes per dimension (the paper's
/// `ceil(6 ln T)` when `None`).
fn features(d: usize, lengthscale: f64, mbar: Option<usize>, horizon: u64) -> PyResult<Arc<F>> {
    let mbar = match mbar {
        Some(m) => m,
        None => paper_mbar(horizon).map_err(jdp)?,
    };
    Ok(Arc::new(nqff(d, lengthscale, mbar).map_err(jdp)?))
}

fn pair(
    d: usize,
    lengthscale: f64,
    mbar: Option<usize>,
    horizon: u64,
    params: &JdpQffParams,
    seed: u64,
    trial: usize,
) -> PyResult<(PyServer, PyPrivatizer)> {
    let features = features(d, lengthscale, mbar, horizon)?;
    let (server, privatizer) = jdp_qff::jdp(features, horizon, params).map_err(jdp)?;
    Ok((
        PyServer {
            inner: server,
            rng: trial_rng(seed, trial, Role::Agent),
        },
        PyPrivatizer {
            inner: privatizer,
            rng: trial_rng(seed, trial, Role::Curator),
        },
    ))
}

/// The server and the privatizer of `(alpha, beta)`-JDP GP-UCB for `horizon` rounds on
/// `[0, 1]^d`-scaled points: SE features (NQFF, `mbar` nodes per dimension, the paper's
/// `ceil(6 ln T)` when `None`) of `lengthscale`, the parameters of Section 6.1 with `alpha`,
/// `beta`, `reward_bound`, under `profile`.
#[pyfunction]
#[pyo3(signature = (d, lengthscale, horizon, profile, alpha, beta, reward_bound, mbar, seed, trial))]
#[allow(clippy::too_many_arguments)]
fn jdp_pair(
    d: usize,
    lengthscale: f64,
    horizon: u64,
    profile: &str,
    alpha: f64,
    beta: f64,
    reward_bound: f64,
    mbar: Option<usize>,
    seed: u64,
    trial: usize,
) -> PyResult<(PyServer, PyPrivatizer)> {
    let p = params(profile, alpha, beta, reward_bound)?;
    pair(d, lengthscale, mbar, horizon, &p, seed, trial)
}

/// The Rust runner's transcript of one trial (fixed arms with `means`, Gaussian noise
/// `noise_sd`) of the central algorithm, or of the local-model one when `local`:
/// `(actions, raw rewards)`.
#[pyfunction]
#[pyo3(signature = (arms, means, noise_sd, lengthscale, horizon, profile, alpha, beta, reward_bound, mbar, seed, local))]
#[allow(clippy::too_many_arguments)]
fn jdp_rust_trial(
    py: Python<'_>,
    arms: PyReadonlyArray2<'_, f64>,
    means: PyReadonlyArray1<'_, f64>,
    noise_sd: f64,
    lengthscale: f64,
    horizon: usize,
    profile: &str,
    alpha: f64,
    beta: f64,
    reward_bound: f64,
    mbar: Option<usize>,
    seed: u64,
    local: bool,
) -> PyResult<(Vec<usize>, Vec<f64>)> {
    let p = params(profile, alpha, beta, reward_bound)?;
    let a = arms.as_array().to_owned();
    let (d, t) = (a.ncols(), horizon as u64);
    let means = means.as_array().to_owned();
    let model = bandit::noise::RewardModel::gaussian(noise_sd).map_err(errors::value)?;
    use crate::transcript::fixed_set_trial as run;
    if local {
        let (mut server, mut client) = local_pair(d, lengthscale, mbar, t, &p, seed, 0)?;
        run(
            py,
            a,
            means,
            model,
            &mut server.inner,
            &mut client.inner,
            horizon,
            seed,
        )
    } else {
        let (mut server, mut privatizer) = pair(d, lengthscale, mbar, t, &p, seed, 0)?;
        run(
            py,
            a,
            means,
            model,
            &mut server.inner,
            &mut privatizer.inner,
            horizon,
            seed,
        )
    }
}

/// A client of Algorithm 3 (the local model): perturbs its own round before it leaves.
#[pyclass(module = "dpgpbandits._native", name = "JdpLocalClient")]
struct PyLocalClient {
    inner: LocalClient<F>,
    rng: ChaCha20Rng,
}

/// A perturbed client message of Algorithm 3. Not constructible from Python.
#[pyclass(frozen, module = "dpgpbandits._native", name = "ClientMessage")]
struct PyClientMessage {
    inner: ClientMessage,
}

#[pymethods]
impl PyLocalClient {
    /// The message of the round with `point` and the raw `reward` (clipped inside).
    fn perturb(
        &mut self,
        point: PyReadonlyArray1<'_, f64>,
        reward: f64,
    ) -> PyResult<PyClientMessage> {
        let point = point.as_array().to_owned();
        Ok(PyClientMessage {
            inner: self
                .inner
                .perturb(point.view(), reward, &mut self.rng)
                .map_err(jdp)?,
        })
    }
}

/// The server of Algorithm 3 (sums of the clients' perturbed messages).
#[pyclass(module = "dpgpbandits._native", name = "JdpLocalServer")]
struct PyLocalServer {
    inner: LocalJdpGpUcb<F>,
    rng: ChaCha20Rng,
}

#[pymethods]
impl PyLocalServer {
    /// The index of the row of `decision_set` to play.
    fn select(
        &mut self,
        py: Python<'_>,
        decision_set: PyReadonlyArray2<'_, f64>,
    ) -> PyResult<usize> {
        let d = decision_set.as_array().to_owned();
        let (inner, rng) = (&mut self.inner, &mut self.rng);
        py.detach(|| inner.select(d.view(), rng)).map_err(jdp)
    }

    /// Add a client's message.
    fn observe(&mut self, message: &PyClientMessage) -> PyResult<()> {
        self.inner.observe(message.inner.clone()).map_err(jdp)
    }
}

#[allow(clippy::too_many_arguments)]
fn local_pair(
    d: usize,
    lengthscale: f64,
    mbar: Option<usize>,
    horizon: u64,
    params: &JdpQffParams,
    seed: u64,
    trial: usize,
) -> PyResult<(PyLocalServer, PyLocalClient)> {
    let features = features(d, lengthscale, mbar, horizon)?;
    let (server, client) = jdp_qff::local(features, horizon, params).map_err(jdp)?;
    Ok((
        PyLocalServer {
            inner: server,
            rng: trial_rng(seed, trial, Role::Agent),
        },
        PyLocalClient {
            inner: client,
            rng: trial_rng(seed, trial, Role::Curator),
        },
    ))
}

/// The server and the (one, shared-stream) client of the local-model algorithm (Algorithm 3),
/// with the arguments of [`jdp_pair`].
#[pyfunction]
#[pyo3(signature = (d, lengthscale, horizon, profile, alpha, beta, reward_bound, mbar, seed, trial))]
#[allow(clippy::too_many_arguments)]
fn jdp_local_pair(
    d: usize,
    lengthscale: f64,
    horizon: u64,
    profile: &str,
    alpha: f64,
    beta: f64,
    reward_bound: f64,
    mbar: Option<usize>,
    seed: u64,
    trial: usize,
) -> PyResult<(PyLocalServer, PyLocalClient)> {
    let p = params(profile, alpha, beta, reward_bound)?;
    local_pair(d, lengthscale, mbar, horizon, &p, seed, trial)
}

/// Adds Dubey's server and privatizer to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyPrivatizer>()?;
    m.add_class::<PyStatistics>()?;
    m.add_class::<PyServer>()?;
    m.add_function(wrap_pyfunction!(jdp_pair, m)?)?;
    m.add_function(wrap_pyfunction!(jdp_rust_trial, m)?)?;
    m.add_class::<PyLocalClient>()?;
    m.add_class::<PyClientMessage>()?;
    m.add_class::<PyLocalServer>()?;
    m.add_function(wrap_pyfunction!(jdp_local_pair, m)?)?;
    Ok(())
}
