//! The [`Mechanism`] trait: a randomised function together with its privacy map, modelled on
//! OpenDP's `Measurement` (an `invoke` function plus the privacy map that states what it
//! promises on neighbouring inputs).

use rand::Rng;

use crate::claim::PrivacyClaim;
use crate::error::PrivacyError;

/// A randomised release with the privacy claim it satisfies.
///
/// Every mechanism of [`crate::mechanisms`] and every curator of a paper crate implements this
/// trait, so that the auditor of the verification crate can run `(mechanism, x, x')` directly:
/// it calls [`Mechanism::release`] many times on two neighbouring inputs and tests the output
/// distributions against [`Mechanism::claim`]. A release that fails is an error of the audit,
/// never a sample.
///
/// # Proof definition
/// For every pair of inputs `x, x'` that are neighbours under `claim().neighbouring`, and for
/// every state of the random number generator that is independent of the inputs, the output
/// distributions of `release(x, rng)` and `release(x', rng)` satisfy `claim().guarantee`
/// (for example, for pure eps-DP: `P[release(x) in S] <= e^eps P[release(x') in S]` for every
/// measurable set `S`), under the trust model `claim().model`. Inputs on which `release`
/// returns an error release nothing. The calibration that proves it is documented on each
/// implementing type (and in `docs/privacy.md`).
///
/// # Examples
/// ```
/// use privacy::{Guarantee, LaplaceMechanism, Mechanism};
/// use rand::SeedableRng;
/// use rand_chacha::ChaCha20Rng;
///
/// // eps = 1 for a query of L1 sensitivity 1: neighbouring query values differ by at most 1.
/// let m = LaplaceMechanism::new(1.0, 1.0)?;
/// assert!(matches!(m.claim().guarantee, Guarantee::PureDp { .. }));
///
/// let mut rng = ChaCha20Rng::seed_from_u64(7);
/// let y = m.release(&0.5, &mut rng)?;
/// assert!(y.is_finite());
///
/// // A bad input is an error, not an output.
/// assert!(m.release(&f64::NAN, &mut rng).is_err());
/// # Ok::<(), privacy::PrivacyError>(())
/// ```
pub trait Mechanism {
    /// What one invocation reads (a query value, a vector of utilities, a dataset, a stream).
    type Input: ?Sized;
    /// What it releases.
    type Output;

    /// The guarantee, the trust model and the neighbouring relation (the privacy map).
    fn claim(&self) -> PrivacyClaim;

    /// One randomised release; errors (bad input, sampler failure) are returned, never turned
    /// into an output.
    fn release<R: Rng + ?Sized>(
        &self,
        input: &Self::Input,
        rng: &mut R,
    ) -> Result<Self::Output, PrivacyError>;
}
