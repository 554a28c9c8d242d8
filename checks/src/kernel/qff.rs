//! Quadrature Fourier features: the 1-d grid, Theorem 2 of Mutny & Krause in 2-d, and a
//! half-grid positive control.

use super::{feature_gram_error, rng, uniform_points};
use kernel::features::gauss_hermite;
use kernel::linalg::max_abs_diff;
use kernel::{FeatureMap, Kernel, Lengthscales, QuadratureFourierFeatures, SquaredExponential};
use ndarray::{Array2, ArrayView2};
use serde_json::json;
use verification::CheckKind;
use verification::{CheckError, CheckResult, Context, Outcome, verdict};

pub(super) fn qff_1d_grid(_ctx: &Context) -> CheckResult {
    let (l, n, mbar, tol) = (0.2, 100, 32, 1e-10);
    let k = SquaredExponential::isotropic(l)?;
    let x = Array2::from_shape_fn((n, 1), |(i, _)| i as f64 / (n - 1) as f64);
    let q = QuadratureFourierFeatures::new(&k, 1, mbar)?;
    let err = feature_gram_error(&k, &q, x.view())?;
    Ok(Outcome::new(
        CheckKind::Accuracy,
        format!(
            "QFF of the SE kernel, l = {l}, d = 1, mbar = {mbar} (m = {} features)",
            q.dim()
        ),
        format!("max |K - Phi Phi^T| <= {tol:e} over {n} equispaced points on [0, 1]"),
        format!(
            "max |K - Phi Phi^T| = {err:.3e} (Theorem 2 bound {:.3e})",
            q.error_bound()
        ),
        verdict(err <= tol),
    )
    .value("max_abs_error", err)
    .value("tolerance", tol)
    .value("theorem_2_bound", q.error_bound())
    .value("features", q.dim()))
}

/// The Gram matrix of the "positive nodes with doubled weights" shortcut of each dimension
/// (unit variance; exact in d = 1, wrong for d >= 2) on the rows of `x`.
pub(super) fn half_grid_gram(
    x: ArrayView2<'_, f64>,
    ls: &[f64],
    mbar: usize,
) -> Result<Array2<f64>, CheckError> {
    let rule = gauss_hermite(mbar)?;
    let sqrt_pi = std::f64::consts::PI.sqrt();
    let half: Vec<(f64, f64)> = rule
        .nodes
        .iter()
        .zip(rule.weights.iter())
        .filter(|(t, _)| **t >= 0.0)
        .map(|(&t, &w)| {
            (
                std::f64::consts::SQRT_2 * t,
                if t > 0.0 { 2.0 * w } else { w } / sqrt_pi,
            )
        })
        .collect();
    let d = x.ncols();
    let grid = half.len().pow(d as u32);
    let mut out = Array2::zeros((x.nrows(), x.nrows()));
    for i in 0..x.nrows() {
        for j in 0..=i {
            let mut s = 0.0;
            for g in 0..grid {
                let (mut rest, mut w, mut a) = (g, 1.0, 0.0);
                for c in 0..d {
                    let (t, wt) = half[rest % half.len()];
                    rest /= half.len();
                    w *= wt;
                    a += t / ls[c] * (x[[i, c]] - x[[j, c]]);
                }
                s += w * a.cos();
            }
            out[[i, j]] = s;
            out[[j, i]] = s;
        }
    }
    Ok(out)
}

pub(super) const QFF_2D_LENGTHSCALES: [f64; 2] = [0.3, 0.5];

pub(super) const QFF_2D_MBARS: [usize; 5] = [8, 12, 16, 20, 24];

pub(super) fn qff_2d_theorem_2(ctx: &Context) -> CheckResult {
    let n = ctx.mode.pick(200, 600);
    let x = uniform_points(n, 2, &mut rng(ctx.seed_for("kernel/qff/se-2d-theorem-2")));
    let k = SquaredExponential::new(
        1.0,
        Lengthscales::per_dimension(QFF_2D_LENGTHSCALES.to_vec())?,
    )?;
    let mut rows = Vec::new();
    let mut ok = true;
    let mut text = Vec::new();
    for mbar in QFF_2D_MBARS {
        let q = QuadratureFourierFeatures::new(&k, 2, mbar)?;
        let err = feature_gram_error(&k, &q, x.view())?;
        let bound = q.error_bound();
        ok &= err <= bound;
        text.push(format!("mbar {mbar}: {err:.2e} <= {bound:.2e}"));
        rows.push(json!({"mbar": mbar, "features": q.dim(), "measured_sup_error": err, "theorem_2_bound": bound}));
    }
    Ok(Outcome::new(
        CheckKind::Accuracy,
        format!(
            "QFF of the SE kernel, d = 2, lengthscales {QFF_2D_LENGTHSCALES:?}, full tensor grid, mbar in {QFF_2D_MBARS:?}"
        ),
        "for every mbar, the sup error over all pairs of the sampled points is at most the bound of Theorem 2 \
         (Dubey 2021; Mutny & Krause 2018): d 2^(d-1) sqrt(pi/2) mbar^-mbar (e / (4 nu^2))^mbar, nu = min l"
            .to_string(),
        format!("{n} uniform points on [0,1]^2: {}", text.join("; ")),
        verdict(ok),
    )
    .value("points", n)
    .value("lengthscales", QFF_2D_LENGTHSCALES)
    .value("by_mbar", rows))
}

pub(super) fn qff_half_grid_flagged(ctx: &Context) -> CheckResult {
    let mbar = 20;
    let x = uniform_points(
        60,
        2,
        &mut rng(ctx.seed_for("kernel/qff/half-grid-2d-flagged")),
    );
    let k = SquaredExponential::new(
        1.0,
        Lengthscales::per_dimension(QFF_2D_LENGTHSCALES.to_vec())?,
    )?;
    let q = QuadratureFourierFeatures::new(&k, 2, mbar)?;
    let bound = q.error_bound();
    let broken = max_abs_diff(
        &half_grid_gram(x.view(), &QFF_2D_LENGTHSCALES, mbar)?,
        &k.gram(x.view())?,
    );
    // In d = 1 the shortcut reproduces the full rule (cos is even): compare with full-grid QFF.
    let x1 = Array2::from_shape_fn((60, 1), |(i, _)| i as f64 / 59.0);
    let k1 = SquaredExponential::isotropic(QFF_2D_LENGTHSCALES[0])?;
    let phi1 = QuadratureFourierFeatures::new(&k1, 1, mbar)?.map_batch(x1.view())?;
    let exact_1d = max_abs_diff(
        &half_grid_gram(x1.view(), &QFF_2D_LENGTHSCALES[..1], mbar)?,
        &phi1.dot(&phi1.t()),
    );
    let flagged = broken > bound;
    Ok(Outcome::new(
        CheckKind::PositiveControl,
        format!(
            "the shortcut 'non-negative Hermite nodes with doubled weights in each dimension', d = 2, mbar = {mbar}, lengthscales {QFF_2D_LENGTHSCALES:?}"
        ),
        "the accuracy check flags it: its sup error exceeds the Theorem 2 bound; in d = 1 it equals the full rule to 1e-13"
            .to_string(),
        format!(
            "d = 2 shortcut error {broken:.3e} vs bound {bound:.3e} ({}); in d = 1 the shortcut equals the full-grid QFF to {exact_1d:.1e}",
            if flagged { "flagged" } else { "NOT flagged" }
        ),
        verdict(flagged && exact_1d <= 1e-13),
    )
    .value("shortcut_sup_error_2d", broken)
    .value("theorem_2_bound", bound)
    .value("shortcut_sup_error_1d", exact_1d))
}
