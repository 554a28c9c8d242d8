//! Checks with ids under `ldp-bo/`: Zhou & Tan 2021. Curator and pipeline audits with their
//! controls, regret scaling, epsilon sweeps; and the ldp-bo fixtures.

mod ctl_noise;
mod curator;
mod fixtures;
mod orthogonal_arms;
mod pipeline;
mod scaling;
mod schedule;
mod sweep;

use ::ldp_bo::experiments::Algorithm;
use verification::Check;

use super::Area;

/// The `ldp-bo/` area.
pub const AREA: Area = Area {
    prefix: "ldp-bo/",
    about: "Zhou & Tan 2021: curator and pipeline audits, regret scaling, epsilon sweeps",
    checks,
    fixtures: fixtures::fixtures,
    paper: Some(&::ldp_bo::experiments::ZhouTan2021),
};

/// The checks of this area, in the order they run.
pub fn checks() -> Vec<Check> {
    vec![
        Check::new(
            "ldp-bo/curator/worst-case-pair",
            curator::curator_worst_case,
        ),
        Check::new("ldp-bo/curator/out-of-range", curator::curator_out_of_range),
        Check::new("ldp-bo/recompute/ctl-noise", ctl_noise::ctl_noise),
        Check::new(
            "ldp-bo/control/ctl-noise-sensitivity-halved",
            ctl_noise::control_sensitivity_halved,
        ),
        Check::new("ldp-bo/schedule/theory-formulas", schedule::theory_formulas),
        Check::new(
            "ldp-bo/control/schedule-one-round-late",
            schedule::control_one_round_late,
        ),
        Check::new(
            "ldp-bo/control/schedule-b-r-swapped",
            schedule::control_b_r_swapped,
        ),
        Check::new("ldp-bo/curator/grid-eps0.25-b1-r0.5", |ctx| {
            curator::grid_audit(ctx, 0)
        }),
        Check::new("ldp-bo/curator/grid-eps1-b2-r0.3", |ctx| {
            curator::grid_audit(ctx, 1)
        }),
        Check::new("ldp-bo/curator/grid-eps4-b0.5-r1", |ctx| {
            curator::grid_audit(ctx, 2)
        }),
        Check::new(
            "ldp-bo/control/unclipped-curator",
            curator::control_unclipped,
        ),
        Check::new(
            "ldp-bo/control/curator-eps-b-swapped",
            curator::control_eps_b_swapped,
        ),
        Check::new(
            "ldp-bo/pipeline/user-stream",
            pipeline::pipeline_user_stream,
        ),
        Check::new(
            "ldp-bo/control/pipeline-half-noise",
            pipeline::control_pipeline_half_noise,
        ),
        Check::new("ldp-bo/scaling/ldp-tgp-ucb", scaling::scaling_tgp),
        Check::new("ldp-bo/scaling/ldp-moma-gp-ucb", scaling::scaling_moma),
        Check::new("ldp-bo/scaling/ldp-ata-gp-ucb", scaling::scaling_ata),
        Check::new(
            "ldp-bo/control/scaling-exponent-0.8",
            scaling::scaling_exponent_control,
        ),
        Check::new(
            "ldp-bo/control/scaling-uniform",
            scaling::scaling_uniform_control,
        ),
        Check::new("ldp-bo/control/scaling-greedy-ldp-tgp-ucb", |ctx| {
            scaling::broken_control(ctx, Algorithm::Tgp, scaling::Broken::Greedy)
        }),
        Check::new("ldp-bo/control/scaling-ignores-data-ldp-tgp-ucb", |ctx| {
            scaling::broken_control(ctx, Algorithm::Tgp, scaling::Broken::IgnoresData)
        }),
        Check::new("ldp-bo/control/scaling-greedy-ldp-moma-gp-ucb", |ctx| {
            scaling::broken_control(ctx, Algorithm::Moma, scaling::Broken::Greedy)
        }),
        Check::new(
            "ldp-bo/control/scaling-ignores-data-ldp-moma-gp-ucb",
            |ctx| scaling::broken_control(ctx, Algorithm::Moma, scaling::Broken::IgnoresData),
        ),
        Check::new("ldp-bo/control/scaling-greedy-ldp-ata-gp-ucb", |ctx| {
            scaling::broken_control(ctx, Algorithm::Ata, scaling::Broken::Greedy)
        })
        .full_only(),
        Check::new(
            "ldp-bo/control/scaling-ignores-data-ldp-ata-gp-ucb",
            |ctx| scaling::broken_control(ctx, Algorithm::Ata, scaling::Broken::IgnoresData),
        ),
        Check::new("ldp-bo/scaling/ldp-moma-gp-ucb-orthogonal-arms", |ctx| {
            scaling::scaling_orthogonal(ctx, Algorithm::Moma)
        }),
        Check::new("ldp-bo/scaling/ldp-ata-gp-ucb-orthogonal-arms", |ctx| {
            scaling::scaling_orthogonal(ctx, Algorithm::Ata)
        }),
        Check::new(
            "ldp-bo/control/scaling-greedy-ldp-moma-gp-ucb-orthogonal-arms",
            |ctx| scaling::control_greedy_orthogonal(ctx, Algorithm::Moma),
        ),
        Check::new(
            "ldp-bo/control/scaling-greedy-ldp-ata-gp-ucb-orthogonal-arms",
            |ctx| scaling::control_greedy_orthogonal(ctx, Algorithm::Ata),
        ),
        Check::new("ldp-bo/sweep/ldp-tgp-ucb", sweep::sweep_tgp),
        Check::new("ldp-bo/sweep/ldp-moma-gp-ucb", sweep::sweep_moma),
    ]
}
