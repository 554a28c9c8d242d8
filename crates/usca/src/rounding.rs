//! A floating-point rounding margin for `sigma^2`, so that a certified or query-context bound
//! built from computed values of `sigma^2` bounds the exact ones.
//!
//! # What is computed, and what can go wrong
//!
//! `sigma^2(w) = (k(w, w) - b^T A^{-1} b) / tau` with `A = K_ZZ + rho I` and `b = k_Z(w)`
//! (eq. 5). The code factors `A = L L^T` (Cholesky), solves `L a = b`, and returns
//! `max(0, (k(w, w) - a^T a) / tau)` ([`crate::SurrogateVariance::sigma2`]). Each step rounds,
//! and the computed value can be *below* the exact one: a bound on `sup sigma^2` built from it
//! (the certificate's grid maximum, the query-context `sigma_c`) would then not be a bound.
//!
//! # The margin (standard backward-error bounds; Higham, *Accuracy and Stability of Numerical
//! # Algorithms*, 2nd ed., Thms. 8.5 and 10.3, and Sec. 3.1 for dot products)
//!
//! Write `u = 2^-53`, `gamma_n = n u / (1 - n u)`, `m = |Z|`, `s_d = sup_w k(w, w)`.
//!
//! 0. `A` is formed in floating point: the computed `K_ZZ` may be indefinite by about
//!    `m u s_d` and `k_ii + rho` rounds, so `A >= rho_0 I` with `rho_0 = rho - 2 m u (s_d + rho)`;
//!    `rho_0` replaces `rho` below.
//! 1. The computed factor satisfies `L L^T = A + E_1` with `|E_1| <= gamma_{m+1} |L| |L|^T`
//!    entrywise, so `|E_1|_2 <= gamma_{m+1} |L|_F^2`; on the diagonal
//!    `abs((E_1)_ii) <= gamma_{m+1} sum_j l_ij^2`, so `abs(tr E_1) <= gamma_{m+1} |L|_F^2`, and
//!    `|L|_F^2 = tr(A + E_1)` gives `|L|_F^2 <= tr A / (1 - gamma_{m+1})`,
//!    `tr A <= m (s_d + rho)`.
//! 2. The computed solution satisfies `(L + F) a = b` with `|F| <= gamma_m |L|`, so
//!    `a^T a = b^T (A + E)^{-1} b` with `E = E_1 + F L^T + L F^T + F F^T` and
//!    `|E|_2 <= e := (gamma_{m+1} + 2 gamma_m + gamma_m^2) tr A / (1 - gamma_{m+1})`.
//! 3. `A >= rho I`, so for `e < rho`:
//!    `|b^T (A + E)^{-1} b - b^T A^{-1} b| = |b^T A^{-1} E (A + E)^{-1} b|
//!    <= |b|^2 e / (rho (rho - e))`, with `|b|^2 <= m s_d^2` (`abs(k(z, w)) <= s_d`).
//! 4. The sum of squares `a^T a` is computed with relative error at most `gamma_m`, and
//!    `a^T a <= |b|^2 / (rho - e)`: an absolute error of at most
//!    `gamma_m / (1 - gamma_m) m s_d^2 / (rho - e)`.
//! 5. The subtraction and the division by `tau` each round once (relative `u`); the clamp at 0
//!    only raises the value.
//!
//! Hence, for the exact `sigma^2` and the computed `s^2`:
//!
//! ```text
//! sigma^2 <= s^2 / (1 - u)^2 + M,
//! M = [ m s_d^2 e / (rho (rho - e)) + gamma_m / (1 - gamma_m) m s_d^2 / (rho - e) ] / tau,
//! ```
//!
//! applied with a factor 2 on `e` and the result rounded upwards ([`RoundingMargin::upper`]).
//! The factor 2: faer's Cholesky (block left-looking) and triangular solve (recursive) use
//! conventional matrix products (with fused multiply-adds) and multiply by `fl(1 / l_ii)`
//! instead of dividing, so each entry is an inner product summed in some order plus a few
//! extra roundings; Higham's Lemma 8.4 and Thm. 8.5 hold for any order of summation, and the
//! partitioned factorisations with conventional products keep the componentwise bounds
//! (Sec. 13.2), with `gamma_{m + c}` for a small `c` (about 5), below `2 gamma_m`. The optional
//! LAPACK `potrf` backend is covered the same way. (An independent check of this derivation
//! found no wrong step; its remarks on `rho_0`, the trace step and the upward roundings are
//! in the text.) When `2 e >= rho / 2` the margin
//! is not computed ([`RoundingMargin::new`] gives `None`) and the rules fall back to the proven
//! cap `sup_diag / tau`, which involves no linear algebra.
//!
//! What it does not cover: the kernel values themselves (`K_ZZ` and `k_Z(w)` are taken as the
//! kernel, evaluated in floating point, that the whole mechanism uses), and the rounding of
//! `mu_T` in the utilities. For `|Z| = 1024`, `T = 8192`, `tau = 1` (`rho = 0.125`) the margin
//! is about `5e-5`, against `sup sigma^2` of order `0.1`.

use kernel::Kernel;

use crate::estimator::SurrogateVariance;

/// The unit roundoff of `f64`.
const U: f64 = f64::EPSILON / 2.0;

/// `gamma_n = n u / (1 - n u)`.
fn gamma(n: usize) -> f64 {
    let nu = n as f64 * U;
    nu / (1.0 - nu)
}

/// The margin `M` of the module docs for one [`SurrogateVariance`], and the upward correction of a
/// computed `sigma^2`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RoundingMargin {
    /// `M`, in units of `sigma^2`.
    pub absolute: f64,
}

impl RoundingMargin {
    /// The margin for `variance`, or `None` when the kernel has no finite `sup_diag` or the
    /// rounding bound is not small against `rho` (`2 e >= rho / 2`; use the proven cap).
    pub fn new(variance: &SurrogateVariance) -> Option<Self> {
        let sd = variance.kernel().sup_diag().filter(|s| s.is_finite())?;
        let m = variance.approximating_set().nrows();
        let (rho, tau) = (variance.rho(), variance.tau());
        let trace = m as f64 * (sd + rho);
        // Step 0: the smallest eigenvalue of the A the code forms.
        let rho = rho - 2.0 * m as f64 * U * (sd + rho);
        let e = 2.0 * (gamma(m + 1) + 2.0 * gamma(m) + gamma(m) * gamma(m)) * trace
            / (1.0 - gamma(m + 1));
        if !(rho > 0.0 && e.is_finite() && e < rho / 2.0) {
            return None;
        }
        let b2 = m as f64 * sd * sd;
        let solve = b2 * e / (rho * (rho - e));
        let dot = gamma(m) / (1.0 - gamma(m)) * b2 / (rho - e);
        // Rounded upwards: each of the few operations above is within a relative u of exact.
        let absolute = (solve + dot) / tau * (1.0 + 16.0 * U);
        absolute.is_finite().then_some(Self { absolute })
    }

    /// An upper bound on the exact `sigma^2` from the computed `s2` (module docs).
    pub fn upper(&self, s2: f64) -> f64 {
        (s2.max(0.0) * (1.0 + 8.0 * U) + self.absolute) * (1.0 + 2.0 * U)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use kernel::SquaredExponential;
    use ndarray::Array2;

    use super::*;

    fn variance(m: usize, t: usize, tau: f64) -> SurrogateVariance {
        let z = Array2::from_shape_fn((m, 2), |(i, j)| {
            ((i * 7919 + j * 104_729) % 1000) as f64 / 1000.0
        });
        SurrogateVariance::new(
            Arc::new(SquaredExponential::isotropic(0.3).unwrap()),
            z,
            t,
            tau,
        )
        .unwrap()
    }

    /// Higham's `gamma_n = n u / (1 - n u)` lies strictly above `n u` and within `(n u)^2`
    /// (times a little) of it; `u = 2^-53`.
    #[test]
    fn gamma_is_highams() {
        assert_eq!(U.to_bits(), 2f64.powi(-53).to_bits());
        for n in [1usize, 16, 1_000_000] {
            let nu = n as f64 * U;
            let g = gamma(n);
            assert!(g > nu && g <= nu + 1.01 * nu * nu, "n = {n}: {g} vs {nu}");
        }
    }

    #[test]
    fn the_margin_is_small_grows_as_rho_shrinks_and_is_refused_when_rho_is_tiny() {
        let a = RoundingMargin::new(&variance(1024, 8192, 1.0)).unwrap();
        assert!(a.absolute > 0.0 && a.absolute < 1e-4, "{}", a.absolute);
        let b = RoundingMargin::new(&variance(1024, 1024, 1.0)).unwrap();
        assert!(b.absolute < a.absolute, "larger rho, smaller margin");
        assert!(a.upper(0.1) > 0.1 + a.absolute);
        assert!(a.upper(-1.0) >= a.absolute);
        // rho = 1024 / 1e12: the bound cannot be made small, so no margin (the proven cap).
        assert!(RoundingMargin::new(&variance(1024, 1_000_000_000_000, 1.0)).is_none());
    }
}
