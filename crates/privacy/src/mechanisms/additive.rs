//! The deterministic part of an additive-noise mechanism: `value + noise`, with the noise passed
//! in (for exact test vectors), shared by the Laplace and Gaussian mechanisms.

use ndarray::{Array1, ArrayView1};
use validation::{InputError, finite};

use crate::error::PrivacyError;

/// `value + noise`, entry by entry; both finite and of one length (`context` names the noise in
/// the error).
pub(crate) fn add_noise(
    context: &'static str,
    value: ArrayView1<'_, f64>,
    noise: ArrayView1<'_, f64>,
) -> Result<Array1<f64>, PrivacyError> {
    if value.len() != noise.len() {
        return Err(PrivacyError::Input(InputError::DimensionMismatch {
            context,
            expected: value.len(),
            got: noise.len(),
        }));
    }
    for &v in value.iter().chain(noise.iter()) {
        finite("query value or noise", v)?;
    }
    Ok(&value + &noise)
}
