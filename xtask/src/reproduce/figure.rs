//! The one figure writer of `reproduce`: for a finished figure, every curve's trial records
//! (`ID-LABEL.json`), the per-round mean, sd, min and max of every curve (`ID.csv`, rounds
//! numbered from the figure's `first_round`), a curve's per-trial diagnostics when its run
//! records them (`ID-LABEL-diagnostics.csv`), the plot of the figure's metric with bands of
//! one standard deviation or standard error (`ID.svg`, the figure's `band`) and one row per
//! curve of `summary.md`.

use std::fmt::Write as _;
use std::io::BufWriter;
use std::path::Path;

use anyhow::Context as _;
use bandit::experiment::{FigureResult, Metric};

use super::plot::{Curve, regret_curves};

/// The header of the Markdown table [`write()`] adds rows to.
pub const SUMMARY_HEADER: &str = "| figure | setting | algorithm | final mean (R_T, S_T, or ER_T at the largest T) | sd | min | max | seconds |\n|---|---|---|---|---|---|---|---|\n";

/// Write `result`'s files under `out` and append its rows to `summary` (below
/// [`SUMMARY_HEADER`]).
pub fn write(out: &Path, result: &FigureResult, summary: &mut String) -> anyhow::Result<()> {
    let f = &result.figure;
    for c in &result.curves {
        let (mean, sd, min, max) = c.summary.last();
        // A simple regret is a fraction of the function's range: more digits.
        let _ = match f.metric {
            Metric::CumulativeRegret => writeln!(
                summary,
                "| {} | {} | {} | {mean:.1} | {sd:.1} | {min:.1} | {max:.1} | {:.1} |",
                f.id, f.caption, c.label, c.seconds
            ),
            Metric::SimpleRegret | Metric::ErrorRate | Metric::ErrorRateAgainst { .. } => writeln!(
                summary,
                "| {} | {} ({}) | {} | {mean:.4} | {sd:.4} | {min:.4} | {max:.4} | {:.1} |",
                f.id,
                f.caption,
                f.metric.symbol(),
                c.label,
                c.seconds
            ),
        };
        let path = out.join(format!("{}-{}.json", f.id, c.label));
        let file =
            std::fs::File::create(&path).with_context(|| format!("creating {}", path.display()))?;
        serde_json::to_writer(BufWriter::new(file), &c.batch)
            .with_context(|| format!("writing {}", path.display()))?;
        if let Some(table) = &c.table {
            let path = out.join(format!("{}-{}-diagnostics.csv", f.id, c.label));
            std::fs::write(&path, table.to_csv())
                .with_context(|| format!("writing {}", path.display()))?;
        }
    }

    // CSV: round, then mean/sd/min/max per curve.
    let mut csv = String::from("round");
    for c in &result.curves {
        let name = &c.label;
        let _ = write!(csv, ",{name}_mean,{name}_sd,{name}_min,{name}_max");
    }
    csv.push('\n');
    // Every curve has the options' horizon (`PaperExperiments::run_figure` checks it).
    let horizon = result.curves.first().map_or(0, |c| c.summary.mean.len());
    for t in 0..horizon {
        let _ = write!(csv, "{}", t as i64 + f.first_round);
        for s in result.curves.iter().map(|c| &c.summary) {
            let _ = write!(csv, ",{},{},{},{}", s.mean[t], s.std[t], s.min[t], s.max[t]);
        }
        csv.push('\n');
    }
    let path = out.join(format!("{}.csv", f.id));
    std::fs::write(&path, csv).with_context(|| format!("writing {}", path.display()))?;

    let band = |sign: f64| -> Vec<Vec<f64>> {
        result
            .curves
            .iter()
            .map(|c| {
                let s = &c.summary;
                let scale = f.band.scale(c.batch.trials.len());
                s.mean
                    .iter()
                    .zip(&s.std)
                    .map(|(m, d)| m + sign * (scale * d))
                    .collect()
            })
            .collect()
    };
    let (lower, upper) = (band(-1.0), band(1.0));
    let curves: Vec<Curve<'_>> = result
        .curves
        .iter()
        .enumerate()
        .map(|(i, c)| Curve {
            name: &c.label,
            mean: &c.summary.mean,
            lower: &lower[i],
            upper: &upper[i],
        })
        .collect();
    regret_curves(
        &out.join(format!("{}.svg", f.id)),
        &format!(
            "{} ({}): mean +- {} over trials",
            f.id,
            f.caption,
            f.band.name()
        ),
        &curves,
        f.metric.name(),
        f.metric.x_desc(),
        f.first_round,
    )
}
