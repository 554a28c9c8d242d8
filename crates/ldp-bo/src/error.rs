//! The ldp-bo crate's error type.

use thiserror::Error;

/// Everything that can go wrong in the ldp-bo crate.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum LdpBoError {
    /// A parameter is outside its documented range.
    #[error("{name} = {value} is invalid: {reason}")]
    InvalidParameter {
        /// Which parameter.
        name: &'static str,
        /// The value given.
        value: f64,
        /// What is required.
        reason: &'static str,
    },
    /// The horizon or a count is zero.
    #[error("{what} must be >= 1")]
    ZeroCount {
        /// Which count.
        what: &'static str,
    },
    /// A reward or message is not finite.
    #[error("{what} must be finite, got {value}")]
    NonFinite {
        /// Which value.
        what: &'static str,
        /// The offending value.
        value: f64,
    },
    /// An arm index is out of range.
    #[error("arm index {index} is out of range for {n_arms} arms")]
    ArmOutOfRange {
        /// The index.
        index: usize,
        /// Number of arms.
        n_arms: usize,
    },
    /// Inputs of mismatched sizes.
    #[error("dimension mismatch in {context}: expected {expected}, got {got}")]
    DimensionMismatch {
        /// Where.
        context: &'static str,
        /// Expected size.
        expected: usize,
        /// Found size.
        got: usize,
    },
    /// An error of the kernel crate.
    #[error(transparent)]
    Kernel(#[from] kernel::KernelError),
    /// An error of the privacy crate.
    #[error(transparent)]
    Privacy(#[from] privacy::PrivacyError),
    /// An error of the bandit crate (environments, data sets, the runner) or of the learner
    /// plumbing the agents share with it (`bandit::policy`): an empty or non-finite arm set,
    /// a decision set other than the arm set, a non-finite score or message, `observe` before
    /// `select`, MoMA's `select` twice.
    #[error(transparent)]
    Bandit(#[from] bandit::BanditError),
}

/// `Ok(value)` when `value` is finite and `> 0`.
pub(crate) fn positive(name: &'static str, value: f64) -> Result<f64, LdpBoError> {
    if value.is_finite() && value > 0.0 {
        Ok(value)
    } else {
        Err(LdpBoError::InvalidParameter {
            name,
            value,
            reason: "must be finite and > 0",
        })
    }
}

/// `Ok(value)` when `value` is finite and `>= 0`.
pub(crate) fn non_negative(name: &'static str, value: f64) -> Result<f64, LdpBoError> {
    if value.is_finite() && value >= 0.0 {
        Ok(value)
    } else {
        Err(LdpBoError::InvalidParameter {
            name,
            value,
            reason: "must be finite and >= 0",
        })
    }
}

/// `Ok(value)` when `value` lies in the open interval (0, 1).
pub(crate) fn open_unit(name: &'static str, value: f64) -> Result<f64, LdpBoError> {
    if value > 0.0 && value < 1.0 {
        Ok(value)
    } else {
        Err(LdpBoError::InvalidParameter {
            name,
            value,
            reason: "must lie in (0, 1)",
        })
    }
}
