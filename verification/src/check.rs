//! Checks and the runner that turns them into a [`Report`].

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::time::Instant;

use crate::report::{CheckKind, CheckRecord, Report, Verdict};

/// How much effort a verify run spends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The default: every check at a budget that keeps the whole run (build included) within
    /// about 10 minutes on 2 cores.
    Quick,
    /// Larger budgets: tighter bounds, more seeds, longer horizons.
    Full,
}

impl Mode {
    /// `"quick"` or `"full"`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Quick => "quick",
            Self::Full => "full",
        }
    }

    /// Pick `quick` or `full` by mode.
    pub fn pick<T>(self, quick: T, full: T) -> T {
        match self {
            Self::Quick => quick,
            Self::Full => full,
        }
    }
}

/// What every check receives.
#[derive(Debug, Clone)]
pub struct Context {
    /// Effort.
    pub mode: Mode,
    /// Base seed; a check derives its own seeds from it and its id.
    pub seed: u64,
    /// Folder of the report (`target/verify`): plots go in `plots/` below it.
    pub out_dir: PathBuf,
    /// Folder of the shared data sets (default `../shared/data`).
    pub data_dir: PathBuf,
}

impl Context {
    /// A seed for a named sub-task of a check: FNV-1a of the name mixed with the base seed, so
    /// that adding a check never changes another check's randomness.
    pub fn seed_for(&self, name: &str) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ self.seed;
        for b in name.bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
        h
    }

    /// The folder for plots (created on demand by the plotting code).
    pub fn plot_dir(&self) -> PathBuf {
        self.out_dir.join("plots")
    }
}

/// What a check returns; the runner adds the id and the time.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The kind of evidence.
    pub kind: CheckKind,
    /// What is checked.
    pub subject: String,
    /// What must hold.
    pub claim: String,
    /// What was measured.
    pub measured: String,
    /// The verdict.
    pub verdict: Verdict,
    /// Machine-readable numbers.
    pub values: serde_json::Map<String, serde_json::Value>,
    /// Probability of a false failure (statistical checks).
    pub false_alarm_probability: Option<f64>,
    /// Audit fields.
    pub audit: Option<serde_json::Value>,
    /// Plots relative to the report folder.
    pub plots: Vec<String>,
}

impl Outcome {
    /// An outcome with the given texts and verdict and nothing else.
    pub fn new(
        kind: CheckKind,
        subject: impl Into<String>,
        claim: impl Into<String>,
        measured: impl Into<String>,
        verdict: Verdict,
    ) -> Self {
        Self {
            kind,
            subject: subject.into(),
            claim: claim.into(),
            measured: measured.into(),
            verdict,
            values: serde_json::Map::new(),
            false_alarm_probability: None,
            audit: None,
            plots: Vec::new(),
        }
    }

    /// Add a machine-readable value.
    pub fn value(mut self, name: &str, v: impl serde::Serialize) -> Self {
        self.values.insert(
            name.to_string(),
            serde_json::to_value(v).unwrap_or(serde_json::Value::Null),
        );
        self
    }

    /// State the false-alarm probability.
    pub fn false_alarm(mut self, p: f64) -> Self {
        self.false_alarm_probability = Some(p);
        self
    }

    /// Attach audit fields.
    pub fn audit(mut self, a: serde_json::Value) -> Self {
        self.audit = Some(a);
        self
    }

    /// Attach a plot.
    pub fn plot(mut self, path: impl Into<String>) -> Self {
        self.plots.push(path.into());
        self
    }
}

/// `pass` when `ok`, else `fail`.
pub fn verdict(ok: bool) -> Verdict {
    if ok { Verdict::Pass } else { Verdict::Fail }
}

/// A check: an id and the function that runs it. An `Err` or a panic is recorded as a failure
/// with its message.
#[derive(Clone, Copy)]
pub struct Check {
    /// Identifier, prefixed by area.
    pub id: &'static str,
    /// The check.
    pub run: fn(&Context) -> Result<Outcome, String>,
}

/// Progress events of [`run_checks`].
#[derive(Debug, Clone)]
pub enum Progress<'a> {
    /// A check starts (index, total, id).
    Start(usize, usize, &'a str),
    /// A check finished.
    Done(&'a CheckRecord),
}

/// Run every check whose id starts with `only` (all when `None`), in order, and assemble the
/// report.
pub fn run_checks(
    checks: &[Check],
    ctx: &Context,
    only: Option<&str>,
    mut progress: impl FnMut(Progress<'_>),
) -> Report {
    let started = Instant::now();
    let selected: Vec<&Check> = checks
        .iter()
        .filter(|c| only.is_none_or(|p| c.id.starts_with(p)))
        .collect();
    let mut records = Vec::with_capacity(selected.len());
    for (i, check) in selected.iter().enumerate() {
        progress(Progress::Start(i, selected.len(), check.id));
        let t = Instant::now();
        let result = catch_unwind(AssertUnwindSafe(|| (check.run)(ctx)));
        let seconds = t.elapsed().as_secs_f64();
        let record = match result {
            Ok(Ok(o)) => CheckRecord {
                id: check.id.to_string(),
                kind: o.kind,
                subject: o.subject,
                claim: o.claim,
                measured: o.measured,
                verdict: o.verdict,
                seconds,
                values: o.values,
                false_alarm_probability: o.false_alarm_probability,
                audit: o.audit,
                plots: o.plots,
            },
            Ok(Err(msg)) => failed(check.id, seconds, format!("error: {msg}")),
            Err(panic) => {
                let msg = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_else(|| "unknown panic".into());
                failed(check.id, seconds, format!("panicked: {msg}"))
            }
        };
        progress(Progress::Done(&record));
        records.push(record);
    }
    Report::new(
        ctx.mode.name(),
        only.map(str::to_string),
        ctx.seed,
        started.elapsed().as_secs_f64(),
        records,
    )
}

fn failed(id: &str, seconds: f64, measured: String) -> CheckRecord {
    CheckRecord {
        id: id.to_string(),
        kind: CheckKind::Sanity,
        subject: id.to_string(),
        claim: "the check runs to completion".into(),
        measured,
        verdict: Verdict::Fail,
        seconds,
        values: serde_json::Map::new(),
        false_alarm_probability: None,
        audit: None,
        plots: Vec::new(),
    }
}
