//! `cargo xtask verify [--only PREFIX] [--quick | --full]`.

use std::path::PathBuf;

use anyhow::{Context as _, bail};
use verification::{Mode, Progress, Settings, Verdict};

use crate::data_dir::DataDirArg;

/// Options of `verify`.
#[derive(clap::Args)]
pub struct Args {
    /// Run only the checks whose id starts with this prefix (e.g. `kernel/` or `audit/laplace`).
    #[arg(long)]
    only: Option<String>,
    /// Default budgets: the checks take about 7 to 13 minutes on 2 cores (444 to 747 s measured), plus the first build.
    #[arg(long, conflicts_with = "full")]
    quick: bool,
    /// Larger budgets: tighter statistics, longer horizons.
    #[arg(long)]
    full: bool,
    /// Base seed of every randomised check.
    #[arg(long, default_value_t = 20_211_122)]
    seed: u64,
    #[command(flatten)]
    data_dir: DataDirArg,
    /// Folder of the report.
    #[arg(long)]
    out: Option<PathBuf>,
    /// List the checks and exit.
    #[arg(long)]
    list: bool,
    /// Checks run at a time (default: the number of cores). Outcomes do not depend on it
    /// (each check draws from its own seeded streams); the per-check seconds do.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    jobs: Option<u16>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let root = crate::workspace_root();
    let checks = checks::all();
    if args.list {
        for c in &checks {
            println!("{}", c.id);
        }
        return Ok(());
    }
    let mode = if args.full { Mode::Full } else { Mode::Quick };
    let out_dir = args.out.unwrap_or_else(|| root.join("target/verify"));
    std::fs::create_dir_all(&out_dir).with_context(|| format!("creating {}", out_dir.display()))?;
    let settings = Settings {
        mode,
        seed: args.seed,
        out_dir: out_dir.clone(),
        data_dir: args.data_dir.resolve(),
    };

    let matching: Vec<_> = checks
        .iter()
        .filter(|c| args.only.as_deref().is_none_or(|p| c.id.starts_with(p)))
        .collect();
    if matching.is_empty() {
        bail!(
            "no check id starts with {:?}; `cargo xtask verify --list` lists them",
            args.only.unwrap_or_default()
        );
    }
    let n = matching.iter().filter(|c| c.runs_in(mode)).count();
    if n == 0 {
        bail!(
            "the checks starting with {:?} run only with --full",
            args.only.unwrap_or_default()
        );
    }
    let jobs = args.jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        usize::from,
    );
    let bar = crate::progress::bar(n as u64);
    let report =
        verification::run_checks(
            &checks,
            &settings,
            args.only.as_deref(),
            jobs,
            |p| match p {
                Progress::Start(_, _, id) => bar.set_message(id.to_string()),
                Progress::Done(r) => {
                    if r.outcome.verdict != Verdict::Pass {
                        bar.println(format!(
                            "{:>12}  {}  {}",
                            r.outcome.verdict.to_string().to_uppercase(),
                            r.id,
                            r.outcome.measured
                        ));
                    }
                    bar.inc(1);
                }
            },
        );
    bar.finish_and_clear();

    let json_path = out_dir.join("report.json");
    let md_path = out_dir.join("report.md");
    std::fs::write(&json_path, serde_json::to_string_pretty(&report)?)
        .with_context(|| format!("writing {}", json_path.display()))?;
    std::fs::write(&md_path, report.to_markdown())
        .with_context(|| format!("writing {}", md_path.display()))?;
    let html_path = out_dir.join("report.html");
    std::fs::write(
        &html_path,
        verification::report_html::to_html(&report, &out_dir),
    )
    .with_context(|| format!("writing {}", html_path.display()))?;

    print_table(&report);
    println!(
        "\n{} checks, {} pass, {} fail, {} inconclusive in {:.1} s (mode {}); family-wise false-alarm bound {:.1e}",
        report.checks.len(),
        report.counts.pass,
        report.counts.fail,
        report.counts.inconclusive,
        report.total_seconds,
        report.mode,
        report.family_wise_false_alarm_bound
    );
    if !report.full_only_not_run.is_empty() {
        println!(
            "not run (their budget belongs to --full): {}",
            report.full_only_not_run.join(", ")
        );
    }
    println!(
        "report: {} (one page with the plots, filterable by area and verdict)\n        {}\n        {}",
        html_path.display(),
        json_path.display(),
        md_path.display()
    );
    if !report.ok() {
        bail!("{} check(s) failed", report.counts.fail);
    }
    Ok(())
}

fn print_table(report: &verification::Report) {
    let w = report
        .checks
        .iter()
        .map(|c| c.id.len())
        .max()
        .unwrap_or(2)
        .max(2);
    println!(
        "{:<12}  {:<w$}  {:>8}  measured",
        "verdict", "id", "seconds"
    );
    for c in &report.checks {
        let mut measured = c.outcome.measured.clone();
        if measured.chars().count() > 100 {
            measured = measured.chars().take(97).collect::<String>() + "...";
        }
        println!(
            "{:<12}  {:<w$}  {:>8.2}  {}",
            c.outcome.verdict.to_string().to_uppercase(),
            c.id,
            c.seconds,
            measured
        );
    }
}
