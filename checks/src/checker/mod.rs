//! Checks with ids under `checker/`: checks of the checkers themselves. The regret-scaling
//! checker must PASS an algorithm that meets its bound (exact GP-UCB) and FAIL one that does
//! not (uniform random play); the privacy sweep must see regret fall as epsilon grows.
//!
//! These ran as `audit/scaling/...` before the areas were split: each keeps the random stream
//! of its old id ([`Check::seeded_as`]), so its numbers are unchanged.

mod scaling;
mod sweep;

use verification::Check;

use super::Area;

/// The `checker/` area.
pub const AREA: Area = Area {
    prefix: "checker/",
    about: "power checks of the regret-scaling checker and the privacy sweep",
    checks,
    fixtures: super::no_fixtures,
    paper: None,
};

/// The checks of this area, in the order they run.
pub fn checks() -> Vec<Check> {
    vec![
        Check::new("checker/scaling/gp-ucb-rkhs", scaling::scaling_gp_ucb)
            .seeded_as("audit/scaling/gp-ucb-rkhs"),
        Check::new("checker/scaling/uniform-random", scaling::scaling_uniform)
            .seeded_as("audit/scaling/uniform-random"),
        Check::new("checker/sweep/ctl-gp-ucb", sweep::scaling_privacy_sweep)
            .seeded_as("audit/scaling/privacy-sweep-ctl-gp-ucb"),
    ]
}
