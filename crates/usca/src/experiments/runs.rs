//! One trial of a figure: every curve's error rate at every horizon, computed together on
//! the trial's shared data; and a figure's batches.

use bandit::experiment::Options;
use bandit::runner::{BatchResult, TrialRecord};
use bandit::seed::{Role, trial_rng};
use ndarray::ArrayView1;
use privacy::mechanisms::ExponentialMechanism;

use rayon::prelude::*;

use crate::algorithm::{Usca, argmax_distribution, learning_stage};
use crate::baselines::PosteriorMeanBaseline;
use crate::error::UscaError;
use crate::light_sensor::light_sensor;

use super::panels::{CURVES, EPSILONS, EVAL_CONTEXTS, FIRST_LOG2_T, Setting, Source};
use crate::problem::Instance;
use crate::sensitivity::proven_sup_sigma2;

/// The error rates of every curve of one trial: `rates[curve][i]` at `T = 2^(6 + i)`.
///
/// `data` is the light-sensor instance when the setting uses it (loaded once by the caller).
pub fn trial_error_rates(
    setting: &Setting,
    data: Option<&Instance>,
    horizons: usize,
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
    let p = setting.params;
    let b = p.reward_bound;
    let mut rates = vec![Vec::with_capacity(horizons); CURVES.len()];
    for i in 0..horizons {
        let t = 1usize << (FIRST_LOG2_T as usize + i);
        let data = learning_stage(&inst.problem, t, b, &mut env)?;
        let usca = Usca::from_data(
            &inst.problem,
            inst.kernel.clone(),
            Some(&inst.kernel),
            p,
            data.clone(),
            &mut coins,
        )?;
        let proven = 2.0 * b * proven_sup_sigma2(usca.estimator().variance())?;
        let pm =
            PosteriorMeanBaseline::fit_factored(inst.kernel.clone(), &inst.problem, &data, p.tau)?;
        let mechanisms: Vec<ExponentialMechanism> = EPSILONS
            .iter()
            .map(|&e| ExponentialMechanism::new(e, usca.summary().bound.sensitivity()))
            .collect::<Result<_, _>>()?;
        let proven_m = ExponentialMechanism::new(1.0, proven)?;
        let naive_m = ExponentialMechanism::new(1.0, pm.sensitivity())?;
        let contexts = inst.problem.contexts().sample(EVAL_CONTEXTS, &mut env);
        let mut sums = vec![0.0; CURVES.len()];
        for c in contexts.rows() {
            let f = inst.problem.means(c)?;
            let best = f.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let gap = |p: &[f64]| best - p.iter().zip(f.iter()).map(|(p, f)| p * f).sum::<f64>();
            let u = usca.utilities(c)?;
            let us = u
                .as_slice()
                .ok_or(crate::InputError::Empty { what: "utilities" })?;
            let v = pm.utilities(c)?;
            for (k, m) in mechanisms.iter().enumerate() {
                sums[k] += gap(&m.probabilities(us)?);
            }
            sums[4] += gap(&argmax_distribution(u.view()));
            sums[5] += gap(&proven_m.probabilities(us)?);
            sums[6] += gap(&argmax_distribution(ArrayView1::from(&v)));
            sums[7] += gap(&naive_m.probabilities(&v)?);
        }
        for (k, s) in sums.iter().enumerate() {
            rates[k].push((s / EVAL_CONTEXTS as f64).max(0.0));
        }
    }
    Ok(rates)
}

/// A trial's record for the shared runner's files. Entry `i` of each vector is the horizon
/// `T = 2^(6 + i)`, not a round: `instantaneous_regret` holds the error rate at that `T` (what
/// [`Metric::ErrorRate`] reads and plots). The runner's record type also requires the other
/// fields: `cumulative_regret` and `simple_regret` are the running sum and minimum of the error
/// rates over horizons, which mean nothing for this experiment (each `T` is an independent
/// learning stage), and `actions`, `rewards` and `mean_rewards` are zeros.
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
    let per_trial: Vec<Vec<Vec<f64>>> = (0..config.n_trials)
        .into_par_iter()
        .map(|trial| trial_error_rates(s, data.as_ref(), config.horizon, config.base_seed, trial))
        .collect::<Result<_, _>>()?;
    Ok((0..CURVES.len())
        .map(|k| BatchResult {
            config,
            trials: per_trial
                .iter()
                .enumerate()
                .map(|(trial, r)| record(trial, r[k].clone()))
                .collect(),
        })
        .collect())
}
