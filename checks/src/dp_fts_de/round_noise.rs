//! DP-FTS-DE's server noise measured from its broadcasts and held against the noise its
//! reported privacy loss needs over the releases it made, recomputed without the crate's
//! accountant (issue 31: the loss is computed from the same `q` and `z` that set the noise).
//!
//! # What is recomputed
//! - *Sensitivity* (`docs/dp-fts-de.md`, "Privacy"; Algorithm 1, lines 9-11): one agent's
//!   clipped vector enters the joint output with L2 norm at most `phi_max S / q`, `phi_max` the
//!   largest public weight of the round (computed here from the weight matrix).
//! - *Privacy of `T` rounds*: the Poisson-subsampled Gaussian with rate `q` and noise multiplier
//!   `z` has, at integer order `a`, RDP `ln A_a / (a - 1)` with
//!   `A_a = sum_k C(a, k) (1 - q)^(a - k) q^k exp((k^2 - k) / (2 z^2))` (Mironov, Talwar & Zhang
//!   2019, Sec. 3.3), written here again in log space; `T` rounds add (Mironov 2017, Prop. 1);
//!   the paper's conversion is `eps = min_a T RDP(a) + ln(1/delta) / (a - 1)` over `a = 2..=33`.
//!   The noise multiplier the server's reported `eps` needs over the `T` releases is the
//!   smallest `z` with that `eps(z) <= eps_reported`, by bisection.
//! - Hence `sigma_req = z_req phi_max S / q`.
//!
//! # What is measured
//! - *The composition count*: the releases the check asked for and received (`T = 4`
//!   broadcasts), not the server's own counter.
//! - *The claim*: the server's reported loss after those releases
//!   ([`dp_fts_de::CentralServer::privacy_loss`], the paper's accountant).
//! - *The noise*: the private round on all-zero agent vectors (the aggregate is then pure
//!   noise, whatever the subsample) released 800 times at a fixed iteration: `P M` entries each.

use crate::shared::{
    ALPHA, NoiseJudgement, NoiseLaw, NoiseSample, NoiseVerdict, noise_control_outcome,
    noise_outcome,
};
use dp_fts_de::{AgentVector, CentralServer, RoundInput, SubRegionWeights, Weighting};
use ndarray::Array1;
use privacy::Mechanism;
use privacy::mechanisms::subsampled::SubsampledGaussian;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use verification::{CheckError, CheckResult, Context};

/// `N` agents, `P` sub-regions, `M` features.
pub(super) const SHAPE: (usize, usize, usize) = (50, 5, 50);

/// `(q, z, S)`: the paper's `q` and `z = 1` range (Sec. 5.1), `S = 11`.
pub(super) const SETTINGS: (f64, f64, f64) = (0.25, 1.0, 11.0);

/// Releases whose loss is reported.
const ROUNDS: usize = 4;

/// Releases of the private round measured.
const NOISE_RELEASES: usize = 800;

/// The largest measured / required ratio not reported as a looser calibration.
const LOOSER: f64 = 1.05;

/// `ln C(a, k)`.
fn ln_binomial(a: u32, k: u32) -> f64 {
    (1..=k)
        .map(|i| (f64::from(a - k + i) / f64::from(i)).ln())
        .sum()
}

/// One step's RDP at integer order `a` (Mironov, Talwar & Zhang 2019), in log space.
fn rdp(q: f64, z: f64, a: u32) -> f64 {
    let terms: Vec<f64> = (0..=a)
        .map(|k| {
            let kf = f64::from(k);
            ln_binomial(a, k)
                + f64::from(a - k) * (1.0 - q).ln()
                + kf * q.ln()
                + (kf * kf - kf) / (2.0 * z * z)
        })
        .collect();
    let max = terms.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    (max + terms.iter().map(|t| (t - max).exp()).sum::<f64>().ln()) / f64::from(a - 1)
}

/// The paper's epsilon of `steps` rounds at `delta`.
pub(super) fn epsilon(q: f64, z: f64, steps: usize, delta: f64) -> f64 {
    (2..=33u32)
        .map(|a| steps as f64 * rdp(q, z, a) + (1.0 / delta).ln() / f64::from(a - 1))
        .fold(f64::INFINITY, f64::min)
}

/// The smallest `z` whose `steps`-round epsilon is at most `eps`, by bisection.
fn z_required(q: f64, steps: usize, delta: f64, eps: f64) -> f64 {
    let (mut lo, mut hi) = (0.05, 100.0);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if epsilon(q, mid, steps, delta) <= eps {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    hi
}

pub(super) fn weights() -> Result<SubRegionWeights, CheckError> {
    let (n, p, _) = SHAPE;
    Ok(SubRegionWeights::new(
        SubRegionWeights::round_robin(n, p),
        p,
        15.0,
        Weighting::NonAdaptive,
    )?)
}

pub(super) fn zeros() -> Result<Vec<AgentVector>, CheckError> {
    let (n, _, m) = SHAPE;
    (0..n)
        .map(|_| Ok(AgentVector::new(Array1::zeros(m))?))
        .collect()
}

/// A server at noise multiplier `z`: its reported epsilon after `rounds` releases (counted
/// here) and its round noise at iteration 1.
fn measure(z: f64, rounds: usize, seed: u64) -> Result<(f64, f64, NoiseSample), CheckError> {
    let (q, _, s) = SETTINGS;
    let mech = SubsampledGaussian::new(q, s, z)?;
    let delta = (SHAPE.0 as f64).powf(-1.1);
    let mut server = CentralServer::private(weights()?, mech, delta)?;
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let mut received = 0;
    for t in 1..=rounds {
        let b = server.aggregate(t, zeros()?, &mut rng)?;
        received += usize::from(b.vectors().nrows() == SHAPE.1);
    }
    if received != rounds {
        return Err(CheckError::msg(format!(
            "{received} broadcasts of {rounds} had P rows"
        )));
    }
    let eps = server
        .privacy_loss()?
        .ok_or_else(|| CheckError::msg("no privacy loss after the releases"))?
        .epsilon_paper;
    let round = server
        .private_round()
        .ok_or_else(|| CheckError::msg("the private server has no private round"))?;
    let input = RoundInput {
        t: 1,
        vectors: zeros()?,
    };
    let mut draws = Vec::new();
    for _ in 0..NOISE_RELEASES {
        draws.extend(round.release(&input, &mut rng)?.vectors().iter().copied());
    }
    let w = weights()?.at(1);
    let phi_max = w.iter().copied().fold(0.0, f64::max);
    Ok((
        eps,
        phi_max * s / q,
        NoiseSample::new(NoiseLaw::Gaussian, draws),
    ))
}

/// The judgement of a server's noise against the `z` its claim `eps` needs over `releases`.
fn judge(
    what: &str,
    eps: f64,
    releases: usize,
    sens: f64,
    sample: &NoiseSample,
) -> (NoiseJudgement, f64) {
    let (q, _, _) = SETTINGS;
    let delta = (SHAPE.0 as f64).powf(-1.1);
    let z = z_required(q, releases, delta, eps);
    (
        NoiseJudgement::new(
            format!(
                "{what}: reported eps = {eps:.6} after {releases} counted releases (delta = {delta:.3e}) needs z = {z:.6}, sensitivity phi_max S / q = {sens:.6}"
            ),
            sample,
            z * sens,
            LOOSER,
            ALPHA,
        ),
        z,
    )
}

/// `dp-fts-de/recompute/round-noise`.
pub(super) fn round_noise(ctx: &Context) -> CheckResult {
    let (q, z, s) = SETTINGS;
    let (eps, sens, sample) = measure(z, ROUNDS, ctx.check_seed())?;
    let (j, z_req) = judge("the private server", eps, ROUNDS, sens, &sample);
    let self_eps = epsilon(q, z, ROUNDS, (SHAPE.0 as f64).powf(-1.1));
    let mut o = noise_outcome(
        format!(
            "DP-FTS-DE's central server (N = {}, P = {}, M = {}, q = {q}, z = {z}, S = {s}, non-adaptive weights), hardened sampler",
            SHAPE.0, SHAPE.1, SHAPE.2
        ),
        format!(
            "the noise measured from {NOISE_RELEASES} zero-input releases is at least z_req phi_max S / q, with z_req the smallest noise multiplier whose RDP epsilon (Mironov-Talwar-Zhang integer orders 2..33, recomputed, classic conversion) over the {ROUNDS} counted releases is the server's reported loss, and at most {LOOSER} times it; each side at level {ALPHA:e}/2"
        ),
        &[j],
        ALPHA,
    )
    .value("z_required", z_req)
    .value("epsilon_recomputed_at_z", self_eps);
    o.measured.push_str(&format!(
        "; the recomputed accountant gives eps = {self_eps:.6} at z = {z}"
    ));
    Ok(o)
}

/// `dp-fts-de/control/round-noise-one-step-fewer`: (a) the server's loss after `T - 1` releases
/// reported for `T` (the accountant one composition step short), (b) the noise of `z / 2` (the
/// sensitivity halved) under the loss reported for `z`: both must be below the claim.
pub(super) fn control_one_step_fewer(ctx: &Context) -> CheckResult {
    let (_, z, _) = SETTINGS;
    let (eps_short, sens, sample) = measure(z, ROUNDS - 1, ctx.sub_seed("short"))?;
    let (a, _) = judge(
        "the loss of T - 1 releases reported for T",
        eps_short,
        ROUNDS,
        sens,
        &sample,
    );
    let (eps, _, _) = measure(z, ROUNDS, ctx.sub_seed("claim"))?;
    let (_, sens, halved) = measure(z / 2.0, ROUNDS, ctx.sub_seed("halved"))?;
    let (b, _) = judge(
        "noise of z / 2 under the loss of z",
        eps,
        ROUNDS,
        sens,
        &halved,
    );
    Ok(noise_control_outcome(
        "DP-FTS-DE's server reporting the loss of one release fewer than it made, and its noise at half the sensitivity",
        "dp-fts-de/recompute/round-noise finds both noises below what the reported loss needs over the counted releases; a control judged otherwise fails the run",
        &[(a, NoiseVerdict::BelowClaim), (b, NoiseVerdict::BelowClaim)],
    ))
}
