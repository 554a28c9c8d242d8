//! One curve as a batch: `runs` federated runs of one setting, one per problem draw (or on the
//! one data set), each as one trial record with its diagnostics.

use std::sync::Arc;

use bandit::experiment::Diagnostics;
use bandit::runner::{BatchResult, RunConfig, TrialRecord};

use crate::error::DpFtsDeError;
use crate::federation::{FederationRecord, beta_schedule, run_federation};
use crate::params::DpFtsDeParams;
use crate::problem::FederatedProblem;

/// The diagnostic name of the clipped fraction of one run.
pub(super) const CLIPPED: &str = "clipped_fraction";
/// The diagnostic name of the paper-accountant privacy loss of one run.
pub(super) const EPSILON: &str = "epsilon_paper";
/// The diagnostic name of a run's mean noise-to-signal ratio over its first 10 releases
/// (iterations 0-9, where the softmax weights are sharpest), and over its last 10.
pub(super) const NTS_EARLY: &str = "noise_to_signal_early";
/// See [`NTS_EARLY`].
pub(super) const NTS_LATE: &str = "noise_to_signal_late";
/// The prefix of the diagnostic names of a run's noise-to-signal ratio per release:
/// `noise_to_signal_release_07` is release `t = 7` (the aggregate of iteration 7).
pub(super) const NTS_RELEASE: &str = "noise_to_signal_release_";

/// One run as one trial record: regrets, rewards and mean rewards averaged over agents,
/// actions agent `A_1`'s (module docs).
pub fn run_record(record: &FederationRecord, run: usize) -> TrialRecord {
    let n = record.agents.len() as f64;
    let len = record.agents.first().map_or(0, TrialRecord::horizon);
    let mean = |field: fn(&TrialRecord) -> &Vec<f64>| -> Vec<f64> {
        (0..len)
            .map(|k| record.agents.iter().map(|a| field(a)[k]).sum::<f64>() / n)
            .collect()
    };
    TrialRecord {
        trial: run,
        actions: record
            .agents
            .first()
            .map(|a| a.actions.clone())
            .unwrap_or_default(),
        rewards: mean(|a| &a.rewards),
        mean_rewards: mean(|a| &a.mean_rewards),
        instantaneous_regret: mean(|a| &a.instantaneous_regret),
        cumulative_regret: mean(|a| &a.cumulative_regret),
        simple_regret: record.mean_simple_regret(),
    }
}

/// Run the runs [`RunConfig::trial_indices`] selects (all `config.n_trials`, or a shard's
/// block) of `params` with `T = config.horizon - N_init` (run `r` seeded from
/// `(config.base_seed, r)`) on `problems`: run `r` on `problems[r]` when there
/// is one problem per run ([`draw_problems`](super::draw_problems)), on the one problem when there is one. Each run
/// is one [`run_record`]; the diagnostics are each private run's clipped fraction, final
/// paper-accountant loss and noise-to-signal ratios over its first and last 10 releases.
///
/// # Errors
/// [`DpFtsDeError::Setting`] when the number of problems is neither 1 nor the number of runs,
/// or the horizon leaves no iteration; the errors of [`run_federation`].
pub fn run_curve(
    problems: &[Arc<FederatedProblem>],
    params: &DpFtsDeParams,
    config: &RunConfig,
) -> Result<(BatchResult, Diagnostics), DpFtsDeError> {
    if problems.len() != 1 && problems.len() != config.n_trials {
        return Err(DpFtsDeError::Setting(format!(
            "{} problems for {} runs: give one problem, or one per run",
            problems.len(),
            config.n_trials
        )));
    }
    let params = with_horizon(params, config.horizon)?;
    // The schedule depends on the parameters and the problem's domain only: it is computed
    // again only when a run's domain differs from the previous run's (the synthetic draws share
    // their grid, so it is computed once per curve, as for the one data set).
    let mut beta: Option<Arc<crate::beta::BetaSchedule>> = None;
    let mut trials = Vec::with_capacity(config.trial_indices().len());
    let mut diagnostics = Diagnostics::new();
    // The runs of the configuration (all, or a shard's block), in order.
    for run in config.trial_indices() {
        let problem = &problems[run.min(problems.len() - 1)];
        let same_domain =
            run > 0 && problems[(run - 1).min(problems.len() - 1)].domain() == problem.domain();
        let schedule = match &beta {
            Some(b) if same_domain => Arc::clone(b),
            _ => beta_schedule(problem, &params)?,
        };
        beta = Some(Arc::clone(&schedule));
        let rec = run_federation(problem, &params, schedule, config.base_seed, run)?;
        if let Some(c) = rec.clipped_fraction {
            diagnostics.push((CLIPPED.into(), c));
        }
        if let Some(loss) = rec.privacy.last() {
            diagnostics.push((EPSILON.into(), loss.epsilon_paper));
        }
        let r = &rec.noise_to_signal;
        if !r.is_empty() {
            let k = r.len().min(10);
            let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
            diagnostics.push((NTS_EARLY.into(), mean(&r[..k])));
            diagnostics.push((NTS_LATE.into(), mean(&r[r.len() - k..])));
            for (t, v) in r.iter().enumerate() {
                diagnostics.push((format!("{NTS_RELEASE}{t:02}"), *v));
            }
        }
        trials.push(run_record(&rec, run));
    }
    Ok((
        BatchResult {
            config: *config,
            trials,
        },
        diagnostics,
    ))
}

/// `params` with `T = horizon - N_init` (the framework's horizon counts every query).
pub fn with_horizon(params: &DpFtsDeParams, horizon: usize) -> Result<DpFtsDeParams, DpFtsDeError> {
    if horizon <= params.n_init {
        return Err(DpFtsDeError::Setting(format!(
            "a horizon of {horizon} queries leaves no iteration after the N_init = {} initial \
             queries",
            params.n_init
        )));
    }
    Ok(DpFtsDeParams {
        iterations: horizon - params.n_init,
        ..*params
    })
}
