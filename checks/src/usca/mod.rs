//! Checks with ids under `usca/`: Pavlovic, Salgia & Zhao 2025 (USCA). The audit of the
//! prediction stage on the worst-case pair we can construct, with the two positive controls of
//! the issue (no clipping, a sensitivity ten times too small), and of the certified and the
//! query-context rules (with a query-context sensitivity four times too small as its control) and
//! of the verbatim fixed smoother (`rho = K tau` as printed, the proven sensitivity); the
//! estimator against the GP posterior mean as `T` grows with `|Z| = T K` (Lemma 6.2), with an
//! unscaled regulariser as the control; `sigma^2` and its certified supremum, with the grid
//! maximum without slack as the control;
//! the error-rate scaling in `T` and in `eps`, each with a control the same test must reject.
//!
//! Every statistical check runs at the shared level [`ALPHA`](crate::shared::ALPHA) with a
//! fixed seed; positive controls are flagged as such (kind `positive_control`) and state no
//! false-alarm probability. The broken variants live here, never in the crate.

mod audits;
mod estimator;
mod fixtures;
mod prediction_sensitivity;
mod scaling;
mod worst_pair;

use verification::Check;

use super::Area;

/// The `usca/` area.
pub const AREA: Area = Area {
    prefix: "usca/",
    about: "Pavlovic, Salgia & Zhao 2025: prediction-stage audit with its controls, the estimator, error-rate scaling",
    checks,
    fixtures: fixtures::fixtures,
    paper: Some(&::usca::experiments::Pavlovic2025),
};

/// The checks of this area, in the order they run.
pub fn checks() -> Vec<Check> {
    vec![
        Check::new("usca/audit/prediction-stage", audits::prediction_stage),
        Check::new(
            "usca/audit/prediction-stage-verbatim",
            audits::prediction_stage_verbatim,
        ),
        Check::new(
            "usca/audit/prediction-stage-certified",
            audits::prediction_stage_certified,
        ),
        Check::new(
            "usca/audit/prediction-stage-query-context",
            audits::prediction_stage_query_context,
        ),
        Check::new(
            "usca/control/query-context-too-small",
            audits::query_context_too_small,
        ),
        Check::new("usca/control/no-clipping", audits::no_clipping),
        Check::new(
            "usca/control/sensitivity-too-small",
            audits::sensitivity_too_small,
        ),
        Check::new(
            "usca/recompute/prediction-sensitivity",
            prediction_sensitivity::prediction_sensitivity,
        ),
        Check::new(
            "usca/control/prediction-sensitivity-halved",
            prediction_sensitivity::control_halved,
        ),
        Check::new(
            "usca/estimator/approaches-posterior-mean",
            estimator::approaches_posterior_mean,
        ),
        Check::new(
            "usca/control/regulariser-not-scaled",
            estimator::regulariser_not_scaled,
        ),
        Check::new("usca/estimator/variance-bound", estimator::variance_bound),
        Check::new(
            "usca/control/no-lipschitz-slack",
            estimator::no_lipschitz_slack,
        ),
        Check::new("usca/scaling/error-rate-in-t", scaling::error_rate_in_t),
        Check::new("usca/control/frozen-data", scaling::frozen_data),
        Check::new("usca/scaling/error-rate-in-eps", scaling::error_rate_in_eps),
        Check::new("usca/control/eps-swapped", scaling::eps_swapped),
    ]
}
