#![doc = include_str!("../../docs/verification.md")]

pub mod audit;
pub mod check;
pub mod fixtures;
pub mod outcome;
pub mod plot;
pub mod report;
pub mod report_html;
pub mod scaling;
pub mod stats;

pub use check::{
    Check, CheckError, CheckResult, Context, Mode, Progress, Settings, run_check, run_checks,
};
pub use outcome::{AuditSection, AuditSummary, CheckKind, Outcome, Verdict, verdict};
pub use report::{CheckRecord, Report};
