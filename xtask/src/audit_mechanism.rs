//! `cargo xtask audit-mechanism`: audit a mechanism of the `privacy` crate on its worst-case
//! pair, in one process or as shards merged afterwards.
//!
//! ```text
//! cargo xtask audit-mechanism --mechanism laplace --scale-factor 0.98 --samples 100000000
//! cargo xtask audit-mechanism --mechanism laplace --scale-factor 0.98 --samples 100000000 \
//!     --shard 0/4 --out shard0.json          # ... one process per shard 0/4 to 3/4
//! cargo xtask audit-mechanism merge shard0.json shard1.json shard2.json shard3.json
//! ```
//!
//! Mechanisms: `laplace` (`privacy::LaplaceMechanism`, pure `--eps`-DP for L1 sensitivity
//! `--sensitivity`) and `gaussian` (`privacy::GaussianMechanism::zcdp`, `--rho`-zCDP for L2
//! sensitivity `--sensitivity`, audited also on its Gaussian-DP curve, epsilon certified at
//! `--delta`), both with the hardened sampler. `--scale-factor f` plants a calibration error:
//! the noise released has `f` times the scale the claim is calibrated for (the mechanism built
//! for `eps / f`, or `rho / f^2`), while the audit holds it to the claim of the correct one;
//! `f < 1` is a violation (true epsilon `eps / f`). The pair: query values 0 and the
//! sensitivity; the statistic: `-o`, whose level sets are those of the exact log-likelihood
//! ratio of both shifts. Exit status: 0 when no violation is certified (and for a shard), 3
//! when one is, 1 on bad input, 2 on a malformed command line.

use std::path::PathBuf;

use anyhow::{Context, bail};
use privacy::mechanisms::{GaussianMechanism, LaplaceMechanism};
use privacy::{Mechanism, PrivacyClaim};
use verification::audit::{AuditConfig, Known, Shard, ShardCounts, audit_shard, merge};

use crate::audit_shards::{
    ReportOptions, merge_files, report, warn_if_training_small, write_shard,
};

/// Options of `audit-mechanism`.
#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Args {
    #[command(subcommand)]
    merge: Option<Sub>,
    #[command(flatten)]
    run: RunArgs,
}

#[derive(clap::Subcommand)]
enum Sub {
    /// Sum the counts of shard files (every shard i/n of one audit, once) into the audit's
    /// certificate: the same as the unsharded run's.
    Merge(MergeArgs),
}

/// What to print and draw, for a run and a merge.
#[derive(clap::Args)]
struct Output {
    /// Print the certificate as JSON.
    #[arg(long)]
    json: bool,
    /// Where to write the trade-off plot.
    #[arg(long, default_value = "target/audit/mechanism-tradeoff.svg")]
    plot: PathBuf,
    /// Tightness for which to report the held-out outputs needed.
    #[arg(long, default_value_t = 0.9)]
    target_tightness: f64,
}

impl Output {
    fn options(&self) -> ReportOptions<'_> {
        ReportOptions {
            json: self.json,
            plot: &self.plot,
            target_tightness: self.target_tightness,
        }
    }
}

#[derive(clap::Args)]
struct MergeArgs {
    /// The shard files (written by --shard i/n --out FILE).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    #[command(flatten)]
    output: Output,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum Kind {
    /// `privacy::LaplaceMechanism` (hardened sampler), pure eps-DP.
    Laplace,
    /// `privacy::GaussianMechanism::zcdp` (hardened sampler), rho-zCDP.
    Gaussian,
}

#[derive(clap::Args)]
struct RunArgs {
    /// The mechanism to audit.
    #[arg(long, value_enum)]
    mechanism: Option<Kind>,
    /// Laplace: the claimed epsilon.
    #[arg(long, default_value_t = 1.0, allow_negative_numbers = true)]
    eps: f64,
    /// Gaussian: the claimed rho (zCDP).
    #[arg(long, default_value_t = 0.5, allow_negative_numbers = true)]
    rho: f64,
    /// Gaussian: the delta at which epsilon is certified.
    #[arg(long, default_value_t = 1e-5, allow_negative_numbers = true)]
    delta: f64,
    /// The query's sensitivity (L1 for Laplace, L2 for Gaussian); the pair is 0 and this.
    #[arg(long, default_value_t = 1.0, allow_negative_numbers = true)]
    sensitivity: f64,
    /// The released noise's scale as a multiple of the calibrated one (below 1: a violation).
    #[arg(long, default_value_t = 1.0, allow_negative_numbers = true)]
    scale_factor: f64,
    /// Held-out outputs per input (the certified counts).
    #[arg(long, default_value_t = 1_000_000)]
    samples: usize,
    /// Training outputs per input (fitting the statistic, choosing the event); default: the
    /// held-out number up to 1 000 000. Keep it at least a tenth of --samples: the event is
    /// chosen on it.
    #[arg(long)]
    train: Option<usize>,
    /// Training outputs per input kept in memory (about 55 MB per million). When --train is
    /// larger, the candidate events are the first N training outputs' scores and every
    /// training output is drawn again and counted at them, so memory does not grow with
    /// --train (the same certificate whenever --train is at most N).
    #[arg(long, default_value_t = 1 << 20, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(10..))]
    train_in_memory: usize,
    /// Probability of certifying a violation of a claim that holds.
    #[arg(long, default_value_t = 1e-6)]
    alpha: f64,
    /// Base seed (every shard of one audit needs the same).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Draw only shard i of n of the held-out outputs and write its counts to --out (the
    /// certificate, its plot and its sample size come from `merge`).
    #[arg(long, requires = "out", conflicts_with_all = ["json", "plot", "target_tightness"])]
    shard: Option<String>,
    /// With --shard: the file of the shard's counts (JSON).
    #[arg(long, requires = "shard")]
    out: Option<PathBuf>,
    #[command(flatten)]
    output: Output,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    match args.merge {
        Some(Sub::Merge(m)) => merge_files(&m.files, &m.output.options()),
        None => run_audit(&args.run),
    }
}

/// The statistic of both mechanisms: `-o` (x = 0 below x' = sensitivity).
fn statistic() -> Known<impl Fn(&f64) -> f64 + Clone + Send + Sync + 'static> {
    Known::new("exact LLR ordering (-o)", |o: &f64| -*o)
}

fn run_audit(a: &RunArgs) -> anyhow::Result<()> {
    let Some(kind) = a.mechanism else {
        bail!("give --mechanism laplace|gaussian (or the merge subcommand)");
    };
    let f = a.scale_factor;
    if !(f.is_finite() && f > 0.0) {
        bail!("--scale-factor {f}: must be a positive number");
    }
    let shard = match &a.shard {
        Some(s) => s.parse::<Shard>()?,
        None => Shard::WHOLE,
    };
    let train = a.train.unwrap_or(a.samples.min(1_000_000));
    warn_if_training_small(train, a.samples);
    let mut config = AuditConfig::new(a.samples, a.alpha, a.seed).train(train);
    if train > a.train_in_memory {
        config = config.pilot(a.train_in_memory);
    }
    let d = a.sensitivity;
    let counts = match kind {
        Kind::Laplace => {
            let claimed = LaplaceMechanism::new(a.eps, d).context("--eps, --sensitivity")?;
            let released = LaplaceMechanism::new(a.eps / f, d).context("--eps / --scale-factor")?;
            let label = format!(
                "privacy::LaplaceMechanism::new({}, {d}) (hardened) claimed; released: noise \
                 scale {} = {f} x {} (LaplaceMechanism::new({}, {d})); query values 0 and {d}",
                a.eps,
                released.scale(),
                claimed.scale(),
                a.eps / f
            );
            shard_of(&released, &claimed.claim(), d, &config, &label, shard)?
        }
        Kind::Gaussian => {
            let claimed = GaussianMechanism::zcdp(a.rho, d).context("--rho, --sensitivity")?;
            let released =
                GaussianMechanism::zcdp(a.rho / (f * f), d).context("--rho / --scale-factor^2")?;
            let label = format!(
                "privacy::GaussianMechanism::zcdp({}, {d}) (hardened) claimed; released: sigma \
                 {} = {f} x {} (GaussianMechanism::zcdp({}, {d})); query values 0 and {d}",
                a.rho,
                released.sigma(),
                claimed.sigma(),
                a.rho / (f * f)
            );
            let config = config.delta(a.delta).gaussian(Some(d / claimed.sigma()));
            shard_of(&released, &claimed.claim(), d, &config, &label, shard)?
        }
    };
    match &a.out {
        Some(path) => {
            write_shard(path, &counts)?;
            println!(
                "shard {shard}: {} held-out outputs per input of {}, written to {} (fingerprint {})",
                counts.counts.outputs_x,
                a.samples,
                path.display(),
                counts.fingerprint
            );
            Ok(())
        }
        None => {
            let result = merge(std::slice::from_ref(&counts))?;
            report(
                &counts.plan.label,
                &result,
                &counts.plan.config,
                &a.output.options(),
                None,
            )
        }
    }
}

/// Audit shard `shard` of `released` against `claim` on the pair `(0, d)`.
fn shard_of<M>(
    released: &M,
    claim: &PrivacyClaim,
    d: f64,
    config: &AuditConfig,
    label: &str,
    shard: Shard,
) -> anyhow::Result<ShardCounts>
where
    M: Mechanism<Input = f64, Output = f64> + Sync,
{
    Ok(audit_shard(
        |x, rng| released.release(x, rng),
        &0.0,
        &d,
        claim,
        &statistic(),
        config,
        label,
        shard,
    )?)
}
