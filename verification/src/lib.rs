//! Verification of the workspace: the checks of `cargo xtask verify` (privacy audits, regret
//! scaling, accuracy of kernels and accountants), the report they produce, and the golden
//! fixtures. See `docs/verification.md`.

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
