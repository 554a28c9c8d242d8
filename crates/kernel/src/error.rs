//! The kernel crate's error type.

use thiserror::Error;

/// Everything that can go wrong in the kernel crate. Each kind of bad input has its own variant
/// and a message that says what was expected.
#[derive(Debug, Error, Clone, PartialEq)]
#[non_exhaustive]
pub enum KernelError {
    /// A hyperparameter (lengthscale, variance, regulariser, ...) is not a finite positive number.
    #[error("{name} must be finite and > 0, got {value}")]
    NonPositiveParameter {
        /// Which parameter.
        name: &'static str,
        /// The offending value.
        value: f64,
    },
    /// An input contains NaN or an infinity.
    #[error("{what} contains a non-finite value ({value}) at index {index}")]
    NonFinite {
        /// Which input.
        what: &'static str,
        /// Flat index of the first non-finite entry.
        index: usize,
        /// The offending value.
        value: f64,
    },
    /// Two things that must have equal dimensions do not.
    #[error("dimension mismatch in {context}: expected {expected}, got {got}")]
    DimensionMismatch {
        /// Where the mismatch happened.
        context: &'static str,
        /// The dimension that was expected.
        expected: usize,
        /// The dimension that was found.
        got: usize,
    },
    /// A matrix that must be square is not.
    #[error("{what} must be square, got {rows} x {cols}")]
    NotSquare {
        /// Which matrix.
        what: &'static str,
        /// Number of rows.
        rows: usize,
        /// Number of columns.
        cols: usize,
    },
    /// A matrix that must be symmetric is not (beyond a relative tolerance).
    #[error("{what} is not symmetric: |A[{i},{j}] - A[{j},{i}]| = {gap:e}")]
    NotSymmetric {
        /// Which matrix.
        what: &'static str,
        /// Row of the worst asymmetry.
        i: usize,
        /// Column of the worst asymmetry.
        j: usize,
        /// Size of the asymmetry.
        gap: f64,
    },
    /// A matrix that must be positive (semi-)definite is not.
    #[error("{what} is not positive {kind}definite: {detail}")]
    NotPositiveDefinite {
        /// Which matrix.
        what: &'static str,
        /// "semi-" for PSD checks, "" for PD.
        kind: &'static str,
        /// What failed (smallest eigenvalue, failed pivot, ...).
        detail: String,
    },
    /// A set, batch or list that must be non-empty is empty.
    #[error("{what} must not be empty")]
    Empty {
        /// What was empty.
        what: &'static str,
    },
    /// An arm index of a precomputed kernel is not an integer in range.
    #[error("arm index {value} is not an integer in 0..{n_arms}")]
    ArmIndexOutOfRange {
        /// The value given as an arm index.
        value: f64,
        /// Number of arms of the precomputed kernel.
        n_arms: usize,
    },
    /// A count parameter (number of features, nodes, ...) is invalid.
    #[error("invalid {name}: {reason}")]
    InvalidCount {
        /// Which parameter.
        name: &'static str,
        /// Why it is invalid.
        reason: String,
    },
    /// A kernel or feature map is used where it is not supported.
    #[error("unsupported: {0}")]
    Unsupported(String),
}

/// Return an error if any entry of `values` is not finite.
pub fn ensure_finite<'a>(
    what: &'static str,
    values: impl IntoIterator<Item = &'a f64>,
) -> Result<(), KernelError> {
    for (index, &value) in values.into_iter().enumerate() {
        if !value.is_finite() {
            return Err(KernelError::NonFinite { what, index, value });
        }
    }
    Ok(())
}

/// Return `value` if it is finite and strictly positive, otherwise a
/// [`KernelError::NonPositiveParameter`].
pub fn positive(name: &'static str, value: f64) -> Result<f64, KernelError> {
    if value.is_finite() && value > 0.0 {
        Ok(value)
    } else {
        Err(KernelError::NonPositiveParameter { name, value })
    }
}
