//! The baselines beside USCA, on the same learning data: the GP posterior mean of eq. (2)
//! (non-private) and a naive private predictor (the exponential mechanism on that posterior mean
//! with a sound sensitivity), so that the value of the paper's estimator is visible.
//! (The non-private `argmax_x mu_T(x, c)` is [`crate::Usca::probabilities`] with `eps = inf`.)
//!
//! # The sensitivity of the posterior mean (a derivation; the paper gives none)
//!
//! `mu(w) = k_W(w)^T (K + tau I)^{-1} Y` is kernel ridge regression: `mu` minimises
//! `sum_t (y_t - g(w_t))^2 + tau |g|_H^2`, so `tau mu = sum_t r_t phi(w_t)` with residuals
//! `r_t = y_t - mu(w_t)`. For data sets differing in row `t`, subtracting the two optimality
//! conditions gives `(tau I + sum_{i != t} phi_i phi_i^T)(mu - mu') = r_t phi(w_t) - r'_t phi(w'_t)`,
//! and the operator is `>= tau I`, so with `k <= 1`:
//!
//! `|mu(w) - mu'(w)| <= (|r_t| + |r'_t|) / tau`.
//!
//! Two bounds on a residual: `|mu(w)| = |phi(w)^T (Phi Phi^T + tau I)^{-1} Phi Y|
//! <= max_s s / (s^2 + tau) |Y| <= sqrt(T) B / (2 sqrt(tau))`, so `|r_t| <= B (1 + sqrt(T / tau) / 2)`;
//! and directly `|mu - mu'| <= |mu| + |mu'| <= B sqrt(T / tau)`. Hence
//!
//! `Delta_naive = min(B sqrt(T / tau), 2 B (1 + sqrt(T / tau) / 2) / tau)`,
//!
//! which grows like `sqrt(T)`; USCA's is `2 B sup sigma^2 <= 2 B / tau` whatever `T`.

use kernel::{ExactGp, Kernel};
use ndarray::{Array1, ArrayView1};

use std::sync::Arc;

use crate::algorithm::predictor_probabilities;
use crate::error::UscaError;
use crate::estimator::LearningData;
use crate::factored_mu::ActionFactors;
use crate::joint_kernel::JointKernel;
use crate::problem::ContextualProblem;

/// The sound sensitivity `Delta_naive` of the GP posterior mean (module docs).
pub fn posterior_mean_sensitivity(t: usize, tau: f64, b: f64) -> Result<f64, UscaError> {
    validation::at_least_one("T (learning rounds)", t)?;
    let tau = validation::positive("tau", tau)?;
    let b = validation::positive("reward bound B", b)?;
    let r = (t as f64 / tau).sqrt();
    Ok((b * r).min(2.0 * b * (1.0 + 0.5 * r) / tau))
}

/// The GP posterior mean of eq. (2) on the learning data, and the predictors built on it.
#[derive(Debug)]
pub struct PosteriorMeanBaseline<K: Kernel> {
    gp: ExactGp<K>,
    /// `alpha = (K + tau I)^{-1} Y`, so that `mu(w) = k_W(w)^T alpha`.
    alpha: Array1<f64>,
    /// The action factors of `k_W(w)` for a product kernel ([`PosteriorMeanBaseline::fit_factored`]).
    factors: Option<ActionFactors>,
    problem: ContextualProblem,
    sensitivity: f64,
}

impl<K: Kernel> PosteriorMeanBaseline<K> {
    /// Fit the exact posterior (one `T x T` Cholesky) with regulariser `tau`; the private
    /// variant's sensitivity uses the data's clipping bound `B` ([`LearningData::bound`]).
    pub fn fit(
        kernel: K,
        problem: &ContextualProblem,
        data: &LearningData,
        tau: f64,
    ) -> Result<Self, UscaError> {
        let b = data.bound();
        if kernel.sup_diag().is_none_or(|s| s > 1.0) {
            return Err(crate::InputError::Unsatisfied {
                what: "kernel sup_x k(x, x) for the posterior-mean sensitivity",
                value: kernel.sup_diag().unwrap_or(f64::INFINITY),
                requirement: "must be <= 1 (the derivation of Delta_naive assumes k <= 1)",
            }
            .into());
        }
        let gp = ExactGp::from_data(kernel, tau, data.points(), data.rewards())?;
        let alpha = gp.alpha()?;
        Ok(Self {
            gp,
            alpha,
            factors: None,
            problem: problem.clone(),
            sensitivity: posterior_mean_sensitivity(data.len(), tau, b)?,
        })
    }

    /// The posterior mean `k_W(w)^T alpha` at every action for context `c` (`|X| T` kernel
    /// values; the posterior variance, which costs `|X| T^2`, is not computed).
    pub fn utilities(&self, c: ArrayView1<'_, f64>) -> Result<Vec<f64>, UscaError> {
        self.problem.contexts().check(c, 0)?;
        let k = match &self.factors {
            Some(f) => f.at(c),
            None => self
                .gp
                .kernel()
                .cross(self.problem.joint_all(c).view(), self.gp.points())?,
        };
        Ok(k.dot(&self.alpha).to_vec())
    }

    /// `Delta_naive`.
    pub fn sensitivity(&self) -> f64 {
        self.sensitivity
    }

    /// `argmax_x mu(x, c)` for `eps = inf`, else the exponential mechanism on `mu(., c)` with
    /// `Delta_naive`: selection probabilities over `X`.
    pub fn probabilities(
        &self,
        c: ArrayView1<'_, f64>,
        epsilon: f64,
    ) -> Result<Vec<f64>, UscaError> {
        predictor_probabilities(&self.utilities(c)?, epsilon, self.sensitivity)
    }
}

impl PosteriorMeanBaseline<Arc<JointKernel>> {
    /// [`PosteriorMeanBaseline::fit`] for a product kernel, with the action factors
    /// `k_X(x_i, x_t)` computed once: a context then costs `T` evaluations of `k_C` instead of
    /// `|X| T` of `k`, and the utilities are the same, bit for bit (each kernel value is the
    /// same product `k_X * k_C`, then the same matrix-vector product).
    pub fn fit_factored(
        kernel: Arc<JointKernel>,
        problem: &ContextualProblem,
        data: &LearningData,
        tau: f64,
    ) -> Result<Self, UscaError> {
        let mut fitted = Self::fit(Arc::clone(&kernel), problem, data, tau)?;
        fitted.factors = Some(ActionFactors::new(
            kernel,
            problem.actions().points(),
            data.points(),
        ));
        Ok(fitted)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn naive_sensitivity_grows_like_sqrt_t() {
        let a = posterior_mean_sensitivity(100, 1.0, 1.0).unwrap();
        let b = posterior_mean_sensitivity(400, 1.0, 1.0).unwrap();
        assert!((a - 10.0).abs() < 1e-12, "{a}"); // min(10, 2 * 6) = 10
        assert!((b - 20.0).abs() < 1e-12, "{b}"); // min(20, 2 * 11) = 20
        let c = posterior_mean_sensitivity(100, 100.0, 1.0).unwrap();
        assert!((c - 0.03).abs() < 1e-12, "{c}"); // min(1, 2 * 1.5 / 100)
        assert!(posterior_mean_sensitivity(0, 1.0, 1.0).is_err());
    }

    #[test]
    fn the_utilities_are_the_posterior_mean() {
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(5);
        let inst = crate::synthetic::SyntheticProblem::default()
            .sample(&mut rng)
            .unwrap();
        let data = crate::learning_stage(&inst.problem, 200, 1.5, &mut rng).unwrap();
        let pm =
            PosteriorMeanBaseline::fit(inst.kernel.clone(), &inst.problem, &data, 0.7).unwrap();
        let gp =
            ExactGp::from_data(inst.kernel.clone(), 0.7, data.points(), data.rewards()).unwrap();
        let factored =
            PosteriorMeanBaseline::fit_factored(inst.kernel.clone(), &inst.problem, &data, 0.7)
                .unwrap();
        assert!(factored.factors.is_some() && pm.factors.is_none());
        for c in [0.0, 0.42, 1.0] {
            let c = ndarray::array![c];
            let (mean, _) = gp.predict(inst.problem.joint_all(c.view()).view()).unwrap();
            let u = pm.utilities(c.view()).unwrap();
            assert_eq!(u.len(), mean.len());
            for (a, b) in u.iter().zip(mean.iter()) {
                assert!((a - b).abs() <= 1e-9 * (1.0 + b.abs()), "{a} vs {b}");
            }
            let bits = |u: &[f64]| u.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&factored.utilities(c.view()).unwrap()), bits(&u));
        }
    }
}
