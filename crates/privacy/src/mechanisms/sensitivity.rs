//! The L2 sensitivity of the outer-product statistic `v v^T`, `v = [phi; y]`,
//! `||phi||_2 <= P`, `|y| <= B`, measured on its packed upper triangle `u(v v^T)`: the
//! Frobenius-norm bound [`outer_product_sensitivity`] and the exact supremum
//! [`packed_outer_product_sensitivity`] of `||u(v v^T) - u(w w^T)||_2` over the clipped inputs,
//! in closed form, with a pair that attains it ([`packed_worst_pair`]).
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
//!    equality when `A` is diagonal. `A` has rank at most 2 with its eigenvectors in
//!    `span(a, b)`; for `d >= 2` an orthogonal map of the `phi` block takes them to `e_1, e_2`
//!    (so makes `A` diagonal) and changes neither `|a|`, `|b|`, `c` nor `||y a - y' b||`;
//!    so (for `d >= 2`) the supremum
//!    over the inputs equals the supremum of
//!    `G = |a|^4 + |b|^4 - 2c^2 + y^2 |a|^2 + y'^2 |b|^2 - 2 y y' c + (y^2 - y'^2)^2`
//!    over `|a|, |b| <= P`, `|c| <= |a||b|`, `|y|, |y'| <= B`.
//! 2. The signs of `y`, `y'`, `c` are free, so take `y, y', c >= 0` with `+2 y y' c`. `G` grows
//!    with `|a|` and `|b|` (and so does the range of `c`): `|a| = |b| = P`. Scale by `P`:
//!    `G = P^4 g(y/P, y'/P, c/P^2)`, `g(s, t, c) = 2 - 2c^2 + s^2 + t^2 + 2 s t c + (s^2 - t^2)^2`,
//!    `c` in `[0, 1]`, `s, t` in `[0, r]`, `r = B / P`.
//! 3. For `s >= t >= 0`, `dg/ds = 2s + 2ct + 4s(s^2 - t^2) >= 0`, so the larger of `s, t` is
//!    `r`: `s = r`, `t` in `[0, r]`. The maximising `c` is `min(r t / 2, 1)`.
//! 4. While `r t <= 2`: `h = 2 + r^2 + t^2 + r^2 t^2 / 2 + (r^2 - t^2)^2`, convex in `t^2`, so
//!    its maximum is at `t = 0` or at the end of the piece, `t = min(r, 2/r)`.
//! 5. While `r t >= 2` (only when `r^2 >= 2`): `c = 1`, `h = (r + t)^2 (1 + (r - t)^2)`, whose
//!    derivative has the sign of `1 - 2t(r - t)`: its only interior maximum is at
//!    `t = 1 / (r + sqrt(r^2 - 2)) < 2/r`, outside the piece, so the maximum is at `t = 2/r` or
//!    `t = r`.
//! 6. Hence `Delta^2 / P^4` is the largest of `2 + r^2 + r^4` (`t = 0`) and, if `r^2 <= 2`,
//!    `2 + 2r^2 + r^4/2` (`t = r`, `c = r^2/2`), else `4 r^2` (`t = r`, `c = 1`) and
//!    `(r + 2/r)^2 (1 + (r - 2/r)^2)` (`t = 2/r`, `c = 1`).
//! 7. The comparisons: `(2 + 2r^2 + r^4/2) - (2 + r^2 + r^4) = r^2 (1 - r^2/2) >= 0` for
//!    `r^2 <= 2`; for `r^2 >= 2`, `(2 + r^2 + r^4) - 4r^2 = (r^2 - 1)(r^2 - 2) >= 0` and
//!    `(2 + r^2 + r^4) - (r + 2/r)^2 (1 + (r - 2/r)^2) = 6 - 4/r^2 - 16/r^4 >= 0`. So
//!
//!    `Delta = P^2 sqrt(2 + 2r^2 + r^4/2)` if `r^2 <= 2`, else `P^2 sqrt(2 + r^2 + r^4)`,
//!
//!    continuous at `r^2 = 2` (both 8), attained by the pair [`packed_worst_pair`] builds, so
//!    the supremum and not only a bound (for `d >= 2`; for `d = 1` it is a bound, not attained:
//!    there `c^2 = |a|^2 |b|^2` is forced).
//!
//! # Add/remove
//! `||u(v v^T)||^2 = ||u(a a^T)||^2 + y^2 |a|^2 + y^4 <= |a|^4 + y^2 |a|^2 + y^4`, equality at
//! `a = P e_1`, `y = B`: `Delta = sqrt(P^4 + P^2 B^2 + B^4)` (the Frobenius bound is
//! `P^2 + B^2`).

use ndarray::{Array1, array};
use serde::{Deserialize, Serialize};

use crate::claim::NeighbouringRelation;
use crate::error::PrivacyError;
use crate::params::Sensitivity;
use validation::positive;

/// Neighbouring relation for a sensitivity: the data-level relations of
/// [`NeighbouringRelation`], the ones a sensitivity can be derived for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Neighbouring {
    /// One datum added or removed.
    AddRemove,
    /// One datum replaced by another.
    Replace,
}

impl From<Neighbouring> for NeighbouringRelation {
    fn from(n: Neighbouring) -> Self {
        match n {
            Neighbouring::AddRemove => Self::AddRemove,
            Neighbouring::Replace => Self::ReplaceOne,
        }
    }
}

/// The L2 sensitivity, measured on the packed upper triangle (equivalently a bound on the
/// Frobenius norm), of the statistic `v v^T` with `v = [phi; y]`, `||phi||_2 <= phi_bound`,
/// `|y| <= y_bound`.
///
/// # Derivation
/// Let `c = phi_bound^2 + y_bound^2 >= ||v||^2`. Add/remove: `||v v^T||_F = ||v||^2 <= c`.
/// Replace: `||v v^T - w w^T||_F^2 = ||v||^4 + ||w||^4 - 2 (v.w)^2 <= 2 c^2`, so `sqrt(2) c`.
/// The packed upper triangle `u(D)` of a symmetric `D` has `||u(D)||^2 = (||D||_F^2 + sum_i
/// D_ii^2) / 2 <= ||D||_F^2`, so the same numbers bound the sensitivity of the packed vector.
pub fn outer_product_sensitivity(
    phi_bound: f64,
    y_bound: f64,
    relation: Neighbouring,
) -> Result<f64, PrivacyError> {
    let p = Sensitivity::new(phi_bound)?.get();
    let y = Sensitivity::new(y_bound)?.get();
    let c = p * p + y * y;
    positive("phi_bound^2 + y_bound^2", c)?;
    Ok(match relation {
        Neighbouring::AddRemove => c,
        Neighbouring::Replace => std::f64::consts::SQRT_2 * c,
    })
}

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
