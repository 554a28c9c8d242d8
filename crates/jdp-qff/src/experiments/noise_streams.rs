//! Which random stream each curve's privacy noise comes from: the control for the coupling of
//! the curves of one figure through their noise.
//!
//! By default a trial's curator draws its noise from the trial's curator stream
//! ([`bandit::seed::trial_rng`] with [`bandit::seed::Role::Curator`]), the same for every curve
//! of a figure. The textbook Gaussian is `sigma z` with `z` from that stream, and the curves of
//! Figures 1 and 2 differ only in `sigma`, so they see the same `z`s in the same order: their
//! noise is coupled (common random numbers), and a paired comparison between curves sees the
//! difference of `sigma`s without the spread of independent noise. The exact sampler couples
//! two curves the same way only when both `sigma`s are above `2^32` grid units (its uniform
//! offset then takes one 64-bit word with negligible rejection; below, a 32-bit word with a
//! rejection whose probability depends on `sigma`): in Figures 1 and 2 that is `alpha = 0.5`
//! and `alpha = 0.1` alone (`docs/privacy.md`, "Same seed, different scales";
//! `docs/jdp-qff.md`, "The hardened sampler in the reproduction").
//! [`NoiseStreams::PerCurve`] gives each curve a stream of its own
//! ([`bandit::seed::own_stream`]): the curator stream seeds a ChaCha20 key (32 bytes, the only
//! draw from it), and the curve's own stream number is the FNV-1a hash of its setting. Same law for every curve, independent noise across
//! curves (as far as ChaCha20's streams are independent), reproducible from the seed.

use bandit::agent::{Curator, Feedback};
use bandit::seed::own_stream;
use rand::Rng;
use rand_chacha::ChaCha20Rng;
use serde::Serialize;

use super::panels::Setting;

/// Where the curves of a figure draw their privacy noise from.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum NoiseStreams {
    /// The trial's curator stream, the same for every curve (the reproduction's default).
    #[default]
    Shared,
    /// A stream of the curve's own per trial (see the module docs).
    PerCurve,
}

impl NoiseStreams {
    /// The label of `setting`'s own noise stream under [`NoiseStreams::PerCurve`] (`None` when
    /// shared): the setting's `Debug` form (every field, floats in their shortest round-trip
    /// decimal), hashed into a stream number by [`bandit::seed::own_stream`].
    pub fn curve_label(self, setting: &Setting) -> Option<String> {
        match self {
            Self::Shared => None,
            Self::PerCurve => Some(format!("{setting:?}")),
        }
    }
}

/// A curator that draws its noise from its own stream when it has one, from the runner's
/// curator stream otherwise (then it is the inner curator, draw for draw).
#[derive(Debug, Clone)]
pub(super) struct OwnNoise<C> {
    inner: C,
    rng: Option<ChaCha20Rng>,
}

impl<C> OwnNoise<C> {
    /// `inner` with its noise from the stream labelled `stream` ([`own_stream`] of `curator_rng`,
    /// the trial's curator stream), or from the runner's curator stream when `stream` is `None`
    /// (nothing is drawn then).
    pub(super) fn new(inner: C, stream: Option<&str>, curator_rng: &mut ChaCha20Rng) -> Self {
        let rng = stream.map(|label| own_stream(curator_rng, label));
        Self { inner, rng }
    }
}

impl<C: Curator> Curator for OwnNoise<C> {
    type Message = C::Message;
    type Error = C::Error;

    fn curate<R: Rng + ?Sized>(
        &mut self,
        feedback: &Feedback<'_>,
        rng: &mut R,
    ) -> Result<Self::Message, Self::Error> {
        match &mut self.rng {
            Some(own) => self.inner.curate(feedback, own),
            None => self.inner.curate(feedback, rng),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{NoiseStreams, OwnNoise};
    use crate::experiments::Setting;
    use bandit::agent::{Curator, Feedback};
    use rand::{Rng, RngExt, SeedableRng};
    use rand_chacha::ChaCha20Rng;

    /// A curator whose message is its next uniform word (the noise stream made visible).
    struct Word;
    impl Curator for Word {
        type Message = u64;
        type Error = std::convert::Infallible;
        fn curate<R: Rng + ?Sized>(
            &mut self,
            _: &Feedback<'_>,
            rng: &mut R,
        ) -> Result<u64, Self::Error> {
            Ok(rng.random())
        }
    }

    fn words(streams: NoiseStreams, setting: &Setting) -> Vec<u64> {
        let mut curator_rng = ChaCha20Rng::seed_from_u64(7);
        let label = streams.curve_label(setting);
        let mut c = OwnNoise::new(Word, label.as_deref(), &mut curator_rng);
        let point = ndarray::array![0.0];
        let feedback = Feedback {
            round: 0,
            action: 0,
            point: point.view(),
            reward: 0.0,
        };
        (0..4)
            .map(|_| c.curate(&feedback, &mut curator_rng).unwrap())
            .collect()
    }

    #[test]
    fn shared_streams_are_the_runners_and_per_curve_labels_differ_by_curve() {
        let a = Setting::Jdp {
            alpha: 1.0,
            beta: 0.1,
        };
        let b = Setting::Jdp {
            alpha: 0.5,
            beta: 0.1,
        };
        // Shared: the curator stream itself, whatever the curve.
        let mut r = ChaCha20Rng::seed_from_u64(7);
        let direct: Vec<u64> = (0..4).map(|_| r.random()).collect();
        assert_eq!(words(NoiseStreams::Shared, &a), direct);
        assert_eq!(words(NoiseStreams::Shared, &b), direct);
        // Per curve: reproducible, different across curves and from the shared stream.
        let (pa, pb) = (
            words(NoiseStreams::PerCurve, &a),
            words(NoiseStreams::PerCurve, &b),
        );
        assert_eq!(pa, words(NoiseStreams::PerCurve, &a));
        assert_ne!(pa, pb);
        assert_ne!(pa, direct);
        assert_ne!(
            NoiseStreams::PerCurve.curve_label(&a),
            NoiseStreams::PerCurve.curve_label(&b)
        );
    }
}
