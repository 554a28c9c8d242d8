#![doc = include_str!("../../docs/verification.md")]

pub mod audit;
pub mod check;
pub mod checks;
pub mod fixtures;
pub mod plot;
pub mod report;
pub mod scaling;
pub mod shared;
pub mod stats;

pub use check::{
    Check, CheckError, CheckResult, Context, Mode, Outcome, Progress, Settings, run_check,
    run_checks, verdict,
};
pub use report::{CheckKind, CheckRecord, Report, Verdict};
