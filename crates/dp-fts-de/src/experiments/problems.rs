//! The problems of Sec. 5 and App. B and their draws: the synthetic functions and the
//! heterogeneous agents are drawn anew per run, the SVM-digits stand-in is one data set.

use std::sync::Arc;

use bandit::experiment;
use bandit::seed::seed_key;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use serde::Serialize;

use crate::error::DpFtsDeError;
use crate::problem::FederatedProblem;

/// App. B.1.1: agents of the synthetic experiments.
pub const SYNTHETIC_AGENTS: usize = 200;
/// App. B.1.2: agents of the heterogeneous experiments.
pub const HETEROGENEOUS_AGENTS: usize = 50;

/// The problems of Sec. 5 and App. B.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub enum Problem {
    /// App. B.1.1, `N = 200`.
    Synthetic,
    /// App. B.1.2, `N = 50`, `f^i <- alpha f^i + (1 - alpha) f_base`.
    Heterogeneous {
        /// `alpha`.
        alpha: f64,
    },
    /// The landmine stand-in ([`FederatedProblem::svm_digits`]), `N = 29`: the easy case.
    SvmDigits,
    /// The harder stand-in committed in the repository ([`FederatedProblem::noisy_digits`]),
    /// `N = 20`, where random search is far from the best.
    NoisyDigits,
}

impl Problem {
    /// Whether the problem is random (a new draw per run, module docs) rather than a data set.
    pub fn is_random(self) -> bool {
        !matches!(self, Self::SvmDigits | Self::NoisyDigits)
    }

    /// The framework's description of its draws.
    pub fn draws(self) -> experiment::Problem {
        if self.is_random() {
            experiment::Problem::RandomPerTrial
        } else {
            experiment::Problem::Fixed
        }
    }
}

/// The generator of the problem draws of a reproduction: key [`seed_key`]`(base_seed)`, stream
/// `u64::MAX - k`, which no run's stream ([`crate::federation::Stream::number`],
/// `run < 2^32 - 1`) uses; [`load_problem`] takes `k = kind + 3 draw` (`kind` 0 synthetic, 1
/// heterogeneous `alpha = 0.7`, 2 `alpha = 1`).
pub fn problem_rng(base_seed: u64, k: u64) -> ChaCha20Rng {
    let mut rng = ChaCha20Rng::from_seed(seed_key(base_seed));
    rng.set_stream(u64::MAX - k);
    rng
}

/// Draw `draw` of a panel's problem (module docs): generator [`problem_rng`]`(base_seed,
/// kind + 3 draw)` with `kind` 0 synthetic, 1 heterogeneous `alpha < 1`, 2 `alpha = 1`; the
/// SVM-digits stand-in is the same data set for every draw.
pub fn load_problem(
    problem: Problem,
    base_seed: u64,
    draw: u64,
    data_dir: &std::path::Path,
) -> Result<FederatedProblem, DpFtsDeError> {
    let rng = |kind: u64| problem_rng(base_seed, kind + 3 * draw);
    match problem {
        Problem::Synthetic => FederatedProblem::synthetic(SYNTHETIC_AGENTS, &mut rng(0)),
        Problem::Heterogeneous { alpha } => {
            let k = if alpha < 1.0 { 1 } else { 2 };
            FederatedProblem::heterogeneous(HETEROGENEOUS_AGENTS, alpha, &mut rng(k))
        }
        Problem::SvmDigits => FederatedProblem::svm_digits(data_dir),
        Problem::NoisyDigits => FederatedProblem::noisy_digits(),
    }
}

/// The problems `runs` runs of a panel see: draws `0..runs` of a random problem (one per
/// run), or the one data set.
pub fn draw_problems(
    problem: Problem,
    base_seed: u64,
    runs: usize,
    data_dir: &std::path::Path,
) -> Result<Vec<Arc<FederatedProblem>>, DpFtsDeError> {
    let draws = if problem.is_random() { runs as u64 } else { 1 };
    (0..draws)
        .map(|d| load_problem(problem, base_seed, d, data_dir).map(Arc::new))
        .collect()
}
