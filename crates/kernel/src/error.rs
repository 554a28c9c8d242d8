//! The kernel crate's error type: the shared bad-input vocabulary ([`InputError`], from the
//! `validation` crate) plus what only kernels and linear algebra can get wrong.

use thiserror::Error;

pub use validation::InputError;

/// Everything that can go wrong in the kernel crate. Each kind of bad input has its own variant
/// and a message that says what was expected. The kinds every crate shares (a hyperparameter
/// that is not finite and positive, a NaN input, a dimension mismatch, an empty set, a zero
/// count) are the variants of [`InputError`], wrapped in [`KernelError::Input`].
#[derive(Debug, Error, Clone, PartialEq)]
#[non_exhaustive]
pub enum KernelError {
    /// Bad input of a kind shared with the other crates (see [`InputError`]).
    #[error(transparent)]
    Input(#[from] InputError),
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
    /// An arm index of a precomputed kernel is not an integer in range.
    #[error("arm index {value} is not an integer in 0..{n_arms}")]
    ArmIndexOutOfRange {
        /// The value given as an arm index.
        value: f64,
        /// Number of arms of the precomputed kernel.
        n_arms: usize,
    },
    /// A count parameter (number of features, quadrature nodes, candidate multisets) is too
    /// large for what it builds. A count of zero is [`InputError::ZeroCount`].
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
