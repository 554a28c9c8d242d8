//! Checks and the runner that turns them into a [`Report`].
//!
//! A check is a function `fn(&Context) -> CheckResult`. The [`Context`] knows the check's id,
//! its seeds and where its plots go; the check returns an [`Outcome`] (what was checked, what
//! must hold, what was measured, the verdict) or a [`CheckError`], which the runner records as a
//! failure with the error's message. The runner adds the id and the time: a [`CheckRecord`] is
//! the id, the seconds and the outcome, nothing copied by hand.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

use crate::outcome::{CheckKind, Outcome, Verdict};
use crate::report::{CheckRecord, Report};

/// How much effort a verify run spends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The default: every check at a budget that keeps the whole run (build included) within
    /// about 15 minutes on 2 cores.
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

/// The settings of one verify run, shared by every check.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Effort.
    pub mode: Mode,
    /// Base seed; every check derives its own seeds from it and a name.
    pub seed: u64,
    /// Folder of the report (`target/verify`): plots go in `plots/` below it.
    pub out_dir: PathBuf,
    /// Folder of the shared data sets (default `../shared/data`).
    pub data_dir: PathBuf,
}

/// FNV-1a of `name` mixed with the base seed: a named random stream, so that adding a check (or
/// a stream) never changes another one's randomness.
pub fn named_seed(base: u64, name: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ base;
    for b in name.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// What a check receives: the run's settings and the check's own identity.
#[derive(Debug, Clone)]
pub struct Context {
    /// Effort.
    pub mode: Mode,
    /// The run's base seed.
    pub seed: u64,
    /// Folder of the report (`target/verify`).
    pub out_dir: PathBuf,
    /// Folder of the shared data sets.
    pub data_dir: PathBuf,
    id: &'static str,
    seed_key: &'static str,
}

impl Context {
    /// The context of check `check` in a run with `settings`.
    pub fn new(settings: &Settings, check: &Check) -> Self {
        Self {
            mode: settings.mode,
            seed: settings.seed,
            out_dir: settings.out_dir.clone(),
            data_dir: settings.data_dir.clone(),
            id: check.id,
            seed_key: check.seed_key,
        }
    }

    /// The check's id (`area/what/case`).
    pub fn id(&self) -> &'static str {
        self.id
    }

    /// The check's own seed: the stream named by its seed key (its id, unless the check was
    /// renamed after its numbers were published; see [`Check::seeded_as`]).
    pub fn check_seed(&self) -> u64 {
        named_seed(self.seed, self.seed_key)
    }

    /// The seed of a named stream (shared by checks that must see the same data, or a
    /// sub-task of one check): see [`named_seed`].
    pub fn seed_for(&self, name: &str) -> u64 {
        named_seed(self.seed, name)
    }

    /// The seed of sub-stream `part` of this check (`"<seed key>/<part>"`).
    pub fn sub_seed(&self, part: &str) -> u64 {
        named_seed(self.seed, &format!("{}/{part}", self.seed_key))
    }

    /// The folder for plots (created on demand by the plotting code).
    pub fn plot_dir(&self) -> PathBuf {
        self.out_dir.join("plots")
    }

    /// A plot of this check: `(path relative to the report, absolute path)`.
    pub fn plot_path(&self, suffix: &str) -> (String, PathBuf) {
        let rel = crate::plot::relative_path(self.id, suffix);
        let abs = self.out_dir.join(&rel);
        (rel, abs)
    }
}

/// Why a check could not produce an outcome: the error of the library call that failed (its
/// type kept as the source, so it can be downcast), or a message of the check itself. The
/// runner records it as a failed check with this message.
///
/// Any error type converts into it with `?`, as with `anyhow::Error` (which is why
/// `CheckError` does not itself implement `std::error::Error`).
pub struct CheckError(Box<dyn std::error::Error + Send + Sync + 'static>);

impl CheckError {
    /// An error of the check's own logic (an impossible state, a failed precondition).
    pub fn msg(message: impl Into<String>) -> Self {
        Self(message.into().into())
    }

    /// The underlying error.
    pub fn source_error(&self) -> &(dyn std::error::Error + Send + Sync + 'static) {
        &*self.0
    }
}

impl<E: std::error::Error + Send + Sync + 'static> From<E> for CheckError {
    fn from(e: E) -> Self {
        Self(Box::new(e))
    }
}

/// So that a closure of a check can return a `CheckError` where the auditor or the scaling
/// checker takes any error (`Into<Box<dyn Error + Send + Sync>>`).
impl From<CheckError> for Box<dyn std::error::Error + Send + Sync + 'static> {
    fn from(e: CheckError) -> Self {
        e.0
    }
}

impl std::fmt::Display for CheckError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)?;
        let mut source = self.0.source();
        while let Some(s) = source {
            write!(f, ": {s}")?;
            source = s.source();
        }
        Ok(())
    }
}

impl std::fmt::Debug for CheckError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CheckError({self})")
    }
}

/// What a check returns.
pub type CheckResult = Result<Outcome, CheckError>;

/// A check: an id and the function that runs it. An `Err` or a panic is recorded as a failure
/// with its message.
#[derive(Clone, Copy)]
pub struct Check {
    /// Identifier, prefixed by area (`kernel/qff/se-1d-grid`).
    pub id: &'static str,
    /// The name the check's own random stream is derived from ([`Context::check_seed`]).
    pub seed_key: &'static str,
    /// The check.
    pub run: fn(&Context) -> CheckResult,
    /// Run only in [`Mode::Full`]: its budget does not fit the quick run. A quick run lists it
    /// in [`Report::full_only_not_run`] instead of running it.
    pub full_only: bool,
}

impl Check {
    /// A check whose random stream is named by its id.
    pub const fn new(id: &'static str, run: fn(&Context) -> CheckResult) -> Self {
        Self {
            id,
            seed_key: id,
            run,
            full_only: false,
        }
    }

    /// Run this check only with `--full` ([`Check::full_only`]).
    pub const fn full_only(mut self) -> Self {
        self.full_only = true;
        self
    }

    /// Whether a run in `mode` runs this check (a full-only one runs only in [`Mode::Full`]).
    pub fn runs_in(&self, mode: Mode) -> bool {
        mode == Mode::Full || !self.full_only
    }

    /// Keep the random stream of an earlier id (`key`), so that a renamed check reproduces the
    /// numbers it published under its old name.
    pub const fn seeded_as(mut self, key: &'static str) -> Self {
        self.seed_key = key;
        self
    }
}

/// Progress events of [`run_checks`].
#[derive(Debug, Clone)]
pub enum Progress<'a> {
    /// A check starts (index, total, id).
    Start(usize, usize, &'a str),
    /// A check finished.
    Done(&'a CheckRecord),
}

/// Run one check: its outcome, or a failed record with the error's or the panic's message.
pub fn run_check(check: &Check, settings: &Settings) -> CheckRecord {
    let ctx = Context::new(settings, check);
    let t = Instant::now();
    let result = catch_unwind(AssertUnwindSafe(|| (check.run)(&ctx)));
    let seconds = t.elapsed().as_secs_f64();
    let outcome = match result {
        Ok(Ok(o)) => o,
        Ok(Err(err)) => failed(check.id, format!("error: {err}")),
        Err(panic) => {
            let msg = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "unknown panic".into());
            failed(check.id, format!("panicked: {msg}"))
        }
    };
    CheckRecord {
        id: check.id.to_string(),
        seconds,
        outcome,
    }
}

/// Run every check whose id starts with `only` (all when `None`) and assemble the report, in
/// the order of `checks`.
///
/// `jobs` checks run at a time (at least 1), each started in list order by the next free
/// worker. Checks are independent: each draws only from its own seeded streams (named by its
/// id), so its outcome does not depend on `jobs` or on what runs beside it; only its recorded
/// `seconds` (wall time, longer when checks share the cores) does. `progress` sees each start
/// and finish as it happens (interleaved when `jobs > 1`).
pub fn run_checks(
    checks: &[Check],
    settings: &Settings,
    only: Option<&str>,
    jobs: usize,
    progress: impl FnMut(Progress<'_>) + Send,
) -> Report {
    let started = Instant::now();
    let (selected, not_run): (Vec<&Check>, Vec<&Check>) = checks
        .iter()
        .filter(|c| only.is_none_or(|p| c.id.starts_with(p)))
        .partition(|c| c.runs_in(settings.mode));
    let total = selected.len();
    let progress = Mutex::new(progress);
    let report = |event: Progress<'_>| {
        (progress.lock().unwrap_or_else(PoisonError::into_inner))(event);
    };
    let next = AtomicUsize::new(0);
    let slots: Vec<Mutex<Option<CheckRecord>>> = (0..total).map(|_| Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, total.max(1)) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&check) = selected.get(i) else { break };
                    report(Progress::Start(i, total, check.id));
                    let record = run_check(check, settings);
                    report(Progress::Done(&record));
                    *slots[i].lock().unwrap_or_else(PoisonError::into_inner) = Some(record);
                }
            });
        }
    });
    let records = slots
        .into_iter()
        .map(|slot| {
            slot.into_inner()
                .unwrap_or_else(PoisonError::into_inner)
                .expect("every selected check ran")
        })
        .collect();
    let mut report = Report::new(
        settings.mode.name(),
        only.map(str::to_string),
        settings.seed,
        started.elapsed().as_secs_f64(),
        records,
    );
    report.full_only_not_run = not_run.iter().map(|c| c.id.to_string()).collect();
    report
}

fn failed(id: &str, measured: String) -> Outcome {
    Outcome::new(
        CheckKind::Sanity,
        id,
        "the check runs to completion",
        measured,
        Verdict::Fail,
    )
}
