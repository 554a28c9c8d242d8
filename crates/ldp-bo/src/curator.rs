//! The privacy boundary: the CTL(eps) curator (Zhou & Tan 2021, Curator 1, Lemma 1) between
//! the environment's raw rewards and the learners.
//!
//! A learner of this crate is generic over its message type `M: RewardMessage`. The private
//! algorithms use [`PrivateReward`], which has no public constructor: the only way to make one
//! is [`CtlCurator`]'s [`bandit::agent::Curator::curate`], which clips the reward to
//! `[-(B+R), B+R]` and adds Laplace noise through [`ConvertToLaplace`]. The
//! non-private algorithms use `f64` with [`bandit::agent::Identity`]. The type checker thus
//! guarantees that a private learner never sees a raw reward.

use bandit::agent::{Curator, Feedback};
use privacy::{Mechanism, PrivacyClaim, PrivacyError};
use rand::Rng;

use crate::convert_to_laplace::ConvertToLaplace;
use crate::error::LdpBoError;
use validation::InputError;

/// What a learner sees of one reward.
pub trait RewardMessage {
    /// The reward value as the learner sees it.
    fn reward(&self) -> f64;
}

impl RewardMessage for f64 {
    fn reward(&self) -> f64 {
        *self
    }
}

/// A reward after CTL(eps): `clip(y, -(B+R), B+R) + Laplace`. Only [`CtlCurator`] makes one.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PrivateReward(f64);

impl PrivateReward {
    /// The privatised value `y_bar`.
    pub fn value(&self) -> f64 {
        self.0
    }
}

impl RewardMessage for PrivateReward {
    fn reward(&self) -> f64 {
        self.0
    }
}

/// The CTL(eps) curator as a [`Curator`] of the bandit runner.
#[derive(Debug, Clone, PartialEq)]
pub struct CtlCurator {
    mechanism: ConvertToLaplace,
    b: f64,
    r: f64,
}

impl CtlCurator {
    /// CTL(eps) for `|f| <= B` and noise `|eta| <= R`, with the hardened (exact discrete
    /// Laplace on a grid) sampler.
    pub fn new(epsilon: f64, b: f64, r: f64) -> Result<Self, LdpBoError> {
        Ok(Self {
            mechanism: ConvertToLaplace::new(epsilon, b, r)?,
            b,
            r,
        })
    }

    /// A curator around a configured mechanism (another sampler, the sub-Weibull variant of
    /// Section 4.5); `b` and `r` must be the mechanism's `B` and `R`.
    pub fn from_mechanism(mechanism: ConvertToLaplace, b: f64, r: f64) -> Result<Self, LdpBoError> {
        if (mechanism.bound() - (b + r)).abs() > 1e-12 * mechanism.bound() {
            return Err(InputError::Unsatisfied {
                what: "B + R",
                value: b + r,
                requirement: "must equal the mechanism's clipping bound",
            }
            .into());
        }
        Ok(Self { mechanism, b, r })
    }

    /// The Section 4.5 variant for i.i.d. sub-Weibull(theta) noise:
    /// `R = k1 ln(T/delta)^theta`.
    pub fn sub_weibull(
        epsilon: f64,
        b: f64,
        k1: f64,
        theta: f64,
        horizon: u64,
        delta: f64,
    ) -> Result<Self, LdpBoError> {
        let mechanism = ConvertToLaplace::sub_weibull(epsilon, b, k1, theta, horizon, delta)?;
        let r = mechanism.bound() - b;
        Ok(Self { mechanism, b, r })
    }

    /// The mechanism.
    pub fn mechanism(&self) -> &ConvertToLaplace {
        &self.mechanism
    }

    /// `B`.
    pub fn b(&self) -> f64 {
        self.b
    }

    /// `R`.
    pub fn r(&self) -> f64 {
        self.r
    }

    /// The Laplace scale actually used (`2(B+R)/eps`, times the grid factor of the hardened
    /// sampler): the public parameter learners calibrate their truncation with.
    pub fn laplace_scale(&self) -> f64 {
        self.mechanism.scale()
    }

    /// The privacy claim: pure eps-LDP per user.
    pub fn claim(&self) -> PrivacyClaim {
        self.mechanism.claim()
    }

    /// Privatise one reward (the curator's whole job, also usable outside the runner; the
    /// same as [`Mechanism::release`], with the crate's error type).
    pub fn privatize<R: Rng + ?Sized>(
        &self,
        reward: f64,
        rng: &mut R,
    ) -> Result<PrivateReward, LdpBoError> {
        Ok(Mechanism::release(self, &reward, rng)?)
    }
}

/// Input: one user's raw reward; output: the learner's message [`PrivateReward`]
/// (`clip(y, -(B+R), B+R) + Laplace`, [`ConvertToLaplace::privatize`]). Claim: the CTL(eps)
/// claim, pure eps-LDP ([`CtlCurator::claim`]; Zhou & Tan 2021, Lemma 1).
impl Mechanism for CtlCurator {
    type Input = f64;
    type Output = PrivateReward;

    fn claim(&self) -> PrivacyClaim {
        CtlCurator::claim(self)
    }

    fn release<R: Rng + ?Sized>(
        &self,
        input: &f64,
        rng: &mut R,
    ) -> Result<PrivateReward, PrivacyError> {
        Ok(PrivateReward(self.mechanism.privatize(*input, rng)?))
    }
}

impl Curator for CtlCurator {
    type Message = PrivateReward;
    type Error = LdpBoError;

    fn curate<R: Rng + ?Sized>(
        &mut self,
        feedback: &Feedback<'_>,
        rng: &mut R,
    ) -> Result<PrivateReward, LdpBoError> {
        self.privatize(feedback.reward, rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha20Rng;

    /// Curator 1 depends on `B` and `R` only through `B + R` (clip range and Laplace scale), so
    /// swapping them cannot change the released distribution: a privacy audit cannot flag such
    /// a swap, and none is needed for privacy. `B` and `R` enter separately only in the
    /// schedule (the width `beta_t` of Algorithm 2 starts with `B`): a swap there is a utility
    /// error, for schedule checks to catch, not a privacy one.
    #[test]
    fn b_and_r_enter_the_curator_only_through_their_sum() {
        let (e, b, r) = (0.25, 1.0, 0.5);
        let c = CtlCurator::new(e, b, r).unwrap();
        let s = CtlCurator::new(e, r, b).unwrap();
        assert_eq!(
            c.mechanism().bound().to_bits(),
            s.mechanism().bound().to_bits()
        );
        assert_eq!(c.laplace_scale().to_bits(), s.laplace_scale().to_bits());
        assert_eq!(c.claim(), s.claim());
    }

    #[test]
    fn clips_before_noise_and_rejects_nan() {
        let c = CtlCurator::new(1.0, 1.0, 1.0).unwrap();
        assert!(c.laplace_scale() >= 4.0);
        let mut rng = ChaCha20Rng::seed_from_u64(1);
        // A huge reward is clipped to 2: the message stays within a few scales of 2.
        let mut max_seen = f64::NEG_INFINITY;
        for _ in 0..1000 {
            let m = c.privatize(1e9, &mut rng).unwrap().value();
            max_seen = max_seen.max(m);
        }
        assert!(max_seen < 2.0 + 4.0 * 30.0, "{max_seen}");
        assert!(c.privatize(f64::NAN, &mut rng).is_err());
    }

    #[test]
    fn mechanism_release_is_privatize() {
        let c = CtlCurator::new(1.0, 1.0, 0.5).unwrap();
        assert_eq!(Mechanism::claim(&c), c.mechanism().claim());
        for seed in 0..20 {
            let (mut a, mut b) = (
                ChaCha20Rng::seed_from_u64(seed),
                ChaCha20Rng::seed_from_u64(seed),
            );
            for y in [-3.0, -0.2, 0.0, 0.7, 40.0] {
                let via_trait = Mechanism::release(&c, &y, &mut a).unwrap();
                let direct = c.mechanism().privatize(y, &mut b).unwrap();
                assert_eq!(via_trait.value().to_bits(), direct.to_bits());
            }
        }
        // An infinite reward is clipped like any other out-of-range value (issue 13, item 6):
        // the release equals that of the bound itself, bit for bit; NaN is an error.
        for (y, bound) in [(f64::INFINITY, 1.5), (f64::NEG_INFINITY, -1.5)] {
            let (mut a, mut b) = (ChaCha20Rng::seed_from_u64(3), ChaCha20Rng::seed_from_u64(3));
            let inf = Mechanism::release(&c, &y, &mut a).unwrap().value();
            let at_bound = Mechanism::release(&c, &bound, &mut b).unwrap().value();
            assert!(inf.is_finite());
            assert_eq!(inf.to_bits(), at_bound.to_bits());
        }
        let mut rng = ChaCha20Rng::seed_from_u64(1);
        assert!(matches!(
            Mechanism::release(&c, &f64::NAN, &mut rng),
            Err(PrivacyError::Input(privacy::InputError::NotANumber { .. }))
        ));
    }

    #[test]
    fn bad_parameters() {
        assert!(CtlCurator::new(0.0, 1.0, 1.0).is_err());
        assert!(CtlCurator::new(1.0, -1.0, 1.0).is_err());
        assert!(CtlCurator::new(1.0, 1.0, f64::NAN).is_err());
        let m = ConvertToLaplace::new(1.0, 1.0, 1.0).unwrap();
        assert!(CtlCurator::from_mechanism(m, 1.0, 2.0).is_err());
    }

    /// `from_mechanism` accepts `B` and `R` whose sum is the mechanism's bound to a relative
    /// 1e-12 (rounding), rejects any other, and names the offending sum.
    #[test]
    fn from_mechanism_checks_b_plus_r() {
        let m = ConvertToLaplace::new(1.0, 3.0, 0.5).unwrap();
        let c = CtlCurator::from_mechanism(m.clone(), 3.0, 0.5).unwrap();
        assert_eq!(
            (c.b().to_bits(), c.r().to_bits()),
            (3f64.to_bits(), 0.5f64.to_bits())
        );
        assert!(CtlCurator::from_mechanism(m.clone(), 0.5, 3.0).is_ok());
        let err = CtlCurator::from_mechanism(m, 3.0, 1.25)
            .unwrap_err()
            .to_string();
        assert!(err.contains("4.25"), "{err}");
        // At B + R = 1e6 a difference of 1e-8 is within the relative tolerance (1e-6 absolute).
        let big = ConvertToLaplace::new(1.0, 5e5, 5e5).unwrap();
        assert!(CtlCurator::from_mechanism(big.clone(), 5e5, 5e5 + 1e-8).is_ok());
        assert!(CtlCurator::from_mechanism(big, 5e5, 5e5 + 1e-5).is_err());
    }

    /// Section 4.5: `R = K1 ln(T/delta)^theta`, and `B` as given.
    #[test]
    fn sub_weibull_r_is_the_tail_bound() {
        let (b, k1, theta, horizon, delta) = (2.0, 0.5, 1.5, 1000, 0.01);
        let c = CtlCurator::sub_weibull(1.0, b, k1, theta, horizon, delta).unwrap();
        let r = k1 * (horizon as f64 / delta).ln().powf(theta);
        assert_eq!(c.b().to_bits(), b.to_bits());
        assert!((c.r() - r).abs() <= 1e-12 * r, "{} vs {r}", c.r());
        assert!((c.mechanism().bound() - (b + r)).abs() <= 1e-12 * (b + r));
        assert_eq!(c.mechanism().clipping_delta(), Some(delta));
    }
}
