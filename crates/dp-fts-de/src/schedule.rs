//! The two schedules of DP-FTS-DE: how often an agent follows the server (`1 - p_t`,
//! Algorithm 2 line 5) and how fast the sub-region weights become uniform (the softmax
//! temperature of Sec. 3.2 and App. B).

use serde::{Deserialize, Serialize};

/// `1 - p_t`, the probability that agent `n` chooses its query at iteration `t >= 1` from the
/// server's vectors instead of its own posterior (Algorithm 2, lines 4-8: TS when `r <= p_t`).
///
/// The paper's experiments use `1 - p_t = 1/sqrt(t)` (synthetic, Sec. 5.1) and `1/t`
/// (real-world, Sec. 5.2); Theorem 1 asks for `1 - p_t = O(1/t^2)`, offered as
/// [`Exploration::InverseSquare`]. [`Exploration::Never`] is standard TS (`p_t = 1`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Exploration {
    /// `1 - p_t = 1 / sqrt(t)` (Sec. 5.1).
    InverseSqrt,
    /// `1 - p_t = 1 / t` (Sec. 5.2).
    Inverse,
    /// `1 - p_t = 1 / t^2` (Theorem 1's rate).
    InverseSquare,
    /// `p_t = 1`: the agent never uses the server (standard TS).
    Never,
}

impl Exploration {
    /// `1 - p_t` at iteration `t >= 1` (`t = 0` is the initialisation, where no choice is
    /// made; it gives 0).
    pub fn follow_probability(self, t: usize) -> f64 {
        if t == 0 {
            return 0.0;
        }
        let t = t as f64;
        match self {
            Self::InverseSqrt => 1.0 / t.sqrt(),
            Self::Inverse => 1.0 / t,
            Self::InverseSquare => 1.0 / (t * t),
            Self::Never => 0.0,
        }
    }
}

/// The schedule of `a_t`, which sets the softmax temperature `T_t = a / (a_t - 1)` of the
/// sub-region weights (App. B): `a_t = a + 1` for the first `hold` iterations, then linearly
/// down to 1 over the next `decay` iterations (the last of them at exactly 1), then 1 (an
/// infinite temperature: uniform weights).
///
/// App. B: synthetic `hold = 5, decay = 5` (`a_t = 16, 16, 16, 16, 16, 16, 12.25, 8.5, 4.75, 1`
/// for `t = 1..10`: "16 for the first 5 iterations, decay linearly to 1 in the next 5, i.e.
/// 16, 12.25, 8.5, 4.75, 1 for t = 6, ..., 10"); real-world `hold = 10, decay = 30`. The
/// paper's worked values start the decay *at* `a + 1` (iteration `hold + 1` still has 16),
/// so the step is `a / (decay - 1)`; we follow the worked values. Iteration 0 (the
/// initialisation round, whose aggregate the agents use at `t = 1`) has `a_0 = a + 1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Annealing {
    /// Iterations at `a_t = a + 1`.
    pub hold: usize,
    /// Iterations of the linear decay to 1 (`>= 2`).
    pub decay: usize,
}

impl Annealing {
    /// App. B, synthetic experiments: 5 + 5.
    pub const SYNTHETIC: Self = Self { hold: 5, decay: 5 };
    /// App. B, real-world experiments: 10 + 30.
    pub const REAL_WORLD: Self = Self {
        hold: 10,
        decay: 30,
    };

    /// `a_t` for `a > 0` at iteration `t >= 0`.
    pub fn a_t(self, a: f64, t: usize) -> f64 {
        let top = a + 1.0;
        if t <= self.hold {
            return top;
        }
        let k = t - self.hold; // 1-based position in the decay
        if k >= self.decay || self.decay < 2 {
            return 1.0;
        }
        top - a * (k - 1) as f64 / (self.decay - 1) as f64
    }
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // the worked values are exact in binary
mod tests {
    use super::*;

    #[test]
    fn the_synthetic_schedule_has_the_papers_worked_values() {
        let a: Vec<f64> = (1..=11)
            .map(|t| Annealing::SYNTHETIC.a_t(15.0, t))
            .collect();
        assert_eq!(
            a,
            [
                16.0, 16.0, 16.0, 16.0, 16.0, 16.0, 12.25, 8.5, 4.75, 1.0, 1.0
            ]
        );
        assert_eq!(Annealing::SYNTHETIC.a_t(15.0, 0), 16.0);
        let r = Annealing::REAL_WORLD;
        assert_eq!(r.a_t(15.0, 11), 16.0);
        assert_eq!(r.a_t(15.0, 40), 1.0);
        assert!(r.a_t(15.0, 39) > 1.0);
    }

    #[test]
    fn follow_probabilities() {
        assert_eq!(Exploration::InverseSqrt.follow_probability(4), 0.5);
        assert_eq!(Exploration::Inverse.follow_probability(4), 0.25);
        assert_eq!(Exploration::InverseSquare.follow_probability(4), 1.0 / 16.0);
        assert_eq!(Exploration::Never.follow_probability(4), 0.0);
        assert_eq!(Exploration::Inverse.follow_probability(1), 1.0);
    }
}
