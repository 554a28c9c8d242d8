//! `cargo xtask accountant --q Q --noise-multiplier Z --steps T --delta D [--accountant ...] [--json]`:
//! the epsilon of `T` rounds of the Poisson-subsampled Gaussian mechanism under each accountant.
//!
//! - `rdp-paper`: integer orders 2..=33, classic conversion (the DP-FTS-DE paper's moments
//!   accountant; reproduces its numbers).
//! - `rdp`: fractional and integer orders (1.1..10.9, 11..64, 128, 256, 512), improved conversion
//!   (Balle et al. 2020).
//! - `pld`: privacy-loss distribution with pessimistic discretisation (an upper bound).

use anyhow::Context;
use privacy::accountant::rdp::{default_orders, paper_orders, subsampled_gaussian_epsilon};
use privacy::accountant::{PldSettings, RdpConversion, subsampled_gaussian_pld_epsilon};
use serde_json::json;

/// Which accountant to run.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Which {
    /// The paper preset: integer orders 2..=33, classic conversion.
    RdpPaper,
    /// Fractional orders, improved conversion.
    Rdp,
    /// Pessimistic privacy-loss distribution.
    Pld,
}

/// Options of `accountant`.
#[derive(clap::Args)]
pub struct Args {
    /// Poisson sampling rate q in (0, 1].
    #[arg(long)]
    q: f64,
    /// Noise multiplier z (noise standard deviation / sensitivity).
    #[arg(long = "noise-multiplier")]
    noise_multiplier: f64,
    /// Number of rounds (compositions).
    #[arg(long)]
    steps: u64,
    /// Target delta.
    #[arg(long)]
    delta: f64,
    /// Accountants to run (repeatable; default: all three).
    #[arg(long, value_enum)]
    accountant: Vec<Which>,
    /// Bin width of the PLD loss grid (the pessimistic bias of eps is below steps * width).
    #[arg(long, default_value_t = 1e-4)]
    pld_bin_width: f64,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let which = if args.accountant.is_empty() {
        vec![Which::RdpPaper, Which::Rdp, Which::Pld]
    } else {
        args.accountant.clone()
    };
    let (q, z, t, d) = (args.q, args.noise_multiplier, args.steps, args.delta);
    let mut rows = Vec::new();
    for w in which {
        let row = match w {
            Which::RdpPaper => {
                let (eps, order) = subsampled_gaussian_epsilon(
                    q,
                    z,
                    t,
                    d,
                    &paper_orders(),
                    RdpConversion::Classic,
                )
                .context("rdp-paper accountant")?;
                json!({"accountant": "rdp-paper", "epsilon": eps, "order": order, "note": "integer orders 2..=33, classic conversion"})
            }
            Which::Rdp => {
                let (eps, order) = subsampled_gaussian_epsilon(
                    q,
                    z,
                    t,
                    d,
                    &default_orders(),
                    RdpConversion::Improved,
                )
                .context("rdp accountant")?;
                json!({"accountant": "rdp", "epsilon": eps, "order": order, "note": "orders 1.1..512, improved conversion (Balle et al. 2020)"})
            }
            Which::Pld => {
                let settings = PldSettings {
                    bin_width: args.pld_bin_width,
                    ..PldSettings::default()
                };
                let r = subsampled_gaussian_pld_epsilon(q, z, t, d, settings)
                    .context("pld accountant")?;
                json!({"accountant": "pld", "epsilon": r.epsilon, "epsilon_remove": r.epsilon_remove, "epsilon_add": r.epsilon_add,
                       "epsilon_optimistic": r.epsilon_optimistic, "bin_width": settings.bin_width,
                       "note": "pessimistic discretisation: an upper bound on epsilon"})
            }
        };
        // A non-finite epsilon is never printed as a number (issue 15, defect 2).
        if !row["epsilon"].as_f64().is_some_and(f64::is_finite) {
            anyhow::bail!(
                "{} accountant: no finite epsilon at q = {q}, z = {z}, steps = {t}, delta = {d:e}",
                row["accountant"].as_str().unwrap_or("")
            );
        }
        rows.push(row);
    }
    if args.json {
        let out = json!({"q": q, "noise_multiplier": z, "steps": t, "delta": d, "results": rows});
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        println!("Poisson-subsampled Gaussian: q = {q}, z = {z}, steps = {t}, delta = {d:e}");
        for r in &rows {
            let order = r
                .get("order")
                .and_then(|o| o.as_f64())
                .map(|o| format!(" (order {o})"))
                .unwrap_or_default();
            println!(
                "  {:<10} eps = {:.6}{order}   [{}]",
                r["accountant"].as_str().unwrap_or(""),
                r["epsilon"].as_f64().unwrap_or(f64::NAN),
                r["note"].as_str().unwrap_or("")
            );
        }
    }
    Ok(())
}
