//! The audit of the prediction stage (Algorithm 1, lines 15-18) and its positive controls.
//!
//! The pair: a synthetic SE problem, `T = 32` learning rows, a small approximating set
//! (`|Z| = 8`, so that `sigma^2` comes close to its bound `1 / tau` somewhere: the worst case
//! for the proven sensitivity), the differing user placed at the point `(x*, c*)` of largest
//! `sigma^2` (a 101-point grid of `C`) with reward `+B` in one data set and `-B` in the other,
//! and `c_{T+1} = c*`. Then `mu_T(x*, c*)` moves by `2 B sigma^2(x*, c*)`, which is the
//! Cauchy-Schwarz bound attained, and the other utilities by less.
//!
//! The output `x_hat` is discrete (50 actions): the auditor counts outputs exactly. The
//! utilities of the two data sets are computed once by the crate's
//! [`PredictionStage::utilities`](usca::PredictionStage::utilities) (deterministic), and each
//! sample is one draw of the crate's hardened exponential mechanism on them (the crate's test
//! `release_is_select_on_utilities` checks that `release` is exactly this).

use std::sync::Arc;

use privacy::Mechanism;
use privacy::mechanisms::ExponentialMechanism;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use usca::sensitivity::argmax_sigma2;
use usca::synthetic::SyntheticProblem;
use usca::{
    LearningData, PredictionStage, SensitivityRule, SurrogateVariance, UscaParams,
    learning_stage, sample_approximating_set, sensitivity,
};

use crate::audit::{AuditConfig, AuditResult, DiscreteCounts, audit};
use crate::check::{CheckError, CheckResult, Context};
use crate::report::CheckKind;
use crate::shared::{ALPHA, Expect, audit_outcome};

/// `eps` of the audited prediction.
const EPS: f64 = 1.0;
/// Learning rounds of the pair.
const T: usize = 32;
/// `|Z|` of the pair.
const Z_SIZE: usize = 8;

/// The audited pair: the stage and the utilities under both data sets.
struct Pair {
    stage: PredictionStage,
    u: Vec<f64>,
    u_prime: Vec<f64>,
    b: f64,
}

/// Build the pair; the differing row's reward in the first data set is `+B`, or
/// `unclipped_reward` left unclipped (the control).
fn pair(ctx: &Context, unclipped_reward: Option<f64>) -> Result<Pair, CheckError> {
    let params = UscaParams::default();
    let b = params.reward_bound;
    let mut rng = ChaCha20Rng::seed_from_u64(ctx.sub_seed("pair"));
    let inst = SyntheticProblem::default().sample(&mut rng)?;
    let data = learning_stage(&inst.problem, T, b, &mut rng)?;
    let z = sample_approximating_set(&inst.problem, Z_SIZE, &mut rng)?;
    let variance = Arc::new(SurrogateVariance::new(inst.kernel.clone(), z, T, params.tau)?);
    let (a, c, _) = argmax_sigma2(&variance, &inst.problem, 101)?;
    let w = inst.problem.joint(a, c.view());
    let mut points = data.points().to_owned();
    points.row_mut(0).assign(&w);
    let mut y = data.rewards().to_owned();
    y[0] = b;
    let x = match unclipped_reward {
        None => LearningData::new(points.clone(), y.clone(), b)?,
        Some(r) => {
            y[0] = r;
            LearningData::new_unclipped_for_control(points.clone(), y.clone())
        }
    };
    y[0] = -b;
    let x_prime = LearningData::new(points, y, b)?;
    let bound = sensitivity(
        SensitivityRule::Proven,
        &variance,
        &inst.problem,
        Some(&inst.product),
        b,
        &mut rng,
    )?;
    let stage = PredictionStage::new(variance, inst.problem.clone(), c, EPS, bound)?;
    let u = stage.utilities(&x)?;
    let u_prime = stage.utilities(&x_prime)?;
    Ok(Pair {
        stage,
        u,
        u_prime,
        b,
    })
}

/// `max_i |ln p_i - ln p'_i|`: the exact privacy loss of the pair under `m`.
fn pair_loss(m: &ExponentialMechanism, u: &[f64], v: &[f64]) -> Result<f64, CheckError> {
    let p = m.probabilities(u)?;
    let q = m.probabilities(v)?;
    Ok(p.iter()
        .zip(&q)
        .map(|(a, b)| (a.ln() - b.ln()).abs())
        .fold(0.0, f64::max))
}

fn run_audit(ctx: &Context, m: &ExponentialMechanism, pair: &Pair) -> Result<AuditResult, CheckError> {
    let n = ctx.mode.pick(400_000, 2_000_000);
    let cfg = AuditConfig::new(n, ALPHA, ctx.check_seed()).train(n / 4);
    Ok(audit(
        |u: &Vec<f64>, rng: &mut ChaCha20Rng| m.select(u, rng),
        &pair.u,
        &pair.u_prime,
        &pair.stage.claim(),
        &DiscreteCounts,
        &cfg,
    )?)
}

fn realised(pair: &Pair) -> f64 {
    pair.u
        .iter()
        .zip(&pair.u_prime)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max)
}

pub(super) fn prediction_stage(ctx: &Context) -> CheckResult {
    let p = pair(ctx, None)?;
    let m = p.stage.mechanism().clone();
    let r = run_audit(ctx, &m, &p)?;
    let loss = pair_loss(&m, &p.u, &p.u_prime)?;
    let real = realised(&p);
    let delta = p.stage.bound().sensitivity;
    let mut o = audit_outcome(
        ctx,
        CheckKind::Audit,
        format!("{} on 50 actions, T = {T}, |Z| = {Z_SIZE}", p.stage.claim().subject),
        &r,
        Expect::holds(None),
    );
    o.measured.push_str(&format!(
        "; realised utility change {real:.4} of the bound Delta = {delta:.4} ({:.1}%), so the \
         privacy this pair can show is eps * {real:.4} / {delta:.4} = {:.4} at most (exponential \
         mechanism theorem) and exactly {loss:.4} (max |ln p - ln p'|); tightness of eps_lower \
         against eps {:.3}, against the pair's exact loss {:.3}",
        100.0 * real / delta,
        EPS * real / delta,
        r.eps_lower / EPS,
        r.eps_lower / loss
    ));
    Ok(o.value("realised_sensitivity", real)
        .value("sensitivity_bound", delta)
        .value("pair_privacy_loss", loss)
        .value("tightness_vs_pair_loss", r.eps_lower / loss))
}

pub(super) fn no_clipping(ctx: &Context) -> CheckResult {
    let probe = pair(ctx, None)?;
    let p = pair(ctx, Some(10.0 * probe.b))?;
    let m = p.stage.mechanism().clone();
    let r = run_audit(ctx, &m, &p)?;
    let loss = pair_loss(&m, &p.u, &p.u_prime)?;
    let mut o = audit_outcome(
        ctx,
        CheckKind::PositiveControl,
        "prediction stage with the differing reward 10 B left unclipped".into(),
        &r,
        Expect::Flagged,
    );
    o.measured.push_str(&format!("; exact pair loss {loss:.4}"));
    Ok(o.value("pair_privacy_loss", loss))
}

pub(super) fn sensitivity_too_small(ctx: &Context) -> CheckResult {
    let p = pair(ctx, None)?;
    let real = p.stage.mechanism().clone();
    let broken = ExponentialMechanism::new(EPS, p.stage.bound().sensitivity / 10.0)?
        .with_sampler(real.sampler());
    let r = run_audit(ctx, &broken, &p)?;
    let loss = pair_loss(&broken, &p.u, &p.u_prime)?;
    let mut o = audit_outcome(
        ctx,
        CheckKind::PositiveControl,
        "prediction stage with a sensitivity ten times too small".into(),
        &r,
        Expect::Flagged,
    );
    o.measured.push_str(&format!("; exact pair loss {loss:.4}"));
    Ok(o.value("pair_privacy_loss", loss))
}
