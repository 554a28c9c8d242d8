//! Algorithm 2's reward clip measured from the privatizer's releases: one user's reward far
//! beyond `B_y` against the same user with the opposite reward, the stream released twice
//! under one seed (the node noise is the same draws, so it cancels), and the change of each
//! recovered tree node held against the sensitivity the node noise is calibrated for (issue 31:
//! audited rewards never exceeded the bound by much, so a clip removed or wider than the
//! calibration's went unseen).
//!
//! # What is recomputed
//! `docs/jdp-qff.md`, "Algorithm 2" (and [`jdp_qff::JdpCalibration`]'s derivation, step 1):
//! an item is `v v^T`, `v = [Phi(x); clip(y)]`, `||Phi|| <= 1`, `|clip(y)| <= B_y`, and two
//! items differ by at most `Delta = sqrt(2) (1 + B_y^2)` in Frobenius norm, the sensitivity of
//! the default [`privacy::mechanisms::SensitivityBound::Frobenius`] calibration, written here
//! again; also read from the calibration ([`jdp_qff::JdpCalibration::sensitivity`]).
//!
//! # What is measured
//! The privatizer (`m = 32` NQFF, `T = 8`, `B_y = 1`, no PSD shift) on a stream of 8 copies
//! of `(x, 0.5)` whose first item is `(x, +10^6)`, and on the same stream with it
//! `(x, -10^6)`, one seed for both. The nodes are recovered from the prefix sums
//! (`checks/src/shared/tree_nodes.rs`); item 1 lies in nodes 1, 2, 4 and 8, each of which
//! changes by the item's change. The released part of a node is `Sigma` (`m x m`) and `u`
//! (the last column of `v v^T` without its corner `y^2`, which is never released); its
//! Frobenius change as a part of the symmetric `(m+1) x (m+1)` node is
//! `sqrt(||d Sigma||_F^2 + 2 ||d u||^2)`. Clipped, the pair is `v = [Phi; B_y]` against
//! `w = [Phi; -B_y]`: `v v^T - w w^T` is `2 B_y Phi` in the last row and column, zero elsewhere
//! (the corner included), of Frobenius norm `2 sqrt(2) B_y ||Phi||`, which is `Delta` at
//! `B_y = 1` when `||Phi|| = 1` (NQFF of a stationary kernel with `k(x, x) = 1`): the bound is
//! reached. The hardened sampler rounds a node to a grid of `2^-20` of `Delta` in all, hence
//! the allowance [`TOLERANCE`].

use std::sync::Arc;

use super::common::REWARD_BOUND;
use super::tree_noise::features;
use crate::shared::{ClipReach, ReachJudgement, reach_control_outcome, recovered_nodes};
use jdp_qff::{JdpCalibration, JdpPrivatizer, Spectrum};
use kernel::{FeatureMap, QuadratureFourierFeatures};
use ndarray::{Array1, arr1};
use privacy::Mechanism;
use privacy::accountant::zcdp::ZcdpConversion;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use verification::{CheckError, CheckResult, Context};

/// The horizon `T` (`L = 4` levels: item 1 is in nodes 1, 2, 4, 8).
const HORIZON: u64 = 8;

/// The raw reward of the differing item, far beyond `B_y`.
const FAR: f64 = 1e6;

/// The relative rounding allowance (the hardened grid and floating-point sums).
const TOLERANCE: f64 = 4e-6;

/// The fraction of the bound the measured change must reach.
const REACHED: f64 = 0.99;

/// What one measurement shows.
struct Reach {
    /// The largest Frobenius change over the recovered nodes.
    change: f64,
    /// The nodes that changed (1-based rounds of completion).
    nodes: Vec<usize>,
    /// `sqrt(2) (1 + B_y^2)`, recomputed.
    bound: f64,
    /// The calibration's own sensitivity.
    calibrated: f64,
}

/// The released part of one privatizer run per round: `Sigma` (row-major, full) then `u`.
fn run(
    p: &JdpPrivatizer<QuadratureFourierFeatures>,
    stream: &[(Array1<f64>, f64)],
    seed: u64,
) -> Result<Vec<Vec<f64>>, CheckError> {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    Ok(p.release(&stream.to_vec(), &mut rng)?
        .iter()
        .map(|r| r.sigma().iter().chain(r.u().iter()).copied().collect())
        .collect())
}

fn measure(ctx: &Context) -> Result<Reach, CheckError> {
    let f = features()?;
    let m = f.dim();
    let cal = JdpCalibration::new(1.0, 0.1, HORIZON, REWARD_BOUND, ZcdpConversion::Classic)?;
    let calibrated = cal.sensitivity();
    let p = JdpPrivatizer::new(Arc::clone(&f), cal, Spectrum::none())?;
    let x = arr1(&[0.3, -0.2]);
    let t = usize::try_from(HORIZON).map_err(|e| CheckError::msg(e.to_string()))?;
    let mut up = vec![(x.clone(), 0.5); t];
    let mut down = up.clone();
    up[0].1 = FAR;
    down[0].1 = -FAR;
    let seed = ctx.check_seed();
    let a = recovered_nodes(&run(&p, &up, seed)?);
    let b = recovered_nodes(&run(&p, &down, seed)?);
    let mut change: f64 = 0.0;
    let mut nodes = Vec::new();
    for (k, (na, nb)) in a.iter().zip(&b).enumerate() {
        let sq = |r: std::ops::Range<usize>| -> f64 {
            na[r.clone()]
                .iter()
                .zip(&nb[r])
                .map(|(p, q)| (p - q) * (p - q))
                .sum()
        };
        let c = (sq(0..m * m) + 2.0 * sq(m * m..m * m + m)).sqrt();
        if c > 1e-6 {
            nodes.push(k + 1);
        }
        change = change.max(c);
    }
    Ok(Reach {
        change,
        nodes,
        bound: std::f64::consts::SQRT_2 * (1.0 + REWARD_BOUND * REWARD_BOUND),
        calibrated,
    })
}

const SUBJECT: &str = "Algorithm 2's JDP privatizer (m = 32 NQFF, T = 8, B_y = 1, (alpha, beta) = (1, 0.1), no PSD shift, hardened sampler): item 1 (x, +10^6) against (x, -10^6), one seed";

/// `jdp-qff/recompute/clip-reach`.
pub(super) fn clip_reach(ctx: &Context) -> CheckResult {
    let r = measure(ctx)?;
    let mut o = ClipReach {
        change: r.change,
        bound: r.bound,
        calibrated: r.calibrated,
    }
    .outcome(
        SUBJECT,
        format!(
            "the change of every node is at most the recomputed sensitivity and the calibrated one (relative allowance {TOLERANCE:e}), and the largest at least {REACHED} of the recomputed one; nothing random is judged"
        ),
        [
            "largest Frobenius change of a recovered node vs sqrt(2)(1 + B_y^2) recomputed".to_string(),
            "largest Frobenius change of a recovered node vs the calibration's sensitivity".to_string(),
            format!("{REACHED} times the recomputed bound vs the change (the bound is reached)"),
        ],
        TOLERANCE,
        REACHED,
    )
    .value("nodes_changed", &r.nodes);
    o.measured
        .push_str(&format!("; nodes changed: {:?}", r.nodes));
    Ok(o)
}

/// `jdp-qff/control/clip-reach-halved`: the same measurement held to half the recomputed bound
/// must exceed it.
pub(super) fn control_halved(ctx: &Context) -> CheckResult {
    let r = measure(ctx)?;
    Ok(reach_control_outcome(
        SUBJECT,
        "jdp-qff/recompute/clip-reach's measurement exceeds half the recomputed sensitivity; a control judged otherwise fails the run",
        &[ReachJudgement::new(
            "largest Frobenius change of a recovered node vs half of sqrt(2)(1 + B_y^2)",
            r.change,
            r.bound / 2.0,
            TOLERANCE,
        )],
    ))
}
