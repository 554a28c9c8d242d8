//! The auditor over numpy arrays: [`verification::audit::external::audit_external`] (the code of
//! `cargo xtask audit`) on two samples of a mechanism's outputs, one per input of a
//! neighbouring pair, against a claim stated as numbers
//! ([`verification::audit::external::StatedClaim`]).

use numpy::{PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;
use verification::audit::external::{ExternalAudit, Outputs, StatedClaim, audit_external};

use crate::errors;

/// The outcome of one audit: read it as JSON (`json()`), write its trade-off plot
/// (`write_plot`).
#[pyclass(frozen, module = "dpgpbandits._native", name = "NativeAudit")]
struct NativeAudit {
    audit: ExternalAudit,
}

#[pymethods]
impl NativeAudit {
    /// The whole outcome as JSON (the object of `cargo xtask audit --json`, without `plot`).
    fn json(&self) -> PyResult<String> {
        serde_json::to_string(&self.audit).map_err(errors::value)
    }

    /// Write the trade-off plot (SVG) to `path` under `title`.
    fn write_plot(&self, path: std::path::PathBuf, title: &str) -> PyResult<()> {
        verification::plot::tradeoff(&path, title, &self.audit.result).map_err(errors::value)
    }
}

/// The options every audit shares.
#[allow(clippy::too_many_arguments)]
fn run(
    py: Python<'_>,
    x: Outputs,
    x_prime: Outputs,
    claim: StatedClaim,
    statistic: Option<String>,
    alpha: f64,
    train_fraction: f64,
    target_tightness: f64,
    seed: u64,
) -> PyResult<NativeAudit> {
    let (stated, _) = claim.claim().map_err(errors::audit)?;
    let config = claim.config(alpha, seed).map_err(errors::audit)?;
    let audit = py
        .detach(|| {
            audit_external(
                x,
                x_prime,
                &stated,
                statistic.as_deref(),
                train_fraction,
                target_tightness,
                &config,
            )
        })
        .map_err(errors::audit)?;
    Ok(NativeAudit { audit })
}

/// The claim of the keyword arguments.
fn stated(
    eps: Option<f64>,
    delta: Option<f64>,
    mu: Option<f64>,
    rho: Option<f64>,
    gaussian_noise: bool,
) -> StatedClaim {
    StatedClaim {
        eps,
        delta,
        mu,
        rho,
        gaussian_noise,
    }
}

/// Audit scalar outputs (1-D float arrays).
#[pyfunction]
#[pyo3(signature = (x, x_prime, eps, delta, mu, rho, gaussian_noise, statistic, alpha, train_fraction, target_tightness, seed))]
#[allow(clippy::too_many_arguments)]
fn audit_scalar(
    py: Python<'_>,
    x: PyReadonlyArray1<'_, f64>,
    x_prime: PyReadonlyArray1<'_, f64>,
    eps: Option<f64>,
    delta: Option<f64>,
    mu: Option<f64>,
    rho: Option<f64>,
    gaussian_noise: bool,
    statistic: Option<String>,
    alpha: f64,
    train_fraction: f64,
    target_tightness: f64,
    seed: u64,
) -> PyResult<NativeAudit> {
    let a = Outputs::Scalar(x.as_array().to_vec());
    let b = Outputs::Scalar(x_prime.as_array().to_vec());
    run(
        py,
        a,
        b,
        stated(eps, delta, mu, rho, gaussian_noise),
        statistic,
        alpha,
        train_fraction,
        target_tightness,
        seed,
    )
}

/// Audit vector outputs (2-D float arrays, one output per row).
#[pyfunction]
#[pyo3(signature = (x, x_prime, eps, delta, mu, rho, gaussian_noise, statistic, alpha, train_fraction, target_tightness, seed))]
#[allow(clippy::too_many_arguments)]
fn audit_vector(
    py: Python<'_>,
    x: PyReadonlyArray2<'_, f64>,
    x_prime: PyReadonlyArray2<'_, f64>,
    eps: Option<f64>,
    delta: Option<f64>,
    mu: Option<f64>,
    rho: Option<f64>,
    gaussian_noise: bool,
    statistic: Option<String>,
    alpha: f64,
    train_fraction: f64,
    target_tightness: f64,
    seed: u64,
) -> PyResult<NativeAudit> {
    let rows = |a: &PyReadonlyArray2<'_, f64>| -> Vec<Vec<f64>> {
        a.as_array()
            .rows()
            .into_iter()
            .map(|r| r.to_vec())
            .collect()
    };
    run(
        py,
        Outputs::Vector(rows(&x)),
        Outputs::Vector(rows(&x_prime)),
        stated(eps, delta, mu, rho, gaussian_noise),
        statistic,
        alpha,
        train_fraction,
        target_tightness,
        seed,
    )
}

/// Audit discrete outputs (sequences of labels).
#[pyfunction]
#[pyo3(signature = (x, x_prime, eps, delta, mu, rho, gaussian_noise, statistic, alpha, train_fraction, target_tightness, seed))]
#[allow(clippy::too_many_arguments)]
fn audit_discrete(
    py: Python<'_>,
    x: Vec<String>,
    x_prime: Vec<String>,
    eps: Option<f64>,
    delta: Option<f64>,
    mu: Option<f64>,
    rho: Option<f64>,
    gaussian_noise: bool,
    statistic: Option<String>,
    alpha: f64,
    train_fraction: f64,
    target_tightness: f64,
    seed: u64,
) -> PyResult<NativeAudit> {
    run(
        py,
        Outputs::Discrete(x),
        Outputs::Discrete(x_prime),
        stated(eps, delta, mu, rho, gaussian_noise),
        statistic,
        alpha,
        train_fraction,
        target_tightness,
        seed,
    )
}

/// Adds the auditor to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(audit_scalar, m)?)?;
    m.add_function(wrap_pyfunction!(audit_vector, m)?)?;
    m.add_function(wrap_pyfunction!(audit_discrete, m)?)?;
    m.add_class::<NativeAudit>()?;
    Ok(())
}
