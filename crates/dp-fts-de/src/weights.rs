//! The sub-region weights `phi_n^(i)` of distributed exploration (Sec. 3.2, footnote 8, and
//! App. B): public numbers that depend only on which sub-region each agent was assigned.

use ndarray::Array2;
use serde::{Deserialize, Serialize};
use validation::positive;

use crate::error::DpFtsDeError;
use crate::schedule::Annealing;

/// How the server weighs agent `n`'s vector in the aggregate of sub-region `i`.
///
/// The paper's weights (Sec. 3.2) are the softmax
/// `phi_n^(i) = exp((a I_n^(i) + 1) / T) / sum_m exp((a I_m^(i) + 1) / T)`, with
/// `I_n^(i) = 1` when agent `n` is assigned to sub-region `i`, `a = 15`, and a temperature
/// `T` that grows from 1 to infinity. Dividing numerator and denominator by `exp(1 / T)`:
/// `phi_n^(i) = exp(I_n^(i) a / T) / (N_i exp(a / T) + N - N_i)` with `N_i` the number of
/// agents assigned to `i`; this form is what we compute (no overflow for any `T`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum Weighting {
    /// The paper's adaptive weights: `T_t = a / (a_t - 1)` with `a_t` from the
    /// [`Annealing`] schedule, so `a / T_t = a_t - 1` (App. B).
    Adaptive(Annealing),
    /// Fixed temperature `T = 1` for every round (App. B.2.5, "non-adaptive weights").
    NonAdaptive,
    /// `phi_n^(i) = 1 / N` for every sub-region (Fig. 5's ablation "equal weights", and the
    /// only possible weights when `P = 1`).
    Equal,
}

/// The public weights of one federation: the assignment of agents to sub-regions, `a`, and
/// the [`Weighting`].
#[derive(Debug, Clone, PartialEq)]
pub struct SubRegionWeights {
    assignment: Vec<usize>,
    counts: Vec<usize>,
    a: f64,
    weighting: Weighting,
}

impl SubRegionWeights {
    /// `assignment[n]` is agent `n`'s sub-region in `0..p`; `a > 0`.
    pub fn new(
        assignment: Vec<usize>,
        p: usize,
        a: f64,
        weighting: Weighting,
    ) -> Result<Self, DpFtsDeError> {
        let a = positive("softmax weight constant a", a)?;
        if p == 0 {
            return Err(DpFtsDeError::Setting(
                "the number of sub-regions P must be >= 1".into(),
            ));
        }
        if assignment.is_empty() {
            return Err(DpFtsDeError::Setting(
                "a federation needs at least one agent".into(),
            ));
        }
        let mut counts = vec![0; p];
        for (n, &i) in assignment.iter().enumerate() {
            if i >= p {
                return Err(DpFtsDeError::Setting(format!(
                    "agent {n} is assigned to sub-region {i}, but there are only {p}"
                )));
            }
            counts[i] += 1;
        }
        Ok(Self {
            assignment,
            counts,
            a,
            weighting,
        })
    }

    /// Round-robin assignment of `n` agents to `p` sub-regions (agent `k` to `k mod p`): every
    /// sub-region gets `floor(n/p)` or `ceil(n/p)` agents ("approximately N/P", footnote 6).
    pub fn round_robin(n: usize, p: usize) -> Vec<usize> {
        (0..n).map(|k| k % p.max(1)).collect()
    }

    /// Number of agents `N`.
    pub fn n_agents(&self) -> usize {
        self.assignment.len()
    }

    /// Number of sub-regions `P`.
    pub fn n_regions(&self) -> usize {
        self.counts.len()
    }

    /// Agent `n`'s sub-region.
    pub fn region_of(&self, n: usize) -> Option<usize> {
        self.assignment.get(n).copied()
    }

    /// The assignment, one sub-region per agent.
    pub fn assignment(&self) -> &[usize] {
        &self.assignment
    }

    /// `a / T_t`: the log-ratio of an assigned agent's weight to an unassigned one's at
    /// iteration `t` (0 for equal weights).
    pub fn log_ratio(&self, t: usize) -> f64 {
        match self.weighting {
            Weighting::Adaptive(s) => s.a_t(self.a, t) - 1.0,
            Weighting::NonAdaptive => self.a,
            Weighting::Equal => 0.0,
        }
    }

    /// The `N x P` weights `phi_n^(i)` at iteration `t` (each column sums to 1).
    pub fn at(&self, t: usize) -> Array2<f64> {
        let n = self.n_agents();
        let r = self.log_ratio(t);
        let e = r.exp();
        let mut w = Array2::zeros((n, self.n_regions()));
        for (i, &ni) in self.counts.iter().enumerate() {
            // Dividing by exp(r) when it is huge keeps the computation finite.
            let (assigned, other) = if r > 0.0 {
                let denom = ni as f64 + (n - ni) as f64 * (-r).exp();
                (1.0 / denom, (-r).exp() / denom)
            } else {
                let denom = ni as f64 * e + (n - ni) as f64;
                (e / denom, 1.0 / denom)
            };
            for (k, &ik) in self.assignment.iter().enumerate() {
                w[[k, i]] = if ik == i { assigned } else { other };
            }
        }
        w
    }

    /// `phi_max = max_{n, i} phi_n^(i)` at iteration `t`.
    pub fn phi_max(&self, t: usize) -> f64 {
        self.at(t).iter().fold(0.0, |m: f64, &v| m.max(v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    fn softmax_reference(assign: &[usize], p: usize, a: f64, temp: f64) -> Array2<f64> {
        let n = assign.len();
        let mut w = Array2::zeros((n, p));
        for i in 0..p {
            let e: Vec<f64> = assign
                .iter()
                .map(|&k| ((a * f64::from(u8::from(k == i)) + 1.0) / temp).exp())
                .collect();
            let s: f64 = e.iter().sum();
            for k in 0..n {
                w[[k, i]] = e[k] / s;
            }
        }
        w
    }

    #[test]
    fn the_stable_form_equals_the_papers_softmax() {
        let assign = SubRegionWeights::round_robin(7, 3);
        let s = SubRegionWeights::new(
            assign.clone(),
            3,
            15.0,
            Weighting::Adaptive(Annealing::SYNTHETIC),
        )
        .unwrap();
        for t in 0..12 {
            let at = Annealing::SYNTHETIC.a_t(15.0, t);
            let w = s.at(t);
            if at > 1.0 {
                let r = softmax_reference(&assign, 3, 15.0, 15.0 / (at - 1.0));
                for (x, y) in w.iter().zip(r.iter()) {
                    assert_relative_eq!(*x, *y, max_relative = 1e-12);
                }
            } else {
                assert!(w.iter().all(|&v| (v - 1.0 / 7.0).abs() < 1e-15));
            }
            for c in w.columns() {
                assert_relative_eq!(c.sum(), 1.0, epsilon = 1e-12);
            }
        }
        let fixed = SubRegionWeights::new(assign.clone(), 3, 15.0, Weighting::NonAdaptive).unwrap();
        let r = softmax_reference(&assign, 3, 15.0, 1.0);
        for (x, y) in fixed.at(30).iter().zip(r.iter()) {
            assert_relative_eq!(*x, *y, max_relative = 1e-12);
        }
    }

    #[test]
    fn bad_settings_are_rejected() {
        assert!(SubRegionWeights::new(vec![0, 1], 0, 15.0, Weighting::Equal).is_err());
        assert!(SubRegionWeights::new(vec![0, 2], 2, 15.0, Weighting::Equal).is_err());
        assert!(SubRegionWeights::new(vec![], 1, 15.0, Weighting::Equal).is_err());
        assert!(SubRegionWeights::new(vec![0], 1, 0.0, Weighting::Equal).is_err());
        assert!(SubRegionWeights::new(vec![0], 1, f64::NAN, Weighting::Equal).is_err());
    }
}
