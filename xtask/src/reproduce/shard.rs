//! Sharded reproductions: `reproduce PAPER --shard i/n` runs block `i` of `n` of every curve's
//! trials ([`Shard::trials`]: contiguous blocks, each trial seeded from `(seed, trial)` as in the
//! whole run) and writes their raw records to `shard-I-of-N.json`; `reproduce merge` checks that
//! `n` shard files are complete and agree, puts each curve's records back together in trial
//! order, and writes the whole run's files through the one writer of [`super::Report`].
//!
//! # The shard file (format version [`VERSION`])
//!
//! One JSON object:
//!
//! - `format`: [`FORMAT`]; `version`: [`VERSION`];
//! - `paper`: the paper's crate name; `arguments`: the run's `--trials`, `--horizon` (`null`:
//!   not given), `--seed`, `--only`, `--preset`, `--sampler` and the resolved `--data-dir`; `shard`:
//!   `{"index": i, "count": n}`; `seconds`: the wall-clock seconds the shard's curves took;
//! - `figures`: the selected figures in order, each `{"id", "curves"}`; a curve is `{"label",
//!   "seconds", "batch", "diagnostics", "table"}`: `batch` is the runner's `BatchResult` (its
//!   `config` naming the shard, its `trials` the shard's block in order), `diagnostics` the run's
//!   named numbers as `[name, value]` pairs, `table` its per-trial diagnostics table
//!   (`{"columns", "rows"}`) or `null`.
//!
//! Numbers are written in Rust's shortest round-trip form and read back exactly (serde_json's
//! `float_roundtrip`), so a merge rebuilds every record bit for bit. A diagnostic or table value
//! that is not finite is the string `"NaN"`, `"inf"` or `"-inf"`; a trial record must be finite
//! (the whole run's `ID-LABEL.json` could not hold anything else either).
//!
//! # What a merge checks
//!
//! Every file has this format and version, the same paper, arguments and shard count; the
//! indices are `0..n`, each once; each shard has the figures and curves the arguments select;
//! each curve's batch in shard `i` has the figure's horizon, trial count and seed and holds
//! exactly the trials of block `i`. The merged curve's seconds are the sum of its shards'
//! seconds, and the summary's total time the sum of the shards' (compute time, not wall time):
//! these two are the only bytes in which a merge differs from the whole run, whose seconds are
//! wall-clock times of one process.

use std::fmt;
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context as _, bail, ensure};
use bandit::experiment::{
    CurveRecords, CurveResult, Diagnostics, Figure, FigureResult, Options, RunTable,
};
use bandit::runner::{BatchResult, Shard};
use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{Arguments, Report};
use crate::papers::Paper;

/// The `format` field of a shard file.
pub const FORMAT: &str = "cargo xtask reproduce shard";
/// The version of the shard file format this code writes and reads.
pub const VERSION: u32 = 1;

/// Options of `reproduce merge`.
#[derive(clap::Args)]
pub struct MergeArgs {
    /// The shard files of one run (`shard-I-of-N.json`, every I of 0..N once), in any order.
    #[arg(required = true, value_name = "SHARD_FILES")]
    shards: Vec<PathBuf>,
    /// Output folder (default `target/reproduce/PAPER`).
    #[arg(long)]
    out: Option<PathBuf>,
}

/// A shard file (module docs).
#[derive(Serialize, Deserialize)]
struct ShardFile {
    format: String,
    version: u32,
    paper: String,
    arguments: Arguments,
    shard: Shard,
    seconds: f64,
    figures: Vec<ShardFigure>,
}

/// One figure's curves in a shard file.
#[derive(Serialize, Deserialize)]
struct ShardFigure {
    id: String,
    curves: Vec<ShardCurve>,
}

/// One curve's records in a shard file.
#[derive(Serialize, Deserialize)]
struct ShardCurve {
    label: String,
    seconds: f64,
    batch: BatchResult,
    diagnostics: Vec<(String, Number)>,
    table: Option<Table>,
}

/// A diagnostics table in a shard file.
#[derive(Serialize, Deserialize)]
struct Table {
    columns: Vec<String>,
    rows: Vec<Vec<Number>>,
}

/// An `f64` written exactly: a JSON number when finite, else `"NaN"`, `"inf"` or `"-inf"`.
#[derive(Clone, Copy)]
struct Number(f64);

impl Serialize for Number {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let v = self.0;
        if v.is_finite() {
            s.serialize_f64(v)
        } else if v.is_nan() {
            s.serialize_str("NaN")
        } else if v > 0.0 {
            s.serialize_str("inf")
        } else {
            s.serialize_str("-inf")
        }
    }
}

impl<'de> Deserialize<'de> for Number {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Number;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a number, or \"NaN\", \"inf\" or \"-inf\"")
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Number, E> {
                Ok(Number(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Number, E> {
                Ok(Number(v as f64))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Number, E> {
                Ok(Number(v as f64))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Number, E> {
                match v {
                    "NaN" => Ok(Number(f64::NAN)),
                    "inf" => Ok(Number(f64::INFINITY)),
                    "-inf" => Ok(Number(f64::NEG_INFINITY)),
                    _ => Err(E::invalid_value(de::Unexpected::Str(v), &self)),
                }
            }
        }
        d.deserialize_any(V)
    }
}

impl ShardCurve {
    /// The shard file's form of `records`.
    fn of(r: CurveRecords, figure: &str) -> anyhow::Result<Self> {
        // A trial record has no encoding for a non-finite value (module docs).
        for t in &r.batch.trials {
            let fields = [
                &t.rewards,
                &t.mean_rewards,
                &t.instantaneous_regret,
                &t.cumulative_regret,
                &t.simple_regret,
            ];
            if let Some(v) = fields
                .iter()
                .flat_map(|f| f.iter())
                .find(|v| !v.is_finite())
            {
                bail!(
                    "figure {figure}, curve {}: trial {} records a non-finite value ({v}), \
                     which a shard file cannot hold exactly",
                    r.label,
                    t.trial
                );
            }
        }
        Ok(Self {
            label: r.label,
            seconds: r.seconds,
            batch: r.batch,
            diagnostics: r
                .diagnostics
                .into_iter()
                .map(|(name, v)| (name, Number(v)))
                .collect(),
            table: r.table.map(|t| Table {
                columns: t.columns().to_vec(),
                rows: t
                    .rows()
                    .iter()
                    .map(|row| row.iter().copied().map(Number).collect())
                    .collect(),
            }),
        })
    }
}

/// The shard file's name for `shard`.
fn file_name(shard: Shard) -> String {
    format!("shard-{}-of-{}.json", shard.index(), shard.count())
}

/// `reproduce PAPER --shard i/n`: run the shard's block of every curve of `figures` and write
/// the records to `out/shard-I-of-N.json`.
pub(super) fn run(
    paper: Paper,
    arguments: &Arguments,
    shard: Shard,
    options: &Options,
    figures: &[Figure],
    out: &Path,
) -> anyhow::Result<()> {
    let options = options.clone().with_shard(Some(shard));
    let bar = crate::progress::bar(figures.iter().map(|f| f.curves.len() as u64).sum());
    let started = Instant::now();
    let mut shard_figures = Vec::with_capacity(figures.len());
    for f in figures {
        let fo = paper.figure_options(f, &options);
        let block = shard.trials(fo.trials());
        let mut curves = Vec::with_capacity(f.curves.len());
        for run in paper.figure_runs(f, &fo)? {
            bar.set_message(format!("{} {}", f.id, run.label));
            let records = run.records(f, &fo)?;
            bar.println(format!(
                "{:>6} {:<26} trials {}..{} of {} ({:.1} s)",
                f.id,
                records.label,
                block.start,
                block.end,
                fo.trials(),
                records.seconds
            ));
            curves.push(ShardCurve::of(records, f.id)?);
            bar.inc(1);
        }
        shard_figures.push(ShardFigure {
            id: f.id.to_string(),
            curves,
        });
    }
    bar.finish_and_clear();
    let file = ShardFile {
        format: FORMAT.to_string(),
        version: VERSION,
        paper: paper.name().to_string(),
        arguments: arguments.clone(),
        shard,
        seconds: started.elapsed().as_secs_f64(),
        figures: shard_figures,
    };
    let path = out.join(file_name(shard));
    let w = std::fs::File::create(&path).with_context(|| format!("creating {}", path.display()))?;
    serde_json::to_writer(BufWriter::new(w), &file)
        .with_context(|| format!("writing {}", path.display()))?;
    println!("wrote {}", path.display());
    Ok(())
}

/// Read one shard file and check its format and version.
fn read(path: &Path) -> anyhow::Result<ShardFile> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    // The header first, so that a file of another format or version gets that error rather
    // than one about a field it does not have.
    #[derive(Deserialize)]
    struct Header {
        format: Option<String>,
        version: Option<u32>,
    }
    let header: Header = serde_json::from_str(&text)
        .with_context(|| format!("{} is not a JSON object", path.display()))?;
    ensure!(
        header.format.as_deref() == Some(FORMAT),
        "{} is not a shard file of `cargo xtask reproduce --shard` (its `format` is {:?})",
        path.display(),
        header.format
    );
    ensure!(
        header.version == Some(VERSION),
        "{}: shard file format version {}, this xtask reads version {VERSION} (write the \
         shards and merge them with the same xtask)",
        path.display(),
        header
            .version
            .map_or_else(|| "missing".to_string(), |v| v.to_string())
    );
    serde_json::from_str(&text)
        .with_context(|| format!("reading the shard file {}", path.display()))
}

/// `reproduce merge SHARD_FILES...`: check the shards (module docs), put every curve back
/// together and write the whole run's files.
pub(super) fn merge(args: MergeArgs) -> anyhow::Result<()> {
    let mut shards: Vec<(PathBuf, ShardFile)> = args
        .shards
        .iter()
        .map(|p| read(p).map(|f| (p.clone(), f)))
        .collect::<anyhow::Result<_>>()?;
    shards.sort_by_key(|(_, s)| s.shard.index());
    let (first_path, first) = &shards[0];
    let count = first.shard.count();
    for (path, s) in &shards[1..] {
        let differs = |what: &str| {
            anyhow::anyhow!(
                "{} and {} are shards of different runs: their {what} differ",
                first_path.display(),
                path.display()
            )
        };
        if s.paper != first.paper {
            return Err(differs("papers"));
        }
        if s.arguments != first.arguments {
            return Err(differs(
                "arguments (--trials, --horizon, --seed, --only, --preset, --sampler, --data-dir)",
            ));
        }
        if s.shard.count() != count {
            return Err(differs("shard counts"));
        }
    }
    for w in shards.windows(2) {
        let ((a, sa), (b, sb)) = (&w[0], &w[1]);
        ensure!(
            sa.shard != sb.shard,
            "shard {} is given twice: {} and {}",
            sa.shard,
            a.display(),
            b.display()
        );
    }
    let present: Vec<usize> = shards.iter().map(|(_, s)| s.shard.index()).collect();
    let missing: Vec<String> = (0..count)
        .filter(|i| !present.contains(i))
        .map(|i| format!("{i}/{count}"))
        .collect();
    ensure!(
        missing.is_empty(),
        "incomplete shards: {} missing (merge needs every shard i/{count}, i = 0..{count}, once)",
        missing.join(", ")
    );

    let paper = Paper::named(&first.paper).with_context(|| {
        format!(
            "the shards are of paper {:?}, which this xtask does not know (its papers: {})",
            first.paper,
            Paper::names()
        )
    })?;
    let options = first.arguments.options()?;
    let figures = paper.select_figures(&options)?;
    let out = args.out.unwrap_or_else(|| super::default_out(paper));
    std::fs::create_dir_all(&out).with_context(|| format!("creating {}", out.display()))?;
    let total: f64 = shards.iter().map(|(_, s)| s.seconds).sum();

    // Each shard's figures, to be taken in figure order.
    let mut per_shard: Vec<(PathBuf, Shard, std::vec::IntoIter<ShardFigure>)> = shards
        .into_iter()
        .map(|(p, s)| (p, s.shard, s.figures.into_iter()))
        .collect();
    let mut report = Report::new(paper, &options, &figures, &out)?;
    for f in &figures {
        let fo = paper.figure_options(f, &options);
        let mut parts = Vec::with_capacity(per_shard.len());
        for (path, shard, figs) in &mut per_shard {
            let sf = figs
                .next()
                .with_context(|| format!("{}: no records of figure {}", path.display(), f.id))?;
            ensure!(
                sf.id == f.id,
                "{}: figure {} where the arguments select {}",
                path.display(),
                sf.id,
                f.id
            );
            let labels: Vec<&str> = sf.curves.iter().map(|c| c.label.as_str()).collect();
            ensure!(
                labels == f.curves,
                "{}: figure {} has the curves {labels:?}, the paper's are {:?}",
                path.display(),
                f.id,
                f.curves
            );
            parts.push((path.as_path(), *shard, sf.curves));
        }
        let result = merge_figure(f, &fo, parts)?;
        report.figure(result)?;
    }
    for (path, _, mut figs) in per_shard {
        if let Some(extra) = figs.next() {
            bail!(
                "{}: records of figure {} beyond those the arguments select",
                path.display(),
                extra.id
            );
        }
    }
    report.finish(total)
}

/// Figure `f`'s curves from its shards' records (`parts`, in shard order), under the figure's
/// options `fo`.
fn merge_figure(
    f: &Figure,
    fo: &Options,
    parts: Vec<(&Path, Shard, Vec<ShardCurve>)>,
) -> anyhow::Result<FigureResult> {
    let whole = fo.run_config();
    let mut curves: Vec<Option<CurveRecords>> = f.curves.iter().map(|_| None).collect();
    for (path, shard, shard_curves) in parts {
        let expected = fo.clone().with_shard(Some(shard)).run_config();
        for (slot, c) in curves.iter_mut().zip(shard_curves) {
            let at = || format!("{}: figure {}, curve {}", path.display(), f.id, c.label);
            ensure!(
                c.batch.config == expected,
                "{}: the batch's configuration {:?} is not the figure's {expected:?}",
                at(),
                c.batch.config
            );
            ensure!(
                c.batch
                    .trials
                    .iter()
                    .map(|t| t.trial)
                    .eq(expected.trial_indices()),
                "{}: the records are not the trials {:?} of shard {shard}",
                at(),
                expected.trial_indices()
            );
            let diagnostics: Diagnostics =
                c.diagnostics.into_iter().map(|(n, v)| (n, v.0)).collect();
            let table = match c.table {
                None => None,
                Some(t) => {
                    let mut table = RunTable::new(t.columns);
                    for row in t.rows {
                        table
                            .push(row.into_iter().map(|v| v.0).collect())
                            .with_context(at)?;
                    }
                    Some(table)
                }
            };
            match slot {
                None => {
                    *slot = Some(CurveRecords {
                        label: c.label,
                        batch: BatchResult {
                            config: whole,
                            trials: c.batch.trials,
                        },
                        seconds: c.seconds,
                        diagnostics,
                        table,
                    });
                }
                Some(m) => {
                    m.batch.trials.extend(c.batch.trials);
                    m.seconds += c.seconds;
                    m.diagnostics.extend(diagnostics);
                    m.table = match (m.table.take(), table) {
                        (None, None) => None,
                        (Some(mut a), Some(b)) => {
                            ensure!(
                                a.columns() == b.columns(),
                                "{}: the diagnostics table's columns differ from the other \
                                 shards'",
                                at()
                            );
                            for row in b.rows() {
                                a.push(row.clone()).with_context(at)?;
                            }
                            Some(a)
                        }
                        _ => bail!(
                            "{}: a diagnostics table in some shards and not in others",
                            at()
                        ),
                    };
                }
            }
        }
    }
    let curves = curves
        .into_iter()
        .map(|c| {
            let c = c.context("a figure without shards")?;
            CurveResult::of(c, f.metric).map_err(anyhow::Error::from)
        })
        .collect::<anyhow::Result<_>>()?;
    Ok(FigureResult {
        figure: f.clone(),
        curves,
    })
}
