//! What the three UCB algorithms share: the fixed finite arm set and the UCB choice.

use ndarray::{Array2, ArrayView1, ArrayView2};
use rand::{Rng, RngExt};

use crate::error::LdpBoError;

/// Check that the decision set offered by the environment is the arm set the learner was
/// built for (the algorithms of Zhou & Tan run on a fixed finite domain `D`).
pub(crate) fn check_decision_set(
    arms: &Array2<f64>,
    decision_set: ArrayView2<'_, f64>,
) -> Result<(), LdpBoError> {
    if decision_set.dim() != arms.dim() {
        return Err(LdpBoError::DimensionMismatch {
            context: "decision set rows (the learner's fixed arm set)",
            expected: arms.nrows(),
            got: decision_set.nrows(),
        });
    }
    if decision_set != arms.view() {
        return Err(LdpBoError::Protocol(
            "the decision set differs from the learner's fixed arm set",
        ));
    }
    Ok(())
}

/// Validate an arm set: non-empty, finite.
pub(crate) fn validate_arms(arms: ArrayView2<'_, f64>) -> Result<Array2<f64>, LdpBoError> {
    if arms.nrows() == 0 || arms.ncols() == 0 {
        return Err(LdpBoError::EmptyArmSet);
    }
    if let Some(&v) = arms.iter().find(|v| !v.is_finite()) {
        return Err(LdpBoError::NonFinite {
            what: "arm coordinate",
            value: v,
        });
    }
    Ok(arms.to_owned())
}

/// `argmax_x mean(x) + beta sqrt(variance(x))`, ties broken uniformly at random (so that the
/// first round, where every arm has the same score, does not always pick arm 0).
pub(crate) fn ucb_argmax<R: Rng + ?Sized>(
    mean: ArrayView1<'_, f64>,
    variance: ArrayView1<'_, f64>,
    beta: f64,
    rng: &mut R,
) -> usize {
    let mut best = f64::NEG_INFINITY;
    let mut ties = 0usize;
    let mut choice = 0usize;
    for (i, (m, v)) in mean.iter().zip(variance.iter()).enumerate() {
        let score = m + beta * v.max(0.0).sqrt();
        if score > best {
            best = score;
            choice = i;
            ties = 1;
        } else if is_tie(score, best) {
            // Reservoir sampling over the tied arms: each is chosen with probability 1/ties.
            ties += 1;
            if rng.random_range(0..ties) == 0 {
                choice = i;
            }
        }
    }
    choice
}

/// Exact equality on purpose: only scores that are bit-for-bit equal (such as the prior's in
/// the first round) are ties; near-equal scores are ordered as computed.
#[allow(clippy::float_cmp)]
fn is_tie(a: f64, b: f64) -> bool {
    a == b
}

/// The width of the coming UCB choice, `bias + scale (beta - bias)`: the theorem's `beta` with its
/// concentration term (everything but the function-norm `bias`) multiplied by `scale`
/// (`docs/ldp-bo.md`, "Defaults").
pub(crate) fn scaled_width(bias: f64, beta: f64, scale: f64) -> f64 {
    bias + scale * (beta - bias)
}

/// Check a message value.
pub(crate) fn finite_reward(value: f64) -> Result<f64, LdpBoError> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(LdpBoError::NonFinite {
            what: "reward message",
            value,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;
    use rand::SeedableRng;
    use rand_chacha::ChaCha20Rng;

    #[test]
    fn argmax_and_uniform_ties() {
        let mut rng = ChaCha20Rng::seed_from_u64(3);
        assert_eq!(
            ucb_argmax(
                array![0.0, 1.0, 0.5].view(),
                array![1.0, 0.0, 1.0].view(),
                1.0,
                &mut rng
            ),
            2
        );
        let mut counts = [0usize; 3];
        for _ in 0..3000 {
            counts[ucb_argmax(
                array![0.0, 0.0, 0.0].view(),
                array![1.0, 1.0, 1.0].view(),
                1.0,
                &mut rng,
            )] += 1;
        }
        // Each arm about 1000 times: a 6-sigma band (sigma = sqrt(3000 * 2/9) ~ 25.8).
        for c in counts {
            assert!((c as f64 - 1000.0).abs() < 155.0, "{counts:?}");
        }
    }
}
