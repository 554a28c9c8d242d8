//! GP posteriors: incremental equals from scratch, weight space equals function space.

use super::{rng, uniform_points};
use kernel::linalg::max_abs_diff;
use kernel::linalg::psd_sqrt;
use kernel::{
    ExactGp, Kernel, Lengthscales, Matern, MaternNu, Precomputed, SquaredExponential, WeightSpaceGp,
};
use ndarray::{Array1, array};
use rand::RngExt;
use verification::CheckKind;
use verification::{CheckResult, Context, Outcome, verdict};

pub(super) fn gp_incremental(ctx: &Context) -> CheckResult {
    let t = ctx.mode.pick(400, 1500);
    let mut r = rng(ctx.seed_for("kernel/gp/incremental-equals-scratch"));
    let x = uniform_points(t, 3, &mut r);
    let y: Array1<f64> = x
        .rows()
        .into_iter()
        .map(|p| (5.0 * p.sum()).sin() + 0.1 * r.random::<f64>())
        .collect();
    let xs = uniform_points(200, 3, &mut r);
    let k = Matern::new(MaternNu::FiveHalves, 1.0, Lengthscales::isotropic(0.4)?)?;
    let lambda = 0.01;
    let mut inc = ExactGp::new(&k, lambda)?;
    for (p, &v) in x.rows().into_iter().zip(y.iter()) {
        inc.observe(p, v)?;
    }
    let full = ExactGp::from_data(&k, lambda, x.view(), y.view())?;
    let (mi, vi) = inc.predict(xs.view())?;
    let (mf, vf) = full.predict(xs.view())?;
    let (dm, dv) = (max_abs_diff(&mi, &mf), max_abs_diff(&vi, &vf));
    let dig = (inc.information_gain() - full.information_gain()).abs();
    let tol = 1e-9;
    Ok(Outcome::new(
        CheckKind::Property,
        format!("exact GP posterior, Matérn-5/2 (l = 0.4), d = 3, lambda = {lambda}, t = {t} observations one at a time"),
        format!("mean and variance at 200 test points equal a from-scratch Cholesky solve to {tol:e}"),
        format!("max |mean diff| = {dm:.2e}, max |variance diff| = {dv:.2e}, |information gain diff| = {dig:.2e}"),
        verdict(dm <= tol && dv <= tol),
    )
    .value("observations", t)
    .value("max_mean_difference", dm)
    .value("max_variance_difference", dv)
    .value("information_gain_difference", dig))
}

pub(super) fn gp_weight_space(ctx: &Context) -> CheckResult {
    let n = 60;
    let mut r = rng(ctx.seed_for("kernel/gp/weight-space-equals-function-space"));
    let pts = uniform_points(n, 2, &mut r);
    let k = SquaredExponential::isotropic(0.3)?;
    let gram = k.gram(pts.view())?;
    // Exact features on the finite set: phi(arm i) = row i of K^{1/2}.
    let feats = psd_sqrt("K", gram.view())?;
    let arms = Precomputed::new(gram.view())?;
    let lambda = 0.05;
    let mut fs = ExactGp::new(&arms, lambda)?;
    let mut ws = WeightSpaceGp::new(n, lambda)?;
    for _ in 0..150 {
        let i = r.random_range(0..n);
        let y = (4.0 * pts[[i, 0]]).sin() + r.random::<f64>() * 0.1;
        fs.observe(array![i as f64].view(), y)?;
        ws.observe(feats.row(i), y)?;
    }
    let (mf, cf) = fs.predict_cov(arms.arms().view())?;
    let (mw, cw) = ws.predict_cov(feats.view())?;
    let (dm, dc) = (max_abs_diff(&mf, &mw), max_abs_diff(&cf, &cw));
    let tol = 1e-9;
    Ok(Outcome::new(
        CheckKind::Property,
        format!("weight-space posterior (V = Phi^T Phi + lambda I, variance lambda phi^T V^-1 phi) with exact features (rows of K^1/2) on {n} arms, 150 observations"),
        format!("mean and joint covariance equal the function-space posterior to {tol:e}"),
        format!("max |mean diff| = {dm:.2e}, max |covariance diff| = {dc:.2e}"),
        verdict(dm <= tol && dc <= tol),
    )
    .value("max_mean_difference", dm)
    .value("max_covariance_difference", dc))
}
