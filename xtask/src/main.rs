//! `cargo xtask`: the workspace's commands. One module per subcommand.
//!
//! - `verify`: run the verification checks, write `target/verify/report.{json,md}`.
//! - `fixtures`: rewrite the golden fixtures under `fixtures/` (or `--check` them).
//! - `compare`: compare another implementation's fixture outputs with ours, field by field.
//! - `audit`: audit another implementation's mechanism from its outputs (with the split given
//!   as files: streamed, whole or as shards merged by `audit merge`).
//! - `audit-mechanism`: audit a mechanism of the `privacy` crate (with a planted calibration
//!   error if asked), in one process or as shards (`--shard i/n`) merged by `audit-mechanism
//!   merge`.
//! - `accountant`: the epsilon of the Poisson-subsampled Gaussian under each accountant, or
//!   (`--target-eps`) the smallest noise multiplier reaching a target epsilon; `accountant
//!   jdp-qff`: the privacy a node sigma of Dubey's tree implies, or the sigma for a target.
//! - `reproduce`: regenerate a paper's experiments under `target/reproduce/`.
//! - `bench`: run the criterion benchmarks and the whole-process timings.
//! - `mutants`: mutation testing of the privacy-critical files (cargo-mutants).
//!
//! `reproduce` and `bench` know the papers of [`papers`]'s table; `--data-dir` resolves the
//! same way everywhere ([`data_dir`]); long runs share one progress bar style ([`progress`]).

mod accountant;
mod audit;
mod audit_mechanism;
mod audit_shards;
mod bench;
mod compare;
mod data_dir;
mod fixtures;
mod mutants;
mod papers;
mod pld_comparison;
mod progress;
mod reproduce;
mod verify;

use std::path::PathBuf;

use clap::{Parser, Subcommand};

/// The workspace root (the parent of this crate's folder).
pub fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace")
        .to_path_buf()
}

#[derive(Parser)]
#[command(
    name = "cargo xtask",
    about = "Verification, fixtures, reproduction and benchmarks of the DP-GP-bandit workspace"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the verification checks and write target/verify/report.{json,md}.
    Verify(verify::Args),
    /// Rewrite (or with --check, compare) the golden fixtures under fixtures/.
    Fixtures(fixtures::Args),
    /// Compare another implementation's outputs for the fixtures (a folder laid out like
    /// fixtures/) with ours, per field, against each fixture's stated tolerance.
    Compare(compare::Args),
    /// Run benchmarks: criterion benches of a crate and a paper's whole-process timings.
    Bench(bench::Args),
    /// Epsilon of the Poisson-subsampled Gaussian under the rdp-paper, rdp and pld accountants,
    /// or with --target-eps the smallest noise multiplier reaching a target epsilon;
    /// `accountant jdp-qff`: the privacy of a node sigma of Dubey's tree, or the sigma for a target.
    Accountant(accountant::Args),
    /// Audit another implementation's mechanism from its outputs under two neighbouring inputs
    /// (files or a command), against a claimed eps/delta, mu or rho; with --train-x the
    /// held-out files are streamed, whole or as shards (--shard i/n --out FILE) that `audit
    /// merge FILES` sums into the same certificate.
    Audit(audit::Args),
    /// Audit the privacy crate's Laplace or Gaussian mechanism (optionally with its noise
    /// scaled by --scale-factor), whole or as shards (--shard i/n --out FILE) that
    /// `audit-mechanism merge FILES` sums into the same certificate.
    AuditMechanism(audit_mechanism::Args),
    /// Mutation testing (cargo-mutants) of the privacy-critical files, with the score and the
    /// list of equivalent mutants.
    Mutants(mutants::Args),
    /// Regenerate a paper's experiments (CSV, SVG, Markdown) under target/reproduce/PAPER.
    Reproduce(reproduce::Args),
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Command::Verify(a) => verify::run(a),
        Command::Fixtures(a) => fixtures::run(a),
        Command::Compare(a) => compare::run(a),
        Command::Bench(a) => bench::run(a),
        Command::Accountant(a) => accountant::run(a),
        Command::Audit(a) => audit::run(a),
        Command::AuditMechanism(a) => audit_mechanism::run(a),
        Command::Reproduce(a) => reproduce::run(a),
        Command::Mutants(a) => mutants::run(a),
    }
}
