//! A data-independent choice of `tau` for the proven sensitivity, from the error bound.
//!
//! # What the error bound suggests
//!
//! For the exponential mechanism with sensitivity `Delta` over the finite `X` (Dwork & Roth
//! 2014, Thm. 3.11), `E[max_x mu(x) - mu(x_hat)] <= (2 Delta / eps)(ln |X| + 1)`, and the gap in
//! `f` adds twice the estimation error: `ER <= (2 Delta / eps)(ln |X| + 1) + 2 sup |mu_T - f|`.
//! With the proven `Delta = 2 B / tau` (a unit-diagonal kernel) the first term is
//! `4 B (ln |X| + 1) / (eps tau)`, falling as `tau` grows. The second grows with `tau`: for
//! `f` in the RKHS with `|f|_H <= B` (the paper's assumption; the letter `B` is shared, erratum
//! 6), the regularisation bias of the posterior mean with regulariser `tau` is at most
//! `|f|_H sigma_T(w)` with `sigma_T^2(w) = k(w, w) - k_T(w)^T (K_T + tau I)^{-1} k_T(w)`, and
//! under the uniform design `sigma_T^2 ~ tau gamma_T / T` (the design's information gain counts
//! the directions with `T lambda_j > tau`, each left with variance about `tau / T`); the noise
//! part of the estimation error is of order `R gamma_T / sqrt(T)`, free of `tau`. So, to the
//! order of these bounds,
//!
//! ```text
//! ER(tau) <~ 4 B (ln |X| + 1) / (eps tau) + 2 B sqrt(tau gamma_T / T) + (terms free of tau),
//! ```
//!
//! minimised at
//!
//! ```text
//! tau* = (4 (ln |X| + 1) / eps)^(2/3) (T / gamma_T)^(1/3),
//! ```
//!
//! where `B` cancels. Both terms are then of order `(gamma_T / T)^(1/3)`: with the proven
//! sensitivity and this `tau`, the error rate falls with `T`, more slowly than Theorem 4.1's
//! `sqrt(gamma_T / T) + gamma_T / (T eps)` (which needs a sensitivity that falls with `T`).
//! The rule depends on `T`, `eps`, `|X|` and `gamma_T` only: `gamma_T` is USCA's own estimate
//! from a design sample drawn with its coins ([`crate::DesignSpectrum`]), so the rule is
//! data-independent and privacy is untouched (the proven bound holds for every `tau`). It is
//! not `tau` proportional to `T / gamma_T`: the bound's minimiser grows like the cube root.
//! The constants are those of the bounds, not tuned; the reproduction's tau sweep
//! (`tau-sweep-se-1d`) measures where the error rate is smallest.

use crate::error::UscaError;

/// `tau* = (4 (ln |X| + 1) / eps)^(2/3) (T / gamma_T)^(1/3)` (module docs) for `T >= 1`
/// rounds, `gamma_T > 0`, `eps > 0` (finite) and `|X| >= 1` actions.
pub fn suggested_tau(
    t: usize,
    gamma_t: f64,
    epsilon: f64,
    actions: usize,
) -> Result<f64, UscaError> {
    validation::at_least_one("T (learning rounds)", t)?;
    let gamma_t = validation::positive("gamma_T", gamma_t)?;
    let epsilon = validation::positive("eps", epsilon)?;
    if !epsilon.is_finite() {
        return Err(crate::InputError::Unsatisfied {
            what: "eps of the tau rule",
            value: epsilon,
            requirement: "must be finite (the non-private predictor has no privacy term)",
        }
        .into());
    }
    validation::at_least_one("number of actions |X|", actions)?;
    let privacy = 4.0 * ((actions as f64).ln() + 1.0) / epsilon;
    Ok(privacy.powf(2.0 / 3.0) * (t as f64 / gamma_t).cbrt())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rule_is_the_minimiser_of_the_bound_and_refuses_bad_input() {
        // The bound's two tau-dependent terms with B = 1: the rule's tau is their minimiser.
        let (t, gamma, eps, n) = (4096, 15.0, 1.0, 50);
        let bound = |tau: f64| {
            4.0 * ((n as f64).ln() + 1.0) / (eps * tau) + 2.0 * (tau * gamma / t as f64).sqrt()
        };
        let tau = suggested_tau(t, gamma, eps, n).unwrap();
        for f in [0.5, 0.9, 0.99, 1.01, 1.1, 2.0] {
            assert!(bound(tau) < bound(tau * f), "factor {f}");
        }
        // The cube root in T / gamma_T, the -2/3 power in eps.
        let r = suggested_tau(8 * t, gamma, eps, n).unwrap() / tau;
        assert!((r - 2.0).abs() < 1e-12, "{r}");
        let r = suggested_tau(t, gamma, 8.0 * eps, n).unwrap() / tau;
        assert!((r - 0.25).abs() < 1e-12, "{r}");
        assert!(suggested_tau(0, gamma, eps, n).is_err());
        assert!(suggested_tau(t, 0.0, eps, n).is_err());
        assert!(suggested_tau(t, gamma, f64::NAN, n).is_err());
        assert!(suggested_tau(t, gamma, f64::INFINITY, n).is_err());
        assert!(suggested_tau(t, gamma, -1.0, n).is_err());
        assert!(suggested_tau(t, gamma, eps, 0).is_err());
    }
}
