//! The jdp-qff crate's error type: the shared bad-input vocabulary ([`InputError`], from the
//! `validation` crate) plus the errors of the crates it builds on.

use thiserror::Error;

pub use validation::InputError;

/// Everything that can go wrong in the jdp-qff crate.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum JdpQffError {
    /// Bad input shared with the other crates ([`InputError`]): `alpha <= 0`, `beta` outside
    /// `(0, 1)`, `m = 0`, `T = 0`, a non-finite reward or feature, a dimension mismatch.
    #[error(transparent)]
    Input(#[from] InputError),
    /// An error of the kernel crate (features, Cholesky of `V_t`).
    #[error(transparent)]
    Kernel(#[from] kernel::KernelError),
    /// An error of the privacy crate (calibration, tree, samplers).
    #[error(transparent)]
    Privacy(#[from] privacy::PrivacyError),
    /// An error of the bandit crate (decision sets, the select/observe protocol, the runner).
    #[error(transparent)]
    Bandit(#[from] bandit::BanditError),
}

impl From<JdpQffError> for privacy::PrivacyError {
    /// For [`privacy::Mechanism::release`]: input and privacy errors keep their type, the others
    /// (a feature map that rejects a point, ...) become a calibration error with their message.
    fn from(e: JdpQffError) -> Self {
        match e {
            JdpQffError::Input(e) => Self::Input(e),
            JdpQffError::Privacy(e) => e,
            JdpQffError::Kernel(kernel::KernelError::Input(e)) => Self::Input(e),
            other => Self::Calibration(other.to_string()),
        }
    }
}
