//! The privacy crate's error type: the shared bad-input vocabulary ([`InputError`], from the
//! `validation` crate) plus what only privacy calibrations can get wrong.

use thiserror::Error;

pub use validation::InputError;

/// Everything that can go wrong in the privacy crate. Bad parameters and inputs (an epsilon
/// that is not finite and positive, a delta outside `[0, 1)`, a negative sensitivity, a NaN
/// reward, a horizon of zero, a dimension mismatch, an empty candidate set, ...) are the
/// variants of [`InputError`], wrapped in [`PrivacyError::Input`]; each says which parameter
/// was bad, its value and what was expected.
#[derive(Debug, Error, Clone, PartialEq)]
#[non_exhaustive]
pub enum PrivacyError {
    /// A bad parameter or input (see [`InputError`]).
    #[error(transparent)]
    Input(#[from] InputError),
    /// A calibration or conversion has no solution for the requested target.
    #[error("calibration failed: {0}")]
    Calibration(String),
    /// An accountant can state no finite epsilon at the requested delta (the loss is
    /// unbounded there): a typed outcome, never a number.
    #[error("no finite epsilon: {0}")]
    Unbounded(String),
    /// An exact sampler drew a value beyond the machine integers (`i64`) of its fast path
    /// (probability below `exp(-500 000)` at the parameters that path accepts): reported, never
    /// replaced by another value.
    #[error("exact sampler: a draw beyond the 64-bit integers ({0})")]
    SampleOverflow(&'static str),
    /// A privacy-loss distribution's grid would need more points than allowed at the bin width
    /// asked for: a coarser bin width answers (the message says what needed how many points,
    /// and which option sets the width).
    #[error("grid too fine: {0}")]
    GridTooFine(String),
}
