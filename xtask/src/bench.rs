//! `cargo xtask bench [CRATE]`: run the criterion benchmarks of one crate (or all), so that
//! speed targets are measured by benchmarks and never by timed unit tests.

use std::process::Command;

use anyhow::bail;

/// Options of `bench`.
#[derive(clap::Args)]
pub struct Args {
    /// The crate whose benches to run (`kernel`, `privacy`, ...); all when omitted.
    target: Option<String>,
    /// Extra arguments passed to criterion (after `--`), e.g. a benchmark name filter.
    #[arg(last = true)]
    criterion: Vec<String>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cmd.current_dir(crate::workspace_root()).arg("bench");
    match &args.target {
        Some(t) => {
            cmd.args(["--package", t]);
        }
        None => {
            cmd.arg("--workspace");
        }
    }
    if !args.criterion.is_empty() {
        cmd.arg("--").args(&args.criterion);
    }
    let status = cmd.status()?;
    if !status.success() {
        bail!("cargo bench failed ({status})");
    }
    Ok(())
}
