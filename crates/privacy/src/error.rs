//! The privacy crate's error type.

use thiserror::Error;

/// Everything that can go wrong in the privacy crate.
#[derive(Debug, Error, Clone, PartialEq)]
#[non_exhaustive]
pub enum PrivacyError {
    /// epsilon must be finite and > 0.
    #[error("epsilon must be finite and > 0, got {0}")]
    InvalidEpsilon(f64),
    /// delta must lie in [0, 1).
    #[error("delta must lie in [0, 1), got {0}")]
    InvalidDelta(f64),
    /// A zCDP parameter rho must be finite and > 0.
    #[error("rho (zCDP) must be finite and > 0, got {0}")]
    InvalidRho(f64),
    /// A Gaussian-DP parameter mu must be finite and > 0.
    #[error("mu (Gaussian DP) must be finite and > 0, got {0}")]
    InvalidMu(f64),
    /// A sensitivity must be finite and >= 0.
    #[error("sensitivity must be finite and >= 0, got {0}")]
    InvalidSensitivity(f64),
    /// A noise scale (Laplace b, Gaussian sigma) must be finite and > 0.
    #[error("noise scale must be finite and > 0, got {0}")]
    InvalidNoiseScale(f64),
    /// A sampling rate q must lie in (0, 1].
    #[error("sampling rate q must lie in (0, 1], got {0}")]
    InvalidSamplingRate(f64),
    /// A noise multiplier z must be finite and > 0.
    #[error("noise multiplier z must be finite and > 0, got {0}")]
    InvalidNoiseMultiplier(f64),
    /// A number of steps, rounds or a horizon must be >= 1.
    #[error("{what} must be >= 1, got {got}")]
    ZeroCount {
        /// Which count.
        what: &'static str,
        /// The value given.
        got: u64,
    },
    /// A Renyi order must be finite and > 1.
    #[error("Renyi order must be finite and > 1, got {0}")]
    InvalidOrder(f64),
    /// An input value (reward, vector entry, utility, ...) is not finite.
    #[error("{what} must be finite, got {value}")]
    NonFinite {
        /// Which value.
        what: &'static str,
        /// The offending value.
        value: f64,
    },
    /// A parameter is outside its documented range.
    #[error("{name} = {value} is out of range: {reason}")]
    OutOfRange {
        /// Which parameter.
        name: &'static str,
        /// The value given.
        value: f64,
        /// The documented range.
        reason: &'static str,
    },
    /// Two things that must have equal dimensions do not.
    #[error("dimension mismatch in {context}: expected {expected}, got {got}")]
    DimensionMismatch {
        /// Where.
        context: &'static str,
        /// Expected dimension.
        expected: usize,
        /// Found dimension.
        got: usize,
    },
    /// A set that must be non-empty is empty.
    #[error("{what} must not be empty")]
    Empty {
        /// What was empty.
        what: &'static str,
    },
    /// A calibration or conversion has no solution for the requested target.
    #[error("calibration failed: {0}")]
    Calibration(String),
}
