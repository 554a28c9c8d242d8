//! What the selecting side computes from the released statistics before it picks a point:
//! `V_t = Sigma~_t + lambda I`, `theta~_t = V_t^-1 u~_t` and `beta_t^{1/2}` (Algorithm 1's
//! SERVER after each release; Algorithm 3's CLIENT(t) from the sums the SERVER sends it), and the
//! upper-confidence argmax over `D_t`.

use bandit::policy::{ucb_argmax, validate_decision_set};
use kernel::FeatureMap;
use kernel::linalg::Cholesky;
use ndarray::{Array1, Array2, ArrayView2, Axis};
use rand::Rng;

use crate::error::JdpQffError;
use crate::statistics::ServerStatistics;
use crate::width::{ConfidenceWidth, WidthTerms};

/// `V_t` (factored), `theta~_t` and the terms of `beta_t^{1/2}` for one set of statistics.
///
/// Built in O(m^3): `V_t = Sigma~_t + lambda I` is factored (Cholesky), `theta~_t = V_t^-1 u~_t`,
/// and `beta_t^{1/2}` ([`ConfidenceWidth::terms`]) is computed from `ln det V_t` and the number
/// of rounds the statistics summarise. Each [`Posterior::select`] is O(n m^2) for `n`
/// candidates.
#[derive(Debug, Clone)]
pub struct Posterior {
    factor: Cholesky,
    theta: Array1<f64>,
    terms: WidthTerms,
}

impl Posterior {
    /// The posterior of `statistics` under `width` (Algorithm 1, lines "Set `V_t <- Sigma~_t +
    /// lambda I`, `theta~_t <- V_t^-1 u~_t`; compute `beta_t` based on Theorem 1"; the same lines
    /// of Algorithm 3's CLIENT(t)).
    ///
    /// # Errors
    /// [`JdpQffError`] when `V_t` is not positive definite (a release whose noise was not shifted
    /// enough) or the width is not finite.
    pub fn of(statistics: &ServerStatistics, width: &ConfidenceWidth) -> Result<Self, JdpQffError> {
        let mut v = statistics.sigma.clone();
        v.diag_mut().mapv_inplace(|d| d + width.params().lambda);
        let factor = Cholesky::factor("V_t = Sigma~_t + lambda I", v.view())?;
        let theta = factor.solve(statistics.u.view())?;
        let terms = width.terms(statistics.observations, factor.log_det(), theta.len())?;
        Ok(Self {
            factor,
            theta,
            terms,
        })
    }

    /// `theta~_t`.
    pub fn theta(&self) -> &Array1<f64> {
        &self.theta
    }

    /// `beta_t^{1/2}` (scale included).
    pub fn sqrt_beta(&self) -> f64 {
        self.terms.sqrt_beta()
    }

    /// The terms of `beta_t^{1/2}`.
    pub fn width_terms(&self) -> &WidthTerms {
        &self.terms
    }

    /// `ln det V_t`.
    pub fn log_det_v(&self) -> f64 {
        self.factor.log_det()
    }

    /// Posterior means `<theta~_t, Phi(x)>` and squared widths `||Phi(x)||^2_{V_t^-1} =
    /// ||L^-1 Phi(x)||^2` of the rows of `points`.
    pub fn evaluate<F: FeatureMap>(
        &self,
        features: &F,
        points: ArrayView2<'_, f64>,
    ) -> Result<(Array1<f64>, Array1<f64>), JdpQffError> {
        let phi: Array2<f64> = features.map_batch(points)?;
        let mean = phi.dot(&self.theta);
        let z = self.factor.solve_lower_matrix(phi.t())?;
        let var = z.map_axis(Axis(0), |c| c.dot(&c));
        Ok((mean, var))
    }

    /// `x_t = argmax_{x in D_t} <theta~_t, Phi(x)> + beta_t^{1/2} ||Phi(x)||_{V_t^-1}`, with the
    /// workspace's tie rule ([`bandit::policy::ucb_argmax`]).
    ///
    /// # Errors
    /// [`JdpQffError`] for an empty or non-finite `decision_set`, or one whose width does not
    /// match the feature map.
    pub fn select<F: FeatureMap, R: Rng + ?Sized>(
        &self,
        features: &F,
        decision_set: ArrayView2<'_, f64>,
        rng: &mut R,
    ) -> Result<usize, JdpQffError> {
        validate_decision_set(decision_set)?;
        let (mean, var) = self.evaluate(features, decision_set)?;
        Ok(ucb_argmax(mean.view(), var.view(), self.sqrt_beta(), rng)?)
    }
}
