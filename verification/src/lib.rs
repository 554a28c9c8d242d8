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
pub mod shared;
pub mod stats;

pub use check::{
    Check, CheckError, CheckResult, Context, Mode, Outcome, Progress, Settings, run_check,
    run_checks, verdict,
};
pub use report::{CheckKind, CheckRecord, Report, Verdict};
