//! The native part of the Python package `dpgpbandits` (`dpgpbandits._native`): thin wrappers of
//! the workspace's accountants ([`privacy::accountant`]), external auditor
//! ([`verification::audit::external`]), fixtures ([`verification::fixtures`]) and the learners
//! of Zhou & Tan ([`::ldp_bo`]) and Dubey ([`::jdp_qff`]), select/observe with the curator
//! as the trust boundary. The Python
//! layer (`python/dpgpbandits/`) gives them their documented, typed interface; everything here
//! is the same code the `cargo xtask` commands run, so the two give the same numbers.
//!
//! Long computations (PLD composition, calibration, audits) release the GIL.

use pyo3::prelude::*;

mod accounting;
mod auditing;
mod dp_fts_de;
mod errors;
mod fixtures;
mod jdp_qff;
mod ldp_bo;
mod transcript;
mod usca;

/// The extension module.
#[pymodule]
#[pyo3(name = "_native")]
fn native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(m)?;
    accounting::register(m)?;
    auditing::register(m)?;
    fixtures::register(m)?;
    ldp_bo::register(m)?;
    jdp_qff::register(m)?;
    usca::register(m)?;
    dp_fts_de::register(m)?;
    Ok(())
}
