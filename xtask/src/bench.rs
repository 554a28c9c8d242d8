//! `cargo xtask bench [CRATE]`: run the benchmarks of one crate (or all), so that speed targets
//! are measured by benchmarks and never by timed unit tests; for a paper's crate, also the
//! whole-process timings of its [`TimingWorkload`](bandit::experiment::TimingWorkload); for
//! `privacy`, also the PLD accountant side by side with dp_accounting ([`crate::pld_comparison`]).
//!
//! Every timing comes from an optimised build: the benches run under cargo's `bench` profile
//! (release settings), and when `cargo xtask` itself was built with the dev profile (the
//! `cargo xtask` alias), `bench` runs itself again from a release build before timing anything.

use std::process::Command;
use std::time::Instant;

use anyhow::bail;
use bandit::experiment::{Metric, Options, Progress};

use crate::data_dir::DataDirArg;
use crate::papers::Paper;

/// Options of `bench`.
#[derive(clap::Args)]
pub struct Args {
    /// Skip the criterion benches: run only the whole-process timings of the paper CRATE (of
    /// every paper when CRATE is omitted).
    #[arg(long)]
    timings_only: bool,
    /// The crate whose benches to run (`kernel`, `privacy`, a paper's crate, ...); all when
    /// omitted.
    target: Option<String>,
    #[command(flatten)]
    data_dir: DataDirArg,
    /// Extra arguments passed to criterion (after `--`), e.g. a benchmark name filter.
    #[arg(last = true)]
    criterion: Vec<String>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    // The environment variable guards against a loop when the release profile is configured
    // with debug assertions.
    if cfg!(debug_assertions) && std::env::var_os(RERUN_GUARD).is_none() {
        return rerun_optimised();
    }
    if cfg!(debug_assertions) {
        println!(
            "profile: release, but with debug assertions on (check [profile.release]): timings are not comparable"
        );
    } else {
        println!("profile: release (optimised; the criterion benches: cargo's bench profile)");
    }
    let paper = args.target.as_deref().and_then(Paper::named);
    if args.timings_only {
        let papers: Vec<Paper> = match (&args.target, paper) {
            (None, _) => Paper::all().to_vec(),
            (Some(_), Some(p)) => vec![p],
            (Some(t), None) => bail!(
                "{t} has no whole-process timings; the papers that do: {}",
                Paper::names()
            ),
        };
        for p in papers {
            timings(p, &args.data_dir)?;
        }
        return Ok(());
    }
    criterion(&args)?;
    if matches!(args.target.as_deref(), None | Some("privacy")) {
        crate::pld_comparison::run()?;
    }
    if let Some(p) = paper {
        timings(p, &args.data_dir)?;
    }
    Ok(())
}

/// The paper's timing workload, each curve's full batch timed in this process (release
/// build, all rayon threads).
fn timings(paper: Paper, data_dir: &DataDirArg) -> anyhow::Result<()> {
    let w = paper.timings();
    // The workload's counts override the figures' own budgets: the timings are of the stated
    // workload (without the override a figure with a budget ran at its budget instead).
    let options = Options::new(w.trials, w.horizon, w.base_seed, data_dir.resolve())?
        .with_overrides(true, true)
        .with_only(w.figures.iter().copied());
    println!(
        "{}: {} trials x T = {}, {}, {} rayon threads",
        paper.name(),
        w.trials,
        w.horizon,
        w.description,
        rayon::current_num_threads()
    );
    let started = Instant::now();
    let mut n_curves = 0usize;
    for f in paper.select_figures(&options)? {
        paper.run_figure(&f, &options, &mut |p| {
            if let Progress::Finished { figure, curve } = p {
                n_curves += 1;
                let last = match figure.metric {
                    Metric::CumulativeRegret => format!("mean R_T = {:.1}", curve.summary.last().0),
                    m => format!("mean {} = {:.4}", m.symbol(), curve.summary.last().0),
                };
                println!(
                    "  {:<6} {:<26} {:>7.2} s  ({:.1} us per round per trial; {last})",
                    figure.id,
                    curve.label,
                    curve.seconds,
                    1e6 * curve.seconds / (w.horizon * w.trials) as f64,
                );
            }
        })?;
    }
    println!(
        "  all {n_curves} curves: {:.2} s",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Set for the release run, so that it never runs itself again.
const RERUN_GUARD: &str = "XTASK_BENCH_RERUN";

/// This process was built without optimisations: run `bench` again, with the same arguments,
/// from a release build of xtask.
fn rerun_optimised() -> anyhow::Result<()> {
    println!(
        "cargo xtask bench: building xtask with the release profile to time an optimised build"
    );
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .current_dir(crate::workspace_root())
        .args([
            "run",
            "--quiet",
            "--release",
            "--package",
            "xtask",
            "--",
            "bench",
        ])
        .args(std::env::args_os().skip(2))
        .env(RERUN_GUARD, "1")
        .status()?;
    if !status.success() {
        bail!("the release build of `cargo xtask bench` failed ({status})");
    }
    Ok(())
}

fn criterion(args: &Args) -> anyhow::Result<()> {
    let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cmd.current_dir(crate::workspace_root()).arg("bench");
    match &args.target {
        Some(t) => {
            cmd.args(["--package", t]);
        }
        None => {
            cmd.arg("--workspace");
        }
    }
    if !args.criterion.is_empty() {
        cmd.arg("--").args(&args.criterion);
    }
    let status = cmd.status()?;
    if !status.success() {
        bail!("cargo bench failed ({status})");
    }
    Ok(())
}
