//! Typed errors on bad parameters.

use ::ldp_bo::ConvertToLaplace;
use privacy::accountant::ZcdpConversion;
use privacy::accountant::rdp::paper_preset_epsilon;
use privacy::mechanisms::{
    ExponentialMechanism, GaussianMechanism, LaplaceMechanism, SubsampledGaussian, classic_sigma,
    node_sigma,
};
use verification::CheckKind;
use verification::{CheckResult, Context, Outcome, verdict};

pub(super) fn typed_errors(_ctx: &Context) -> CheckResult {
    let cases: Vec<(&str, bool)> = vec![
        ("eps = 0", LaplaceMechanism::new(0.0, 1.0).is_err()),
        (
            "eps = NaN",
            GaussianMechanism::analytic(f64::NAN, 1e-5, 1.0).is_err(),
        ),
        (
            "delta = 1",
            GaussianMechanism::analytic(1.0, 1.0, 1.0).is_err(),
        ),
        ("q = 0", SubsampledGaussian::new(0.0, 1.0, 1.0).is_err()),
        ("q = 1.5", paper_preset_epsilon(1.5, 1.0, 40, 1e-5).is_err()),
        (
            "sensitivity = -1",
            ExponentialMechanism::new(1.0, -1.0).is_err(),
        ),
        (
            "T = 0",
            node_sigma(0, 1.0, 1e-5, 1.0, ZcdpConversion::Classic).is_err(),
        ),
        ("classic eps >= 1", classic_sigma(1.5, 1e-5, 1.0).is_err()),
        (
            "NaN reward",
            ConvertToLaplace::new(1.0, 1.0, 1.0)
                .map(|c| c.privatize_with_noise(f64::NAN, 0.0).is_err())
                .unwrap_or(false),
        ),
    ];
    let failed: Vec<&str> = cases
        .iter()
        .filter(|(_, ok)| !ok)
        .map(|(n, _)| *n)
        .collect();
    Ok(Outcome::new(
        CheckKind::Property,
        "validated parameters and mechanism inputs",
        "bad input returns the crate's typed error (never a panic or NaN); the property test in crates/privacy/tests/bad_input.rs covers random bad values",
        if failed.is_empty() {
            format!("{} cases, all errors", cases.len())
        } else {
            format!("accepted: {failed:?}")
        },
        verdict(failed.is_empty()),
    ))
}
