//! The Laplace mechanism (L1 sensitivity). Zhou & Tan's curator CTL(eps), a clipped Laplace
//! mechanism on one reward, is paper code and lives in the `ldp-bo` crate
//! (`ldp_bo::ConvertToLaplace`).

use crate::claim::NeighbouringRelation;
use ndarray::{Array1, ArrayView1};
use rand::Rng;

use crate::claim::{Guarantee, PrivacyClaim, TrustModel};
use crate::error::PrivacyError;
use crate::mechanism::Mechanism;
use crate::params::{Epsilon, Sensitivity};
use crate::sampler::{Grid, NoiseSampler, Norm, Sampler};
use validation::finite;

/// The Laplace mechanism: `M(x) = f(x) + (Z_1, ..., Z_d)`, `Z_i` i.i.d. Laplace(b).
///
/// # Calibration
/// `b = Delta_1 / eps` where `Delta_1 = max ||f(x) - f(x')||_1` over neighbours. Proof: the
/// density ratio at any output `y` is
/// `exp((||y - f(x')||_1 - ||y - f(x)||_1) / b) <= exp(||f(x) - f(x')||_1 / b) <= exp(eps)`
/// (triangle inequality), i.e. eps-DP (Dwork & Roth 2014, Thm 3.6). With the hardened sampler
/// the input is rounded to a grid of width `w` (chosen by [`Grid::for_sensitivity`]), which
/// changes `Delta_1` to at most `Delta_1 + d w <= (1 + GRID_SLACK) Delta_1`; the discrete
/// Laplace `P(k) ∝ exp(-|k| w / b)` on integer grid offsets gives the same ratio bound, so
/// `b = (1 + GRID_SLACK) Delta_1 / eps`.
#[derive(Debug, Clone, PartialEq)]
pub struct LaplaceMechanism {
    epsilon: Epsilon,
    sensitivity: Sensitivity,
    sampler: Sampler,
}

impl LaplaceMechanism {
    /// An eps-DP Laplace mechanism for a query of L1 sensitivity `l1_sensitivity > 0`, with the
    /// hardened sampler.
    pub fn new(epsilon: f64, l1_sensitivity: f64) -> Result<Self, PrivacyError> {
        let epsilon = Epsilon::new(epsilon)?;
        let sensitivity = Sensitivity::positive(l1_sensitivity)?;
        Ok(Self {
            epsilon,
            sensitivity,
            sampler: Sampler::Hardened,
        })
    }

    /// The same mechanism with another sampler (the textbook one only by explicit choice).
    pub fn with_sampler(mut self, sampler: Sampler) -> Self {
        self.sampler = sampler;
        self
    }

    /// The sampler in use.
    pub fn sampler(&self) -> Sampler {
        self.sampler
    }

    /// The Laplace scale `b` actually used (including the grid factor for the hardened sampler).
    pub fn scale(&self) -> f64 {
        self.sensitivity.get() * self.sampler.sensitivity_factor() / self.epsilon.get()
    }

    /// The claim: pure eps-DP, central.
    pub fn claim(&self) -> PrivacyClaim {
        PrivacyClaim::new(
            format!(
                "laplace(eps={}, l1_sensitivity={}, sampler={})",
                self.epsilon,
                self.sensitivity,
                self.sampler.name()
            ),
            Guarantee::PureDp {
                epsilon: self.epsilon,
            },
            TrustModel::Central,
            NeighbouringRelation::WithinSensitivity,
            format!(
                "query values f(x), f(x') with ||f(x) - f(x')||_1 <= {}",
                self.sensitivity
            ),
        )
    }

    /// Release a scalar `f(x) + Laplace(b)` (the same as [`Mechanism::release`]).
    pub fn release_scalar<R: Rng + ?Sized>(
        &self,
        value: f64,
        rng: &mut R,
    ) -> Result<f64, PrivacyError> {
        let value = finite("query value", value)?;
        let grid = Grid::for_sensitivity(self.sensitivity.get(), 1, Norm::L1)?;
        self.sampler.perturb_laplace(value, self.scale(), grid, rng)
    }

    /// Release a vector `f(x) + Laplace(b)^d` (the grid is chosen for `d` coordinates; the
    /// scalar release is [`Mechanism::release`]). All coordinates in one batch
    /// ([`NoiseSampler::perturb_laplace_into`]): the hardened sampler shares one buffer of
    /// random bits over them.
    pub fn release_vector<R: Rng + ?Sized>(
        &self,
        value: ArrayView1<'_, f64>,
        rng: &mut R,
    ) -> Result<Array1<f64>, PrivacyError> {
        for &v in value {
            finite("query value", v)?;
        }
        let grid = Grid::for_sensitivity(self.sensitivity.get(), value.len(), Norm::L1)?;
        let mut out = value.to_vec();
        self.sampler
            .perturb_laplace_into(&mut out, self.scale(), grid, rng)?;
        Ok(Array1::from(out))
    }

    /// The deterministic part with the noise passed in: `value + noise` (test vectors).
    pub fn release_with_noise(
        &self,
        value: ArrayView1<'_, f64>,
        noise: ArrayView1<'_, f64>,
    ) -> Result<Array1<f64>, PrivacyError> {
        super::additive::add_noise("laplace noise", value, noise)
    }
}

/// Input: the query value `f(x)`; output: `f(x) + Laplace(b)`
/// ([`LaplaceMechanism::release_scalar`]). Claim: [`LaplaceMechanism::claim`].
impl Mechanism for LaplaceMechanism {
    type Input = f64;
    type Output = f64;

    fn claim(&self) -> PrivacyClaim {
        LaplaceMechanism::claim(self)
    }

    fn release<R: Rng + ?Sized>(&self, input: &f64, rng: &mut R) -> Result<f64, PrivacyError> {
        self.release_scalar(*input, rng)
    }
}

#[cfg(test)]
mod tests {
    use super::LaplaceMechanism;
    use crate::Sampler;

    #[test]
    fn the_sampler_is_the_one_chosen() {
        let m = LaplaceMechanism::new(1.0, 1.0).unwrap();
        assert_eq!(m.sampler(), Sampler::Hardened);
        assert_eq!(
            m.with_sampler(Sampler::Textbook).sampler(),
            Sampler::Textbook
        );
    }
}
