//! The two truncations of Zhou & Tan 2021: raw-reward truncation (Algorithm 2, line 8) and the
//! feature-adaptive truncation of Algorithm 1 (lines 9-11), which ATA-GP-UCB inherits from
//! TOFU (Shao et al. 2018) through Chowdhury & Gopalan 2019.

use ndarray::{Array1, ArrayView1, ArrayView2};

use crate::arm_rewards::ArmRewards;
use crate::error::LdpBoError;
use validation::InputError;

/// Algorithm 2, line 8: `y_hat = y_bar * 1{|y_bar| <= b}`. A reward beyond the truncation
/// point is replaced by 0, not clipped to `b`.
pub fn truncate_reward(y_bar: f64, b: f64) -> f64 {
    if y_bar.abs() <= b { y_bar } else { 0.0 }
}

/// Algorithm 1, line 10: `r_hat_i = sum_tau u_{i,tau} y_tau 1{|u_{i,tau} y_tau| <= b_tau}` for
/// every row `u_i` of `U = V^{-1/2} Phi^T` (`m x t`), rewards `y` (`t`) and truncation points
/// `b` (`t`, one per time step `tau`).
///
/// Line 11 then sets `theta = V^{-1/2} r_hat`; the caller does that with the same
/// `V^{-1/2}`.
pub fn feature_adaptive_truncation(
    u: ArrayView2<'_, f64>,
    y: ArrayView1<'_, f64>,
    b: ArrayView1<'_, f64>,
) -> Result<Array1<f64>, LdpBoError> {
    let (m, t) = u.dim();
    if y.len() != t {
        return Err(LdpBoError::Input(InputError::DimensionMismatch {
            context: "feature-adaptive truncation: rewards per column of U",
            expected: t,
            got: y.len(),
        }));
    }
    if b.len() != t {
        return Err(LdpBoError::Input(InputError::DimensionMismatch {
            context: "feature-adaptive truncation: truncation points per column of U",
            expected: t,
            got: b.len(),
        }));
    }
    let mut r = Array1::zeros(m);
    for (i, row) in u.rows().into_iter().enumerate() {
        let mut s = 0.0;
        for tau in 0..t {
            let z = row[tau] * y[tau];
            if z.abs() <= b[tau] {
                s += z;
            }
        }
        r[i] = s;
    }
    Ok(r)
}

/// [`feature_adaptive_truncation`] grouped by arm, for one truncation point `b` at every `tau`
/// (as in Algorithm 1): `r_i = sum_a g_i(a) sum_{y in Y_a, |g_i(a) y| <= b} y`, where row `a`
/// of `g` (`n x m`) is `g(a)^T = (V^{-1/2} phi(a))^T` and `rewards[a]` holds the rewards of arm
/// `a`. The same rewards are kept as by the per-play sum (see [`crate::arm_rewards`]); the cost
/// is O(n m log t) instead of O(m t).
pub(crate) fn feature_adaptive_truncation_by_arm(
    g: ArrayView2<'_, f64>,
    rewards: &[ArmRewards],
    b: f64,
) -> Array1<f64> {
    let mut r = Array1::zeros(g.ncols());
    for (g_a, y_a) in g.rows().into_iter().zip(rewards) {
        if y_a.len() == 0 {
            continue;
        }
        for (r_i, &g_ai) in r.iter_mut().zip(g_a.iter()) {
            *r_i += g_ai * y_a.truncated_sum(g_ai, b);
        }
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_abs_diff_eq;
    use ndarray::array;

    #[test]
    fn raw_truncation_zeroes_large_rewards() {
        assert_abs_diff_eq!(truncate_reward(1.5, 2.0), 1.5);
        assert_abs_diff_eq!(truncate_reward(-2.0, 2.0), -2.0);
        assert_abs_diff_eq!(truncate_reward(2.5, 2.0), 0.0);
        assert_abs_diff_eq!(truncate_reward(-7.0, 2.0), 0.0);
    }

    #[test]
    fn feature_adaptive_truncation_by_hand() {
        // u_1 = (1, 2, 0.5), u_2 = (-1, 0.1, 3); y = (1, 2, -4); b = (1.5, 1.5, 1.5).
        // Row 1 products: 1, 4, -2 -> keep 1 only -> 1.
        // Row 2 products: -1, 0.2, -12 -> keep -1 and 0.2 -> -0.8.
        let u = array![[1.0, 2.0, 0.5], [-1.0, 0.1, 3.0]];
        let y = array![1.0, 2.0, -4.0];
        let b = array![1.5, 1.5, 1.5];
        let r = feature_adaptive_truncation(u.view(), y.view(), b.view()).unwrap();
        assert_abs_diff_eq!(r[0], 1.0);
        assert_abs_diff_eq!(r[1], -0.8, epsilon = 1e-15);
    }

    #[test]
    fn no_truncation_is_plain_projection() {
        let u = array![[0.3, -0.2], [0.1, 0.4]];
        let y = array![1.0, -2.0];
        let b = array![f64::INFINITY, f64::INFINITY];
        let r = feature_adaptive_truncation(u.view(), y.view(), b.view()).unwrap();
        let expected = u.dot(&y);
        assert_abs_diff_eq!(r[0], expected[0]);
        assert_abs_diff_eq!(r[1], expected[1]);
    }

    /// Grouped by arm, the same sums as per play (to summation order), on plays with heavy
    /// tails where many products sit near the truncation point.
    #[test]
    fn by_arm_equals_per_play() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(5);
        let (n, m, t) = (7, 4, 500);
        let g = ndarray::Array2::from_shape_fn((n, m), |_| 2.0 * rng.random::<f64>() - 1.0);
        let mut by_arm = vec![ArmRewards::default(); n];
        let mut played = Vec::new();
        let mut ys = Vec::new();
        for _ in 0..t {
            let a = rng.random_range(0..n);
            let y = (rng.random::<f64>() - 0.5) / (rng.random::<f64>() + 0.05);
            by_arm[a].push(y);
            played.push(a);
            ys.push(y);
        }
        let u = ndarray::Array2::from_shape_fn((m, t), |(i, tau)| g[[played[tau], i]]);
        for b in [0.1, 0.5, 2.0, 50.0] {
            let direct = feature_adaptive_truncation(
                u.view(),
                ndarray::ArrayView1::from(&ys[..]),
                Array1::from_elem(t, b).view(),
            )
            .unwrap();
            let grouped = feature_adaptive_truncation_by_arm(g.view(), &by_arm, b);
            for i in 0..m {
                assert!((direct[i] - grouped[i]).abs() < 1e-10, "b = {b}, row {i}");
            }
        }
    }

    #[test]
    fn mismatched_sizes_are_errors() {
        let u = array![[1.0, 2.0]];
        assert!(
            feature_adaptive_truncation(u.view(), array![1.0].view(), array![1.0, 1.0].view())
                .is_err()
        );
        assert!(
            feature_adaptive_truncation(u.view(), array![1.0, 1.0].view(), array![1.0].view())
                .is_err()
        );
    }
}
