//! `cargo xtask bench [CRATE]`: run the criterion benchmarks of one crate (or all), so that
//! speed targets are measured by benchmarks and never by timed unit tests.

use std::process::Command;

use anyhow::bail;

/// Options of `bench`.
#[derive(clap::Args)]
pub struct Args {
    /// Skip the criterion benches (run only the whole-process timings, where a crate has them).
    #[arg(long)]
    timings_only: bool,
    /// The crate whose benches to run (`kernel`, `privacy`, ...); all when omitted.
    target: Option<String>,
    /// Extra arguments passed to criterion (after `--`), e.g. a benchmark name filter.
    #[arg(last = true)]
    criterion: Vec<String>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if !args.timings_only {
        criterion(&args)?;
    }
    if args.target.as_deref() == Some("ldp-bo") {
        ldp_bo_timings()?;
    }
    Ok(())
}

/// A full 10-trial run of all six algorithms of Zhou & Tan 2021 at T = 1000 on the synthetic
/// problems (LDP on SE with eps = 1, Figure 3(a); non-private heavy-tailed on SE, Figure 2(d)),
/// timed per algorithm and as a whole, in this process (release-like dev profile, all cores).
fn ldp_bo_timings() -> anyhow::Result<()> {
    use ldp_bo::experiments::{self, Algorithm, AlgorithmParams, FIGURES, Source};
    let (horizon, trials) = (1000usize, 10usize);
    let config = bandit::runner::RunConfig {
        horizon,
        n_trials: trials,
        base_seed: 2021,
    };
    let params = AlgorithmParams::new(horizon as u64);
    let started = std::time::Instant::now();
    println!(
        "ldp-bo: {trials} trials x T = {horizon}, synthetic SE problem, {} rayon threads",
        rayon::current_num_threads()
    );
    for id in ["fig3a", "fig2d"] {
        let f = FIGURES.iter().find(|f| f.id == id).expect("figure exists");
        let source = Source::load(f.problem, &bandit::dataset::default_data_dir())?;
        for alg in Algorithm::ALL {
            let t0 = std::time::Instant::now();
            let r = experiments::run(&source, f.setting, alg, &params, &config)?;
            let secs = t0.elapsed().as_secs_f64();
            let mean = r.final_cumulative_regrets().iter().sum::<f64>() / trials as f64;
            println!(
                "  {:<16} {secs:>7.2} s  ({:.2} ms per round per trial; mean R_T = {mean:.1})",
                alg.name(f.setting),
                1e3 * secs / (horizon * trials) as f64
            );
        }
    }
    println!(
        "  all six algorithms: {:.2} s",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

fn criterion(args: &Args) -> anyhow::Result<()> {
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
