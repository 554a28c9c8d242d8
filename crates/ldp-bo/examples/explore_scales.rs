//! The sweep behind the default width scales (`docs/ldp-bo.md`, "Defaults"): mean regret at
//! `T/2` and `T` over seeded trials, for a grid of scales of the widths' concentration terms.
//!
//! `cargo run -p ldp-bo --example explore_scales -- T TRIALS SCALES FIGURES ALGORITHMS`, e.g.
//! `-- 1000 8 0.1,0.03,0.01,0.003 fig3a,fig2a,fig2d,fig2e,fig2b tgp,moma` (base seed 1).
use bandit::runner::RunConfig;
use ldp_bo::experiments::*;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let horizon: usize = args.get(1).map(|s| s.parse().unwrap()).unwrap_or(1000);
    let trials: usize = args.get(2).map(|s| s.parse().unwrap()).unwrap_or(4);
    let scales: Vec<f64> = args
        .get(3)
        .map(|s| s.split(',').map(|x| x.parse().unwrap()).collect())
        .unwrap_or(vec![1.0]);
    let figs: Vec<String> = args
        .get(4)
        .map(|s| s.split(',').map(String::from).collect())
        .unwrap_or(vec!["fig3a".into()]);
    let algs: Vec<String> = args
        .get(5)
        .map(|s| s.split(',').map(String::from).collect())
        .unwrap_or(vec!["ata".into(), "tgp".into(), "moma".into()]);
    let data = bandit::dataset::default_data_dir();
    for f in FIGURES.iter().filter(|f| figs.iter().any(|x| x == f.id)) {
        let source = Source::load(f.problem, &data).unwrap();
        for alg in Algorithm::ALL {
            let an = format!("{alg:?}").to_lowercase();
            if !algs.contains(&an) {
                continue;
            }
            for &s in &scales {
                let mut p = AlgorithmParams::default();
                p.ata.beta_scale = s;
                p.tgp.beta_scale = s;
                p.moma.beta_scale = s;
                let cfg = RunConfig {
                    horizon,
                    n_trials: trials,
                    base_seed: 1,
                };
                let t0 = Instant::now();
                let r = run(&source, f.setting, alg, &p, &cfg).unwrap();
                let fin = r.final_cumulative_regrets();
                let mean = fin.iter().sum::<f64>() / fin.len() as f64;
                let half = r
                    .trials
                    .iter()
                    .map(|t| t.cumulative_regret[horizon / 2 - 1])
                    .sum::<f64>()
                    / fin.len() as f64;
                println!(
                    "{} {:>16} scale {:>7} R_T/2 {:>8.2} R_T {:>8.2} ({:.1}s)",
                    f.id,
                    alg.name(f.setting),
                    s,
                    half,
                    mean,
                    t0.elapsed().as_secs_f64()
                );
            }
        }
    }
}
