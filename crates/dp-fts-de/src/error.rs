//! The dp-fts-de crate's error type: the shared bad-input vocabulary ([`InputError`], from the
//! `validation` crate) plus the errors of the crates it builds on.

use thiserror::Error;

pub use validation::InputError;

/// Everything that can go wrong in the dp-fts-de crate.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum DpFtsDeError {
    /// Bad input shared with the other crates ([`InputError`]): `q` outside `(0, 1]`,
    /// `z <= 0`, `S <= 0`, `M = 0`, a non-finite agent vector, a dimension mismatch.
    #[error(transparent)]
    Input(#[from] InputError),
    /// A setting that is well-formed number by number but not as a whole: `P = 0`, `P > N`,
    /// an agent index out of range, a round out of order.
    #[error("invalid setting: {0}")]
    Setting(String),
    /// An agent observed a point other than the query it selected (the select/observe guard
    /// of `bandit::policy`; a second select is `bandit::BanditError::SelectTwice`).
    #[error("observed point {observed}, but the pending query is {pending}")]
    ObservedOtherPoint {
        /// The point observed.
        observed: usize,
        /// The query awaiting its value.
        pending: usize,
    },
    /// An error of the kernel crate (features, Cholesky of the posterior).
    #[error(transparent)]
    Kernel(#[from] kernel::KernelError),
    /// An error of the privacy crate (the subsampled Gaussian, the accountants).
    #[error(transparent)]
    Privacy(#[from] privacy::PrivacyError),
    /// An error of the bandit crate (domains, partitions, objectives, data sets).
    #[error(transparent)]
    Bandit(#[from] bandit::BanditError),
}

impl From<DpFtsDeError> for privacy::PrivacyError {
    /// For [`privacy::Mechanism::release`]: input and privacy errors keep their type, the
    /// others become a calibration error with their message.
    fn from(e: DpFtsDeError) -> Self {
        match e {
            DpFtsDeError::Input(e) => Self::Input(e),
            DpFtsDeError::Privacy(e) => e,
            other => Self::Calibration(other.to_string()),
        }
    }
}
