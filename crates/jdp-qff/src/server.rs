//! The SERVER of Algorithm 1 (APPROXIMATE GP-UCB): it holds only privatised statistics and
//! selects `x_t = argmax_{x in D_t} <theta~_t, Phi(x)> + beta_t^{1/2} ||Phi(x)||_{V_t^-1}`.

use std::marker::PhantomData;
use std::sync::Arc;

use bandit::agent::Agent;
use bandit::policy::{Pending, Reselect, ucb_argmax, validate_decision_set};
use kernel::FeatureMap;
use kernel::linalg::Cholesky;
use ndarray::{Array1, Array2, ArrayView2, Axis};
use rand::Rng;

use crate::error::JdpQffError;
use crate::statistics::{ServerStatistics, StatisticsMessage};
use crate::width::ConfidenceWidth;

/// Algorithm 1's SERVER, generic over what it receives: [`crate::PrivatizedStatistics`]
/// (Algorithm 2), [`crate::ClientMessage`] (Algorithm 3) or, for the non-private comparison,
/// [`crate::ExactSums`]. None has a public constructor from raw data.
///
/// Each `observe` (O(m^3)): `V_t = Sigma~_t + lambda I` is factored (Cholesky),
/// `theta~_t = V_t^-1 u~_t`, and `beta_t^{1/2}` ([`ConfidenceWidth::sqrt_beta`]) is computed from
/// `ln det V_t`. Each `select` (O(n m^2) for `n` candidates): the features of `D_t`, their means
/// `<theta~_t, Phi(x)>` and squared widths `||L^-1 Phi(x)||^2 = ||Phi(x)||^2_{V_t^-1}`, and the
/// upper-confidence argmax with the workspace's tie rule ([`bandit::policy::ucb_argmax`]).
#[derive(Debug)]
pub struct ApproximateGpUcb<F, M> {
    features: Arc<F>,
    width: ConfidenceWidth,
    state: ServerStatistics,
    factor: Cholesky,
    theta: Array1<f64>,
    sqrt_beta: f64,
    pending: Pending<()>,
    message: PhantomData<fn(M)>,
}

impl<F: FeatureMap, M: StatisticsMessage> ApproximateGpUcb<F, M> {
    /// The server at round 1: `Sigma~_1 = shift I` (the width's spectrum), `u~_1 = 0`.
    pub fn new(features: Arc<F>, width: ConfidenceWidth) -> Result<Self, JdpQffError> {
        let m = validation::at_least_one("feature dimension m", features.dim())?;
        let state = ServerStatistics::initial(m, width.spectrum().shift);
        let mut server = Self {
            features,
            width,
            state,
            factor: Cholesky::empty(),
            theta: Array1::zeros(m),
            sqrt_beta: 0.0,
            pending: Pending::new(Reselect::Replace),
            message: PhantomData,
        };
        server.refresh()?;
        Ok(server)
    }

    fn refresh(&mut self) -> Result<(), JdpQffError> {
        let mut v = self.state.sigma.clone();
        v.diag_mut()
            .mapv_inplace(|d| d + self.width.params().lambda);
        self.factor = Cholesky::factor("V_t = Sigma~_t + lambda I", v.view())?;
        self.theta = self.factor.solve(self.state.u.view())?;
        self.sqrt_beta = self.width.sqrt_beta(
            self.state.observations,
            self.factor.log_det(),
            self.theta.len(),
        )?;
        Ok(())
    }

    /// `theta~_t`.
    pub fn theta(&self) -> &Array1<f64> {
        &self.theta
    }

    /// `beta_t^{1/2}`.
    pub fn sqrt_beta(&self) -> f64 {
        self.sqrt_beta
    }

    /// The statistics held (`Sigma~_t`, `u~_t`, rounds summarised).
    pub fn statistics(&self) -> &ServerStatistics {
        &self.state
    }

    /// `ln det V_t`.
    pub fn log_det_v(&self) -> f64 {
        self.factor.log_det()
    }

    /// The confidence width.
    pub fn width(&self) -> &ConfidenceWidth {
        &self.width
    }

    /// Posterior means `<theta~_t, Phi(x)>` and squared widths `||Phi(x)||^2_{V_t^-1}` of the
    /// rows of `points`.
    pub fn posterior(
        &self,
        points: ArrayView2<'_, f64>,
    ) -> Result<(Array1<f64>, Array1<f64>), JdpQffError> {
        let phi: Array2<f64> = self.features.map_batch(points)?;
        let mean = phi.dot(&self.theta);
        let z = self.factor.solve_lower_matrix(phi.t())?;
        let var = z.map_axis(Axis(0), |c| c.dot(&c));
        Ok((mean, var))
    }
}

impl<F: FeatureMap, M: StatisticsMessage> Agent for ApproximateGpUcb<F, M> {
    type Message = M;
    type Error = JdpQffError;

    fn select<R: Rng + ?Sized>(
        &mut self,
        decision_set: ArrayView2<'_, f64>,
        rng: &mut R,
    ) -> Result<usize, JdpQffError> {
        validate_decision_set(decision_set)?;
        let (mean, var) = self.posterior(decision_set)?;
        let a = ucb_argmax(mean.view(), var.view(), self.sqrt_beta, rng)?;
        self.pending.store(())?;
        Ok(a)
    }

    fn observe(&mut self, message: M) -> Result<(), JdpQffError> {
        self.pending.take()?;
        message.apply(&mut self.state)?;
        self.refresh()
    }
}
