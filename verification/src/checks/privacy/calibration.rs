//! Calibrations solved to their targets.

use crate::check::{CheckResult, Context, Outcome, verdict};
use crate::report::CheckKind;
use privacy::accountant::{ZcdpConversion, rho_for_target, zcdp_to_epsilon};
use privacy::mechanisms::gaussian::gaussian_delta;
use privacy::mechanisms::{analytic_sigma, node_sigma, tree_levels};
use serde_json::json;

pub(super) fn calibration_targets(_ctx: &Context) -> CheckResult {
    let mut worst: f64 = 0.0;
    let mut rows = Vec::new();
    for (eps, delta) in [
        (0.1, 1e-5),
        (0.5, 1e-6),
        (1.0, 1e-5),
        (3.0, 1e-8),
        (8.0, 1e-3),
    ] {
        let s = analytic_sigma(eps, delta, 1.0)?;
        let got = gaussian_delta(s, 1.0, eps);
        let r1 = ((got - delta) / delta).abs();
        let mut r = r1;
        let mut zc = Vec::new();
        for conv in [ZcdpConversion::Classic, ZcdpConversion::Cks] {
            let rho = rho_for_target(eps, delta, conv)?;
            let back = zcdp_to_epsilon(rho, delta, conv)?;
            r = r.max(((back - eps) / eps).abs());
            zc.push(rho);
        }
        let sigma_tree = node_sigma(1024, eps, delta, 1.0, ZcdpConversion::Cks)?;
        let levels = tree_levels(1024)? as f64;
        let back = zcdp_to_epsilon(
            levels / (2.0 * sigma_tree * sigma_tree),
            delta,
            ZcdpConversion::Cks,
        )?;
        r = r.max(((back - eps) / eps).abs());
        worst = worst.max(r);
        rows.push(json!({"eps": eps, "delta": delta, "analytic_sigma": s, "delta_at_sigma": got, "rho_classic": zc[0], "rho_cks": zc[1], "tree_sigma_T1024": sigma_tree, "worst_relative": r}));
    }
    Ok(Outcome::new(
        CheckKind::Accuracy,
        "calibrations: analytic Gaussian sigma, zCDP inverse (classic and CKS conversions), tree node sigma (T = 1024, CKS)",
        "each calibration meets its target (delta for the analytic Gaussian, eps for the zCDP ones) to 1e-9 relative",
        format!("worst relative error {worst:.2e} over 5 (eps, delta) targets"),
        verdict(worst <= 1e-9),
    )
    .value("rows", rows)
    .value("worst_relative_error", worst))
}
