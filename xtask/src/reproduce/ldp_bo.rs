//! Zhou & Tan 2021, Section 5 and Appendix E: Figures 2(a)-(f) and 3(a)-(c).

use std::fmt::Write as _;
use std::path::Path;
use std::time::Instant;

use anyhow::Context as _;
use bandit::runner::{BatchResult, RunConfig};
use indicatif::{ProgressBar, ProgressStyle};
use ldp_bo::experiments::{self, Algorithm, AlgorithmParams, FIGURES, Source};

use super::Args;
use super::plot::{Curve, regret_curves};

/// Mean, standard deviation, min and max over trials of the cumulative regret at each round.
struct Summary {
    mean: Vec<f64>,
    std: Vec<f64>,
    min: Vec<f64>,
    max: Vec<f64>,
}

fn summarise(b: &BatchResult) -> Summary {
    let horizon = b.config.horizon;
    let n = b.trials.len() as f64;
    let mut s = Summary {
        mean: vec![0.0; horizon],
        std: vec![0.0; horizon],
        min: vec![f64::INFINITY; horizon],
        max: vec![f64::NEG_INFINITY; horizon],
    };
    for t in 0..horizon {
        let vals: Vec<f64> = b.trials.iter().map(|tr| tr.cumulative_regret[t]).collect();
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
    s
}

pub fn run(args: &Args, data_dir: &Path, out: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    let figures: Vec<_> = FIGURES
        .iter()
        .filter(|f| args.only.is_empty() || args.only.iter().any(|o| o == f.id))
        .collect();
    if figures.is_empty() {
        anyhow::bail!(
            "no figure matches --only {:?}; ids: {}",
            args.only,
            FIGURES.iter().map(|f| f.id).collect::<Vec<_>>().join(",")
        );
    }
    let params = AlgorithmParams::new(args.horizon as u64);
    let config = RunConfig {
        horizon: args.horizon,
        n_trials: args.trials,
        base_seed: args.seed,
    };
    let bar = ProgressBar::new((figures.len() * Algorithm::ALL.len()) as u64);
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} {msg}")
            .expect("template")
            .progress_chars("=> "),
    );
    let started = Instant::now();
    let mut md = String::new();
    let _ = writeln!(md, "# Zhou & Tan 2021: reproduced Figures 2 and 3\n");
    let _ = writeln!(
        md,
        "{} trials per curve, T = {}, base seed {}, data from `{}`. Parameters: the crate defaults \
         (`docs/ldp-bo.md`, \"Defaults\"), JSON in `params.json`. Final cumulative regret R_T over \
         trials: mean +- standard deviation [min, max].\n",
        args.trials,
        args.horizon,
        args.seed,
        data_dir.display()
    );
    let _ = writeln!(
        md,
        "| figure | setting | algorithm | R_T mean | sd | min | max | seconds |"
    );
    let _ = writeln!(md, "|---|---|---|---|---|---|---|---|");
    std::fs::write(
        out.join("params.json"),
        serde_json::to_string_pretty(&params)?,
    )?;
    for f in figures {
        let source = Source::load(f.problem, data_dir)
            .with_context(|| format!("loading the data of {}", f.id))?;
        let mut summaries = Vec::new();
        for alg in Algorithm::ALL {
            let name = alg.name(f.setting);
            bar.set_message(format!("{} {name}", f.id));
            let t0 = Instant::now();
            let batch = experiments::run(&source, f.setting, alg, &params, &config)
                .with_context(|| format!("{} {name}", f.id))?;
            let secs = t0.elapsed().as_secs_f64();
            let s = summarise(&batch);
            let last = args.horizon - 1;
            let _ = writeln!(
                md,
                "| {} | {} | {} | {:.1} | {:.1} | {:.1} | {:.1} | {:.1} |",
                f.id, f.caption, name, s.mean[last], s.std[last], s.min[last], s.max[last], secs
            );
            bar.println(format!(
                "{:>6} {:<16} R_T = {:>8.1} +- {:<7.1} ({secs:.1} s)",
                f.id, name, s.mean[last], s.std[last]
            ));
            let mut runs = std::fs::File::create(out.join(format!("{}-{}.json", f.id, name)))?;
            serde_json::to_writer(&mut runs, &batch)?;
            summaries.push((name, s));
            bar.inc(1);
        }
        // CSV: round, then mean/sd/min/max per algorithm.
        let mut csv = String::from("round");
        for (name, _) in &summaries {
            let _ = write!(csv, ",{name}_mean,{name}_sd,{name}_min,{name}_max");
        }
        csv.push('\n');
        for t in 0..args.horizon {
            let _ = write!(csv, "{}", t + 1);
            for (_, s) in &summaries {
                let _ = write!(csv, ",{},{},{},{}", s.mean[t], s.std[t], s.min[t], s.max[t]);
            }
            csv.push('\n');
        }
        std::fs::write(out.join(format!("{}.csv", f.id)), csv)?;
        let lower: Vec<Vec<f64>> = summaries
            .iter()
            .map(|(_, s)| s.mean.iter().zip(&s.std).map(|(m, d)| m - d).collect())
            .collect();
        let upper: Vec<Vec<f64>> = summaries
            .iter()
            .map(|(_, s)| s.mean.iter().zip(&s.std).map(|(m, d)| m + d).collect())
            .collect();
        let curves: Vec<Curve<'_>> = summaries
            .iter()
            .enumerate()
            .map(|(i, (name, s))| Curve {
                name,
                mean: &s.mean,
                lower: &lower[i],
                upper: &upper[i],
            })
            .collect();
        regret_curves(
            &out.join(format!("{}.svg", f.id)),
            &format!("{} ({}): mean +- sd over trials", f.id, f.caption),
            &curves,
        )?;
    }
    bar.finish_and_clear();
    let total = started.elapsed().as_secs_f64();
    let _ = writeln!(
        md,
        "\nTotal time: {total:.1} s. Curves: `figXX.svg` (mean, band = +- one standard deviation over trials), data: `figXX.csv`, per-trial records: `figXX-ALGORITHM.json`."
    );
    std::fs::write(out.join("summary.md"), &md)?;
    println!("{md}");
    println!("wrote {}", out.display());
    Ok(())
}
