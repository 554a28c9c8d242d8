//! Checks with ids under `jdp-qff/`: Dubey 2021 (GP-UCB with noisy quadrature Fourier features
//! under joint and local joint DP). Audits of one tree-node release, of the tree's prefix sums,
//! of the whole JDP pipeline (the server's view) and of one local-JDP client message; positive
//! controls of the known implementation mistakes (noise reused across nodes, scalar noise,
//! unclipped rewards, the PSD shift on every entry); the spectrum of the released noise
//! (Lemma 3); regret scaling (Corollaries 2 and 3) and the alpha sweep; and the jdp-qff
//! fixtures.
//!
//! Every statistical check runs at the shared level [`ALPHA`](crate::shared::ALPHA) with a
//! fixed seed (its id's stream); positive controls are flagged as such (kind
//! `positive_control`: they pass when the broken variant is caught) and state no false-alarm
//! probability. The broken variants live here, never in the crate.

mod audits;
mod clip_reach;
mod common;
mod controls;
mod fixtures;
mod local_noise;
mod orthogonal_arms;
mod problem;
mod scaling;
mod spectrum;
mod sweep;
mod tree_noise;

use verification::Check;

use super::Area;

/// The `jdp-qff/` area.
pub const AREA: Area = Area {
    prefix: "jdp-qff/",
    about: "Dubey 2021: tree-node, prefix-sum, pipeline and local-client audits with their controls, noise spectrum, regret scaling, alpha sweep",
    checks,
    fixtures: fixtures::fixtures,
    paper: Some(&::jdp_qff::experiments::Dubey2021),
};

/// The checks of this area, in the order they run.
pub fn checks() -> Vec<Check> {
    vec![
        Check::new("jdp-qff/audit/tree-node", audits::tree_node),
        Check::new("jdp-qff/audit/tree-node-packed", audits::tree_node_packed),
        Check::new("jdp-qff/audit/prefix-sums", audits::prefix_sums),
        Check::new("jdp-qff/audit/pipeline", audits::pipeline),
        Check::new("jdp-qff/audit/local-client", audits::local_client),
        Check::new(
            "jdp-qff/control/noise-reused-across-nodes",
            controls::noise_reused_across_nodes,
        ),
        Check::new("jdp-qff/control/scalar-noise", controls::scalar_noise),
        Check::new(
            "jdp-qff/control/unclipped-reward",
            controls::unclipped_reward,
        ),
        Check::new(
            "jdp-qff/control/packed-sensitivity-x0.8",
            controls::packed_sensitivity_understated,
        ),
        Check::new("jdp-qff/recompute/tree-noise", tree_noise::tree_noise),
        Check::new("jdp-qff/recompute/clip-reach", clip_reach::clip_reach),
        Check::new(
            "jdp-qff/control/clip-reach-halved",
            clip_reach::control_halved,
        ),
        Check::new("jdp-qff/recompute/local-noise", local_noise::local_noise),
        Check::new(
            "jdp-qff/control/local-noise-looser-budget",
            local_noise::control_looser_budget,
        ),
        Check::new(
            "jdp-qff/control/tree-noise-one-level-fewer",
            tree_noise::control_one_level_fewer,
        ),
        Check::new("jdp-qff/spectrum/jdp-paper", spectrum::spectrum_paper),
        Check::new("jdp-qff/spectrum/jdp-derived", spectrum::spectrum_derived),
        Check::new(
            "jdp-qff/control/shift-every-entry",
            spectrum::control_shift_every_entry,
        ),
        Check::new(
            "jdp-qff/spectrum/local-paper",
            spectrum::spectrum_local_paper,
        ),
        Check::new(
            "jdp-qff/spectrum/local-derived",
            spectrum::spectrum_local_derived,
        ),
        Check::new(
            "jdp-qff/control/lemma6-printed-kappa",
            spectrum::control_lemma6_printed_kappa,
        ),
        Check::new(
            "jdp-qff/control/local-half-shift",
            spectrum::control_local_half_shift,
        ),
        Check::new("jdp-qff/scaling/jdp", scaling::scaling_jdp),
        Check::new("jdp-qff/scaling/local", scaling::scaling_local),
        Check::new(
            "jdp-qff/control/scaling-uniform",
            scaling::control_scaling_uniform,
        ),
        Check::new(
            "jdp-qff/control/scaling-ignores-data-jdp",
            scaling::control_ignores_data_jdp,
        ),
        Check::new(
            "jdp-qff/control/scaling-ignores-data-local",
            scaling::control_ignores_data_local,
        ),
        Check::new(
            "jdp-qff/scaling/jdp-orthogonal-arms",
            scaling::scaling_jdp_orthogonal_arms,
        ),
        Check::new(
            "jdp-qff/scaling/local-orthogonal-arms",
            scaling::scaling_local_orthogonal_arms,
        ),
        Check::new(
            "jdp-qff/control/scaling-greedy-jdp",
            scaling::control_greedy_jdp,
        ),
        Check::new(
            "jdp-qff/control/scaling-greedy-local",
            scaling::control_greedy_local,
        ),
        // Full-only: about 70 s each on 2 cores (docs/jdp-qff.md).
        Check::new(
            "jdp-qff/scaling/jdp-orthogonal-arms-alpha-100",
            scaling::scaling_jdp_orthogonal_arms_alpha_100,
        )
        .full_only(),
        Check::new(
            "jdp-qff/control/scaling-greedy-jdp-alpha-100",
            scaling::control_greedy_jdp_alpha_100,
        )
        .full_only(),
        Check::new("jdp-qff/sweep/alpha", sweep::sweep_alpha),
    ]
}
