//! A quick look at the synthetic problem: TS, FTS, FTS-DE and DP-FTS-DE for one seed, mean
//! simple regret over agents at a few iterations, and the privacy loss.
//!
//! `cargo run --release -p dp-fts-de --example compare [n_agents] [runs]`

use std::time::Instant;

use dp_fts_de::{DpFtsDeParams, FederatedProblem, beta_schedule, run_federation};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let n = args.first().copied().unwrap_or(200);
    let runs = args.get(1).copied().unwrap_or(2);
    let problem = FederatedProblem::synthetic(n, &mut ChaCha20Rng::seed_from_u64(2021))?;
    let base = DpFtsDeParams::synthetic();
    let settings = [
        ("TS", base.ts()),
        ("FTS", base.fts()),
        ("FTS-DE P=2", base.fts_de(2)),
        ("FTS-DE P=3", base.fts_de(3)),
        ("DP-FTS-DE", base),
        ("DP-FTS S=8", base.dp_fts(8.0)),
    ];
    for (name, p) in settings {
        let start = Instant::now();
        let beta = beta_schedule(&problem, &p)?;
        let mut acc = vec![0.0; p.n_init + p.iterations];
        let mut last = None;
        for r in 0..runs {
            let rec = run_federation(&problem, &p, beta.clone(), 7, r)?;
            for (a, v) in acc.iter_mut().zip(rec.mean_simple_regret()) {
                *a += v / runs as f64;
            }
            last = Some(rec);
        }
        let rec = last.expect("runs >= 1");
        let at = |t: usize| acc[p.n_init - 1 + t];
        println!(
            "{name:12} t=0 {:.4} t=5 {:.4} t=10 {:.4} t=20 {:.4} t=40 {:.4} eps {:?} clipped {:?} ({:.1} s)",
            at(0),
            at(5),
            at(10),
            at(20),
            at(40),
            rec.privacy.last().map(|l| l.epsilon_paper),
            rec.clipped_fraction,
            start.elapsed().as_secs_f64()
        );
    }
    Ok(())
}
