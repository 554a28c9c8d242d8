//! The SVM-digits stand-in at several SE lengthscales: TS and DP-FTS-DE (the real-world
//! preset otherwise), mean simple regret over agents and runs at a few iterations. Shows why
//! the paper's lengthscale 0.01 learns nothing on a 25 x 25 grid of [0, 1]^2.
//!
//! `cargo run --release -p dp-fts-de --example svm_lengthscale [runs]`

use dp_fts_de::{DpFtsDeParams, FederatedProblem, beta_schedule, run_federation};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let runs: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(10);
    let problem = FederatedProblem::svm_digits(&bandit::dataset::default_data_dir())?;
    for ls in [0.01, 0.05, 0.1, 0.2] {
        let base = DpFtsDeParams {
            lengthscale: ls,
            ..DpFtsDeParams::real_world()
        };
        for (name, p) in [
            ("TS", base.ts()),
            ("FTS-DE", base.fts_de(4)),
            ("DP-FTS-DE", base),
        ] {
            let beta = beta_schedule(&problem, &p)?;
            let mut acc = vec![0.0; p.n_init + p.iterations];
            for r in 0..runs {
                let rec = run_federation(&problem, &p, beta.clone(), 11, r)?;
                for (a, v) in acc.iter_mut().zip(rec.mean_simple_regret()) {
                    *a += v / runs as f64;
                }
            }
            let at = |t: usize| acc[p.n_init - 1 + t];
            println!(
                "l={ls:<5} {name:10} t=0 {:.4} t=5 {:.4} t=10 {:.4} t=20 {:.4} t=60 {:.4}",
                at(0),
                at(5),
                at(10),
                at(20),
                at(60)
            );
        }
    }
    Ok(())
}
