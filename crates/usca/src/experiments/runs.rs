//! One trial of a figure: every curve's error rate at every sweep point, computed together on
//! the trial's shared data; and a figure's batches.

use std::sync::Arc;

use bandit::experiment::Options;
use bandit::runner::{BatchResult, TrialRecord};
use bandit::seed::{Role, trial_rng};
use ndarray::{Array2, ArrayView1};
use privacy::mechanisms::ExponentialMechanism;
use rand_chacha::ChaCha20Rng;

use rayon::prelude::*;

use crate::algorithm::{Usca, argmax_distribution, learning_stage};
use crate::approximating_set::ApproximatingSetSize;
use crate::baselines::PosteriorMeanBaseline;
use crate::certificate::certified_sup_sigma2;
use crate::error::UscaError;
use crate::estimator::LearningData;
use crate::joint_kernel::JointKernel;
use crate::light_sensor::light_sensor;
use crate::params::UscaParams;
use crate::problem::Instance;
use crate::regulariser::Regulariser;
use crate::sensitivity::{SensitivityBound, SensitivityRule, proven_sup_sigma2};

use super::panels::{Curve, EVAL_CONTEXTS, FIRST_LOG2_T, SWEEP_T, Setting, Source, Sweep};

type Baseline = PosteriorMeanBaseline<Arc<JointKernel>>;

/// The error rates of every curve of one trial: `rates[curve][i]` at sweep point `i`
/// (`T = 2^(6 + i)`, `tau = 2^(-3 + i)` or `|Z| = 2^(6 + i)`, by the setting's [`Sweep`]).
///
/// `data` is the light-sensor instance when the setting uses it (loaded once by the caller).
pub fn trial_error_rates(
    setting: &Setting,
    data: Option<&Instance>,
    points: usize,
    base_seed: u64,
    trial: usize,
) -> Result<Vec<Vec<f64>>, UscaError> {
    let mut env = trial_rng(base_seed, trial, Role::Environment);
    let mut coins = trial_rng(base_seed, trial, Role::Agent);
    let inst = match (setting.source, data) {
        (Source::Synthetic(spec), _) => spec.sample(&mut env)?,
        (Source::LightSensor, Some(d)) => d.clone(),
        (Source::LightSensor, None) => {
            return Err(crate::InputError::Empty {
                what: "light-sensor instance (load it with usca::light_sensor::light_sensor)",
            }
            .into());
        }
    };
    let curves: Vec<Curve> = setting.sweep.curves().iter().map(|(_, c)| *c).collect();
    let p = setting.params;
    let mut rates = vec![Vec::with_capacity(points); curves.len()];
    match setting.sweep {
        Sweep::Horizons => {
            for i in 0..points {
                let t = 1usize << (FIRST_LOG2_T as usize + i);
                let data = learning_stage(&inst.problem, t, p.reward_bound, &mut env)?;
                let pm = needs_baseline(&curves)
                    .then(|| {
                        Baseline::fit_factored(inst.kernel.clone(), &inst.problem, &data, p.tau)
                    })
                    .transpose()?;
                let fit = Fit::new(&inst, p, data, pm.as_ref(), &curves, &mut coins)?;
                let contexts = inst.problem.contexts().sample(EVAL_CONTEXTS, &mut env);
                push(&mut rates, fit.rates(&curves, &contexts)?);
            }
        }
        Sweep::Tau | Sweep::ApproximatingSet => {
            let data = learning_stage(&inst.problem, SWEEP_T, p.reward_bound, &mut env)?;
            let contexts = inst.problem.contexts().sample(EVAL_CONTEXTS, &mut env);
            // The posterior mean does not depend on |Z|: one fit for the |Z| sweep.
            let shared_pm = (setting.sweep == Sweep::ApproximatingSet && needs_baseline(&curves))
                .then(|| Baseline::fit_factored(inst.kernel.clone(), &inst.problem, &data, p.tau))
                .transpose()?;
            // Every point draws Z from the same coins (the same stream for every point), so the
            // points differ in the swept parameter only.
            let point = |log2: i64| -> Result<Vec<f64>, UscaError> {
                let params = swept(setting.sweep, p, log2);
                let own_pm = (shared_pm.is_none() && needs_baseline(&curves))
                    .then(|| {
                        Baseline::fit_factored(
                            inst.kernel.clone(),
                            &inst.problem,
                            &data,
                            params.tau,
                        )
                    })
                    .transpose()?;
                let pm = shared_pm.as_ref().or(own_pm.as_ref());
                let fit = Fit::new(&inst, params, data.clone(), pm, &curves, &mut coins.clone())?;
                fit.rates(&curves, &contexts)
            };
            let first = setting.sweep.first();
            for i in 0..points {
                push(&mut rates, point(first + i as i64)?);
            }
            // Each reference curve repeats its base curve at its own sweep point (computed
            // again only when that point is outside the swept range).
            for (k, c) in curves.iter().enumerate() {
                if let Curve::Reference { curve, log2 } = *c {
                    let base = curves.iter().position(|&b| b == curve.curve()).ok_or(
                        crate::InputError::Empty {
                            what: "the base curve of a reference curve",
                        },
                    )?;
                    let at = usize::try_from(log2 - first).ok().filter(|&j| j < points);
                    let v = match at {
                        Some(j) => rates[base][j],
                        None => point(log2)?[base],
                    };
                    rates[k] = vec![v; points];
                }
            }
        }
    }
    Ok(rates)
}

/// The parameters at sweep point `2^log2`.
fn swept(sweep: Sweep, p: UscaParams, log2: i64) -> UscaParams {
    let v = 2f64.powi(log2 as i32);
    match sweep {
        Sweep::Horizons => p,
        Sweep::Tau => UscaParams { tau: v, ..p },
        Sweep::ApproximatingSet => UscaParams {
            approximating_set: ApproximatingSetSize::Fixed { m: v as usize },
            ..p
        },
    }
}

fn needs_baseline(curves: &[Curve]) -> bool {
    curves
        .iter()
        .any(|c| matches!(c, Curve::Naive(_) | Curve::PosteriorMean))
}

fn push(rates: &mut [Vec<f64>], point: Vec<f64>) {
    for (r, v) in rates.iter_mut().zip(point) {
        r.push(v);
    }
}

/// What the curves of one sweep point are computed from: USCA with the setting's (certified)
/// rule, the same `Z` under the printed regulariser, the posterior mean, and the bounds.
struct Fit<'a> {
    inst: &'a Instance,
    usca: Usca,
    verbatim: Option<Usca>,
    pm: Option<&'a Baseline>,
    /// `2 B sup_diag / tau`.
    proven: f64,
    /// `2 B` times the certified bound from the uniform grid alone (NaN unless a
    /// [`Curve::CertifiedUniform`] is drawn and the rule is [`SensitivityRule::Certified`]).
    certified_uniform: f64,
    /// The certified bound as a query-context bound (the same `S`).
    query_context: SensitivityBound,
}

impl<'a> Fit<'a> {
    /// Fit USCA on `data` with `coins` (and, if a verbatim curve is drawn, the verbatim USCA on
    /// a copy of the same coins, hence the same `Z`).
    fn new(
        inst: &'a Instance,
        p: UscaParams,
        data: LearningData,
        pm: Option<&'a Baseline>,
        curves: &[Curve],
        coins: &mut ChaCha20Rng,
    ) -> Result<Self, UscaError> {
        let verbatim_coins = coins.clone();
        let fit = |params: UscaParams, data: LearningData, coins: &mut ChaCha20Rng| {
            Usca::from_data(
                &inst.problem,
                inst.kernel.clone(),
                Some(&inst.kernel),
                params,
                data,
                coins,
            )
        };
        let verbatim = curves
            .iter()
            .any(|c| matches!(c, Curve::Verbatim(_)))
            .then(|| {
                let params = UscaParams {
                    sensitivity: SensitivityRule::Proven,
                    regulariser: Regulariser::AsPrinted,
                    ..p
                };
                fit(params, data.clone(), &mut verbatim_coins.clone())
            })
            .transpose()?;
        let usca = fit(p, data, coins)?;
        let proven_sup = proven_sup_sigma2(usca.estimator().variance())?;
        let proven = 2.0 * p.reward_bound * proven_sup;
        let certified_uniform = match p.sensitivity {
            SensitivityRule::Certified { points_per_dim, .. }
                if curves
                    .iter()
                    .any(|c| matches!(c, Curve::CertifiedUniform(_))) =>
            {
                let uniform = certified_sup_sigma2(
                    usca.estimator().variance(),
                    &inst.problem,
                    inst.kernel.as_ref(),
                    points_per_dim,
                    0,
                )?;
                2.0 * p.reward_bound * uniform.min(proven_sup)
            }
            _ => f64::NAN,
        };
        let query_context =
            usca.summary()
                .bound
                .as_query_context()
                .ok_or(crate::InputError::Unsatisfied {
                    what: "sensitivity rule of the reproduction",
                    value: f64::NAN,
                    requirement: "must be a bound (not the paper's estimate)",
                })?;
        Ok(Self {
            inst,
            usca,
            verbatim,
            pm,
            proven,
            certified_uniform,
            query_context,
        })
    }

    /// The mean gap over `contexts` of every curve (NaN for the reference curves, which the
    /// caller fills).
    fn rates(&self, curves: &[Curve], contexts: &Array2<f64>) -> Result<Vec<f64>, UscaError> {
        let problem = &self.inst.problem;
        let certified = self.usca.summary().bound.sensitivity();
        let needs_qc = curves.iter().any(|c| matches!(c, Curve::QueryContext(_)));
        // Delta(c) of every context at once (one triangular solve).
        let qc: Vec<f64> = if needs_qc {
            self.query_context
                .at_contexts(
                    self.usca.estimator().variance(),
                    problem,
                    Some(self.inst.kernel.as_ref()),
                    contexts.view(),
                )?
                .iter()
                .map(SensitivityBound::sensitivity)
                .collect()
        } else {
            vec![f64::NAN; contexts.nrows()]
        };
        let mut sums = vec![0.0; curves.len()];
        for (c, &qc) in contexts.rows().into_iter().zip(&qc) {
            let f = problem.means(c)?;
            let best = f.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let gap = |p: &[f64]| best - p.iter().zip(f.iter()).map(|(p, f)| p * f).sum::<f64>();
            let u = self.usca.utilities(c)?.to_vec();
            let v = match &self.verbatim {
                Some(v) => v.utilities(c)?.to_vec(),
                None => Vec::new(),
            };
            let pm = match self.pm {
                Some(pm) => pm.utilities(c)?,
                None => Vec::new(),
            };
            let em = |eps: f64, delta: f64, u: &[f64]| -> Result<f64, UscaError> {
                Ok(gap(
                    &ExponentialMechanism::new(eps, delta)?.probabilities(u)?
                ))
            };
            for (s, curve) in sums.iter_mut().zip(curves) {
                *s += match *curve {
                    Curve::Certified(e) => em(e, certified, &u)?,
                    Curve::CertifiedUniform(e) => em(e, self.certified_uniform, &u)?,
                    Curve::QueryContext(e) => em(e, qc, &u)?,
                    Curve::Proven(e) => em(e, self.proven, &u)?,
                    Curve::Verbatim(e) => em(e, self.proven, &v)?,
                    Curve::Naive(e) => {
                        let d = self.pm.map_or(f64::NAN, |pm| pm.sensitivity());
                        em(e, d, &pm)?
                    }
                    Curve::NonPrivate => gap(&argmax_distribution(ArrayView1::from(&u))),
                    Curve::PosteriorMean => gap(&argmax_distribution(ArrayView1::from(&pm))),
                    Curve::Reference { .. } => f64::NAN,
                };
            }
        }
        Ok(sums
            .into_iter()
            .map(|s| (s / EVAL_CONTEXTS as f64).max(0.0))
            .collect())
    }
}

/// A trial's record for the shared runner's files. Entry `i` of each vector is sweep point `i`
/// (a horizon `T`, a `tau` or a `|Z|`), not a round: `instantaneous_regret` holds the error rate
/// there (what [`Metric::ErrorRate`](bandit::experiment::Metric::ErrorRate) reads and plots).
/// The runner's record type also requires the other fields: `cumulative_regret` and
/// `simple_regret` are the running sum and minimum of the error rates over the points, which mean
/// nothing for this experiment (each point is an independent fit), and `actions`, `rewards` and
/// `mean_rewards` are zeros.
fn record(trial: usize, er: Vec<f64>) -> TrialRecord {
    let n = er.len();
    let mut cumulative = Vec::with_capacity(n);
    let mut simple = Vec::with_capacity(n);
    let (mut acc, mut best) = (0.0, f64::INFINITY);
    for &e in &er {
        acc += e;
        best = f64::min(best, e);
        cumulative.push(acc);
        simple.push(best);
    }
    TrialRecord {
        trial,
        actions: vec![0; n],
        rewards: vec![0.0; n],
        mean_rewards: vec![0.0; n],
        instantaneous_regret: er,
        cumulative_regret: cumulative,
        simple_regret: simple,
    }
}

/// Every curve's batch of a figure (trials in parallel).
pub(super) fn figure_batches(
    s: &Setting,
    options: &Options,
) -> Result<Vec<BatchResult>, UscaError> {
    let config = options.run_config();
    let data = match s.source {
        Source::LightSensor => Some(light_sensor(options.data_dir())?),
        Source::Synthetic(_) => None,
    };
    // The trials of the options (all, or a shard's block), each keeping its own index.
    let trials = config.trial_indices();
    let per_trial: Vec<Vec<Vec<f64>>> = trials
        .clone()
        .into_par_iter()
        .map(|trial| trial_error_rates(s, data.as_ref(), config.horizon, config.base_seed, trial))
        .collect::<Result<_, _>>()?;
    Ok((0..s.sweep.curves().len())
        .map(|k| BatchResult {
            config,
            trials: trials
                .clone()
                .zip(&per_trial)
                .map(|(trial, r)| record(trial, r[k].clone()))
                .collect(),
        })
        .collect())
}
