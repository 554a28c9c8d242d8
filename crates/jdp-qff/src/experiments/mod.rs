//! The experiments of Section 6 (Dubey 2021): Figures 1 and 2 (Section 6.1), Table 1
//! (Section 6.2) and the local-JDP variant of Remark 7, as seeded batch runs of the three
//! algorithms of this crate.
//!
//! | id | what | problem | budget |
//! |---|---|---|---|
//! | `fig1` | JDP, `beta = 0.1`, `alpha in {10, 1, 0.5, 0.1}` + non-private | Dubey synthetic | 20 x 1024 |
//! | `fig2` | JDP, `alpha = 1`, `beta in {0.99, 0.5, 0.1, 0.01}` + non-private | Dubey synthetic | 20 x 1024 |
//! | `remark7` | local JDP `alpha in {10, 1}`, JDP `alpha = 1`, non-private (`beta = 0.1`) | Dubey synthetic | 20 x 1024 |
//! | `table1-camelback` | uniform play (reference), non-private, JDP `alpha in {10, 1, 0.1}` (`beta = 0.1`); the tightened profile at `alpha = 1`; the ablations `alpha-1-noise-free` and `alpha-1-width-x0.01` | Camelback, d = 2 | 10 x 10 000 |
//! | `table1-styblinski-tang-20` | the same | Styblinski-Tang, d = 20 | 10 x 10 000 |
//! | `table1-michalewicz-10` | the same, the ablations at `alpha = 10` | Michalewicz, d = 10 | 10 x 10 000 |
//!
//! `--preset PROFILE` ([`crate::Profile`]: `paper-as-printed`, `provably-private` (the
//! default), `tightened`, `tuned`, `tuned:SCALE`) runs every private curve under that profile;
//! uniform play, the non-private curve and `alpha-1-tightened` are the same under every one.
//! The ablations are never private: `-noise-free` feeds the JDP server Algorithm 2's releases
//! without noise (same shift, same width), `-width-x0.01` multiplies Theorem 1's width by 0.01
//! (same noise and shift); each is compared, paired over the runs, with the curve it varies.
//!
//! # Section 6.1 (the Dubey synthetic)
//!
//! `d = 2`, SE kernel with lengthscale 1, a new objective per trial
//! ([`bandit::objective::DubeyObjective::sample`]), `n = 25` fresh points of the ball of radius
//! 2 per round with one good arm ([`bandit::objective::DubeyEnvironment`]), Bernoulli rewards
//! (`B_y = 1`, `rho = 1/2`), Theorem 1's width ([`WidthParams::default`](crate::width::WidthParams::default)).
//!
//! Features: Corollary 1's `m = 2 (6 ln T)^d` is `2 * 42^2 = 3528` at `T = 1024`: a Cholesky of
//! a 3528 x 3528 matrix per round (and 6.2 million noise entries per round for the tree) is
//! infeasible for 20 trials of 1024 rounds. We use [`DUBEY_MBAR`] `= 14` nodes per dimension
//! (`m = 392`), the smallest `mbar` whose measured sup error of the kernel over the ball of
//! radius 2 (differences of norm up to 4) is below `1e-3` ([`feature_error`]: `4.2e-4`; 13
//! nodes give `1.4e-3`, 6 nodes `0.58`); that measured error is the `eps` of Theorem 1's width.
//!
//! # Section 6.2 (Table 1): what the paper does not state, and what we use
//!
//! - Domain `[-0.5, 0.5]^d` (Mutny & Krause's form of the benchmarks, [`bandit::objective`]),
//!   each function mapped affinely to `[-1, 1]` over the box ([`Normalised`](bandit::objective::Normalised): its known maximum
//!   to 1, a lower bound of its minimum to -1), so that `B = 1` and the regret is in units of
//!   half the function's range.
//! - Decision sets: [`BENCHMARK_CANDIDATES`] fresh uniform points of the box per round, regret
//!   against the best point of `D_t` ([`BestOfSet`](bandit::env::BestOfSet)), as in the paper's definition of regret.
//! - Reward noise: Gaussian with sd [`BENCHMARK_NOISE_SD`] (`rho = 0.1`); the private runs clip
//!   rewards to `|y| <= B_y = 1.5` ([`JdpQffParams::section_6_2`]).
//! - Kernels: Camelback the full 2-d QFF of an SE kernel with lengthscale 0.4 (10 nodes per
//!   dimension, `m = 200`); Styblinski-Tang-20 and Michalewicz-10 the additive SE kernel with one
//!   group per coordinate ([`kernel::AdditiveFeatures`], lengthscale 0.5, 8 nodes: `m = 16 d`),
//!   as Mutny & Krause do for high dimensions. A full tensor-product QFF would need `2 * 8^20`
//!   features.
//! - `lambda = 1` (not `rho^2 = 0.01`): Theorem 1's approximation term `t B eps / sqrt(lambda)`
//!   would otherwise dominate the width at `T = 10 000`.
//!
//! # Sampler
//!
//! The regret runs use the hardened sampler by default, i.e. the exact discrete Gaussian on the
//! grid that the privacy claim is about (fixed-width Karney sampler, `privacy::exact_fixed`;
//! the tree adds one `(m+1)(m+2)/2`-entry node per round, 77 421 entries at `m = 392`). With
//! the arbitrary-precision sampler this cost 1.7 us per entry (2.3 minutes per trial of 1024
//! rounds), and the reproduction ran the textbook sampler instead. `cargo xtask reproduce
//! jdp-qff --sampler textbook` still runs [`privacy::Sampler::Textbook`] (floating-point
//! Gaussian at the same sigma) as the control; the calibration is the same under both.
//! `--sampler textbook-per-curve` (or `hardened-per-curve`) draws each curve's noise from a
//! stream of its own instead of the trial's shared curator stream ([`NoiseStreams`]).

mod ablations;
pub mod diagnostics;
mod noise_streams;
mod panels;
mod problems;
mod runs;
mod summary;

pub use ablations::NoiseFree;
pub use noise_streams::NoiseStreams;
pub use panels::{ABLATION_WIDTH_SCALE, PAPER_TABLE1, Panel, Setting, claims, panels};
pub use problems::{
    BENCHMARK_CANDIDATES, BENCHMARK_NOISE_SD, DUBEY_D, DUBEY_LENGTHSCALE, DUBEY_MBAR, DUBEY_N,
    Features, Problem, feature_error, problem_params, sup_error,
};
pub use runs::{run, run_with_noise_streams};

use bandit::experiment::{
    self, Budget, ExperimentError, FigureResult, Options, PaperExperiments, Parameters,
    TimingWorkload,
};

use kernel::FeatureMap;
use serde::Serialize;

use crate::error::JdpQffError;
use crate::params::JdpQffParams;
use crate::profile::Profile;
use privacy::Sampler;

/// The profile `--preset` names, `provably-private` without one.
fn profile(options: &Options) -> Result<Profile, JdpQffError> {
    options
        .variant()
        .map_or(Ok(Profile::ProvablyPrivate), str::parse)
}

/// The sampler `--sampler` names (`select_figures` has refused any other name), hardened
/// without one.
fn sampler(options: &Options) -> Sampler {
    match options.sampler() {
        Some("textbook" | "textbook-per-curve") => Sampler::Textbook,
        _ => Sampler::Hardened,
    }
}

/// The noise streams `--sampler` names: [`NoiseStreams::PerCurve`] for the `-per-curve`
/// names, [`NoiseStreams::Shared`] otherwise.
fn noise_streams(options: &Options) -> NoiseStreams {
    match options.sampler() {
        Some(s) if s.ends_with("-per-curve") => NoiseStreams::PerCurve,
        _ => NoiseStreams::Shared,
    }
}

/// The reproduction of Section 6 for `cargo xtask reproduce jdp-qff` and `cargo xtask bench
/// jdp-qff`: the [`panels`], each curve a [`run`] of [`problem_params`] in the curve's setting,
/// each panel with the paper's budget ([`PaperExperiments::budget`]), and Table 1 printed
/// beside the paper's numbers ([`PaperExperiments::summary_section`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct Dubey2021;

impl Dubey2021 {
    /// The panel with this id.
    ///
    /// # Errors
    /// [`ExperimentError::UnknownFigure`] for an id that is not one of [`panels`].
    pub fn panel(id: &str) -> Result<Panel, ExperimentError> {
        experiment::find_panel(&panels(), "jdp-qff", id).cloned()
    }
}

impl PaperExperiments for Dubey2021 {
    fn name(&self) -> &'static str {
        "jdp-qff"
    }

    fn title(&self) -> &'static str {
        "Dubey 2021: reproduced Figures 1 and 2, Table 1 and the local-JDP variant (Remark 7)"
    }

    fn figures(&self) -> Vec<experiment::Figure> {
        panels().iter().map(|p| p.figure().clone()).collect()
    }

    fn parameters(&self, options: &Options) -> Result<Parameters, ExperimentError> {
        #[derive(Serialize)]
        struct ProblemRecord {
            problem: Problem,
            features: usize,
            mbar: usize,
            lengthscale: f64,
            measured_feature_error: f64,
            params: JdpQffParams,
        }
        let records = [
            Problem::Dubey,
            Problem::Camelback,
            Problem::StyblinskiTang20,
            Problem::Michalewicz10,
        ]
        .iter()
        .map(|&problem| {
            let params = problem_params(problem, sampler(options))?;
            Ok(ProblemRecord {
                problem,
                features: problem.features()?.dim(),
                mbar: problem.mbar(),
                lengthscale: problem.lengthscale(),
                measured_feature_error: params.width.epsilon,
                params,
            })
        })
        .collect::<Result<Vec<_>, JdpQffError>>()
        .map_err(|e| ExperimentError::Setup {
            figure: "parameters".into(),
            source: Box::new(e),
        })?;
        let profile = profile(options).map_err(|e| ExperimentError::Setup {
            figure: "parameters".into(),
            source: Box::new(e),
        })?;
        #[derive(Serialize)]
        struct Record {
            profile: String,
            guarantee: String,
            noise_streams: NoiseStreams,
            problems: Vec<ProblemRecord>,
        }
        Parameters::json(
            "the profile of the private curves (--preset; the curves labelled with a profile use \
             that one) and what it guarantees; per problem: the features (QFF, additive QFF for \
             d = 10, 20), their measured sup error (the width's eps), Theorem 1's width, B_y \
             (the provably-private parameters, before the profile); the noise sampler of the \
             regret runs (`params.sampler`: hardened by default, textbook with --sampler \
             textbook or textbook-per-curve, same sigma; the -per-curve names draw each \
             curve's noise from a stream of its own: `noise_streams` per-curve, shared otherwise); \
             alpha and beta per curve",
            &Record {
                profile: profile.to_string(),
                guarantee: profile.guarantee(),
                noise_streams: noise_streams(options),
                problems: records,
            },
        )
    }

    fn runs(
        &self,
        figure: &experiment::Figure,
        options: &Options,
    ) -> Result<Vec<experiment::Run>, ExperimentError> {
        let panel = Self::panel(figure.id)?;
        let problem = *panel.problem();
        let setup = |e: JdpQffError| ExperimentError::Setup {
            figure: panel.id().to_string(),
            source: Box::new(e),
        };
        let base = problem_params(problem, sampler(options)).map_err(setup)?;
        let profiled = profile(options)
            .map_err(setup)?
            .apply(base)
            .map_err(setup)?;
        let config = options.run_config();
        let streams = noise_streams(options);
        panel.runs_with_table(figure, |&setting| {
            let params = if setting.follows_profile() {
                profiled
            } else {
                base
            };
            move || run_with_noise_streams(problem, setting, &params, &config, streams)
        })
    }

    /// Figure 1's five curves at `T = 1024` over 4 trials.
    fn timings(&self) -> TimingWorkload {
        TimingWorkload {
            description: "Figure 1 (synthetic, d = 2, m = 392)",
            figures: &["fig1"],
            trials: 4,
            horizon: 1024,
            base_seed: 2021,
        }
    }

    /// The profiles ([`Profile`]): `--preset NAME` runs every private curve under that
    /// profile (`tuned:SCALE` too); uniform play, the non-private curve and the curves that
    /// name their own profile are the same under every one.
    fn variants(&self) -> &'static [&'static str] {
        &["paper-as-printed", "provably-private", "tightened", "tuned"]
    }

    /// `hardened` (the default: exact discrete Gaussian noise, what the claim is about) or
    /// `textbook` (floating-point Gaussian at the same sigma, the control); either with
    /// `-per-curve`: each curve's noise from a stream of its own ([`NoiseStreams::PerCurve`],
    /// the control for the coupling of a figure's curves through shared noise).
    fn samplers(&self) -> &'static [&'static str] {
        &[
            "hardened",
            "textbook",
            "hardened-per-curve",
            "textbook-per-curve",
        ]
    }

    /// The figures [`Options::only`] selects; a `--preset` is a profile for every private
    /// curve (not a filter of curve labels, as for the papers whose presets are curves), so
    /// every curve is kept. An unknown profile is refused.
    fn select_figures(
        &self,
        options: &Options,
    ) -> Result<Vec<experiment::Figure>, ExperimentError> {
        self.check_sampler(options)?;
        profile(options).map_err(|_| ExperimentError::UnknownVariant {
            paper: self.name(),
            variant: options.variant().unwrap_or_default().to_string(),
            known: "paper-as-printed,provably-private,tightened,tuned,tuned:SCALE".into(),
        })?;
        experiment::select_only(self.name(), self.figures(), options.only())
    }

    fn budget(&self, figure: &experiment::Figure) -> Option<Budget> {
        Self::panel(figure.id).ok().and_then(|p| p.budget())
    }

    fn summary_section(&self, results: &[FigureResult]) -> Option<String> {
        summary::table1(results)
    }
}
