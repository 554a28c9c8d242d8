//! The accountants of the Poisson-subsampled Gaussian by name
//! ([`privacy::accountant::named`], the code of `cargo xtask accountant`) and composable
//! privacy-loss distributions ([`privacy::accountant::PrivacyLossDistribution`]).

use privacy::accountant::named::{self, Accountant, Relation};
use privacy::accountant::{PldSettings, PrivacyLossDistribution};
use pyo3::prelude::*;

use crate::errors;

/// Epsilon of `steps` rounds of the Poisson-subsampled Gaussian under one accountant, as the
/// JSON object of `cargo xtask accountant --json` (one row of its `results`).
#[pyfunction]
#[pyo3(signature = (noise_multiplier, sample_rate, steps, delta, accountant, relation, pld_bin_width))]
#[allow(clippy::too_many_arguments)]
fn subsampled_gaussian_epsilon_json(
    py: Python<'_>,
    noise_multiplier: f64,
    sample_rate: f64,
    steps: u64,
    delta: f64,
    accountant: &str,
    relation: &str,
    pld_bin_width: f64,
) -> PyResult<String> {
    let a = Accountant::named(accountant).map_err(errors::privacy)?;
    let r = Relation::named(relation).map_err(errors::privacy)?;
    let e = py
        .detach(|| {
            named::subsampled_gaussian(
                a,
                r,
                sample_rate,
                noise_multiplier,
                steps,
                delta,
                Some(pld_bin_width),
            )
        })
        .map_err(errors::privacy)?;
    if !e.epsilon.is_finite() {
        return Err(errors::UnboundedPrivacyLoss::new_err(format!(
            "{} accountant: no finite epsilon at q = {sample_rate}, z = {noise_multiplier}, \
             steps = {steps}, delta = {delta:e}",
            a.name()
        )));
    }
    let mut v = serde_json::to_value(e).map_err(errors::value)?;
    if let Some(o) = v.as_object_mut() {
        o.insert("note".into(), a.description(r).into());
        o.insert("is_bound".into(), a.is_bound().into());
    }
    Ok(v.to_string())
}

/// The smallest noise multiplier whose epsilon is at most `target_epsilon`, as JSON (the
/// calibration's facts: `noise_multiplier`, `epsilon`, `epsilon_below`, `resolution`,
/// `evaluations`).
#[pyfunction]
#[pyo3(signature = (target_epsilon, target_delta, sample_rate, steps, accountant, relation, resolution, pld_bin_width))]
#[allow(clippy::too_many_arguments)]
fn noise_multiplier_json(
    py: Python<'_>,
    target_epsilon: f64,
    target_delta: f64,
    sample_rate: f64,
    steps: u64,
    accountant: &str,
    relation: &str,
    resolution: f64,
    pld_bin_width: f64,
) -> PyResult<String> {
    let a = Accountant::named(accountant).map_err(errors::privacy)?;
    let r = Relation::named(relation).map_err(errors::privacy)?;
    let c = py
        .detach(|| {
            named::subsampled_gaussian_noise_multiplier(
                a,
                r,
                target_epsilon,
                sample_rate,
                steps,
                target_delta,
                resolution,
                Some(pld_bin_width),
                |_, _| {},
            )
        })
        .map_err(errors::privacy)?;
    let below = match c.epsilon_below {
        Some(e) if e.is_finite() => serde_json::json!(e),
        Some(_) => serde_json::json!("unbounded"),
        None => serde_json::json!(null),
    };
    Ok(serde_json::json!({
        "accountant": a.name(), "relation": r.name(), "noise_multiplier": c.noise_multiplier,
        "epsilon": c.epsilon, "epsilon_below": below, "resolution": c.resolution,
        "evaluations": c.evaluations, "note": a.description(r), "is_bound": a.is_bound(),
    })
    .to_string())
}

/// A privacy-loss distribution (both orientations, add and remove, with every discretisation
/// error bounded): immutable; `compose` and `self_compose` return new objects.
#[pyclass(
    frozen,
    module = "dpgpbandits._native",
    name = "PrivacyLossDistribution"
)]
struct Pld {
    inner: PrivacyLossDistribution,
    bin_width: f64,
}

fn settings(bin_width: f64) -> PldSettings {
    PldSettings {
        bin_width,
        ..PldSettings::default()
    }
}

#[pymethods]
impl Pld {
    /// The Poisson-subsampled Gaussian (sampling probability `q`, noise multiplier `z`):
    /// add/remove, or replace-one (the dominating pair).
    #[staticmethod]
    fn subsampled_gaussian(
        py: Python<'_>,
        z: f64,
        q: f64,
        bin_width: f64,
        relation: &str,
    ) -> PyResult<Self> {
        let r = Relation::named(relation).map_err(errors::privacy)?;
        let inner = py
            .detach(|| match r {
                Relation::AddRemove => {
                    PrivacyLossDistribution::subsampled_gaussian(q, z, settings(bin_width))
                }
                Relation::ReplaceOne => PrivacyLossDistribution::subsampled_gaussian_replace_one(
                    q,
                    z,
                    settings(bin_width),
                ),
            })
            .map_err(errors::privacy)?;
        Ok(Self { inner, bin_width })
    }

    /// The Laplace mechanism with privacy parameter `epsilon` (scale = sensitivity / epsilon).
    #[staticmethod]
    fn laplace(epsilon: f64, bin_width: f64) -> PyResult<Self> {
        let inner = PrivacyLossDistribution::laplace(epsilon, settings(bin_width))
            .map_err(errors::privacy)?;
        Ok(Self { inner, bin_width })
    }

    /// `k`-ary randomized response with privacy parameter `epsilon`.
    #[staticmethod]
    fn randomized_response(epsilon: f64, k: u32, bin_width: f64) -> PyResult<Self> {
        let inner = PrivacyLossDistribution::randomized_response(epsilon, k, settings(bin_width))
            .map_err(errors::privacy)?;
        Ok(Self { inner, bin_width })
    }

    /// The composition with `other` (the same bin width).
    fn compose(&self, py: Python<'_>, other: &Self) -> PyResult<Self> {
        let inner = py
            .detach(|| self.inner.compose(&other.inner))
            .map_err(errors::privacy)?;
        Ok(Self {
            inner,
            bin_width: self.bin_width,
        })
    }

    /// `steps` compositions of this distribution with itself.
    fn self_compose(&self, py: Python<'_>, steps: u64) -> PyResult<Self> {
        let inner = py
            .detach(|| self.inner.self_compose(steps))
            .map_err(errors::privacy)?;
        Ok(Self {
            inner,
            bin_width: self.bin_width,
        })
    }

    /// The smallest epsilon with delta(epsilon) <= `delta` over both orientations (an upper
    /// bound).
    fn epsilon(&self, py: Python<'_>, delta: f64) -> PyResult<f64> {
        py.detach(|| self.inner.epsilon(delta))
            .map_err(errors::privacy)
    }

    /// The epsilons of the remove and the add orientations at `delta`.
    fn epsilons(&self, py: Python<'_>, delta: f64) -> PyResult<(f64, f64)> {
        py.detach(|| self.inner.epsilons(delta))
            .map_err(errors::privacy)
    }

    /// delta(`epsilon`), the largest over both orientations (an upper bound).
    fn delta(&self, py: Python<'_>, epsilon: f64) -> PyResult<f64> {
        py.detach(|| self.inner.delta(epsilon))
            .map_err(errors::privacy)
    }

    /// The bin width of the loss grid.
    #[getter]
    fn bin_width(&self) -> f64 {
        self.bin_width
    }
}

/// The twelve reference settings `(q, z, steps, delta)` of the PLD accountant
/// (`privacy::accountant::pld::reference`), on which it is compared with dp_accounting.
#[pyfunction]
fn pld_reference_settings() -> Vec<(f64, f64, u64, f64)> {
    privacy::accountant::pld::reference::REFERENCE_SETTINGS.to_vec()
}

/// Adds the accountants to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(subsampled_gaussian_epsilon_json, m)?)?;
    m.add_function(wrap_pyfunction!(noise_multiplier_json, m)?)?;
    m.add_function(wrap_pyfunction!(pld_reference_settings, m)?)?;
    m.add_class::<Pld>()?;
    Ok(())
}
