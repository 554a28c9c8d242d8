//! Verification of the workspace: the checks of `cargo xtask verify` (privacy audits, regret
//! scaling, accuracy of kernels and accountants), the report they produce, and the golden
//! fixtures. See `docs/verification.md`.

pub mod check;
pub mod checks;
pub mod fixtures;
pub mod report;

pub use check::{Check, Context, Mode, Outcome, Progress, run_checks, verdict};
pub use report::{CheckKind, CheckRecord, Report, Verdict};
