//! The exact L2 sensitivity of the **packed** outer product `u(v v^T)`, `v = [phi; y]`,
//! `||phi||_2 <= P`, `|y| <= B`: the supremum of `||u(v v^T) - u(w w^T)||_2` over the clipped
//! inputs, in closed form, and a pair that attains it.
//!
//! [`outer_product_sensitivity`] bounds the packed
//! distance by the Frobenius distance (`sqrt(2) (P^2 + B^2)` under replacement), which counts
//! each of the `d` entries `y phi_i` of the last column twice although the packed vector
//! releases it once. The exact supremum is smaller: `2.121` against `2.828` at `P = B = 1`,
//! `3.052` against `4.596` at `P = 1`, `B = 1.5` (`docs/privacy.md`, "Symmetric matrix noise").
//!
//! # Derivation (replacement)
//! Write `v = [a; y]`, `w = [b; y']`, `A = a a^T - b b^T`, `c = a.b`. The packed vector of
//! `D = v v^T - w w^T` splits into the packed `A`, the last column `y a - y' b` (each entry once)
//! and the corner `y^2 - y'^2`:
//!
//! `||u(D)||^2 = ||u(A)||^2 + ||y a - y' b||^2 + (y^2 - y'^2)^2`.
//!
//! 1. `||u(A)||^2 = (||A||_F^2 + sum_i A_ii^2) / 2 <= ||A||_F^2 = |a|^4 + |b|^4 - 2 c^2`, with
//!    equality when the coordinate axes are eigenvectors of `A`. A rotation of the `phi` block
//!    changes neither `|a|`, `|b|`, `c` nor `||y a - y' b||`, so (for `d >= 2`) the supremum
//!    over the inputs equals the supremum of
//!    `G = |a|^4 + |b|^4 - 2c^2 + y^2 |a|^2 + y'^2 |b|^2 - 2 y y' c + (y^2 - y'^2)^2`
//!    over `|a|, |b| <= P`, `|c| <= |a||b|`, `|y|, |y'| <= B`.
//! 2. The signs of `y`, `y'`, `c` are free, so take `y, y', c >= 0` with `+2 y y' c`. `G` grows
//!    with `|a|` and `|b|` (and so does the range of `c`): `|a| = |b| = P`. Scale by `P`:
//!    `G = P^4 g(y/P, y'/P, c/P^2)`, `g(s, t, c) = 2 - 2c^2 + s^2 + t^2 + 2 s t c + (s^2 - t^2)^2`,
//!    `c` in `[0, 1]`, `s, t` in `[0, b]`, `b = B / P`.
//! 3. For `s >= t >= 0`, `dg/ds = 2s + 2ct + 4s(s^2 - t^2) >= 0`, so the larger of `s, t` is
//!    `b`: `s = b`, `t` in `[0, b]`. The maximising `c` is `min(b t / 2, 1)`.
//! 4. While `b t <= 2`: `h = 2 + b^2 + t^2 + b^2 t^2 / 2 + (b^2 - t^2)^2`, convex in `t^2`, so
//!    its maximum is at `t = 0` or at the end of the piece, `t = min(b, 2/b)`.
//! 5. While `b t >= 2` (only when `b^2 >= 2`): `c = 1`, `h = (b + t)^2 (1 + (b - t)^2)`, whose
//!    derivative has the sign of `1 - 2t(b - t)`: its only interior maximum is at
//!    `t = 1 / (b + sqrt(b^2 - 2)) < 2/b`, outside the piece, so the maximum is at `t = 2/b` or
//!    `t = b`.
//! 6. Hence `Delta^2 / P^4` is the largest of `2 + b^2 + b^4` (`t = 0`) and, if `b^2 <= 2`,
//!    `2 + 2b^2 + b^4/2` (`t = b`, `c = b^2/2`), else `4 b^2` (`t = b`, `c = 1`) and
//!    `(b + 2/b)^2 (1 + (b - 2/b)^2)` (`t = 2/b`, `c = 1`).
//! 7. The comparisons: `(2 + 2b^2 + b^4/2) - (2 + b^2 + b^4) = b^2 (1 - b^2/2) >= 0` for
//!    `b^2 <= 2`; for `b^2 >= 2`, `(2 + b^2 + b^4) - 4b^2 = (b^2 - 1)(b^2 - 2) >= 0` and
//!    `(2 + b^2 + b^4) - (b + 2/b)^2 (1 + (b - 2/b)^2) = 6 - 4/b^2 - 16/b^4 >= 0`. So
//!
//!    `Delta = P^2 sqrt(2 + 2b^2 + b^4/2)` if `b^2 <= 2`, else `P^2 sqrt(2 + b^2 + b^4)`,
//!
//!    continuous at `b^2 = 2` (both 8), attained by the pair [`packed_worst_pair`] builds, so
//!    the supremum and not only a bound (for `d >= 2`; for `d = 1` it is a bound).
//!
//! # Add/remove
//! `||u(v v^T)||^2 = ||u(a a^T)||^2 + y^2 |a|^2 + y^4 <= |a|^4 + y^2 |a|^2 + y^4`, equality at
//! `a = P e_1`, `y = B`: `Delta = sqrt(P^4 + P^2 B^2 + B^4)` (the Frobenius bound is
//! `P^2 + B^2`).

use ndarray::{Array1, array};
use serde::{Deserialize, Serialize};

use crate::error::PrivacyError;
use crate::mechanisms::matrix::{Neighbouring, outer_product_sensitivity};
use crate::params::Sensitivity;
use validation::positive;

/// Which bound on the L2 sensitivity of the packed outer product a calibration uses. Both are
/// valid for every clipped input; they differ in how much noise they ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SensitivityBound {
    /// The Frobenius-norm bound of
    /// [`outer_product_sensitivity`]: `sqrt(2) (P^2 + B^2)` under replacement. What the
    /// crates used first; looser than necessary by the last column counted twice.
    #[default]
    Frobenius,
    /// The exact supremum of the packed distance, [`packed_outer_product_sensitivity`]
    /// (attained for `d >= 2`).
    PackedExact,
}

impl SensitivityBound {
    /// The sensitivity under this bound.
    pub fn sensitivity(
        self,
        phi_bound: f64,
        y_bound: f64,
        relation: Neighbouring,
    ) -> Result<f64, PrivacyError> {
        match self {
            Self::Frobenius => outer_product_sensitivity(phi_bound, y_bound, relation),
            Self::PackedExact => packed_outer_product_sensitivity(phi_bound, y_bound, relation),
        }
    }

    /// The name used in reports: `frobenius` or `packed-exact`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Frobenius => "frobenius",
            Self::PackedExact => "packed-exact",
        }
    }
}

/// `Delta^2` under replacement for `P > 0` (step 7 of the module's derivation), and whether the
/// tilted pair (`b^2 <= 2`) or the orthogonal one attains it.
fn replace_squared(p: f64, y_bound: f64) -> (f64, bool) {
    let b2 = (y_bound / p).powi(2);
    let p4 = p.powi(4);
    if b2 <= 2.0 {
        (p4 * (2.0 + 2.0 * b2 + 0.5 * b2 * b2), true)
    } else {
        (p4 * (2.0 + b2 + b2 * b2), false)
    }
}

/// The exact L2 sensitivity of the packed upper triangle of `[phi; y][phi; y]^T` under
/// `relation`, for `||phi||_2 <= phi_bound`, `|y| <= y_bound` (derivation in the module
/// docs): the supremum over the clipped inputs (attained for `phi` of length at least 2).
///
/// # Errors
/// A bound negative or not finite, or both zero.
pub fn packed_outer_product_sensitivity(
    phi_bound: f64,
    y_bound: f64,
    relation: Neighbouring,
) -> Result<f64, PrivacyError> {
    let p = Sensitivity::new(phi_bound)?.get();
    let b = Sensitivity::new(y_bound)?.get();
    positive("phi_bound^2 + y_bound^2", p * p + b * b)?;
    Ok(match relation {
        Neighbouring::AddRemove => (p.powi(4) + p * p * b * b + b.powi(4)).sqrt(),
        Neighbouring::Replace if p == 0.0 => b * b,
        Neighbouring::Replace => replace_squared(p, b).0.sqrt(),
    })
}

/// One input `(phi, y)` of the outer-product statistic.
pub type ClippedInput = (Array1<f64>, f64);

/// Two inputs `(phi, y)`, `(phi', y')` with `phi` of length 2, inside the clipping region,
/// whose packed outer products are [`packed_outer_product_sensitivity`] apart under
/// replacement (up to rounding): the worst pair of the derivation's step 6, for audits.
///
/// # Errors
/// `phi_bound` not positive and finite, `y_bound` negative or not finite.
pub fn packed_worst_pair(
    phi_bound: f64,
    y_bound: f64,
) -> Result<(ClippedInput, ClippedInput), PrivacyError> {
    let p = positive("phi_bound", phi_bound)?;
    let b = Sensitivity::new(y_bound)?.get();
    Ok(if replace_squared(p, b).1 {
        // sin 2 th = c = b^2 / 2 <= 1: the axes are eigenvectors of A = a a^T - b b^T.
        let th = 0.5 * ((b / p).powi(2) / 2.0).asin();
        let (s, c) = th.sin_cos();
        ((array![p * c, p * s], b), (array![p * s, p * c], -b))
    } else {
        ((array![p, 0.0], b), (array![0.0, p], 0.0))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mechanisms::matrix::{clipped_outer_product, pack_upper};
    use proptest::prelude::*;

    /// `||u(v v^T) - u(w w^T)||_2` after clipping to `(phi_bound, y_bound)`.
    fn packed_distance(
        (a, y): (&[f64], f64),
        (b, yp): (&[f64], f64),
        phi_bound: f64,
        y_bound: f64,
    ) -> f64 {
        let v = clipped_outer_product(ndarray::ArrayView1::from(a), y, phi_bound, y_bound).unwrap();
        let w =
            clipped_outer_product(ndarray::ArrayView1::from(b), yp, phi_bound, y_bound).unwrap();
        let d = pack_upper((&v - &w).view()).unwrap();
        d.dot(&d).sqrt()
    }

    /// The values quoted in the module docs (checked against a numerical maximisation, 300
    /// Nelder-Mead starts in `d = 1, 2, 3`, which found 2.1213203 and 3.0516389).
    #[test]
    fn quoted_values() {
        let s = |b| packed_outer_product_sensitivity(1.0, b, Neighbouring::Replace).unwrap();
        assert!((s(1.0) - 4.5f64.sqrt()).abs() < 1e-14);
        assert!((s(1.5) - 9.3125f64.sqrt()).abs() < 1e-14);
        let add = packed_outer_product_sensitivity(1.0, 1.0, Neighbouring::AddRemove).unwrap();
        assert!((add - 3f64.sqrt()).abs() < 1e-15);
        // Only rewards, only features.
        let only_y = packed_outer_product_sensitivity(0.0, 2.0, Neighbouring::Replace).unwrap();
        assert!((only_y - 4.0).abs() < 1e-15);
        let only_phi = packed_outer_product_sensitivity(2.0, 0.0, Neighbouring::Replace).unwrap();
        assert!((only_phi - 4.0 * std::f64::consts::SQRT_2).abs() < 1e-14);
    }

    #[test]
    fn rejects_bad_bounds() {
        for (p, b) in [
            (-1.0, 1.0),
            (1.0, f64::NAN),
            (0.0, 0.0),
            (f64::INFINITY, 1.0),
        ] {
            assert!(packed_outer_product_sensitivity(p, b, Neighbouring::Replace).is_err());
        }
        assert!(packed_worst_pair(0.0, 1.0).is_err());
    }

    /// A local search (random starts, Gaussian steps accepted when they move farther apart,
    /// step shrinking on failure) in `d = 2` and `d = 3` never exceeds the sensitivity and
    /// comes within `1e-4` relative of it: the closed form is the maximum, not only a bound.
    #[test]
    fn local_search_reaches_but_never_exceeds() {
        use rand::{RngExt, SeedableRng};
        use rand_distr::StandardNormal;
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(7);
        for &(p, b) in &[(1.0, 1.0), (1.0, 1.5), (0.7, 3.0), (2.0, 0.4)] {
            let s = packed_outer_product_sensitivity(p, b, Neighbouring::Replace).unwrap();
            for d in [2usize, 3] {
                let mut best = 0.0f64;
                for _ in 0..40 {
                    let n = 2 * d + 2;
                    let mut x: Vec<f64> = (0..n)
                        .map(|_| rng.sample::<f64, _>(StandardNormal))
                        .collect();
                    let eval = |x: &[f64]| {
                        packed_distance((&x[..d], x[2 * d]), (&x[d..2 * d], x[2 * d + 1]), p, b)
                    };
                    let mut f = eval(&x);
                    let mut step = 0.5;
                    for _ in 0..3000 {
                        let y: Vec<f64> = x
                            .iter()
                            .map(|v| v + step * rng.sample::<f64, _>(StandardNormal))
                            .collect();
                        let fy = eval(&y);
                        if fy > f {
                            (x, f) = (y, fy);
                        } else {
                            step = (step * 0.995).max(1e-7);
                        }
                    }
                    assert!(
                        f <= s * (1.0 + 1e-12),
                        "found {f} above {s} at p = {p}, b = {b}"
                    );
                    best = best.max(f);
                }
                assert!(
                    best >= s * (1.0 - 1e-4),
                    "best {best} far below {s} at p = {p}, b = {b}, d = {d}"
                );
            }
        }
    }

    proptest! {
        /// The worst pair attains the sensitivity, and is inside the clipping region (so
        /// clipping leaves it unchanged), on every branch of step 6 (`b^2` below and above 2).
        #[test]
        fn worst_pair_attains(p in 0.05f64..5.0, b in 0.0f64..10.0) {
            let s = packed_outer_product_sensitivity(p, b, Neighbouring::Replace).unwrap();
            let ((a, y), (c, yp)) = packed_worst_pair(p, b).unwrap();
            prop_assert!(a.dot(&a).sqrt() <= p * (1.0 + 1e-12) && c.dot(&c).sqrt() <= p * (1.0 + 1e-12));
            prop_assert!(y.abs() <= b && yp.abs() <= b);
            let d = packed_distance((a.as_slice().unwrap(), y), (c.as_slice().unwrap(), yp), p, b);
            prop_assert!((d - s).abs() <= 1e-12 * s.max(1.0), "pair {d} vs sensitivity {s}");
        }

        /// No pair of inputs, in any dimension up to 4 and with unclipped inputs, is farther
        /// apart than the sensitivity, which never exceeds the Frobenius bound.
        #[test]
        fn bounds_every_pair(
            p in 0.05f64..5.0,
            b in 0.0f64..10.0,
            a in prop::collection::vec(-6.0f64..6.0, 1..5),
            c in prop::collection::vec(-6.0f64..6.0, 1..5),
            y in -12.0f64..12.0,
            yp in -12.0f64..12.0,
        ) {
            let n = a.len().min(c.len());
            let s = packed_outer_product_sensitivity(p, b, Neighbouring::Replace).unwrap();
            let d = packed_distance((&a[..n], y), (&c[..n], yp), p, b);
            prop_assert!(d <= s * (1.0 + 1e-12), "pair {d} above sensitivity {s}");
            let f = outer_product_sensitivity(p, b, Neighbouring::Replace).unwrap();
            prop_assert!(s <= f * (1.0 + 1e-15));
            let add = packed_outer_product_sensitivity(p, b, Neighbouring::AddRemove).unwrap();
            let zero = vec![0.0; n];
            let single = packed_distance((&a[..n], y), (&zero, 0.0), p, b);
            prop_assert!(single <= add * (1.0 + 1e-12));
        }
    }
}
