//! The Nystrom embedding's reconstruction of the Gram matrix.

use super::{rng, uniform_points};
use kernel::linalg::PINV_RCOND;
use kernel::linalg::max_abs_diff;
use kernel::{FeatureMap, Kernel, NystromEmbedding, SquaredExponential};
use ndarray::Array1;
use verification::CheckKind;
use verification::{CheckResult, Context, Outcome, verdict};

pub(super) fn nystrom_reconstruction(ctx: &Context) -> CheckResult {
    let mut r = rng(ctx.seed_for("kernel/nystrom/reconstruction"));
    let n = 120;
    let x = uniform_points(n, 2, &mut r);
    let k = SquaredExponential::isotropic(0.25)?;
    let kk = k.gram(x.view())?;
    // Full dictionary: Phi Phi^T = K on the points.
    let all: Vec<usize> = (0..n).collect();
    let full = NystromEmbedding::from_indices(&k, x.view(), &all, PINV_RCOND)?;
    let phi = full.map_batch(x.view())?;
    let err_full = max_abs_diff(&phi.dot(&phi.t()), &kk);
    // Algorithm 4 with the prior variances (k(x,x) = 1) and q = 0.3: Bernoulli(0.3) dictionary.
    let e4 = NystromEmbedding::sample(&k, x.view(), Array1::from_elem(n, 1.0).view(), 0.3, &mut r)?;
    let phi4 = e4.map_batch(x.view())?;
    let rec = phi4.dot(&phi4.t());
    let mut err_dict = 0.0f64;
    for &i in e4.indices() {
        for j in 0..n {
            err_dict = err_dict.max((rec[[i, j]] - kk[[i, j]]).abs());
        }
    }
    let err_all = max_abs_diff(&rec, &kk);
    let tol = 1e-8;
    Ok(Outcome::new(
        CheckKind::Accuracy,
        format!("Nyström embedding (Zhou & Tan 2021, App. D.3, Alg. 4), SE l = 0.25, {n} points in [0,1]^2, eigenvalue cutoff {PINV_RCOND:e}"),
        format!("phi(x)^T phi(y) = k(x, y) to {tol:e} whenever x is in the dictionary (full dictionary: Phi Phi^T = K)"),
        format!(
            "full dictionary: max |Phi Phi^T - K| = {err_full:.2e}; Algorithm 4 with q sigma^2 = 0.3: |D| = {}, error on dictionary rows {err_dict:.2e}, on all pairs {err_all:.2e} (informational)",
            e4.dim()
        ),
        verdict(err_full <= tol && err_dict <= tol),
    )
    .value("full_dictionary_error", err_full)
    .value("sampled_dictionary_size", e4.dim())
    .value("sampled_dictionary_rows_error", err_dict)
    .value("sampled_all_pairs_error", err_all))
}
