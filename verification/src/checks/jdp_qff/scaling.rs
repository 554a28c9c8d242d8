//! Regret scaling of JDP and local-JDP GP-UCB (Algorithms 1-3) on the Section 6.1 problem
//! against Corollaries 2 and 3, with a uniform-random power control.
//!
//! # Rates (`gamma_T` and the log factors)
//! The features are fixed (`m = 2 mbar^d` with a small `mbar`, not Corollary 1's
//! `m = 2 (6 ln T)^d`, which would be 3528 at `T = 1024`): the information gain used is that of
//! the `m`-dimensional feature kernel, `gamma_T = O(m ln T)` (the linear kernel of Srinivas et
//! al. 2010, Thm 5; Remark 3's alternative), and Theorem 1's width is then
//! `beta_T^{1/2} = O(B sqrt(lambda_max) + sqrt(m ln T) + kappa)`.
//! - JDP (Lemma 3): `sigma = O(sqrt(ln T))` (the tree has `L = O(ln T)` levels), so
//!   `lambda_max = O(sigma sqrt(ln T) ln T) = O((ln T)^2)` and `kappa = O(sqrt(ln T))`:
//!   `beta_T^{1/2} = O(ln T)` and `R_T = O(sqrt(T gamma_T) beta_T^{1/2}) = O(sqrt(T) (ln T)^{3/2})`
//!   (Corollary 2 with this `gamma_T`): exponent 1/2, log factor `(ln T)^{3/2}`.
//! - Local JDP (Lemma 6): `lambda_max = O(sqrt(T) ln T)`, `kappa = O(T^{1/4} / sqrt(ln T))`:
//!   `beta_T^{1/2} = O(T^{1/4} sqrt(ln T))` and `R_T = O(T^{3/4} ln T)` (Corollary 3, Remark 7):
//!   exponent 3/4, log factor `ln T`.
//!
//! Every run is calibrated for its own horizon (the noise depends on `T`), so the horizons are
//! independent runs ([`check_scaling`]), not read off one long run.

use std::sync::Arc;

use crate::check::{CheckError, CheckResult, Context};
use crate::report::{CheckKind, Verdict};
use crate::scaling::{ScalingConfig, check_scaling, check_scaling_curves, geometric_horizons};
use crate::shared::{scaling_config, scaling_outcome, uniform_play_curve};
use bandit::BanditError;
use bandit::objective::{DubeyEnvironment, DubeyObjective};
use bandit::runner::regret_curve;
use jdp_qff::JdpQffParams;
use kernel::QuadratureFourierFeatures;
use privacy::Sampler;
use rand_chacha::ChaCha20Rng;

/// Gauss-Hermite nodes per dimension of the scaling problem's NQFF (`m = 2 * 3^2 = 18`).
pub(super) const SCALING_MBAR: usize = 3;

/// The points of each decision set (Section 6.1).
pub(super) const DECISION_SET: usize = 25;

/// The Section 6.1 environment: a fresh objective per seed, 25 fresh points per round.
pub(super) fn environment(rng: &mut ChaCha20Rng) -> Result<DubeyEnvironment, BanditError> {
    DubeyEnvironment::new(DubeyObjective::sample(2, rng)?, DECISION_SET)
}

/// NQFF of the paper's kernel `exp(-|x - y|^2 / 2)` in `d = 2`.
pub(super) fn features() -> Result<Arc<QuadratureFourierFeatures>, CheckError> {
    Ok(Arc::new(jdp_qff::features::nqff(2, 1.0, SCALING_MBAR)?))
}

/// The paper's parameters (Section 6.1) at `alpha`, with the textbook sampler (the same noise
/// distribution up to the grid, much faster: for regret runs, by explicit choice).
pub(super) fn params(alpha: f64) -> JdpQffParams {
    JdpQffParams {
        alpha,
        sampler: Sampler::Textbook,
        ..JdpQffParams::default()
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

/// `R_T` of one seeded run of `variant` at `alpha`, calibrated for horizon `T`.
pub(super) fn final_regret(
    variant: Variant,
    params: &JdpQffParams,
    horizon: usize,
    seed: u64,
) -> Result<f64, CheckError> {
    let f = features()?;
    let t = horizon as u64;
    let curve = match variant {
        Variant::Jdp => regret_curve(
            environment,
            |_: &DubeyEnvironment, _: &mut ChaCha20Rng| {
                jdp_qff::jdp(Arc::clone(&f), t, params).map(|p| p.0)
            },
            |_: &DubeyEnvironment, _: &mut ChaCha20Rng| {
                jdp_qff::jdp(Arc::clone(&f), t, params).map(|p| p.1)
            },
            horizon,
            seed,
        )?,
        Variant::Local => regret_curve(
            environment,
            |_: &DubeyEnvironment, _: &mut ChaCha20Rng| {
                jdp_qff::local(Arc::clone(&f), t, params).map(|p| p.0)
            },
            |_: &DubeyEnvironment, _: &mut ChaCha20Rng| {
                jdp_qff::local(Arc::clone(&f), t, params).map(|p| p.1)
            },
            horizon,
            seed,
        )?,
    };
    curve
        .last()
        .copied()
        .ok_or_else(|| CheckError::msg("empty regret curve"))
}

/// The grid of horizons and the theory of `variant` (module docs).
fn config(ctx: &Context, variant: Variant) -> ScalingConfig {
    let horizons = geometric_horizons(64, ctx.mode.pick(2048, 8192), ctx.mode.pick(6, 8));
    let seeds = ctx.mode.pick(12, 32);
    match variant {
        Variant::Jdp => scaling_config(horizons, seeds, ctx.check_seed(), 0.5, 1.5),
        Variant::Local => scaling_config(horizons, seeds, ctx.check_seed(), 0.75, 1.0),
    }
}

/// The scaling alpha: the paper's default `alpha = 1`.
pub(super) const SCALING_ALPHA: f64 = 1.0;

fn scaling(ctx: &Context, variant: Variant) -> CheckResult {
    let cfg = config(ctx, variant);
    let p = params(SCALING_ALPHA);
    let r = check_scaling(
        |t: usize, seed: u64| final_regret(variant, &p, t, seed),
        &cfg,
    )?;
    let xs: Vec<f64> = cfg.horizons.iter().map(|&t| (t as f64).ln()).collect();
    let ys: Vec<f64> = r.mean.iter().map(|m| m.ln()).collect();
    let raw_slope = crate::scaling::ols(&xs, &ys).0;
    let (name, corollary) = match variant {
        Variant::Jdp => (
            "JDP GP-UCB (Algorithms 1-2)",
            "Corollary 2: sqrt(T) (ln T)^{3/2} with gamma_T = O(m ln T) for fixed m",
        ),
        Variant::Local => (
            "local-JDP GP-UCB (Algorithms 1, 3)",
            "Corollary 3: T^{3/4} ln T with gamma_T = O(m ln T) for fixed m",
        ),
    };
    let mut o = scaling_outcome(
        ctx,
        CheckKind::Scaling,
        &format!(
            "{name} on the Section 6.1 problem (d = 2, 25 points per round, Bernoulli rewards), NQFF m = {}, alpha = {SCALING_ALPHA}, beta = 0.1, paper spectrum, Theorem 1 width, textbook sampler; one run per horizon and seed, calibrated for its horizon; {corollary}",
            2 * SCALING_MBAR * SCALING_MBAR
        ),
        &r,
        Verdict::Pass,
    )
    .value("raw_slope", raw_slope);
    o.measured.push_str(&format!(
        "; slope of ln R_T itself (no log factor divided out): {raw_slope:.3}"
    ));
    Ok(o)
}

pub(super) fn scaling_jdp(ctx: &Context) -> CheckResult {
    scaling(ctx, Variant::Jdp)
}

pub(super) fn scaling_local(ctx: &Context) -> CheckResult {
    scaling(ctx, Variant::Local)
}

/// Uniform random play on the same problem, against the JDP theory (exponent 1/2, log factor
/// `(ln T)^{3/2}`): its regret is linear, the checker must FAIL it.
pub(super) fn control_scaling_uniform(ctx: &Context) -> CheckResult {
    let horizons = geometric_horizons(64, ctx.mode.pick(16384, 65536), ctx.mode.pick(7, 9));
    let cfg = scaling_config(horizons, ctx.mode.pick(8, 24), ctx.check_seed(), 0.5, 1.5);
    let r = check_scaling_curves(uniform_play_curve(environment), &cfg)?;
    Ok(scaling_outcome(
        ctx,
        CheckKind::PositiveControl,
        "uniform random play (linear regret) on the Section 6.1 problem, against the JDP exponent and log factor",
        &r,
        Verdict::Fail,
    ))
}
