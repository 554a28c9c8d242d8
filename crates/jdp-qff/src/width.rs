//! The confidence width `beta_t^{1/2}` of Theorem 1, in the units of the UCB of Algorithm 1
//! (`<theta~_t, Phi(x)> + beta_t^{1/2} ||Phi(x)||_{V_t^-1}`).
//!
//! # Theorem 1, restated with an explicit regulariser
//! Theorem 1 bounds `|mu_hat(x) - mu~_t(x)| <= beta_t^{1/2} sigma~_t(x)` with
//! `sigma~_t(x) = rho ||Phi(x)||_{V_t^-1}` and (the proof, eqs. 23-32)
//!
//! `beta_t^{1/2} sigma~_t(x) = ( B sqrt(lambda_max + lambda) + rho sqrt(2 ln(2/zeta) + ln det V_t
//! - m ln(lambda + lambda_min)) + t B eps / sqrt(lambda + lambda_min) + kappa ) ||Phi(x)||_{V_t^-1}`.
//!
//! The paper writes `rho^2` where the proof has the regulariser `lambda` (term A:
//! `||theta_hat||_{H_t + lambda I} <= B sqrt(lambda_max + lambda)`), so its statement is this one
//! at `lambda = rho^2`; and it divides the approximation term by `sqrt(lambda_min)` where
//! `V_t >= Sigma_t + (lambda + lambda_min) I` gives `sqrt(lambda + lambda_min)` (smaller, and
//! defined without noise). The log-determinant uses only what the server holds:
//! `det(Sigma_t + (lambda + lambda_min) I) <= det V_t` because `H_t >= lambda_min I`.
//! See `docs/jdp-qff.md`, "Deviations and errata".

use serde::{Deserialize, Serialize};
use validation::{Valid, Validate, non_negative, open_unit, positive};

use crate::error::JdpQffError;
use crate::spectrum::Spectrum;

/// The constants of Theorem 1 other than the noise spectrum.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct WidthParams {
    /// `B`: a bound on `||theta_hat||_2` (Lemma 10: the RKHS norm bound of `f`).
    pub b: f64,
    /// `rho`: the sub-Gaussian parameter of the reward noise (Bernoulli rewards: 1/2).
    pub rho: f64,
    /// `lambda > 0`: the regulariser of `V_t = Sigma~_t + lambda I`.
    pub lambda: f64,
    /// `zeta` in `(0, 1)`: the theorem holds with probability `1 - zeta`.
    pub zeta: f64,
    /// `eps >= 0`: the uniform approximation error of the features (Definition 2).
    pub epsilon: f64,
    /// A multiplier on `beta_t^{1/2}`: 1 is the theorem; anything else is a tuned variant.
    pub scale: f64,
}

impl Default for WidthParams {
    /// The paper's Section 6.1 setting: `B = 1` (weights in the unit L1 ball), `rho = 1/2`
    /// (Bernoulli rewards are 1/2-sub-Gaussian), `lambda = rho^2` (the paper's Theorem 1),
    /// `zeta = 0.1`, `eps = 0`, scale 1.
    fn default() -> Self {
        Self {
            b: 1.0,
            rho: 0.5,
            lambda: 0.25,
            zeta: 0.1,
            epsilon: 0.0,
            scale: 1.0,
        }
    }
}

impl Validate for WidthParams {
    type Error = JdpQffError;

    /// Check every field.
    fn check(&self) -> Result<(), JdpQffError> {
        non_negative("B (norm bound)", self.b)?;
        non_negative("rho (reward noise)", self.rho)?;
        positive("lambda (regulariser)", self.lambda)?;
        open_unit("zeta (confidence)", self.zeta)?;
        non_negative("eps (approximation error)", self.epsilon)?;
        positive("width scale", self.scale)?;
        Ok(())
    }
}

impl WidthParams {
    /// Check every field.
    ///
    /// Returns the checked value ([`Valid`]), what the constructors work from.
    pub fn validate(&self) -> Result<Valid<Self>, JdpQffError> {
        Valid::new(*self)
    }
}

/// `beta_t^{1/2}` of Theorem 1 for a noise spectrum.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ConfidenceWidth {
    params: Valid<WidthParams>,
    spectrum: Spectrum,
}

impl ConfidenceWidth {
    /// The width for these constants and this spectrum.
    pub fn new(params: WidthParams, spectrum: Spectrum) -> Result<Self, JdpQffError> {
        let params = params.validate()?;
        Ok(Self { params, spectrum })
    }

    /// The constants.
    pub fn params(&self) -> &WidthParams {
        &self.params
    }

    /// The spectrum.
    pub fn spectrum(&self) -> &Spectrum {
        &self.spectrum
    }

    /// `beta_t^{1/2}` after `t` observations, given `ln det V_t` of the `m x m` matrix `V_t`
    /// (module docs), times [`WidthParams::scale`].
    pub fn sqrt_beta(&self, t: usize, log_det_v: f64, m: usize) -> Result<f64, JdpQffError> {
        Ok(self.terms(t, log_det_v, m)?.sqrt_beta())
    }

    /// The four terms of `beta_t^{1/2}` (module docs) after `t` observations, given
    /// `ln det V_t` of the `m x m` matrix `V_t`.
    ///
    /// # Errors
    /// [`JdpQffError`] when their sum is not finite.
    pub fn terms(&self, t: usize, log_det_v: f64, m: usize) -> Result<WidthTerms, JdpQffError> {
        let p = &self.params;
        let s = &self.spectrum;
        let floor = p.lambda + s.lambda_min;
        // ln det V_t - m ln(lambda + lambda_min) >= 0 whenever H_t >= lambda_min I; rounding
        // can make it slightly negative: clamped at 0 (the width of no information).
        let info = (log_det_v - m as f64 * floor.ln()).max(0.0);
        let terms = WidthTerms {
            norm: p.b * (s.lambda_max + p.lambda).sqrt(),
            information: p.rho * (2.0 * (2.0 / p.zeta).ln() + info).sqrt(),
            approximation: t as f64 * p.b * p.epsilon / floor.sqrt(),
            kappa: s.kappa(),
            scale: p.scale,
        };
        validation::finite("beta_t^{1/2}", terms.unscaled())?;
        Ok(terms)
    }
}

/// The terms of Theorem 1's `beta_t^{1/2}` (module docs), in the order they are summed.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct WidthTerms {
    /// `B sqrt(lambda_max + lambda)`: the norm of the parameter under the regulariser and the
    /// noise's largest eigenvalue.
    pub norm: f64,
    /// `rho sqrt(2 ln(2/zeta) + ln det V_t - m ln(lambda + lambda_min))`: the self-normalised
    /// reward-noise term.
    pub information: f64,
    /// `t B eps / sqrt(lambda + lambda_min)`: the features' approximation error.
    pub approximation: f64,
    /// `kappa`: the noise on `u~_t` ([`Spectrum::kappa`]).
    pub kappa: f64,
    /// [`WidthParams::scale`].
    pub scale: f64,
}

impl WidthTerms {
    /// The sum of the four terms (Theorem 1's `beta_t^{1/2}`).
    pub fn unscaled(&self) -> f64 {
        self.norm + self.information + self.approximation + self.kappa
    }

    /// `scale` times the sum: the width the UCB uses.
    pub fn sqrt_beta(&self) -> f64 {
        self.scale * self.unscaled()
    }
}
