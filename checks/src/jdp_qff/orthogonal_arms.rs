//! The greedy controls' problem: a fixed decision set on which a learner without its confidence
//! width locks onto a suboptimal point, while GP-UCB with Theorem 1's width does not.
//!
//! # The features' geometry
//! With `mbar = 2` Gauss-Hermite nodes per dimension (`omega in {-1, 1}`, weight 1/2 each) the
//! NQFF of `exp(-|x - y|^2 / 2)` in `d = 2` has the inner product
//! `Phi(x) . Phi(y) = (1/4) sum_{omega in {-1,1}^2} cos(omega . (x - y)) = cos(x_1 - y_1) cos(x_2 - y_2)`:
//! two points whose coordinates differ by `pi/2` in at least one place have orthogonal features,
//! and the four corners `c + {0, pi/2}^2` of a square of side `pi/2` are orthonormal (checked in
//! the tests).
//!
//! # One problem draw
//! - The square: `c` uniform in `[-2, 2 - pi/2]^2` (inside the box of [`super::problem`]).
//! - The function: `theta* = sum_i mu_i Phi(x_i)` over the four corners, the best corner `b`
//!   uniform among them with `mu_b = 0.8`, the three others with `mu_i ~ U[0.15, 0.3]`; so
//!   `f(x_i) = mu_i`, `f` lies in the span of the features (`eps = 0`, Remark 4) and
//!   `||theta*|| = ||mu|| <= sqrt(0.91) < 1 = B`.
//! - The decision set, the same every round: `b` and the points of the two edges of the square
//!   that do not touch `b` ([`SEGMENTS`] pieces per edge: `2 SEGMENTS + 1` points besides `b`). Each of
//!   those lies `pi/2` from `b` in one coordinate, so its features are orthogonal to `Phi(b)`,
//!   and its mean `mu_j cos u + mu_k sin u` (`u in [0, pi/2]`, `j`, `k` the edge's corners) is in
//!   `[0.15, 0.43]`: every suboptimal point is at least 0.37 below `b`.
//! - Rewards `y = f(x) + eta`, `eta ~ U[-0.1, 0.1]` (`rho = 0.1`): every reward is positive and at
//!   most `0.9 <= B_y = 1` (the clipping never binds). The regret is against `b`.
//!
//! # Why a learner without its width fails here, and GP-UCB does not
//! Without privacy noise, the ridge estimate at a point orthogonal to every point played so far
//! is 0, and the estimate at a played point is a shrunk mean of positive rewards. Once a greedy
//! learner (the argmax of its posterior mean) has played a point other than `b`, that point's
//! estimate is positive and `b`'s is 0, so it never plays `b` and its regret is linear. By
//! symmetry of its first noisy argmax over the `2 SEGMENTS + 2` points it settles first on
//! another point in about 7 runs of 8 (an argument, not a measurement; the controls print the
//! measured count). With privacy noise `b`'s estimate is not 0: the tree's noise matrix has
//! off-diagonal entries, so it couples `b` to the points played, besides the noise on the
//! vector, both divided by about the PSD shift; at `alpha = 10^4` this is small, at
//! `alpha = 100` greedy locked far less often, and removing only the noise from the releases
//! restores the locks (the test `at_alpha_100_the_privacy_noise_unlocks_greedy_play` in
//! `super::scaling`; docs/jdp-qff.md). GP-UCB's width at an unplayed `b` stays at about
//! `beta^{1/2} / sqrt(lambda + lambda_min)`, so it plays `b`.

use std::f64::consts::FRAC_PI_2;

use bandit::BanditError;
use bandit::env::{RoundEnvironment, RoundState};
use kernel::{FeatureMap, QuadratureFourierFeatures};
use ndarray::{Array1, Array2};
use rand::{Rng, RngExt};

/// The best corner's mean.
pub(super) const BEST_MEAN: f64 = 0.8;
/// The three other corners' means are uniform on this range.
pub(super) const DECOY_MEANS: std::ops::Range<f64> = 0.15..0.3;
/// Half-width of the uniform reward noise: small enough that every reward of every point is
/// positive (module docs: why).
pub(super) const NOISE: f64 = 0.1;
/// The reward bound `B_y` the learner clips to (every reward is at most `0.8 + 0.1`).
pub(super) const REWARD_BOUND: f64 = 1.0;
/// Pieces each far edge of the square is cut into (module docs).
pub(super) const SEGMENTS: usize = 3;
/// Half-width of the box the square lies in (that of [`super::problem`]).
const BOX: f64 = 2.0;

/// The environment (module docs).
#[derive(Debug)]
pub(super) struct OrthogonalArms {
    state: RoundState,
}

impl OrthogonalArms {
    /// A fresh problem draw (module docs). The features build `theta*` from the corners and
    /// evaluate `f` on the decision set, so that the means are those of the function the learner
    /// models.
    ///
    /// # Errors
    /// What mapping the corners through `features` raises.
    pub(super) fn sample<R: Rng + ?Sized>(
        features: &QuadratureFourierFeatures,
        rng: &mut R,
    ) -> Result<Self, BanditError> {
        let c = [
            rng.random_range(-BOX..BOX - FRAC_PI_2),
            rng.random_range(-BOX..BOX - FRAC_PI_2),
        ];
        // The basis corners c + {0, pi/2}^2 (corner i has offset pi/2 in coordinate k when bit
        // k of i is set), the best one first among the decision set's rows.
        let corner = |i: usize, k: usize| c[k] + if (i >> k) & 1 == 1 { FRAC_PI_2 } else { 0.0 };
        let best = rng.random_range(0..4);
        let mu = Array1::from_shape_fn(4, |i| {
            if i == best {
                BEST_MEAN
            } else {
                rng.random_range(DECOY_MEANS)
            }
        });
        let basis = Array2::from_shape_fn((4, 2), |(i, k)| corner(i, k));
        // The decision set: the best corner b and the points of the two edges of the square
        // that do not touch b (each at distance pi/2 from b in one coordinate, so orthogonal
        // to it), `segments + 1` points per edge, the shared corner once.
        let mut rows: Vec<[f64; 2]> = vec![[corner(best, 0), corner(best, 1)]];
        for k in 0..2 {
            // The edge whose coordinate k is opposite to b's: the other coordinate runs along it.
            let fixed = corner(best ^ (1 << k), k);
            let o = 1 - k;
            let (from, to) = (corner(best, o), corner(best ^ (1 << o), o));
            for j in 0..=SEGMENTS {
                if k == 1 && j == SEGMENTS {
                    break; // the far corner, already on the first edge
                }
                let v = from + (to - from) * j as f64 / SEGMENTS as f64;
                let mut x = [0.0; 2];
                x[k] = fixed;
                x[o] = v;
                rows.push(x);
            }
        }
        let points = Array2::from_shape_fn((rows.len(), 2), |(i, k)| rows[i][k]);
        // theta* = sum_i mu_i Phi(x_i) over the basis corners; f on the decision set is Phi theta*.
        let map = |x: &Array2<f64>| {
            features
                .map_batch(x.view())
                .map_err(|e| BanditError::Environment {
                    round: None,
                    source: Box::new(e),
                })
        };
        let theta = map(&basis)?.t().dot(&mu);
        let means = map(&points)?.dot(&theta);
        Ok(Self {
            state: RoundState::best_of_set(points, means),
        })
    }
}

impl RoundEnvironment for OrthogonalArms {
    fn round_state(&self) -> &RoundState {
        &self.state
    }

    fn next_round<R: Rng + ?Sized>(
        &mut self,
        _round: usize,
        _rng: &mut R,
    ) -> Result<(), BanditError> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha20Rng;

    /// Over many draws: the square lies in the box; the best point is the first row, with mean
    /// 0.8, and its features are orthogonal to every other point's (unit norms); every other
    /// mean is in `[0.15, 0.43]`, so every reward is positive; and `f` at the corners is the
    /// drawn `mu` (the basis corners are orthonormal).
    #[test]
    fn the_best_point_is_orthogonal_to_every_other_and_the_means_are_as_documented() {
        let f = super::super::scaling::features().unwrap();
        let mut rng = ChaCha20Rng::seed_from_u64(7);
        for _ in 0..200 {
            let env = OrthogonalArms::sample(&f, &mut rng).unwrap();
            let s = env.round_state();
            assert_eq!(s.points().nrows(), 2 * SEGMENTS + 2);
            assert!(s.points().iter().all(|v| v.abs() <= BOX));
            let phi = f.map_batch(s.points()).unwrap();
            let gram = phi.dot(&phi.t());
            for i in 0..gram.nrows() {
                assert!((gram[[i, i]] - 1.0).abs() < 1e-12);
                if i > 0 {
                    assert!(gram[[0, i]].abs() < 1e-12, "gram {gram}");
                }
            }
            let means = s.means();
            assert_eq!(
                s.best().to_bits(),
                means[0].to_bits(),
                "the best point is row 0"
            );
            assert!((means[0] - BEST_MEAN).abs() < 1e-12);
            for &m in means.iter().skip(1) {
                assert!(m > DECOY_MEANS.start - 1e-12 && m < 0.43, "mean {m}");
                assert!(m - NOISE > 0.0);
            }
            // Rows 1, SEGMENTS + 1 and SEGMENTS + 2 are the other three corners: the four
            // corners are orthonormal and f there is a draw of U[0.15, 0.3].
            let corners = [0, 1, SEGMENTS + 1, SEGMENTS + 2];
            for &i in &corners {
                for &j in &corners {
                    let want = if i == j { 1.0 } else { 0.0 };
                    assert!((gram[[i, j]] - want).abs() < 1e-12, "gram {gram}");
                }
                if i > 0 {
                    assert!(DECOY_MEANS.contains(&means[i]), "corner mean {}", means[i]);
                }
            }
        }
    }
}
