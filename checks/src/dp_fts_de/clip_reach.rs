//! DP-FTS-DE's clipping measured from the server's releases: one agent's vector far beyond the
//! clip against the same agent at zero, the round released twice under one seed (the
//! subsample and the noise are the same draws, so they cancel), and the change of the release
//! held against the sensitivity the noise is calibrated for (issue 31: audited inputs never
//! exceeded the bound, so a clip wider than the calibration's, or none, went unseen).
//!
//! # What is recomputed
//! `docs/dp-fts-de.md`, "Privacy" and erratum 13 (the realised-weights calibration,
//! [`privacy::mechanisms::WeightCalibration::RowNorm`]): agent `n`'s vector is clipped to
//! `||omega_hat_n|| <= S / sqrt(P)` (Algorithm 1, line 9) and enters the joint output
//! `(omega^(i))_i` as `(phi_n^(i) omega_hat_n / q)_i` (line 10), of L2 norm
//! `||phi_n|| ||omega_hat_n|| / q <= max_n ||phi_n|| S / (sqrt(P) q)`, computed here from the
//! public weight matrix. With round-robin weights every row has the same norm, so the bound is
//! reached by any one agent whose vector is clipped (the paper's `phi_max` calibration bounds
//! `||phi_n||` by `sqrt(P) phi_max`, loose by up to `sqrt(P)` while the weights are concentrated,
//! and would hide a clip that much too wide).
//!
//! # What is measured
//! The server's private round ([`dp_fts_de::PrivateAggregator`], through
//! [`dp_fts_de::CentralServer::private_round`]) on agent 0's vector `10^6 e_0` (the others at
//! zero) and on all zeros, one seed for both: the L2 (Frobenius) norm of the difference of the
//! two `P x M` broadcasts. When agent 0 is not in the seed's subsample the difference is zero;
//! the first seed (of at most 200) whose subsample holds it is used. The hardened sampler rounds
//! the exact aggregate to a grid of width at most `2^-20` of the sensitivity per `sqrt(P M)`,
//! so the measured change is exact up to that: the relative allowance is [`TOLERANCE`].

use crate::shared::{ClipReach, ReachJudgement, reach_control_outcome};
use dp_fts_de::{AgentVector, CentralServer, RoundInput, SubRegionWeights, Weighting};
use ndarray::Array1;
use privacy::mechanisms::WeightCalibration;
use privacy::mechanisms::subsampled::SubsampledGaussian;
use privacy::{Mechanism, Sampler};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use verification::{CheckError, CheckResult, Context};

/// `N` agents, `P` sub-regions, `M` features (the round-noise check's shape).
const SHAPE: (usize, usize, usize) = (50, 5, 50);

/// `(q, z, S)`: the paper's `q` and `z = 1` (Sec. 5.1), `S = 11`.
const SETTINGS: (f64, f64, f64) = (0.25, 1.0, 11.0);

/// The iteration whose weights are used (non-adaptive weights: the same at every iteration).
const ROUND: usize = 1;

/// The raw size of agent 0's vector, far beyond the clip `S / sqrt(P)`.
const FAR: f64 = 1e6;

/// The relative rounding allowance: a few grid widths of the hardened sampler (`2^-20` of the
/// sensitivity in all) and floating-point sums.
const TOLERANCE: f64 = 4e-6;

/// The fraction of the bound the measured change must reach, so that a bound too small (or a
/// pair that does not reach it) is visible.
const REACHED: f64 = 0.99;

/// Seeds tried for one whose subsample holds agent 0 (each does with probability `q`).
const MAX_SEEDS: usize = 200;

/// What one measurement shows.
struct Reach {
    /// The L2 norm of the change of the broadcast.
    change: f64,
    /// The recomputed bound `max_n ||phi_n|| S / (sqrt(P) q)`.
    bound: f64,
    /// The sensitivity the server's noise is calibrated for: its `sigma / (z (1 + 2^-20))`.
    calibrated: f64,
    /// The seeds tried until agent 0 was in the subsample.
    seeds: usize,
}

fn vectors(far: bool) -> Result<Vec<AgentVector>, CheckError> {
    let (n, _, m) = SHAPE;
    (0..n)
        .map(|k| {
            let mut v = Array1::zeros(m);
            if far && k == 0 {
                v[0] = FAR;
            }
            Ok(AgentVector::new(v)?)
        })
        .collect()
}

fn measure(ctx: &Context) -> Result<Reach, CheckError> {
    let (n, p, _) = SHAPE;
    let (q, z, s) = SETTINGS;
    let weights = SubRegionWeights::new(
        SubRegionWeights::round_robin(n, p),
        p,
        15.0,
        Weighting::NonAdaptive,
    )?;
    let w = weights.at(ROUND);
    let row = w
        .rows()
        .into_iter()
        .map(|r| r.dot(&r).sqrt())
        .fold(0.0, f64::max);
    let bound = row * s / ((p as f64).sqrt() * q);
    let mech = SubsampledGaussian::new(q, s, z)?.with_calibration(WeightCalibration::RowNorm);
    let server = CentralServer::private(weights, mech, (n as f64).powf(-1.1))?;
    let round = server
        .private_round()
        .ok_or_else(|| CheckError::msg("the private server has no private round"))?;
    let calibrated = round.sigma(ROUND) / (z * Sampler::Hardened.sensitivity_factor());
    let with = RoundInput {
        t: ROUND,
        vectors: vectors(true)?,
    };
    let without = RoundInput {
        t: ROUND,
        vectors: vectors(false)?,
    };
    for k in 0..MAX_SEEDS {
        let seed = ctx.sub_seed(&format!("pair-{k}"));
        let a = round.release(&with, &mut ChaCha20Rng::seed_from_u64(seed))?;
        let b = round.release(&without, &mut ChaCha20Rng::seed_from_u64(seed))?;
        let change = a
            .vectors()
            .iter()
            .zip(b.vectors().iter())
            .map(|(x, y)| (x - y) * (x - y))
            .sum::<f64>()
            .sqrt();
        // Not in the subsample: the two releases are the same draws of the same aggregate.
        if change > 1e-6 * bound {
            return Ok(Reach {
                change,
                bound,
                calibrated,
                seeds: k + 1,
            });
        }
    }
    Err(CheckError::msg(format!(
        "agent 0 was in none of {MAX_SEEDS} subsamples"
    )))
}

const SUBJECT: &str = "DP-FTS-DE's central server (N = 50, P = 5, M = 50, q = 0.25, z = 1, S = 11, round-robin non-adaptive weights, realised-weights calibration RowNorm, hardened sampler): agent 0's vector 10^6 e_0 against 0, one seed";

/// `dp-fts-de/recompute/clip-reach`.
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
            "the change of the release is at most the recomputed sensitivity and the calibrated one (relative allowance {TOLERANCE:e}), and at least {REACHED} of the recomputed one; nothing random is judged"
        ),
        [
            "L2 change of the broadcast vs max_n ||phi_n|| S / (sqrt(P) q) recomputed from the public weights".to_string(),
            "L2 change of the broadcast vs the sensitivity the server's noise is calibrated for (sigma / z)".to_string(),
            format!("{REACHED} times the recomputed bound vs the L2 change (the bound is reached)"),
        ],
        TOLERANCE,
        REACHED,
    )
    .value("seeds_tried", r.seeds);
    o.measured
        .push_str(&format!("; agent 0 in the subsample of seed {}", r.seeds));
    Ok(o)
}

/// `dp-fts-de/control/clip-reach-halved`: the same measurement held to half the recomputed
/// bound must exceed it (a measurement that cannot tell a clip twice too wide fails the run).
pub(super) fn control_halved(ctx: &Context) -> CheckResult {
    let r = measure(ctx)?;
    Ok(reach_control_outcome(
        SUBJECT,
        "dp-fts-de/recompute/clip-reach's measurement exceeds half the recomputed sensitivity; a control judged otherwise fails the run",
        &[ReachJudgement::new(
            "L2 change of the broadcast vs half of max_n ||phi_n|| S / (sqrt(P) q)",
            r.change,
            r.bound / 2.0,
            TOLERANCE,
        )],
    ))
}
