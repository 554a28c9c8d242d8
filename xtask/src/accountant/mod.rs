//! `cargo xtask accountant`: privacy accounting from the command line.
//!
//! - With `--q`, `--steps`, `--delta` and `--noise-multiplier` or `--target-eps`: the
//!   Poisson-subsampled Gaussian under each accountant ([`subsampled`]).
//! - `cargo xtask accountant jdp-qff --horizon T --reward-bound B --beta b (--sigma S | --alpha A)`:
//!   the `(alpha, beta)`-JDP a node noise of Algorithm 2's tree implies, or the node noise a
//!   target asks for, under each route and sensitivity bound ([`jdp_qff`]).

mod jdp_qff;
mod subsampled;

/// Options of `accountant`: a mechanism subcommand, or the subsampled Gaussian's options.
#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true, arg_required_else_help = true)]
pub struct Args {
    /// A mechanism with its own accountant (without one: the Poisson-subsampled Gaussian).
    #[command(subcommand)]
    mechanism: Option<Mechanism>,
    #[command(flatten)]
    subsampled: Option<subsampled::SubsampledArgs>,
}

/// The mechanisms with their own accountant.
#[derive(clap::Subcommand)]
enum Mechanism {
    /// Algorithm 2 of Dubey 2021 (the tree of outer products): the (alpha, beta)-JDP a node
    /// sigma implies (--sigma), or the node sigma a target asks for (--alpha), per route.
    JdpQff(jdp_qff::JdpQffArgs),
}

pub fn run(args: Args) -> anyhow::Result<()> {
    match (args.mechanism, args.subsampled) {
        (Some(Mechanism::JdpQff(a)), _) => jdp_qff::run(a),
        (None, Some(s)) => subsampled::run(s),
        (None, None) => anyhow::bail!(
            "nothing to account: give the Poisson-subsampled Gaussian's --q, --steps, --delta and \
             --noise-multiplier (or --target-eps), or a mechanism (`cargo xtask accountant jdp-qff --help`)"
        ),
    }
}
