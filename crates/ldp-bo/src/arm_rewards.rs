//! The rewards of one arm, sorted by magnitude with prefix sums: the sufficient statistic of
//! Algorithm 1's feature-adaptive truncation on a finite arm set.
//!
//! All plays of arm `a` share one column `g(a) = V^{-1/2} phi(a)` of `U` (Algorithm 1,
//! line 9), so the truncated sum of line 10 groups by arm:
//!
//! `r_i = sum_tau u_{i,tau} y_tau 1{|u_{i,tau} y_tau| <= b}
//!      = sum_a g_i(a) sum_{y in Y_a, |g_i(a) y| <= b} y`,
//!
//! with `Y_a` the rewards of arm `a` and one truncation point `b` for all `tau` (line 10's `b_tau`
//! does not depend on `tau`). The condition `|g y| <= b`, evaluated in floating point as
//! `fl(|g| |y|) <= b`, is monotone in `|y|` (rounding is monotone), so over `Y_a` sorted by
//! `|y|` the kept rewards are a prefix, found by binary search with the very same comparison:
//! the same rewards are kept as by the per-play sum, and their sum is a prefix sum. Only the
//! order of the floating-point additions differs.

/// The rewards of one arm in increasing order of `|y|`, and their prefix sums.
#[derive(Debug, Clone, Default)]
pub(crate) struct ArmRewards {
    sorted: Vec<f64>,
    /// `prefix[i] = sorted[0] + ... + sorted[i - 1]` (`prefix[0] = 0`).
    prefix: Vec<f64>,
}

impl ArmRewards {
    /// The number of rewards.
    pub fn len(&self) -> usize {
        self.sorted.len()
    }

    /// Add a (finite) reward: a binary search and an O(len) shift of the vectors; the prefix
    /// sums after the insertion point are recomputed (memory moves and additions only).
    pub fn push(&mut self, y: f64) {
        if self.prefix.is_empty() {
            self.prefix.push(0.0);
        }
        let at = self.sorted.partition_point(|v| v.abs() <= y.abs());
        self.sorted.insert(at, y);
        self.prefix.truncate(at + 1);
        let mut acc = self.prefix[at];
        for v in &self.sorted[at..] {
            acc += v;
            self.prefix.push(acc);
        }
    }

    /// `sum of y with |g y| <= b` in O(log len), comparing exactly as
    /// [`crate::truncation::feature_adaptive_truncation`] does.
    pub fn truncated_sum(&self, g: f64, b: f64) -> f64 {
        if self.sorted.is_empty() {
            return 0.0;
        }
        let kept = self.sorted.partition_point(|v| (g * v).abs() <= b);
        self.prefix[kept]
    }

    /// The rewards, in increasing order of magnitude.
    #[cfg(test)]
    pub fn rewards(&self) -> &[f64] {
        &self.sorted
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha20Rng;

    #[test]
    fn truncated_sums_equal_the_direct_sum() {
        let mut rng = ChaCha20Rng::seed_from_u64(3);
        let mut arm = ArmRewards::default();
        let mut all = Vec::new();
        for i in 0..300 {
            // Heavy tails and exact ties in magnitude.
            let y = if i % 17 == 0 {
                -2.5
            } else {
                (rng.random::<f64>() - 0.5) / (rng.random::<f64>() + 0.01)
            };
            arm.push(y);
            all.push(y);
            for &(g, b) in &[(0.3, 1.0), (-2.0, 5.0), (0.0, 0.1), (1.0, 2.5), (7.0, 1e-3)] {
                let direct: f64 = all.iter().filter(|&&v| (g * v).abs() <= b).sum();
                let kept_direct = all.iter().filter(|&&v| (g * v).abs() <= b).count();
                let kept = arm.sorted.partition_point(|v| (g * v).abs() <= b);
                assert_eq!(kept, kept_direct, "the same rewards are kept");
                assert!((arm.truncated_sum(g, b) - direct).abs() < 1e-12 * (1.0 + direct.abs()));
            }
        }
        assert_eq!(arm.len(), 300);
        assert!(arm.rewards().windows(2).all(|w| w[0].abs() <= w[1].abs()));
    }

    #[test]
    fn empty_arm_sums_to_zero() {
        assert_eq!(
            ArmRewards::default().truncated_sum(1.0, 1.0).to_bits(),
            0f64.to_bits()
        );
    }
}
