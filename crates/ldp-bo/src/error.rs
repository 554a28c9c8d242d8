//! The ldp-bo crate's error type: the shared bad-input vocabulary ([`InputError`], from the
//! `validation` crate) plus the errors of the crates it builds on.

use thiserror::Error;

pub use validation::InputError;

/// Everything that can go wrong in the ldp-bo crate.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum LdpBoError {
    /// Bad input of a kind shared with the other crates (see [`InputError`]): a parameter
    /// that is not positive or not in its interval, a horizon or count of zero, a non-finite
    /// reward or message, a dimension mismatch, `B + R` other than the mechanism's bound.
    #[error(transparent)]
    Input(#[from] InputError),
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
