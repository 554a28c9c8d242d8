//! The regulariser `rho` of `K_ZZ + rho I` in eqs. (4)-(5): the paper's `K tau` for an
//! approximating set of any size.
//!
//! Lemma 4.4 / 6.1 define `Z~ = (1/K) sum_{i=1}^{TK} phi(z_i) phi(z_i)^T + tau I` on `T K`
//! points, and eqs. (4)-(5) (by Woodbury) invert `K_ZZ + K tau I`. For `m = |Z|` points there
//! are two readings:
//!
//! - [`Regulariser::Scaled`] (the default): `Z~ = (T/m) Phi_Z Phi_Z^T + tau I`, i.e.
//!   `rho = (m / T) tau`. Its mean is `T Lambda + tau I` for every `m`, the operator Lemma 4.4
//!   approximates, so `mu_T` keeps the scale of the posterior mean (Lemma 6.2).
//! - [`Regulariser::AsPrinted`]: `rho = K tau` whatever `m`, i.e. `Z~ = (1/K) Phi_Z Phi_Z^T +
//!   tau I`, with mean `(m / K) Lambda + tau I`: for `m < T K` the data get `T K / m` times too
//!   much weight against `Z`, so `mu_T` is not calibrated (Lemma 6.2 does not apply).
//!
//! Both are equal when `m = T K`. Both give `Z~ >= tau I`, so every sensitivity rule of
//! [the `sensitivity` module](mod@crate::sensitivity) is valid for both (the Cauchy-Schwarz step and the Lipschitz
//! constant `tau^{-1/2}` use only `Z~ >= tau I`).
//!
//! # The printed form is the scaled form at a larger `tau`
//!
//! `rho` is all the estimator sees of the reading besides `tau`: the printed form at `tau`
//! has `rho = K tau`, which is the scaled form's `rho` at `tau' = tau T K / m`. With the same
//! Cholesky factor, eqs. (4)-(5) give
//!
//! ```text
//! mu_printed(w; tau)      = (tau' / tau) mu_scaled(w; tau'),
//! sigma^2_printed(w; tau) = (tau' / tau) sigma^2_scaled(w; tau'),
//! ```
//!
//! and every sensitivity rule scales the same way (the proven `sup_diag / tau`, the certified
//! `(max_grid sigma + tau^{-1/2} d_max)^2` and the query-context `S sigma_c` are all
//! proportional to `1 / tau` at a fixed `rho`). The exponential mechanism sees only
//! `mu / Delta`, so the printed USCA at `tau` selects with exactly the probabilities of the
//! scaled USCA at `tau' = tau T K / m` (a test checks it). The printed reading is therefore
//! not a different estimator for the prediction: it is a different, `T`-dependent choice of
//! `tau` (`tau T K / m`, about `tau T^2 / (gamma_T m)` for a capped `|Z|`), which matters for
//! the proven sensitivity, whose `Delta = 2 B sup_diag / tau` falls as `tau` grows.

use serde::{Deserialize, Serialize};

use crate::error::UscaError;

/// How `rho` in `K_ZZ + rho I` is set for `|Z| = m`, `T` rounds and the paper's `K` (module
/// docs).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Regulariser {
    /// `rho = (m / T) tau`: `Z~ = (T/m) Phi_Z Phi_Z^T + tau I`, mean `T Lambda + tau I` for
    /// every `m` (the default; the paper's `K tau` when `m = T K`).
    #[default]
    Scaled,
    /// `rho = K tau` as printed in eqs. (4)-(5), whatever `m`: `Z~ = (1/K) Phi_Z Phi_Z^T +
    /// tau I`. Equal to [`Regulariser::Scaled`] at `tau' = tau T K / m` (module docs).
    AsPrinted,
}

impl Regulariser {
    /// `rho` for `|Z| = m >= 1`, `T >= 1`, the paper's `K >= 1` and `tau > 0`.
    pub fn rho(self, m: usize, t: usize, k: usize, tau: f64) -> Result<f64, UscaError> {
        let tau = validation::positive("tau", tau)?;
        validation::at_least_one("|Z|", m)?;
        validation::at_least_one("T (learning rounds)", t)?;
        validation::at_least_one("K", k)?;
        Ok(match self {
            Self::Scaled => m as f64 / t as f64 * tau,
            Self::AsPrinted => k as f64 * tau,
        })
    }

    /// The `tau'` at which [`Regulariser::Scaled`] has this reading's `rho` (`tau` itself for
    /// `Scaled`; `tau T K / m` for `AsPrinted`).
    pub fn equivalent_scaled_tau(
        self,
        m: usize,
        t: usize,
        k: usize,
        tau: f64,
    ) -> Result<f64, UscaError> {
        Ok(self.rho(m, t, k, tau)? * t as f64 / m as f64)
    }

    /// A short label.
    pub fn label(self) -> &'static str {
        match self {
            Self::Scaled => "rho = (|Z|/T) tau",
            Self::AsPrinted => "rho = K tau (as printed)",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_readings_agree_at_the_papers_size_and_the_printed_one_is_a_larger_tau() {
        let (t, k, tau) = (100, 7, 0.5);
        let s = Regulariser::Scaled.rho(t * k, t, k, tau).unwrap();
        let p = Regulariser::AsPrinted.rho(t * k, t, k, tau).unwrap();
        assert!((s - p).abs() <= 1e-12 * p, "{s} vs {p}");
        let m = 64;
        assert!((Regulariser::Scaled.rho(m, t, k, tau).unwrap() - 0.32).abs() < 1e-15);
        assert!((Regulariser::AsPrinted.rho(m, t, k, tau).unwrap() - 3.5).abs() < 1e-15);
        let tau2 = Regulariser::AsPrinted
            .equivalent_scaled_tau(m, t, k, tau)
            .unwrap();
        assert!((tau2 - tau * (t * k) as f64 / m as f64).abs() < 1e-12);
        assert!(
            (Regulariser::Scaled.rho(m, t, k, tau2).unwrap() - 3.5).abs() < 1e-12,
            "the scaled reading at tau' has the printed rho"
        );
        assert!(
            (Regulariser::Scaled
                .equivalent_scaled_tau(m, t, k, tau)
                .unwrap()
                - tau)
                .abs()
                < 1e-15
        );
        for r in [Regulariser::Scaled, Regulariser::AsPrinted] {
            assert!(r.rho(0, t, k, tau).is_err());
            assert!(r.rho(m, 0, k, tau).is_err());
            assert!(r.rho(m, t, 0, tau).is_err());
            assert!(r.rho(m, t, k, 0.0).is_err());
            assert!(r.rho(m, t, k, f64::NAN).is_err());
        }
    }
}
