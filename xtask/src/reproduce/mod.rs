//! `cargo xtask reproduce PAPER`: run a paper's figures (its `experiments` module, through
//! [`bandit::experiment::PaperExperiments`]) and write, under `target/reproduce/PAPER/`, each
//! figure's files ([`figure::write`]), `params.json`, `summary.md` and `claims.json` (the claims tested
//! over draws, [`claims::section`]).

mod claims;
mod figure;
mod plot;

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::Context as _;
use bandit::experiment::{Band, Metric, Options, Progress};

use crate::data_dir::DataDirArg;
use crate::papers::Paper;

/// Options of `reproduce`.
#[derive(clap::Args)]
pub struct Args {
    /// The paper's crate.
    paper: Paper,
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
    /// The noise sampler of the private curves, where a paper offers the choice (jdp-qff):
    /// `hardened` (the default: the exact discrete Gaussian the privacy claim is about) or
    /// `textbook` (floating-point Gaussian at the same sigma: the control). The other papers
    /// always run the hardened sampler and refuse the option.
    #[arg(long)]
    sampler: Option<String>,
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

pub fn run(args: Args) -> anyhow::Result<()> {
    let paper = args.paper;
    let data_dir = args.data_dir.resolve();
    let options = Options::new(
        args.trials.unwrap_or(DEFAULT_TRIALS),
        args.horizon.unwrap_or(DEFAULT_HORIZON),
        args.seed,
        data_dir.clone(),
    )
    .context("--trials and --horizon must be >= 1")?
    .with_overrides(args.trials.is_some(), args.horizon.is_some())
    .with_only(args.only)
    .with_variant(args.preset)
    .with_sampler(args.sampler);
    let figures = paper.select_figures(&options)?;
    let out = args.out.unwrap_or_else(|| {
        crate::workspace_root()
            .join("target/reproduce")
            .join(paper.name())
    });
    std::fs::create_dir_all(&out).with_context(|| format!("creating {}", out.display()))?;

    let params = paper.parameters(&options)?;
    let mut md = String::new();
    let _ = writeln!(md, "# {}\n", paper.title());
    // The budget of each figure: one sentence when they all share the options' (always the
    // case for a paper without per-figure budgets), else one per figure.
    let budgets: Vec<(&str, Options)> = figures
        .iter()
        .map(|f| (f.id, paper.figure_options(f, &options)))
        .collect();
    let budget = if budgets.iter().all(|(_, o)| *o == options) {
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
        data_dir.display(),
        params.description
    );
    md.push_str(figure::SUMMARY_HEADER);
    std::fs::write(out.join("params.json"), &params.json)?;

    let bar = crate::progress::bar(figures.iter().map(|f| f.curves.len() as u64).sum());
    let started = Instant::now();
    let mut results = Vec::with_capacity(figures.len());
    let mut claims = Vec::new();
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
        figure::write(&out, &result, &mut md)?;
        claims.extend(bandit::experiment::claim::evaluate(&result)?);
        results.push(result);
    }
    bar.finish_and_clear();
    md.push_str(&claims::section(&claims));
    std::fs::write(
        out.join("claims.json"),
        serde_json::to_string_pretty(&claims)?,
    )?;
    if let Some(section) = paper.summary_section(&results) {
        let _ = writeln!(md, "\n{}", section.trim_end());
    }
    let total = started.elapsed().as_secs_f64();
    let band = if results
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
    std::fs::write(out.join("summary.md"), &md)?;
    println!("{md}");
    println!("wrote {}", out.display());
    Ok(())
}
