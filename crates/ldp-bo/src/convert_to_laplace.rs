//! The Convert-to-Laplace curator CTL(eps) of Zhou & Tan 2021 (Curator 1, Lemma 1), with its
//! variant for unbounded sub-Weibull noise (their Section 4.5, arXiv version): a Laplace
//! mechanism on one clipped reward. It is this paper's mechanism (used only here), built on
//! the privacy crate's samplers; [`crate::curator::CtlCurator`] puts it between the
//! environment and the learners.

use privacy::params::{Delta, Epsilon, Sensitivity};
use privacy::sampler::{Grid, NoiseSampler, Norm, Sampler};
use privacy::{Guarantee, Mechanism, NeighbouringRelation, PrivacyClaim, PrivacyError, TrustModel};
use rand::Rng;
use validation::{at_least_one, finite, not_nan, positive};

/// The Convert-to-Laplace curator CTL(eps) of Zhou & Tan 2021, Curator 1: on a reward `y`,
/// return `clip(y, -(B+R), B+R) + Laplace(2(B+R)/eps)`.
///
/// # Calibration
/// Local DP: each reward is one user's whole datum, and the neighbouring relation is "any reward
/// replaced by any other". The paper assumes `|y| <= B + R` (`|f| <= B`, noise `|eta| <= R`),
/// so the sensitivity is `2(B+R)` and Laplace(2(B+R)/eps) gives eps-LDP (their Lemma 1). We
/// *enforce* the range by clipping (papers/README.md: the paper only assumes it), so the claim
/// holds for every real input. Hardened: scale `2(B+R)(1 + GRID_SLACK)/eps` (grid rounding,
/// see [`LaplaceMechanism`](privacy::mechanisms::LaplaceMechanism)).
///
/// # Unbounded sub-Weibull noise (Section 4.5)
/// For i.i.d. sub-Weibull(theta) noise the paper sets `R = K_1 ln(T/delta)^theta`, so that
/// `P(exists t <= T: |eta_t| > R) <= delta`, and claims (eps, delta)-LDP. Because this
/// implementation clips, the mechanism is in fact pure eps-LDP for every input; `delta` is only
/// the probability that clipping changes any of the `T` rewards (a utility statement), see
/// [`ConvertToLaplace::sub_weibull`] and `docs/ldp-bo.md`.
#[derive(Debug, Clone, PartialEq)]
pub struct ConvertToLaplace {
    epsilon: Epsilon,
    bound: f64,
    sampler: Sampler,
    tail_delta: Option<Delta>,
}

impl ConvertToLaplace {
    /// CTL(eps) for `|f| <= b_bound` and noise `|eta| <= r_bound` (both finite, >= 0, sum > 0),
    /// hardened sampler.
    pub fn new(epsilon: f64, b_bound: f64, r_bound: f64) -> Result<Self, PrivacyError> {
        let epsilon = Epsilon::new(epsilon)?;
        let b = Sensitivity::new(b_bound)?.get();
        let r = Sensitivity::new(r_bound)?.get();
        let bound = b + r;
        positive("B + R", bound)?;
        Ok(Self {
            epsilon,
            bound,
            sampler: Sampler::Hardened,
            tail_delta: None,
        })
    }

    /// The Section 4.5 variant: `R = k1 * ln(horizon / delta)^theta` for i.i.d.
    /// sub-Weibull(theta) noise with tail constant `k1` (so that all `horizon` noise values lie
    /// in `[-R, R]` with probability at least `1 - delta`). `delta` in (0, 1), `k1 > 0`,
    /// `theta > 0`, `horizon >= 1`.
    pub fn sub_weibull(
        epsilon: f64,
        b_bound: f64,
        k1: f64,
        theta: f64,
        horizon: u64,
        delta: f64,
    ) -> Result<Self, PrivacyError> {
        let d = Delta::positive(delta)?;
        let horizon = at_least_one("horizon T", horizon)?;
        for (name, v) in [("K1", k1), ("theta", theta)] {
            positive(name, v)?;
        }
        let r = k1 * (horizon as f64 / d.get()).ln().powf(theta);
        let mut c = Self::new(epsilon, b_bound, r)?;
        c.tail_delta = Some(d);
        Ok(c)
    }

    /// The same curator with another sampler.
    pub fn with_sampler(mut self, sampler: Sampler) -> Self {
        self.sampler = sampler;
        self
    }

    /// The sampler in use.
    pub fn sampler(&self) -> Sampler {
        self.sampler
    }

    /// `B + R`: rewards are clipped to `[-(B+R), B+R]`.
    pub fn bound(&self) -> f64 {
        self.bound
    }

    /// The Laplace scale: `2(B+R)/eps` (times `1 + GRID_SLACK` with the hardened sampler).
    pub fn scale(&self) -> f64 {
        2.0 * self.bound * self.sampler.sensitivity_factor() / self.epsilon.get()
    }

    /// The paper's scale `2(B+R)/eps` (Curator 1), without the grid factor.
    pub fn paper_scale(&self) -> f64 {
        2.0 * self.bound / self.epsilon.get()
    }

    /// For the sub-Weibull variant, the probability that clipping alters some reward.
    pub fn clipping_delta(&self) -> Option<f64> {
        self.tail_delta.map(Delta::get)
    }

    /// The claim: pure eps-LDP (also for the sub-Weibull variant, because we clip).
    pub fn claim(&self) -> PrivacyClaim {
        PrivacyClaim::new(
            format!(
                "convert_to_laplace(eps={}, B+R={}, sampler={})",
                self.epsilon,
                self.bound,
                self.sampler.name()
            ),
            Guarantee::PureDp {
                epsilon: self.epsilon,
            },
            TrustModel::Local,
            NeighbouringRelation::ReplaceOne,
            "one user's reward replaced by any other real value (clipped to [-(B+R), B+R])",
        )
    }

    /// The clipped reward `clip(y, -(B+R), B+R)`. An infinite reward is clipped like any other
    /// out-of-range value (to `-(B+R)` or `B+R`); NaN has no place on the line and is an error
    /// ([`InputError::NotANumber`](validation::InputError::NotANumber)).
    pub fn clip(&self, reward: f64) -> Result<f64, PrivacyError> {
        Ok(not_nan("reward", reward)?.clamp(-self.bound, self.bound))
    }

    /// Privatise one reward (Curator 1; the same as [`Mechanism::release`]).
    pub fn privatize<R: Rng + ?Sized>(
        &self,
        reward: f64,
        rng: &mut R,
    ) -> Result<f64, PrivacyError> {
        let y = self.clip(reward)?;
        let grid = Grid::for_sensitivity(2.0 * self.bound, 1, Norm::L1)?;
        self.sampler.perturb_laplace(y, self.scale(), grid, rng)
    }

    /// The deterministic part with the noise passed in: `clip(y) + noise`.
    pub fn privatize_with_noise(&self, reward: f64, noise: f64) -> Result<f64, PrivacyError> {
        Ok(self.clip(reward)? + finite("noise", noise)?)
    }
}

/// Input: one user's raw reward `y`; output: `clip(y, -(B+R), B+R) + Laplace(2(B+R)/eps)`
/// ([`ConvertToLaplace::privatize`]). Claim: [`ConvertToLaplace::claim`] (pure eps-LDP).
impl Mechanism for ConvertToLaplace {
    type Input = f64;
    type Output = f64;

    fn claim(&self) -> PrivacyClaim {
        ConvertToLaplace::claim(self)
    }

    fn release<R: Rng + ?Sized>(&self, input: &f64, rng: &mut R) -> Result<f64, PrivacyError> {
        self.privatize(*input, rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use privacy::sampler::GRID_SLACK;
    use rand::SeedableRng;
    use rand_chacha::ChaCha20Rng;

    /// The hardened release lies on the grid of the sensitivity `2(B+R)` (the largest power of
    /// two at most `GRID_SLACK * 2(B+R)`, the width the `1 + GRID_SLACK` factor of the scale
    /// pays for), and on no coarser grid. At `B + R = 10` a grid for `2 + (B+R)` or
    /// `2 / (B+R)` would be 2 or 64 times finer, so its draws would leave the expected grid.
    #[test]
    fn hardened_release_is_on_the_grid_of_the_sensitivity() {
        let c = ConvertToLaplace::new(1.0, 4.0, 6.0).unwrap();
        assert_eq!(c.sampler(), Sampler::Hardened);
        // 2(B+R) GRID_SLACK = 20 / 2^20, between 2^-16 and 2^-15.
        let width = 2f64.powi(-16);
        assert!(width <= GRID_SLACK * 20.0 && 2.0 * width > GRID_SLACK * 20.0);
        let mut rng = ChaCha20Rng::seed_from_u64(7);
        let mut odd = 0;
        for _ in 0..200 {
            let units = c.privatize(0.0, &mut rng).unwrap() / width;
            // `units` is an integer below 2^53 in magnitude, so the float remainders are exact.
            assert_eq!(
                units.fract().to_bits(),
                0.0f64.to_bits(),
                "{units} is off the grid"
            );
            odd += usize::from(units.rem_euclid(2.0).to_bits() == 1.0f64.to_bits());
        }
        // Each draw is an odd multiple with probability about 1/2: all 200 even (as on a grid
        // twice as coarse) has probability about 2^-200.
        assert!(odd > 0);
    }

    #[test]
    fn with_sampler_is_the_sampler_in_use() {
        let c = ConvertToLaplace::new(1.0, 1.0, 1.0).unwrap();
        assert_eq!(c.sampler(), Sampler::Hardened);
        let t = c.with_sampler(Sampler::Textbook);
        assert_eq!(t.sampler(), Sampler::Textbook);
        assert_eq!(t.scale().to_bits(), t.paper_scale().to_bits());
    }
}
