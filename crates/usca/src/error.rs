//! The usca crate's error type: the shared bad-input vocabulary ([`InputError`], from the
//! `validation` crate) plus the errors of the crates it builds on.

use thiserror::Error;

pub use validation::InputError;

/// Everything that can go wrong in the usca crate.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum UscaError {
    /// Bad input shared with the other crates ([`InputError`]): `eps <= 0`, `tau <= 0`,
    /// `B <= 0`, `T = 0`, an empty action set, a NaN reward, a dimension mismatch.
    #[error(transparent)]
    Input(#[from] InputError),
    /// A context that lies outside the context set `C` (the box the privacy guarantee ranges
    /// over).
    #[error("context {index} lies outside the context set C = {set}")]
    ContextOutside {
        /// Which context (its row in the batch, or 0 for a single one).
        index: usize,
        /// The box `C`, printed.
        set: String,
    },
    /// An approximating set larger than the caller allowed (`|Z| = T K` grows like `T^2 / gamma_T`).
    #[error(
        "the approximating set would have {size} points (more than the allowed {limit}): \
         choose ApproximatingSetSize::Capped or ::Fixed"
    )]
    ApproximatingSetTooLarge {
        /// `|Z|` the rule asks for.
        size: usize,
        /// The largest `|Z|` allowed.
        limit: usize,
    },
    /// An error of the kernel crate (kernel evaluation, Cholesky).
    #[error(transparent)]
    Kernel(#[from] kernel::KernelError),
    /// An error of the privacy crate (the exponential mechanism).
    #[error(transparent)]
    Privacy(#[from] privacy::PrivacyError),
    /// An error of the bandit crate (domains, objectives).
    #[error(transparent)]
    Bandit(#[from] bandit::BanditError),
}

impl From<UscaError> for privacy::PrivacyError {
    /// For [`privacy::Mechanism::release`]: input and privacy errors keep their type, the
    /// others become a calibration error with their message.
    fn from(e: UscaError) -> Self {
        match e {
            UscaError::Input(e) => Self::Input(e),
            UscaError::Privacy(e) => e,
            other => Self::Calibration(other.to_string()),
        }
    }
}
