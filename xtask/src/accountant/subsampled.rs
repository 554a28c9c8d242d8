//! `cargo xtask accountant --q Q --noise-multiplier Z --steps T --delta D [--accountant ...] [--json]`:
//! the epsilon of `T` rounds of the Poisson-subsampled Gaussian mechanism under each accountant.
//!
//! `cargo xtask accountant --target-eps E --q Q --steps T --delta D [--accountant ...]`: the
//! smallest noise multiplier `z` (to `--resolution`, default 1e-3) whose epsilon is at most `E`
//! under each accountant ([`privacy::accountant::smallest_noise_multiplier`]), with the two
//! evaluated facts: `eps(z) <= E` and `eps(z - resolution) > E`. By default the two RDP
//! accountants; the PLD when asked (`--accountant pld`, about 0.1 s an evaluation at
//! `T = 1000`, shown as it goes).
//!
//! - `rdp-paper`: integer orders 2..=33, classic conversion (the DP-FTS-DE paper's moments
//!   accountant; reproduces its numbers).
//! - `rdp`: fractional and integer orders (1.1..10.9, 11..64, 128, 256, 512), improved conversion
//!   (Balle et al. 2020).
//! - `pld`: privacy-loss distribution, connect-the-dots discretisation and FFT composition
//!   with every error bounded (an upper bound). Without `--pld-bin-width` the bin width is
//!   chosen: `1e-4` where every grid fits `2^22` points, coarser where the loss's span needs it
//!   ([`privacy::accountant::pld::AUTO_GRID_POINTS`]); the width used is printed. At `q = 1` (no width given)
//!   it answers by the exact route instead (`T` Gaussian mechanisms are exactly
//!   `sqrt(T)/z`-GDP), labelled so.
//!
//! `--relation replace-one` accounts one record replaced instead of added or removed: the PLD
//! accountant of the dominating pair ([`privacy::accountant::pld::replace_one`]); the others
//! refuse.
//!
//! - `gdp-clt`: Gaussian DP with the central-limit `mu = q sqrt(T (e^(1/z^2) - 1))` (Bu, Dong,
//!   Long & Su 2020): an approximation, not a bound; only when asked.

use anyhow::Context;
use privacy::PrivacyError;
use privacy::accountant::named::{self, Accountant};
use privacy::accountant::{Calibration, calibrate::MIN_NOISE_MULTIPLIER};
use serde_json::json;

/// Which accountant to run.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Which {
    /// The paper preset: integer orders 2..=33, classic conversion.
    RdpPaper,
    /// Fractional orders, improved conversion.
    Rdp,
    /// Privacy-loss distribution (connect-the-dots; an upper bound).
    Pld,
    /// Gaussian DP with the central-limit mu of Bu et al. 2020: an approximation, not a bound.
    GdpClt,
}

/// The neighbouring relation to account under.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Relation {
    /// One participant added or removed.
    AddRemove,
    /// One participant's record replaced by another: the PLD accountant of the dominating pair
    /// (an upper bound; docs/privacy.md, "Neighbouring relations").
    ReplaceOne,
}

/// Options of `accountant` for the Poisson-subsampled Gaussian.
#[derive(clap::Args)]
pub struct SubsampledArgs {
    /// Poisson sampling rate q in (0, 1].
    #[arg(long)]
    q: f64,
    /// Noise multiplier z (noise standard deviation / sensitivity).
    #[arg(
        long = "noise-multiplier",
        required_unless_present = "target_eps",
        conflicts_with = "target_eps"
    )]
    noise_multiplier: Option<f64>,
    /// Instead of an epsilon for a given z: the smallest z whose epsilon is at most this target.
    #[arg(long = "target-eps")]
    target_eps: Option<f64>,
    /// Resolution of the calibration (--target-eps): the z printed meets the target and
    /// z - resolution does not.
    /// [default: 0.001]
    #[arg(long)]
    resolution: Option<f64>,
    /// Number of rounds (compositions).
    #[arg(long)]
    steps: u64,
    /// Target delta.
    #[arg(long)]
    delta: f64,
    /// Accountants to run (repeatable; default: all three for an epsilon, the two RDP
    /// accountants for --target-eps).
    #[arg(long, value_enum)]
    accountant: Vec<Which>,
    /// Neighbouring relation. Replace-one: the PLD accountant only (the RDP and GDP
    /// accountants here have no replace-one bound for the subsampled Gaussian).
    #[arg(long, value_enum, default_value_t = Relation::AddRemove)]
    relation: Relation,
    /// Bin width of the PLD loss grid (the excess over the exact epsilon is second order in the
    /// width). Without it: 1e-4 where every grid of the accounting fits 2^22 points (64 MiB an
    /// FFT), else the finest width that fits (printed). At q = 1 without this option no grid is
    /// used: the pld accountant answers by the exact Gaussian route (mu = sqrt(steps)/z-GDP).
    #[arg(long)]
    pld_bin_width: Option<f64>,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// The library's accountant of `w` and relation of `r`.
fn accountant(w: Which) -> Accountant {
    match w {
        Which::RdpPaper => Accountant::RdpPaper,
        Which::Rdp => Accountant::Rdp,
        Which::Pld => Accountant::Pld,
        Which::GdpClt => Accountant::GdpClt,
    }
}

fn relation(r: Relation) -> named::Relation {
    match r {
        Relation::AddRemove => named::Relation::AddRemove,
        Relation::ReplaceOne => named::Relation::ReplaceOne,
    }
}

/// The epsilon of one accountant at noise multiplier `z` ([`named::subsampled_gaussian`], the
/// same function the Python package calls), as a JSON row, and the accountant's description.
fn epsilon_of(
    w: Which,
    args: &SubsampledArgs,
    z: f64,
) -> Result<(serde_json::Value, &'static str, f64), PrivacyError> {
    let (a, r) = (accountant(w), relation(args.relation));
    let e =
        named::subsampled_gaussian(a, r, args.q, z, args.steps, args.delta, args.pld_bin_width)?;
    let route = e
        .route
        .map(|r| json!({"route": r, "bin_width_chosen": e.bin_width_chosen, "mu": e.mu}));
    let mut row = if e.route == Some(named::PldRoute::ExactGaussian) {
        json!({"accountant": name(w), "epsilon": e.epsilon, "epsilon_remove": e.epsilon_remove,
               "epsilon_add": e.epsilon_add, "bin_width": null})
    } else if r == named::Relation::ReplaceOne {
        json!({"accountant": name(w), "epsilon": e.epsilon, "relation": "replace-one",
               "method": "dominating pair (1-q) N(0) + q N(1) vs (1-q) N(0) + q N(-1)",
               "bin_width": e.bin_width})
    } else {
        match w {
            Which::RdpPaper | Which::Rdp => {
                json!({"accountant": name(w), "epsilon": e.epsilon, "order": e.order})
            }
            Which::Pld => {
                json!({"accountant": name(w), "epsilon": e.epsilon, "epsilon_remove": e.epsilon_remove,
                       "epsilon_add": e.epsilon_add, "epsilon_optimistic": e.epsilon_optimistic,
                       "bin_width": e.bin_width})
            }
            Which::GdpClt => {
                json!({"accountant": name(w), "epsilon": e.epsilon, "mu": e.mu, "approximation": true})
            }
        }
    };
    if let (Some(extra), Some(map)) = (route, row.as_object_mut()) {
        for (k, v) in extra.as_object().into_iter().flatten() {
            map.insert(k.clone(), v.clone());
        }
    }
    let note = match e.route {
        Some(route @ named::PldRoute::ExactGaussian) => route.description(),
        _ => a.description(r),
    };
    Ok((row, note, e.epsilon))
}

/// Under replace-one only the PLD accountant has a bound: refuse the others up front.
fn check_relation(args: &SubsampledArgs, which: &[Which]) -> anyhow::Result<()> {
    for w in which {
        named::check_relation(accountant(*w), relation(args.relation))
            .map_err(|e| anyhow::anyhow!("{e} (--accountant pld)"))?;
    }
    Ok(())
}

fn relation_label(r: Relation) -> &'static str {
    relation(r).label()
}

fn name(w: Which) -> &'static str {
    accountant(w).name()
}

/// `--target-eps`: calibrate z for each accountant.
fn calibrate(args: &SubsampledArgs, target: f64) -> anyhow::Result<()> {
    let resolution = args.resolution.unwrap_or(1e-3);
    let which = if !args.accountant.is_empty() {
        args.accountant.clone()
    } else if args.relation == Relation::ReplaceOne {
        vec![Which::Pld]
    } else {
        vec![Which::RdpPaper, Which::Rdp]
    };
    check_relation(args, &which)?;
    let (q, t, d) = (args.q, args.steps, args.delta);
    if !args.json {
        println!(
            "Smallest noise multiplier z with eps <= {target} for the Poisson-subsampled Gaussian: \
             q = {q}, steps = {t}, delta = {d:e}, resolution {}, {}",
            resolution,
            relation_label(args.relation)
        );
    }
    let mut rows = Vec::new();
    for w in which {
        let note = if w == Which::Pld && q >= 1.0 {
            named::PldRoute::ExactGaussian.description()
        } else {
            accountant(w).description(relation(args.relation))
        };
        let c: Calibration = named::subsampled_gaussian_noise_multiplier(
            accountant(w),
            relation(args.relation),
            target,
            q,
            t,
            d,
            resolution,
            args.pld_bin_width,
            |z, eps| {
                if w == Which::Pld {
                    eprintln!("  pld: z = {z:.6}, eps = {eps:.6}");
                }
            },
        )
        .with_context(|| format!("calibrating the {} accountant", name(w)))?;
        let below = c.epsilon_below.map_or(
            format!("not evaluated (z - resolution < {MIN_NOISE_MULTIPLIER:e})"),
            |e| {
                if e.is_finite() {
                    format!("{e}")
                } else {
                    "unbounded".to_string()
                }
            },
        );
        if !args.json {
            println!(
                "  {:<10} z = {}   eps(z) = {}   eps(z - {}) = {below}   ({} evaluations) [{note}]",
                name(w),
                c.noise_multiplier,
                c.epsilon,
                c.resolution,
                c.evaluations
            );
        }
        let epsilon_below = match c.epsilon_below {
            Some(e) if e.is_finite() => json!(e),
            Some(_) => json!("unbounded"),
            None => json!(null),
        };
        rows.push(
            json!({"accountant": name(w), "noise_multiplier": c.noise_multiplier,
                         "epsilon": c.epsilon, "epsilon_below": epsilon_below,
                         "resolution": c.resolution, "evaluations": c.evaluations, "note": note}),
        );
    }
    if args.json {
        let out = json!({"q": q, "steps": t, "delta": d, "target_epsilon": target,
                   "relation": relation_label(args.relation), "results": rows});
        println!("{}", serde_json::to_string_pretty(&out)?);
    }
    Ok(())
}

pub fn run(args: SubsampledArgs) -> anyhow::Result<()> {
    if let Some(target) = args.target_eps {
        return calibrate(&args, target);
    }
    if args.resolution.is_some() {
        anyhow::bail!(
            "--resolution is the resolution of --target-eps; it means nothing for an epsilon"
        );
    }
    let which = if !args.accountant.is_empty() {
        args.accountant.clone()
    } else if args.relation == Relation::ReplaceOne {
        vec![Which::Pld]
    } else {
        vec![Which::RdpPaper, Which::Rdp, Which::Pld]
    };
    check_relation(&args, &which)?;
    let z = args
        .noise_multiplier
        .context("--noise-multiplier (or --target-eps) is required")?;
    let (q, t, d) = (args.q, args.steps, args.delta);
    let mut rows = Vec::new();
    for w in which {
        let (mut row, note, _) =
            epsilon_of(w, &args, z).with_context(|| format!("{} accountant", name(w)))?;
        row["note"] = json!(note);
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
        let out = json!({"q": q, "noise_multiplier": z, "steps": t, "delta": d,
                         "relation": relation_label(args.relation), "results": rows});
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        println!(
            "Poisson-subsampled Gaussian: q = {q}, z = {z}, steps = {t}, delta = {d:e}, {}",
            relation_label(args.relation)
        );
        for r in &rows {
            let order = r
                .get("order")
                .and_then(|o| o.as_f64())
                .map(|o| format!(" (order {o})"))
                .unwrap_or_default();
            let grid = match (r.get("bin_width").and_then(|h| h.as_f64()), r.get("mu")) {
                (Some(h), _) => {
                    let how = if r["bin_width_chosen"].as_bool() == Some(true) {
                        "chosen"
                    } else {
                        "given"
                    };
                    format!(" (bin width {h}, {how})")
                }
                (None, Some(mu)) if r["route"] == "exact-gaussian" => format!(" (mu = {mu})"),
                _ => String::new(),
            };
            println!(
                "  {:<10} eps = {:.6}{order}{grid}   [{}]",
                r["accountant"].as_str().unwrap_or(""),
                r["epsilon"].as_f64().unwrap_or(f64::NAN),
                r["note"].as_str().unwrap_or("")
            );
        }
    }
    Ok(())
}
