//! Zhou & Tan 2021 (`ldp_bo`) from Python: the curator `CtlCurator` (Curator 1, the only maker
//! of a `PrivateReward`) and the six learners over a fixed finite arm set with the
//! select/observe protocol: the private LDP-TGP-UCB, LDP-ATA-GP-UCB and LDP-MoMA-GP-UCB, and
//! the non-private heavy-tailed TGP-UCB, ATA-GP-UCB and MoMA-GP-UCB (raw rewards). The trust
//! boundary stays a boundary: a learner's `observe` takes a `PrivateReward`, which Python
//! cannot construct (no constructor is exported); only `CtlCurator.privatize` returns one.
//!
//! Seeding: a curator and a learner made with `seed` and `trial` draw from the streams of
//! `bandit::seed::trial_rng(seed, trial, Role::Curator / Role::Agent)`, the streams of the Rust
//! runner, so a loop in Python fed the same rewards takes the Rust run's actions.

use std::sync::Arc;

use bandit::agent::{Agent, Curator};
use bandit::seed::{Role, trial_rng};
use kernel::{Kernel, Matern, MaternNu, SquaredExponential};
use ldp_bo::{
    AtaGpUcb, AtaParams, CtlCurator, LdpBoError, MomaGpUcb, MomaParams, Preset, PrivateReward,
    RewardMessage, TgpParams, TgpUcb,
};
use ndarray::{Array2, ArrayView2};
use numpy::PyReadonlyArray2;
use pyo3::prelude::*;
use rand_chacha::ChaCha20Rng;

use crate::errors;

fn ldp(e: LdpBoError) -> PyErr {
    errors::value(e)
}

/// Curator 1 of Zhou & Tan (CTL(eps)): releases `clip(y, -(B + R), B + R) + Laplace`, so the
/// released value is `epsilon`-LDP.
#[pyclass(module = "dpgpbandits._native", name = "CtlCurator")]
struct PyCtlCurator {
    inner: CtlCurator,
    rng: ChaCha20Rng,
}

#[pymethods]
impl PyCtlCurator {
    /// `epsilon`-LDP curator with the bounds `b` (on `|f|`) and `r` (the noise's range, as the
    /// paper's `R`), seeded with the Rust runner's curator stream of `(seed, trial)`.
    #[new]
    #[pyo3(signature = (epsilon, b, r, seed, trial = 0))]
    fn new(epsilon: f64, b: f64, r: f64, seed: u64, trial: usize) -> PyResult<Self> {
        Ok(Self {
            inner: CtlCurator::new(epsilon, b, r).map_err(ldp)?,
            rng: trial_rng(seed, trial, Role::Curator),
        })
    }

    /// Release `reward` privately: the only way to make a `PrivateReward`.
    fn privatize(&mut self, reward: f64) -> PyResult<PyPrivateReward> {
        Ok(PyPrivateReward {
            inner: self.inner.privatize(reward, &mut self.rng).map_err(ldp)?,
        })
    }

    /// The Laplace scale the curator uses.
    #[getter]
    fn laplace_scale(&self) -> f64 {
        self.inner.laplace_scale()
    }

    /// The privacy claim, as JSON.
    fn claim_json(&self) -> PyResult<String> {
        serde_json::to_string(&self.inner.claim()).map_err(errors::value)
    }
}

/// A reward released by a `CtlCurator`: what a private learner may observe. Not constructible
/// from Python.
#[pyclass(frozen, module = "dpgpbandits._native", name = "PrivateReward")]
struct PyPrivateReward {
    inner: PrivateReward,
}

#[pymethods]
impl PyPrivateReward {
    /// The released (private) value.
    #[getter]
    fn value(&self) -> f64 {
        self.inner.value()
    }

    fn __repr__(&self) -> String {
        format!("PrivateReward({})", self.inner.value())
    }
}

type K = Arc<dyn Kernel>;

/// One of the three learners, observing messages `M` (`PrivateReward` for the private ones,
/// `f64` for the heavy-tailed ones): the select/observe dispatch written once for both.
enum Learner<M> {
    Tgp(TgpUcb<K, M>),
    Ata(AtaGpUcb<K, M>),
    Moma(MomaGpUcb<K, M>),
}

impl<M: RewardMessage + Clone + Send> Learner<M> {
    fn select(
        &mut self,
        arms: ArrayView2<'_, f64>,
        rng: &mut ChaCha20Rng,
    ) -> Result<usize, LdpBoError> {
        match self {
            Self::Tgp(a) => a.select(arms, rng),
            Self::Ata(a) => a.select(arms, rng),
            Self::Moma(a) => a.select(arms, rng),
        }
    }

    fn observe(&mut self, m: M) -> Result<(), LdpBoError> {
        match self {
            Self::Tgp(a) => a.observe(m),
            Self::Ata(a) => a.observe(m),
            Self::Moma(a) => a.observe(m),
        }
    }

    /// The Rust runner's transcript of one trial with `curator` on the arms with `means` and
    /// rewards from `model` ([`crate::transcript::fixed_set_trial`]).
    #[allow(clippy::too_many_arguments)]
    fn trial<C: Curator<Message = M> + Send>(
        &mut self,
        py: Python<'_>,
        arms: Array2<f64>,
        means: ndarray::Array1<f64>,
        model: bandit::noise::RewardModel,
        curator: &mut C,
        horizon: usize,
        seed: u64,
    ) -> PyResult<(Vec<usize>, Vec<f64>)> {
        use crate::transcript::fixed_set_trial as run;
        match self {
            Self::Tgp(a) => run(py, arms, means, model, a, curator, horizon, seed),
            Self::Ata(a) => run(py, arms, means, model, a, curator, horizon, seed),
            Self::Moma(a) => run(py, arms, means, model, a, curator, horizon, seed),
        }
    }
}

/// A private learner of Zhou & Tan over a fixed finite arm set (one row per arm).
#[pyclass(module = "dpgpbandits._native", name = "LdpLearner")]
struct PyLdpLearner {
    inner: Learner<PrivateReward>,
    arms: Array2<f64>,
    rng: ChaCha20Rng,
}

/// The kernel named `kernel` (`se`, `matern12`, `matern32`, `matern52`) with lengthscale `l`.
fn kernel_named(kernel: &str, l: f64) -> PyResult<K> {
    let k: K = match kernel {
        "se" => Arc::new(SquaredExponential::isotropic(l).map_err(errors::value)?),
        "matern12" => Arc::new(Matern::isotropic(MaternNu::Half, l).map_err(errors::value)?),
        "matern32" => Arc::new(Matern::isotropic(MaternNu::ThreeHalves, l).map_err(errors::value)?),
        "matern52" => Arc::new(Matern::isotropic(MaternNu::FiveHalves, l).map_err(errors::value)?),
        other => {
            return Err(errors::value(format!(
                "kernel {other:?}: one of se, matern12, matern32, matern52"
            )));
        }
    };
    Ok(k)
}

#[pymethods]
impl PyLdpLearner {
    /// `algorithm` (`tgp`, `ata`, `moma`) on `arms` with the kernel `kernel` of lengthscale
    /// `lengthscale`, calibrated to `curator`'s Laplace scale, under `preset` (`theory` or
    /// `practical`), for `horizon` rounds (ATA and MoMA schedule by it); seeded with the Rust
    /// runner's agent stream of `(seed, trial)`.
    #[new]
    #[pyo3(signature = (algorithm, arms, kernel, lengthscale, curator, horizon, preset, seed, trial = 0))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        algorithm: &str,
        arms: PyReadonlyArray2<'_, f64>,
        kernel: &str,
        lengthscale: f64,
        curator: &PyCtlCurator,
        horizon: u64,
        preset: &str,
        seed: u64,
        trial: usize,
    ) -> PyResult<Self> {
        let arms = arms.as_array().to_owned();
        let k = kernel_named(kernel, lengthscale)?;
        let preset = Preset::named(preset).map_err(ldp)?;
        let c = &curator.inner;
        let inner = match algorithm {
            "tgp" => Learner::Tgp(
                TgpUcb::private(k, arms.view(), c, TgpParams::of(preset)).map_err(ldp)?,
            ),
            "ata" => Learner::Ata(
                AtaGpUcb::private(k, arms.view(), c, horizon, AtaParams::of(preset))
                    .map_err(ldp)?,
            ),
            "moma" => Learner::Moma(
                MomaGpUcb::private(k, arms.view(), c, horizon, MomaParams::of(preset))
                    .map_err(ldp)?,
            ),
            other => {
                return Err(errors::value(format!(
                    "algorithm {other:?}: one of tgp, ata, moma"
                )));
            }
        };
        Ok(Self {
            inner,
            arms,
            rng: trial_rng(seed, trial, Role::Agent),
        })
    }

    /// The index of the arm to play next.
    fn select(&mut self, py: Python<'_>) -> PyResult<usize> {
        let (arms, rng) = (self.arms.view(), &mut self.rng);
        let inner = &mut self.inner;
        py.detach(|| inner.select(arms, rng)).map_err(ldp)
    }

    /// Observe the private reward of the arm last selected.
    fn observe(&mut self, reward: &PyPrivateReward) -> PyResult<()> {
        self.inner.observe(reward.inner).map_err(ldp)
    }
}

/// The Rust runner's transcript of one trial on a fixed arm set with means `means` and Gaussian
/// noise `noise_sd`: `(actions, raw rewards)`, for the test that a Python loop fed the same
/// rewards takes the same actions.
#[pyfunction]
#[pyo3(signature = (algorithm, arms, means, noise_sd, kernel, lengthscale, epsilon, b, r, horizon, preset, seed))]
#[allow(clippy::too_many_arguments)]
fn rust_trial(
    py: Python<'_>,
    algorithm: &str,
    arms: PyReadonlyArray2<'_, f64>,
    means: numpy::PyReadonlyArray1<'_, f64>,
    noise_sd: f64,
    kernel: &str,
    lengthscale: f64,
    epsilon: f64,
    b: f64,
    r: f64,
    horizon: usize,
    preset: &str,
    seed: u64,
) -> PyResult<(Vec<usize>, Vec<f64>)> {
    let curator = PyCtlCurator::new(epsilon, b, r, seed, 0)?;
    let mut learner = PyLdpLearner::new(
        algorithm,
        arms.clone(),
        kernel,
        lengthscale,
        &curator,
        horizon as u64,
        preset,
        seed,
        0,
    )?;
    let model = bandit::noise::RewardModel::gaussian(noise_sd).map_err(errors::value)?;
    let mut curator = curator.inner;
    let (arms, means) = (arms.as_array().to_owned(), means.as_array().to_owned());
    learner
        .inner
        .trial(py, arms, means, model, &mut curator, horizon, seed)
}

/// A non-private heavy-tailed learner of Zhou & Tan (TGP-UCB, ATA-GP-UCB, MoMA-GP-UCB): it
/// observes raw rewards (no privacy; the baselines of the paper's Section 5).
#[pyclass(module = "dpgpbandits._native", name = "HeavyTailedLearner")]
struct PyHeavyTailed {
    inner: Learner<f64>,
    arms: Array2<f64>,
    rng: ChaCha20Rng,
}

impl PyHeavyTailed {
    #[allow(clippy::too_many_arguments)]
    fn build(
        algorithm: &str,
        arms: Array2<f64>,
        k: K,
        b: f64,
        alpha: f64,
        moment: f64,
        horizon: u64,
        preset: Preset,
        seed: u64,
        trial: usize,
    ) -> PyResult<Self> {
        let inner = match algorithm {
            "tgp" => Learner::Tgp(
                TgpUcb::heavy_tailed(k, arms.view(), b, alpha, moment, TgpParams::of(preset))
                    .map_err(ldp)?,
            ),
            "ata" => {
                // Theorem 2 covers alpha = 1 only, and the constructor takes no alpha.
                if alpha.to_bits() != 1f64.to_bits() {
                    return Err(errors::value(format!(
                        "alpha {alpha}: ATA-GP-UCB is defined for alpha = 1 (E[y^2] <= v)"
                    )));
                }
                Learner::Ata(
                    AtaGpUcb::heavy_tailed(
                        k,
                        arms.view(),
                        b,
                        moment,
                        horizon,
                        AtaParams::of(preset),
                    )
                    .map_err(ldp)?,
                )
            }
            "moma" => Learner::Moma(
                MomaGpUcb::heavy_tailed(
                    k,
                    arms.view(),
                    b,
                    alpha,
                    moment,
                    horizon,
                    MomaParams::of(preset),
                )
                .map_err(ldp)?,
            ),
            other => {
                return Err(errors::value(format!(
                    "algorithm {other:?}: one of tgp, ata, moma"
                )));
            }
        };
        Ok(Self {
            inner,
            arms,
            rng: trial_rng(seed, trial, Role::Agent),
        })
    }
}

#[pymethods]
impl PyHeavyTailed {
    /// `algorithm` (`tgp`, `ata`, `moma`) on `arms` for rewards with `||f||_H <= b` and the
    /// `(1 + alpha)`-th moment bound `moment` (`v` of TGP and ATA, `c` of MoMA's noise), under
    /// `preset`, seeded with the Rust runner's agent stream.
    #[new]
    #[pyo3(signature = (algorithm, arms, kernel, lengthscale, b, alpha, moment, horizon, preset, seed, trial = 0))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        algorithm: &str,
        arms: PyReadonlyArray2<'_, f64>,
        kernel: &str,
        lengthscale: f64,
        b: f64,
        alpha: f64,
        moment: f64,
        horizon: u64,
        preset: &str,
        seed: u64,
        trial: usize,
    ) -> PyResult<Self> {
        Self::build(
            algorithm,
            arms.as_array().to_owned(),
            kernel_named(kernel, lengthscale)?,
            b,
            alpha,
            moment,
            horizon,
            Preset::named(preset).map_err(ldp)?,
            seed,
            trial,
        )
    }

    /// The index of the arm to play next.
    fn select(&mut self, py: Python<'_>) -> PyResult<usize> {
        let (arms, rng) = (self.arms.view(), &mut self.rng);
        let inner = &mut self.inner;
        py.detach(|| inner.select(arms, rng)).map_err(ldp)
    }

    /// Observe the raw reward of the arm last selected.
    fn observe(&mut self, reward: f64) -> PyResult<()> {
        self.inner.observe(reward).map_err(ldp)
    }
}

/// The Rust runner's transcript of one trial of a heavy-tailed learner (raw rewards, the
/// identity curator) on fixed arms with Student-t noise of `nu` degrees of freedom and `scale`.
#[pyfunction]
#[pyo3(signature = (algorithm, arms, means, nu, scale, kernel, lengthscale, b, alpha, moment, horizon, preset, seed))]
#[allow(clippy::too_many_arguments)]
fn heavy_tailed_rust_trial(
    py: Python<'_>,
    algorithm: &str,
    arms: PyReadonlyArray2<'_, f64>,
    means: numpy::PyReadonlyArray1<'_, f64>,
    nu: f64,
    scale: f64,
    kernel: &str,
    lengthscale: f64,
    b: f64,
    alpha: f64,
    moment: f64,
    horizon: usize,
    preset: &str,
    seed: u64,
) -> PyResult<(Vec<usize>, Vec<f64>)> {
    let a = arms.as_array().to_owned();
    let mut learner = PyHeavyTailed::build(
        algorithm,
        a.clone(),
        kernel_named(kernel, lengthscale)?,
        b,
        alpha,
        moment,
        horizon as u64,
        Preset::named(preset).map_err(ldp)?,
        seed,
        0,
    )?;
    let model = bandit::noise::RewardModel::student_t(nu, scale).map_err(errors::value)?;
    let mut curator = bandit::agent::Identity;
    let (arms, means) = (a, means.as_array().to_owned());
    learner
        .inner
        .trial(py, arms, means, model, &mut curator, horizon, seed)
}

/// Adds Zhou & Tan's curator and learners to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyCtlCurator>()?;
    m.add_class::<PyPrivateReward>()?;
    m.add_class::<PyLdpLearner>()?;
    m.add_function(wrap_pyfunction!(rust_trial, m)?)?;
    m.add_class::<PyHeavyTailed>()?;
    m.add_function(wrap_pyfunction!(heavy_tailed_rust_trial, m)?)?;
    Ok(())
}
