//! The state of one round of an environment (its decision set, the mean reward of every point
//! and the round's reference value of the pseudo-regret), and the trait of environments that
//! are described by it: [`RoundEnvironment`]. Every such environment is an
//! [`Environment`](super::Environment) by one blanket implementation, so the decision set,
//! the means and the regret's reference are read the same way everywhere.

use ndarray::{Array1, Array2, ArrayView2};
use rand::Rng;

use crate::error::BanditError;

/// One round's decision set `D_t` (`n x d`, a point per row), the mean reward `f(x)` of each
/// point, and `f(x*_t)`, the reference of the round's pseudo-regret: the best mean of `D_t`
/// ([`RoundState::best_of_set`], the regret of Dubey 2021 and Zhou & Tan 2021) or a known
/// value such as the global maximum of a continuous domain ([`RoundState::new`]).
#[derive(Debug, Clone, PartialEq)]
pub struct RoundState {
    points: Array2<f64>,
    means: Array1<f64>,
    best: f64,
}

impl RoundState {
    /// The state before the first round: no point yet, of dimension `d` (the reference is
    /// NaN, so that a regret read before a round is drawn is visibly wrong).
    pub fn empty(d: usize) -> Self {
        Self {
            points: Array2::zeros((0, d)),
            means: Array1::zeros(0),
            best: f64::NAN,
        }
    }

    /// `points` with their `means` (one per row) and the reference `best`.
    ///
    /// # Panics
    /// When the number of means is not the number of points: a state is made by an
    /// environment from its own evaluation of its points, so a mismatch is a bug.
    pub fn new(points: Array2<f64>, means: Array1<f64>, best: f64) -> Self {
        assert_eq!(
            points.nrows(),
            means.len(),
            "a round state needs one mean per point"
        );
        Self {
            points,
            means,
            best,
        }
    }

    /// `points` with their `means`, the reference being the best mean of the set.
    ///
    /// # Panics
    /// As [`RoundState::new`].
    pub fn best_of_set(points: Array2<f64>, means: Array1<f64>) -> Self {
        let best = means.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        Self::new(points, means, best)
    }

    /// The decision set, `n x d`.
    pub fn points(&self) -> ArrayView2<'_, f64> {
        self.points.view()
    }

    /// The mean rewards, one per point.
    pub fn means(&self) -> &Array1<f64> {
        &self.means
    }

    /// The mean reward of point `action`.
    ///
    /// # Panics
    /// When `action` is not a row of the decision set (the runner checks it first).
    pub fn mean(&self, action: usize) -> f64 {
        self.means[action]
    }

    /// The reference of the round's pseudo-regret.
    pub fn best(&self) -> f64 {
        self.best
    }
}

/// An environment described by its current [`RoundState`]: it moves to the next round (a new
/// decision set, or none for a fixed one) and draws the reward of a point; the blanket
/// implementation of [`Environment`](super::Environment) reads everything else from the state.
pub trait RoundEnvironment {
    /// The current round's state.
    fn round_state(&self) -> &RoundState;

    /// Prepare round `round` (0-based): draw its decision set (or keep a fixed one).
    ///
    /// # Errors
    /// What drawing the decision set or evaluating its means can raise.
    fn next_round<R: Rng + ?Sized>(&mut self, round: usize, rng: &mut R)
    -> Result<(), BanditError>;

    /// Draw the raw reward of row `action` of the current decision set.
    ///
    /// # Errors
    /// What the reward model can raise.
    fn draw_reward<R: Rng + ?Sized>(
        &mut self,
        action: usize,
        rng: &mut R,
    ) -> Result<f64, BanditError>;
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn a_state_reads_its_points_means_and_reference() {
        let s = RoundState::best_of_set(array![[0.0], [1.0], [2.0]], array![0.5, 0.9, 0.1]);
        assert_eq!(s.points().nrows(), 3);
        assert_eq!(s.mean(1).to_bits(), 0.9f64.to_bits());
        assert_eq!(s.best().to_bits(), 0.9f64.to_bits());
        let fixed = RoundState::new(array![[0.0]], array![0.2], 1.0);
        assert_eq!(fixed.best().to_bits(), 1.0f64.to_bits());
        let e = RoundState::empty(3);
        assert_eq!((e.points().nrows(), e.points().ncols()), (0, 3));
        assert!(e.best().is_nan());
    }

    #[test]
    #[should_panic(expected = "one mean per point")]
    fn a_mean_per_point_is_required() {
        let _ = RoundState::new(array![[0.0], [1.0]], array![0.5], 0.5);
    }
}
