//! `cargo xtask accountant jdp-qff`: the privacy of Algorithm 2's tree (Dubey 2021) for a node
//! noise `sigma` (`--sigma`), or the node noise for a target `(alpha, beta)` (`--alpha`), under
//! each route ([`jdp_qff::implied`]): the hardened sampler's zCDP with the classic or the
//! Canonne-Kamath-Steinke conversion (proved), and the continuous Gaussian's exact Gaussian-DP
//! conversion (the textbook sampler only, which carries no guarantee in floating point); for
//! the Frobenius and the exact packed sensitivity bound, or the one `--bound` names.

use anyhow::Context;
use jdp_qff::{ImpliedPrivacy, SigmaByRoute};
use privacy::mechanisms::SensitivityBound;
use serde_json::json;

/// The sensitivity bound, as named on the command line.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Bound {
    /// sqrt(2) (1 + B_y^2): the Frobenius-norm bound (the crate's default).
    Frobenius,
    /// The exact supremum of the packed distance.
    PackedExact,
}

impl From<Bound> for SensitivityBound {
    fn from(b: Bound) -> Self {
        match b {
            Bound::Frobenius => Self::Frobenius,
            Bound::PackedExact => Self::PackedExact,
        }
    }
}

/// Options of `accountant jdp-qff`.
#[derive(clap::Args)]
pub struct JdpQffArgs {
    /// The node noise standard deviation of every packed entry: print the (alpha, beta)-JDP it
    /// implies.
    #[arg(long, required_unless_present = "alpha", conflicts_with = "alpha")]
    sigma: Option<f64>,
    /// A target alpha: print the node sigma each route needs for (alpha, beta)-JDP.
    #[arg(long)]
    alpha: Option<f64>,
    /// beta of (alpha, beta)-JDP, in (0, 1).
    #[arg(long)]
    beta: f64,
    /// The horizon T (the tree has floor(log2 T) + 1 levels).
    #[arg(long)]
    horizon: u64,
    /// The reward clipping bound B_y (features are clipped to norm 1).
    #[arg(long = "reward-bound")]
    reward_bound: f64,
    /// One sensitivity bound (default: both).
    #[arg(long, value_enum)]
    bound: Option<Bound>,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: JdpQffArgs) -> anyhow::Result<()> {
    let bounds: Vec<SensitivityBound> = match args.bound {
        Some(b) => vec![b.into()],
        None => vec![SensitivityBound::Frobenius, SensitivityBound::PackedExact],
    };
    let (t, b, beta) = (args.horizon, args.reward_bound, args.beta);
    if let Some(sigma) = args.sigma {
        let rows = bounds
            .iter()
            .map(|&bound| ImpliedPrivacy::of_sigma(sigma, beta, t, b, bound))
            .collect::<Result<Vec<_>, _>>()
            .with_context(|| format!("the privacy of node sigma {sigma}"))?;
        if args.json {
            let out = json!({"mechanism": "jdp-qff tree (Algorithm 2)", "sigma": sigma,
                             "beta": beta, "horizon": t, "reward_bound": b, "results": rows});
            println!("{}", serde_json::to_string_pretty(&out)?);
            return Ok(());
        }
        println!(
            "Algorithm 2's tree (Dubey 2021): node sigma = {sigma}, T = {t} (L = {} levels), B_y = {b}, beta = {beta}",
            rows[0].levels
        );
        for r in &rows {
            println!(
                "  {:<12} Delta = {:.6}\n    hardened sampler (proved): rho = {}-zCDP -> alpha = {} (classic), {} (CKS)\n    continuous Gaussian (textbook sampler, no guarantee in floating point): mu = {}-GDP -> alpha = {} (exact)",
                r.bound.name(),
                r.sensitivity,
                significant(r.rho),
                significant(r.alpha_zcdp_classic),
                significant(r.alpha_zcdp_cks),
                significant(r.mu),
                significant(r.alpha_gdp)
            );
        }
        return Ok(());
    }
    let alpha = args.alpha.context("--sigma or --alpha is required")?;
    let rows = bounds
        .iter()
        .map(|&bound| SigmaByRoute::for_target(alpha, beta, t, b, bound))
        .collect::<Result<Vec<_>, _>>()
        .with_context(|| format!("the node sigma for ({alpha}, {beta})-JDP"))?;
    if args.json {
        let out = json!({"mechanism": "jdp-qff tree (Algorithm 2)", "alpha": alpha,
                         "beta": beta, "horizon": t, "reward_bound": b, "results": rows});
        println!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(());
    }
    println!(
        "Algorithm 2's tree (Dubey 2021): node sigma for ({alpha}, {beta})-JDP, T = {t}, B_y = {b}"
    );
    for r in &rows {
        println!(
            "  {:<12} Delta = {:.6}\n    hardened sampler (proved): sigma = {} (classic zCDP conversion), {} (CKS)\n    continuous Gaussian (textbook sampler, no guarantee in floating point): sigma = {} (exact GDP)",
            r.bound.name(),
            r.sensitivity,
            significant(r.zcdp_classic),
            significant(r.zcdp_cks),
            significant(r.gdp_textbook)
        );
    }
    Ok(())
}

/// Seven significant digits: fixed notation between `1e-3` and `1e7`, scientific outside (a
/// tiny alpha must not print as `0.000000`); an exact 0 as `0`.
fn significant(x: f64) -> String {
    if x == 0.0 {
        "0".into()
    } else if (1e-3..1e7).contains(&x.abs()) {
        let decimals = (6 - x.abs().log10().floor() as i32).max(0) as usize;
        format!("{x:.decimals$}")
    } else {
        format!("{x:.6e}")
    }
}
