//! The error-rate scaling checks against Theorem 4.1, `ER = O(sqrt(gamma_T / T) + gamma_T / (T eps))`.
//!
//! - In `T` at fixed `eps = 4`: horizons 64..2048, the certified sensitivity (the proven
//!   `2B / tau` does not fall with `T`, so with it the privacy term stays constant: see
//!   docs/usca.md), `|Z| = min(T K, 512)`. For SE on `W` of dimension 2, `gamma_T = O((ln T)^3)`,
//!   so the theorem's rate is `T^{-1/2} (ln T)^{3/2}`: exponent `-1/2`, log power `3/2`. The
//!   control stops learning after 64 rounds (its estimator, `Z` and sensitivity are those of
//!   `T = 64` at every horizon): the same test must fail.
//! - In `eps` at `T = 512`: `eps` in {0.25, 1, 4, 16}; the exponent `k` of `ER ~ eps^-k` must lie
//!   in `[0, 1]` (the error rate rises as `eps` falls, no faster than the theorem's `1 / eps`).
//!   The control passes `1 / eps` for `eps` (the error rate then falls as `eps` falls): the
//!   same sweep must fail.
//!
//! Each run draws its own problem (f), learning data, `Z` and 300 evaluation contexts; the
//! error rate is exact over the mechanism's coins ([`usca::ContextualProblem::error_rate`]).

use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use usca::certificate::DEFAULT_REFINEMENT_CONTEXTS;
use usca::synthetic::SyntheticProblem;
use usca::{ApproximatingSetSize, LearningData, SensitivityRule, Usca, UscaParams, learning_stage};

use crate::shared::{ALPHA, scaling_config, scaling_outcome};
use verification::scaling::{check_scaling, privacy_sweep};
use verification::{CheckKind, Verdict};
use verification::{CheckResult, Context};

const HORIZONS: [usize; 6] = [64, 128, 256, 512, 1024, 2048];
const EPS_FIXED: f64 = 4.0;
const T_SWEEP: usize = 512;
const EPSILONS: [f64; 4] = [0.25, 1.0, 4.0, 16.0];
const FROZEN_ROWS: usize = 64;

fn params() -> UscaParams {
    UscaParams {
        approximating_set: ApproximatingSetSize::Capped { cap: 512 },
        sensitivity: SensitivityRule::Certified {
            points_per_dim: 64,
            refinement_contexts: DEFAULT_REFINEMENT_CONTEXTS,
        },
        ..UscaParams::default()
    }
}

/// One run's error rate at horizon `t` and budget `eps`; `frozen` keeps only the first
/// [`FROZEN_ROWS`] learning rows (the control).
fn error_rate(t: usize, eps: f64, seed: u64, frozen: bool) -> Result<f64, usca::UscaError> {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let spec = SyntheticProblem::default();
    let inst = spec.sample(&mut rng)?;
    let p = params();
    let mut data = learning_stage(&inst.problem, t, p.reward_bound, &mut rng)?;
    if frozen && t > FROZEN_ROWS {
        // The broken algorithm: it stops learning after round 64 (the estimator, Z and the
        // sensitivity are those of T = 64, whatever the horizon).
        let idx: Vec<usize> = (0..FROZEN_ROWS).collect();
        let pts = data.points().select(ndarray::Axis(0), &idx);
        let y = data.rewards().select(ndarray::Axis(0), &idx);
        data = LearningData::new(pts, y, p.reward_bound)?;
    }
    let u = Usca::from_data(
        &inst.problem,
        inst.kernel.clone(),
        Some(&inst.kernel),
        p,
        data,
        &mut rng,
    )?;
    Ok(inst
        .problem
        .error_rate(|c| u.probabilities(c, eps), 300, &mut rng)?
        .mean)
}

fn in_t(
    ctx: &Context,
    frozen: bool,
    kind: CheckKind,
    expected: Verdict,
    subject: &str,
) -> CheckResult {
    let cfg = scaling_config(
        HORIZONS.to_vec(),
        ctx.mode.pick(16, 32),
        ctx.check_seed(),
        -0.5,
        1.5,
    );
    let r = check_scaling(|t, seed| error_rate(t, EPS_FIXED, seed, frozen), &cfg)?;
    let o = scaling_outcome(ctx, kind, subject, &r, expected);
    Ok(if kind == CheckKind::Scaling {
        o.false_alarm(ALPHA)
    } else {
        o
    })
}

pub(super) fn error_rate_in_t(ctx: &Context) -> CheckResult {
    in_t(
        ctx,
        false,
        CheckKind::Scaling,
        Verdict::Pass,
        "USCA error rate vs T at eps = 4 (certified sensitivity, SE, d_C = 1)",
    )
}

pub(super) fn frozen_data(ctx: &Context) -> CheckResult {
    in_t(
        ctx,
        true,
        CheckKind::PositiveControl,
        Verdict::Fail,
        "USCA on data frozen after 64 rounds (an estimator that stops learning)",
    )
}

fn in_eps(ctx: &Context, swapped: bool) -> CheckResult {
    let seeds = ctx.mode.pick(12, 24);
    let r = privacy_sweep(
        |eps, seed| error_rate(T_SWEEP, if swapped { 1.0 / eps } else { eps }, seed, false),
        &EPSILONS,
        seeds,
        1.0,
        ALPHA,
        ctx.check_seed(),
    )?;
    let (kind, expected) = if swapped {
        (CheckKind::PositiveControl, Verdict::Fail)
    } else {
        (CheckKind::Scaling, Verdict::Pass)
    };
    let verdict = crate::shared::against_expected(r.verdict, expected);
    let o = verification::Outcome::new(
        kind,
        if swapped {
            "USCA error rate vs eps with eps and 1/eps swapped"
        } else {
            "USCA error rate vs eps at T = 512 (certified sensitivity)"
        },
        format!(
            "the exponent k of ER ~ eps^-k over eps = {EPSILONS:?} ({seeds} seeds, bootstrap \
             interval at level 1 - {ALPHA:e}) lies in [0, 1]{}",
            if swapped {
                "; the control passes when this fails"
            } else {
                ""
            }
        ),
        format!(
            "{}: k = {:.3}, interval [{:.3}, {:.3}]; mean error rates {:?}",
            r.verdict.to_string().to_uppercase(),
            r.exponent,
            r.exponent_lower,
            r.exponent_upper,
            r.mean
                .iter()
                .map(|v| (v * 1e4).round() / 1e4)
                .collect::<Vec<_>>()
        ),
        verdict,
    )
    .value("exponent", r.exponent)
    .value("exponent_interval", (r.exponent_lower, r.exponent_upper))
    .value("mean_error_rate", &r.mean);
    Ok(if swapped { o } else { o.false_alarm(ALPHA) })
}

pub(super) fn error_rate_in_eps(ctx: &Context) -> CheckResult {
    in_eps(ctx, false)
}

pub(super) fn eps_swapped(ctx: &Context) -> CheckResult {
    in_eps(ctx, true)
}
