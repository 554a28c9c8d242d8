//! The sweep behind the practical preset's width scales and MoMA epoch length (`docs/ldp-bo.md`, "Presets"): mean regret at
//! `T/2` and `T` over seeded trials, for a grid of scales of the widths' concentration terms.
//!
//! `cargo run --release -p ldp-bo --example explore_scales -- T TRIALS SCALES FIGURES ALGORITHMS
//! [EPOCH_SCALES] [SEED]`, e.g. `-- 1000 8 0.1,0.03,0.01,0.003 fig3a,fig2a,fig2d tgp,moma 1,0.25
//! 1`. EPOCH_SCALES multiply MoMA's epoch length `k = ceil(24 ln(4eT/delta))` (default: the practical preset's);
//! SEED is the base seed (default 1; the reproduction uses 2021, so the synthetic panels' functions
//! here are held out from the reported ones).
use bandit::runner::RunConfig;
use ldp_bo::Preset;
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
    let epoch_scales: Vec<f64> = args
        .get(6)
        .map(|s| s.split(',').map(|x| x.parse().unwrap()).collect())
        .unwrap_or(vec![ldp_bo::moma::PRACTICAL_EPOCH_SCALE]);
    let seed: u64 = args.get(7).map(|s| s.parse().unwrap()).unwrap_or(1);
    let data = bandit::dataset::default_data_dir();
    for panel in panels().iter().filter(|p| figs.iter().any(|x| x == p.id())) {
        let f = panel.problem();
        let source = Source::load(f.problem, &data).unwrap();
        for alg in Algorithm::ALL {
            let an = format!("{alg:?}").to_lowercase();
            if !algs.contains(&an) {
                continue;
            }
            let ks: &[f64] = if alg == Algorithm::Moma {
                &epoch_scales
            } else {
                &[ldp_bo::moma::PRACTICAL_EPOCH_SCALE]
            };
            for (&s, &ke) in scales.iter().flat_map(|s| ks.iter().map(move |k| (s, k))) {
                let mut p = AlgorithmParams::of(Preset::Practical);
                p.moma.epoch_length = ldp_bo::EpochLength::Scaled(ke);
                p.ata.beta_scale = s;
                p.tgp.beta_scale = s;
                p.moma.beta_scale = s;
                let cfg = RunConfig {
                    horizon,
                    n_trials: trials,
                    base_seed: seed,
                    shard: None,
                };
                let t0 = Instant::now();
                let r = run(&source, f.setting, alg, &p, &cfg).unwrap();
                let fin = r.final_cumulative_regrets();
                let mean = fin.iter().sum::<f64>() / fin.len() as f64;
                let sd = (fin.iter().map(|x| (x - mean).powi(2)).sum::<f64>()
                    / (fin.len().max(2) - 1) as f64)
                    .sqrt();
                let half = r
                    .trials
                    .iter()
                    .map(|t| t.cumulative_regret[horizon / 2 - 1])
                    .sum::<f64>()
                    / fin.len() as f64;
                println!(
                    "{} {:>16} scale {:>7} k {:>4} R_T/2 {:>8.2} R_T {:>8.2} sd {:>7.2} ({:.1}s)",
                    panel.id(),
                    alg.name(f.setting),
                    s,
                    // The k MoMA runs: Theorem 4's ceil(24 ln(4eT/delta)) scaled.
                    ldp_bo::schedule::MomaSchedule::new(
                        1.0,
                        1.0,
                        1.0,
                        1.0,
                        p.moma.delta,
                        horizon as u64,
                        0.5
                    )
                    .expect("valid schedule")
                    .scaled_epoch_length(ke),
                    half,
                    mean,
                    sd,
                    t0.elapsed().as_secs_f64()
                );
            }
        }
    }
}
