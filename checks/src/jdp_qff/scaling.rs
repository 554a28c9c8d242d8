//! Regret scaling of JDP and local-JDP GP-UCB (Algorithms 1-3) against Corollaries 2 and 3,
//! with power controls (uniform play, each algorithm ignoring its data), on a problem in the
//! span of the features ([`super::problem`]).
//!
//! # Why this problem and `alpha = 100`
//! The theorem's PSD shift is `2 Upsilon` with `Upsilon ~ sigma sqrt(2n) (4 sqrt(m) +
//! 2 ln(2T/zeta))` (Lemma 3): about 7 500 at `alpha = 1`, 1 700 at `alpha = 10` and 450 at
//! `alpha = 100` for `m = 8`, `T = 2^15`, while `Sigma_t` grows by `||Phi||^2 = 1` per round. Until
//! `t / m` is well above the shift the learner sees little but noise and its regret grows
//! linearly (measured on this problem, 4 seeds, textbook sampler: `R_T / T` = 0.17, 0.12, 0.10,
//! 0.07 at `T = 2^10, 2^12, 2^14, 2^16` for `alpha = 10`; 0.13, 0.10, 0.07, 0.04 for
//! `alpha = 100`). The asymptotic rate is only visible within a check's budget at a large
//! alpha; the rate is the same for every alpha (the corollaries' constants carry the alpha
//! dependence, which the sweep checks). On the Section 6.1 problem with small `m` the QFF
//! misspecification (`t B eps`) adds a linear floor, hence the feature-space problem.
//!
//! # Rates (`gamma_T` and the log factors)
//! The features are fixed (`m = 2 mbar^d = 8`, not Corollary 1's `m = 2 (6 ln T)^d`): the
//! information gain used is that of the `m`-dimensional feature kernel, `gamma_T = O(m ln T)`
//! (the linear kernel of Srinivas et al. 2010, Thm 5; Remark 3's alternative), and Theorem 1's
//! width is then `beta_T^{1/2} = O(B sqrt(lambda_max) + sqrt(m ln T) + kappa)`.
//! - JDP (Lemma 3): `sigma = O(sqrt(ln T))` (the tree has `L = O(ln T)` levels), so
//!   `lambda_max = O(sigma sqrt(ln T) ln T) = O((ln T)^2)` and `kappa = O(sqrt(ln T))`:
//!   `beta_T^{1/2} = O(ln T)` and `R_T = O(sqrt(T gamma_T) beta_T^{1/2}) = O(sqrt(T) (ln T)^{3/2})`
//!   (Corollary 2 with this `gamma_T`): exponent 1/2, log factor `(ln T)^{3/2}`.
//! - Local JDP (Lemma 6): `lambda_max = O(sqrt(T) ln T)`, `kappa = O(T^{1/4} / sqrt(ln T))`:
//!   `beta_T^{1/2} = O(T^{1/4} sqrt(ln T))` and `R_T = O(T^{3/4} ln T)` (Corollary 3, Remark 7):
//!   exponent 3/4, log factor `ln T`.
//!
//! # Verdict
//! The corollaries are upper bounds, and Remark 7 conjectures Corollary 3's `T^{3/4}` is tight
//! for local JDP, so a one-sided test "the interval's upper end is at most the exponent" cannot
//! pass when the regret grows at the predicted rate (measured: local JDP's slope is 0.77). The
//! checks therefore FAIL when the interval's lower end exceeds the corollary's exponent (the
//! regret certainly grows faster than the bound allows), PASS when it does not and the upper end
//! is below 1 (certified sublinear), and are INCONCLUSIVE otherwise. The strict one-sided verdict
//! is reported beside it. Uniform play (slope about 0.85 here) is FAILed by the same rule.
//!
//! Every run is calibrated for its own horizon (the noise depends on `T`), so the horizons are
//! independent runs ([`check_scaling`]), not read off one long run.
//!
//! # Controls
//! Uniform play, and each algorithm ignoring its data ([`IgnoresData`]: same problem, alpha,
//! horizons, number of seeds and theory; each check draws its own seeds), must be FAILed; a
//! control that is not is a failed check.
//!
//! The algorithm with its width removed (width scale `1e-12`, greedy on the private mean) is not
//! broken on the rate checks' problem: every round brings 25 fresh uniform points, a decision
//! set diverse enough for greedy play to learn (Kannan et al. 2018; Bastani, Bayati & Khosravi
//! 2021: with diverse contexts the greedy linear bandit has the optimal rate). Measured (quick
//! grid, 8 seeds): greedy JDP's mean regret 98 to 311 over `T = 4096..65536` (uniform play:
//! 2 610 to 41 900), slope 0.33 in [-0.03, 0.69]; greedy local JDP slope 0.62 in [-0.20, 1.43]:
//! INCONCLUSIVE, and FAILed in none of 200 resampled experiments. So the rate checks run a
//! second time on [`Problem::OrthogonalArms`] (a fixed decision set on which greedy play locks
//! onto a suboptimal point in about 7 runs of 8, [`super::orthogonal_arms`]) at
//! `alpha = 10^4`, where the algorithm must PASS and, on the same problem, alpha, horizons,
//! number of seeds and theory, the greedy learner must be FAILed. At `alpha = 100` greedy locks far less
//! often (about 45% of the runs against 87%); the privacy noise is what unlocks it (with the
//! same seeds and the noise alone removed from Algorithm 2's releases the runs lock again: the
//! test `at_alpha_100_the_privacy_noise_unlocks_greedy_play` below; docs/jdp-qff.md). So the
//! JDP pair runs a third time at the rate checks' `alpha = 100`
//! ([`Problem::OrthogonalArmsAtRateAlpha`], `--full` only: about 70 s each) with 192 seeds on
//! `T = 4096..65536`, where the
//! algorithm's own regret has reached its rate (on `1024..16384` its slope was 0.594, above
//! 1/2). Local JDP has no such pair: at `alpha = 100` its own slope on `4096..65536` is 0.791,
//! [0.784, 0.798] (192 seeds), above its exponent 3/4, so the check would FAIL the algorithm
//! itself; a width removed from local JDP is caught at `alpha = 10^4` only.

use std::sync::Arc;

use super::orthogonal_arms::{self, OrthogonalArms};
use super::problem::{FeatureLinear, NOISE, REWARD_BOUND};
use crate::shared::{
    IgnoresData, control_outcome, scaling_config, scaling_outcome, uniform_play_curve,
};
use bandit::BanditError;
use bandit::env::RoundEnvironment;
use bandit::runner::{RunConfig, Runner};
use jdp_qff::{JdpQffParams, WidthParams};
use kernel::QuadratureFourierFeatures;
use privacy::Sampler;
use rand_chacha::ChaCha20Rng;
use verification::scaling::{
    ScalingConfig, check_scaling, check_scaling_curves, geometric_horizons,
};
use verification::{CheckError, CheckResult, Context};
use verification::{CheckKind, Verdict};

/// Gauss-Hermite nodes per dimension of the regret problem's NQFF (`m = 2 * 2^2 = 8`).
pub(super) const SCALING_MBAR: usize = 2;

/// NQFF of the paper's kernel `exp(-|x - y|^2 / 2)` in `d = 2`.
pub(super) fn features() -> Result<Arc<QuadratureFourierFeatures>, CheckError> {
    Ok(Arc::new(jdp_qff::features::nqff(2, 1.0, SCALING_MBAR)?))
}

/// The regret problem ([`super::problem`]) for these features.
fn environment(
    f: &Arc<QuadratureFourierFeatures>,
) -> impl Fn(&mut ChaCha20Rng) -> Result<FeatureLinear, BanditError> + '_ {
    move |rng: &mut ChaCha20Rng| Ok(FeatureLinear::sample(Arc::clone(f), rng))
}

/// The theorem's algorithm at `alpha` for the regret problem: `beta = 0.1`, `B_y = 3/2`,
/// Theorem 1's width with `B = 1`, `rho = 1/2` (the noise), `lambda = rho^2`, `eps = 0`, the
/// paper's spectrum; the textbook sampler (the same noise distribution up to the grid, much
/// faster: for regret runs, by explicit choice).
pub(super) fn params(alpha: f64) -> JdpQffParams {
    JdpQffParams {
        alpha,
        reward_bound: REWARD_BOUND,
        width: WidthParams {
            rho: NOISE,
            lambda: NOISE * NOISE,
            ..WidthParams::default()
        },
        sampler: Sampler::Textbook,
        ..JdpQffParams::section_6_1()
    }
}

/// Which algorithm a regret run uses.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Variant {
    /// Algorithms 1 + 2.
    Jdp,
    /// Algorithms 1 + 3.
    Local,
}

/// `R_T` of one seeded run of `variant` at `params`, calibrated for horizon `T`.
pub(super) fn final_regret(
    variant: Variant,
    params: &JdpQffParams,
    horizon: usize,
    seed: u64,
) -> Result<f64, CheckError> {
    final_regret_of(Problem::Diverse, variant, params, false, horizon, seed)
}

/// The problem a regret run is on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Problem {
    /// 25 fresh uniform points per round ([`super::problem`]): the rate checks' problem.
    Diverse,
    /// A fixed set of 8 points, the best one's features orthogonal to every other's
    /// ([`super::orthogonal_arms`]): the greedy
    /// control's problem.
    OrthogonalArms,
    /// The same problem at the rate checks' alpha ([`SCALING_ALPHA`]), on longer horizons
    /// (module docs, "Controls": JDP only).
    OrthogonalArmsAtRateAlpha,
}

/// [`final_regret`] on `problem`, of the learner that ignores its data ([`IgnoresData`]) when
/// `ignores_data`.
pub(super) fn final_regret_of(
    problem: Problem,
    variant: Variant,
    params: &JdpQffParams,
    ignores_data: bool,
    horizon: usize,
    seed: u64,
) -> Result<f64, CheckError> {
    let f = features()?;
    match problem {
        Problem::Diverse => regret_on(
            environment(&f),
            &f,
            variant,
            params,
            ignores_data,
            horizon,
            seed,
        ),
        Problem::OrthogonalArms | Problem::OrthogonalArmsAtRateAlpha => regret_on(
            |rng: &mut ChaCha20Rng| OrthogonalArms::sample(&f, rng),
            &f,
            variant,
            params,
            ignores_data,
            horizon,
            seed,
        ),
    }
}

/// [`final_regret_of`] for the environments `make_env` draws.
fn regret_on<E: RoundEnvironment>(
    make_env: impl Fn(&mut ChaCha20Rng) -> Result<E, BanditError>,
    f: &Arc<QuadratureFourierFeatures>,
    variant: Variant,
    params: &JdpQffParams,
    ignores_data: bool,
    horizon: usize,
    seed: u64,
) -> Result<f64, CheckError> {
    let t = horizon as u64;
    let config = RunConfig::single(horizon, seed);
    let curve = match (variant, ignores_data) {
        (Variant::Jdp, false) => Runner::new(config, make_env, |_: &E, _: &mut ChaCha20Rng| {
            jdp_qff::jdp(Arc::clone(f), t, params).map(|p| p.0)
        })
        .curator(|_: &E, _: &mut ChaCha20Rng| jdp_qff::jdp(Arc::clone(f), t, params).map(|p| p.1))
        .trial(0),
        (Variant::Jdp, true) => Runner::new(config, make_env, |_: &E, _: &mut ChaCha20Rng| {
            jdp_qff::jdp(Arc::clone(f), t, params).map(|p| IgnoresData::new(p.0))
        })
        .curator(|_: &E, _: &mut ChaCha20Rng| jdp_qff::jdp(Arc::clone(f), t, params).map(|p| p.1))
        .trial(0),
        (Variant::Local, false) => Runner::new(config, make_env, |_: &E, _: &mut ChaCha20Rng| {
            jdp_qff::local(Arc::clone(f), t, params).map(|p| p.0)
        })
        .curator(|_: &E, _: &mut ChaCha20Rng| jdp_qff::local(Arc::clone(f), t, params).map(|p| p.1))
        .trial(0),
        (Variant::Local, true) => Runner::new(config, make_env, |_: &E, _: &mut ChaCha20Rng| {
            jdp_qff::local(Arc::clone(f), t, params).map(|p| IgnoresData::new(p.0))
        })
        .curator(|_: &E, _: &mut ChaCha20Rng| jdp_qff::local(Arc::clone(f), t, params).map(|p| p.1))
        .trial(0),
    }?
    .cumulative_regret;
    curve
        .last()
        .copied()
        .ok_or_else(|| CheckError::msg("empty regret curve"))
}

/// The grid of horizons and the theory of `variant` on `problem` (module docs).
fn config(ctx: &Context, variant: Variant, problem: Problem) -> ScalingConfig {
    let (horizons, seeds) = match problem {
        Problem::Diverse => (
            geometric_horizons(4096, ctx.mode.pick(65536, 262_144), ctx.mode.pick(6, 8)),
            // Local JDP: 24 seeds, so that the control ignoring its data (linear regret, slope
            // about 0.9 against the exponent 3/4 after the log factor) is FAILed (12 seeds:
            // FAILed by 0.49 of resampled experiments).
            match variant {
                Variant::Jdp => ctx.mode.pick(12, 32),
                Variant::Local => ctx.mode.pick(24, 48),
            },
        ),
        // A greedy run's regret is about 0 or linear ([`super::orthogonal_arms`]), so the mean
        // over seeds varies with the share of locked runs. Quick run, measured: JDP's greedy
        // control with 48 seeds is FAILed by 1.000 of the experiments resampled from its runs;
        // local JDP's (exponent 3/4, so less room below a linear slope) by 0.655 with 96 seeds
        // and by 1.000 with 192.
        Problem::OrthogonalArms => (
            geometric_horizons(1024, ctx.mode.pick(16384, 65536), ctx.mode.pick(6, 8)),
            match variant {
                Variant::Jdp => ctx.mode.pick(48, 96),
                // Both modes: the full run's longer grid is what makes it stricter.
                Variant::Local => 192,
            },
        ),
        // At alpha = 100 the algorithm's own regret reaches its rate only from about T = 4096
        // (measured on 1024..16384, 192 seeds: JDP slope 0.594, [0.588, 0.601], above 1/2; on
        // 4096..65536: 0.383, [0.375, 0.390]). Greedy locks in about 45% of the runs here
        // (87% at 10^4), so its slope is noisier: with 96 seeds its control was FAILed by
        // only 0.780 of the resampled experiments, and a width removed in the crate (planted)
        // left the rate check INCONCLUSIVE at 48 seeds (0.781, [0.372, 1.190]). Hence 192.
        // Full-only (about 140 s for the pair on 2 cores), so one grid.
        Problem::OrthogonalArmsAtRateAlpha => (geometric_horizons(4096, 65536, 6), 192),
    };
    match variant {
        Variant::Jdp => scaling_config(horizons, seeds, ctx.check_seed(), 0.5, 1.5),
        Variant::Local => scaling_config(horizons, seeds, ctx.check_seed(), 0.75, 1.0),
    }
}

/// The scaling alpha (module docs: why 100).
pub(super) const SCALING_ALPHA: f64 = 100.0;

/// The alpha of the checks on [`Problem::OrthogonalArms`] (module docs, "Controls": why not 100).
const GREEDY_ALPHA: f64 = 1e4;

/// The width scale of the greedy controls: Theorem 1's width times this. The crate requires a
/// positive scale, so the width is not removed to the last bit but made negligible; that the
/// learner then plays as greedy is measured, not derived: the controls print how many runs
/// locked onto a suboptimal point.
const GREEDY_WIDTH_SCALE: f64 = 1e-12;

/// The algorithm's parameters on [`Problem::OrthogonalArms`] (at [`GREEDY_ALPHA`]) or
/// [`Problem::OrthogonalArmsAtRateAlpha`] (at [`SCALING_ALPHA`]) with Theorem 1's width times
/// `width_scale`: [`params`] at that alpha with the problem's noise (`rho = 0.1`,
/// `lambda = rho^2`) and reward bound (`B_y = 1`).
fn orthogonal_params(problem: Problem, width_scale: f64) -> JdpQffParams {
    let alpha = match problem {
        Problem::OrthogonalArmsAtRateAlpha => SCALING_ALPHA,
        Problem::OrthogonalArms => GREEDY_ALPHA,
        Problem::Diverse => unreachable!("the diverse problem has its own parameters"),
    };
    let mut p = params(alpha);
    p.width.rho = orthogonal_arms::NOISE;
    p.width.lambda = orthogonal_arms::NOISE * orthogonal_arms::NOISE;
    p.width.scale = width_scale;
    p.reward_bound = orthogonal_arms::REWARD_BOUND;
    p
}

/// How many of the runs locked onto a suboptimal point: `R_T / T` above 0.2 (a locked run loses
/// at least 0.37 a round, a run that found the best point almost nothing).
fn locked_runs(r: &verification::scaling::ScalingResult) -> (usize, usize) {
    let runs = r
        .regret
        .iter()
        .flat_map(|row| row.iter().zip(&r.config.horizons));
    let locked = runs
        .clone()
        .filter(|&(&rt, &t)| rt / t as f64 > 0.2)
        .count();
    (locked, runs.count())
}

/// The verdict of a rate check (module docs, "Verdict").
fn rate_verdict(r: &verification::scaling::ScalingResult) -> Verdict {
    let a = r.config.theory_exponent;
    if r.slope_lower > a {
        Verdict::Fail
    } else if r.slope_upper < 1.0 {
        Verdict::Pass
    } else {
        Verdict::Inconclusive
    }
}

/// The name of `variant` in the checks' subjects.
fn name(variant: Variant) -> &'static str {
    match variant {
        Variant::Jdp => "JDP GP-UCB (Algorithms 1-2)",
        Variant::Local => "local-JDP GP-UCB (Algorithms 1, 3)",
    }
}

fn scaling(ctx: &Context, variant: Variant, problem: Problem) -> CheckResult {
    let cfg = config(ctx, variant, problem);
    let (p, setting) = match problem {
        Problem::Diverse => (
            params(SCALING_ALPHA),
            format!(
                "a problem in the span of the features (d = 2, 25 uniform points of [-2, 2]^2 per round, f = <theta*, Phi>, ||theta*|| = 1, uniform noise of half-width 1/2), NQFF m = {}, alpha = {SCALING_ALPHA}",
                2 * SCALING_MBAR * SCALING_MBAR
            ),
        ),
        Problem::OrthogonalArms | Problem::OrthogonalArmsAtRateAlpha => {
            let p = orthogonal_params(problem, 1.0);
            let setting = format!(
                "the greedy controls' problem (d = 2, a fixed set of {} points, the best one's features orthogonal to all others', f in the span of the features, uniform noise of half-width {}), NQFF m = {}, alpha = {}",
                2 * orthogonal_arms::SEGMENTS + 2,
                orthogonal_arms::NOISE,
                2 * SCALING_MBAR * SCALING_MBAR,
                p.alpha
            );
            (p, setting)
        }
    };
    let mut r = check_scaling(
        |t: usize, seed: u64| final_regret_of(problem, variant, &p, false, t, seed),
        &cfg,
    )?;
    let xs: Vec<f64> = cfg.horizons.iter().map(|&t| (t as f64).ln()).collect();
    let ys: Vec<f64> = r.mean.iter().map(|m| m.ln()).collect();
    let raw_slope = verification::scaling::ols(&xs, &ys).0;
    let strict = r.verdict;
    r.verdict = rate_verdict(&r);
    let corollary = match variant {
        Variant::Jdp => "Corollary 2: sqrt(T) (ln T)^{3/2} with gamma_T = O(m ln T) for fixed m",
        Variant::Local => "Corollary 3: T^{3/4} ln T with gamma_T = O(m ln T) for fixed m",
    };
    let mut o = scaling_outcome(
        ctx,
        CheckKind::Scaling,
        &format!(
            "{} on {setting}, beta = 0.1, paper spectrum, Theorem 1 width, textbook sampler; one run per horizon and seed, calibrated for its horizon; {corollary}; verdict: FAIL when the interval's lower end exceeds the corollary's exponent, PASS when it does not and the upper end is below 1 (certified sublinear)",
            name(variant)
        ),
        &r,
        Verdict::Pass,
    )
    .value("raw_slope", raw_slope)
    .value("strict_verdict", strict.to_string());
    o.measured.push_str(&format!(
        "; slope of ln R_T itself (no log factor divided out): {raw_slope:.3}; the strict one-sided test (upper end <= exponent) says {}",
        strict.to_string().to_uppercase()
    ));
    if problem != Problem::Diverse {
        let (locked, runs) = locked_runs(&r);
        o = o.value("locked_runs", locked);
        o.measured.push_str(&format!(
            "; runs locked onto a suboptimal point (R_T / T > 0.2): {locked} of {runs}"
        ));
    }
    Ok(o)
}

pub(super) fn scaling_jdp(ctx: &Context) -> CheckResult {
    scaling(ctx, Variant::Jdp, Problem::Diverse)
}

pub(super) fn scaling_local(ctx: &Context) -> CheckResult {
    scaling(ctx, Variant::Local, Problem::Diverse)
}

pub(super) fn scaling_jdp_orthogonal_arms(ctx: &Context) -> CheckResult {
    scaling(ctx, Variant::Jdp, Problem::OrthogonalArms)
}

pub(super) fn scaling_local_orthogonal_arms(ctx: &Context) -> CheckResult {
    scaling(ctx, Variant::Local, Problem::OrthogonalArms)
}

pub(super) fn scaling_jdp_orthogonal_arms_alpha_100(ctx: &Context) -> CheckResult {
    scaling(ctx, Variant::Jdp, Problem::OrthogonalArmsAtRateAlpha)
}

/// Uniform random play on the same problem, against the JDP theory (exponent 1/2, log factor
/// `(ln T)^{3/2}`): its regret is linear, the checker must FAIL it.
pub(super) fn control_scaling_uniform(ctx: &Context) -> CheckResult {
    let horizons = geometric_horizons(4096, ctx.mode.pick(65536, 262_144), ctx.mode.pick(6, 8));
    let cfg = scaling_config(horizons, ctx.mode.pick(8, 24), ctx.check_seed(), 0.5, 1.5);
    let f = features()?;
    let r = check_scaling_curves(uniform_play_curve(environment(&f)), &cfg)?;
    Ok(scaling_outcome(
        ctx,
        CheckKind::PositiveControl,
        "uniform random play (linear regret) on the same problem, against the JDP exponent and log factor",
        &r,
        Verdict::Fail,
    ))
}

/// `variant` ignoring its data ([`IgnoresData`]: the server never receives a message, so it
/// selects from its prior every round) on the rate check's problem, alpha, horizons, seeds and
/// theory (its own seed): the checker must FAIL it. (Its width removed is a control on the
/// other problem: module docs, "Controls".)
fn control_ignores_data(ctx: &Context, variant: Variant) -> CheckResult {
    let cfg = config(ctx, variant, Problem::Diverse);
    let p = params(SCALING_ALPHA);
    let r = check_scaling(
        |t: usize, seed: u64| final_regret_of(Problem::Diverse, variant, &p, true, t, seed),
        &cfg,
    )?;
    control_outcome(
        ctx,
        &format!(
            "{} ignoring its data (the server never receives a message: it selects from its prior every round), on the rate check's problem, alpha, horizons, number of seeds and theory (its own seeds)",
            name(variant)
        ),
        &r,
    )
}

pub(super) fn control_ignores_data_jdp(ctx: &Context) -> CheckResult {
    control_ignores_data(ctx, Variant::Jdp)
}

pub(super) fn control_ignores_data_local(ctx: &Context) -> CheckResult {
    control_ignores_data(ctx, Variant::Local)
}

/// `variant` with its width removed (Theorem 1's width times [`GREEDY_WIDTH_SCALE`]: it plays
/// the argmax of its private posterior mean) on the orthogonal-arms rate check's problem, alpha,
/// horizons, number of seeds and theory (its own seeds): the checker must FAIL it (module docs,
/// "Controls").
fn control_greedy(ctx: &Context, variant: Variant, problem: Problem) -> CheckResult {
    let cfg = config(ctx, variant, problem);
    let p = orthogonal_params(problem, GREEDY_WIDTH_SCALE);
    let r = check_scaling(
        |t: usize, seed: u64| final_regret_of(problem, variant, &p, false, t, seed),
        &cfg,
    )?;
    let (locked, runs) = locked_runs(&r);
    let mut o = control_outcome(
        ctx,
        &format!(
            "{} with its width removed (Theorem 1's width times {GREEDY_WIDTH_SCALE:e}: greedy on the private posterior mean), on the orthogonal-arms rate check's problem, alpha ({}), horizons, number of seeds and theory (its own seeds)",
            name(variant),
            p.alpha
        ),
        &r,
    )?
    .value("locked_runs", locked);
    o.measured.push_str(&format!(
        "; runs locked onto a suboptimal point (R_T / T > 0.2): {locked} of {runs}"
    ));
    Ok(o)
}

pub(super) fn control_greedy_jdp(ctx: &Context) -> CheckResult {
    control_greedy(ctx, Variant::Jdp, Problem::OrthogonalArms)
}

pub(super) fn control_greedy_local(ctx: &Context) -> CheckResult {
    control_greedy(ctx, Variant::Local, Problem::OrthogonalArms)
}

pub(super) fn control_greedy_jdp_alpha_100(ctx: &Context) -> CheckResult {
    control_greedy(ctx, Variant::Jdp, Problem::OrthogonalArmsAtRateAlpha)
}

#[cfg(test)]
mod tests {
    use super::*;
    use jdp_qff::experiments::NoiseFree;

    /// `R_T / T` of JDP GP-UCB with its width removed (greedy) on the orthogonal-arms problem
    /// at `alpha`, its curator Algorithm 2's privatizer or, when `noise_free`, the same releases
    /// without their noise (the same PSD shift, width and learner: [`NoiseFree`]).
    fn greedy_regret_rate(alpha: f64, noise_free: bool, horizon: usize, seed: u64) -> f64 {
        let f = features().unwrap();
        let mut p = orthogonal_params(Problem::OrthogonalArmsAtRateAlpha, GREEDY_WIDTH_SCALE);
        p.alpha = alpha;
        let t = horizon as u64;
        let config = RunConfig::single(horizon, seed);
        let make_env = |rng: &mut ChaCha20Rng| OrthogonalArms::sample(&f, rng);
        let server = |_: &OrthogonalArms, _: &mut ChaCha20Rng| {
            jdp_qff::jdp(Arc::clone(&f), t, &p).map(|x| x.0)
        };
        let runner = Runner::new(config, make_env, server);
        let result = if noise_free {
            runner
                .curator(|_: &OrthogonalArms, _: &mut ChaCha20Rng| {
                    jdp_qff::jdp(Arc::clone(&f), t, &p).map(|(_, privatizer)| {
                        NoiseFree::new(
                            Arc::clone(&f),
                            privatizer.calibration().reward_bound(),
                            privatizer.spectrum().shift,
                        )
                    })
                })
                .trial(0)
        } else {
            runner
                .curator(|_: &OrthogonalArms, _: &mut ChaCha20Rng| {
                    jdp_qff::jdp(Arc::clone(&f), t, &p).map(|x| x.1)
                })
                .trial(0)
        };
        let curve = result.unwrap().cumulative_regret;
        curve.last().copied().unwrap() / horizon as f64
    }

    /// Why greedy play locks less often at the rate checks' `alpha = 100` than at
    /// [`GREEDY_ALPHA`] (`docs/jdp-qff.md`): the privacy noise. With the same 48 seeds, removing
    /// only the noise from Algorithm 2's releases (shift, width and learner kept) makes more
    /// runs lock onto a suboptimal point (`R_T / T > 0.2`, as [`locked_runs`]). Paired by seed:
    /// the runs that lock without the noise and not with it outnumber the reverse, exact sign
    /// test on the discordant seeds at level 1e-3 per horizon. Measured (2026-12-06, these
    /// seeds): `T = 4096`: 28 of 48 locked with the noise, 47 without (discordant 19 against 0,
    /// p = 3.8e-6); `T = 16384`: 25 against 43 (18 against 0, p = 7.6e-6). (At `T = 1024`,
    /// 16 against 1, p = 2.7e-4, too close to the level for a test that must not flake; not
    /// run here.)
    #[test]
    fn at_alpha_100_the_privacy_noise_unlocks_greedy_play() {
        for horizon in [4096, 16384] {
            let locked = |noise_free: bool| -> Vec<bool> {
                (0..48)
                    .map(|s| greedy_regret_rate(100.0, noise_free, horizon, 1000 + s) > 0.2)
                    .collect()
            };
            let (noisy, free) = (locked(false), locked(true));
            let only_free = noisy.iter().zip(&free).filter(|&(n, f)| !n && *f).count();
            let only_noisy = noisy.iter().zip(&free).filter(|&(n, f)| *n && !f).count();
            // Two-sided exact sign test: P(|B - k/2| >= |b - k/2|), B ~ Binomial(k, 1/2).
            let k = only_free + only_noisy;
            let tail: f64 = (0..=only_free.min(only_noisy))
                .map(|i| binomial(k, i))
                .sum::<f64>()
                * 0.5f64.powi(k as i32);
            let p = (2.0 * tail).min(1.0);
            assert!(
                only_free > only_noisy && p < 1e-3,
                "T = {horizon}: locked with noise {}, without {}, discordant {only_free} against \
                 {only_noisy} (p = {p:e})",
                noisy.iter().filter(|&&l| l).count(),
                free.iter().filter(|&&l| l).count(),
            );
        }
    }

    /// `C(n, k)` as a float.
    fn binomial(n: usize, k: usize) -> f64 {
        (0..k).fold(1.0, |c, i| c * (n - i) as f64 / (i + 1) as f64)
    }
}
