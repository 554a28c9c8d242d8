//! The shared bad-input error.

use thiserror::Error;

use crate::interval::Interval;

/// One kind of bad input. Each variant names what was bad (`what` or `context`, a
/// `&'static str` such as `"epsilon"` or `"kernel input x"`) and carries the offending value, and
/// its message says what was expected. Crate errors wrap it in a transparent `Input` variant
/// (see the crate documentation).
#[derive(Debug, Error, Clone, PartialEq)]
#[non_exhaustive]
pub enum InputError {
    /// A set, batch, list or stream that must be non-empty is empty.
    #[error("{what} must not be empty")]
    Empty {
        /// What was empty.
        what: &'static str,
    },
    /// A value is NaN or an infinity.
    #[error("{what}{} must be finite, got {value}", at_index(*.index))]
    NonFinite {
        /// Which value or which collection.
        what: &'static str,
        /// Flat index of the first non-finite entry when the input is a collection, `None` for
        /// a single value.
        index: Option<usize>,
        /// The offending value.
        value: f64,
    },
    /// A value is NaN where any other value, infinities included, is allowed (a reward that
    /// is clipped before use).
    #[error("{what} must not be NaN")]
    NotANumber {
        /// Which value.
        what: &'static str,
    },
    /// Two things that must have equal dimensions (lengths, numbers of columns, ...) do not.
    #[error("dimension mismatch in {context}: expected {expected}, got {got}")]
    DimensionMismatch {
        /// Where the mismatch happened.
        context: &'static str,
        /// The dimension that was expected.
        expected: usize,
        /// The dimension that was found.
        got: usize,
    },
    /// A parameter that must be finite and strictly positive is not (it is `<= 0`, `-0.0`,
    /// NaN or infinite).
    #[error("{what} must be finite and > 0, got {value}")]
    NotPositive {
        /// Which parameter.
        what: &'static str,
        /// The offending value.
        value: f64,
    },
    /// A parameter that must be finite and non-negative is not (it is `< 0`, NaN or infinite).
    #[error("{what} must be finite and >= 0, got {value}")]
    Negative {
        /// Which parameter.
        what: &'static str,
        /// The offending value.
        value: f64,
    },
    /// A parameter lies outside its admissible interval (NaN lies in no interval).
    #[error("{what} must lie in {range}, got {value}")]
    OutOfRange {
        /// Which parameter.
        what: &'static str,
        /// The offending value (an integer parameter is converted to `f64` to be reported).
        value: f64,
        /// The admissible interval, printed in interval notation ("(0, 1]").
        range: Interval,
    },
    /// A count (horizon, number of steps, features, rounds, ...) that must be `>= 1` is zero.
    #[error("{what} must be >= 1, got 0")]
    ZeroCount {
        /// Which count.
        what: &'static str,
    },
    /// An index is past the end of what it indexes.
    #[error("{what} {index} is out of range for {len} elements")]
    IndexOutOfRange {
        /// What the index is (an arm, an action, a node, ...).
        what: &'static str,
        /// The index given.
        index: usize,
        /// Number of elements (valid indices are `0..len`).
        len: usize,
    },
    /// A value violates a constraint that is not an interval (it must equal another parameter,
    /// or be large enough for a derived quantity); `requirement` states the constraint.
    #[error("{what} = {value} is invalid: {requirement}")]
    Unsatisfied {
        /// Which parameter.
        what: &'static str,
        /// The offending value.
        value: f64,
        /// The constraint in words ("must equal the mechanism's clipping bound").
        requirement: &'static str,
    },
    /// A name that is not one of the known choices (a preset, a mode).
    #[error("unknown {what} `{name}` (known: {known})")]
    UnknownName {
        /// What kind of name.
        what: &'static str,
        /// The name given.
        name: String,
        /// The known names, comma-separated.
        known: &'static str,
    },
}

/// `"[i]"` after the name of a collection whose entry `i` is bad, nothing for a single value.
fn at_index(index: Option<usize>) -> String {
    index.map_or_else(String::new, |i| format!("[{i}]"))
}
