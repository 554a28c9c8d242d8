//! Errors as Python exceptions: bad input is a `ValueError` with our message; an unbounded
//! privacy loss is `UnboundedPrivacyLoss` (a `ValueError`); a privacy violation found by the
//! auditor is `PrivacyViolation`.

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyValueError};
use pyo3::prelude::*;

create_exception!(
    dpgpbandits,
    PrivacyViolation,
    PyException,
    "The auditor certified that a mechanism violates its privacy claim."
);
create_exception!(
    dpgpbandits,
    UnboundedPrivacyLoss,
    PyValueError,
    "No finite epsilon exists for the request (the privacy loss is unbounded)."
);

/// Adds the exception types to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("PrivacyViolation", py.get_type::<PrivacyViolation>())?;
    m.add(
        "UnboundedPrivacyLoss",
        py.get_type::<UnboundedPrivacyLoss>(),
    )?;
    Ok(())
}

/// A privacy-crate error as a Python exception.
pub(crate) fn privacy(e: privacy::PrivacyError) -> PyErr {
    match e {
        privacy::PrivacyError::Unbounded(_) => UnboundedPrivacyLoss::new_err(e.to_string()),
        _ => PyValueError::new_err(e.to_string()),
    }
}

/// An auditor error as a Python exception (`ValueError`: every audit error is about its input
/// or its outputs).
pub(crate) fn audit(e: verification::audit::AuditError) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// Any displayable error as a `ValueError`.
pub(crate) fn value(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}
