//! The privacy sweep's check: GP-UCB on CTL-privatised rewards, regret against epsilon.

use super::scaling::{SCALING_NOISE, rkhs_environment};
use crate::shared::ALPHA;
use ::ldp_bo::ConvertToLaplace;
use bandit::agent::{Curator, Feedback};
use bandit::baselines::{GpUcb, IgpUcbParams};
use bandit::objective::RkhsEnvironment;
use bandit::runner::{RunConfig, Runner};
use rand_chacha::ChaCha20Rng;
use verification::CheckKind;
use verification::scaling::privacy_sweep;
use verification::{CheckError, CheckResult, Context, Outcome};

/// CTL's privatised reward as the message of a non-private agent (the learner sees only
/// `clip(y) + Laplace(2 (B + R) / eps)`).
pub(super) struct CtlRewards(ConvertToLaplace);

impl Curator for CtlRewards {
    type Message = f64;
    type Error = privacy::PrivacyError;
    fn curate<R: rand::Rng + ?Sized>(
        &mut self,
        feedback: &Feedback<'_>,
        rng: &mut R,
    ) -> Result<f64, Self::Error> {
        self.0.privatize(feedback.reward, rng)
    }
}

pub(super) fn scaling_privacy_sweep(ctx: &Context) -> CheckResult {
    let _id = ctx.id();
    let horizon = ctx.mode.pick(128, 256);
    let seeds = ctx.mode.pick(16, 48);
    let epsilons = [0.5, 1.0, 2.0, 4.0, 8.0, 16.0];
    // B + R of CTL: |f| <= 1 and the Gaussian noise (sd 0.1) clipped at 0.5.
    let (b, r_bound) = (1.0, 0.5);
    let regret = |eps: f64, seed: u64| -> Result<f64, CheckError> {
        let ctl = ConvertToLaplace::new(eps, b, r_bound)?;
        // The message noise: Laplace (sd sqrt 2 times its scale) plus the reward noise.
        let r_msg = std::f64::consts::SQRT_2 * ctl.scale() + SCALING_NOISE;
        let curve = Runner::new(
            RunConfig::single(horizon, seed),
            rkhs_environment,
            |env: &RkhsEnvironment, _: &mut ChaCha20Rng| {
                GpUcb::new(
                    env.info.1.clone(),
                    horizon,
                    IgpUcbParams {
                        r: r_msg,
                        ..IgpUcbParams::with_norm_bound(env.info.0)
                    },
                )
            },
        )
        .curator(|_: &RkhsEnvironment, _: &mut ChaCha20Rng| {
            Ok::<_, privacy::PrivacyError>(CtlRewards(ctl.clone()))
        })
        .trial(0)
        .map(|r| r.cumulative_regret)?;
        curve
            .last()
            .copied()
            .ok_or_else(|| CheckError::msg("empty regret curve"))
    };
    let sweep = privacy_sweep(regret, &epsilons, seeds, 1.0, ALPHA, ctx.check_seed())?;
    let measured = format!(
        "{}: exponent k of R_T ~ eps^-k = {:.3}, interval [{:.3}, {:.3}]; mean R_T at eps {:?}: {:?}",
        sweep.verdict.to_string().to_uppercase(),
        sweep.exponent,
        sweep.exponent_lower,
        sweep.exponent_upper,
        epsilons,
        sweep
            .mean
            .iter()
            .map(|m| (m * 100.0).round() / 100.0)
            .collect::<Vec<_>>()
    );
    Ok(Outcome::new(
        CheckKind::Scaling,
        format!("GP-UCB on CTL-privatised rewards (B + R = 1.5), RKHS synthetic, T = {horizon}, {seeds} seeds per epsilon"),
        format!(
            "regret does not increase with eps and grows no faster than 1/eps as eps decreases (the noise scale, hence R in the IGP-UCB bound, is 2(B+R)/eps): exponent interval within [0, 1] at level 1 - {ALPHA:e}"
        ),
        measured,
        sweep.verdict,
    )
    .value("exponent", sweep.exponent)
    .value("exponent_lower", sweep.exponent_lower)
    .value("exponent_upper", sweep.exponent_upper)
    .value("epsilons", epsilons)
    .value("mean_regret", &sweep.mean)
    .false_alarm(ALPHA))
}
