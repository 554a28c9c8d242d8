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
use bandit::env::Environment;
use kernel::{FeatureMap, QuadratureFourierFeatures};
use ndarray::{Array1, Array2, ArrayView2};
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
    points: Array2<f64>,
    means: Array1<f64>,
    best: f64,
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
            points: Array2::zeros((0, 2)),
            means: Array1::zeros(0),
            best: f64::NAN,
        }
    }
}

impl Environment for FeatureLinear {
    fn dim(&self) -> usize {
        2
    }

    fn begin_round<R: Rng + ?Sized>(
        &mut self,
        round: usize,
        rng: &mut R,
    ) -> Result<(), BanditError> {
        self.points = Array2::from_shape_fn((DECISION_SET, 2), |_| rng.random_range(-BOX..BOX));
        self.means = self
            .features
            .map_batch(self.points.view())
            .map_err(|e| BanditError::Environment {
                round: Some(round),
                source: Box::new(e),
            })?
            .dot(&self.theta);
        self.best = self.means.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        Ok(())
    }

    fn decision_set(&self) -> ArrayView2<'_, f64> {
        self.points.view()
    }

    fn mean_reward(&self, action: usize) -> f64 {
        self.means[action]
    }

    fn optimal_mean(&self) -> f64 {
        self.best
    }

    fn sample_reward<R: Rng + ?Sized>(
        &mut self,
        action: usize,
        rng: &mut R,
    ) -> Result<f64, BanditError> {
        Ok(self.means[action] + rng.random_range(-NOISE..NOISE))
    }
}
