//! The published fixtures ([`verification::fixtures::compare`], the code of
//! `cargo xtask compare`): list, load, and compare a user's outputs with the same per-field
//! tolerances and report.

use std::path::PathBuf;

use pyo3::prelude::*;
use verification::fixtures::compare::{compare_value, published};

use crate::errors;

/// The fixtures directory of this checkout, where the package was built from (the Python layer
/// lets `DPGPBANDITS_FIXTURES` or an explicit `root` override it).
#[pyfunction]
fn default_fixtures_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures")
}

/// Every published fixture under `root`, as JSON: `{"AREA/NAME": fixture, ...}`.
#[pyfunction]
fn fixtures_json(root: PathBuf) -> PyResult<String> {
    let all = published(&root).map_err(errors::value)?;
    serde_json::to_string(&all).map_err(errors::value)
}

/// Compare `outputs_json` (the JSON of a fixture's `outputs` object) with the fixture `name`
/// (`AREA/NAME`) under `root`; the per-field report as JSON.
#[pyfunction]
fn compare_json(root: PathBuf, name: &str, outputs_json: &str) -> PyResult<String> {
    let all = published(&root).map_err(errors::value)?;
    let fixture = all.get(name).ok_or_else(|| {
        errors::value(format!(
            "no fixture {name:?} under {}: one of {}",
            root.display(),
            all.keys().cloned().collect::<Vec<_>>().join(", ")
        ))
    })?;
    let outputs: serde_json::Value = serde_json::from_str(outputs_json).map_err(errors::value)?;
    let outcome = compare_value(name, fixture, &serde_json::json!({ "outputs": outputs }));
    serde_json::to_string(&outcome).map_err(errors::value)
}

/// Adds the fixtures to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(default_fixtures_root, m)?)?;
    m.add_function(wrap_pyfunction!(fixtures_json, m)?)?;
    m.add_function(wrap_pyfunction!(compare_json, m)?)?;
    Ok(())
}
