//! Checks with ids under `kernel/`: feature-map accuracy (QFF, RFF, Nystrom), GP posteriors,
//! information gain, typed errors; and the kernel fixtures.

mod errors;
mod finite_domain;
mod fixtures;
mod gp;
mod information_gain;
mod nystrom;
mod qff;
mod rff;

use kernel::linalg::max_abs_diff;
use kernel::{FeatureMap, Kernel};
use ndarray::{Array2, ArrayView2};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha20Rng;
use verification::{Check, CheckError};

use super::Area;

/// The `kernel/` area.
pub const AREA: Area = Area {
    prefix: "kernel/",
    about: "feature maps, GP posteriors, information gain, typed errors",
    checks,
    fixtures: fixtures::fixtures,
    paper: None,
};

/// The checks of this area, in the order they run.
pub fn checks() -> Vec<Check> {
    vec![
        Check::new("kernel/qff/se-1d-grid", qff::qff_1d_grid),
        Check::new("kernel/qff/se-2d-theorem-2", qff::qff_2d_theorem_2),
        Check::new(
            "kernel/qff/half-grid-2d-flagged",
            qff::qff_half_grid_flagged,
        ),
        Check::new("kernel/rff/error-rate", rff::rff_error_rate),
        Check::new(
            "kernel/rff/wrong-lengthscale-flagged",
            rff::rff_wrong_lengthscale_flagged,
        ),
        Check::new("kernel/gp/incremental-equals-scratch", gp::gp_incremental),
        Check::new(
            "kernel/gp/finite-domain-equals-scratch",
            finite_domain::finite_domain_equals_scratch,
        ),
        Check::new(
            "kernel/gp/weight-space-equals-function-space",
            gp::gp_weight_space,
        ),
        Check::new(
            "kernel/nystrom/reconstruction",
            nystrom::nystrom_reconstruction,
        ),
        Check::new(
            "kernel/information-gain/greedy-vs-exact",
            information_gain::greedy_vs_exact,
        ),
        Check::new("kernel/errors/typed", errors::typed_errors),
    ]
}

fn rng(seed: u64) -> ChaCha20Rng {
    ChaCha20Rng::seed_from_u64(seed)
}

fn uniform_points(n: usize, d: usize, r: &mut ChaCha20Rng) -> Array2<f64> {
    Array2::from_shape_fn((n, d), |_| r.random::<f64>())
}

/// `max |K - Phi Phi^T|` of a feature map on the rows of `x`.
fn feature_gram_error<K: Kernel, F: FeatureMap>(
    k: &K,
    f: &F,
    x: ArrayView2<'_, f64>,
) -> Result<f64, CheckError> {
    let phi = f.map_batch(x)?;
    Ok(max_abs_diff(&k.gram(x)?, &phi.dot(&phi.t())))
}
