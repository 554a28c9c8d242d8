//! The SERVER of Algorithm 1 (APPROXIMATE GP-UCB): it holds only privatised statistics and
//! selects `x_t = argmax_{x in D_t} <theta~_t, Phi(x)> + beta_t^{1/2} ||Phi(x)||_{V_t^-1}`.

use std::marker::PhantomData;
use std::sync::Arc;

use bandit::agent::Agent;
use bandit::policy::{Pending, Reselect};
use kernel::FeatureMap;
use ndarray::{Array1, ArrayView2};
use rand::Rng;

use crate::error::JdpQffError;
use crate::posterior::Posterior;
use crate::statistics::{ServerStatistics, StatisticsMessage};
use crate::width::{ConfidenceWidth, WidthTerms};

/// Algorithm 1's SERVER, generic over what it receives: [`crate::PrivatizedStatistics`]
/// (Algorithm 2) or, for the non-private comparison, [`crate::ExactSums`]. Neither has a public
/// constructor from raw data. (Algorithm 3, where the clients select, is
/// [`crate::LocalJdpGpUcb`].)
///
/// Each `observe` (O(m^3)) replaces the statistics and recomputes the [`Posterior`]
/// (`V_t = Sigma~_t + lambda I` factored, `theta~_t`, `beta_t^{1/2}`). Each `select` (O(n m^2)
/// for `n` candidates) is [`Posterior::select`].
#[derive(Debug)]
pub struct ApproximateGpUcb<F, M> {
    features: Arc<F>,
    width: ConfidenceWidth,
    state: ServerStatistics,
    posterior: Posterior,
    pending: Pending<()>,
    message: PhantomData<fn(M)>,
}

impl<F: FeatureMap, M: StatisticsMessage> ApproximateGpUcb<F, M> {
    /// The server at round 1: `Sigma~_1 = shift I` (the width's spectrum), `u~_1 = 0`.
    pub fn new(features: Arc<F>, width: ConfidenceWidth) -> Result<Self, JdpQffError> {
        let m = validation::at_least_one("feature dimension m", features.dim())?;
        let state = ServerStatistics::initial(m, width.spectrum().shift);
        let posterior = Posterior::of(&state, &width)?;
        Ok(Self {
            features,
            width,
            state,
            posterior,
            pending: Pending::new(Reselect::Replace),
            message: PhantomData,
        })
    }

    /// `theta~_t`.
    pub fn theta(&self) -> &Array1<f64> {
        self.posterior.theta()
    }

    /// `beta_t^{1/2}`.
    pub fn sqrt_beta(&self) -> f64 {
        self.posterior.sqrt_beta()
    }

    /// The terms of `beta_t^{1/2}`.
    pub fn width_terms(&self) -> &WidthTerms {
        self.posterior.width_terms()
    }

    /// The statistics held (`Sigma~_t`, `u~_t`, rounds summarised).
    pub fn statistics(&self) -> &ServerStatistics {
        &self.state
    }

    /// `ln det V_t`.
    pub fn log_det_v(&self) -> f64 {
        self.posterior.log_det_v()
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
        self.posterior.evaluate(&*self.features, points)
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
        let a = self.posterior.select(&*self.features, decision_set, rng)?;
        self.pending.store(())?;
        Ok(a)
    }

    fn observe(&mut self, message: M) -> Result<(), JdpQffError> {
        self.pending.take()?;
        message.apply(&mut self.state)?;
        self.posterior = Posterior::of(&self.state, &self.width)?;
        Ok(())
    }
}
