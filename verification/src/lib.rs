#![doc = include_str!("../../docs/verification.md")]

pub mod audit;
pub mod check;
pub mod checks;
pub mod fixtures;
pub mod plot;
pub mod report;
pub mod scaling;
pub mod stats;

pub use check::{Check, Context, Mode, Outcome, Progress, run_checks, verdict};
pub use report::{CheckKind, CheckRecord, Report, Verdict};
