//! The regret checks' problem: a function that lies exactly in the span of the features
//! (`eps = 0`, Remark 4: "for finite-dimensional H_k, the results manifestly hold with
//! eps = 0"), so that the measured rate is the algorithm's and not a misspecification floor.
//!
//! `f(x) = <theta*, Phi(x)>` with `theta*` uniform on the unit sphere of `R^m` (so
//! `||theta*|| = B = 1`, `|f| <= 1`), `Phi` the NQFF of `exp(-|x - y|^2 / 2)` in `d = 2`; every
//! round `D_t` is 25 fresh uniform points of `[-2, 2]^2` (the regret is measured against the best
//! point of `D_t`, the paper's definition); rewards `y = f(x) + eta`, `eta ~ U[-1/2, 1/2]`
//! (1/2-sub-Gaussian, so `rho = 1/2`), hence `|y| <= 3/2 = B_y`: the clipping never binds.

use std::sync::Arc;

use bandit::BanditError;
use bandit::env::{RoundEnvironment, RoundState};
use kernel::{FeatureMap, QuadratureFourierFeatures};
use ndarray::{Array1, Array2};
use rand::{Rng, RngExt};
use rand_distr::{Distribution, StandardNormal};

/// Points per decision set.
pub(super) const DECISION_SET: usize = 25;
/// Half-width of the box of the decision sets.
const BOX: f64 = 2.0;
/// Half-width of the uniform reward noise.
pub(super) const NOISE: f64 = 0.5;
/// The reward bound `B_y = 1 + NOISE`.
pub(super) const REWARD_BOUND: f64 = 1.0 + NOISE;

/// The environment (module docs).
#[derive(Debug)]
pub(super) struct FeatureLinear {
    features: Arc<QuadratureFourierFeatures>,
    theta: Array1<f64>,
    /// The round's decision set and `f` on it; the reference is the best point of the set.
    state: RoundState,
}

impl FeatureLinear {
    /// A fresh `theta*` (uniform on the sphere: normalised standard normals).
    pub(super) fn sample<R: Rng + ?Sized>(
        features: Arc<QuadratureFourierFeatures>,
        rng: &mut R,
    ) -> Self {
        let mut theta: Array1<f64> =
            Array1::from_shape_fn(features.dim(), |_| StandardNormal.sample(rng));
        let norm = theta.dot(&theta).sqrt();
        theta /= norm;
        Self {
            features,
            theta,
            state: RoundState::empty(2),
        }
    }
}

impl RoundEnvironment for FeatureLinear {
    fn round_state(&self) -> &RoundState {
        &self.state
    }

    fn next_round<R: Rng + ?Sized>(
        &mut self,
        round: usize,
        rng: &mut R,
    ) -> Result<(), BanditError> {
        let points = Array2::from_shape_fn((DECISION_SET, 2), |_| rng.random_range(-BOX..BOX));
        let means = self
            .features
            .map_batch(points.view())
            .map_err(|e| BanditError::Environment {
                round: Some(round),
                source: Box::new(e),
            })?
            .dot(&self.theta);
        self.state = RoundState::best_of_set(points, means);
        Ok(())
    }

    fn draw_reward<R: Rng + ?Sized>(
        &mut self,
        action: usize,
        rng: &mut R,
    ) -> Result<f64, BanditError> {
        Ok(self.state.mean(action) + rng.random_range(-NOISE..NOISE))
    }
}
