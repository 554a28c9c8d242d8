//! Checks with ids under `privacy/`: accountants, calibrations, sampler distributions, mechanism
//! laws and defaults, typed errors; and the privacy fixtures.

mod accountant;
mod calibration;
mod errors;
mod fixed_samplers;
pub(crate) mod fixtures;
mod mechanism_noise;
mod mechanisms;
mod pld_reference;
mod samplers;
mod subsampling_rate;

use verification::Check;

use super::Area;

/// The `privacy/` area.
pub const AREA: Area = Area {
    prefix: "privacy/",
    about: "accountants, calibrations, sampler distributions, mechanism laws",
    checks,
    fixtures: fixtures::fixtures,
    paper: None,
};

/// The checks of this area, in the order they run.
pub fn checks() -> Vec<Check> {
    vec![
        Check::new(
            "privacy/accountant/paper-reproduction",
            accountant::paper_reproduction,
        ),
        Check::new("privacy/accountant/pld-vs-rdp", accountant::pld_vs_rdp),
        Check::new(
            "privacy/accountant/pld-upper-bound-gaussian",
            accountant::pld_upper_bound_gaussian,
        ),
        Check::new(
            "privacy/accountant/pld-reference",
            pld_reference::pld_reference,
        ),
        Check::new(
            "privacy/accountant/pld-replace-one-reference",
            pld_reference::pld_replace_one_reference,
        ),
        Check::new(
            "privacy/control/pld-buckets-as-bound",
            pld_reference::control_buckets_as_bound,
        ),
        Check::new(
            "privacy/accountant/fractional-orders",
            accountant::fractional_orders,
        ),
        Check::new(
            "privacy/calibration/solve-to-target",
            calibration::calibration_targets,
        ),
        Check::new(
            "privacy/calibration/requested-privacy-met",
            calibration::requested_privacy_met,
        ),
        Check::new(
            "privacy/control/sigma-too-small",
            calibration::control_sigma_too_small,
        ),
        Check::new(
            "privacy/calibration/noise-multiplier-for-target",
            calibration::noise_multiplier_for_target,
        ),
        Check::new(
            "privacy/control/noise-multiplier-off-by-a-step",
            calibration::control_noise_multiplier_off,
        ),
        Check::new(
            "privacy/recompute/mechanism-noise",
            mechanism_noise::mechanism_noise,
        ),
        Check::new(
            "privacy/control/mechanism-noise-broken",
            mechanism_noise::control_broken,
        ),
        Check::new(
            "privacy/recompute/subsampling-rate",
            subsampling_rate::subsampling_rate,
        ),
        Check::new(
            "privacy/control/subsampling-rate-too-high",
            subsampling_rate::control_too_high,
        ),
        Check::new(
            "privacy/sampler/discrete-laplace",
            samplers::sampler_discrete_laplace,
        ),
        Check::new(
            "privacy/sampler/discrete-gaussian",
            samplers::sampler_discrete_gaussian,
        ),
        Check::new(
            "privacy/sampler/fixed-discrete-gaussian",
            fixed_samplers::fixed_discrete_gaussian,
        ),
        Check::new(
            "privacy/sampler/fixed-discrete-laplace",
            fixed_samplers::fixed_discrete_laplace,
        ),
        Check::new(
            "privacy/sampler/fixed-bernoulli-exp",
            fixed_samplers::fixed_bernoulli_exp,
        ),
        Check::new(
            "privacy/sampler/hardened-grid-laplace",
            samplers::sampler_grid_laplace,
        ),
        Check::new(
            "privacy/sampler/hardened-grid-gaussian",
            samplers::sampler_grid_gaussian,
        ),
        Check::new(
            "privacy/sampler/textbook-laplace",
            samplers::sampler_textbook_laplace,
        ),
        Check::new(
            "privacy/sampler/textbook-gaussian",
            samplers::sampler_textbook_gaussian,
        ),
        Check::new(
            "privacy/sampler/hardened-uniform",
            samplers::sampler_hardened_uniform,
        ),
        Check::new(
            "privacy/mechanism/exponential-law",
            mechanisms::exponential_law,
        ),
        Check::new(
            "privacy/mechanism/hardened-defaults",
            mechanisms::hardened_defaults,
        ),
        Check::new("privacy/params/typed-errors", errors::typed_errors),
    ]
}
