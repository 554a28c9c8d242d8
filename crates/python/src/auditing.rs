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

/// The outputs of one input as the auditor's [`Outputs`]: a 1-D float array (`scalar`), a 2-D
/// float array, one output per row (`vector`), or a sequence of labels (`discrete`).
fn outputs(kind: &str, x: &Bound<'_, PyAny>) -> PyResult<Outputs> {
    Ok(match kind {
        "scalar" => Outputs::Scalar(
            x.extract::<PyReadonlyArray1<'_, f64>>()?
                .as_array()
                .to_vec(),
        ),
        "vector" => Outputs::Vector(
            x.extract::<PyReadonlyArray2<'_, f64>>()?
                .as_array()
                .rows()
                .into_iter()
                .map(|r| r.to_vec())
                .collect(),
        ),
        "discrete" => Outputs::Discrete(x.extract::<Vec<String>>()?),
        other => {
            return Err(errors::value(format!(
                "output kind {other:?}: one of scalar, vector, discrete"
            )));
        }
    })
}

/// Audit the outputs `x` and `x_prime` of `kind` against the claim of `eps`, `delta`, `mu`,
/// `rho` and `gaussian_noise` ([`StatedClaim`]), with the statistic (`None`: the kind's
/// default), the false-alarm probability `alpha`, the training fraction, the target
/// tightness and the shuffling seed of `cargo xtask audit`. Runs without the GIL.
#[pyfunction]
#[pyo3(signature = (kind, x, x_prime, eps, delta, mu, rho, gaussian_noise, statistic, alpha, train_fraction, target_tightness, seed))]
#[allow(clippy::too_many_arguments)]
fn audit(
    py: Python<'_>,
    kind: &str,
    x: &Bound<'_, PyAny>,
    x_prime: &Bound<'_, PyAny>,
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
    let (a, b) = (outputs(kind, x)?, outputs(kind, x_prime)?);
    let claim = StatedClaim {
        eps,
        delta,
        mu,
        rho,
        gaussian_noise,
    };
    let (stated, _) = claim.claim().map_err(errors::audit)?;
    let config = claim.config(alpha, seed).map_err(errors::audit)?;
    let audit = py
        .detach(|| {
            audit_external(
                a,
                b,
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

/// Adds the auditor to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(audit, m)?)?;
    m.add_class::<NativeAudit>()?;
    Ok(())
}
