//! Algorithm 3's CLIENT(t) (GP-UCB with local JDP): client `t` receives the sums
//! `(Sigma~_t, u~_t)` from the SERVER ([`crate::LocalServer`]), selects `x_t` from them and its
//! own `D_t` ([`ClientSelection`]), plays it, and perturbs its own `Phi(x_t) Phi(x_t)^T` and
//! `y_t Phi(x_t)` before they leave it ([`LocalClient`], [`LocalCalibration`]). The server only
//! ever adds client messages; it never sees `D_t`, `x_t` or `y_t`.

use privacy::NeighbouringRelation;
use std::sync::Arc;

use bandit::agent::{Curator, Feedback};
use kernel::FeatureMap;
use ndarray::{Array1, ArrayView1, ArrayView2};
use privacy::mechanisms::matrix::{pack_upper, unpack_symmetric};
use privacy::sampler::Norm;
use privacy::{
    Grid, Guarantee, Mechanism, NoiseSampler, PrivacyClaim, PrivacyError, Rho, TrustModel,
};
use rand::Rng;
use validation::finite;

use crate::calibration::LocalCalibration;
use crate::error::JdpQffError;
use crate::posterior::Posterior;
use crate::statistics::{ClientMessage, ServerStatistics};
use crate::width::ConfidenceWidth;

/// The selecting half of Algorithm 3's CLIENT(t): "Receive `Sigma~_t, u~_t <- SERVER`. Set
/// `V_t <- Sigma~_t + lambda I`, `theta~_t <- V_t^-1 u~_t`. Compute `beta_t` based on Theorem 1.
/// Select `x_t <- argmax_{x in D_t} <theta~_t, Phi(x)> + beta_t ||Phi(x)||_{V_t^-1}`."
///
/// It holds only public parameters (the feature map and Theorem 1's width, the same for every
/// client) and keeps nothing between rounds: client `t` builds the [`Posterior`] from the sums
/// it receives and its own `D_t`. Nothing it computes enters any message.
#[derive(Debug, Clone)]
pub struct ClientSelection<F> {
    features: Arc<F>,
    width: ConfidenceWidth,
}

impl<F: FeatureMap> ClientSelection<F> {
    /// Clients of feature map `features` and width `width` (the local spectrum,
    /// [`crate::Spectrum::local`]).
    pub fn new(features: Arc<F>, width: ConfidenceWidth) -> Self {
        Self { features, width }
    }

    /// The width.
    pub fn width(&self) -> &ConfidenceWidth {
        &self.width
    }

    /// The feature map.
    pub fn features(&self) -> &Arc<F> {
        &self.features
    }

    /// The posterior client `t` computes from the broadcast sums.
    ///
    /// # Errors
    /// As [`Posterior::of`].
    pub fn posterior(&self, broadcast: &ServerStatistics) -> Result<Posterior, JdpQffError> {
        Posterior::of(broadcast, &self.width)
    }

    /// Client `t`'s choice `x_t` (a row of its `decision_set`) from the broadcast sums.
    ///
    /// # Errors
    /// As [`Posterior::of`] and [`Posterior::select`].
    pub fn select<R: Rng + ?Sized>(
        &self,
        broadcast: &ServerStatistics,
        decision_set: ArrayView2<'_, f64>,
        rng: &mut R,
    ) -> Result<usize, JdpQffError> {
        self.posterior(broadcast)?
            .select(&*self.features, decision_set, rng)
    }
}

/// The perturbing half of Algorithm 3's CLIENT(t) ("Sample `N_t, n_t` using
/// `sigma_X^2, sigma_u^2`"; send `Phi Phi^T + N_t` and `y_t Phi + n_t` to the SERVER): clip
/// `||Phi(x)|| <= 1` and `|y| <= B_y`, then release the packed upper triangle of `Phi Phi^T`
/// with i.i.d. `N(0, sigma_X^2)` noise (mirrored: `N_t` symmetric) and `y Phi` with i.i.d.
/// `N(0, sigma_u^2)` noise, both through the hardened (exact discrete Gaussian) sampler.
#[derive(Debug)]
pub struct LocalClient<F> {
    features: Arc<F>,
    calibration: LocalCalibration,
    /// The zCDP of one message ([`LocalCalibration::message_rho`]), validated when the client
    /// is built.
    rho: Rho,
}

impl<F: FeatureMap> LocalClient<F> {
    /// Clients of feature map `features` with noise `calibration`.
    ///
    /// # Errors
    /// [`JdpQffError::Privacy`] when the calibration's zCDP per message is not a positive
    /// finite number (a calibration whose public fields were set to a zero or infinite noise).
    pub fn new(features: Arc<F>, calibration: LocalCalibration) -> Result<Self, JdpQffError> {
        let rho = Rho::new(calibration.message_rho()).map_err(|_| {
            privacy::PrivacyError::Calibration(format!(
                "the local client's zCDP per message, {}, is not a positive finite number \
                 (sigma_X = {}, sigma_u = {})",
                calibration.message_rho(),
                calibration.sigma_x(),
                calibration.sigma_u()
            ))
        })?;
        Ok(Self {
            features,
            calibration,
            rho,
        })
    }

    /// The calibration.
    pub fn calibration(&self) -> &LocalCalibration {
        &self.calibration
    }

    /// One client's message for its `(x_t, y_t)`.
    pub fn perturb<R: Rng + ?Sized>(
        &self,
        point: ArrayView1<'_, f64>,
        reward: f64,
        rng: &mut R,
    ) -> Result<ClientMessage, JdpQffError> {
        let c = &self.calibration;
        let mut phi = self.features.map(point)?;
        let norm = phi.dot(&phi).sqrt();
        if norm > 1.0 {
            phi /= norm;
        }
        let y = finite("reward", reward)?.clamp(-c.reward_bound(), c.reward_bound());
        let m = phi.len();
        let col = phi.view().insert_axis(ndarray::Axis(1));
        let packed = pack_upper(col.dot(&col.t()).view())?;
        let grid_x = Grid::for_sensitivity(c.sensitivity_x(), packed.len(), Norm::L2)?;
        let noisy: Result<Array1<f64>, PrivacyError> = packed
            .iter()
            .map(|&v| c.sampler().perturb_gaussian(v, c.sigma_x(), grid_x, rng))
            .collect();
        let sigma_increment = unpack_symmetric(noisy?.view(), m)?;
        let grid_u = Grid::for_sensitivity(c.sensitivity_u(), m, Norm::L2)?;
        let u_increment: Result<Array1<f64>, PrivacyError> = phi
            .iter()
            .map(|&p| {
                c.sampler()
                    .perturb_gaussian(y * p, c.sigma_u(), grid_u, rng)
            })
            .collect();
        Ok(ClientMessage::new(sigma_increment, u_increment?))
    }
}

impl<F: FeatureMap> Curator for LocalClient<F> {
    type Message = ClientMessage;
    type Error = JdpQffError;

    fn curate<R: Rng + ?Sized>(
        &mut self,
        feedback: &Feedback<'_>,
        rng: &mut R,
    ) -> Result<ClientMessage, JdpQffError> {
        self.perturb(feedback.point, feedback.reward, rng)
    }
}

/// Input: one client's `(x, y)`; output: its message. Claim: rho-zCDP in the client's data,
/// local model (every later release is post-processing of the messages).
impl<F: FeatureMap> Mechanism for LocalClient<F> {
    type Input = (Array1<f64>, f64);
    type Output = ClientMessage;

    fn claim(&self) -> PrivacyClaim {
        let c = &self.calibration;
        let rho = self.rho;
        PrivacyClaim::new(
            format!(
                "jdp_qff_local_client(m={}, alpha={}, beta={}, B_y={}, sigma_x={}, sigma_u={})",
                self.features.dim(),
                c.alpha(),
                c.beta(),
                c.reward_bound(),
                c.sigma_x(),
                c.sigma_u()
            ),
            Guarantee::Zcdp { rho },
            TrustModel::Local,
            NeighbouringRelation::ReplaceOne,
            format!(
                "the client's (x, y) replaced by any other; ||Phi(x)|| <= 1 and |y| <= {} enforced by clipping",
                c.reward_bound()
            ),
        )
    }

    fn release<R: Rng + ?Sized>(
        &self,
        input: &Self::Input,
        rng: &mut R,
    ) -> Result<ClientMessage, PrivacyError> {
        Ok(self.perturb(input.0.view(), input.1, rng)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_features::Fixed;
    use ndarray::array;
    use privacy::accountant::zcdp::ZcdpConversion;
    use rand::SeedableRng;
    use rand_chacha::ChaCha20Rng;

    /// Algorithm 3's clip `||Phi|| <= 1` (the sensitivities `sqrt(2)` and `2 B_y` rest on it):
    /// a feature vector of norm 5 gives, for the same randomness, the same message as its
    /// normalised vector, bit for bit; one of norm 1/2 is left as it is (its message differs).
    #[test]
    fn features_beyond_the_unit_ball_are_clipped_to_it() {
        let cal = LocalCalibration::new(1.0, 0.01, 1.0, ZcdpConversion::Classic).unwrap();
        let message = |scale: f64| {
            let client = LocalClient::new(Arc::new(Fixed(scale)), cal.clone()).unwrap();
            let mut rng = ChaCha20Rng::seed_from_u64(11);
            client.perturb(array![0.3].view(), 0.7, &mut rng).unwrap()
        };
        assert_eq!(message(5.0), message(1.0));
        assert_ne!(message(0.5), message(1.0));
    }
}
