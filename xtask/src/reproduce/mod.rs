//! `cargo xtask reproduce PAPER`: regenerate a paper's experiments (CSV, SVG, Markdown summary)
//! under `target/reproduce/PAPER/`.

mod ldp_bo;
mod plot;

use std::path::PathBuf;

use anyhow::bail;

/// Options of `reproduce`.
#[derive(clap::Args)]
pub struct Args {
    /// The paper's crate: `ldp-bo`.
    paper: String,
    /// Independent trials per curve.
    #[arg(long, default_value_t = 10)]
    trials: usize,
    /// Rounds per trial.
    #[arg(long, default_value_t = 1000)]
    horizon: usize,
    /// Base seed (trial i of every run is seeded from (seed, i)).
    #[arg(long, default_value_t = 2021)]
    seed: u64,
    /// Only these figure panels (comma-separated ids, e.g. `fig2a,fig3b`).
    #[arg(long, value_delimiter = ',')]
    only: Vec<String>,
    /// Folder of the shared data sets.
    #[arg(long, default_value = "../shared/data")]
    data_dir: PathBuf,
    /// Output folder (default `target/reproduce/PAPER`).
    #[arg(long)]
    out: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let root = crate::workspace_root();
    let data_dir = if args.data_dir.is_absolute() {
        args.data_dir.clone()
    } else {
        root.join(&args.data_dir)
    };
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| root.join("target/reproduce").join(&args.paper));
    if args.trials == 0 || args.horizon == 0 {
        bail!("--trials and --horizon must be >= 1");
    }
    match args.paper.as_str() {
        "ldp-bo" => ldp_bo::run(&args, &data_dir, &out),
        other => bail!("no reproduction for {other:?}; available: ldp-bo"),
    }
}
