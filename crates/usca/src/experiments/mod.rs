//! The reproduction `cargo xtask reproduce usca`. The paper has no experiments; these are
//! ours (docs/usca.md, "Reproduction and cost"):
//!
//! | figure | problem | x-axis |
//! |---|---|---|
//! | `er-se-1d` | X = 50-point grid on [0, 1], C = [0, 1], kappa uniform, SE x SE | `log2 T` |
//! | `er-matern-1d` | the same with Matérn 5/2 factors | `log2 T` |
//! | `er-se-2d` | C = [0, 1]^2, SE x SE | `log2 T` |
//! | `er-matern-2d` | C = [0, 1]^2, Matérn 5/2 factors | `log2 T` |
//! | `er-light` | the light sensors: 41 sensors = actions, the ambient level = context ([`crate::light_sensor`]) | `log2 T` |
//! | `tau-sweep-se-1d` | as `er-se-1d`, `T = 4096` | `log2 tau`, `tau = 2^-3 .. 2^8` |
//! | `z-sweep-se-1d` | as `er-se-1d`, `T = 4096`, `tau = 1` | `log2 abs(Z)`, `abs(Z) = 2^6 .. 2^12` |
//!
//! The error-rate figures draw the error rate of eq. (1) against `log2 T` for
//! `T = 2^6, ..., 2^(5 + H)` (`H` = the options' horizon, 8 by default: up to `T = 8192`), a new
//! `f` per trial for the synthetic figures (20 trials by default), each `T` an independent
//! learning stage, with the curves of [`HORIZON_CURVES`]: USCA with the certified, the
//! query-context (certified `S`) and the proven sensitivity, the verbatim fixed smoother
//! ([`crate::UscaParams::verbatim`]) and the naive private baseline (the exponential mechanism on
//! the posterior mean with [`crate::posterior_mean_sensitivity`]), each at
//! `eps` in [`EPSILONS`], then the non-private `argmax mu_T` and the GP posterior mean of eq. (2).
//! The sweeps fix one learning stage of `T = 4096` per trial and vary `tau` ([`TAU_CURVES`]) or
//! `abs(Z)` ([`Z_CURVES`]), with `Z` drawn from the same coins at every point. All curves of a
//! trial share its learning data, `Z` and 200 evaluation contexts; the error rate is exact over
//! the mechanisms' coins ([`ContextualProblem::error_rate`](crate::ContextualProblem::error_rate)).
//!
//! The curves of a figure are computed together (by the first curve's run, then read by the
//! others), so the first curve's time is the figure's.

mod panels;
mod runs;
mod summary;

pub use panels::{
    Base, Curve, EPSILONS, EVAL_CONTEXTS, FIRST_LOG2_T, FIRST_LOG2_TAU, FIRST_LOG2_Z,
    HORIZON_CURVES, Panel, SWEEP_T, Setting, Source, Sweep, TAU_CURVES, Z_CAP, Z_CURVES,
    horizon_claims, panels, setting, tau_claims, z_claims,
};
use runs::figure_batches;
pub use runs::trial_error_rates;

use std::sync::{Arc, OnceLock};

use bandit::experiment::{
    Budget, ExperimentError, Figure, FigureResult, Options, PaperExperiments, Parameters, Run,
    TimingWorkload, find_panel,
};
use bandit::runner::BatchResult;

use serde::Serialize;

/// The paper's reproduction, for `cargo xtask reproduce usca`. It takes no `--sampler`: its
/// curves are expected error rates computed from the exponential mechanism's exact selection
/// probabilities ([`privacy::mechanisms::ExponentialMechanism::probabilities`]), so they draw
/// no privacy noise for a sampler to change.
#[derive(Debug, Clone, Copy, Default)]
pub struct Pavlovic2025;

/// What `params.json` holds.
#[derive(Serialize)]
struct AllParameters {
    figures: Vec<(String, Setting)>,
    epsilons: [f64; 4],
    evaluation_contexts: usize,
    horizons: &'static str,
    sweeps: &'static str,
}

type Shared = Arc<OnceLock<Result<Vec<BatchResult>, String>>>;

impl PaperExperiments for Pavlovic2025 {
    fn name(&self) -> &'static str {
        "usca"
    }

    fn title(&self) -> &'static str {
        "Pavlovic, Salgia & Zhao 2025 (USCA): error rate against T, eps, tau and |Z| (our experiments; the paper has none)"
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
                sweeps: "T = 4096; tau = 2^(-3 + i) or |Z| = 2^(6 + i), i = 0 .. horizon - 1",
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
        summary::section(results)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_figures_are_errors_and_known_ones_have_settings() {
        assert!(setting("fig9").is_err());
        for f in Pavlovic2025.figures() {
            assert!(setting(f.id).is_ok());
            assert_eq!(f.curves.len(), setting(f.id).unwrap().sweep.curves().len());
        }
    }
}
