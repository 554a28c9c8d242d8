//! Regret scaling of the three LDP algorithms against their theorems, with a uniform-random
//! power control.

use crate::check::{CheckResult, Context};
use crate::report::{CheckKind, Verdict};
use crate::scaling::{ScalingConfig, check_scaling_curves, geometric_horizons};
use crate::shared::{scaling_config, scaling_outcome, uniform_play_curve};
use ldp_bo::experiments::{Algorithm, AlgorithmParams, Instance, Setting, Source};
use ldp_bo::lower_bound::{LowerBoundKernel, LowerBoundSetting};
use ldp_bo::{LdpBoError, Preset};
use rand_chacha::ChaCha20Rng;

/// The scaling problem: the paper's synthetic SE problem under CTL(eps).
pub(super) const SCALING_EPSILON: f64 = 4.0;

/// Theorems 2-4 for the SE kernel on the 100-arm domain: `R_T = O~(gamma_T sqrt(T))` with one
/// more `ln T` (Theorem 3: `sqrt(T) ln T gamma_T`; Corollary 1: `ln(T/delta) gamma_T sqrt(T)`;
/// Theorem 2: `gamma_T sqrt(T ln T ln(gamma_T T))`), and on a finite domain of `n` arms
/// `gamma_T <= (n/2) ln(1 + T/lambda) = O(ln T)`: exponent 1/2, log factor `(ln T)^2`.
pub(super) fn theory(horizons: Vec<usize>, seeds: usize, seed: u64) -> ScalingConfig {
    scaling_config(horizons, seeds, seed, 0.5, 2.0)
}

pub(super) fn scaling_source() -> Source {
    Source::Synthetic(bandit::objective::RkhsSynthetic::default())
}

pub(super) fn private_curve(
    algorithm: Algorithm,
    epsilon: f64,
    t_max: usize,
    seed: u64,
) -> Result<Vec<f64>, LdpBoError> {
    let params = AlgorithmParams::of(Preset::Practical);
    let setting = Setting::Ldp { epsilon };
    ldp_bo::experiments::regret_curve(&scaling_source(), setting, algorithm, &params, t_max, seed)
}

pub(super) fn lower_bound_values(horizons: &[usize], epsilon: f64) -> Result<Vec<f64>, LdpBoError> {
    let lb = LowerBoundSetting {
        kernel: LowerBoundKernel::SquaredExponential,
        dimension: 1,
        b: 1.0,
        epsilon,
        alpha: 1.0,
        v: 1.0,
    };
    horizons.iter().map(|&t| lb.rate(t as u64)).collect()
}

pub(super) fn scaling(
    ctx: &Context,
    algorithm: Algorithm,
    t_max_quick: usize,
    seeds_quick: usize,
) -> CheckResult {
    let horizons = geometric_horizons(
        32,
        ctx.mode.pick(t_max_quick, 4 * t_max_quick),
        ctx.mode.pick(7, 9),
    );
    let config = theory(
        horizons.clone(),
        ctx.mode.pick(seeds_quick, 3 * seeds_quick),
        ctx.check_seed(),
    );
    let curve = |t_max: usize, seed: u64| private_curve(algorithm, SCALING_EPSILON, t_max, seed);
    let r = check_scaling_curves(curve, &config)?;
    let name = algorithm.name(Setting::Ldp {
        epsilon: SCALING_EPSILON,
    });
    // The slope before the log factor is divided out: what the regret itself did.
    let xs: Vec<f64> = horizons.iter().map(|&t| (t as f64).ln()).collect();
    let ys: Vec<f64> = r.mean.iter().map(|m| m.ln()).collect();
    let raw_slope = crate::scaling::ols(&xs, &ys).0;
    let mut o = scaling_outcome(
        ctx,
        CheckKind::Scaling,
        &format!(
            "{name} (practical preset) on the Zhou & Tan synthetic (100 arms, SE l = 0.2, uniform noise R = 1) under CTL(eps = {SCALING_EPSILON}); every horizon read off one run of T_max per seed"
        ),
        &r,
        Verdict::Pass,
    )
    .value("raw_slope", raw_slope)
    .value("lower_bound_rate_theorem_1", lower_bound_values(&horizons, SCALING_EPSILON)?);
    o.measured.push_str(&format!(
        "; slope of ln R_T itself (no log factor divided out): {raw_slope:.3}"
    ));
    Ok(o)
}

pub(super) fn scaling_tgp(ctx: &Context) -> CheckResult {
    scaling(ctx, Algorithm::Tgp, 4096, 32)
}

pub(super) fn scaling_moma(ctx: &Context) -> CheckResult {
    scaling(ctx, Algorithm::Moma, 16384, 16)
}

pub(super) fn scaling_ata(ctx: &Context) -> CheckResult {
    scaling(ctx, Algorithm::Ata, 2048, 8)
}

pub(super) fn scaling_uniform_control(ctx: &Context) -> CheckResult {
    // The same problem, grid and theory as the TGP check, uniform random play: must FAIL.
    let horizons = geometric_horizons(32, ctx.mode.pick(4096, 16384), ctx.mode.pick(7, 9));
    let config = theory(horizons, ctx.mode.pick(8, 24), ctx.check_seed());
    let source = scaling_source();
    let setting = Setting::Ldp {
        epsilon: SCALING_EPSILON,
    };
    // Uniform play ignores its messages, so the curator in between does not matter.
    let make_env = |rng: &mut ChaCha20Rng| -> Result<Instance, bandit::BanditError> {
        source
            .instance(setting, rng)
            .map_err(|err| bandit::BanditError::Environment {
                round: None,
                source: Box::new(err),
            })
    };
    let r = check_scaling_curves(uniform_play_curve(make_env), &config)?;
    Ok(scaling_outcome(
        ctx,
        CheckKind::PositiveControl,
        "uniform random play (linear regret) on the ldp-bo scaling problem, against the same exponent and log factor",
        &r,
        Verdict::Fail,
    ))
}
