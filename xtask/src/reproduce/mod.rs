//! `cargo xtask reproduce PAPER`: run a paper's figures (its `experiments` module, through
//! [`bandit::experiment::PaperExperiments`]) and write, under `target/reproduce/PAPER/`, each
//! figure's files ([`figure::write`]), `params.json`, `summary.md` and `claims.json` (the claims tested
//! over draws, [`claims::section`]).
//!
//! With `--shard i/n` the run keeps only block `i` of `n` of every curve's trials and writes
//! their raw records to one shard file instead ([`shard`]); `reproduce merge SHARDS...` puts the
//! `n` shard files together and writes the same files as the run without `--shard` (the same
//! bytes, but for the seconds of `summary.md`: in a merge, the sums over the shards).
//!
//! `reproduce pair A B` compares two runs' output folders trial by trial ([`pair`]).

mod claims;
mod figure;
mod pair;
mod plot;
mod shard;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context as _;
use bandit::experiment::claim::ClaimResult;
use bandit::experiment::{Band, Figure, FigureResult, Metric, Options, Progress};
use bandit::runner::Shard;

use crate::data_dir::DataDirArg;
use crate::papers::Paper;

/// Options of `reproduce`: a paper's run (`reproduce PAPER ...`), or `reproduce merge`.
#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct Args {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    run: RunArgs,
}

/// What `reproduce` does besides running a paper.
#[derive(clap::Subcommand)]
enum Command {
    /// Merge the shard files of `reproduce PAPER --shard i/n` (every i of 0..n once) into the
    /// files the run without --shard writes.
    Merge(shard::MergeArgs),
    /// Compare two runs of the same figures with the same seeds (e.g. `--sampler textbook`
    /// against the default) trial by trial: per curve, the means, the paired difference and the
    /// exact sign and Wilcoxon signed-rank tests of the final regret.
    Pair(pair::PairArgs),
}

/// Options of `reproduce PAPER`.
#[derive(clap::Args)]
struct RunArgs {
    /// The paper's crate.
    #[arg(required = true)]
    paper: Option<Paper>,
    /// Independent trials per curve: overrides the paper's per-figure budget; without it, a
    /// figure with a budget of its own uses it, the others 10.
    #[arg(long)]
    trials: Option<usize>,
    /// Rounds per trial: overrides the paper's per-figure budget; without it, a figure with a
    /// budget of its own uses it, the others 1000.
    #[arg(long)]
    horizon: Option<usize>,
    /// Base seed (trial i of every run is seeded from (seed, i)).
    #[arg(long, default_value_t = 2021)]
    seed: u64,
    /// Only these figure panels (comma-separated ids, e.g. `fig2a,fig3b`).
    #[arg(long, value_delimiter = ',')]
    only: Vec<String>,
    /// ldp-bo: only the curves of this variant (`theory` for the theorems' constants,
    /// `practical` for the scaled ones; without it, every variant). jdp-qff: the profile of
    /// every private curve (`paper-as-printed`, `provably-private` (the default), `tightened`,
    /// `tuned`, `tuned:SCALE`).
    #[arg(long)]
    preset: Option<String>,
    /// The noise sampler of the private curves, where a paper offers the choice (jdp-qff,
    /// ldp-bo, dp-fts-de): `hardened` (the default: the exact discrete noise the privacy claim
    /// is about) or `textbook` (floating-point noise at the same calibration without the grid
    /// slack: the control); jdp-qff and dp-fts-de also take `textbook-per-curve` and
    /// `hardened-per-curve` (each curve's noise from a stream of its own instead of the one its
    /// figure's curves share). usca refuses the option: its curves are expected error rates,
    /// computed from the exponential mechanism's exact selection probabilities, so they draw
    /// no privacy noise.
    #[arg(long)]
    sampler: Option<String>,
    /// Run only shard i of n (0 <= i < n): of every curve's N trials, the block
    /// floor(i N / n)..floor((i + 1) N / n), seeded as in the whole run; write their records to
    /// `OUT/shard-I-of-N.json` (no figures, no summary) for `reproduce merge`.
    #[arg(long, value_name = "I/N")]
    shard: Option<Shard>,
    #[command(flatten)]
    data_dir: DataDirArg,
    /// Output folder (default `target/reproduce/PAPER`).
    #[arg(long)]
    out: Option<PathBuf>,
}

/// Trials per curve of a figure without a budget of its own, when `--trials` is not given.
const DEFAULT_TRIALS: usize = 10;
/// Rounds per trial of a figure without a budget of its own, when `--horizon` is not given.
const DEFAULT_HORIZON: usize = 1000;

/// The arguments that decide a reproduction's numbers: what a shard file records, so that
/// `reproduce merge` can check its shards agree and rebuild the run's [`Options`].
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
struct Arguments {
    /// `--trials` (`None`: each figure's budget, else [`DEFAULT_TRIALS`]).
    trials: Option<usize>,
    /// `--horizon` (`None`: each figure's budget, else [`DEFAULT_HORIZON`]).
    horizon: Option<usize>,
    /// `--seed`.
    seed: u64,
    /// `--only`.
    only: Vec<String>,
    /// `--preset`.
    preset: Option<String>,
    /// `--sampler`.
    #[serde(default)]
    sampler: Option<String>,
    /// `--data-dir`, resolved.
    data_dir: PathBuf,
}

impl Arguments {
    /// The options of every figure (before a figure's own budget), without a shard.
    fn options(&self) -> anyhow::Result<Options> {
        Ok(Options::new(
            self.trials.unwrap_or(DEFAULT_TRIALS),
            self.horizon.unwrap_or(DEFAULT_HORIZON),
            self.seed,
            self.data_dir.clone(),
        )
        .context("--trials and --horizon must be >= 1")?
        .with_overrides(self.trials.is_some(), self.horizon.is_some())
        .with_only(self.only.clone())
        .with_variant(self.preset.clone())
        .with_sampler(self.sampler.clone()))
    }
}

/// The default output folder of `paper`.
fn default_out(paper: Paper) -> PathBuf {
    crate::workspace_root()
        .join("target/reproduce")
        .join(paper.name())
}

pub fn run(args: Args) -> anyhow::Result<()> {
    match args.command {
        Some(Command::Merge(m)) => shard::merge(m),
        Some(Command::Pair(p)) => pair::run(p),
        None => run_paper(args.run),
    }
}

/// `reproduce PAPER`: the whole run, or with `--shard` one shard's records.
fn run_paper(args: RunArgs) -> anyhow::Result<()> {
    let paper = args.paper.context("reproduce needs a PAPER")?;
    let arguments = Arguments {
        trials: args.trials,
        horizon: args.horizon,
        seed: args.seed,
        only: args.only,
        preset: args.preset,
        sampler: args.sampler,
        data_dir: args.data_dir.resolve(),
    };
    let options = arguments.options()?;
    let figures = paper.select_figures(&options)?;
    let out = args.out.unwrap_or_else(|| default_out(paper));
    std::fs::create_dir_all(&out).with_context(|| format!("creating {}", out.display()))?;
    if let Some(s) = args.shard {
        return shard::run(paper, &arguments, s, &options, &figures, &out);
    }

    let mut report = Report::new(paper, &options, &figures, &out)?;
    let bar = crate::progress::bar(figures.iter().map(|f| f.curves.len() as u64).sum());
    let started = Instant::now();
    for f in &figures {
        let result = paper.run_figure(f, &options, &mut |p| match p {
            Progress::Started { figure, label } => {
                bar.set_message(format!("{} {label}", figure.id));
            }
            Progress::Finished { figure, curve } => {
                let (mean, sd, _, _) = curve.summary.last();
                bar.println(match figure.metric {
                    Metric::CumulativeRegret => format!(
                        "{:>6} {:<26} R_T = {mean:>8.1} +- {sd:<7.1} ({:.1} s)",
                        figure.id, curve.label, curve.seconds
                    ),
                    Metric::SimpleRegret | Metric::ErrorRate | Metric::ErrorRateAgainst { .. } => {
                        format!(
                            "{:>6} {:<26} {} = {mean:>8.4} +- {sd:<7.4} ({:.1} s)",
                            figure.id,
                            curve.label,
                            figure.metric.symbol(),
                            curve.seconds
                        )
                    }
                });
                bar.inc(1);
            }
        })?;
        report.figure(result)?;
    }
    bar.finish_and_clear();
    report.finish(started.elapsed().as_secs_f64())
}

/// The files of a reproduction, written as its figures finish: `params.json` and the header of
/// `summary.md` first, each figure's files ([`figure::write`]) as it comes, then the claims,
/// the paper's own section and `summary.md`. A whole run and a merge of shards write through
/// this one path, so that they write the same bytes.
struct Report<'a> {
    paper: Paper,
    out: &'a Path,
    md: String,
    results: Vec<FigureResult>,
    claims: Vec<ClaimResult>,
}

impl<'a> Report<'a> {
    /// Write `params.json` and start `summary.md` for `figures` under `options`.
    fn new(
        paper: Paper,
        options: &Options,
        figures: &[Figure],
        out: &'a Path,
    ) -> anyhow::Result<Self> {
        let params = paper.parameters(options)?;
        let mut md = String::new();
        let _ = writeln!(md, "# {}\n", paper.title());
        // The budget of each figure: one sentence when they all share the options' (always the
        // case for a paper without per-figure budgets), else one per figure.
        let budgets: Vec<(&str, Options)> = figures
            .iter()
            .map(|f| (f.id, paper.figure_options(f, options)))
            .collect();
        let budget = if budgets.iter().all(|(_, o)| o == options) {
            format!(
                "{} trials per curve, T = {}",
                options.trials(),
                options.horizon()
            )
        } else {
            let each: Vec<String> = budgets
                .iter()
                .map(|(id, o)| format!("{id}: {} x T = {}", o.trials(), o.horizon()))
                .collect();
            format!("Trials per curve x rounds per trial: {}", each.join(", "))
        };
        // What the rows report: the cumulative regret unless a figure draws another metric.
        let metrics = if figures.iter().all(|f| f.metric == Metric::CumulativeRegret) {
            "Final cumulative regret R_T over trials"
        } else {
            "Final regret over trials (cumulative R_T, or simple S_T, or the error rate ER_T at the largest T, where the setting says so)"
        };
        let _ = writeln!(
            md,
            "{budget}, base seed {}, data from `{}`. Parameters: {}, JSON in `params.json`. \
             {metrics}: mean +- standard deviation [min, max].\n",
            options.base_seed(),
            options.data_dir().display(),
            params.description
        );
        md.push_str(figure::SUMMARY_HEADER);
        let path = out.join("params.json");
        std::fs::write(&path, &params.json)
            .with_context(|| format!("writing {}", path.display()))?;
        Ok(Self {
            paper,
            out,
            md,
            results: Vec::with_capacity(figures.len()),
            claims: Vec::new(),
        })
    }

    /// Write a finished figure's files and test its claims.
    fn figure(&mut self, result: FigureResult) -> anyhow::Result<()> {
        figure::write(self.out, &result, &mut self.md)?;
        self.claims
            .extend(bandit::experiment::claim::evaluate(&result)?);
        self.results.push(result);
        Ok(())
    }

    /// Write `claims.json` and `summary.md` (`total`: the seconds the figures took), and print
    /// the summary.
    fn finish(mut self, total: f64) -> anyhow::Result<()> {
        let md = &mut self.md;
        md.push_str(&claims::section(&self.claims));
        let path = self.out.join("claims.json");
        std::fs::write(&path, serde_json::to_string_pretty(&self.claims)?)
            .with_context(|| format!("writing {}", path.display()))?;
        if let Some(section) = self.paper.summary_section(&self.results) {
            let _ = writeln!(md, "\n{}", section.trim_end());
        }
        let band = if self
            .results
            .iter()
            .all(|r| r.figure.band == Band::StandardDeviation)
        {
            "standard deviation"
        } else {
            "standard deviation or standard error (the figure's title says which)"
        };
        let _ = writeln!(
            md,
            "\nTotal time: {total:.1} s. Curves: `figXX.svg` (mean, band = +- one {} over trials), data: `figXX.csv`, per-trial records: `figXX-ALGORITHM.json`, per-trial diagnostics where the paper records them: `figXX-ALGORITHM-diagnostics.csv`.",
            band
        );
        let path = self.out.join("summary.md");
        std::fs::write(&path, &*md).with_context(|| format!("writing {}", path.display()))?;
        println!("{md}");
        println!("wrote {}", self.out.display());
        Ok(())
    }
}
