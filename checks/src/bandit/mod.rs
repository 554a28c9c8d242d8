//! Checks with ids under `bandit/`: GP-UCB against uniform random, the data sets, the runner's
//! thread invariance, the benchmark maxima; and the bandit fixtures.

mod benchmarks;
mod datasets;
mod fixtures;
mod gp_ucb;
mod runner;

use verification::Check;

use super::Area;

/// The `bandit/` area.
pub const AREA: Area = Area {
    prefix: "bandit/",
    about: "GP-UCB against random play, data sets, runner, benchmark maxima",
    checks,
    fixtures: fixtures::fixtures,
    paper: None,
};

/// The checks of this area, in the order they run.
pub fn checks() -> Vec<Check> {
    vec![
        Check::new(
            "bandit/gp-ucb/rkhs-sublinear-and-below-random",
            gp_ucb::gp_ucb_vs_random,
        ),
        Check::new("bandit/datasets/load", datasets::datasets_load),
        Check::new("bandit/runner/thread-invariance", runner::thread_invariance),
        Check::new("bandit/benchmarks/maxima", benchmarks::benchmark_maxima),
    ]
}
