//! One vocabulary of bad-input errors for the whole workspace.
//!
//! Every crate of the workspace validates what it is given (principle 5 of the design: bad input
//! gets a clear error, never a panic or a silent NaN), and the kinds of bad input are the same
//! everywhere: an empty set, a NaN or an infinity, a dimension mismatch, a parameter that must be
//! positive, non-negative or inside an interval, a count that must be at least one, an index
//! past the end. Before this crate each of kernel, bandit, privacy and ldp-bo defined its own
//! copy of these variants and of the checks that produce them, with slightly different fields
//! and messages. Here they are defined once:
//!
//! - [`InputError`]: one variant per kind of bad input, each carrying the offending value and a
//!   `&'static str` naming what it is, with a message that says what was expected;
//! - [`Interval`]: an interval of the real line with open or closed ends, used both to check a
//!   value and to print the admissible range in the message, so the two cannot disagree;
//! - the checks ([`finite`], [`ensure_finite`], [`positive`], [`non_negative`], [`open_unit`],
//!   [`in_range`], [`at_least_one`], [`non_empty`], [`matching_dimension`], [`index_in`]),
//!   each returning the validated value or the matching [`InputError`].
//!
//! # How a crate error wraps it
//!
//! A crate keeps its own `thiserror` enum for what is specific to it (a matrix that is not
//! positive definite, a calibration without a solution, ...) and wraps the shared vocabulary in
//! one transparent variant, so that `?` converts and the message is unchanged:
//!
//! ```
//! use thiserror::Error;
//! use validation::{InputError, Interval, in_range, positive};
//!
//! /// The error of a (hypothetical) paper crate.
//! #[derive(Debug, Error)]
//! #[non_exhaustive]
//! pub enum PaperError {
//!     /// Bad input (shared vocabulary).
//!     #[error(transparent)]
//!     Input(#[from] InputError),
//!     /// Something only this crate can get wrong.
//!     #[error("the schedule has no phase for round {0}")]
//!     NoPhase(usize),
//! }
//!
//! fn confidence_width(beta: f64, delta: f64) -> Result<f64, PaperError> {
//!     let beta = positive("beta", beta)?;
//!     let delta = in_range("delta", delta, Interval::OPEN_UNIT)?;
//!     Ok(beta * (1.0 / delta).ln())
//! }
//!
//! assert!(confidence_width(2.0, 0.05).is_ok());
//! let err = confidence_width(0.0, 0.05).unwrap_err();
//! assert!(matches!(err, PaperError::Input(InputError::NotPositive { what: "beta", .. })));
//! assert_eq!(err.to_string(), "beta must be finite and > 0, got 0");
//! let err = confidence_width(1.0, 1.0).unwrap_err();
//! assert_eq!(err.to_string(), "delta must lie in (0, 1), got 1");
//! ```
//!
//! Tests of a crate match on `Err(PaperError::Input(InputError::NotPositive { .. }))`. The
//! crate depends only on `thiserror`, so it sits at the bottom of the dependency graph and every
//! crate can use it.

mod checks;
mod error;
mod interval;

pub use checks::{
    Count, at_least_one, ensure_finite, finite, in_range, index_in, matching_dimension, non_empty,
    non_negative, not_nan, open_unit, positive,
};
pub use error::InputError;
pub use interval::Interval;
