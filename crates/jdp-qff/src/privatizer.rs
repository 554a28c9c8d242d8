//! The PRIVATIZER of Algorithms 1 and 2: it alone holds the raw `(Phi(x_t), y_t)`, keeps the
//! tree-based mechanism over the outer products `[Phi(x_t); y_t][Phi(x_t); y_t]^T`, and releases
//! `(Sigma~_{t+1}, u~_{t+1})` to the SERVER.

use privacy::NeighbouringRelation;
use std::sync::Arc;

use bandit::agent::{Curator, Feedback};
use kernel::FeatureMap;
use ndarray::{Array1, Array2, Axis};
use privacy::mechanisms::matrix::clipped_outer_product;
use privacy::mechanisms::tree::TreeAggregation;
use privacy::{Guarantee, Mechanism, PrivacyClaim, PrivacyError, TrustModel};
use rand::Rng;
use validation::finite;

use crate::calibration::JdpCalibration;
use crate::error::JdpQffError;
use crate::spectrum::Spectrum;
use crate::statistics::{ExactSums, PrivatizedStatistics};

/// Algorithm 2: the JDP privatizer.
///
/// Round `t` (1-based): clip `||Phi(x_t)|| <= 1` and `|y_t| <= B_y`, push the outer product of
/// `v_t = [Phi(x_t); y_t]` into the binary tree ([`TreeAggregation`]: every completed node gets
/// fresh symmetric Gaussian noise, [`JdpCalibration`]), read the noisy prefix sum `N~_{t+1}` of
/// items `1..t`, and release `Sigma~_{t+1}` = its top-left `m x m` block plus `shift I` (the
/// PSD shift of [`Spectrum`], diagonal only) and `u~_{t+1}` = the first `m` entries of its last
/// column.
#[derive(Debug)]
pub struct JdpPrivatizer<F> {
    features: Arc<F>,
    calibration: JdpCalibration,
    spectrum: Spectrum,
    tree: TreeAggregation,
}

impl<F: FeatureMap> JdpPrivatizer<F> {
    /// A privatizer for the feature map `features` (`m = features.dim()`), calibrated by
    /// `calibration`, shifting by `spectrum.shift`.
    pub fn new(
        features: Arc<F>,
        calibration: JdpCalibration,
        spectrum: Spectrum,
    ) -> Result<Self, JdpQffError> {
        let tree = calibration.tree(features.dim())?;
        Ok(Self {
            features,
            calibration,
            spectrum,
            tree,
        })
    }

    /// The same privatizer with another noise sampler (sigma unchanged: calibrated for the
    /// hardened sampler's slightly larger effective sensitivity, so conservative for
    /// [`privacy::Sampler::Textbook`]).
    #[must_use]
    pub fn with_sampler(mut self, sampler: privacy::Sampler) -> Self {
        self.tree = self.tree.with_sampler(sampler);
        self
    }

    /// The calibration.
    pub fn calibration(&self) -> &JdpCalibration {
        &self.calibration
    }

    /// The spectrum (its shift is added to every release).
    pub fn spectrum(&self) -> &Spectrum {
        &self.spectrum
    }

    /// The tree (its noise scale, levels and zCDP).
    pub fn tree(&self) -> &TreeAggregation {
        &self.tree
    }

    /// Rounds processed so far.
    pub fn time(&self) -> u64 {
        self.tree.time()
    }

    /// Process one user's `(x_t, y_t)`: the release after round `t`.
    pub fn privatize<R: Rng + ?Sized>(
        &mut self,
        point: ndarray::ArrayView1<'_, f64>,
        reward: f64,
        rng: &mut R,
    ) -> Result<PrivatizedStatistics, JdpQffError> {
        let item = item(
            self.features.as_ref(),
            point,
            reward,
            self.calibration.reward_bound(),
        )?;
        let prefix = self.tree.push_matrix(item.view(), rng)?;
        Ok(split(&prefix, self.spectrum.shift, self.tree.time()))
    }

    /// The same privatizer before any round.
    pub fn fresh(&self) -> Self {
        Self {
            features: Arc::clone(&self.features),
            calibration: self.calibration.clone(),
            spectrum: self.spectrum,
            tree: self.tree.fresh(),
        }
    }
}

/// Algorithm 2's item for one user: `[Phi(x); clip(y)][Phi(x); clip(y)]^T` with
/// `||Phi(x)|| <= 1` and `|y| <= reward_bound` enforced by clipping (a non-finite reward refused).
pub(crate) fn item<F: FeatureMap>(
    features: &F,
    point: ndarray::ArrayView1<'_, f64>,
    reward: f64,
    reward_bound: f64,
) -> Result<Array2<f64>, JdpQffError> {
    let phi = features.map(point)?;
    let reward = finite("reward", reward)?;
    Ok(clipped_outer_product(
        phi.view(),
        reward,
        1.0,
        reward_bound,
    )?)
}

/// `(top-left m x m block + shift I, first m entries of the last column)` of an
/// `(m+1) x (m+1)` prefix sum.
pub(crate) fn split(prefix: &Array2<f64>, shift: f64, observations: u64) -> PrivatizedStatistics {
    let m = prefix.nrows() - 1;
    // `x + 0` off the diagonal (as `x + (if i == j { shift } else { 0 })` always was: a
    // negative zero becomes a positive one), `x + shift` on it.
    let (rows, _) = prefix.view().split_at(Axis(0), m);
    let (block, last) = rows.split_at(Axis(1), m);
    let mut sigma = block.mapv(|x| x + 0.0);
    for (i, d) in sigma.diag_mut().iter_mut().enumerate() {
        *d = prefix[[i, i]] + shift;
    }
    let u = last.column(0).to_owned();
    PrivatizedStatistics::new(
        sigma,
        u,
        usize::try_from(observations).unwrap_or(usize::MAX),
    )
}

impl<F: FeatureMap> Curator for JdpPrivatizer<F> {
    type Message = PrivatizedStatistics;
    type Error = JdpQffError;

    fn curate<R: Rng + ?Sized>(
        &mut self,
        feedback: &Feedback<'_>,
        rng: &mut R,
    ) -> Result<PrivatizedStatistics, JdpQffError> {
        self.privatize(feedback.point, feedback.reward, rng)
    }
}

/// Input: a stream of users' `(x_t, y_t)` (at most `T`); output: the `(Sigma~_{t+1}, u~_{t+1})`
/// the server receives after each round, from a [fresh](JdpPrivatizer::fresh) privatizer.
/// Claim: the tree's rho-zCDP for one user's `(x, y)` replaced, joint model (the actions shown to
/// the other users are post-processing of these releases).
impl<F: FeatureMap> Mechanism for JdpPrivatizer<F> {
    type Input = Vec<(Array1<f64>, f64)>;
    type Output = Vec<PrivatizedStatistics>;

    fn claim(&self) -> PrivacyClaim {
        let rho = self.tree.zcdp();
        PrivacyClaim::new(
            format!(
                "jdp_qff_privatizer(m={}, T={}, alpha={}, beta={}, B_y={}, sigma={}, shift={})",
                self.features.dim(),
                self.calibration.horizon(),
                self.calibration.alpha(),
                self.calibration.beta(),
                self.calibration.reward_bound(),
                self.tree.sigma(),
                self.spectrum.shift
            ),
            Guarantee::Zcdp { rho },
            TrustModel::Joint,
            NeighbouringRelation::ReplaceOne,
            format!(
                "one user's (x_t, y_t) replaced; ||Phi(x)|| <= 1 and |y| <= {} enforced by clipping",
                self.calibration.reward_bound()
            ),
        )
    }

    fn release<R: Rng + ?Sized>(
        &self,
        input: &Self::Input,
        rng: &mut R,
    ) -> Result<Self::Output, PrivacyError> {
        let mut p = self.fresh();
        input
            .iter()
            .map(|(x, y)| Ok(p.privatize(x.view(), *y, rng)?))
            .collect()
    }
}

/// The non-private comparison: the exact statistics `(Sigma_{t+1}, u_{t+1})`, no clipping, no
/// noise, no shift (GP-UCB with approximate features, Mutny & Krause 2018).
#[derive(Debug)]
pub struct ExactStatistics<F> {
    features: Arc<F>,
    sigma: Array2<f64>,
    u: Array1<f64>,
    observations: usize,
}

impl<F: FeatureMap> ExactStatistics<F> {
    /// Exact sums for the feature map `features`.
    pub fn new(features: Arc<F>) -> Self {
        let m = features.dim();
        Self {
            features,
            sigma: Array2::zeros((m, m)),
            u: Array1::zeros(m),
            observations: 0,
        }
    }
}

impl<F: FeatureMap> Curator for ExactStatistics<F> {
    type Message = ExactSums;
    type Error = JdpQffError;

    fn curate<R: Rng + ?Sized>(
        &mut self,
        feedback: &Feedback<'_>,
        _rng: &mut R,
    ) -> Result<ExactSums, JdpQffError> {
        let phi = self.features.map(feedback.point)?;
        let y = finite("reward", feedback.reward)?;
        // Sigma += phi phi^T in place, row by row (the same sums as adding the outer product).
        for (p, mut row) in phi.iter().zip(self.sigma.outer_iter_mut()) {
            row.scaled_add(*p, &phi);
        }
        self.u.scaled_add(y, &phi);
        self.observations += 1;
        Ok(ExactSums::new(
            self.sigma.clone(),
            self.u.clone(),
            self.observations,
        ))
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

    #[test]
    fn time_counts_the_rounds_processed() {
        let cal = JdpCalibration::new(1.0, 0.01, 8, 1.0, ZcdpConversion::Classic).unwrap();
        let spectrum = Spectrum::jdp(&cal, 2, 0.1, Default::default()).unwrap();
        let mut p = JdpPrivatizer::new(Arc::new(Fixed(1.0)), cal, spectrum).unwrap();
        let mut rng = ChaCha20Rng::seed_from_u64(1);
        assert_eq!(p.time(), 0);
        for t in 1..=3 {
            p.privatize(array![0.5].view(), 0.2, &mut rng).unwrap();
            assert_eq!(p.time(), t);
        }
    }

    /// `Mechanism::release` of a stream is what a fresh privatizer releases round by round
    /// for the same randomness (one statistic per user).
    #[test]
    fn release_is_the_fresh_privatizers_rounds() {
        let cal = JdpCalibration::new(1.0, 0.01, 8, 1.0, ZcdpConversion::Classic).unwrap();
        let spectrum = Spectrum::jdp(&cal, 2, 0.1, Default::default()).unwrap();
        let p = JdpPrivatizer::new(Arc::new(Fixed(1.0)), cal, spectrum).unwrap();
        let stream = vec![(array![0.1], 0.3), (array![0.2], -2.0), (array![0.3], 0.9)];
        let released = p
            .release(&stream, &mut ChaCha20Rng::seed_from_u64(5))
            .unwrap();
        let mut fresh = p.fresh();
        let mut rng = ChaCha20Rng::seed_from_u64(5);
        let rounds: Vec<_> = stream
            .iter()
            .map(|(x, y)| fresh.privatize(x.view(), *y, &mut rng).unwrap())
            .collect();
        assert_eq!(released.len(), 3);
        assert_eq!(released, rounds);
    }

    /// The split adds the shift on the diagonal only, and writes a negative zero off it as a
    /// positive one (`x + 0`), so equal statistics have equal bits.
    #[test]
    fn split_shifts_the_diagonal_and_normalises_negative_zeros() {
        let prefix = array![[1.0, -0.0, 5.0], [-0.0, 2.0, 6.0], [5.0, 6.0, 9.0]];
        let s = split(&prefix, 0.5, 4);
        assert_eq!(s.sigma(), &array![[1.5, 0.0], [0.0, 2.5]]);
        assert_eq!(s.sigma()[[0, 1]].to_bits(), 0.0f64.to_bits());
        assert_eq!(s.u(), &array![5.0, 6.0]);
    }
}
