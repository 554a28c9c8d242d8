//! The reproduction `cargo xtask reproduce usca`. The paper has no experiments; these are
//! ours (docs/usca.md, "Reproduction and cost"):
//!
//! | figure | problem |
//! |---|---|
//! | `er-se-1d` | X = 50-point grid on [0, 1], C = [0, 1], kappa uniform, SE x SE |
//! | `er-matern-1d` | the same with Matérn 5/2 factors |
//! | `er-se-2d` | C = [0, 1]^2, SE x SE |
//! | `er-matern-2d` | C = [0, 1]^2, Matérn 5/2 factors |
//! | `er-light` | the light sensors: 41 sensors = actions, the ambient level = context ([`crate::light_sensor`]) |
//!
//! Each figure draws the error rate of eq. (1) against `log2 T` for `T = 2^6, ..., 2^(5 + H)`
//! (`H` = the options' horizon, 8 by default: up to `T = 8192`), a new `f` per trial for the
//! synthetic figures (20 trials by default), each `T` an independent learning stage. Curves: USCA with the certified
//! sensitivity at `eps` in {0.1, 0.5, 1, 2}, the non-private `argmax mu_T` (`eps = inf`), USCA
//! at `eps = 1` with the proven `2 B / tau` (the bound valid for every `Z`), the GP posterior
//! mean of eq. (2) (non-private) and the naive private baseline at `eps = 1` (the exponential
//! mechanism on the posterior mean with [`crate::posterior_mean_sensitivity`]). All curves of a
//! trial share its learning data, `Z` and 200 evaluation contexts; the error rate is exact over
//! the mechanisms' coins ([`ContextualProblem::error_rate`](crate::ContextualProblem::error_rate)).
//!
//! The curves of a figure are computed together (by the first curve's run, then read by the
//! others), so the first curve's time is the figure's.

use std::sync::{Arc, OnceLock};

use bandit::experiment::{
    At, Band, Budget, Claim, ExperimentError, Figure, FigureResult, Metric, Options,
    PaperExperiments, Parameters, Problem, Run, TimingWorkload, find_panel,
};
use bandit::runner::{BatchResult, TrialRecord};
use bandit::seed::{Role, mix, trial_rng};
use ndarray::ArrayView1;
use privacy::mechanisms::ExponentialMechanism;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha20Rng;
use rayon::prelude::*;
use serde::Serialize;

use crate::algorithm::{Usca, argmax_distribution, learning_stage};
use crate::approximating_set::ApproximatingSetSize;
use crate::baselines::PosteriorMeanBaseline;
use crate::error::UscaError;
use crate::light_sensor::light_sensor;
use crate::params::UscaParams;
use crate::problem::Instance;
use crate::sensitivity::{SensitivityRule, proven_sup_sigma2};
use crate::synthetic::{KernelFamily, SyntheticProblem};

/// `log2` of the smallest horizon.
pub const FIRST_LOG2_T: i64 = 6;
/// Evaluation contexts per error rate.
pub const EVAL_CONTEXTS: usize = 200;
/// The privacy budgets of the certified-USCA curves.
pub const EPSILONS: [f64; 4] = [0.1, 0.5, 1.0, 2.0];
/// The curve labels, in drawing order.
pub const CURVES: [&str; 8] = [
    "usca-eps0.1",
    "usca-eps0.5",
    "usca-eps1",
    "usca-eps2",
    "usca-nonprivate",
    "usca-eps1-proven",
    "posterior-mean",
    "naive-eps1",
];

/// The claims every figure tests at the largest `T` (the error rate of the last horizon),
/// paired over trials (a new `f` per trial on the synthetic figures, the one instance of the
/// light sensors): Theorem 4.1's two terms (the privacy term `gamma_T / (T eps)` grows as
/// `eps` shrinks; `eps -> inf` leaves `sqrt(gamma_T / T)`), and two of ours
/// (docs/usca.md): the certified sensitivity beats the proven one at `tau = 1`, and USCA beats
/// the naive private predictor at the same `eps`.
pub fn claims() -> Vec<Claim> {
    vec![
        Claim::rising(
            "error-grows-as-eps-shrinks",
            "Theorem 4.1: ER = O(sqrt(gamma_T / T) + gamma_T / (T eps)), the privacy term grows \
             as eps shrinks",
            ["usca-eps2", "usca-eps1", "usca-eps0.5", "usca-eps0.1"],
            At::Last,
        ),
        Claim::below(
            "non-private-below-eps1",
            "Theorem 4.1: as eps -> inf the error rate reduces to O(sqrt(gamma_T / T))",
            "usca-nonprivate",
            "usca-eps1",
            At::Last,
        ),
        Claim::below(
            "certified-below-proven",
            "ours (docs/usca.md): at tau = 1 the certified sensitivity learns, the proven 2B/tau \
             does not",
            "usca-eps1",
            "usca-eps1-proven",
            At::Last,
        ),
        Claim::below(
            "usca-below-naive",
            "ours (docs/usca.md): USCA beats the naive exponential mechanism on the posterior \
             mean at the same eps",
            "usca-eps1",
            "naive-eps1",
            At::Last,
        ),
    ]
}

/// One figure: its description (error rate against `log2 T`, standard-error bands, its draws,
/// [`claims`]), its [`Setting`], its budget (20 trials, `T = 2^6 .. 2^13`) and its curves,
/// each a label of [`CURVES`] with its index there.
pub type Panel = bandit::experiment::Panel<Setting, usize>;

/// The five figures (module docs).
pub fn panels() -> Vec<Panel> {
    [
        ("er-se-1d", "SE x SE, C = [0, 1]"),
        ("er-matern-1d", "Matern-5/2 factors, C = [0, 1]"),
        ("er-se-2d", "SE x SE, C = [0, 1]^2"),
        ("er-matern-2d", "Matern-5/2 factors, C = [0, 1]^2"),
        (
            "er-light",
            "light sensors: sensor = action, ambient level = context",
        ),
    ]
    .into_iter()
    .map(|(id, caption)| {
        let s = setting(id).expect("every id of the table has a setting");
        let draws = match s.source {
            Source::LightSensor => Problem::Fixed,
            Source::Synthetic(_) => Problem::RandomPerTrial,
        };
        Panel::new(id, caption, s, CURVES.iter().copied().zip(0..))
            .with_budget(Budget {
                trials: 20,
                horizon: 8,
            })
            .with_figure(|f| {
                let f = f
                    .with_metric(Metric::ErrorRate)
                    .with_band(Band::StandardError)
                    .with_first_round(FIRST_LOG2_T)
                    .with_problem(draws);
                claims().into_iter().fold(f, Figure::with_claim)
            })
    })
    .collect()
}

/// The paper's reproduction, for `cargo xtask reproduce usca`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Pavlovic2025;

/// Where a figure's problem comes from.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub enum Source {
    /// A synthetic problem, a new `f` per trial.
    Synthetic(SyntheticProblem),
    /// The light-sensor instance ([`crate::light_sensor`]), the same for every trial.
    LightSensor,
}

/// The setting of one figure.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Setting {
    /// The problem.
    pub source: Source,
    /// USCA's parameters (the certified curves; the proven curve swaps the rule).
    pub params: UscaParams,
}

/// The setting of figure `id`.
pub fn setting(id: &str) -> Result<Setting, ExperimentError> {
    if id == "er-light" {
        return Ok(Setting {
            source: Source::LightSensor,
            params: UscaParams {
                reward_bound: 1.0,
                approximating_set: ApproximatingSetSize::Capped { cap: 1024 },
                sensitivity: SensitivityRule::Certified { points_per_dim: 64 },
                ..UscaParams::default()
            },
        });
    }
    let (family, context_dim) = match id {
        "er-se-1d" => (KernelFamily::SquaredExponential, 1),
        "er-matern-1d" => (KernelFamily::Matern52, 1),
        "er-se-2d" => (KernelFamily::SquaredExponential, 2),
        "er-matern-2d" => (KernelFamily::Matern52, 2),
        other => {
            return Err(ExperimentError::UnknownFigure {
                paper: "usca",
                id: other.to_string(),
                known: "er-se-1d,er-matern-1d,er-se-2d,er-matern-2d,er-light".into(),
            });
        }
    };
    Ok(Setting {
        source: Source::Synthetic(SyntheticProblem {
            family,
            context_dim,
            ..SyntheticProblem::default()
        }),
        params: UscaParams {
            approximating_set: ApproximatingSetSize::Capped { cap: 1024 },
            sensitivity: SensitivityRule::Certified {
                points_per_dim: if context_dim == 1 { 64 } else { 20 },
            },
            ..UscaParams::default()
        },
    })
}

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
        let pm = PosteriorMeanBaseline::fit(inst.kernel.clone(), &inst.problem, &data, p.tau)?;
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
fn figure_batches(s: &Setting, options: &Options) -> Result<Vec<BatchResult>, UscaError> {
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

/// What `params.json` holds.
#[derive(Serialize)]
struct AllParameters {
    figures: Vec<(String, Setting)>,
    epsilons: [f64; 4],
    evaluation_contexts: usize,
    horizons: &'static str,
}

type Shared = Arc<OnceLock<Result<Vec<BatchResult>, String>>>;

impl PaperExperiments for Pavlovic2025 {
    fn name(&self) -> &'static str {
        "usca"
    }

    fn title(&self) -> &'static str {
        "Pavlovic, Salgia & Zhao 2025 (USCA): error rate against T and eps (our experiments; the paper has none)"
    }

    fn figures(&self) -> Vec<Figure> {
        panels().iter().map(|p| p.figure().clone()).collect()
    }

    fn parameters(&self, _: &Options) -> Result<Parameters, ExperimentError> {
        let settings: Vec<(String, Setting)> = self
            .figures()
            .iter()
            .map(|f| setting(f.id).map(|s| (f.id.to_string(), s)))
            .collect::<Result<_, _>>()?;
        Parameters::json(
            "the settings of `usca::experiments::setting` (docs/usca.md, \"Reproduction and cost\")",
            &AllParameters {
                figures: settings,
                epsilons: EPSILONS,
                evaluation_contexts: EVAL_CONTEXTS,
                horizons: "T = 2^(6 + i), i = 0 .. horizon - 1",
            },
        )
    }

    fn budget(&self, figure: &Figure) -> Option<Budget> {
        find_panel(&panels(), "usca", figure.id)
            .ok()
            .and_then(Panel::budget)
    }

    fn runs(&self, figure: &Figure, options: &Options) -> Result<Vec<Run>, ExperimentError> {
        let panels = panels();
        let panel = find_panel(&panels, "usca", figure.id)?;
        let s = *panel.problem();
        let shared: Shared = Arc::new(OnceLock::new());
        panel.runs(figure, |&k| {
            let shared = shared.clone();
            let options = options.clone();
            move || {
                let all =
                    shared.get_or_init(|| figure_batches(&s, &options).map_err(|e| e.to_string()));
                match all {
                    Ok(b) => Ok(b[k].clone()),
                    Err(e) => Err(e.clone()),
                }
            }
        })
    }

    fn timings(&self) -> TimingWorkload {
        TimingWorkload {
            description: "synthetic SE x SE, C = [0, 1], T = 64..512",
            figures: &["er-se-1d"],
            trials: 2,
            horizon: 4,
            base_seed: 1,
        }
    }

    fn summary_section(&self, results: &[FigureResult]) -> Option<String> {
        let mut s = String::from(
            "\n## Measured exponents\n\nSlope of ln(mean error rate) against ln T over the \
             figure's horizons, with a 95% bootstrap interval over trials (200 resamples); \
             Theorem 4.1's rate is T^(-1/2) up to the factor sqrt(gamma_T) (and \
             gamma_T / (T eps) for the private term). The last column is the slope of \
             ln(mean error rate) against ln(1 / eps) at the largest T over the four certified \
             curves (the theorem's 1/eps regime has slope 1).\n\n\
             | figure | curve | slope in T | 95% interval |\n|---|---|---|---|\n",
        );
        for r in results {
            for c in &r.curves {
                let (b, lo, hi) = slope_with_interval(&c.batch, r.figure.first_round);
                if b.is_finite() {
                    s.push_str(&format!(
                        "| {} | {} | {b:.3} | [{lo:.3}, {hi:.3}] |\n",
                        r.figure.id, c.label
                    ));
                } else {
                    s.push_str(&format!(
                        "| {} | {} | n/a (a mean error rate is 0) | - |\n",
                        r.figure.id, c.label
                    ));
                }
            }
            if r.curves.len() >= 4 {
                let x: Vec<f64> = EPSILONS.iter().map(|e| -e.ln()).collect();
                let y: Vec<f64> = r.curves[..4]
                    .iter()
                    .map(|c| c.summary.last().0.ln())
                    .collect();
                let k = ols(&x, &y);
                let k = if k.is_finite() {
                    format!("{k:.3}")
                } else {
                    "n/a (a mean error rate is 0)".to_string()
                };
                s.push_str(&format!(
                    "| {} | slope in 1/eps at the largest T (eps = 0.1..2) | {k} | - |\n",
                    r.figure.id
                ));
            }
        }
        Some(s)
    }
}

fn ols(x: &[f64], y: &[f64]) -> f64 {
    let n = x.len() as f64;
    let mx = x.iter().sum::<f64>() / n;
    let my = y.iter().sum::<f64>() / n;
    let sxy: f64 = x.iter().zip(y).map(|(a, b)| (a - mx) * (b - my)).sum();
    let sxx: f64 = x.iter().map(|a| (a - mx) * (a - mx)).sum();
    sxy / sxx
}

/// The slope of `ln(mean ER)` against `ln T`, and a percentile bootstrap interval over trials.
fn slope_with_interval(batch: &BatchResult, first: i64) -> (f64, f64, f64) {
    let h = batch.config.horizon;
    let x: Vec<f64> = (0..h)
        .map(|i| (first as f64 + i as f64) * std::f64::consts::LN_2)
        .collect();
    let fit = |idx: &[usize]| {
        let y: Vec<f64> = (0..h)
            .map(|i| {
                (idx.iter()
                    .map(|&t| batch.trials[t].instantaneous_regret[i])
                    .sum::<f64>()
                    / idx.len() as f64)
                    .ln()
            })
            .collect();
        ols(&x, &y)
    };
    let n = batch.trials.len();
    let all: Vec<usize> = (0..n).collect();
    let b = fit(&all);
    if n < 2 || h < 2 {
        return (b, b, b);
    }
    let mut rng = ChaCha20Rng::seed_from_u64(mix(batch.config.base_seed ^ 0x5ca1e));
    let mut boot: Vec<f64> = (0..200)
        .map(|_| {
            let idx: Vec<usize> = (0..n).map(|_| rng.random_range(0..n)).collect();
            fit(&idx)
        })
        .filter(|v| v.is_finite())
        .collect();
    boot.sort_by(f64::total_cmp);
    if boot.is_empty() {
        return (b, f64::NAN, f64::NAN);
    }
    let q = |p: f64| boot[((p * (boot.len() - 1) as f64).round() as usize).min(boot.len() - 1)];
    (b, q(0.025), q(0.975))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_figures_are_errors_and_known_ones_have_settings() {
        assert!(setting("fig9").is_err());
        for f in Pavlovic2025.figures() {
            assert!(setting(f.id).is_ok());
            assert_eq!(f.curves.len(), CURVES.len());
        }
    }
}
