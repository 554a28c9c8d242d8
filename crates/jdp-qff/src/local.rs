//! Algorithm 3, the CLIENT of GP-UCB with local JDP: each client perturbs its own
//! `Phi(x_t) Phi(x_t)^T` and `y_t Phi(x_t)` before they leave it ([`LocalCalibration`]); the
//! server only ever adds client messages.

use privacy::NeighbouringRelation;
use std::sync::Arc;

use bandit::agent::{Curator, Feedback};
use kernel::FeatureMap;
use ndarray::{Array1, ArrayView1};
use privacy::mechanisms::matrix::{pack_upper, unpack_symmetric};
use privacy::sampler::Norm;
use privacy::{
    Grid, Guarantee, Mechanism, NoiseSampler, PrivacyClaim, PrivacyError, Rho, TrustModel,
};
use rand::Rng;
use validation::finite;

use crate::calibration::LocalCalibration;
use crate::error::JdpQffError;
use crate::statistics::ClientMessage;

/// The client side of Algorithm 3 ("Sample `N_t, n_t` using `sigma_X^2, sigma_u^2`"): clip
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
