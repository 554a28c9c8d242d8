//! Audit of the whole pipeline: one user's stream of messages, and a half-noise control.

use super::curator::curator;
use crate::shared::{ALPHA, Expect, audit_outcome};
use bandit::BanditError;
use bandit::env::RecordedStream;
use bandit::runner::{RoundView, RunConfig, Runner};
use ldp_bo::{CtlCurator, LdpBoError, Preset, PrivateReward, TgpParams, TgpUcb};
use ndarray::Array2;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha20Rng;
use std::sync::Arc;
use verification::CheckKind;
use verification::audit::statistic::MeanDifferenceProjection;
use verification::audit::{AuditConfig, audit};
use verification::{CheckResult, Context};

/// Rounds of the pipeline audit and the user whose data changes.
pub(super) const PIPELINE_ROUNDS: usize = 12;

pub(super) const PIPELINE_USER: usize = 3;

pub(super) fn pipeline_user_stream(ctx: &Context) -> CheckResult {
    pipeline_audit(
        ctx,
        1.0,
        CheckKind::Audit,
        Expect::Holds {
            min_tightness: None,
        },
    )
}

pub(super) fn control_pipeline_half_noise(ctx: &Context) -> CheckResult {
    // The same pipeline with a curator calibrated for eps = 2 (half the noise), audited against
    // the eps = 1 claim: the black-box audit of the transcript must flag it.
    pipeline_audit(ctx, 2.0, CheckKind::PositiveControl, Expect::Flagged)
}

pub(super) fn pipeline_audit(
    ctx: &Context,
    curator_epsilon: f64,
    kind: CheckKind,
    expect: Expect,
) -> CheckResult {
    let claimed = curator()?;
    let c = CtlCurator::new(curator_epsilon, 1.0, 1.0)?;
    // A fixed data set: user t's raw rewards for each of 10 arms (in [-2, 2]).
    let n_arms = 10;
    let arms = Array2::from_shape_fn((n_arms, 1), |(i, _)| i as f64 / (n_arms - 1) as f64);
    let mut data_rng = ChaCha20Rng::seed_from_u64(ctx.seed_for("ldp-bo/pipeline/data"));
    let base = Array2::from_shape_fn((PIPELINE_ROUNDS, n_arms), |_| {
        4.0 * data_rng.random::<f64>() - 2.0
    });
    // Neighbours: user PIPELINE_USER's rewards all -(B+R) vs all +(B+R).
    let mut low = base.clone();
    let mut high = base;
    low.row_mut(PIPELINE_USER).fill(-2.0);
    high.row_mut(PIPELINE_USER).fill(2.0);
    let kernel = Arc::new(kernel::SquaredExponential::isotropic(0.2)?);
    // One run of the runner on the recorded stream (its own seeded streams for the agent and
    // the curator, from a seed the audit draws), observed: the transcript is every action and
    // every message the learner receives.
    let transcript =
        |users: &Array2<f64>, rng: &mut ChaCha20Rng| -> Result<Vec<f64>, BanditError> {
            let mut out = Vec::with_capacity(2 * PIPELINE_ROUNDS);
            let mut record = |r: &RoundView<'_, PrivateReward>| {
                out.push(r.action as f64);
                out.push(r.message.value());
            };
            Runner::new(
                RunConfig::single(PIPELINE_ROUNDS, rng.random::<u64>()),
                |_: &mut ChaCha20Rng| RecordedStream::new(arms.clone(), users.clone()),
                |_: &RecordedStream, _: &mut ChaCha20Rng| {
                    TgpUcb::private(
                        kernel.clone(),
                        arms.view(),
                        &c,
                        TgpParams::of(Preset::Practical),
                    )
                },
            )
            .curator(|_: &RecordedStream, _: &mut ChaCha20Rng| Ok::<_, LdpBoError>(c.clone()))
            .trial_observed(0, &mut record)?;
            Ok(out)
        };
    let n = ctx.mode.pick(100_000, 500_000);
    let cfg = AuditConfig::new(n, ALPHA, ctx.check_seed()).train(n / 2);
    let r = audit(
        transcript,
        &low,
        &high,
        &claimed.claim(),
        &MeanDifferenceProjection,
        &cfg,
    )?;
    Ok(audit_outcome(
        ctx,
        kind,
        format!(
            "LDP-TGP-UCB transcript (actions and CTL messages of {PIPELINE_ROUNDS} users, 10 arms) when user {PIPELINE_USER}'s rewards change from -2 to 2 on every arm; curator {}, claim {}",
            c.claim().subject,
            claimed.claim().subject
        ),
        &r,
        expect,
    ))
}
