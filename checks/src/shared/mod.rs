//! The vocabulary every area's checks share: the level of the statistical checks, the tightness
//! an audit must reach, how an audit or a scaling result becomes an [`Outcome`](verification::Outcome),
//! and the exact log-likelihood-ratio statistics of the common noise distributions.
//!
//! It belongs to no area: a paper's checks (`checks/<paper>/`) use it as the foundations'
//! checks do.

mod audit_outcome;
mod binomial_rate;
mod exact_epsilon;
mod ignores_data;
mod inclusion;
mod llr;
mod noise_scale;
mod reach;
mod scaling_outcome;
mod tree_nodes;
mod uniform_play;
mod zcdp_target;

pub use audit_outcome::{Expect, audit_outcome, fmt_opt, tradeoff_plot};
pub use binomial_rate::{RateJudgement, RateSides, RateVerdict};
pub use exact_epsilon::{ExactEpsilon, against_exact, subsampled_gaussian_exact_epsilon};
pub use ignores_data::IgnoresData;
pub use inclusion::count_inclusions;
pub use llr::{gaussian_llr, laplace_llr};
pub use noise_scale::{
    NoiseJudgement, NoiseLaw, NoiseSample, NoiseVerdict, noise_control_outcome, noise_outcome,
};
pub use reach::{ClipReach, ReachJudgement, reach_control_outcome, reach_outcome};
pub use scaling_outcome::{
    POWER_REPLICATES, against_expected, control_outcome, scaling_config, scaling_outcome,
};
pub use tree_nodes::{node_items, nodes_touched, recovered_nodes};
pub use uniform_play::uniform_play_curve;
pub use zcdp_target::{Conversion, reference_error, rho_star};

/// The level of every statistical check of the suite: the probability that one check reports a
/// violation (or a failed distribution test, or a slope above the theory) although its claim
/// holds. The report sums these into its family-wise bound.
pub const ALPHA: f64 = 1e-6;

/// The tightness a strong audit of a tight claim must reach (else the audit is inconclusive).
pub const MIN_TIGHTNESS: f64 = 0.9;

/// The tightness against the exact epsilon of its pair (or against a claim the pair can
/// approach) an audit sized for it must reach: `(quick, full)` (issue 31).
pub const MIN_EXACT_TIGHTNESS: (f64, f64) = (0.9, 0.95);
