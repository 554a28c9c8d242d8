//! `cargo xtask reproduce pair A B`: two runs of the same figures (the same seeds, e.g. the
//! hardened and the textbook sampler, or two commits) compared trial by trial.
//!
//! Trial `i` of a curve is seeded from `(seed, i)` in both runs, so its problem draw is the same
//! in both; the pairs are the trials. For each per-trial record file `FIG-CURVE.json` present in
//! both folders, the final value of the metric of every trial (`R_T`, the last cumulative
//! regret, or `S_T`, the last simple regret) is paired by trial index, and the exact sign test
//! and the Wilcoxon signed-rank test of `a - b` ([`bandit::experiment::paired`]) are reported
//! with their two-sided p-values (twice the smaller one-sided p-value, at most 1). A curve whose
//! values are identical in every trial (one that draws no privacy noise, say) is reported as
//! such. Files present in one folder only are listed, not compared; a curve whose run settings
//! (seed, horizon, trials) or trial indices differ between the runs is an error (the runs are not
//! the same experiment), and so is a JSON file other than `params.json`, `claims.json` and shard
//! files that does not read as a batch of trials (a truncated or foreign record would otherwise
//! drop out of the comparison unseen).
//!
//! No test statistic is turned into a verdict here: how many curves are compared, and so which
//! level a difference must reach, is the reader's (the output says how many were compared).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail};
use bandit::experiment::paired::{PairedTest, paired_test};
use bandit::runner::BatchResult;
use serde::Serialize;

/// Options of `reproduce pair`.
#[derive(clap::Args)]
pub struct PairArgs {
    /// Output folder of the first run (`reproduce PAPER --out A`); its values are `a` in `a - b`.
    a: PathBuf,
    /// Output folder of the second run, with the same seeds.
    b: PathBuf,
    /// The value compared: `cumulative` (`R_T`, the default) or `simple` (`S_T`).
    #[arg(long, default_value = "cumulative")]
    metric: PairMetric,
    /// Print JSON instead of a Markdown table.
    #[arg(long)]
    json: bool,
}

/// The value of a trial that `pair` compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PairMetric {
    /// `R_T`: the last cumulative regret.
    Cumulative,
    /// `S_T`: the last simple regret.
    Simple,
}

/// One curve of both runs, paired.
#[derive(Debug, Serialize)]
pub struct PairedCurve {
    /// The record file's name without `.json` (`FIG-CURVE`).
    pub curve: String,
    /// Mean and standard deviation (over trials) of the first run.
    pub a: (f64, f64),
    /// The same of the second run.
    pub b: (f64, f64),
    /// Standard deviation of `a - b` over trials.
    pub sd_difference: f64,
    /// Whether every trial's value is the same in both runs.
    pub identical: bool,
    /// The paired tests of `a - b`.
    pub test: PairedTest,
    /// Two-sided exact sign test p-value.
    pub sign_two_sided: f64,
    /// Two-sided Wilcoxon signed-rank p-value.
    pub wilcoxon_two_sided: f64,
}

/// What `pair` found.
#[derive(Debug, Serialize)]
pub struct Pairing {
    /// The compared value.
    pub metric: PairMetric,
    /// The curves in both folders, by name.
    pub curves: Vec<PairedCurve>,
    /// Record files in the first folder only.
    pub only_in_a: Vec<String>,
    /// Record files in the second folder only.
    pub only_in_b: Vec<String>,
}

pub fn run(args: PairArgs) -> anyhow::Result<()> {
    let pairing = pair(&args.a, &args.b, args.metric)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&pairing)?);
    } else {
        print!("{}", markdown(&pairing, &args.a, &args.b));
    }
    Ok(())
}

/// The per-trial record files of a reproduction's folder, by name without `.json`: every JSON
/// file but `params.json`, `claims.json` and shard files, each of which must read as a batch of
/// trials (the diagnostics are CSV).
fn records(dir: &Path) -> anyhow::Result<BTreeMap<String, BatchResult>> {
    let mut out = BTreeMap::new();
    let entries = std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))?;
    for entry in entries {
        let path = entry?.path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        let Some(stem) = name.strip_suffix(".json") else {
            continue;
        };
        if stem == "params" || stem == "claims" || stem.starts_with("shard-") {
            continue;
        }
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("reading {}", path.display()))?;
        let batch = serde_json::from_str::<BatchResult>(&text).with_context(|| {
            format!(
                "{} is not a per-trial record file (FIG-CURVE.json of `reproduce`)",
                path.display()
            )
        })?;
        out.insert(stem.to_string(), batch);
    }
    if out.is_empty() {
        bail!(
            "{} holds no per-trial record files (FIG-CURVE.json, written by `cargo xtask reproduce PAPER --out DIR`)",
            dir.display()
        );
    }
    Ok(out)
}

/// The final value of `metric` of every trial, by trial index.
fn finals(batch: &BatchResult, metric: PairMetric) -> Vec<(usize, f64)> {
    batch
        .trials
        .iter()
        .map(|t| {
            // An empty trial has no final value (NaN: refused by the caller).
            let last = match metric {
                _ if t.horizon() == 0 => f64::NAN,
                PairMetric::Cumulative => t.final_cumulative_regret(),
                PairMetric::Simple => t.final_simple_regret(),
            };
            (t.trial, last)
        })
        .collect()
}

fn mean_sd(x: &[f64]) -> (f64, f64) {
    let n = x.len() as f64;
    let mean = x.iter().sum::<f64>() / n;
    let var = if x.len() > 1 {
        x.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0)
    } else {
        0.0
    };
    (mean, var.sqrt())
}

/// Pair the runs in folders `a` and `b` (module docs).
///
/// # Errors
/// A folder that cannot be read or holds no record files; a curve whose trials are not the
/// same in both runs (number or indices); a trial without rounds (no final value).
pub fn pair(a: &Path, b: &Path, metric: PairMetric) -> anyhow::Result<Pairing> {
    let (ra, rb) = (records(a)?, records(b)?);
    let only_in_a = ra
        .keys()
        .filter(|k| !rb.contains_key(*k))
        .cloned()
        .collect();
    let only_in_b = rb
        .keys()
        .filter(|k| !ra.contains_key(*k))
        .cloned()
        .collect();
    let mut curves = Vec::new();
    for (name, batch_a) in &ra {
        let Some(batch_b) = rb.get(name) else {
            continue;
        };
        if batch_a.config != batch_b.config {
            bail!(
                "{name}: the runs have different settings ({:?} against {:?}): not the same experiment",
                batch_a.config,
                batch_b.config
            );
        }
        let (fa, fb) = (finals(batch_a, metric), finals(batch_b, metric));
        let ia: Vec<usize> = fa.iter().map(|p| p.0).collect();
        let ib: Vec<usize> = fb.iter().map(|p| p.0).collect();
        if ia != ib {
            bail!(
                "{name}: the runs hold different trials ({} against {}; indices {ia:?} against {ib:?}): not the same experiment",
                ia.len(),
                ib.len()
            );
        }
        let va: Vec<f64> = fa.iter().map(|p| p.1).collect();
        let vb: Vec<f64> = fb.iter().map(|p| p.1).collect();
        if va.iter().chain(&vb).any(|v| !v.is_finite()) {
            bail!("{name}: a trial without a finite final value");
        }
        let d: Vec<f64> = va.iter().zip(&vb).map(|(x, y)| x - y).collect();
        let test = paired_test(&va, &vb);
        let two_sided =
            |p: bandit::experiment::paired::OneSided| (2.0 * p.below.min(p.above)).min(1.0);
        curves.push(PairedCurve {
            curve: name.clone(),
            a: mean_sd(&va),
            b: mean_sd(&vb),
            sd_difference: mean_sd(&d).1,
            identical: va.iter().zip(&vb).all(|(x, y)| x.to_bits() == y.to_bits()),
            sign_two_sided: two_sided(test.sign),
            wilcoxon_two_sided: two_sided(test.wilcoxon),
            test,
        });
    }
    Ok(Pairing {
        metric,
        curves,
        only_in_a,
        only_in_b,
    })
}

/// Decimals that show a row's numbers to about four significant digits of its larger mean
/// `m` (one decimal from 100 up, so regrets in the hundreds print as `104.5`; five for a simple
/// regret of 0.0123).
fn decimals(m: f64) -> usize {
    if !(m.is_finite() && m > 0.0) {
        return 1;
    }
    (3 - m.log10().floor() as i64).clamp(1, 12) as usize
}

/// The Markdown table of `pairing`.
fn markdown(pairing: &Pairing, a: &Path, b: &Path) -> String {
    let symbol = match pairing.metric {
        PairMetric::Cumulative => "R_T",
        PairMetric::Simple => "S_T",
    };
    let mut s = String::new();
    let _ = writeln!(
        s,
        "a = {}, b = {}: final {symbol} paired by trial (same seeds); mean (sd) over trials; two-sided exact sign test and Wilcoxon signed-rank test of a - b (zero differences dropped).\n",
        a.display(),
        b.display()
    );
    let _ = writeln!(
        s,
        "| curve | a | b | a - b (sd) | a higher | sign p | Wilcoxon p |\n|---|---|---|---|---|---|---|"
    );
    for c in &pairing.curves {
        let d = decimals(c.a.0.abs().max(c.b.0.abs()));
        if c.identical {
            let _ = writeln!(
                s,
                "| {} | {:.d$} ({:.d$}) | identical in all {} trials | 0 | | | |",
                c.curve, c.a.0, c.a.1, c.test.draws
            );
            continue;
        }
        let _ = writeln!(
            s,
            "| {} | {:.d$} ({:.d$}) | {:.d$} ({:.d$}) | {:+.d$} ({:.d$}) | {}/{} | {:.3} | {:.3} |",
            c.curve,
            c.a.0,
            c.a.1,
            c.b.0,
            c.b.1,
            c.test.mean_difference,
            c.sd_difference,
            c.test.above,
            c.test.draws - c.test.ties,
            c.sign_two_sided,
            c.wilcoxon_two_sided
        );
    }
    let differing = pairing.curves.iter().filter(|c| !c.identical).count();
    let _ = writeln!(
        s,
        "\n{} curves in both runs, {differing} of them not identical (a level for one curve should be divided by that number when every curve is read).",
        pairing.curves.len()
    );
    for (which, names) in [("a", &pairing.only_in_a), ("b", &pairing.only_in_b)] {
        if !names.is_empty() {
            let _ = writeln!(s, "Only in {which} (not compared): {}", names.join(", "));
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use bandit::runner::{RunConfig, TrialRecord};

    fn batch(finals: &[(usize, f64)]) -> BatchResult {
        BatchResult {
            config: RunConfig::single(2, 1),
            trials: finals
                .iter()
                .map(|&(trial, r)| TrialRecord {
                    trial,
                    actions: vec![0, 0],
                    rewards: vec![0.0, 0.0],
                    mean_rewards: vec![0.0, 0.0],
                    instantaneous_regret: vec![0.0, r],
                    cumulative_regret: vec![0.0, r],
                    simple_regret: vec![1.0, r / 2.0],
                })
                .collect(),
        }
    }

    fn write(dir: &Path, name: &str, b: &BatchResult) {
        std::fs::write(
            dir.join(format!("{name}.json")),
            serde_json::to_string(b).unwrap(),
        )
        .unwrap();
    }

    #[test]
    fn pairs_trials_by_index_and_reports_both_tests() {
        let root = std::env::temp_dir().join(format!("xtask-pair-{}", std::process::id()));
        let (a, b) = (root.join("a"), root.join("b"));
        std::fs::create_dir_all(&a).unwrap();
        std::fs::create_dir_all(&b).unwrap();
        // Ten trials, a above b in 9 (by 1..9) and below in one (by 20).
        let va: Vec<(usize, f64)> = (0..10).map(|i| (i, 100.0 + i as f64)).collect();
        let vb: Vec<(usize, f64)> = (0..10)
            .map(|i| (i, if i == 0 { 120.0 } else { 100.0 }))
            .collect();
        write(&a, "fig-x", &batch(&va));
        write(&b, "fig-x", &batch(&vb));
        write(&a, "fig-same", &batch(&va));
        write(&b, "fig-same", &batch(&va));
        write(&a, "fig-only-a", &batch(&va));
        std::fs::write(a.join("params.json"), "{}").unwrap();
        std::fs::write(b.join("claims.json"), "[]").unwrap();
        let p = pair(&a, &b, PairMetric::Cumulative).unwrap();
        assert_eq!(p.only_in_a, vec!["fig-only-a".to_string()]);
        assert!(p.only_in_b.is_empty());
        let same = p.curves.iter().find(|c| c.curve == "fig-same").unwrap();
        assert!(same.identical);
        let x = p.curves.iter().find(|c| c.curve == "fig-x").unwrap();
        assert!(!x.identical);
        assert_eq!((x.test.above, x.test.below, x.test.ties), (9, 1, 0));
        // Mean of a - b: (sum 1..9 - 20) / 10 = 2.5.
        assert!((x.test.mean_difference - 2.5).abs() < 1e-12);
        // Two-sided sign p: 2 P(Bin(10, 1/2) >= 9) = 2 * 11 / 1024.
        assert!((x.sign_two_sided - 22.0 / 1024.0).abs() < 1e-12);
        assert!((x.a.0 - 104.5).abs() < 1e-12 && (x.b.0 - 102.0).abs() < 1e-12);
        // Wilcoxon: |d| ranks 1..9 for the positive differences, 10 for the negative one, so
        // W_- = 10; P(W_- <= 10) = 43 / 1024 (subsets of 1..10 with sum <= 10), two-sided 86/1024.
        assert!((x.wilcoxon_two_sided - 86.0 / 1024.0).abs() < 1e-12);
        // sd of a - b: d = (-20, 1, ..., 9), mean 2.5.
        let d: Vec<f64> = std::iter::once(-20.0)
            .chain((1..10).map(f64::from))
            .collect();
        let sd = (d.iter().map(|v| (v - 2.5).powi(2)).sum::<f64>() / 9.0).sqrt();
        assert!((x.sd_difference - sd).abs() < 1e-12);
        // The simple regret is half the cumulative one in these records.
        let s = pair(&a, &b, PairMetric::Simple).unwrap();
        let xs = s.curves.iter().find(|c| c.curve == "fig-x").unwrap();
        assert!((xs.test.mean_difference - 1.25).abs() < 1e-12);
        // Different trials in the two runs: an error naming the curve.
        write(&b, "fig-x", &batch(&vb[..9]));
        let err = pair(&a, &b, PairMetric::Cumulative)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("fig-x") && err.contains("not the same experiment"),
            "{err}"
        );
        let md = markdown(&p, &a, &b);
        assert!(
            md.contains("| fig-same | 104.5 (3.0) | identical in all 10 trials |"),
            "{md}"
        );
        let row = format!(
            "| fig-x | 104.5 (3.0) | 102.0 (6.3) | +2.5 ({sd:.1}) | 9/10 | 0.021 | 0.084 |"
        );
        assert!(md.contains(&row), "{md}");
        assert_eq!(
            [104.5, 12.0, 3.0, 0.0123, 0.0, f64::NAN].map(decimals),
            [1, 2, 3, 5, 1, 1]
        );
        // The same trials under another seed: refused.
        let mut other = batch(&vb);
        other.config = RunConfig::single(2, 2);
        write(&b, "fig-x", &other);
        let err = pair(&a, &b, PairMetric::Cumulative)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("fig-x") && err.contains("different settings"),
            "{err}"
        );
        // A JSON file that is not a record: an error, not a curve dropped.
        write(&b, "fig-x", &batch(&vb));
        std::fs::write(b.join("fig-broken.json"), "{\"trials\": [").unwrap();
        let err = format!("{:#}", pair(&a, &b, PairMetric::Cumulative).unwrap_err());
        assert!(err.contains("fig-broken.json"), "{err}");
        std::fs::remove_dir_all(&root).unwrap();
    }
}
