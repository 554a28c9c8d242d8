//! Checks with ids under `audit/`: privacy audits of every mechanism of the privacy crate, their
//! positive and negative controls, the floating-point porosity test, and the power checks of
//! the regret-scaling checker (`audit/scaling/...`).
//!
//! Every audit runs at `alpha = 1e-6` (its `false_alarm_probability`). A positive control passes
//! when the auditor flags it; its failure would be a lack of power, whose probability is not
//! bounded by alpha, so positive controls state no false-alarm probability.

use privacy::mechanisms::matrix::{
    Neighbouring, clipped_outer_product, outer_product_sensitivity, pack_upper,
    symmetric_gaussian_noise,
};
use privacy::mechanisms::{
    ConvertToLaplace, ExponentialMechanism, GaussianMechanism, LaplaceMechanism, StreamShape,
    SubsampledGaussian, TreeAggregation,
};
use privacy::sampler::{Grid, NoiseSampler, Norm};
use privacy::{Guarantee, PrivacyClaim, Sampler};
use rand_chacha::ChaCha20Rng;
use serde_json::json;

use crate::audit::porosity::{Piece, ReplayRng, reachable};
use crate::audit::{
    AuditConfig, AuditResult, DiscreteCounts, FisherDiscriminant, HistogramRatio, Known,
    MeanDifferenceProjection, audit, sample_map,
};
use crate::check::{Check, Context, Outcome};
use crate::fixtures::Entry;
use crate::report::{CheckKind, Verdict};
use crate::scaling::{
    ScalingConfig, ScalingResult, check_scaling_curves, geometric_horizons, privacy_sweep,
};
use crate::stats::clopper_pearson_lower;
use bandit::BanditError;
use bandit::agent::{Curator, Feedback};
use bandit::baselines::{GpUcb, IgpUcbParams, UniformRandom};
use bandit::env::{Annotated, FixedSetEnvironment};
use bandit::noise::RewardModel;
use bandit::objective::{RkhsKernel, RkhsSynthetic};
use bandit::runner::{regret_curve, regret_curve_non_private};

/// The level of every audit: probability of reporting a violation of a claim that holds.
pub const ALPHA: f64 = 1e-6;

/// The tightness a strong audit of a tight claim must reach (else the audit is inconclusive).
pub const MIN_TIGHTNESS: f64 = 0.9;

/// The checks of this area, in the order they run.
pub fn checks() -> Vec<Check> {
    vec![
        Check {
            id: "audit/laplace/eps-1",
            run: laplace_eps1,
        },
        Check {
            id: "audit/ctl/eps-1-out-of-range",
            run: ctl_eps1,
        },
        Check {
            id: "audit/gaussian/classic",
            run: gaussian_classic,
        },
        Check {
            id: "audit/gaussian/analytic",
            run: gaussian_analytic,
        },
        Check {
            id: "audit/matrix/symmetric-gaussian",
            run: matrix_gaussian,
        },
        Check {
            id: "audit/tree/prefix-sums",
            run: tree_prefix_sums,
        },
        Check {
            id: "audit/exponential/eps-1",
            run: exponential_eps1,
        },
        Check {
            id: "audit/subsampled/one-step",
            run: subsampled_one,
        },
        Check {
            id: "audit/subsampled/four-steps",
            run: subsampled_four,
        },
        Check {
            id: "audit/control/laplace-half-scale",
            run: control_laplace_half_scale,
        },
        Check {
            id: "audit/control/gaussian-twice-sensitivity",
            run: control_gaussian_twice_sensitivity,
        },
        Check {
            id: "audit/control/ctl-without-clipping",
            run: control_ctl_without_clipping,
        },
        Check {
            id: "audit/control/reference-laplace-histogram",
            run: control_reference_laplace,
        },
        Check {
            id: "audit/control/textbook-laplace-float-llr",
            run: control_textbook_float_llr,
        },
        Check {
            id: "audit/porosity/textbook-laplace",
            run: porosity_textbook,
        },
        Check {
            id: "audit/porosity/hardened-laplace",
            run: porosity_hardened,
        },
        Check {
            id: "audit/scaling/gp-ucb-rkhs",
            run: scaling_gp_ucb,
        },
        Check {
            id: "audit/scaling/uniform-random",
            run: scaling_uniform,
        },
        Check {
            id: "audit/scaling/privacy-sweep-ctl-gp-ucb",
            run: scaling_privacy_sweep,
        },
    ]
}

/// The fixtures of this area.
pub fn fixtures() -> Result<Vec<Entry>, String> {
    Ok(Vec::new())
}

fn e(err: impl std::fmt::Display) -> String {
    err.to_string()
}

/// Draw the trade-off plot and return its path relative to the report (or the error in words:
/// a missing plot is not a failed audit).
fn tradeoff_plot(ctx: &Context, id: &str, r: &AuditResult) -> Option<String> {
    let rel = crate::plot::relative_path(id, crate::plot::TRADEOFF_SUFFIX);
    crate::plot::tradeoff(&ctx.out_dir.join(&rel), id, r)
        .ok()
        .map(|()| rel)
}

/// How an audit result turns into a verdict.
#[derive(Clone, Copy)]
pub(crate) enum Expect {
    /// A correct mechanism: fail when violated; inconclusive when the tightness (of the route
    /// reported as `tightness`) is below the bound.
    Holds { min_tightness: Option<f64> },
    /// A broken variant: pass when violated.
    Flagged,
}

fn fmt_opt(v: Option<f64>) -> String {
    v.map_or_else(|| "-".into(), |x| format!("{x:.4}"))
}

pub(crate) fn audit_outcome(
    ctx: &Context,
    id: &str,
    kind: CheckKind,
    subject: String,
    r: &AuditResult,
    expect: Expect,
) -> Outcome {
    let tight = r.mu_tightness.or(r.eps_tightness);
    let (claim, verdict) = match expect {
        Expect::Holds { min_tightness } => {
            let claim = match min_tightness {
                Some(t) => format!(
                    "no certified point below the claim's trade-off curve at confidence 1 - {ALPHA:e}, and tightness >= {t}"
                ),
                None => format!(
                    "no certified point below the claim's trade-off curve at confidence 1 - {ALPHA:e}"
                ),
            };
            let v = if r.violated {
                Verdict::Fail
            } else if min_tightness.is_some_and(|t| tight.is_none_or(|x| x < t)) {
                Verdict::Inconclusive
            } else {
                Verdict::Pass
            };
            (claim, v)
        }
        Expect::Flagged => (
            "the auditor flags the broken variant (a certified point below the claimed curve)"
                .to_string(),
            crate::check::verdict(r.violated),
        ),
    };
    let measured = format!(
        "eps_lower = {:.4} (claimed {} at delta = {:e}), mu_lower = {} (mu of the pair {}), tightness eps {} / mu {}; {} + {} outputs per input; event {}",
        r.eps_lower,
        fmt_opt(r.eps_claimed),
        r.delta,
        fmt_opt(r.mu_lower),
        fmt_opt(r.mu_reference),
        fmt_opt(r.eps_tightness),
        fmt_opt(r.mu_tightness),
        r.train_samples,
        r.samples,
        r.eps_event.event
    );
    let mut o = Outcome::new(kind, subject, claim, measured, verdict)
        .audit(r.to_json())
        .value("eps_lower", r.eps_lower)
        .value("eps_claimed", r.eps_claimed)
        .value("mu_lower", r.mu_lower)
        .value("violated", r.violated)
        .value("samples_per_input", r.samples)
        .value("train_samples_per_input", r.train_samples);
    if !matches!(expect, Expect::Flagged) {
        o = o.false_alarm(ALPHA);
    }
    if let Some(p) = tradeoff_plot(ctx, id, r) {
        o = o.plot(p);
    }
    o
}

/// The exact log-likelihood ratio of a Laplace shift (x = 0 vs x' = d, scale b), as a function of
/// the output: `(|o - d| - |o|) / b`. Also exact for the discrete Laplace on a grid containing
/// 0 and d (same density ratio at every grid point).
pub(crate) fn laplace_llr(
    d: f64,
    b: f64,
) -> Known<impl Fn(&f64) -> f64 + Clone + Send + Sync + 'static> {
    Known::new(
        format!("exact Laplace LLR (shift {d}, scale {b})"),
        move |o: &f64| ((o - d).abs() - o.abs()) / b,
    )
}

/// Any decreasing function of the output is the LLR ordering of a Gaussian shift x = 0 vs x' > 0.
fn gaussian_llr() -> Known<impl Fn(&f64) -> f64 + Clone + Send + Sync + 'static> {
    Known::new("exact Gaussian LLR ordering (-o)", |o: &f64| -*o)
}

fn laplace_eps1(ctx: &Context) -> Result<Outcome, String> {
    let id = "audit/laplace/eps-1";
    let m = LaplaceMechanism::new(1.0, 1.0).map_err(e)?;
    let n = ctx.mode.pick(1_000_000, 4_000_000);
    let f = |x: &f64, rng: &mut ChaCha20Rng| m.release_scalar(*x, rng).unwrap_or(f64::NAN);
    let cfg = AuditConfig::new(n, ALPHA, ctx.seed_for(id)).train(n / 4);
    let r = audit(
        f,
        &0.0,
        &1.0,
        &m.claim(),
        &laplace_llr(1.0, m.scale()),
        &cfg,
    )
    .map_err(e)?;
    Ok(audit_outcome(
        ctx,
        id,
        CheckKind::Audit,
        m.claim().subject,
        &r,
        Expect::Holds {
            min_tightness: Some(MIN_TIGHTNESS),
        },
    ))
}

fn ctl_eps1(ctx: &Context) -> Result<Outcome, String> {
    let id = "audit/ctl/eps-1-out-of-range";
    let m = ConvertToLaplace::new(1.0, 1.0, 0.5).map_err(e)?;
    let n = ctx.mode.pick(1_000_000, 4_000_000);
    let f = |y: &f64, rng: &mut ChaCha20Rng| m.privatize(*y, rng).unwrap_or(f64::NAN);
    // Worst case: the lower end of the range against a reward far above it (clipped to B + R).
    let (x, xp) = (-m.bound(), 10.0 * m.bound());
    let cfg = AuditConfig::new(n, ALPHA, ctx.seed_for(id)).train(n / 2);
    let r = audit(f, &x, &xp, &m.claim(), &HistogramRatio { bins: 200 }, &cfg).map_err(e)?;
    Ok(audit_outcome(
        ctx,
        id,
        CheckKind::Audit,
        format!(
            "{} on rewards {x} and {xp} (black box: histogram)",
            m.claim().subject
        ),
        &r,
        Expect::Holds {
            min_tightness: Some(0.85),
        },
    ))
}

fn gaussian_audit(
    ctx: &Context,
    id: &str,
    m: &GaussianMechanism,
    distance: f64,
    expect: Expect,
    kind: CheckKind,
    claim: &PrivacyClaim,
) -> Result<Outcome, String> {
    // A flagged control needs fewer outputs than a tightness measurement; the smaller the mu,
    // the more outputs the same relative slack of mu_lower needs (slack ~ 12.6 / sqrt(n) at
    // alpha = 1e-6, so tightness 0.9 at mu = 0.19 needs n >~ 5e5, with margin 2e6).
    let n = match expect {
        Expect::Flagged => ctx.mode.pick(400_000, 2_000_000),
        Expect::Holds { .. } if distance / m.sigma() < 0.2 => ctx.mode.pick(2_000_000, 8_000_000),
        Expect::Holds { .. } => ctx.mode.pick(1_000_000, 4_000_000),
    };
    let f = |x: &f64, rng: &mut ChaCha20Rng| m.release_scalar(*x, rng).unwrap_or(f64::NAN);
    let mu = distance / m.sigma();
    let cfg = AuditConfig::new(n, ALPHA, ctx.seed_for(id))
        .train(n / 4)
        .delta(1e-5)
        .gaussian(Some(mu));
    let r = audit(f, &0.0, &distance, claim, &gaussian_llr(), &cfg).map_err(e)?;
    Ok(audit_outcome(
        ctx,
        id,
        kind,
        format!("{} on query values 0 and {distance}", m.claim().subject),
        &r,
        expect,
    ))
}

fn gaussian_classic(ctx: &Context) -> Result<Outcome, String> {
    let m = GaussianMechanism::classic(0.9, 1e-5, 1.0).map_err(e)?;
    gaussian_audit(
        ctx,
        "audit/gaussian/classic",
        &m,
        1.0,
        Expect::Holds {
            min_tightness: Some(MIN_TIGHTNESS),
        },
        CheckKind::Audit,
        &m.claim(),
    )
}

fn gaussian_analytic(ctx: &Context) -> Result<Outcome, String> {
    let m = GaussianMechanism::analytic(1.0, 1e-5, 1.0).map_err(e)?;
    gaussian_audit(
        ctx,
        "audit/gaussian/analytic",
        &m,
        1.0,
        Expect::Holds {
            min_tightness: Some(MIN_TIGHTNESS),
        },
        CheckKind::Audit,
        &m.claim(),
    )
}

fn control_gaussian_twice_sensitivity(ctx: &Context) -> Result<Outcome, String> {
    // The textbook analytic Gaussian claims (1, 1e-5)-DP for sensitivity 1; the inputs are at
    // distance 2.
    let m = GaussianMechanism::analytic(1.0, 1e-5, 1.0)
        .map_err(e)?
        .with_sampler(Sampler::Textbook);
    gaussian_audit(
        ctx,
        "audit/control/gaussian-twice-sensitivity",
        &m,
        2.0,
        Expect::Flagged,
        CheckKind::PositiveControl,
        &m.claim(),
    )
}

fn matrix_gaussian(ctx: &Context) -> Result<Outcome, String> {
    let id = "audit/matrix/symmetric-gaussian";
    // v = [phi; y] with |phi| <= 1, |y| <= 1, replace-one: Frobenius sensitivity 2 sqrt 2.
    let sens = outer_product_sensitivity(1.0, 1.0, Neighbouring::Replace).map_err(e)?;
    let rho: f64 = 0.5;
    let sampler = Sampler::Hardened;
    let sigma = sens * sampler.sensitivity_factor() / (2.0 * rho).sqrt();
    let claim = PrivacyClaim::new(
        format!(
            "clipped outer product [phi; y][phi; y]^T + symmetric Gaussian noise (sigma = {sigma:.4}, d = 2, hardened)"
        ),
        Guarantee::Zcdp {
            rho: privacy::Rho::new(rho).map_err(e)?,
        },
        privacy::TrustModel::Central,
        "one (phi, y) replaced, |phi| <= 1, |y| <= 1",
    );
    let f = |v: &(f64, f64), rng: &mut ChaCha20Rng| -> Vec<f64> {
        let phi = ndarray::arr1(&[v.0]);
        let mut run = || -> Result<Vec<f64>, privacy::PrivacyError> {
            let m = clipped_outer_product(phi.view(), v.1, 1.0, 1.0)?
                + symmetric_gaussian_noise(2, sigma, sens, sampler, rng)?;
            Ok(pack_upper(m.view())?.to_vec())
        };
        run().unwrap_or_else(|_| vec![f64::NAN; 3])
    };
    // v = (1, 1), w = (1, -1): v v^T - w w^T = [[0, 2], [2, 0]], packed distance 2 (the largest
    // packed distance of this relation in d = 2; the Frobenius bound 2 sqrt 2 also counts the
    // mirrored entry, which the packed release does not repeat).
    let (x, xp) = ((1.0, 1.0), (1.0, -1.0));
    let n = ctx.mode.pick(300_000, 1_200_000);
    let cfg = AuditConfig::new(n, ALPHA, ctx.seed_for(id))
        .train(n / 3)
        .delta(1e-5)
        .gaussian(Some(2.0 / sigma));
    let r = audit(f, &x, &xp, &claim, &MeanDifferenceProjection, &cfg).map_err(e)?;
    let mut o = audit_outcome(
        ctx,
        id,
        CheckKind::Audit,
        claim.subject.clone(),
        &r,
        Expect::Holds {
            min_tightness: Some(MIN_TIGHTNESS),
        },
    );
    o.measured.push_str(&format!(
        "; claim's mu = sqrt(2 rho) = 1, the pair reaches 2 / sigma = {:.4}",
        2.0 / sigma
    ));
    Ok(o)
}

fn tree_prefix_sums(ctx: &Context) -> Result<Outcome, String> {
    let id = "audit/tree/prefix-sums";
    let horizon = 15u64;
    let tree = TreeAggregation::new(StreamShape::Vector(1), horizon, 1.0, 2.0).map_err(e)?;
    let claim = tree.claim();
    let rho = tree.rho();
    // Streams of 15 scalars, equal except the first item (0 vs 1): the first item lies in one
    // node of every level, all completed by T = 15, so the released prefix sums are a Gaussian
    // shift of Mahalanobis norm sqrt(L) / sigma.
    let f = |first: &f64, rng: &mut ChaCha20Rng| -> Vec<f64> {
        let mut t = tree.clone();
        (0..horizon)
            .map(|i| {
                let v = if i == 0 { *first } else { 0.0 };
                t.push_packed(ndarray::arr1(&[v]).view(), rng)
                    .map(|s| s[0])
                    .unwrap_or(f64::NAN)
            })
            .collect()
    };
    let mu_pair = (tree.levels() as f64).sqrt() / tree.sigma();
    let n = ctx.mode.pick(120_000, 500_000);
    let cfg = AuditConfig::new(n, ALPHA, ctx.seed_for(id))
        .train(n / 2)
        .delta(1e-5)
        .gaussian(Some(mu_pair));
    let r = audit(f, &0.0, &1.0, &claim, &FisherDiscriminant, &cfg).map_err(e)?;
    let mut o = audit_outcome(
        ctx,
        id,
        CheckKind::Audit,
        claim.subject.clone(),
        &r,
        Expect::Holds {
            min_tightness: Some(0.85),
        },
    );
    o.measured.push_str(&format!(
        "; claimed rho = {rho:.4} (mu = sqrt(2 rho) = {:.4})",
        (2.0 * rho).sqrt()
    ));
    Ok(o)
}

fn exponential_eps1(ctx: &Context) -> Result<Outcome, String> {
    let id = "audit/exponential/eps-1";
    let m = ExponentialMechanism::new(1.0, 1.0).map_err(e)?;
    // 20 candidates; x raises candidate 0 by the sensitivity, x' raises all the others: the
    // ratio at candidate 0 is e^(1/2) (1 + 19 e^(1/2)) / (e^(1/2) + 19) = e^0.948.
    let k = 20;
    let ux: Vec<f64> = (0..k).map(|i| if i == 0 { 1.0 } else { 0.0 }).collect();
    let uxp: Vec<f64> = (0..k).map(|i| if i == 0 { 0.0 } else { 1.0 }).collect();
    let f = |u: &Vec<f64>, rng: &mut ChaCha20Rng| m.select(u, rng).unwrap_or(usize::MAX);
    let n = ctx.mode.pick(400_000, 2_000_000);
    let cfg = AuditConfig::new(n, ALPHA, ctx.seed_for(id)).train(n / 4);
    let r = audit(f, &ux, &uxp, &m.claim(), &DiscreteCounts, &cfg).map_err(e)?;
    let best = ((0.5f64.exp() * (1.0 + 19.0 * 0.5f64.exp())) / (0.5f64.exp() + 19.0)).ln();
    let mut o = audit_outcome(
        ctx,
        id,
        CheckKind::Audit,
        format!("{} on 20 candidates", m.claim().subject),
        &r,
        Expect::Holds {
            min_tightness: None,
        },
    );
    o.measured.push_str(&format!(
        "; the largest privacy loss of this pair is {best:.4}"
    ));
    Ok(o.value("pair_privacy_loss", best))
}

fn subsampled(ctx: &Context, id: &str, steps: usize) -> Result<Outcome, String> {
    let (q, z) = (0.25, 1.0);
    let m = SubsampledGaussian::new(q, 1.0, z).map_err(e)?;
    let claim = m.claim(steps as u64).map_err(e)?;
    let delta = 1e-5;
    let pld = privacy::accountant::pld::subsampled_gaussian_pld_epsilon(
        q,
        z,
        steps as u64,
        delta,
        Default::default(),
    )
    .map_err(e)?;
    let weights = ndarray::Array2::<f64>::ones((2, 1));
    let weights_one = ndarray::Array2::<f64>::ones((1, 1));
    // D' = {a zero vector, the target with vector S = 1}; D = {the zero vector}. x = D'.
    let with = ndarray::arr2(&[[0.0], [1.0]]);
    let without = ndarray::arr2(&[[0.0]]);
    let f = |present: &bool, rng: &mut ChaCha20Rng| -> Vec<f64> {
        let (v, w) = if *present {
            (with.view(), weights.view())
        } else {
            (without.view(), weights_one.view())
        };
        (0..steps)
            .map(|_| {
                m.aggregate(v, w, rng)
                    .map(|a| a.vectors[[0, 0]])
                    .unwrap_or(f64::NAN)
            })
            .collect()
    };
    // Exact LLR of D' against D: sum over steps of ln(1 - q + q exp((y mu - mu^2/2) / sigma^2)),
    // mu = S/q the shift of the target, sigma the noise.
    let sigma = m.sigma(1.0);
    let mu = 1.0 / q;
    let llr = Known::new(
        "exact LLR of the subsampled Gaussian mixture",
        move |ys: &Vec<f64>| {
            ys.iter()
                .map(|y| (1.0 - q + q * ((y * mu - mu * mu / 2.0) / (sigma * sigma)).exp()).ln())
                .sum::<f64>()
        },
    );
    let n = ctx.mode.pick(400_000, 2_000_000) / steps.max(1);
    let cfg = AuditConfig::new(n, ALPHA, ctx.seed_for(id))
        .train(n / 2)
        .delta(delta);
    let r = audit(f, &true, &false, &claim, &llr, &cfg).map_err(e)?;
    let mut o = audit_outcome(
        ctx,
        id,
        CheckKind::Audit,
        claim.subject.clone(),
        &r,
        Expect::Holds {
            min_tightness: None,
        },
    );
    let pld_violated = r.eps_lower > pld.epsilon;
    if pld_violated {
        o.verdict = Verdict::Fail;
    }
    o.claim.push_str(&format!(
        "; and eps_lower <= the PLD accountant's epsilon {:.4} at delta = {delta:e}",
        pld.epsilon
    ));
    o.measured.push_str(&format!(
        "; accountants at delta = {delta:e}: RDP (orders 2..33) {}, PLD {:.4} (optimistic {:.4})",
        fmt_opt(r.eps_claimed),
        pld.epsilon,
        pld.epsilon_optimistic
    ));
    Ok(o.value("pld_epsilon", pld.epsilon)
        .value("rdp_epsilon", r.eps_claimed)
        .value("steps", steps))
}

fn subsampled_one(ctx: &Context) -> Result<Outcome, String> {
    subsampled(ctx, "audit/subsampled/one-step", 1)
}

fn subsampled_four(ctx: &Context) -> Result<Outcome, String> {
    subsampled(ctx, "audit/subsampled/four-steps", 4)
}

fn control_laplace_half_scale(ctx: &Context) -> Result<Outcome, String> {
    let id = "audit/control/laplace-half-scale";
    let claimed = LaplaceMechanism::new(1.0, 1.0).map_err(e)?;
    // eps = 2 gives half the scale of the claimed eps = 1 mechanism.
    let broken = LaplaceMechanism::new(2.0, 1.0).map_err(e)?;
    let f = |x: &f64, rng: &mut ChaCha20Rng| broken.release_scalar(*x, rng).unwrap_or(f64::NAN);
    let n = ctx.mode.pick(200_000, 1_000_000);
    let cfg = AuditConfig::new(n, ALPHA, ctx.seed_for(id));
    let r = audit(
        f,
        &0.0,
        &1.0,
        &claimed.claim(),
        &HistogramRatio { bins: 100 },
        &cfg,
    )
    .map_err(e)?;
    Ok(audit_outcome(
        ctx,
        id,
        CheckKind::PositiveControl,
        format!(
            "Laplace with scale {} claiming {}",
            broken.scale(),
            claimed.claim().subject
        ),
        &r,
        Expect::Flagged,
    ))
}

fn control_ctl_without_clipping(ctx: &Context) -> Result<Outcome, String> {
    let id = "audit/control/ctl-without-clipping";
    let m = ConvertToLaplace::new(1.0, 1.0, 0.5).map_err(e)?;
    let grid = Grid::for_sensitivity(2.0 * m.bound(), 1, Norm::L1).map_err(e)?;
    let scale = m.scale();
    // CTL's noise without the clipping step, on a reward outside [-(B+R), B+R].
    let f = |y: &f64, rng: &mut ChaCha20Rng| {
        Sampler::Hardened
            .perturb_laplace(*y, scale, grid, rng)
            .unwrap_or(f64::NAN)
    };
    let (x, xp) = (-m.bound(), 3.0 * m.bound());
    let n = ctx.mode.pick(200_000, 1_000_000);
    let cfg = AuditConfig::new(n, ALPHA, ctx.seed_for(id));
    let r = audit(f, &x, &xp, &m.claim(), &HistogramRatio { bins: 100 }, &cfg).map_err(e)?;
    Ok(audit_outcome(
        ctx,
        id,
        CheckKind::PositiveControl,
        format!(
            "CTL noise without clipping on rewards {x} and {xp}, claiming {}",
            m.claim().subject
        ),
        &r,
        Expect::Flagged,
    ))
}

fn control_reference_laplace(ctx: &Context) -> Result<Outcome, String> {
    let id = "audit/control/reference-laplace-histogram";
    // The auditor's own continuous Laplace at exactly its claim, audited black-box.
    let f = |x: &f64, rng: &mut ChaCha20Rng| {
        let u: f64 = rand::RngExt::random::<f64>(rng) - 0.5;
        x - u.signum() * (-2.0 * u.abs()).ln_1p()
    };
    let claim = LaplaceMechanism::new(1.0, 1.0)
        .map_err(e)?
        .with_sampler(Sampler::Textbook)
        .claim();
    let n = ctx.mode.pick(1_000_000, 4_000_000);
    let cfg = AuditConfig::new(n, ALPHA, ctx.seed_for(id)).train(n / 2);
    let r = audit(f, &0.0, &1.0, &claim, &HistogramRatio { bins: 200 }, &cfg).map_err(e)?;
    Ok(audit_outcome(
        ctx,
        id,
        CheckKind::NegativeControl,
        "continuous Laplace(1) written in the auditor, claim eps = 1, black box (histogram)".into(),
        &r,
        Expect::Holds {
            min_tightness: Some(0.85),
        },
    ))
}

/// The porosity test of one Laplace mechanism: `n` outputs under `x = 0`, each checked for
/// reachability from `x' = 1` by `reachable_from_xp`; `m` outputs under `x'` must all be
/// reachable from `x'` (a check of the reachability decision itself).
fn porosity_counts(
    mech: &LaplaceMechanism,
    n: usize,
    seed: u64,
    reachable_from_xp: &(dyn Fn(f64) -> Result<bool, String> + Sync),
) -> Result<(u64, u64, u64), String> {
    let f = |x: &f64, rng: &mut ChaCha20Rng| mech.release_scalar(*x, rng).unwrap_or(f64::NAN);
    let under_x = sample_map(&f, &0.0, n, seed, reachable_from_xp);
    let unreachable = under_x.iter().try_fold(0u64, |acc, r| {
        r.as_ref()
            .map(|ok| acc + u64::from(!ok))
            .map_err(Clone::clone)
    })?;
    let m = (n / 10).max(100);
    let under_xp = sample_map(&f, &1.0, m, seed ^ 0x5eed, reachable_from_xp);
    let self_unreachable = under_xp.iter().try_fold(0u64, |acc, r| {
        r.as_ref()
            .map(|ok| acc + u64::from(!ok))
            .map_err(Clone::clone)
    })?;
    Ok((unreachable, self_unreachable, m as u64))
}

fn porosity_textbook(ctx: &Context) -> Result<Outcome, String> {
    let id = "audit/porosity/textbook-laplace";
    let n = ctx.mode.pick(100_000, 1_000_000);
    let mut rows = Vec::new();
    let mut all_flagged = true;
    let mut measured = Vec::new();
    for eps in [0.1, 0.5, 1.0, 2.0, 4.0] {
        let mech = LaplaceMechanism::new(eps, 1.0)
            .map_err(e)?
            .with_sampler(Sampler::Textbook);
        // The textbook sampler maps the uniform double k 2^-53 monotonically (increasing in k on
        // [0, 2^52) and on [2^52, 2^53)); we evaluate the mechanism itself on a replayed uniform.
        let pieces = [
            Piece {
                start: 0,
                end: 1 << 52,
            },
            Piece {
                start: 1 << 52,
                end: 1 << 53,
            },
        ];
        let m = &mech;
        let from_xp = move |y: f64| -> Result<bool, String> {
            let g = |k: u64| {
                let mut rng = ReplayRng::new(k << 11);
                let v = m.release_scalar(1.0, &mut rng).unwrap_or(f64::NAN);
                if rng.draws() == 1 { v } else { f64::NAN }
            };
            if g(1 << 52).is_nan() {
                return Err("the textbook sampler does not draw exactly one u64 per output".into());
            }
            Ok(reachable(g, y, &pieces))
        };
        let (unreachable, self_unreachable, m_checked) =
            porosity_counts(&mech, n, ctx.seed_for(&format!("{id}/{eps}")), &from_xp)?;
        if self_unreachable > 0 {
            return Err(format!(
                "{self_unreachable} outputs under x' were found unreachable from x': the reachability search is wrong"
            ));
        }
        // P_x'(E) = 0 exactly; a certified P_x(E) > 0 (> delta = 0 of pure DP) violates eps-DP for
        // every eps. Clopper-Pearson lower bound at level ALPHA.
        let p_lower = clopper_pearson_lower(unreachable, n as u64, ALPHA);
        let flagged = p_lower > 0.0;
        all_flagged &= flagged;
        measured.push(format!(
            "eps {eps}: {unreachable}/{n} outputs unreachable from x' (P >= {p_lower:.3e})"
        ));
        rows.push(json!({"epsilon": eps, "scale": mech.scale(), "unreachable": unreachable, "samples": n, "p_unreachable_lower": p_lower,
            "outputs_under_x_prime_checked": m_checked, "flagged": flagged}));
    }
    Ok(Outcome::new(
        CheckKind::PositiveControl,
        "textbook Laplace mechanism (inverse CDF on a uniform double), sensitivity 1, inputs 0 and 1",
        "at every eps in {0.1, 0.5, 1, 2, 4} some outputs under x = 0 are unreachable from x' = 1 (porosity: infinite privacy loss)",
        measured.join("; "),
        crate::check::verdict(all_flagged),
    )
    .audit(json!({"test": "porosity (Mironov 2012)", "event": "output not in the image of x' = 1", "confidence": 1.0 - ALPHA, "rows": rows,
        "eps_lower": if all_flagged { "inf" } else { "none" }, "tightness": null}))
    .value("rows", rows))
}

fn porosity_hardened(ctx: &Context) -> Result<Outcome, String> {
    let id = "audit/porosity/hardened-laplace";
    let n = ctx.mode.pick(100_000, 1_000_000);
    let mech = LaplaceMechanism::new(1.0, 1.0).map_err(e)?;
    let grid = Grid::for_sensitivity(1.0, 1, Norm::L1).map_err(e)?;
    let w = grid.width();
    // The hardened output is value_of(index_of(x') + Z) with Z a discrete Laplace (every integer
    // has positive probability) and value_of(j) = j 2^k exact for |j| <= 2^53. So an output y is
    // reachable from x' = 1 exactly when y / 2^k (exact: a power-of-two division) is an integer
    // of magnitude <= 2^53.
    let from_xp = move |y: f64| -> Result<bool, String> {
        let j = y / w;
        Ok(y.is_finite() && j.fract() == 0.0 && j.abs() <= 9_007_199_254_740_992.0)
    };
    let (unreachable, self_unreachable, m_checked) =
        porosity_counts(&mech, n, ctx.seed_for(id), &from_xp)?;
    let ok = unreachable == 0 && self_unreachable == 0;
    Ok(Outcome::new(
        CheckKind::NegativeControl,
        format!("{} (discrete Laplace on the grid 2^{})", mech.claim().subject, grid.exponent()),
        "no output under x = 0 is unreachable from x' = 1 (the support does not depend on the input)",
        format!("{unreachable}/{n} outputs under x unreachable from x'; {self_unreachable}/{m_checked} under x' off the grid"),
        crate::check::verdict(ok),
    )
    .audit(json!({"test": "porosity (Mironov 2012)", "event": "output not in the image of x' = 1", "samples": n, "unreachable": unreachable,
        "grid_exponent": grid.exponent(), "tightness": null}))
    .value("unreachable", unreachable)
    .false_alarm(0.0))
}

/// The Zhou & Tan synthetic RKHS problem (100 arms on [0, 1], SE kernel l = 0.2, max |f| = 1)
/// with Gaussian reward noise of standard deviation [`SCALING_NOISE`], annotated with
/// `B = ||f||_H` and the kernel.
fn rkhs_environment(
    rng: &mut ChaCha20Rng,
) -> Result<Annotated<FixedSetEnvironment, (f64, RkhsKernel)>, BanditError> {
    RkhsSynthetic::default()
        .sample(rng)?
        .annotated_environment(RewardModel::Gaussian {
            sigma: SCALING_NOISE,
        })
}

/// Reward noise of the scaling power checks.
const SCALING_NOISE: f64 = 0.1;

/// The theory the power checks compare with: IGP-UCB (Chowdhury & Gopalan 2017, Theorem 3),
/// `R_T = O(sqrt(T) (B sqrt(gamma_T) + gamma_T))`, and for the SE kernel in `d = 1`
/// `gamma_T = O((ln T)^(d+1))` (Srinivas et al. 2010): exponent 1/2, log factor `(ln T)^2`.
fn igp_ucb_theory(horizons: Vec<usize>, seeds: usize, seed: u64) -> ScalingConfig {
    scaling_config(horizons, seeds, seed, 0.5, 2.0)
}

/// A scaling check at the suite's level [`ALPHA`] with 1000 bootstrap replicates, against the
/// exponent `theory_exponent` of `T` with log factor `(ln T)^log_power`.
pub(crate) fn scaling_config(
    horizons: Vec<usize>,
    seeds: usize,
    seed: u64,
    theory_exponent: f64,
    log_power: f64,
) -> ScalingConfig {
    ScalingConfig {
        horizons,
        seeds,
        bootstrap: 1000,
        alpha: ALPHA,
        theory_exponent,
        log_power,
        seed,
    }
}

pub(crate) fn scaling_outcome(
    ctx: &Context,
    id: &str,
    kind: CheckKind,
    subject: &str,
    r: &ScalingResult,
    expected: Verdict,
) -> Outcome {
    let verdict = if r.verdict == expected {
        Verdict::Pass
    } else if r.verdict == Verdict::Inconclusive {
        Verdict::Inconclusive
    } else {
        Verdict::Fail
    };
    let claim = format!(
        "the scaling checker returns {} against exponent {} with log factor (ln T)^{} (slope of ln(R_T / (ln T)^{}) vs ln T, {}-seed bootstrap interval at level 1 - {:e})",
        expected.to_string().to_uppercase(),
        r.config.theory_exponent,
        r.config.log_power,
        r.config.log_power,
        r.config.seeds,
        r.config.alpha
    );
    let measured = format!(
        "{}: slope {:.3}, interval [{:.3}, {:.3}] (bootstrap se {:.3}, 95% percentile [{:.3}, {:.3}]); horizons {:?}; mean regret {:?}",
        r.verdict.to_string().to_uppercase(),
        r.slope,
        r.slope_lower,
        r.slope_upper,
        r.slope_se,
        r.percentile_95.0,
        r.percentile_95.1,
        r.config.horizons,
        r.mean
            .iter()
            .map(|m| (m * 100.0).round() / 100.0)
            .collect::<Vec<_>>()
    );
    let mut o = Outcome::new(kind, subject, claim, measured, verdict)
        .value("scaling_verdict", r.verdict)
        .value("slope", r.slope)
        .value("slope_lower", r.slope_lower)
        .value("slope_upper", r.slope_upper)
        .value("slope_se", r.slope_se)
        .value("theory_exponent", r.config.theory_exponent)
        .value("log_power", r.config.log_power)
        .value("horizons", &r.config.horizons)
        .value("mean_regret", &r.mean)
        .value("seeds", r.config.seeds);
    if expected == Verdict::Pass {
        // Nominal (asymptotic) level of the normal bootstrap interval.
        o = o.false_alarm(r.config.alpha);
    }
    let rel = crate::plot::relative_path(id, crate::plot::SCALING_SUFFIX);
    if crate::plot::scaling(&ctx.out_dir.join(&rel), id, r).is_ok() {
        o = o.plot(rel);
    }
    o
}

fn scaling_gp_ucb(ctx: &Context) -> Result<Outcome, String> {
    let id = "audit/scaling/gp-ucb-rkhs";
    let horizons = geometric_horizons(8, ctx.mode.pick(256, 1024), ctx.mode.pick(6, 8));
    let config = igp_ucb_theory(horizons, ctx.mode.pick(16, 48), ctx.seed_for(id));
    // One run of horizon T_max per seed (eta = 2 / T_max), every horizon read off its curve.
    let curve = |t_max: usize, seed: u64| {
        regret_curve_non_private(
            rkhs_environment,
            |env: &Annotated<FixedSetEnvironment, (f64, RkhsKernel)>, _: &mut ChaCha20Rng| {
                GpUcb::new(
                    env.info.1.clone(),
                    IgpUcbParams::new(env.info.0, SCALING_NOISE, 0.1, t_max)?,
                )
            },
            t_max,
            seed,
        )
        .unwrap_or_default()
    };
    let r = check_scaling_curves(curve, &config).map_err(e)?;
    Ok(scaling_outcome(
        ctx,
        id,
        CheckKind::NegativeControl,
        "exact GP-UCB (IGP-UCB width, B = ||f||_H, R = 0.1, delta = 0.1) on the Zhou & Tan RKHS synthetic (100 arms, SE l = 0.2), Gaussian noise 0.1",
        &r,
        Verdict::Pass,
    ))
}

fn scaling_uniform(ctx: &Context) -> Result<Outcome, String> {
    let id = "audit/scaling/uniform-random";
    let horizons = geometric_horizons(100, ctx.mode.pick(100_000, 1_000_000), 7);
    let config = igp_ucb_theory(horizons, ctx.mode.pick(16, 48), ctx.seed_for(id));
    let curve = |t_max: usize, seed: u64| {
        regret_curve_non_private(
            rkhs_environment,
            |_: &Annotated<FixedSetEnvironment, (f64, RkhsKernel)>, _: &mut ChaCha20Rng| {
                Ok::<_, BanditError>(UniformRandom)
            },
            t_max,
            seed,
        )
        .unwrap_or_default()
    };
    let r = check_scaling_curves(curve, &config).map_err(e)?;
    Ok(scaling_outcome(
        ctx,
        id,
        CheckKind::PositiveControl,
        "uniform random policy (linear regret) on the same problem, against the IGP-UCB bound",
        &r,
        Verdict::Fail,
    ))
}

fn control_textbook_float_llr(ctx: &Context) -> Result<Outcome, String> {
    let id = "audit/control/textbook-laplace-float-llr";
    // The textbook Laplace at its exact scale, audited with the exact LLR formula evaluated in
    // floating point: `(|o - 1| - |o|) / b` equals 1/b for every real o <= 0, but its rounding
    // depends on the low-order bits of o, which differ between outputs near 0 (from x = 0) and
    // outputs from x' = 1. The auditor finds that event (a floating-point attack in the sense of
    // Mironov 2012, found by the statistical route instead of the porosity search).
    let m = LaplaceMechanism::new(1.0, 1.0)
        .map_err(e)?
        .with_sampler(Sampler::Textbook);
    let f = |x: &f64, rng: &mut ChaCha20Rng| m.release_scalar(*x, rng).unwrap_or(f64::NAN);
    let n = ctx.mode.pick(200_000, 1_000_000);
    let cfg = AuditConfig::new(n, ALPHA, ctx.seed_for(id));
    let r = audit(
        f,
        &0.0,
        &1.0,
        &m.claim(),
        &laplace_llr(1.0, m.scale()),
        &cfg,
    )
    .map_err(e)?;
    Ok(audit_outcome(
        ctx,
        id,
        CheckKind::PositiveControl,
        format!(
            "{} with the floating-point LLR statistic",
            m.claim().subject
        ),
        &r,
        Expect::Flagged,
    ))
}

/// CTL's privatised reward as the message of a non-private agent (the learner sees only
/// `clip(y) + Laplace(2 (B + R) / eps)`).
struct CtlRewards(ConvertToLaplace);

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

fn scaling_privacy_sweep(ctx: &Context) -> Result<Outcome, String> {
    let id = "audit/scaling/privacy-sweep-ctl-gp-ucb";
    let horizon = ctx.mode.pick(128, 256);
    let seeds = ctx.mode.pick(16, 48);
    let epsilons = [0.5, 1.0, 2.0, 4.0, 8.0, 16.0];
    // B + R of CTL: |f| <= 1 and the Gaussian noise (sd 0.1) clipped at 0.5.
    let (b, r_bound) = (1.0, 0.5);
    let regret = |eps: f64, seed: u64| -> f64 {
        let run = || -> Result<f64, String> {
            let ctl = ConvertToLaplace::new(eps, b, r_bound).map_err(e)?;
            // The message noise: Laplace (sd sqrt 2 times its scale) plus the reward noise.
            let r_msg = std::f64::consts::SQRT_2 * ctl.scale() + SCALING_NOISE;
            let curve = regret_curve(
                rkhs_environment,
                |env: &Annotated<FixedSetEnvironment, (f64, RkhsKernel)>, _: &mut ChaCha20Rng| {
                    GpUcb::new(
                        env.info.1.clone(),
                        IgpUcbParams::new(env.info.0, r_msg, 0.1, horizon)?,
                    )
                },
                |_: &Annotated<FixedSetEnvironment, (f64, RkhsKernel)>, _: &mut ChaCha20Rng| {
                    Ok::<_, privacy::PrivacyError>(CtlRewards(ctl.clone()))
                },
                horizon,
                seed,
            )
            .map_err(e)?;
            curve
                .last()
                .copied()
                .ok_or_else(|| "empty regret curve".to_string())
        };
        run().unwrap_or(f64::NAN)
    };
    let sweep = privacy_sweep(regret, &epsilons, seeds, 1.0, ALPHA, ctx.seed_for(id)).map_err(e)?;
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
