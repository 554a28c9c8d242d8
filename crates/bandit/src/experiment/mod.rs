//! The paper-neutral description of a reproduction: each paper crate describes its figures in
//! its `experiments` module by implementing [`PaperExperiments`], and `cargo xtask reproduce`
//! and `cargo xtask bench` run any of them without knowing which paper it is.
//!
//! - A [`Figure`] is one panel of the paper: an id (`fig2a`), the paper's caption and the labels
//!   of its curves. A [`Panel`] is a figure as data: the figure, the paper's problem, its own
//!   budget and each curve's label with its configuration, written once ([`find_panel`] looks
//!   one up by id).
//! - A [`Run`] is one curve: its label and how to produce the [`BatchResult`] of seeded trials
//!   that draws it (a closure that owns what it needs, e.g. a loaded data set).
//! - [`PaperExperiments::run_figure`] runs a figure's curves in order, times each, summarises
//!   it ([`RegretSummary`]) and reports to a [`Progress`] callback, so that a binary can drive
//!   one progress bar without this crate depending on a terminal library.
//! - [`Options`] are what every reproduction takes: trials, horizon, base seed, the data folder
//!   and the selected figure ids.
//! - A figure may have its own [`Budget`] (trials, horizon) when a paper's figures differ;
//!   [`Options::with_overrides`] says whether the options' counts replace it, and
//!   [`PaperExperiments::summary_section`] adds a paper's own section to the summary.
//! - [`TimingWorkload`] names the figures, trials and horizon of the whole-process timings of
//!   `cargo xtask bench PAPER`.
//!
//! Seeding is the runner's (see [`crate::runner`]): trial `i` of every curve is seeded from
//! `(base seed, i)`, so a figure's numbers are the same whatever the thread count and whichever
//! other figures run in the same process.
//!
//! # Examples
//!
//! A tiny fake paper with one figure and one curve whose algorithm loses 0.5 per round:
//!
//! ```
//! use bandit::experiment::{
//!     ExperimentError, Figure, Options, PaperExperiments, Parameters, Progress, Run,
//!     TimingWorkload,
//! };
//! use bandit::runner::{BatchResult, TrialRecord};
//!
//! struct Fake;
//!
//! impl PaperExperiments for Fake {
//!     fn name(&self) -> &'static str {
//!         "fake"
//!     }
//!     fn title(&self) -> &'static str {
//!         "A fake paper: its Figure 1"
//!     }
//!     fn figures(&self) -> Vec<Figure> {
//!         vec![Figure::new("fig1", "constant regret", ["Lazy"])]
//!     }
//!     fn parameters(&self, _: &Options) -> Result<Parameters, ExperimentError> {
//!         Parameters::json("no parameters", &())
//!     }
//!     fn runs(&self, _: &Figure, options: &Options) -> Result<Vec<Run>, ExperimentError> {
//!         let config = options.run_config();
//!         Ok(vec![Run::new("Lazy", move || {
//!             let record = |trial| TrialRecord {
//!                 trial,
//!                 actions: vec![0; config.horizon],
//!                 rewards: vec![0.0; config.horizon],
//!                 mean_rewards: vec![0.0; config.horizon],
//!                 instantaneous_regret: vec![0.5; config.horizon],
//!                 cumulative_regret: (1..=config.horizon).map(|t| 0.5 * t as f64).collect(),
//!                 simple_regret: vec![0.5; config.horizon],
//!             };
//!             let trials = (0..config.n_trials).map(record).collect();
//!             Ok::<_, ExperimentError>(BatchResult { config, trials })
//!         })])
//!     }
//!     fn timings(&self) -> TimingWorkload {
//!         TimingWorkload { description: "constant regret", figures: &["fig1"], trials: 2, horizon: 10, base_seed: 1 }
//!     }
//! }
//!
//! let options = Options::new(3, 4, 2021, "data")?.with_only(["fig1"]);
//! let figures = Fake.select_figures(&options)?;
//! assert_eq!(figures.len(), 1);
//! let mut finished = Vec::new();
//! let result = Fake.run_figure(&figures[0], &options, &mut |p: Progress<'_>| {
//!     if let Progress::Finished { curve, .. } = p {
//!         finished.push(curve.label.clone());
//!     }
//! })?;
//! assert_eq!(finished, ["Lazy"]);
//! assert_eq!(result.curves[0].summary.mean, [0.5, 1.0, 1.5, 2.0]);
//! assert_eq!(result.curves[0].summary.std, [0.0; 4]);
//! assert!(Fake.select_figures(&options.clone().with_only(["fig9"])).is_err());
//! # Ok::<(), ExperimentError>(())
//! ```

pub mod claim;
pub mod paired;
pub mod panel;
pub mod table;

use std::path::{Path, PathBuf};
use std::time::Instant;

pub use claim::{Ablation, At, Claim, ClaimResult, ClaimVerdict, Problem};
pub use paired::{PairedTest, paired_test};
pub use panel::{Panel, find_panel};
pub use table::RunTable;

use serde::Serialize;
use thiserror::Error;

use crate::error::BoxedError;
use crate::runner::{BatchResult, RunConfig, Shard, TrialRecord};

/// What can go wrong while describing or running a paper's experiments.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum ExperimentError {
    /// A count of the options (trials, horizon) is zero.
    #[error("{what} must be >= 1")]
    ZeroCount {
        /// Which count.
        what: &'static str,
    },
    /// A figure id names no figure of the paper.
    #[error("{paper} has no figure {id:?}; its figures: {known}")]
    UnknownFigure {
        /// The paper's name.
        paper: &'static str,
        /// The id asked for.
        id: String,
        /// The paper's figure ids, comma-separated.
        known: String,
    },
    /// A variant names none of the paper's variants ([`PaperExperiments::variants`]).
    #[error("{paper} has no variant {variant:?}; its variants: {known}")]
    UnknownVariant {
        /// The paper's name.
        paper: &'static str,
        /// The variant asked for.
        variant: String,
        /// The paper's variants, comma-separated (empty: it has none).
        known: String,
    },
    /// A noise sampler the paper's reproduction does not offer
    /// ([`PaperExperiments::samplers`]).
    #[error("{paper}'s reproduction takes no sampler {sampler:?}; it takes: {known}")]
    UnknownSampler {
        /// The paper's name.
        paper: &'static str,
        /// The sampler asked for.
        sampler: String,
        /// The samplers it takes, comma-separated (or a sentence when it takes none).
        known: String,
    },
    /// A figure's runs do not draw the curves its description lists.
    #[error("figure {figure}: the runs draw {got:?}, its description lists {expected:?}")]
    CurveMismatch {
        /// The figure.
        figure: String,
        /// The labels of [`Figure::curves`].
        expected: Vec<String>,
        /// The labels of the runs.
        got: Vec<String>,
    },
    /// A batch cannot be summarised: no trial, or a trial whose length is not the horizon.
    #[error(
        "curve {label}: a batch of {trials} trial(s) with horizon {horizon} cannot be summarised \
         ({reason})"
    )]
    InvalidBatch {
        /// The curve.
        label: String,
        /// Number of trials in the batch.
        trials: usize,
        /// The batch's horizon.
        horizon: usize,
        /// What is wrong.
        reason: &'static str,
    },
    /// The paper could not prepare a figure (e.g. its data set could not be loaded).
    #[error("figure {figure}: {source}")]
    Setup {
        /// The figure.
        figure: String,
        /// The paper crate's error.
        #[source]
        source: BoxedError,
    },
    /// A curve's batch failed.
    #[error("figure {figure}, curve {label}: {source}")]
    Run {
        /// The figure.
        figure: String,
        /// The curve.
        label: String,
        /// The paper crate's error.
        #[source]
        source: BoxedError,
    },
    /// The parameters could not be serialised.
    #[error("cannot serialise the parameters: {0}")]
    Serialise(String),
    /// A figure's claim or ablation cannot be tested on its results.
    #[error("figure {figure}: a claim cannot be tested: {reason}")]
    InvalidClaim {
        /// The figure.
        figure: String,
        /// What is wrong.
        reason: String,
    },
}

/// What every reproduction takes: trials per curve, rounds per trial, the base seed, the
/// folder of the shared data sets and the selected figure ids (empty: all figures).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    trials: usize,
    horizon: usize,
    base_seed: u64,
    data_dir: PathBuf,
    only: Vec<String>,
    /// The selected variant of every curve (`None`: all; [`PaperExperiments::variants`]).
    variant: Option<String>,
    /// The noise sampler the private curves use, by name (`None`: the paper's default; the
    /// names are the privacy crate's, e.g. `hardened`, `textbook`; a paper that has no choice
    /// rejects any).
    sampler: Option<String>,
    /// Whether `trials` replaces a figure's own budget ([`PaperExperiments::budget`]).
    trials_override: bool,
    /// Whether `horizon` replaces a figure's own budget.
    horizon_override: bool,
    /// Run only this shard's block of every curve's trials (`None`: all).
    shard: Option<Shard>,
}

impl Options {
    /// `trials` seeded trials of `horizon` rounds per curve, trial `i` seeded from
    /// `(base_seed, i)`, data sets read from `data_dir`; every figure selected.
    ///
    /// # Errors
    /// [`ExperimentError::ZeroCount`] when `trials` or `horizon` is zero.
    pub fn new(
        trials: usize,
        horizon: usize,
        base_seed: u64,
        data_dir: impl Into<PathBuf>,
    ) -> Result<Self, ExperimentError> {
        if trials == 0 {
            return Err(ExperimentError::ZeroCount { what: "trials" });
        }
        if horizon == 0 {
            return Err(ExperimentError::ZeroCount { what: "horizon" });
        }
        Ok(Self {
            trials,
            horizon,
            base_seed,
            data_dir: data_dir.into(),
            only: Vec::new(),
            variant: None,
            sampler: None,
            trials_override: true,
            horizon_override: true,
            shard: None,
        })
    }

    /// Which of the counts override a figure's own budget ([`PaperExperiments::budget`]):
    /// `trials` (resp. `horizon`) `false` makes the options' trials (resp. horizon) a fallback,
    /// used only by the figures without a budget of their own. [`Options::new`] overrides
    /// both (every figure runs with the options' counts).
    #[must_use]
    pub fn with_overrides(mut self, trials: bool, horizon: bool) -> Self {
        self.trials_override = trials;
        self.horizon_override = horizon;
        self
    }

    /// These options for a figure whose own budget is `budget` (`None`: it has none): the
    /// budget's counts where the options do not override them.
    #[must_use]
    pub fn with_budget(&self, budget: Option<Budget>) -> Self {
        let mut o = self.clone();
        if let Some(b) = budget {
            if !self.trials_override {
                o.trials = b.trials;
            }
            if !self.horizon_override {
                o.horizon = b.horizon;
            }
        }
        o
    }

    /// Select only these figure ids (empty: all); [`PaperExperiments::select_figures`] rejects
    /// an id the paper does not have.
    #[must_use]
    pub fn with_only<S: Into<String>>(mut self, ids: impl IntoIterator<Item = S>) -> Self {
        self.only = ids.into_iter().map(Into::into).collect();
        self
    }

    /// Draw only the curves of this variant (`None`: every curve); a paper's variants are
    /// its [`PaperExperiments::variants`], and [`PaperExperiments::select_figures`] rejects any
    /// other name.
    #[must_use]
    pub fn with_variant(mut self, variant: Option<String>) -> Self {
        self.variant = variant;
        self
    }

    /// Run only `shard`'s block of every curve's trials (`None`: every trial); the block is
    /// [`Shard::trials`] of each figure's own trial count, and the trials keep their seeds.
    #[must_use]
    pub fn with_shard(mut self, shard: Option<Shard>) -> Self {
        self.shard = shard;
        self
    }

    /// The selected shard (`None`: every trial).
    pub fn shard(&self) -> Option<Shard> {
        self.shard
    }

    /// The selected variant (`None`: all).
    pub fn variant(&self) -> Option<&str> {
        self.variant.as_deref()
    }

    /// Run the private curves with the noise sampler of this name (`None`: the paper's default).
    #[must_use]
    pub fn with_sampler(mut self, sampler: Option<String>) -> Self {
        self.sampler = sampler;
        self
    }

    /// The requested noise sampler (`None`: the paper's default).
    pub fn sampler(&self) -> Option<&str> {
        self.sampler.as_deref()
    }

    /// Trials per curve.
    pub fn trials(&self) -> usize {
        self.trials
    }

    /// Rounds per trial `T`.
    pub fn horizon(&self) -> usize {
        self.horizon
    }

    /// The base seed.
    pub fn base_seed(&self) -> u64 {
        self.base_seed
    }

    /// The folder of the shared data sets.
    pub fn data_dir(&self) -> &Path {
        &self.data_dir
    }

    /// The selected figure ids (empty: all).
    pub fn only(&self) -> &[String] {
        &self.only
    }

    /// The runner's configuration of every curve (with the options' shard, if any).
    pub fn run_config(&self) -> RunConfig {
        RunConfig {
            horizon: self.horizon,
            n_trials: self.trials,
            base_seed: self.base_seed,
            shard: self.shard,
        }
    }
}

/// Which per-round quantity of the trial records a figure draws and summarises.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub enum Metric {
    /// The cumulative regret `R_t` ([`TrialRecord::cumulative_regret`]); the default.
    #[default]
    CumulativeRegret,
    /// The simple regret `S_t = min_{s <= t} r_s` ([`TrialRecord::simple_regret`]), as
    /// optimisation papers plot it (e.g. Dai et al. 2021).
    SimpleRegret,
    /// The error rate of a predictor learnt over a horizon `T` (Pavlovic et al. 2025, eq. (1):
    /// the expected gap `max_x f(x, c) - f(x_hat(c), c)` over fresh contexts): entry `i` of a
    /// record is one run with horizon `T = 2^(first_round + i)`, the error rate stored in
    /// [`TrialRecord::instantaneous_regret`] (the regret of the one final prediction). The
    /// figure's x-axis is `log2 T`.
    ErrorRate,
    /// The error rate at a fixed horizon against a swept parameter: entry `i` of a record is
    /// one run with the parameter `2^(first_round + i)`; the x-axis is `log2` of the parameter
    /// named by `x` (e.g. `"log2 tau"`).
    ErrorRateAgainst {
        /// The x-axis description.
        x: &'static str,
    },
}

impl Metric {
    /// The record's values of this metric, one per round.
    pub fn values(self, record: &TrialRecord) -> &[f64] {
        match self {
            Self::CumulativeRegret => &record.cumulative_regret,
            Self::SimpleRegret => &record.simple_regret,
            Self::ErrorRate | Self::ErrorRateAgainst { .. } => &record.instantaneous_regret,
        }
    }

    /// What the x-axis counts: `round t`, or `log2 T` for [`Metric::ErrorRate`].
    pub fn x_desc(self) -> &'static str {
        match self {
            Self::CumulativeRegret | Self::SimpleRegret => "round t",
            Self::ErrorRate => "log2 T (learning rounds)",
            Self::ErrorRateAgainst { x } => x,
        }
    }

    /// Its symbol after the last round (`R_T`, `S_T`).
    pub fn symbol(self) -> &'static str {
        match self {
            Self::CumulativeRegret => "R_T",
            Self::SimpleRegret => "S_T",
            Self::ErrorRate | Self::ErrorRateAgainst { .. } => "ER_T",
        }
    }

    /// Its name in words (`cumulative regret`), e.g. for an axis.
    pub fn name(self) -> &'static str {
        match self {
            Self::CumulativeRegret => "cumulative regret",
            Self::SimpleRegret => "simple regret",
            Self::ErrorRate | Self::ErrorRateAgainst { .. } => "error rate",
        }
    }
}

/// The band drawn around a figure's mean curve.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub enum Band {
    /// Mean +- one sample standard deviation over trials; the default.
    #[default]
    StandardDeviation,
    /// Mean +- one standard error over trials (`sd / sqrt(trials)`), as papers that average
    /// over a few runs draw their error bars (e.g. Dai et al. 2021, Sec. 5).
    StandardError,
}

impl Band {
    /// The factor of the standard deviation that is the band's half-width for `trials`
    /// trials (1, or `1 / sqrt(trials)`).
    pub fn scale(self, trials: usize) -> f64 {
        match self {
            Self::StandardDeviation => 1.0,
            Self::StandardError => 1.0 / (trials.max(1) as f64).sqrt(),
        }
    }

    /// Its name in words (`sd`, `standard error`).
    pub fn name(self) -> &'static str {
        match self {
            Self::StandardDeviation => "sd",
            Self::StandardError => "standard error",
        }
    }
}

/// One panel of a paper's figures.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Figure {
    /// The id used in file names and `--only` (`fig2a`).
    pub id: &'static str,
    /// The paper's caption of the panel.
    pub caption: &'static str,
    /// The labels of its curves (usually the algorithms' names in the paper), in drawing order.
    pub curves: Vec<String>,
    /// What the curves show ([`Metric::CumulativeRegret`] unless [`Figure::with_metric`]).
    pub metric: Metric,
    /// The band around each mean ([`Band::StandardDeviation`] unless [`Figure::with_band`]).
    pub band: Band,
    /// The number of the first recorded round on the figure's axis (1 unless
    /// [`Figure::with_first_round`]; e.g. `-9` when 10 initial queries are drawn as rounds
    /// `-9..=0` before round 1).
    pub first_round: i64,
    /// Whether trial `i` draws its own problem ([`Problem::Fixed`] unless
    /// [`Figure::with_problem`]).
    pub problem: Problem,
    /// Trials averaged into one draw of the claims' paired tests (1 unless
    /// [`Figure::with_trials_per_draw`]).
    pub trials_per_draw: usize,
    /// The paper's claims about the figure ([`claim`]).
    pub claims: Vec<Claim>,
    /// Curves that isolate a cause, each beside the claims it explains.
    pub ablations: Vec<Ablation>,
}

impl Figure {
    /// A panel with these curve labels (cumulative regret, sd bands, rounds from 1).
    pub fn new<S: Into<String>>(
        id: &'static str,
        caption: &'static str,
        curves: impl IntoIterator<Item = S>,
    ) -> Self {
        Self {
            id,
            caption,
            curves: curves.into_iter().map(Into::into).collect(),
            metric: Metric::default(),
            band: Band::default(),
            first_round: 1,
            problem: Problem::default(),
            trials_per_draw: 1,
            claims: Vec::new(),
            ablations: Vec::new(),
        }
    }

    /// The same panel drawing `metric`.
    #[must_use]
    pub fn with_metric(mut self, metric: Metric) -> Self {
        self.metric = metric;
        self
    }

    /// The same panel with `band` around each mean.
    #[must_use]
    pub fn with_band(mut self, band: Band) -> Self {
        self.band = band;
        self
    }

    /// The same panel numbering its first recorded round `first_round`.
    #[must_use]
    pub fn with_first_round(mut self, first_round: i64) -> Self {
        self.first_round = first_round;
        self
    }

    /// The same panel whose problem is `problem` (drawn per trial, or fixed).
    #[must_use]
    pub fn with_problem(mut self, problem: Problem) -> Self {
        self.problem = problem;
        self
    }

    /// The same panel averaging `k >= 1` consecutive trials into one draw (a value of 0 is
    /// read as 1).
    #[must_use]
    pub fn with_trials_per_draw(mut self, k: usize) -> Self {
        self.trials_per_draw = k.max(1);
        self
    }

    /// The same panel with one more claim.
    #[must_use]
    pub fn with_claim(mut self, claim: Claim) -> Self {
        self.claims.push(claim);
        self
    }

    /// The same panel with one more ablation: curve `label` is `base` with `changes`, and
    /// explains the claims `explains`.
    #[must_use]
    pub fn with_ablation<S: Into<String>>(
        mut self,
        label: impl Into<String>,
        base: impl Into<String>,
        changes: impl Into<String>,
        explains: impl IntoIterator<Item = S>,
    ) -> Self {
        self.ablations.push(Ablation {
            label: label.into(),
            base: base.into(),
            changes: changes.into(),
            explains: explains.into_iter().map(Into::into).collect(),
        });
        self
    }
}

/// A figure's own budget: the trials per curve and rounds per trial the paper uses for it,
/// when its figures differ (e.g. Dubey 2021: `T = 1024`, 20 trials for Figures 1-2 but
/// `T = 10 000`, 10 trials for Table 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Trials per curve (>= 1).
    pub trials: usize,
    /// Rounds per trial (>= 1).
    pub horizon: usize,
}

/// The parameters every curve of a reproduction uses: a sentence that says where they come
/// from (for the summary) and their JSON (written next to the results).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parameters {
    /// Where the parameters come from, e.g. "the presets `theory` and `practical` (`docs/ldp-bo.md`)".
    pub description: &'static str,
    /// The parameters as pretty-printed JSON, fields in declaration order.
    pub json: String,
}

impl Parameters {
    /// The parameters `value`, serialised as pretty-printed JSON.
    ///
    /// # Errors
    /// [`ExperimentError::Serialise`] when `value` cannot be serialised.
    pub fn json<T: Serialize + ?Sized>(
        description: &'static str,
        value: &T,
    ) -> Result<Self, ExperimentError> {
        let json = serde_json::to_string_pretty(value)
            .map_err(|e| ExperimentError::Serialise(e.to_string()))?;
        Ok(Self { description, json })
    }
}

/// Named numbers a run reports beside its batch (e.g. a clipped fraction per trial).
pub type Diagnostics = Vec<(String, f64)>;

/// What a run produces: its batch, the named numbers beside it, and a table of per-trial
/// diagnostics when the run records one.
#[derive(Debug, Clone, PartialEq)]
pub struct RunOutput {
    /// The batch of seeded trials.
    pub batch: BatchResult,
    /// Named numbers ([`Run::with_diagnostics`]; empty otherwise).
    pub diagnostics: Diagnostics,
    /// Per-trial diagnostics ([`Run::with_table`]; `None` otherwise).
    pub table: Option<RunTable>,
}

/// A boxed batch producer.
type Produce = Box<dyn FnOnce() -> Result<RunOutput, BoxedError>>;

/// One curve of a figure: its label and how to produce its batch of seeded trials.
pub struct Run {
    /// The curve's label (one of [`Figure::curves`]).
    pub label: String,
    produce: Produce,
}

impl Run {
    /// A curve drawn from the batch that `produce` returns.
    pub fn new<E>(
        label: impl Into<String>,
        produce: impl FnOnce() -> Result<BatchResult, E> + 'static,
    ) -> Self
    where
        E: Into<BoxedError>,
    {
        Self::producing(label, move || {
            produce().map(|batch| RunOutput {
                batch,
                diagnostics: Diagnostics::new(),
                table: None,
            })
        })
    }

    /// A curve drawn from the batch that `produce` returns, with named numbers beside it
    /// ([`CurveResult::diagnostics`]; not plotted).
    pub fn with_diagnostics<E>(
        label: impl Into<String>,
        produce: impl FnOnce() -> Result<(BatchResult, Diagnostics), E> + 'static,
    ) -> Self
    where
        E: Into<BoxedError>,
    {
        Self::producing(label, move || {
            produce().map(|(batch, diagnostics)| RunOutput {
                batch,
                diagnostics,
                table: None,
            })
        })
    }

    /// A curve drawn from the batch that `produce` returns, with a table of per-trial
    /// diagnostics beside it ([`CurveResult::table`]; written as CSV, not plotted).
    pub fn with_table<E>(
        label: impl Into<String>,
        produce: impl FnOnce() -> Result<(BatchResult, RunTable), E> + 'static,
    ) -> Self
    where
        E: Into<BoxedError>,
    {
        Self::producing(label, move || {
            produce().map(|(batch, table)| RunOutput {
                batch,
                diagnostics: Diagnostics::new(),
                table: Some(table),
            })
        })
    }

    /// A curve from a producer of its whole [`RunOutput`].
    fn producing<E>(
        label: impl Into<String>,
        produce: impl FnOnce() -> Result<RunOutput, E> + 'static,
    ) -> Self
    where
        E: Into<BoxedError>,
    {
        Self {
            label: label.into(),
            produce: Box::new(move || produce().map_err(Into::into)),
        }
    }

    /// Produce the batch.
    ///
    /// # Errors
    /// The producer's error, boxed.
    pub fn execute(self) -> Result<BatchResult, BoxedError> {
        (self.produce)().map(|o| o.batch)
    }

    /// Produce the batch and the diagnostics.
    ///
    /// # Errors
    /// The producer's error, boxed.
    pub fn execute_with_diagnostics(self) -> Result<(BatchResult, Diagnostics), BoxedError> {
        (self.produce)().map(|o| (o.batch, o.diagnostics))
    }

    /// Produce everything the run reports.
    ///
    /// # Errors
    /// The producer's error, boxed.
    pub fn execute_all(self) -> Result<RunOutput, BoxedError> {
        (self.produce)()
    }

    /// Produce the curve's records as a curve of `figure` under `options` (the figure's
    /// options, [`PaperExperiments::figure_options`]), timed, and check them: the batch has
    /// the options' horizon and exactly the trials [`RunConfig::trial_indices`] selects, in
    /// order (all of them, or the block of the options' shard).
    ///
    /// # Errors
    /// [`ExperimentError::Run`] when the batch fails, [`ExperimentError::InvalidBatch`] when
    /// its horizon or its trials are not the options'.
    pub fn records(
        self,
        figure: &Figure,
        options: &Options,
    ) -> Result<CurveRecords, ExperimentError> {
        let label = self.label.clone();
        let started = Instant::now();
        let RunOutput {
            batch,
            diagnostics,
            table,
        } = self.execute_all().map_err(|source| ExperimentError::Run {
            figure: figure.id.to_string(),
            label: label.clone(),
            source,
        })?;
        let seconds = started.elapsed().as_secs_f64();
        let invalid = |reason| ExperimentError::InvalidBatch {
            label: label.clone(),
            trials: batch.trials.len(),
            horizon: batch.config.horizon,
            reason,
        };
        if batch.config.horizon != options.horizon() {
            return Err(invalid("its horizon is not the options' horizon"));
        }
        if !batch
            .trials
            .iter()
            .map(|t| t.trial)
            .eq(options.run_config().trial_indices())
        {
            return Err(invalid(
                "its trials are not the options' trials in order (RunConfig::trial_indices)",
            ));
        }
        Ok(CurveRecords {
            label,
            batch,
            seconds,
            diagnostics,
            table,
        })
    }
}

/// What a curve's run produced, before any summary: what one shard of a reproduction keeps of
/// a curve, and what the shards' records of it, put together, become again.
#[derive(Debug, Clone, PartialEq)]
pub struct CurveRecords {
    /// The curve's label.
    pub label: String,
    /// Every trial's record (of the options' shard, when there is one).
    pub batch: BatchResult,
    /// Wall-clock seconds the batch took.
    pub seconds: f64,
    /// What the run reported beside its batch ([`Run::with_diagnostics`]; empty otherwise).
    pub diagnostics: Diagnostics,
    /// Its per-trial diagnostics table ([`Run::with_table`]; `None` otherwise).
    pub table: Option<RunTable>,
}

impl std::fmt::Debug for Run {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Run")
            .field("label", &self.label)
            .finish_non_exhaustive()
    }
}

/// Mean, sample standard deviation (denominator `n - 1`; 0 for one trial), min and max over
/// trials of the cumulative regret `R_t` (or another [`Metric`], [`RegretSummary::of_metric`])
/// at each round `t = 1..T` (index `t - 1`).
#[derive(Debug, Clone, PartialEq)]
pub struct RegretSummary {
    /// Mean over trials.
    pub mean: Vec<f64>,
    /// Sample standard deviation over trials (the band of the figures is mean +- std).
    pub std: Vec<f64>,
    /// Smallest over trials.
    pub min: Vec<f64>,
    /// Largest over trials.
    pub max: Vec<f64>,
}

impl RegretSummary {
    /// The summary of the curve `label` drawn by `batch`.
    ///
    /// # Errors
    /// [`ExperimentError::InvalidBatch`] when the batch has no trial, no round, or a trial
    /// whose cumulative regret does not have `batch.config.horizon` rounds.
    pub fn of(label: &str, batch: &BatchResult) -> Result<Self, ExperimentError> {
        Self::of_metric(label, batch, Metric::CumulativeRegret)
    }

    /// The summary of `metric` of the curve `label` drawn by `batch`.
    ///
    /// # Errors
    /// As [`RegretSummary::of`], for the metric's values.
    pub fn of_metric(
        label: &str,
        batch: &BatchResult,
        metric: Metric,
    ) -> Result<Self, ExperimentError> {
        let horizon = batch.config.horizon;
        let invalid = |reason| ExperimentError::InvalidBatch {
            label: label.to_string(),
            trials: batch.trials.len(),
            horizon,
            reason,
        };
        if batch.trials.is_empty() {
            return Err(invalid("no trial"));
        }
        if horizon == 0 {
            return Err(invalid("no round"));
        }
        if batch
            .trials
            .iter()
            .any(|tr| metric.values(tr).len() != horizon)
        {
            return Err(invalid("a trial's length is not the horizon"));
        }
        let n = batch.trials.len() as f64;
        let mut s = Self {
            mean: vec![0.0; horizon],
            std: vec![0.0; horizon],
            min: vec![f64::INFINITY; horizon],
            max: vec![f64::NEG_INFINITY; horizon],
        };
        let mut vals = Vec::with_capacity(batch.trials.len());
        for t in 0..horizon {
            vals.clear();
            vals.extend(batch.trials.iter().map(|tr| metric.values(tr)[t]));
            let m = vals.iter().sum::<f64>() / n;
            let var = if vals.len() > 1 {
                vals.iter().map(|v| (v - m) * (v - m)).sum::<f64>() / (n - 1.0)
            } else {
                0.0
            };
            s.mean[t] = m;
            s.std[t] = var.sqrt();
            s.min[t] = vals.iter().copied().fold(f64::INFINITY, f64::min);
            s.max[t] = vals.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        }
        Ok(s)
    }

    /// `(mean, std, min, max)` after the last round (`R_T` for the cumulative regret).
    pub fn last(&self) -> (f64, f64, f64, f64) {
        let t = self.mean.len() - 1;
        (self.mean[t], self.std[t], self.min[t], self.max[t])
    }
}

/// A finished curve.
#[derive(Debug, Clone, PartialEq)]
pub struct CurveResult {
    /// Its label.
    pub label: String,
    /// Every trial's record.
    pub batch: BatchResult,
    /// Its summary over trials.
    pub summary: RegretSummary,
    /// Wall-clock seconds the batch took (in this process, all rayon threads).
    pub seconds: f64,
    /// What the run reported beside its batch ([`Run::with_diagnostics`]; empty otherwise).
    pub diagnostics: Diagnostics,
    /// Its per-trial diagnostics table ([`Run::with_table`]; `None` otherwise).
    pub table: Option<RunTable>,
}

impl CurveResult {
    /// The finished curve of `records`, summarised over its trials by `metric`.
    ///
    /// # Errors
    /// [`ExperimentError::InvalidBatch`] when the batch cannot be summarised
    /// ([`RegretSummary::of_metric`]).
    pub fn of(records: CurveRecords, metric: Metric) -> Result<Self, ExperimentError> {
        let summary = RegretSummary::of_metric(&records.label, &records.batch, metric)?;
        let CurveRecords {
            label,
            batch,
            seconds,
            diagnostics,
            table,
        } = records;
        Ok(Self {
            label,
            batch,
            summary,
            seconds,
            diagnostics,
            table,
        })
    }
}

/// A finished figure: its description and its curves, in drawing order.
#[derive(Debug, Clone, PartialEq)]
pub struct FigureResult {
    /// The figure.
    pub figure: Figure,
    /// Its curves.
    pub curves: Vec<CurveResult>,
}

/// What [`PaperExperiments::run_figure`] reports while it runs.
#[derive(Debug, Clone, Copy)]
pub enum Progress<'a> {
    /// A curve's batch is about to run.
    Started {
        /// The figure.
        figure: &'a Figure,
        /// The curve.
        label: &'a str,
    },
    /// A curve's batch has finished.
    Finished {
        /// The figure.
        figure: &'a Figure,
        /// The curve.
        curve: &'a CurveResult,
    },
}

/// The whole-process timings of `cargo xtask bench PAPER`: these figures' curves, timed one by
/// one with these options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimingWorkload {
    /// What is timed, in a few words ("synthetic SE problem").
    pub description: &'static str,
    /// The figure ids whose curves are timed (in the paper's order of [`PaperExperiments::figures`]).
    pub figures: &'static [&'static str],
    /// Trials per curve.
    pub trials: usize,
    /// Rounds per trial.
    pub horizon: usize,
    /// Base seed.
    pub base_seed: u64,
}

/// The figures whose ids `only` names, in their order (all when `only` is empty): the `--only`
/// selection of [`PaperExperiments::select_figures`], for papers that override it.
///
/// # Errors
/// [`ExperimentError::UnknownFigure`] for an id in `only` that no figure has.
pub fn select_only(
    paper: &'static str,
    figures: Vec<Figure>,
    only: &[String],
) -> Result<Vec<Figure>, ExperimentError> {
    if let Some(id) = only
        .iter()
        .find(|id| !figures.iter().any(|f| f.id == id.as_str()))
    {
        return Err(ExperimentError::UnknownFigure {
            paper,
            id: id.clone(),
            known: figures.iter().map(|f| f.id).collect::<Vec<_>>().join(","),
        });
    }
    Ok(figures
        .into_iter()
        .filter(|f| only.is_empty() || only.iter().any(|o| o == f.id))
        .collect())
}

/// A paper's reproduction: its figures and how to draw each of their curves.
///
/// Implement the five required methods in the paper crate's `experiments` module; the
/// provided [`select_figures`](Self::select_figures) and [`run_figure`](Self::run_figure)
/// are what a binary calls.
pub trait PaperExperiments: Sync {
    /// The paper's crate name, used on the command line and for the output folder (`ldp-bo`).
    fn name(&self) -> &'static str;

    /// The title of the reproduction's summary ("Zhou & Tan 2021: reproduced Figures 2 and 3").
    fn title(&self) -> &'static str;

    /// Every figure panel, in the paper's order.
    fn figures(&self) -> Vec<Figure>;

    /// The parameters every curve uses under `options`.
    ///
    /// # Errors
    /// [`ExperimentError::Serialise`] when they cannot be serialised.
    fn parameters(&self, options: &Options) -> Result<Parameters, ExperimentError>;

    /// The runs of `figure` (one per curve, in the order of [`Figure::curves`]) under
    /// `options`; loading what they need (a data set) happens here, outside the timed runs.
    ///
    /// # Errors
    /// [`ExperimentError::UnknownFigure`] for a figure the paper does not have,
    /// [`ExperimentError::Setup`] when what the runs need cannot be prepared.
    fn runs(&self, figure: &Figure, options: &Options) -> Result<Vec<Run>, ExperimentError>;

    /// The workload of the whole-process timings.
    fn timings(&self) -> TimingWorkload;

    /// The named variants every curve comes in (e.g. ldp-bo's parameter presets `theory` and
    /// `practical`); a curve of variant `v` has a label ending in `-v`. Empty (the default):
    /// the paper has none.
    fn variants(&self) -> &'static [&'static str] {
        &[]
    }

    /// The noise samplers its private curves can run with, by name (the first is the default;
    /// [`Options::sampler`] picks one). Empty (the default): the reproduction always runs the
    /// privacy crate's default (hardened) sampler and refuses a choice.
    fn samplers(&self) -> &'static [&'static str] {
        &[]
    }

    /// [`Options::sampler`] checked against [`Self::samplers`].
    ///
    /// # Errors
    /// [`ExperimentError::UnknownSampler`] for a name the paper does not take.
    fn check_sampler(&self, options: &Options) -> Result<(), ExperimentError> {
        match options.sampler() {
            Some(s) if !self.samplers().contains(&s) => Err(ExperimentError::UnknownSampler {
                paper: self.name(),
                sampler: s.to_string(),
                known: if self.samplers().is_empty() {
                    "none (this reproduction offers no choice of noise sampler)".into()
                } else {
                    self.samplers().join(",")
                },
            }),
            _ => Ok(()),
        }
    }

    /// `figure`'s own budget, when the paper gives its figures different ones; `None` (the
    /// default): the options' trials and horizon. [`run_figure`](Self::run_figure) uses the
    /// options [`figure_options`](Self::figure_options) makes of it.
    fn budget(&self, figure: &Figure) -> Option<Budget> {
        let _ = figure;
        None
    }

    /// A Markdown section of the paper's own for the summary, written after every figure's
    /// rows (e.g. a table of final regrets beside the paper's numbers); `None` (the default):
    /// none. `results` are the figures that ran, in order.
    fn summary_section(&self, results: &[FigureResult]) -> Option<String> {
        let _ = results;
        None
    }

    /// The options `figure` runs with: `options` with the figure's [`budget`](Self::budget)
    /// where `options` does not override it ([`Options::with_overrides`]).
    fn figure_options(&self, figure: &Figure, options: &Options) -> Options {
        options.with_budget(self.budget(figure))
    }

    /// The figures [`Options::only`] selects, in the paper's order (all when it is empty),
    /// each keeping only the curves of [`Options::variant`] when one is selected.
    ///
    /// # Errors
    /// [`ExperimentError::UnknownFigure`] for a selected id the paper does not have,
    /// [`ExperimentError::UnknownVariant`] for a variant that is not one of
    /// [`variants`](Self::variants).
    fn select_figures(&self, options: &Options) -> Result<Vec<Figure>, ExperimentError> {
        self.check_sampler(options)?;
        let mut figures = self.figures();
        if let Some(v) = options.variant() {
            if !self.variants().contains(&v) {
                return Err(ExperimentError::UnknownVariant {
                    paper: self.name(),
                    variant: v.to_string(),
                    known: self.variants().join(","),
                });
            }
            let suffix = format!("-{v}");
            for f in &mut figures {
                f.curves.retain(|c| c.ends_with(&suffix));
            }
        }
        select_only(self.name(), figures, options.only())
    }

    /// The runs of `figure` under `options` (the figure's options,
    /// [`figure_options`](Self::figure_options)), checked to draw [`Figure::curves`] in order:
    /// what [`run_figure`](Self::run_figure) runs, and what a shard of a reproduction runs
    /// without summarising ([`Run::records`]).
    ///
    /// # Errors
    /// What [`runs`](Self::runs) returns; [`ExperimentError::CurveMismatch`] when the runs do
    /// not draw [`Figure::curves`].
    fn figure_runs(&self, figure: &Figure, options: &Options) -> Result<Vec<Run>, ExperimentError> {
        let runs = self.runs(figure, options)?;
        let labels: Vec<String> = runs.iter().map(|r| r.label.clone()).collect();
        if labels != figure.curves {
            return Err(ExperimentError::CurveMismatch {
                figure: figure.id.to_string(),
                expected: figure.curves.clone(),
                got: labels,
            });
        }
        Ok(runs)
    }

    /// Run `figure`'s curves one after the other (each batch in parallel over trials), timing
    /// and summarising each, and report each start and finish to `progress`. The runs get the
    /// figure's options ([`figure_options`](Self::figure_options)).
    ///
    /// # Errors
    /// What [`figure_runs`](Self::figure_runs) returns; [`ExperimentError::Run`] when a batch
    /// fails; [`ExperimentError::InvalidBatch`] when a batch's horizon or trials are not the
    /// figure options' ([`Run::records`]) or it cannot be summarised.
    fn run_figure(
        &self,
        figure: &Figure,
        options: &Options,
        progress: &mut dyn FnMut(Progress<'_>),
    ) -> Result<FigureResult, ExperimentError> {
        let options = &self.figure_options(figure, options);
        let runs = self.figure_runs(figure, options)?;
        let mut curves = Vec::with_capacity(runs.len());
        for run in runs {
            progress(Progress::Started {
                figure,
                label: &run.label,
            });
            let records = run.records(figure, options)?;
            curves.push(CurveResult::of(records, figure.metric)?);
            progress(Progress::Finished {
                figure,
                curve: curves.last().expect("just pushed"),
            });
        }
        Ok(FigureResult {
            figure: figure.clone(),
            curves,
        })
    }
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // the summaries of these hand-made batches are exact
mod tests {
    use super::*;
    use crate::runner::TrialRecord;

    fn record(trial: usize, cumulative: &[f64]) -> TrialRecord {
        let n = cumulative.len();
        TrialRecord {
            trial,
            actions: vec![0; n],
            rewards: vec![0.0; n],
            mean_rewards: vec![0.0; n],
            instantaneous_regret: vec![0.0; n],
            cumulative_regret: cumulative.to_vec(),
            simple_regret: vec![0.0; n],
        }
    }

    fn batch(trials: Vec<TrialRecord>, horizon: usize) -> BatchResult {
        BatchResult {
            config: RunConfig {
                horizon,
                n_trials: trials.len(),
                base_seed: 0,
                shard: None,
            },
            trials,
        }
    }

    #[test]
    fn summary_by_hand() {
        // Round 1: {1, 2, 6}: mean 3, var ((4 + 1 + 9) / 2) = 7. Round 2: {2, 2, 2}.
        let b = batch(
            vec![
                record(0, &[1.0, 2.0]),
                record(1, &[2.0, 2.0]),
                record(2, &[6.0, 2.0]),
            ],
            2,
        );
        let s = RegretSummary::of("a", &b).unwrap();
        assert_eq!(s.mean, [3.0, 2.0]);
        approx::assert_abs_diff_eq!(s.std[0], 7.0f64.sqrt(), epsilon = 1e-15);
        assert_eq!(s.std[1], 0.0);
        assert_eq!(s.min, [1.0, 2.0]);
        assert_eq!(s.max, [6.0, 2.0]);
        assert_eq!(s.last(), (2.0, 0.0, 2.0, 2.0));
    }

    #[test]
    fn a_simple_regret_summary_reads_the_simple_regret() {
        let mut a = record(0, &[1.0, 2.0]);
        a.simple_regret = vec![0.5, 0.25];
        let mut b = record(1, &[3.0, 4.0]);
        b.simple_regret = vec![0.5, 0.75];
        let s = RegretSummary::of_metric("a", &batch(vec![a, b], 2), Metric::SimpleRegret).unwrap();
        assert_eq!(s.mean, [0.5, 0.5]);
        assert_eq!(s.min, [0.5, 0.25]);
        let f = Figure::new("f", "c", ["A"])
            .with_metric(Metric::SimpleRegret)
            .with_band(Band::StandardError)
            .with_first_round(-9);
        assert_eq!(
            (f.metric.symbol(), f.band.name(), f.first_round),
            ("S_T", "standard error", -9)
        );
        assert_eq!(
            Figure::new("f", "c", ["A"]).metric,
            Metric::CumulativeRegret
        );
        assert_eq!(Band::StandardError.scale(4), 0.5);
        assert_eq!(Band::StandardDeviation.scale(4), 1.0);
    }

    #[test]
    fn one_trial_has_zero_spread() {
        let s = RegretSummary::of("a", &batch(vec![record(0, &[0.5, 1.5])], 2)).unwrap();
        assert_eq!(s.std, [0.0, 0.0]);
        assert_eq!(s.min, s.max);
    }

    #[test]
    fn bad_batches_are_errors() {
        assert!(matches!(
            RegretSummary::of("a", &batch(Vec::new(), 3)),
            Err(ExperimentError::InvalidBatch { trials: 0, .. })
        ));
        assert!(matches!(
            RegretSummary::of("a", &batch(vec![record(0, &[])], 0)),
            Err(ExperimentError::InvalidBatch { horizon: 0, .. })
        ));
        assert!(matches!(
            RegretSummary::of("a", &batch(vec![record(0, &[1.0])], 3)),
            Err(ExperimentError::InvalidBatch { horizon: 3, .. })
        ));
    }

    #[test]
    fn options_are_validated() {
        assert!(matches!(
            Options::new(0, 10, 1, "d"),
            Err(ExperimentError::ZeroCount { what: "trials" })
        ));
        assert!(matches!(
            Options::new(1, 0, 1, "d"),
            Err(ExperimentError::ZeroCount { what: "horizon" })
        ));
        let o = Options::new(2, 10, 7, "d").unwrap().with_only(["fig1"]);
        assert_eq!(
            o.run_config(),
            RunConfig {
                horizon: 10,
                n_trials: 2,
                base_seed: 7,
                shard: None,
            }
        );
        assert_eq!(o.only(), ["fig1"]);
        assert_eq!(o.data_dir(), Path::new("d"));
    }

    /// A paper whose runs are configurable, to test the provided methods.
    struct Fake {
        labels: Vec<&'static str>,
        fail: bool,
    }

    impl PaperExperiments for Fake {
        fn name(&self) -> &'static str {
            "fake"
        }
        fn title(&self) -> &'static str {
            "fake"
        }
        fn figures(&self) -> Vec<Figure> {
            vec![
                Figure::new("f1", "one", ["A", "B"]),
                Figure::new("f2", "two", ["A", "B"]),
            ]
        }
        fn parameters(&self, _: &Options) -> Result<Parameters, ExperimentError> {
            Parameters::json("none", &[1u8, 2])
        }
        fn runs(&self, _: &Figure, options: &Options) -> Result<Vec<Run>, ExperimentError> {
            let horizon = options.horizon();
            let fail = self.fail;
            Ok(self
                .labels
                .iter()
                .enumerate()
                .map(|(i, &l)| {
                    Run::new(l, move || {
                        if fail {
                            return Err(ExperimentError::ZeroCount { what: "nothing" });
                        }
                        let c: Vec<f64> = (1..=horizon).map(|t| (i * t) as f64).collect();
                        Ok(batch(vec![record(0, &c)], horizon))
                    })
                })
                .collect())
        }
        fn timings(&self) -> TimingWorkload {
            TimingWorkload {
                description: "fake",
                figures: &["f1"],
                trials: 1,
                horizon: 2,
                base_seed: 0,
            }
        }
    }

    #[test]
    fn select_figures_keeps_the_paper_order_and_rejects_unknown_ids() {
        let p = Fake {
            labels: vec!["A", "B"],
            fail: false,
        };
        let o = Options::new(1, 3, 0, "d").unwrap();
        let ids = |o: &Options| -> Vec<&str> {
            p.select_figures(o).unwrap().iter().map(|f| f.id).collect()
        };
        assert_eq!(ids(&o), ["f1", "f2"]);
        assert_eq!(ids(&o.clone().with_only(["f2", "f1"])), ["f1", "f2"]);
        let err = p
            .select_figures(&o.with_only(["f1", "f9"]))
            .unwrap_err()
            .to_string();
        assert_eq!(err, "fake has no figure \"f9\"; its figures: f1,f2");
        assert_eq!(
            p.parameters(&Options::new(1, 1, 0, "d").unwrap())
                .unwrap()
                .json,
            "[\n  1,\n  2\n]"
        );
    }

    #[test]
    fn run_figure_reports_each_curve_in_order() {
        let p = Fake {
            labels: vec!["A", "B"],
            fail: false,
        };
        let o = Options::new(1, 3, 0, "d").unwrap();
        let f = &p.figures()[0];
        let mut events = Vec::new();
        let r = p
            .run_figure(f, &o, &mut |e| match e {
                Progress::Started { label, .. } => events.push(format!("start {label}")),
                Progress::Finished { curve, .. } => events.push(format!("end {}", curve.label)),
            })
            .unwrap();
        assert_eq!(events, ["start A", "end A", "start B", "end B"]);
        assert_eq!(r.curves[1].summary.mean, [1.0, 2.0, 3.0]);
        assert_eq!(r.figure, *f);
    }

    #[test]
    fn run_figure_errors_name_the_figure_and_curve() {
        let o = Options::new(1, 3, 0, "d").unwrap();
        let wrong = Fake {
            labels: vec!["B", "A"],
            fail: false,
        };
        let f = &wrong.figures()[0];
        assert!(matches!(
            wrong.run_figure(f, &o, &mut |_| {}),
            Err(ExperimentError::CurveMismatch { .. })
        ));
        let failing = Fake {
            labels: vec!["A", "B"],
            fail: true,
        };
        let err = failing.run_figure(f, &o, &mut |_| {}).unwrap_err();
        assert_eq!(err.to_string(), "figure f1, curve A: nothing must be >= 1");
    }

    #[test]
    fn a_run_that_ignores_the_shard_is_rejected() {
        // Fake's runs always record trial 0 alone: right for one trial, wrong for shard 1/2 of
        // two trials (block 1..2).
        let p = Fake {
            labels: vec!["A", "B"],
            fail: false,
        };
        let f = &p.figures()[0];
        let one = Options::new(1, 3, 0, "d").unwrap();
        let runs = p.figure_runs(f, &one).unwrap();
        let r = runs.into_iter().next().unwrap().records(f, &one).unwrap();
        assert_eq!((r.label.as_str(), r.batch.trials.len()), ("A", 1));
        let shard = Options::new(2, 3, 0, "d")
            .unwrap()
            .with_shard(Some(Shard::new(1, 2).unwrap()));
        assert_eq!(shard.run_config().trial_indices(), 1..2);
        assert!(matches!(
            p.run_figure(f, &shard, &mut |_| {}),
            Err(ExperimentError::InvalidBatch { .. })
        ));
    }

    /// [`Fake`] whose figure `f2` has its own budget (1 trial, 5 rounds) and a summary section.
    struct Budgeted(Fake);

    impl PaperExperiments for Budgeted {
        fn name(&self) -> &'static str {
            self.0.name()
        }
        fn title(&self) -> &'static str {
            self.0.title()
        }
        fn figures(&self) -> Vec<Figure> {
            self.0.figures()
        }
        fn parameters(&self, o: &Options) -> Result<Parameters, ExperimentError> {
            self.0.parameters(o)
        }
        fn runs(&self, f: &Figure, o: &Options) -> Result<Vec<Run>, ExperimentError> {
            self.0.runs(f, o)
        }
        fn timings(&self) -> TimingWorkload {
            self.0.timings()
        }
        fn budget(&self, figure: &Figure) -> Option<Budget> {
            (figure.id == "f2").then_some(Budget {
                trials: 1,
                horizon: 5,
            })
        }
        fn summary_section(&self, results: &[FigureResult]) -> Option<String> {
            Some(format!("{} figure(s)", results.len()))
        }
    }

    #[test]
    fn a_figure_budget_applies_unless_the_options_override_it() {
        let p = Budgeted(Fake {
            labels: vec!["A", "B"],
            fail: false,
        });
        let [f1, f2] = <[Figure; 2]>::try_from(p.figures()).unwrap();
        let explicit = Options::new(3, 4, 0, "d").unwrap();
        // Options::new overrides every budget: what ldp-bo and the timings use.
        assert_eq!(p.figure_options(&f2, &explicit), explicit);
        let fallback = explicit.clone().with_overrides(false, false);
        assert_eq!(p.figure_options(&f1, &fallback), fallback);
        let o2 = p.figure_options(&f2, &fallback);
        assert_eq!((o2.trials(), o2.horizon()), (1, 5));
        let horizon_only = explicit.clone().with_overrides(false, true);
        let o2 = p.figure_options(&f2, &horizon_only);
        assert_eq!((o2.trials(), o2.horizon()), (1, 4));
        let r = p.run_figure(&f2, &fallback, &mut |_| {}).unwrap();
        assert_eq!(r.curves[1].summary.mean, [1.0, 2.0, 3.0, 4.0, 5.0]);
        assert_eq!(r.curves[1].batch.config.horizon, 5);
        assert_eq!(p.summary_section(&[r]).as_deref(), Some("1 figure(s)"));
        assert_eq!(p.0.summary_section(&[]), None);
        assert_eq!(p.0.budget(&f2), None);
    }
}
