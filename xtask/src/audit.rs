//! `cargo xtask audit`: audit another implementation's mechanism from its outputs.
//!
//! ```text
//! cargo xtask audit --x OUT_X --x-prime OUT_X_PRIME --eps E [--delta D] [--json]
//! cargo xtask audit --command 'python3 mech.py {input}' --input-x 0 --input-x-prime 1 \
//!     --outputs 40000 --eps 1
//! cargo xtask audit --train-x TRAIN_X --train-x-prime TRAIN_X_PRIME --x HELD_X \
//!     --x-prime HELD_X_PRIME --eps E                 # held-out files streamed
//! cargo xtask audit --train-x ... --x ... --eps E --shard 0/3 --out shard0.json   # ... 2/3
//! cargo xtask audit merge shard0.json shard1.json shard2.json
//! ```
//!
//! The claim: `--eps` (with `--delta`: approximate DP), `--mu` (Gaussian DP) or `--rho` (zCDP).
//! The outputs: two files, one output per line ([`verification::audit::external`]), or a
//! command run with `{input}` replaced by `--input-x` / `--input-x-prime`, each call printing one
//! output or a batch, until `--outputs` outputs per input. Prints the verdict, the certified
//! epsilon lower bound, the tightness, the outputs used and the held-out outputs a target
//! tightness would need; writes the trade-off plot. Exit status: 0 when no violation is
//! certified (and for a shard), 3 when one is, 1 on bad input (with a message), 2 on a
//! malformed command line.
//!
//! With `--train-x` and `--train-x-prime` the split is the user's: those files train, `--x` and
//! `--x-prime` are held out and streamed (counted, never stored:
//! [`verification::audit::external_stream`]), so memory does not grow with the held-out
//! files, and `--shard i/n --out FILE` counts only shard `i`'s chunks of them; `merge` sums the
//! shards into the unsharded run's certificate.

use std::path::PathBuf;
use std::process::Command;

use anyhow::{Context, bail};
use verification::audit::Shard;
use verification::audit::external::{
    ExternalAudit, OutputKind, Outputs, StatedClaim, Verdict, audit_external, parse_outputs,
};
use verification::audit::external_stream::{
    OutputFiles, StreamedFiles, audit_external_shard, audit_external_streamed,
};

use crate::audit_shards::{
    ReportOptions, event_line, merge_files, target_line, warn_if_training_small, write_shard,
};

/// Options of `audit`.
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
    /// Sum the counts of shard files (every shard i/n of one streamed audit, once) into the
    /// audit's certificate: the same as the unsharded run's.
    Merge(MergeArgs),
}

#[derive(clap::Args)]
struct MergeArgs {
    /// The shard files (written by --shard i/n --out FILE).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Print the certificate as JSON.
    #[arg(long)]
    json: bool,
    /// Where to write the trade-off plot.
    #[arg(long, default_value = "target/audit/tradeoff.svg")]
    plot: PathBuf,
    /// Tightness for which to report the held-out outputs needed.
    #[arg(long, default_value_t = 0.9)]
    target_tightness: f64,
}

/// Options of an audit run.
#[derive(clap::Args)]
struct RunArgs {
    /// File of outputs drawn under the input x (one per line); held out with --train-x.
    #[arg(long, requires = "x_prime", conflicts_with = "command")]
    x: Option<PathBuf>,
    /// File of outputs drawn under the neighbouring input x'; held out with --train-x.
    #[arg(long = "x-prime", requires = "x")]
    x_prime: Option<PathBuf>,
    /// File of training outputs drawn under x, independent of the held-out ones: the split is
    /// then the files' (no shuffle, no --train-fraction) and --x / --x-prime are streamed.
    #[arg(long = "train-x", requires_all = ["train_x_prime", "x"], conflicts_with = "train_fraction")]
    train_x: Option<PathBuf>,
    /// File of training outputs drawn under x' (with --train-x).
    #[arg(long = "train-x-prime", requires = "train_x")]
    train_x_prime: Option<PathBuf>,
    /// With --train-x: training outputs per input kept in memory (about 30 MB per million
    /// scalars). Beyond it, the first N are the pilot (fitting the statistic, giving the
    /// candidate events) and the rest are streamed and counted at those candidates, so memory
    /// does not grow with the training files (the same certificate whenever they hold at most N).
    #[arg(long, default_value_t = 1 << 20, requires = "train_x", value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(10..))]
    train_in_memory: usize,
    /// With --train-x: count only shard i of n of the held-out outputs (chunks of 8192 outputs,
    /// round-robin) and write them to --out; every shard reads the same files.
    #[arg(long, requires_all = ["train_x", "out"], conflicts_with_all = ["json", "plot", "target_tightness"])]
    shard: Option<String>,
    /// With --shard: the file of the shard's counts (JSON), for `merge`.
    #[arg(long, requires = "shard")]
    out: Option<PathBuf>,
    /// Instead of files: a shell command printing outputs; `{input}` is replaced by --input-x or
    /// --input-x-prime.
    #[arg(long, requires_all = ["input_x", "input_x_prime"])]
    command: Option<String>,
    /// The value substituted for `{input}` to draw under x.
    #[arg(long = "input-x")]
    input_x: Option<String>,
    /// The value substituted for `{input}` to draw under x'.
    #[arg(long = "input-x-prime")]
    input_x_prime: Option<String>,
    /// Outputs per input to draw with --command.
    #[arg(long, default_value_t = 40_000)]
    outputs: usize,
    /// Claimed epsilon (pure DP, or approximate DP with --delta).
    #[arg(long, conflicts_with_all = ["mu", "rho"], allow_negative_numbers = true)]
    eps: Option<f64>,
    /// Claimed delta with --eps; with --mu or --rho, the delta at which epsilon is bounded.
    #[arg(long, allow_negative_numbers = true)]
    delta: Option<f64>,
    /// Claimed mu (Gaussian DP).
    #[arg(long, conflicts_with = "rho", allow_negative_numbers = true)]
    mu: Option<f64>,
    /// Claimed rho (zero-concentrated DP).
    #[arg(long, allow_negative_numbers = true)]
    rho: Option<f64>,
    /// With --rho: the mechanism adds continuous Gaussian noise (or a discrete Gaussian on a
    /// grid much finer than sigma), for which rho-zCDP is exactly sqrt(2 rho)-GDP, and the
    /// audit also compares on that curve. Never for other noise: a Laplace mechanism is
    /// eps^2/2-zCDP but not eps-GDP, and an integer discrete Gaussian with sigma near 1 has a
    /// test reaching mu 1.046 at sqrt(2 rho) = 1.
    #[arg(long, requires = "rho")]
    gaussian_noise: bool,
    /// Output kind (default: from the first line).
    #[arg(long, value_enum)]
    kind: Option<Kind>,
    /// Statistic (default: histogram, mean-difference or counts by kind).
    #[arg(long)]
    statistic: Option<String>,
    /// Probability of certifying a violation of a claim that holds.
    #[arg(long, default_value_t = 1e-6)]
    alpha: f64,
    /// Share of each file used for training (fitting the statistic, choosing the event).
    #[arg(long, default_value_t = 0.5)]
    train_fraction: f64,
    /// Tightness for which to report the held-out outputs needed.
    #[arg(long, default_value_t = 0.9)]
    target_tightness: f64,
    /// Seed of the split (the in-memory route's shuffle; the streamed route draws nothing).
    #[arg(long, default_value_t = 1, conflicts_with = "train_x")]
    seed: u64,
    /// Where to write the trade-off plot.
    #[arg(long, default_value = "target/audit/tradeoff.svg")]
    plot: PathBuf,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum Kind {
    Scalar,
    Vector,
    Discrete,
}

impl From<Kind> for OutputKind {
    fn from(k: Kind) -> Self {
        match k {
            Kind::Scalar => OutputKind::Scalar,
            Kind::Vector => OutputKind::Vector,
            Kind::Discrete => OutputKind::Discrete,
        }
    }
}

/// A GDP or zCDP claim holds at every delta; the audit certifies epsilon at the one given.
/// The claim of the flags ([`StatedClaim`], shared with the Python auditor).
fn stated(args: &RunArgs) -> StatedClaim {
    StatedClaim {
        eps: args.eps,
        delta: args.delta,
        mu: args.mu,
        rho: args.rho,
        gaussian_noise: args.gaussian_noise,
    }
}

/// Draw `n` outputs from `command` with `{input}` replaced by `input`.
fn draw(command: &str, input: &str, n: usize, kind: Option<OutputKind>) -> anyhow::Result<Outputs> {
    if !command.contains("{input}") {
        bail!("the command {command:?} has no {{input}} to replace by the input");
    }
    // Substituted verbatim (no shell quoting): the input values are the user's own.
    let cmd = command.replace("{input}", input);
    let mut text = String::new();
    let mut count = 0usize;
    while count < n {
        let out = Command::new("sh")
            .args(["-c", &cmd])
            .output()
            .with_context(|| format!("running {cmd:?}"))?;
        if !out.status.success() {
            bail!(
                "{cmd:?} failed ({}): {}",
                out.status,
                String::from_utf8_lossy(&out.stderr)
            );
        }
        let s = String::from_utf8(out.stdout).with_context(|| format!("{cmd:?}: output"))?;
        let lines = s
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.trim().starts_with('#'))
            .count();
        if lines == 0 {
            bail!("{cmd:?} printed no output");
        }
        count += lines;
        text.push_str(&s);
        if !s.ends_with('\n') {
            text.push('\n');
        }
    }
    let mut parsed = parse_outputs(&text, kind, &cmd)?;
    parsed.truncate(n);
    Ok(parsed)
}

fn read(path: &PathBuf, kind: Option<OutputKind>) -> anyhow::Result<Outputs> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    Ok(parse_outputs(&text, kind, &path.display().to_string())?)
}

pub fn run(args: Args) -> anyhow::Result<()> {
    match args.merge {
        Some(Sub::Merge(m)) => merge_files(
            &m.files,
            &ReportOptions {
                json: m.json,
                plot: &m.plot,
                target_tightness: m.target_tightness,
            },
        ),
        None => run_audit(&args.run),
    }
}

/// The streamed audit (--train-x): a shard written to --out, or the whole audit.
fn run_streamed(args: &RunArgs, kind: Option<OutputKind>) -> anyhow::Result<Option<ExternalAudit>> {
    let (Some(tx), Some(txp), Some(hx), Some(hxp)) =
        (&args.train_x, &args.train_x_prime, &args.x, &args.x_prime)
    else {
        bail!("give --train-x, --train-x-prime, --x and --x-prime");
    };
    let stated = stated(args);
    let (claim, _) = stated
        .claim()
        .map_err(|e| anyhow::anyhow!("{e} (--eps, --delta, --mu, --rho)"))?;
    let files = StreamedFiles {
        train: OutputFiles {
            x: tx,
            x_prime: txp,
        },
        held: OutputFiles {
            x: hx,
            x_prime: hxp,
        },
        kind,
        in_memory: args.train_in_memory,
    };
    // Nothing is drawn or shuffled: the plan records seed 0 (--seed conflicts with
    // --train-x), so shards cannot differ in it.
    let config = stated.config(args.alpha, 0)?;
    let statistic = args.statistic.as_deref();
    match (&args.shard, &args.out) {
        (Some(shard), Some(out)) => {
            let shard: Shard = shard.parse()?;
            let counts = audit_external_shard(&files, &claim, statistic, &config, shard)?;
            warn_if_training_small(counts.plan.config.train, counts.plan.config.samples);
            write_shard(out, &counts)?;
            println!(
                "shard {shard}: {} held-out outputs per input of {}, written to {} (fingerprint {})",
                counts.counts.outputs_x,
                counts.plan.config.samples,
                out.display(),
                counts.fingerprint
            );
            Ok(None)
        }
        _ => {
            let audit =
                audit_external_streamed(&files, &claim, statistic, args.target_tightness, &config)?;
            warn_if_training_small(audit.result.train_samples, audit.result.samples);
            Ok(Some(audit))
        }
    }
}

fn run_audit(args: &RunArgs) -> anyhow::Result<()> {
    let kind = args.kind.map(OutputKind::from);
    let audit = if args.train_x.is_some() {
        match run_streamed(args, kind)? {
            Some(audit) => audit,
            None => return Ok(()),
        }
    } else {
        run_in_memory(args, kind)?
    };
    let plot = if args.plot.is_absolute() {
        args.plot.clone()
    } else {
        std::env::current_dir()?.join(&args.plot)
    };
    // The verdict is printed whatever happens to the plot.
    let title = format!("external audit: {}", audit.verdict.label());
    if let Err(e) = verification::plot::tradeoff(&plot, &title, &audit.result) {
        eprintln!(
            "warning: the plot could not be written to {}: {e}",
            plot.display()
        );
    }
    if args.json {
        let mut v = serde_json::to_value(&audit)?;
        if let Some(m) = v.as_object_mut() {
            m.insert("plot".into(), serde_json::json!(plot));
        }
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        print(&audit, &plot);
    }
    if audit.verdict == Verdict::ViolationCertified {
        std::process::exit(3);
    }
    Ok(())
}

/// The audit of two whole files (or a command's outputs), split by a seeded shuffle.
fn run_in_memory(args: &RunArgs, kind: Option<OutputKind>) -> anyhow::Result<ExternalAudit> {
    let stated = stated(args);
    let (claim, _) = stated
        .claim()
        .map_err(|e| anyhow::anyhow!("{e} (--eps, --delta, --mu, --rho)"))?;
    let (x, xp) = match (&args.x, &args.x_prime, &args.command) {
        (Some(a), Some(b), None) => (read(a, kind)?, read(b, kind)?),
        (None, None, Some(c)) => {
            let (ix, ixp) = (
                args.input_x.as_deref().unwrap_or_default(),
                args.input_x_prime.as_deref().unwrap_or_default(),
            );
            (
                draw(c, ix, args.outputs, kind)?,
                draw(c, ixp, args.outputs, kind)?,
            )
        }
        _ => bail!(
            "give the outputs as --x and --x-prime files, or --command with --input-x and --input-x-prime"
        ),
    };
    let config = stated.config(args.alpha, args.seed)?;
    Ok(audit_external(
        x,
        xp,
        &claim,
        args.statistic.as_deref(),
        args.train_fraction,
        args.target_tightness,
        &config,
    )?)
}

fn print(a: &ExternalAudit, plot: &std::path::Path) {
    let r = &a.result;
    let opt = |v: Option<f64>, f: &dyn Fn(f64) -> String| v.map_or("-".to_string(), f);
    println!("verdict: {}", a.verdict.label());
    println!(
        "claim: {:?}; epsilon implied at delta = {:e}: {}",
        r.claim.guarantee,
        r.delta,
        opt(r.eps_claimed, &|e| format!("{e:.6}"))
    );
    println!(
        "certified: eps >= {:.6} with confidence {} (point estimate {:.6}); tightness {}",
        r.eps_lower,
        r.confidence,
        r.eps_estimate,
        opt(r.eps_tightness, &|t| format!("{t:.3}"))
    );
    if let (Some(m), Some(reference)) = (r.mu_lower, r.mu_reference) {
        println!(
            "Gaussian-DP route: mu >= {m:.6} against {reference:.6} (tightness {})",
            opt(r.mu_tightness, &|t| format!("{t:.3}"))
        );
    }
    println!("{}", event_line(r));
    println!(
        "outputs: {} per input ({} training, {} held out); {:?}",
        a.outputs_per_input, r.train_samples, r.samples, a.kind
    );
    println!(
        "{}",
        target_line(r, a.target_tightness, a.samples_for_target)
    );
    println!("plot: {}", plot.display());
}
