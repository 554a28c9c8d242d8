//! The prediction stage's sensitivity recomputed in a second form and held against what the
//! stage measurably does (issue 31, "checks that do not trust the claim").
//!
//! # What is recomputed
//! Lemma 4.2 / 7.1 with a bound instead of an estimate (docs/usca.md, "The sensitivity of
//! `mu_T`"): two `t`-neighbours differ in one row `(w_t, y_t)` against `(w'_t, y'_t)`, and
//! `mu_T(w) - mu'_T(w) = <phi(w), phi(w_t) y_t - phi(w'_t) y'_t>` in the inner product
//! `<a, b> = a^T Z~^{-1} b`, `Z~ = (T/m) Phi_Z Phi_Z^T + tau I`. Written here in its kernel
//! form (Woodbury) a second time, with the regulariser `rho = (m / T) tau` of Lemma 6.2 and
//! `(K_ZZ + rho I)^{-1}` inverted by Gauss-Jordan elimination in the check (the crate factors
//! it by Cholesky):
//!
//! `<phi(a), phi(b)> = (1/tau) (k(a, b) - k_Z(a)^T (K_ZZ + rho I)^{-1} k_Z(b))`.
//!
//! The change the stage at `c = c_{T+1}` must tolerate is at least
//! `R(c) = 2 B max_{x in X} max_{w_t} abs(<phi(x, c), phi(w_t)>)` (rewards `+B` against `-B`
//! at the same row `w_t`, which Definition 2.4 allows), here maximised over `w_t` in a grid of
//! `W = X x C`: a lower bound on the sensitivity the claim needs, so a certified `Delta` below
//! it is a privacy bug. The context `c` is the grid context of largest `max_x sigma^2(x, c)`
//! (recomputed), where `R(c)` comes closest to `2 B sup_W sigma^2`. The proven bound
//! `2 B sup k(w, w) / tau` is recomputed from the kernel's diagonal on the grid (every rule's
//! cap; the proven rule's value).
//!
//! # What is measured
//! - *The realised change of the utilities* ([`usca::PredictionStage::utilities`], through the
//!   crate's clipping in [`usca::LearningData::new`]) between neighbours built from the extreme
//!   row: rewards `+10^6` against `-10^6` at the maximising `w_t`, and `-10^6` at the corner of
//!   `C` farthest from `c` (a context-changing neighbour); it must not exceed the certified
//!   `Delta`, and the first must equal `R(c)` (the recomputation is the estimator's: relative
//!   `1e-6`).
//! - *The log-ratio of the selection probabilities* ([`usca::PredictionStage::probabilities`])
//!   across those neighbours: at most the claimed `eps`.
//! - *The scale the sampler uses*: the stage's exponential mechanism on two candidates with
//!   utilities `0` and `R(c)`, 100 000 draws: with any `Delta >= R(c)` candidate 1 is drawn with
//!   probability at most `p* = 1 / (1 + e^(-eps/2))`; an exact one-sided binomial test at
//!   [`ALPHA`] flags more.
//!
//! Deterministic judgements allow a relative `1e-9` for rounding; the binomial test is the only
//! random one (false failure at most `ALPHA`, its seed fixed).

use std::sync::Arc;

use kernel::Kernel;
use ndarray::{Array1, Array2, ArrayView2, Axis};
use privacy::mechanisms::ExponentialMechanism;
use privacy::{Guarantee, Mechanism};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use usca::certificate::DEFAULT_REFINEMENT_CONTEXTS;
use usca::synthetic::SyntheticProblem;
use usca::{
    ContextualProblem, LearningData, PredictionStage, SensitivityRule, SurrogateVariance,
    UscaParams, learning_stage, sample_approximating_set, sensitivity,
};
use verification::{CheckError, CheckKind, CheckResult, Context, Outcome, Verdict};

use crate::shared::{ALPHA, RateJudgement, RateSides, RateVerdict, ReachJudgement};

/// `eps` of the stage.
const EPS: f64 = 1.0;
/// Learning rounds.
const T: usize = 32;
/// Grid contexts per dimension of `C` for the recomputation (one dimension in the default
/// problem; 21 per dimension otherwise).
const GRID_1D: usize = 201;
/// Draws of the sampler measurement.
const DRAWS: usize = 100_000;
/// The reward of the extreme rows, far outside `[-B, B]`.
const EXTREME: f64 = 1e6;
/// Relative rounding allowance of the deterministic judgements.
const ROUNDING: f64 = 1e-9;
/// Relative agreement required between the measured and the recomputed change.
const AGREEMENT: f64 = 1e-6;

/// `(name, rule, |Z|)` of the cases.
fn rules() -> Vec<(&'static str, SensitivityRule, usize)> {
    vec![
        ("proven", SensitivityRule::Proven, 8),
        (
            "query-context (proven S)",
            SensitivityRule::QueryContext {
                points_per_dim: None,
                refinement_contexts: 0,
            },
            8,
        ),
        (
            "certified (64 cells, refined)",
            SensitivityRule::Certified {
                points_per_dim: 64,
                refinement_contexts: DEFAULT_REFINEMENT_CONTEXTS,
            },
            64,
        ),
    ]
}

/// `M^{-1}` by Gauss-Jordan elimination with partial pivoting.
fn inverse(mut a: Array2<f64>) -> Result<Array2<f64>, CheckError> {
    let n = a.nrows();
    let mut inv = Array2::<f64>::eye(n);
    for col in 0..n {
        let piv = (col..n)
            .max_by(|&i, &j| a[[i, col]].abs().total_cmp(&a[[j, col]].abs()))
            .ok_or_else(|| CheckError::msg("empty matrix"))?;
        if a[[piv, col]].abs() < 1e-300 {
            return Err(CheckError::msg("K_ZZ + rho I is singular"));
        }
        for k in 0..n {
            a.swap([col, k], [piv, k]);
            inv.swap([col, k], [piv, k]);
        }
        let d = a[[col, col]];
        for k in 0..n {
            a[[col, k]] /= d;
            inv[[col, k]] /= d;
        }
        for i in 0..n {
            if i != col {
                let f = a[[i, col]];
                if f != 0.0 {
                    for k in 0..n {
                        a[[i, k]] -= f * a[[col, k]];
                        inv[[i, k]] -= f * inv[[col, k]];
                    }
                }
            }
        }
    }
    Ok(inv)
}

/// The inner product `<phi(a), phi(b)>_{Z~^{-1}}` of the module docs, written again.
struct Inner {
    kernel: Arc<dyn Kernel>,
    z: Array2<f64>,
    /// `(K_ZZ + rho I)^{-1}`.
    inv: Array2<f64>,
    tau: f64,
}

impl Inner {
    fn new(
        kernel: Arc<dyn Kernel>,
        z: Array2<f64>,
        t: usize,
        tau: f64,
    ) -> Result<Self, CheckError> {
        // Lemma 6.2: Z~ = (T/m) Phi_Z Phi_Z^T + tau I, so rho = (m / T) tau (Woodbury).
        let rho = z.nrows() as f64 / t as f64 * tau;
        let mut g = kernel.gram(z.view())?;
        g.diag_mut().mapv_inplace(|v| v + rho);
        let inv = inverse(g)?;
        Ok(Self {
            kernel,
            z,
            inv,
            tau,
        })
    }

    /// `<phi(a_i), phi(b_j)>` for the rows of `a` and `b`.
    fn between(
        &self,
        a: ArrayView2<'_, f64>,
        b: ArrayView2<'_, f64>,
    ) -> Result<Array2<f64>, CheckError> {
        let kab = self.kernel.cross(a, b)?;
        let kza = self.kernel.cross(self.z.view(), a)?;
        let kzb = self.kernel.cross(self.z.view(), b)?;
        let corr = kza.t().dot(&self.inv.dot(&kzb));
        Ok((kab - corr) / self.tau)
    }

    /// `sigma^2(w) = <phi(w), phi(w)>` for the rows of `w`.
    fn sigma2(&self, w: ArrayView2<'_, f64>) -> Result<Array1<f64>, CheckError> {
        let kzw = self.kernel.cross(self.z.view(), w)?;
        let a = self.inv.dot(&kzw);
        let diag = self.kernel.diag(w)?;
        Ok(Array1::from_iter((0..w.nrows()).map(|j| {
            (diag[j] - kzw.column(j).dot(&a.column(j))) / self.tau
        })))
    }
}

/// The grid of contexts of `C`.
fn context_grid(problem: &ContextualProblem) -> Array2<f64> {
    let set = problem.contexts().set();
    let dc = set.dim();
    let n = if dc == 1 { GRID_1D } else { 21 };
    let total = n.pow(dc as u32);
    let mut g = Array2::zeros((total, dc));
    for (idx, mut row) in g.rows_mut().into_iter().enumerate() {
        let mut rem = idx;
        for i in 0..dc {
            let j = rem % n;
            rem /= n;
            let (l, u) = (set.lower()[i], set.upper()[i]);
            row[i] = l + (u - l) * j as f64 / (n - 1) as f64;
        }
    }
    g
}

/// What the check recomputed for one stage.
#[derive(Debug, Clone, serde::Serialize)]
struct Recomputed {
    /// `c_{T+1}`: the grid context of largest `max_x sigma^2(x, c)`.
    context: Vec<f64>,
    /// `2 B max_W sigma^2` on the grid.
    global: f64,
    /// `R(c)`.
    required: f64,
    /// `2 B max k(w, w) / tau` on the grid.
    proven: f64,
    /// The maximising row `w_t` of `R(c)`.
    row: Vec<f64>,
}

/// One case: the stage, its learning data and the recomputation.
struct Case {
    name: String,
    stage: PredictionStage,
    base: LearningData,
    problem: ContextualProblem,
    recomputed: Recomputed,
}

fn build(
    ctx: &Context,
    name: &str,
    rule: SensitivityRule,
    z_size: usize,
) -> Result<Case, CheckError> {
    let params = UscaParams::default();
    let (b, tau) = (params.reward_bound, params.tau);
    // One instance for the check and its control (a named stream).
    let mut rng = ChaCha20Rng::seed_from_u64(ctx.seed_for("usca/recompute/prediction-sensitivity"));
    let inst = SyntheticProblem::default().sample(&mut rng)?;
    let base = learning_stage(&inst.problem, T, b, &mut rng)?;
    let z = sample_approximating_set(&inst.problem, z_size, &mut rng)?;
    let variance = Arc::new(SurrogateVariance::new(
        inst.kernel.clone(),
        z.clone(),
        T,
        tau,
    )?);
    let kernel: Arc<dyn Kernel> = inst.kernel.clone();
    let inner = Inner::new(kernel.clone(), z, T, tau)?;

    // The grid of W, context-major: row (ci * |X| + x).
    let grid = context_grid(&inst.problem);
    let na = inst.problem.actions().len();
    let blocks: Vec<Array2<f64>> = grid
        .rows()
        .into_iter()
        .map(|c| inst.problem.joint_all(c))
        .collect();
    let views: Vec<ArrayView2<'_, f64>> = blocks.iter().map(|b| b.view()).collect();
    let w = ndarray::concatenate(Axis(0), &views)
        .map_err(|e| CheckError::msg(format!("grid of W: {e}")))?;
    let s2 = inner.sigma2(w.view())?;
    let (mut best_c, mut best) = (0, f64::NEG_INFINITY);
    for ci in 0..grid.nrows() {
        let m = s2
            .iter()
            .skip(ci * na)
            .take(na)
            .fold(f64::NEG_INFINITY, |a, &v| a.max(v));
        if m > best {
            (best_c, best) = (ci, m);
        }
    }
    let c = grid.row(best_c).to_owned();
    let at_c = inner.between(inst.problem.joint_all(c.view()).view(), w.view())?;
    let (mut arg, mut r) = (0, 0.0f64);
    for ((_, j), &v) in at_c.indexed_iter() {
        if v.abs() > r {
            (arg, r) = (j, v.abs());
        }
    }
    let kmax = kernel.diag(w.view())?.fold(0.0f64, |a, &v| a.max(v));
    let recomputed = Recomputed {
        context: c.to_vec(),
        global: 2.0 * b * best,
        required: 2.0 * b * r,
        proven: 2.0 * b * kmax / tau,
        row: w.row(arg).to_vec(),
    };
    let bound = sensitivity(
        rule,
        &variance,
        &inst.problem,
        Some(&inst.kernel),
        b,
        &mut rng,
    )?;
    let stage = PredictionStage::new(variance, inst.problem.clone(), c, EPS, bound)?;
    Ok(Case {
        name: format!("{name}, |Z| = {z_size}"),
        stage,
        base,
        problem: inst.problem,
        recomputed,
    })
}

/// The neighbours of the module docs: `(D, D', D'')`.
fn neighbours(case: &Case) -> Result<[LearningData; 3], CheckError> {
    let b = case.stage.bound().reward_bound();
    let row = Array1::from(case.recomputed.row.clone());
    let mut points = case.base.points().to_owned();
    points.row_mut(0).assign(&row);
    let mut y = case.base.rewards().to_owned();
    y[0] = EXTREME;
    let d = LearningData::new(points.clone(), y.clone(), b)?;
    y[0] = -EXTREME;
    let d1 = LearningData::new(points.clone(), y.clone(), b)?;
    // The corner of C farthest from c in each coordinate, same action.
    let set = case.problem.contexts().set();
    let dx = case.problem.actions().points().ncols();
    for (i, &ci) in case.recomputed.context.iter().enumerate() {
        let (l, u) = (set.lower()[i], set.upper()[i]);
        points[[0, dx + i]] = if ci - l > u - ci { l } else { u };
    }
    let d2 = LearningData::new(points, y, b)?;
    Ok([d, d1, d2])
}

fn max_abs_diff(a: &[f64], b: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max)
}

fn max_log_ratio(a: &[f64], b: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x.ln() - y.ln()).abs())
        .fold(0.0, f64::max)
}

/// The judgements of one case, with the stage's utilities selected by `mechanism` whose
/// certified sensitivity is `certified` (the stage's own, or a broken one).
fn judge(
    case: &Case,
    mechanism: &ExponentialMechanism,
    certified: f64,
    seed: u64,
) -> Result<(Vec<ReachJudgement>, RateJudgement), CheckError> {
    let eps = match case.stage.claim().guarantee {
        Guarantee::PureDp { epsilon } => epsilon.get(),
        g => {
            return Err(CheckError::msg(format!(
                "the stage claims {g:?}, not pure DP"
            )));
        }
    };
    let rc = &case.recomputed;
    let [d, d1, d2] = neighbours(case)?;
    let u = case.stage.utilities(&d)?;
    let u1 = case.stage.utilities(&d1)?;
    let u2 = case.stage.utilities(&d2)?;
    let (ch1, ch2) = (max_abs_diff(&u, &u1), max_abs_diff(&u, &u2));
    let (p, p1, p2) = (
        mechanism.probabilities(&u)?,
        mechanism.probabilities(&u1)?,
        mechanism.probabilities(&u2)?,
    );
    let loss = max_log_ratio(&p, &p1).max(max_log_ratio(&p, &p2));
    let n = &case.name;
    let reach = vec![
        ReachJudgement::new(
            format!(
                "{n}: realised utility change, rewards +-1e6 at the extreme row, vs the certified Delta"
            ),
            ch1,
            certified,
            ROUNDING,
        ),
        ReachJudgement::new(
            format!(
                "{n}: realised utility change, the row moved to the far corner of C, vs the certified Delta"
            ),
            ch2,
            certified,
            ROUNDING,
        ),
        ReachJudgement::new(
            format!("{n}: relative gap between the realised change and the recomputed R(c)"),
            (ch1 - rc.required).abs() / rc.required,
            AGREEMENT,
            0.0,
        ),
        ReachJudgement::new(
            format!("{n}: recomputed requirement R(c) vs the certified Delta"),
            rc.required,
            certified,
            ROUNDING,
        ),
        ReachJudgement::new(
            format!("{n}: certified Delta vs the recomputed proven cap 2B sup k / tau"),
            certified,
            rc.proven,
            ROUNDING,
        ),
        ReachJudgement::new(
            format!("{n}: max |ln p - ln p'| across the neighbours vs the claimed eps"),
            loss,
            eps,
            ROUNDING,
        ),
    ];
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let mut ones = 0u64;
    for _ in 0..DRAWS {
        if mechanism.select(&[0.0, rc.required], &mut rng)? == 1 {
            ones += 1;
        }
    }
    let p_star = 1.0 / (1.0 + (-eps / 2.0).exp());
    let rate = RateJudgement::new(
        format!(
            "{n}: the sampler picks the candidate raised by R(c) (at most 1/(1+e^(-eps/2)) for any Delta >= R(c))"
        ),
        ones,
        DRAWS as u64,
        p_star,
        RateSides::AboveOnly,
        ALPHA,
    );
    Ok((reach, rate))
}

fn describe(case: &Case) -> String {
    let rc = &case.recomputed;
    format!(
        "{}: c = {:?}, recomputed R(c) = {:.6}, 2B max_W sigma^2 (grid) = {:.6}, proven cap = {:.6}, certified Delta = {:.6}",
        case.name,
        rc.context,
        rc.required,
        rc.global,
        rc.proven,
        case.stage.bound().sensitivity()
    )
}

/// `usca/recompute/prediction-sensitivity`.
pub(super) fn prediction_sensitivity(ctx: &Context) -> CheckResult {
    let mut reach = Vec::new();
    let mut rates = Vec::new();
    let mut lines = Vec::new();
    for (i, (name, rule, z)) in rules().into_iter().enumerate() {
        let case = build(ctx, name, rule, z)?;
        let (r, q) = judge(
            &case,
            case.stage.mechanism(),
            case.stage.bound().sensitivity(),
            ctx.sub_seed(&format!("sampler-{i}")),
        )?;
        lines.push(describe(&case));
        reach.extend(r);
        rates.push(q);
    }
    let ok =
        reach.iter().all(|j| j.within) && rates.iter().all(|q| q.verdict == RateVerdict::Meets);
    let measured = lines
        .iter()
        .cloned()
        .chain(reach.iter().map(ReachJudgement::line))
        .chain(rates.iter().map(RateJudgement::line))
        .collect::<Vec<_>>()
        .join("; ");
    Ok(Outcome::new(
        CheckKind::Property,
        format!("USCA prediction stage (eps = {EPS}, T = {T}, synthetic SE problem), proven, query-context and certified sensitivities"),
        format!(
            "the utility change between neighbours built from the extreme row (rewards +-1e6, clipped; the row's context moved to a corner of C) is at most the certified Delta and equals the recomputed R(c) (Lemma 7.1 in kernel form, written again); R(c) <= Delta <= 2B sup k / tau; the probabilities' log-ratio across the neighbours is at most eps; the sampler's rate on utilities (0, R(c)) is at most 1/(1+e^(-eps/2)) (exact binomial, one-sided at {ALPHA:e})"
        ),
        measured,
        verification::verdict(ok),
    )
    .false_alarm(ALPHA * rates.len() as f64)
    .value("reach", &reach)
    .value("sampler", &rates))
}

/// `usca/control/prediction-sensitivity-halved`: each stage's utilities selected by an
/// exponential mechanism built with half its certified sensitivity (public parameters): the
/// realised change must exceed the halved Delta, the recomputed R(c) must exceed it, and the
/// sampler's rate must be flagged.
pub(super) fn control_halved(ctx: &Context) -> CheckResult {
    let mut lines = Vec::new();
    let mut ok = true;
    let mut all = Vec::new();
    for (i, (name, rule, z)) in rules().into_iter().enumerate() {
        if matches!(rule, SensitivityRule::QueryContext { .. }) {
            continue;
        }
        let case = build(ctx, name, rule, z)?;
        let half = case.stage.bound().sensitivity() / 2.0;
        let broken =
            ExponentialMechanism::new(EPS, half)?.with_sampler(case.stage.mechanism().sampler());
        let (r, q) = judge(&case, &broken, half, ctx.sub_seed(&format!("sampler-{i}")))?;
        // Expected: the realised change (0) and R(c) (3) above Delta/2; the sampler above.
        let flagged = !r[0].within && !r[3].within && q.verdict == RateVerdict::Above;
        ok &= flagged;
        lines.push(format!(
            "{} [halved Delta = {half:.6}]: {}; {}; {}; {} (expected: exceeds, exceeds, above)",
            case.name,
            r[0].line(),
            r[3].line(),
            r[5].line(),
            q.line()
        ));
        all.push((r, q));
    }
    Ok(Outcome::new(
        CheckKind::PositiveControl,
        "USCA prediction stage with an exponential mechanism of half the certified sensitivity (proven and certified rules)",
        "usca/recompute/prediction-sensitivity finds the realised change and the recomputed R(c) above the halved Delta and the sampler's rate above 1/(1+e^(-eps/2)); a control judged otherwise fails the run",
        lines.join("; "),
        if ok { Verdict::Pass } else { Verdict::Fail },
    )
    .value("cases", &all))
}
