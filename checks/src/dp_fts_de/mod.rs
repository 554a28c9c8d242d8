//! Checks with ids under `dp-fts-de/`: Dai, Low & Jaillet 2021 (DP federated Thompson sampling
//! with distributed exploration). Audits of one server release (Algorithm 1) through the
//! `PrivateAggregator`'s `privacy::Mechanism` impl, plain Gaussian (`q = 1`) and subsampled
//! (`q = 0.25`), with positive controls of the known calibration mistakes (no clipping, noise
//! scaled by the mean weight, the accountant fed a wrong `q`); the crate's reported privacy
//! loss against the paper's five epsilons; utility on the synthetic problem (FTS-DE beats TS,
//! a smaller `q` is worse), each with a control the same test must not certify.
//!
//! Every statistical check runs at the shared level [`ALPHA`](crate::shared::ALPHA) with a
//! fixed seed; positive controls are flagged as such (kind `positive_control`: they pass when
//! the broken variant is caught) and state no false-alarm probability. The broken variants live
//! here, never in the crate.

mod accountant;
mod audits;
mod clip_reach;
mod controls;
mod fixtures;
mod round_noise;
mod subsampling_rate;
mod utility;

use verification::Check;

use super::Area;

/// The `dp-fts-de/` area.
pub const AREA: Area = Area {
    prefix: "dp-fts-de/",
    about: "Dai, Low & Jaillet 2021: server-release audits with their controls, the accountant, utility",
    checks,
    fixtures: fixtures::fixtures,
    paper: Some(&::dp_fts_de::experiments::Dai2021),
};

/// The checks of this area, in the order they run.
pub fn checks() -> Vec<Check> {
    vec![
        Check::new("dp-fts-de/audit/server-round", audits::server_round),
        Check::new(
            "dp-fts-de/audit/server-round-row-norm",
            audits::server_round_row_norm,
        ),
        Check::new("dp-fts-de/audit/subsampled-round", audits::subsampled_round),
        Check::new("dp-fts-de/control/no-clipping", controls::no_clipping),
        Check::new(
            "dp-fts-de/control/mean-weight-noise",
            controls::mean_weight_noise,
        ),
        Check::new(
            "dp-fts-de/control/row-norm-over-p",
            controls::row_norm_over_p,
        ),
        Check::new(
            "dp-fts-de/control/wrong-q-accountant",
            controls::wrong_q_accountant,
        ),
        Check::new("dp-fts-de/accountant/crate-loss", accountant::crate_loss),
        Check::new("dp-fts-de/recompute/round-noise", round_noise::round_noise),
        Check::new(
            "dp-fts-de/control/round-noise-one-step-fewer",
            round_noise::control_one_step_fewer,
        ),
        Check::new("dp-fts-de/recompute/clip-reach", clip_reach::clip_reach),
        Check::new(
            "dp-fts-de/control/clip-reach-halved",
            clip_reach::control_halved,
        ),
        Check::new(
            "dp-fts-de/recompute/subsampling-rate",
            subsampling_rate::subsampling_rate,
        ),
        Check::new(
            "dp-fts-de/control/subsampling-rate-too-high",
            subsampling_rate::control_too_high,
        ),
        Check::new("dp-fts-de/utility/de-beats-ts", utility::de_beats_ts),
        Check::new(
            "dp-fts-de/control/de-broken-server",
            utility::de_broken_server,
        ),
        Check::new(
            "dp-fts-de/utility/de-beats-ts-late",
            utility::de_beats_ts_late,
        ),
        Check::new(
            "dp-fts-de/control/de-late-broken-server",
            utility::de_late_broken_server,
        ),
        Check::new(
            "dp-fts-de/utility/fig4-noise-cause",
            utility::fig4_noise_cause,
        ),
        Check::new(
            "dp-fts-de/control/fig4-cause-placebo",
            utility::fig4_cause_placebo,
        ),
        Check::new(
            "dp-fts-de/utility/privacy-tradeoff",
            utility::privacy_tradeoff,
        ),
        Check::new(
            "dp-fts-de/control/tradeoff-swapped",
            utility::tradeoff_swapped,
        ),
    ]
}
