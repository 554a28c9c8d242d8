//! The experiments of Sec. 5 and App. B (Dai, Low & Jaillet 2021) as seeded federated runs,
//! for `cargo xtask reproduce dp-fts-de` and `cargo xtask bench dp-fts-de`.
//!
//! | id | what (paper) | problem | budget (runs x queries per agent) |
//! |---|---|---|---|
//! | `fig2a` | TS, FTS, FTS-DE `P = 2, 3` (Fig. 2a) | synthetic, `N = 200` | 60 draws x (10 + 40) |
//! | `fig2b` | DP-FTS-DE, `S in {5, 8, 11, 15, 22}` (Fig. 2b) | synthetic | 60 draws x (10 + 40) |
//! | `fig2c` | DP-FTS-DE, `q in {0.15, 0.25, 0.5}`, `z = 1` (Fig. 2c) | synthetic | 60 draws x (10 + 40) |
//! | `fig2d` | DP-FTS-DE, `z in {1, 1.2, 1.5}`, `q = 0.25` (Fig. 2d) | synthetic | 60 draws x (10 + 40) |
//! | `fig4` | DP-FTS `S = 8` vs DP-FTS-DE `S = 11`, `z = 1` (Fig. 4) | synthetic | 60 draws x (10 + 40) |
//! | `fig5` | FTS-DE vs equal weights vs whole-domain initialisation (Fig. 5) | synthetic | 60 draws x (10 + 40) |
//! | `fig6` | DP-FTS-DE, `P in {1, 2, 3, 4}`, `q = 0.25`, `z = 1`, `S = 11` (Fig. 6), and `P = 4` at `S = 22`, `z = 0.5` (the same noise, a wider clip) | synthetic | 60 draws x (10 + 40) |
//! | `fig7a`, `fig7b` | TS, FTS-DE with `1 - p_t = 1/sqrt(t)` and `1/t` (Fig. 7) | heterogeneous, `N = 50`, `alpha = 0.7, 1` | 60 draws x (10 + 40) |
//! | `fig12a` | TS, DP-FTS-DE adaptive vs non-adaptive weights (Fig. 12a) | synthetic | 60 draws x (10 + 40) |
//! | `fig3a` | DP-FTS-DE, `z in {1, 1.6, 2, 3, 4}` (`q = 0.35`), `q in {0.1, ..., 0.25}` (`z = 1`) (Fig. 3a) | SVM digits, `N = 29` | 50 x (10 + 60) |
//! | `fig3d` | TS, FTS, FTS-DE, DP-FTS-DE `q = 0.35`, `z = 1` (Fig. 3d) | SVM digits | 50 x (10 + 60) |
//! | `fig3a-noisy`, `fig3d-noisy` | the same on the harder stand-in, lengthscale 0.1 | noisy digits, `N = 20` | 50 x (10 + 60) |
//!
//! # What a curve is
//!
//! A curve is the **simple regret averaged over the agents**, per query: the `N_init = 10`
//! initial queries are iterations `-9..=0` (the paper's "results before iteration 0"), then
//! iterations `1..=T`. One trial of the framework ([`bandit::runner::TrialRecord`]) is one
//! *run* of the whole federation ([`run_federation`](crate::federation::run_federation)): its regret fields are the means over
//! agents of the agents' records; its `actions` are agent `A_1`'s (the agent of Theorem 1; a
//! mean of actions means nothing). The paper averages every curve over 5 runs "with different
//! random initializations" (200 agents each) on one function; we run every synthetic curve
//! over [`SYNTHETIC_DRAWS`] `= 60` problem draws, one run each (below), and the band and the `+-`
//! of the summary are the **standard error over the run means** (sample sd of the run means
//! over the square root of their number): the agents of one run share the features, the
//! server's noise and the broadcasts, so they are not independent replicates.
//!
//! # Seeds and problem draws
//!
//! - **A new problem per run** on the synthetic and heterogeneous problems
//!   ([`Problem::is_random`]): run `r` of every curve of a figure sees problem draw `r` (App.
//!   B.1.1: one GP draw and its 200 perturbed copies; App. B.1.2: one heterogeneous set), drawn
//!   from the base seed ([`problem_rng`]`(base_seed, kind + 3 r)`, [`draw_problems`]). The
//!   paper averages 5 runs "with different random initializations" of one function; a
//!   reproduction must speak about the algorithm, not about one function, so every synthetic
//!   figure runs [`SYNTHETIC_DRAWS`] `= 60` draws of one run each, and the figures' claims
//!   ([`claims`]) are tested with paired tests across those draws. Draw 0 is the one function
//!   earlier versions drew for every run.
//! - **Fresh algorithm seeds per run**: run `r` of every curve is [`run_federation`](crate::federation::run_federation) with the
//!   base seed and run index `r` (its features, initial points, Thompson samples, noise and
//!   server streams, [`crate::federation::Stream`]). Curves of the same figure therefore share
//!   their problem draw and their random numbers where their settings allow (common random
//!   numbers), which makes their paired differences less noisy.
//! - The SVM-digits stand-in is one fixed problem (a data set): its runs differ only in the
//!   algorithm's seeds, and its claims speak about the algorithms on that one problem.
//! - The synthetic figures use [`DpFtsDeParams::synthetic`](crate::params::DpFtsDeParams::synthetic) (`T = 40`, which the paper gives
//!   for Fig. 2c/d's privacy losses; we use it for every synthetic figure, the paper does not
//!   state the others' `T`). Fig. 7's heterogeneous agents use the same preset, `P = 2`, no
//!   DP (the paper's "FTS-DE"); its faster decay is `1 - p_t = 1/t`.
//! - Fig. 6's `P` values are not stated; we use `P in {1, 2, 3, 4}` with `S = 11` as given.
//!
//! # Real-world stand-in (Fig. 3a, 3d)
//!
//! The landmine data cannot be downloaded here; [`FederatedProblem::svm_digits`](crate::problem::FederatedProblem::svm_digits) (29 agents
//! tuning an SVM on shards of the scikit-learn digits, `../shared/data/README.md`) stands in.
//! Parameters: [`DpFtsDeParams::real_world`](crate::params::DpFtsDeParams::real_world) unchanged (`P = 4`, `S = 22`, `M = 100`,
//! `1 - p_t = 1/t`, lengthscale 0.01, `lambda = 1e-6`, `T = 60`). The simple regret is the
//! validation-accuracy gap to the agent's best grid point, i.e. the gap of the error
//! `1 - accuracy`. The paper averages Fig. 3a/d over 100 initialisations; we use
//! [`REAL_WORLD_RUNS`] `= 50` (about 0.25 s per run of 29 agents; 13 curves) to keep the full
//! reproduction within a few minutes on two cores.
//!
//! The SVM-digits table is an easy case: ten random grid points already come within 0.022 of
//! an agent's best, so it cannot tell the algorithms apart. The harder stand-in
//! ([`FederatedProblem::noisy_digits`](crate::problem::FederatedProblem::noisy_digits), committed in
//! `data/dp-fts-de/` with the script that builds it from the digits bundled in scikit-learn)
//! gives every agent its own pixel noise, so the agents differ, and ten random points fall
//! 0.261 short on average. Its panels (`fig3a-noisy`, `fig3d-noisy`) use the real-world
//! preset with the lengthscale 0.1 ([`NOISY_DIGITS_LENGTHSCALE`], the median
//! maximum-likelihood fit of its landscapes) instead of the paper's 0.01, and test Fig. 3d's
//! claims at the last iteration and over iterations 1-10.
//!
//! # Privacy losses
//!
//! Each private curve reports, beside its batch, the privacy loss of its run by the paper's
//! accountant (RDP at the integer orders 2..=33, classic conversion, `delta = N^-1.1`; the
//! same in every run) and the fraction of vectors clipped per run. The summary prints the
//! losses of Fig. 2c/d beside the paper's ([`PAPER_EPSILON_Q`], [`PAPER_EPSILON_Z`]) and the
//! privacy-loss-distribution accountant's ([`subsampled_gaussian_pld_epsilon`](privacy::accountant::subsampled_gaussian_pld_epsilon), default
//! [`PldSettings`](privacy::accountant::PldSettings)) for the same `q`, `z`, `T` releases and `delta`.

mod panels;
mod problems;
mod runs;
mod summary;

pub use panels::{
    Curve, EARLY, FIRST_ROUND, NOISY_DIGITS_LENGTHSCALE, PAPER_EPSILON_Q, PAPER_EPSILON_Z, Panel,
    PanelRecord, REAL_WORLD_RUNS, REAL_WORLD_SETTINGS, SYNTHETIC_DRAWS, SYNTHETIC_RUNS, claims,
    panels,
};
pub use problems::{
    HETEROGENEOUS_AGENTS, Problem, SYNTHETIC_AGENTS, draw_problems, load_problem, problem_rng,
};
pub use runs::{run_curve, run_record, with_horizon};

use std::sync::Arc;

use bandit::experiment::{
    self, Budget, ExperimentError, FigureResult, Options, PaperExperiments, Parameters,
    TimingWorkload,
};

use crate::error::DpFtsDeError;
use crate::params::DpFtsDeParams;
use privacy::Sampler;

/// The reproduction of Sec. 5 and App. B: the [`panels`], each curve a [`run_curve`], with
/// the paper's budgets, simple-regret curves with standard-error bands from iteration `-9`,
/// and the privacy losses and Fig. 3a's table in the summary.
#[derive(Debug, Clone, Copy, Default)]
pub struct Dai2021;

impl Dai2021 {
    /// The panel with this id.
    ///
    /// # Errors
    /// [`ExperimentError::UnknownFigure`] for an id that is not one of [`panels`].
    pub fn panel(id: &str) -> Result<Panel, ExperimentError> {
        experiment::find_panel(&panels(), "dp-fts-de", id).cloned()
    }
}

/// The local-step presets `--preset` names: every curve's local step (line 6) replaced.
pub const LOCAL_PRESETS: [&str; 3] = ["weight-space", "exact-gp", "authors"];

/// The setting of a curve under the local-step preset `name` (`None` or `weight-space`: the
/// curve as it is; `exact-gp`: [`DpFtsDeParams::exact_gp`]; `authors`:
/// [`DpFtsDeParams::authors`]).
///
/// # Errors
/// [`ExperimentError::UnknownVariant`] for another name.
pub fn with_local_preset(
    params: DpFtsDeParams,
    name: Option<&str>,
) -> Result<DpFtsDeParams, ExperimentError> {
    match name {
        None | Some("weight-space") => Ok(params),
        Some("exact-gp") => Ok(params.exact_gp()),
        Some("authors") => Ok(params.authors()),
        Some(other) => Err(ExperimentError::UnknownVariant {
            paper: "dp-fts-de",
            variant: other.to_string(),
            known: LOCAL_PRESETS.join(","),
        }),
    }
}

/// `params` with its privacy noise drawn by the sampler `--sampler` names: under
/// `--sampler textbook` every private curve's release is the floating-point Gaussian (and its
/// subsampling a floating-point Bernoulli) at the same `q` and calibration (without the
/// hardened sampler's grid slack `1 + 2^-20` in `sigma`), the control; without
/// it, or with `hardened`, the curve's own sampler (the hardened one; no curve names another).
/// With `-per-curve` (`textbook-per-curve`, `hardened-per-curve`) the server also draws from
/// a stream of the curve's own ([`DpSettings::own_noise_stream`](crate::params::DpSettings)).
/// A non-private curve is unchanged.
pub fn with_sampler(mut params: DpFtsDeParams, name: Option<&str>) -> DpFtsDeParams {
    let (textbook, own_stream) = match name {
        Some("textbook") => (true, false),
        Some("textbook-per-curve") => (true, true),
        Some("hardened-per-curve") => (false, true),
        // `hardened`, none, or a name `select_figures` refuses.
        _ => (false, false),
    };
    if let Some(dp) = params.privacy.as_mut() {
        if textbook {
            dp.sampler = Sampler::Textbook;
        }
        dp.own_noise_stream |= own_stream;
    }
    params
}

impl PaperExperiments for Dai2021 {
    fn name(&self) -> &'static str {
        "dp-fts-de"
    }

    fn title(&self) -> &'static str {
        "Dai, Low & Jaillet 2021: reproduced Figures 2, 3a/d (two SVM-tuning stand-ins), 4-7 and 12a"
    }

    fn figures(&self) -> Vec<experiment::Figure> {
        panels().iter().map(|p| p.figure().clone()).collect()
    }

    fn parameters(&self, options: &Options) -> Result<Parameters, ExperimentError> {
        let mut records: Vec<PanelRecord> = panels().iter().map(PanelRecord::of).collect();
        for c in records.iter_mut().flat_map(|r| r.curves.iter_mut()) {
            c.params = with_sampler(
                with_local_preset(c.params, options.variant())?,
                options.sampler(),
            );
        }
        Parameters::json(
            "per figure: the problem, runs, queries per agent (N_init + T) and every curve's \
             DpFtsDeParams (presets of Sec. 5 / App. B, `dp_fts_de::experiments` docs; the \
             local step of `--preset`, if any; `privacy.sampler`: hardened by default, \
             textbook with --sampler textbook, same q and calibration; `own_noise_stream` with the \
             -per-curve names)",
            &records,
        )
    }

    fn runs(
        &self,
        figure: &experiment::Figure,
        options: &Options,
    ) -> Result<Vec<experiment::Run>, ExperimentError> {
        let panel = Self::panel(figure.id)?;
        let setup = |e: DpFtsDeError| ExperimentError::Setup {
            figure: panel.id().to_string(),
            source: Box::new(e),
        };
        let config = options.run_config();
        let problems = Arc::new(
            draw_problems(
                *panel.problem(),
                options.base_seed(),
                config.n_trials,
                options.data_dir(),
            )
            .map_err(setup)?,
        );
        let preset = options.variant();
        for (_, params) in panel.curves() {
            with_local_preset(*params, preset)?;
            with_horizon(params, config.horizon)
                .and_then(|p| p.validate(problems[0].n_agents()))
                .map_err(setup)
                .map(drop)?;
        }
        let preset = preset.map(str::to_string);
        let sampler = options.sampler().map(str::to_string);
        panel.runs_with_diagnostics(figure, |&params| {
            let problems = Arc::clone(&problems);
            // Checked above for every curve of the panel.
            let params = with_local_preset(params, preset.as_deref()).unwrap_or(params);
            let params = with_sampler(params, sampler.as_deref());
            move || run_curve(&problems, &params, &config)
        })
    }

    /// Fig. 2a (four curves, 200 agents) at one run of the paper's 50 queries.
    fn timings(&self) -> TimingWorkload {
        TimingWorkload {
            description: "Figure 2a (synthetic, N = 200, 10 + 40 queries)",
            figures: &["fig2a"],
            trials: 1,
            horizon: 50,
            base_seed: 2021,
        }
    }

    fn budget(&self, figure: &experiment::Figure) -> Option<Budget> {
        Self::panel(figure.id).ok().and_then(|p| p.budget())
    }

    /// `hardened` (the default: exact Bernoulli subsampling and the discrete Gaussian, what the
    /// claim is about) or `textbook` (floating point at the same `q` and calibration, the control),
    /// either with `-per-curve` (each curve's server noise from a stream of its own; [`with_sampler`]).
    fn samplers(&self) -> &'static [&'static str] {
        &[
            "hardened",
            "textbook",
            "hardened-per-curve",
            "textbook-per-curve",
        ]
    }

    /// The local-step presets ([`LOCAL_PRESETS`]): `--preset NAME` runs every curve with that
    /// local step (erratum 14 and 15); the weight-space step without one.
    fn variants(&self) -> &'static [&'static str] {
        &LOCAL_PRESETS
    }

    /// The figures [`Options::only`] selects; a `--preset` is a local step for every curve (not
    /// a filter of curve labels), so every curve is kept. An unknown preset is refused.
    fn select_figures(
        &self,
        options: &Options,
    ) -> Result<Vec<experiment::Figure>, ExperimentError> {
        self.check_sampler(options)?;
        with_local_preset(DpFtsDeParams::synthetic(), options.variant())?;
        experiment::select_only(self.name(), self.figures(), options.only())
    }

    fn summary_section(&self, results: &[FigureResult]) -> Option<String> {
        if results.is_empty() {
            return None;
        }
        Some(summary::summary(results))
    }
}

#[cfg(test)]
mod tests {
    use super::{Dai2021, with_sampler};
    use crate::params::{DpFtsDeParams, DpSettings};
    use bandit::experiment::{ExperimentError, Options, PaperExperiments};
    use privacy::Sampler;

    /// `--sampler textbook` makes every private curve's sampler textbook (and says so in the
    /// parameters record); without it, or with `hardened`, a curve keeps its own; a non-private
    /// curve has none to change; an unknown name is refused.
    #[test]
    fn the_textbook_sampler_is_a_named_control() {
        let private = DpFtsDeParams::synthetic();
        assert_eq!(private.privacy.unwrap().sampler, Sampler::Hardened);
        let textbook = with_sampler(private, Some("textbook"));
        assert_eq!(textbook.privacy.unwrap().sampler, Sampler::Textbook);
        assert_eq!(
            DpFtsDeParams {
                privacy: None,
                ..textbook
            },
            DpFtsDeParams {
                privacy: None,
                ..private
            }
        );
        assert_eq!(with_sampler(private, None), private);
        assert_eq!(with_sampler(private, Some("hardened")), private);
        let non_private = DpFtsDeParams {
            privacy: None,
            ..private
        };
        assert_eq!(with_sampler(non_private, Some("textbook")), non_private);
        assert_eq!(
            with_sampler(non_private, Some("textbook-per-curve")),
            non_private
        );
        let own = with_sampler(private, Some("textbook-per-curve"))
            .privacy
            .unwrap();
        assert!(own.own_noise_stream && own.sampler == Sampler::Textbook);
        let own = with_sampler(private, Some("hardened-per-curve"))
            .privacy
            .unwrap();
        assert!(own.own_noise_stream && own.sampler == Sampler::Hardened);
        assert!(!private.privacy.unwrap().own_noise_stream);
        // A curve that names its own sampler keeps it unless --sampler textbook overrides it.
        let named = DpFtsDeParams {
            privacy: private.privacy.map(|dp| DpSettings {
                sampler: Sampler::Textbook,
                ..dp
            }),
            ..private
        };
        for name in [None, Some("hardened"), Some("textbook")] {
            assert_eq!(with_sampler(named, name), named, "{name:?}");
        }
        let own = with_sampler(named, Some("hardened-per-curve"))
            .privacy
            .unwrap();
        assert!(own.own_noise_stream && own.sampler == Sampler::Textbook);
        // Every curve of a figure gets its own server stream label under -per-curve.
        let labels: Vec<_> = crate::experiments::panels()
            .iter()
            .find(|p| p.id() == "fig2d")
            .unwrap()
            .curves()
            .map(|(_, p)| {
                crate::federation::own_server_stream(&with_sampler(*p, Some("textbook-per-curve")))
                    .unwrap()
            })
            .collect();
        assert!(labels.len() >= 3);
        for (i, a) in labels.iter().enumerate() {
            assert!(labels[i + 1..].iter().all(|b| b != a), "{a}");
        }
        assert_eq!(crate::federation::own_server_stream(&private), None);

        let options = Options::new(1, 5, 0, "/nonexistent-data-folder").unwrap();
        let json = |o: &Options| Dai2021.parameters(o).unwrap().json;
        let textbook = options.clone().with_sampler(Some("textbook".into()));
        assert!(json(&textbook).contains("\"sampler\": \"textbook\""));
        assert!(!json(&textbook).contains("\"sampler\": \"hardened\""));
        assert!(!json(&options).contains("\"sampler\": \"textbook\""));
        assert!(Dai2021.select_figures(&textbook).is_ok());
        assert!(matches!(
            Dai2021.select_figures(&options.with_sampler(Some("exact".into()))),
            Err(ExperimentError::UnknownSampler { .. })
        ));
    }
}
