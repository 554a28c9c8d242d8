//! The controls of the Table 1 ablations (`docs/jdp-qff.md`, "Table 1: the ablations"): the
//! JDP server fed Algorithm 2's releases **without noise**, with the same PSD shift and the same
//! width. Never private: it exists to measure what the noise itself does to the regret, with
//! everything else held fixed.

use std::sync::Arc;

use bandit::agent::{Curator, Feedback};
use kernel::FeatureMap;
use ndarray::Array2;
use rand::Rng;

use crate::error::JdpQffError;
use crate::privatizer::{item, split};
use crate::statistics::PrivatizedStatistics;

/// Algorithm 2's releases with the noise removed: the exact prefix sum of the clipped outer
/// products `[Phi(x_t); clip(y_t)][Phi(x_t); clip(y_t)]^T` plus the privatizer's `shift I` on
/// the diagonal, split into `(Sigma~_{t+1}, u~_{t+1})` exactly as the privatizer splits its
/// noisy prefix ([`crate::JdpPrivatizer`]).
#[derive(Debug)]
pub struct NoiseFree<F> {
    features: Arc<F>,
    reward_bound: f64,
    shift: f64,
    sum: Array2<f64>,
    time: u64,
}

impl<F: FeatureMap> NoiseFree<F> {
    /// Releases for `features`, rewards clipped to `reward_bound`, shifted by `shift`.
    pub fn new(features: Arc<F>, reward_bound: f64, shift: f64) -> Self {
        let m = features.dim();
        Self {
            features,
            reward_bound,
            shift,
            sum: Array2::zeros((m + 1, m + 1)),
            time: 0,
        }
    }
}

impl<F: FeatureMap> Curator for NoiseFree<F> {
    type Message = PrivatizedStatistics;
    type Error = JdpQffError;

    fn curate<R: Rng + ?Sized>(
        &mut self,
        feedback: &Feedback<'_>,
        _rng: &mut R,
    ) -> Result<PrivatizedStatistics, JdpQffError> {
        let item = item(
            self.features.as_ref(),
            feedback.point,
            feedback.reward,
            self.reward_bound,
        )?;
        self.sum += &item;
        self.time += 1;
        Ok(split(&self.sum, self.shift, self.time))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{JdpQffParams, jdp};
    use ndarray::array;
    use privacy::mechanisms::matrix::{clipped_outer_product, pack_upper, unpack_symmetric};
    use rand::SeedableRng;
    use rand_chacha::ChaCha20Rng;

    /// The noise-free releases are the privatizer's releases with zero node noise: the real
    /// tree fed zero noise gives the same statistics up to the order of summation (the tree
    /// adds its nodes in another order than a running sum: agreement to 1e-12).
    #[test]
    fn equals_the_privatizer_with_zero_noise() {
        let f = Arc::new(crate::features::nqff(1, 1.0, 2).unwrap());
        let (_, privatizer) = jdp(Arc::clone(&f), 8, &JdpQffParams::section_6_1()).unwrap();
        let shift = privatizer.spectrum().shift;
        let mut ours = NoiseFree::new(Arc::clone(&f), 1.0, shift);
        let mut tree = privatizer.calibration().tree(f.dim()).unwrap();
        let mut rng = ChaCha20Rng::seed_from_u64(1);
        for (x, y) in [
            (0.3, 5.0),
            (-0.8, 0.2),
            (0.5, -1.0),
            (0.9, 0.7),
            (-0.1, -3.0),
        ] {
            let point = array![x];
            let fb = Feedback {
                round: 0,
                action: 0,
                point: point.view(),
                reward: y,
            };
            let got = ours.curate(&fb, &mut rng).unwrap();
            let phi = f.map(point.view()).unwrap();
            let item = clipped_outer_product(phi.view(), y, 1.0, 1.0).unwrap();
            let packed = pack_upper(item.view()).unwrap();
            let zero = ndarray::Array1::zeros(packed.len());
            let prefix = tree
                .push_packed_with_noise(packed.view(), zero.view())
                .unwrap();
            let prefix = unpack_symmetric(prefix.view(), f.dim() + 1).unwrap();
            let want = split(&prefix, shift, tree.time());
            assert_eq!(got.observations(), want.observations());
            let close = |a: f64, b: f64| (a - b).abs() <= 1e-12 * (1.0 + b.abs());
            assert!(
                got.sigma()
                    .iter()
                    .zip(want.sigma())
                    .all(|(a, b)| close(*a, *b))
            );
            assert!(got.u().iter().zip(want.u()).all(|(a, b)| close(*a, *b)));
        }
    }
}
