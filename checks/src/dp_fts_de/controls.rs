//! Positive controls of the server-release audits: the known ways to break Algorithm 1's
//! calibration, written here (never in the crate) on top of the real mechanism's
//! deterministic part ([`SubsampledGaussian::aggregate_with`]) with our own noise, or the real
//! release against a wrongly accounted claim. Each must be flagged by the same auditor on the
//! same pair as `dp-fts-de/audit/*` for the check to pass.

use dp_fts_de::{PrivateAggregator, RoundInput};
use ndarray::Array2;
use privacy::Mechanism;
use privacy::mechanisms::WeightCalibration;
use privacy::mechanisms::subsampled::SubsampledGaussian;
use privacy::sampler::{Grid, NoiseSampler, Norm, Sampler};
use rand_chacha::ChaCha20Rng;

use super::audits::{
    AGENTS, AUDIT_DELTA, CLIP, FEATURES, ROUND, RoundPair, SUB_REGIONS, SUBSAMPLED_DELTA,
    audit_weights, other_vectors, subsampled_audit, weights_for,
};

/// `P` of the mean-weight control (see [`mean_weight_noise`]).
const MEAN_WEIGHT_REGIONS: usize = 8;
use crate::shared::{ALPHA, Expect, audit_outcome};
use verification::audit::{AuditConfig, audit};
use verification::{CheckError, CheckResult, Context};
use verification::{CheckKind, Verdict};

/// One broken round at `q = 1` (everyone selected): the deterministic part of `lines 9-10` by
/// `deterministic` (the real [`SubsampledGaussian::aggregate_with`] of some mechanism), plus
/// hardened discrete Gaussian noise of standard deviation `sigma` on the real mechanism's grid.
fn broken_release<'a>(
    deterministic: &'a SubsampledGaussian,
    real: &SubsampledGaussian,
    phi_max: f64,
    weights: &Array2<f64>,
    sigma: f64,
) -> Result<
    impl Fn(&RoundInput, &mut ChaCha20Rng) -> Result<Array2<f64>, CheckError> + Sync + 'a,
    CheckError,
> {
    let (agents, p) = weights.dim();
    let grid = Grid::for_sensitivity(real.sensitivity(phi_max), p * FEATURES, Norm::L2)?;
    let weights = weights.clone();
    Ok(
        move |input: &RoundInput, rng: &mut ChaCha20Rng| -> Result<Array2<f64>, CheckError> {
            let mut stacked = Array2::zeros((agents, FEATURES));
            for (n, v) in input.vectors.iter().enumerate() {
                stacked.row_mut(n).assign(&v.as_view());
            }
            let mut noise = Array2::zeros((p, FEATURES));
            for e in &mut noise {
                *e = Sampler::Hardened.perturb_gaussian(0.0, sigma, grid, rng)?;
            }
            let out = deterministic.aggregate_with(
                stacked.view(),
                weights.view(),
                &vec![true; agents],
                noise.view(),
            )?;
            Ok(out)
        },
    )
}

/// The shared body of the two `q = 1` controls: audit `broken` on the pair (the target with a
/// vector of norm `norm`, the other agents as in `dp-fts-de/audit/server-round`) against the
/// real aggregator's claim.
fn q1_control<F>(
    ctx: &Context,
    real: &PrivateAggregator,
    broken: F,
    norm: f64,
    what: &str,
) -> CheckResult
where
    F: Fn(&RoundInput, &mut ChaCha20Rng) -> Result<Array2<f64>, CheckError> + Sync,
{
    let agents = real.weights().n_agents();
    let others = other_vectors(ctx.sub_seed("others"), agents);
    let pair = RoundPair::new(real.mechanism(), real.weights(), ROUND, norm, Some(&others))?;
    let n = ctx.mode.pick(50_000, 250_000);
    let cfg = AuditConfig::new(n, ALPHA, ctx.check_seed())
        .train(n / 2)
        .delta(AUDIT_DELTA)
        .gaussian(None);
    let claim = real.claim();
    let r = audit(
        broken,
        &pair.with,
        &pair.without,
        &claim,
        &pair.statistic(),
        &cfg,
    )?;
    Ok(audit_outcome(
        ctx,
        CheckKind::PositiveControl,
        format!(
            "one round of Algorithm 1 (N = {agents}, P = {}, M = {FEATURES}, S = {CLIP}, q = 1, z = 1, round-0 weights) {what}, claiming {}",
            real.weights().n_regions(),
            claim.subject
        ),
        &r,
        Expect::Flagged,
    ))
}

/// Line 9 skipped: the vectors are not clipped (the deterministic part of a mechanism whose
/// bound is `10^9 S`), the noise is the real `sigma`. Pair: agent 0 with a vector of norm
/// `4 S / sqrt(P)` (four times the bound) vs absent, so the shift is four times the one the
/// calibration allows.
pub(super) fn no_clipping(ctx: &Context) -> CheckResult {
    let real_mech = SubsampledGaussian::new(1.0, CLIP, 1.0)?;
    let real = PrivateAggregator::new(audit_weights()?, real_mech.clone());
    let unclipped = SubsampledGaussian::new(1.0, 1e9 * CLIP, 1.0)?;
    let phi_max = real.weights().phi_max(ROUND);
    let w = real.weights().at(ROUND);
    let broken = broken_release(&unclipped, &real_mech, phi_max, &w, real.sigma(ROUND))?;
    let norm = 4.0 * real_mech.clip_bound(SUB_REGIONS);
    q1_control(
        ctx,
        &real,
        broken,
        norm,
        &format!(
            "WITHOUT clipping (line 9 skipped), agent 0's vector of norm {norm:.3} = 4 S / sqrt(P) vs absent"
        ),
    )
}

/// Line 11 with the mean weight: noise `z (1 / N) S / q` instead of `z phi_max S / q` (times
/// the grid slack), vectors clipped as they should be. At round 0 `phi_max` is about `P / N`,
/// so the noise is `1 / P` of the calibrated one and the pair's `mu` is `P / sqrt(P) =
/// sqrt(P)` times the claim's. At `P = 2` that is `mu = 1.41` against the claim's 1, which
/// this budget cannot certify below the RDP claim's trade-off curve (measured: `mu_lower =
/// 1.34`, not flagged); the control therefore uses `P = 8` (`N = 16`, two agents per
/// sub-region; `mu = 2.83`). Pair: agent 0 at the bound vs absent, round 0.
pub(super) fn mean_weight_noise(ctx: &Context) -> CheckResult {
    let real_mech = SubsampledGaussian::new(1.0, CLIP, 1.0)?;
    let p = MEAN_WEIGHT_REGIONS;
    let real = PrivateAggregator::new(weights_for(2 * p, p)?, real_mech.clone());
    let phi_max = real.weights().phi_max(ROUND);
    let w = real.weights().at(ROUND);
    let mean_weight = 1.0 / real.weights().n_agents() as f64;
    let sigma = real_mech.sigma(mean_weight);
    let broken = broken_release(&real_mech, &real_mech, phi_max, &w, sigma)?;
    q1_control(
        ctx,
        &real,
        broken,
        real_mech.clip_bound(p),
        &format!(
            "with the noise scaled by the mean weight 1/N = {mean_weight} instead of phi_max = {phi_max:.6} (sigma {sigma:.4} instead of {:.4}), agent 0's vector at the bound vs absent",
            real.sigma(ROUND)
        ),
    )
}

/// The realised-weights calibration with the row norm divided by `P` instead of `sqrt(P)`:
/// noise `z max_n ||phi_n|| S / (P q)`, `1 / sqrt(P)` of what the bound
/// `max_n ||phi_n|| S / (sqrt(P) q)` needs (erratum 13), vectors clipped as they should be. As
/// for the mean-weight control, `P = 8` (`N = 16`, round 0: the pair's `mu` is `sqrt(8) = 2.83`
/// times the claim's) so that the quick budget certifies it. Pair: agent 0 at the bound vs
/// absent; the claim is the real `RowNorm` mechanism's.
pub(super) fn row_norm_over_p(ctx: &Context) -> CheckResult {
    let real_mech =
        SubsampledGaussian::new(1.0, CLIP, 1.0)?.with_calibration(WeightCalibration::RowNorm);
    let p = MEAN_WEIGHT_REGIONS;
    let real = PrivateAggregator::new(weights_for(2 * p, p)?, real_mech.clone());
    let w = real.weights().at(ROUND);
    let scale = real_mech.weight_scale(w.view());
    let sigma = real_mech.sigma(scale / (p as f64).sqrt());
    let broken = broken_release(&real_mech, &real_mech, scale, &w, sigma)?;
    q1_control(
        ctx,
        &real,
        broken,
        real_mech.clip_bound(p),
        &format!(
            "with the realised-weights noise divided by P instead of sqrt(P) (sigma {sigma:.4} instead of {:.4}), agent 0's vector at the bound vs absent",
            real.sigma(ROUND)
        ),
    )
}

/// The accountant fed a wrong sampling rate: the real release at `q = 0.25`, `z = 1` (as
/// `dp-fts-de/audit/subsampled-round`) against the one-round claim and the PLD epsilon of
/// `q / 2 = 0.125` (0.288 at `delta = 1e-2`, against the pair's exact 0.742). The same test
/// must be violated; 400 000 held-out outputs per input certify about 0.63 (a factor 2 in `q`
/// is flagged with a wide margin at this delta; at `delta = 1e-5` only `q / 8` was).
pub(super) fn wrong_q_accountant(ctx: &Context) -> CheckResult {
    let (q, z) = (0.25, 1.0);
    let wrong = q / 2.0;
    let a = subsampled_audit(ctx, q, z, wrong, ctx.mode.pick(400_000, 2_000_000))?;
    let (r, pld) = (&a.result, a.pld);
    let mut o = audit_outcome(
        ctx,
        CheckKind::PositiveControl,
        format!(
            "one release of Algorithm 1 (PrivateAggregator, N = {AGENTS}, P = {SUB_REGIONS}, M = {FEATURES}, S = {CLIP}) at q = {q}, z = {z}, accounted at q = {wrong}: {}",
            r.claim.subject
        ),
        r,
        Expect::Flagged,
    );
    o.verdict = if a.violated {
        Verdict::Pass
    } else {
        Verdict::Fail
    };
    o.claim = format!(
        "the test of dp-fts-de/audit/subsampled-round is violated: a certified point below the wrong claim's curve, or eps_lower above the PLD epsilon {pld:.4} of q = {wrong} at delta = {SUBSAMPLED_DELTA:e}"
    );
    o.measured.push_str(&format!(
        "; PLD epsilon at the wrong q = {pld:.4}{}",
        a.text
    ));
    Ok(o.value("pld_epsilon_wrong_q", pld)
        .value("q", q)
        .value("accounted_q", wrong))
}
