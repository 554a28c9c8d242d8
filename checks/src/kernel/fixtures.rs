//! The kernel fixtures (`fixtures/kernel/`).

use super::qff::QFF_2D_LENGTHSCALES;
use super::rng;
use kernel::features::gauss_hermite;
use kernel::{
    ExactGp, FeatureMap, Kernel, Lengthscales, Matern, MaternNu, QuadratureFourierFeatures,
    SquaredExponential,
};
use ndarray::{Array1, Array2};
use rand::RngExt;
use serde_json::json;
use verification::CheckError;
use verification::fixtures::{
    Entry, Fixture, Tolerance, entry, matrix, number, tolerances, vector,
};

// ----------------------------------------------------------------------------------------
// Fixtures

pub(super) fn fixture_points(n: usize, d: usize, seed: u64) -> Array2<f64> {
    // Rounded to 3 decimals so that the inputs are short and exactly representable in text.
    let mut r = rng(seed);
    Array2::from_shape_fn((n, d), |_| (r.random::<f64>() * 1000.0).round() / 1000.0)
}

/// The fixtures of this area.
pub fn fixtures() -> Result<Vec<Entry>, CheckError> {
    let mut out = Vec::new();

    let x = fixture_points(6, 2, 1);
    let ls = [0.3, 0.7];
    let k = SquaredExponential::new(1.5, Lengthscales::per_dimension(ls.to_vec())?)?;
    out.push(entry(
        "kernel/se_gram.json",
        Fixture {
            name: "se_gram".into(),
            description: "Squared exponential kernel with per-dimension lengthscales: \
                k(x, y) = variance * exp(-sum_j (x_j - y_j)^2 / (2 lengthscales_j^2)); gram[i][j] = k(points[i], points[j])."
                .into(),
            inputs: json!({"points": matrix(x.view()), "lengthscales": ls, "variance": number(1.5)}),
            outputs: json!({"gram": matrix(k.gram(x.view())?.view())}),
            tolerances: tolerances([("gram", Tolerance::closed_form("kernel value (units of variance)", 1.5))]),
        },
    ));

    let x = fixture_points(6, 3, 2);
    let k = Matern::new(MaternNu::FiveHalves, 2.0, Lengthscales::isotropic(0.4)?)?;
    out.push(entry(
        "kernel/matern52_gram.json",
        Fixture {
            name: "matern52_gram".into(),
            description: "Matérn kernel with nu = 5/2: with r = |x - y| / lengthscale, \
                k(x, y) = variance * (1 + sqrt(5) r + 5 r^2 / 3) exp(-sqrt(5) r); gram[i][j] = k(points[i], points[j])."
                .into(),
            inputs: json!({"points": matrix(x.view()), "lengthscale": number(0.4), "variance": number(2.0)}),
            outputs: json!({"gram": matrix(k.gram(x.view())?.view())}),
            tolerances: tolerances([("gram", Tolerance::closed_form("kernel value (units of variance)", 2.0))]),
        },
    ));

    let x = fixture_points(5, 2, 3);
    let mbar = 4;
    let k = SquaredExponential::new(
        1.0,
        Lengthscales::per_dimension(QFF_2D_LENGTHSCALES.to_vec())?,
    )?;
    let q = QuadratureFourierFeatures::new(&k, 2, mbar)?;
    let phi = q.map_batch(x.view())?;
    let rule = gauss_hermite(mbar)?;
    out.push(entry(
        "kernel/qff_se_2d.json",
        Fixture {
            name: "qff_se_2d".into(),
            description: "Quadrature Fourier features of the SE kernel k(x, y) = variance * exp(-sum_j (x_j - y_j)^2 / (2 l_j^2)), \
                d = 2, mbar Gauss-Hermite nodes t_i with weights w_i (weight function exp(-t^2)) per dimension, full tensor grid. \
                Grid point g = (i_1, i_2) in row-major order (g = i_1 * mbar + i_2); omega_g = (sqrt(2) t_{i_1} / l_1, sqrt(2) t_{i_2} / l_2), \
                W_g = w_{i_1} w_{i_2} / pi. features[r][g] = sqrt(variance W_g) cos(omega_g . x_r) for g < mbar^2 and \
                features[r][mbar^2 + g] = sqrt(variance W_g) sin(omega_g . x_r): m = 2 mbar^2 columns. \
                feature_gram = features features^T approximates kernel_gram."
                .into(),
            inputs: json!({
                "points": matrix(x.view()),
                "lengthscales": QFF_2D_LENGTHSCALES,
                "variance": number(1.0),
                "mbar": mbar,
            }),
            outputs: json!({
                "hermite_nodes": vector(rule.nodes.view()),
                "hermite_weights": vector(rule.weights.view()),
                "features": matrix(phi.view()),
                "feature_gram": matrix(phi.dot(&phi.t()).view()),
                "kernel_gram": matrix(k.gram(x.view())?.view()),
            }),
            tolerances: tolerances([
                ("feature_gram", Tolerance::closed_form("kernel value (units of variance)", 1.0)),
                ("features", Tolerance::closed_form("feature value (units of sqrt(variance))", 1.0)),
                ("hermite_nodes", Tolerance::new("Gauss-Hermite node (dimensionless)", 1e-14, 1e-12,
                    "roots of the Hermite polynomial H_mbar, refined to machine precision (numpy's hermgauss agrees to ~1e-16)")),
                ("hermite_weights", Tolerance::new("Gauss-Hermite weight (dimensionless)", 1e-14, 1e-12,
                    "weights at the refined nodes (numpy's hermgauss agrees to ~1e-15)")),
                ("kernel_gram", Tolerance::closed_form("kernel value (units of variance)", 1.0)),
            ]),
        },
    ));

    let x = fixture_points(8, 2, 4);
    let y: Array1<f64> = x
        .rows()
        .into_iter()
        .map(|p| ((5.0 * p[0]).sin() + p[1] * p[1]) * 1000.0)
        .map(|v| v.round() / 1000.0)
        .collect();
    let xs = fixture_points(5, 2, 5);
    let (l, s2, lambda) = (0.3, 1.0, 0.1);
    let gp = ExactGp::from_data(
        SquaredExponential::isotropic(l)?,
        lambda,
        x.view(),
        y.view(),
    )?;
    let (mean, var) = gp.predict(xs.view())?;
    out.push(entry(
        "kernel/gp_posterior.json",
        Fixture {
            name: "gp_posterior".into(),
            description: "Exact GP posterior with the SE kernel k(x, y) = variance * exp(-|x - y|^2 / (2 lengthscale^2)) and \
                regulariser lambda: mean(x) = k_t(x)^T (K_t + lambda I)^-1 y, variance(x) = k(x, x) - k_t(x)^T (K_t + lambda I)^-1 k_t(x) \
                (Chowdhury & Gopalan 2017 convention), at the rows of test_points."
                .into(),
            inputs: json!({
                "points": matrix(x.view()),
                "y": vector(y.view()),
                "lengthscale": number(l),
                "variance": number(s2),
                "lambda": number(lambda),
                "test_points": matrix(xs.view()),
            }),
            outputs: json!({"mean": vector(mean.view()), "variance": vector(var.view())}),
            tolerances: tolerances([
                ("mean", Tolerance::linear_solve("posterior mean (units of y)", 1.0)),
                ("variance", Tolerance::linear_solve("posterior variance (units of variance)", 1.0)),
            ]),
        },
    ));
    Ok(out)
}
