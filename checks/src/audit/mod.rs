//! Checks with ids under `audit/`: privacy audits of every mechanism of the privacy crate, their
//! positive and negative controls, and the floating-point porosity test.
//!
//! Every audit runs at `alpha = 1e-6` (its `false_alarm_probability`). A positive control passes
//! when the auditor flags it; its failure would be a lack of power, whose probability is not
//! bounded by alpha, so positive controls state no false-alarm probability.

mod ctl;
mod exponential;
mod gaussian;
mod laplace;
mod matrix;
mod porosity;
mod subsampled;
mod tree;

use verification::Check;

use super::Area;

/// The `audit/` area.
pub const AREA: Area = Area {
    prefix: "audit/",
    about: "privacy audits of every mechanism, their controls, porosity",
    checks,
    fixtures: super::no_fixtures,
    paper: None,
};

/// The checks of this area, in the order they run.
pub fn checks() -> Vec<Check> {
    vec![
        Check::new("audit/laplace/eps-1", laplace::laplace_eps1),
        Check::new("audit/ctl/eps-1-out-of-range", ctl::ctl_eps1),
        Check::new("audit/gaussian/classic", gaussian::gaussian_classic),
        Check::new("audit/gaussian/analytic", gaussian::gaussian_analytic),
        Check::new("audit/matrix/symmetric-gaussian", matrix::matrix_gaussian),
        Check::new("audit/tree/prefix-sums", tree::tree_prefix_sums),
        Check::new("audit/exponential/eps-1", exponential::exponential_eps1),
        Check::new(
            "audit/exponential/worst-case-pair",
            exponential::exponential_worst_case,
        ),
        Check::new("audit/subsampled/one-step", subsampled::subsampled_one),
        Check::new("audit/subsampled/four-steps", subsampled::subsampled_four),
        Check::new(
            "audit/subsampled/replace-one",
            subsampled::subsampled_replace_one,
        ),
        Check::new(
            "audit/control/add-remove-epsilon-for-replace-one",
            subsampled::control_add_remove_epsilon_for_replace_one,
        ),
        Check::new(
            "audit/control/subsampled-half-noise",
            subsampled::control_half_noise,
        ),
        Check::new(
            "audit/control/exponential-missing-factor-two",
            exponential::control_missing_factor_two,
        ),
        Check::new(
            "audit/control/laplace-half-scale",
            laplace::control_laplace_half_scale,
        ),
        Check::new(
            "audit/control/gaussian-twice-sensitivity",
            gaussian::control_gaussian_twice_sensitivity,
        ),
        Check::new(
            "audit/control/matrix-half-noise",
            matrix::control_matrix_half_noise,
        ),
        Check::new(
            "audit/control/ctl-without-clipping",
            ctl::control_ctl_without_clipping,
        ),
        Check::new(
            "audit/control/reference-laplace-histogram",
            laplace::control_reference_laplace,
        ),
        Check::new(
            "audit/control/textbook-laplace-float-llr",
            laplace::control_textbook_float_llr,
        ),
        Check::new(
            "audit/porosity/textbook-laplace",
            porosity::porosity_textbook,
        ),
        Check::new(
            "audit/porosity/hardened-laplace",
            porosity::porosity_hardened,
        ),
    ]
}
