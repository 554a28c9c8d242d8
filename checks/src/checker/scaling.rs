//! The regret-scaling checker's power checks: exact GP-UCB must PASS against the IGP-UCB bound,
//! uniform random play must FAIL it.

use crate::shared::{scaling_config, scaling_outcome, uniform_play_curve};
use bandit::BanditError;
use bandit::baselines::{GpUcb, IgpUcbParams};
use bandit::noise::RewardModel;
use bandit::objective::{RkhsEnvironment, RkhsSynthetic};
use bandit::runner::{RunConfig, Runner};
use rand_chacha::ChaCha20Rng;
use verification::scaling::{ScalingConfig, check_scaling_curves, geometric_horizons};
use verification::{CheckKind, Verdict};
use verification::{CheckResult, Context};

/// The Zhou & Tan synthetic RKHS problem (100 arms on [0, 1], SE kernel l = 0.2, max |f| = 1)
/// with Gaussian reward noise of standard deviation [`SCALING_NOISE`], annotated with
/// `B = ||f||_H` and the kernel.
pub(super) fn rkhs_environment(rng: &mut ChaCha20Rng) -> Result<RkhsEnvironment, BanditError> {
    RkhsSynthetic::default()
        .sample(rng)?
        .annotated_environment(RewardModel::Gaussian {
            sigma: SCALING_NOISE,
        })
}

/// Reward noise of the scaling power checks.
pub(super) const SCALING_NOISE: f64 = 0.1;

/// The theory the power checks compare with: IGP-UCB (Chowdhury & Gopalan 2017, Theorem 3),
/// `R_T = O(sqrt(T) (B sqrt(gamma_T) + gamma_T))`, and for the SE kernel in `d = 1`
/// `gamma_T = O((ln T)^(d+1))` (Srinivas et al. 2010): exponent 1/2, log factor `(ln T)^2`.
pub(super) fn igp_ucb_theory(horizons: Vec<usize>, seeds: usize, seed: u64) -> ScalingConfig {
    scaling_config(horizons, seeds, seed, 0.5, 2.0)
}

pub(super) fn scaling_gp_ucb(ctx: &Context) -> CheckResult {
    let horizons = geometric_horizons(8, ctx.mode.pick(256, 1024), ctx.mode.pick(6, 8));
    let config = igp_ucb_theory(horizons, ctx.mode.pick(16, 48), ctx.check_seed());
    // One run of horizon T_max per seed (eta = 2 / T_max), every horizon read off its curve.
    let curve = |t_max: usize, seed: u64| {
        Runner::new(
            RunConfig::single(t_max, seed),
            rkhs_environment,
            |env: &RkhsEnvironment, _: &mut ChaCha20Rng| {
                GpUcb::new(
                    env.info.1.clone(),
                    t_max,
                    IgpUcbParams {
                        r: SCALING_NOISE,
                        ..IgpUcbParams::with_norm_bound(env.info.0)
                    },
                )
            },
        )
        .trial(0)
        .map(|r| r.cumulative_regret)
    };
    let r = check_scaling_curves(curve, &config)?;
    Ok(scaling_outcome(
        ctx,
        CheckKind::NegativeControl,
        "exact GP-UCB (IGP-UCB width, B = ||f||_H, R = 0.1, delta = 0.1) on the Zhou & Tan RKHS synthetic (100 arms, SE l = 0.2), Gaussian noise 0.1",
        &r,
        Verdict::Pass,
    ))
}

pub(super) fn scaling_uniform(ctx: &Context) -> CheckResult {
    let horizons = geometric_horizons(100, ctx.mode.pick(100_000, 1_000_000), 7);
    let config = igp_ucb_theory(horizons, ctx.mode.pick(16, 48), ctx.check_seed());
    let r = check_scaling_curves(uniform_play_curve(rkhs_environment), &config)?;
    Ok(scaling_outcome(
        ctx,
        CheckKind::PositiveControl,
        "uniform random policy (linear regret) on the same problem, against the IGP-UCB bound",
        &r,
        Verdict::Fail,
    ))
}
