//! The zCDP budget `rho*` an `(eps, delta)` target allows, recomputed a second time for the
//! checks that do not trust a mechanism's own calibration (issue 31): the conversions are written
//! again from their papers and solved by bisection on the privacy condition, never through
//! `privacy::accountant::zcdp`.
//!
//! - *Classic* (Bun & Steinke 2016, Prop. 1.3): `rho`-zCDP implies `(eps, delta)`-DP with
//!   `eps = rho + 2 sqrt(rho ln(1/delta))`. The crate inverts it in closed form; here the
//!   condition `rho + 2 sqrt(rho ln(1/delta)) <= eps` is bisected.
//! - *CKS* (Canonne, Kamath & Steinke 2020, Prop. 12 / Cor. 13): `rho`-zCDP implies
//!   `(eps, delta)`-DP with
//!   `delta = inf_{a > 1} exp((a - 1)(a rho - eps)) / (a - 1) * (1 - 1/a)^a`. The crate minimises
//!   the equivalent epsilon form over the order; here the *delta* form is minimised (golden
//!   section on `ln(a - 1)`, the log of the bound being convex there in practice, with a coarse
//!   scan first) and `rho` bisected until that delta meets the target.
//!
//! Both are checked against 16-digit values computed with mpmath at 50 digits (`REFERENCE`).

use verification::CheckError;

/// Which conversion from zCDP to `(eps, delta)`-DP.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Conversion {
    /// Bun & Steinke 2016, Prop. 1.3.
    Classic,
    /// Canonne, Kamath & Steinke 2020, Cor. 13.
    Cks,
}

impl Conversion {
    /// The name in the report.
    pub fn name(self) -> &'static str {
        match self {
            Self::Classic => "classic (Bun & Steinke Prop. 1.3)",
            Self::Cks => "CKS (Canonne, Kamath & Steinke Cor. 13)",
        }
    }
}

/// `ln delta` of the CKS bound at order `a = 1 + exp(s)` for `rho`-zCDP at `eps`.
fn cks_ln_delta_at(rho: f64, eps: f64, s: f64) -> f64 {
    let am1 = s.exp();
    let a = 1.0 + am1;
    // (1 - 1/a)^a = exp(a ln(am1 / a)).
    am1 * (a * rho - eps) - s + a * (am1 / a).ln()
}

/// `ln inf_a delta_a(rho, eps)` of the CKS bound: a coarse scan of `ln(a - 1)` over
/// `[-12, 12]` in steps of 0.05, then golden section in the bracket of the best point.
fn cks_ln_delta(rho: f64, eps: f64) -> f64 {
    let (mut best_s, mut best) = (0.0, f64::INFINITY);
    let mut s = -12.0;
    while s <= 12.0 {
        let v = cks_ln_delta_at(rho, eps, s);
        if v < best {
            (best_s, best) = (s, v);
        }
        s += 0.05;
    }
    let (mut lo, mut hi) = (best_s - 0.05, best_s + 0.05);
    let g = 0.5 * (5f64.sqrt() - 1.0);
    for _ in 0..100 {
        let (x1, x2) = (hi - g * (hi - lo), lo + g * (hi - lo));
        if cks_ln_delta_at(rho, eps, x1) < cks_ln_delta_at(rho, eps, x2) {
            hi = x2;
        } else {
            lo = x1;
        }
    }
    best.min(cks_ln_delta_at(rho, eps, 0.5 * (lo + hi)))
}

/// Does `rho`-zCDP give `(eps, delta)`-DP under `conversion`?
fn meets(rho: f64, eps: f64, delta: f64, conversion: Conversion) -> bool {
    match conversion {
        Conversion::Classic => rho + 2.0 * (rho * (1.0 / delta).ln()).sqrt() <= eps,
        Conversion::Cks => cks_ln_delta(rho, eps) <= delta.ln(),
    }
}

/// The largest `rho` that gives `(eps, delta)`-DP under `conversion`, by bisection on the
/// condition to `1e-13` relative (the condition is monotone in `rho`).
pub fn rho_star(eps: f64, delta: f64, conversion: Conversion) -> Result<f64, CheckError> {
    if !(eps > 0.0 && eps.is_finite() && delta > 0.0 && delta < 1.0) {
        return Err(CheckError::msg(format!(
            "rho_star: eps = {eps}, delta = {delta} out of range"
        )));
    }
    let (mut lo, mut hi) = (0.0, eps);
    // rho <= eps always (the classic eps is at least rho; CKS at a -> infinity is too), so
    // [0, eps] brackets the answer; `hi` fails the condition unless delta is huge.
    while meets(hi, eps, delta, conversion) {
        hi *= 2.0;
        if hi > 1e6 {
            return Err(CheckError::msg("rho_star: no bracket"));
        }
    }
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if meets(mid, eps, delta, conversion) {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo <= 1e-13 * hi {
            break;
        }
    }
    Ok(lo)
}

/// Reference values `(eps, delta, conversion, rho*)`, computed with mpmath at 50 digits
/// (`mp.dps = 50`; classic: `(sqrt(ln(1/delta) + eps) - sqrt(ln(1/delta)))^2`; CKS: `findroot`
/// on `rho` of `ln delta(rho) - ln delta` with `ln delta(rho)` minimised over the order by
/// `findroot` on its derivative, `rho` bisected 170 times), rounded to 16 significant digits.
pub const REFERENCE: &[(f64, f64, Conversion, f64)] = &[
    (1.0, 0.1, Conversion::Classic, 0.089_924_696_085_599_75),
    (1.0, 0.1, Conversion::Cks, 0.268_312_914_013_504_9),
    (1.0, 1e-5, Conversion::Classic, 0.020_819_938_339_535_46),
    (1.0, 1e-5, Conversion::Cks, 0.030_556_595_197_639_57),
];

/// The largest relative difference between [`rho_star`] and the mpmath reference values of
/// this module (`REFERENCE`).
pub fn reference_error() -> Result<f64, CheckError> {
    let mut worst: f64 = 0.0;
    for &(eps, delta, c, r) in REFERENCE {
        worst = worst.max((rho_star(eps, delta, c)? - r).abs() / r);
    }
    Ok(worst)
}
