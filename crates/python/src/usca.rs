//! Pavlovic, Salgia & Zhao 2025 (`usca`) from Python: the learning stage on the user's own
//! reward function (a Python callable, queried at the algorithm's data-independent points)
//! and the `eps`-DP prediction stage. The release is `predict`; the non-private utilities are
//! not exported.
//!
//! Seeding: `seed` selects three streams of `bandit::seed::trial_rng(seed, 0, role)`: the
//! environment's (contexts, actions and noise of the learning stage), the algorithm's coins
//! (`Z`, the design sample) and the prediction stage's draws, so a run is reproducible and
//! equal to the Rust run with the same reward function and seed.

use std::sync::{Arc, Mutex};

use bandit::domain::{BoxDomain, FiniteDomain};
use bandit::objective::Objective;
use bandit::seed::{Role, trial_rng};
use ndarray::{Array1, ArrayView1};
use numpy::{PyArray1, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;
use rand_chacha::ChaCha20Rng;
use usca::{
    ApproximatingSetSize, ContextSpace, ContextualProblem, JointKernel, KernelFamily, Usca,
    UscaError, UscaParams,
};

use crate::errors;

fn err(e: UscaError) -> PyErr {
    errors::value(e)
}

/// The user's reward function `f(x, c)` (a Python callable), as an [`Objective`] on
/// `[x; c]`. A Python exception is kept and raised after the learning stage (the value is NaN
/// meanwhile, which the learning data refuses).
#[derive(Debug)]
struct PyReward {
    f: Py<PyAny>,
    action_dim: usize,
    dim: usize,
    error: Mutex<Option<PyErr>>,
}

impl Objective for PyReward {
    fn dim(&self) -> usize {
        self.dim
    }

    fn value_unchecked(&self, w: ArrayView1<'_, f64>) -> f64 {
        Python::attach(|py| {
            let v = w.to_vec();
            let x = PyArray1::from_slice(py, &v[..self.action_dim]);
            let c = PyArray1::from_slice(py, &v[self.action_dim..]);
            match self.f.call1(py, (x, c)).and_then(|v| v.extract::<f64>(py)) {
                Ok(v) => v,
                Err(e) => {
                    let mut slot = self.error.lock().unwrap_or_else(|p| p.into_inner());
                    slot.get_or_insert(e);
                    f64::NAN
                }
            }
        })
    }
}

/// The reference reward of the equality test, `f(x, c) = x_0 c_0 - x_0^2 / 2`, in Rust (the
/// same operations in the same order as the Python test's callable, so both give the same
/// doubles).
#[derive(Debug)]
struct Reference {
    dim: usize,
    action_dim: usize,
}

impl Objective for Reference {
    fn dim(&self) -> usize {
        self.dim
    }

    fn value_unchecked(&self, w: ArrayView1<'_, f64>) -> f64 {
        let (x, c) = (w[0], w[self.action_dim]);
        x * c - x * x / 2.0
    }
}

/// USCA after its learning stage: predicts privately for any context.
#[pyclass(module = "dpgpbandits._native", name = "Usca")]
struct PyUsca {
    inner: Usca,
    rng: ChaCha20Rng,
    action_dim: usize,
}

/// USCA's parameters under a named profile (`proven`, `certified`, `query-context`,
/// `verbatim`) with `tau`, `reward_bound` and the cap on `|Z|`.
fn params(profile: &str, tau: f64, reward_bound: f64, z_cap: usize) -> PyResult<UscaParams> {
    let base = match profile {
        "proven" => UscaParams::proven(),
        "certified" => UscaParams::certified(64),
        "query-context" => UscaParams::query_context(Some(64)),
        "verbatim" => UscaParams::verbatim(),
        other => {
            return Err(errors::value(format!(
                "profile {other:?}: one of proven, certified, query-context, verbatim"
            )));
        }
    };
    Ok(UscaParams {
        tau,
        reward_bound,
        approximating_set: ApproximatingSetSize::Capped { cap: z_cap },
        ..base
    })
}

/// Run the learning stage and build USCA: `reward` (Python callable `f(x, c)`, or `None` for the
/// reference reward of the tests) at `horizon` data-independent queries, actions the rows of
/// `actions`, contexts uniform on the box `[lower, upper]`, Gaussian noise `noise_sd` added by
/// the environment, a product kernel of `family` with the two lengthscales, USCA's parameters
/// of `profile` with `tau`, `reward_bound` and the cap `z_cap` on `|Z|`.
#[pyfunction]
#[pyo3(signature = (reward, actions, lower, upper, horizon, noise_sd, family, action_lengthscale, context_lengthscale, profile, tau, reward_bound, z_cap, seed))]
#[allow(clippy::too_many_arguments)]
fn usca_learn(
    py: Python<'_>,
    reward: Option<Py<PyAny>>,
    actions: PyReadonlyArray2<'_, f64>,
    lower: PyReadonlyArray1<'_, f64>,
    upper: PyReadonlyArray1<'_, f64>,
    horizon: usize,
    noise_sd: f64,
    family: &str,
    action_lengthscale: f64,
    context_lengthscale: f64,
    profile: &str,
    tau: f64,
    reward_bound: f64,
    z_cap: usize,
    seed: u64,
) -> PyResult<PyUsca> {
    let params = params(profile, tau, reward_bound, z_cap)?;
    let actions = actions.as_array().to_owned();
    let action_dim = actions.ncols();
    let set = BoxDomain::new(lower.as_array().to_owned(), upper.as_array().to_owned())
        .map_err(errors::value)?;
    let context_dim = set.dim();
    let family = match family {
        "se" => KernelFamily::SquaredExponential,
        "matern52" => KernelFamily::Matern52,
        other => return Err(errors::value(format!("kernel {other:?}: se or matern52"))),
    };
    let joint = Arc::new(
        JointKernel::new(
            family,
            action_lengthscale,
            context_lengthscale,
            action_dim,
            context_dim,
        )
        .map_err(err)?,
    );
    let dim = action_dim + context_dim;
    let py_reward = reward.map(|f| {
        Arc::new(PyReward {
            f,
            action_dim,
            dim,
            error: Mutex::new(None),
        })
    });
    let objective: Arc<dyn Objective> = match &py_reward {
        Some(r) => r.clone(),
        None => Arc::new(Reference { dim, action_dim }),
    };
    let problem = ContextualProblem::new(
        FiniteDomain::new(actions).map_err(errors::value)?,
        ContextSpace::uniform(set),
        objective,
        noise_sd,
    )
    .map_err(err)?;
    let mut env = trial_rng(seed, 0, Role::Environment);
    let mut coins = trial_rng(seed, 0, Role::Agent);
    let kernel: Arc<dyn kernel::Kernel> = joint.clone();
    let result = py.detach(|| {
        Usca::learn(
            &problem,
            kernel,
            Some(&joint),
            params,
            horizon,
            &mut env,
            &mut coins,
        )
    });
    if let Some(r) = &py_reward
        && let Some(e) = r.error.lock().unwrap_or_else(|p| p.into_inner()).take()
    {
        return Err(e);
    }
    Ok(PyUsca {
        inner: result.map_err(err)?,
        rng: trial_rng(seed, 0, Role::Curator),
        action_dim,
    })
}

#[pymethods]
impl PyUsca {
    /// The `epsilon`-DP recommendation (an index of the actions) for `context`.
    fn predict(&mut self, context: PyReadonlyArray1<'_, f64>, epsilon: f64) -> PyResult<usize> {
        let c: Array1<f64> = context.as_array().to_owned();
        self.inner
            .predict(c.view(), epsilon, &mut self.rng)
            .map_err(err)
    }

    /// The sensitivity `Delta` the prediction at `context` is calibrated to.
    fn sensitivity(&self, context: PyReadonlyArray1<'_, f64>) -> PyResult<f64> {
        let c: Array1<f64> = context.as_array().to_owned();
        Ok(self
            .inner
            .sensitivity_at(c.view())
            .map_err(err)?
            .sensitivity())
    }

    /// `T`, `gamma_T`, `K`, `|Z|`, `rho`, the rule and `sup sigma^2`, as JSON.
    fn summary_json(&self) -> PyResult<String> {
        let s = self.inner.summary();
        Ok(serde_json::json!({
            "horizon": s.horizon, "gamma_t": s.gamma_t, "k": s.k, "z_size": s.z_size,
            "rho": s.rho, "rule": s.bound.rule().label(), "sup_sigma2": s.bound.sup_sigma2(),
            "sensitivity": s.bound.sensitivity(), "reward_bound": s.bound.reward_bound(),
            "action_dim": self.action_dim,
        })
        .to_string())
    }
}

/// Adds USCA to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyUsca>()?;
    m.add_function(wrap_pyfunction!(usca_learn, m)?)?;
    Ok(())
}
