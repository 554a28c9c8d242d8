//! Audit of the whole pipeline: one user's stream of messages, and a half-noise control.

use super::curator::curator;
use crate::audit::statistic::MeanDifferenceProjection;
use crate::audit::{AuditConfig, audit};
use crate::check::{CheckResult, Context};
use crate::report::CheckKind;
use crate::shared::{ALPHA, Expect, audit_outcome};
use bandit::agent::{Agent, Curator, Feedback};
use ldp_bo::{CtlCurator, TgpParams, TgpUcb};
use ndarray::Array2;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha20Rng;
use std::sync::Arc;

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
    let base: Vec<Vec<f64>> = (0..PIPELINE_ROUNDS)
        .map(|_| {
            (0..n_arms)
                .map(|_| 4.0 * data_rng.random::<f64>() - 2.0)
                .collect()
        })
        .collect();
    // Neighbours: user PIPELINE_USER's rewards all -(B+R) vs all +(B+R).
    let mut low = base.clone();
    let mut high = base;
    low[PIPELINE_USER] = vec![-2.0; n_arms];
    high[PIPELINE_USER] = vec![2.0; n_arms];
    let kernel = Arc::new(kernel::SquaredExponential::isotropic(0.2)?);
    let transcript =
        |users: &Vec<Vec<f64>>, rng: &mut ChaCha20Rng| -> Result<Vec<f64>, ldp_bo::LdpBoError> {
            let mut agent = TgpUcb::private(kernel.clone(), arms.view(), &c, TgpParams::default())?;
            let mut cur = c.clone();
            let mut out = Vec::with_capacity(2 * PIPELINE_ROUNDS);
            for (t, user) in users.iter().enumerate() {
                let a = agent.select(arms.view(), rng)?;
                let fb = Feedback {
                    round: t,
                    action: a,
                    point: arms.row(a),
                    reward: user[a],
                };
                let m = cur.curate(&fb, rng)?;
                out.push(a as f64);
                out.push(m.value());
                agent.observe(m)?;
            }
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
