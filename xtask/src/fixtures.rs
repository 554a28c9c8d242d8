//! `cargo xtask fixtures [--check]`: rewrite or compare the golden fixtures.

use anyhow::bail;

/// Options of `fixtures`.
#[derive(clap::Args)]
pub struct Args {
    /// Compare instead of rewriting; exit non-zero on any difference.
    #[arg(long)]
    check: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let root = crate::workspace_root().join("fixtures");
    let all = checks::all_fixtures().map_err(anyhow::Error::msg)?;
    if args.check {
        let diffs = verification::fixtures::compare_all(&root, &all).map_err(anyhow::Error::msg)?;
        if diffs.is_empty() {
            println!("every fixture matches the library");
            return Ok(());
        }
        for d in &diffs {
            println!("{d}");
        }
        bail!("{} fixture difference(s)", diffs.len());
    }
    let written = verification::fixtures::write_all(&root, &all).map_err(anyhow::Error::msg)?;
    for p in &written {
        println!("wrote fixtures/{}", p.display());
    }
    println!("{} fixtures written", written.len());
    Ok(())
}
