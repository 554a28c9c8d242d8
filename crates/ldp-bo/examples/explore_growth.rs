//! Mean cumulative regret of one algorithm at horizons 16, 32, ..., T_max on the synthetic
//! problem, with the local log-log slope: how we saw where the learning phase starts.
//!
//! `cargo run -p ldp-bo --example explore_growth -- T_MAX EPS ALGORITHM [TRIALS] [se|matern] [MOMA_SCALE]`
//! (EPS = 0 for the non-private setting; ALGORITHM = ata, tgp or moma).
use bandit::runner::RunConfig;
use ldp_bo::Preset;
use ldp_bo::experiments::*;
use std::time::Instant;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let tmax: usize = args[1].parse().unwrap();
    let eps: f64 = args[2].parse().unwrap();
    let alg = match args[3].as_str() {
        "ata" => Algorithm::Ata,
        "tgp" => Algorithm::Tgp,
        _ => Algorithm::Moma,
    };
    let trials: usize = args.get(4).map(|s| s.parse().unwrap()).unwrap_or(8);
    let problem = if args.get(5).map(|s| s.as_str()) == Some("matern") {
        Problem::SyntheticMatern
    } else {
        Problem::SyntheticSe
    };
    let setting = if eps > 0.0 {
        Setting::Ldp { epsilon: eps }
    } else {
        Setting::NonPrivate
    };
    let source = Source::load(problem, &bandit::dataset::default_data_dir()).unwrap();
    let t0 = Instant::now();
    let mut p = AlgorithmParams::of(Preset::Practical);
    if let Some(s) = args.get(6) {
        p.moma.beta_scale = s.parse().unwrap();
    }
    let r = run(
        &source,
        setting,
        alg,
        &p,
        &RunConfig {
            horizon: tmax,
            n_trials: trials,
            base_seed: 5,
            shard: None,
        },
    )
    .unwrap();
    let mut t = 16;
    let mut prev: Option<(f64, f64)> = None;
    while t <= tmax {
        let m = r
            .trials
            .iter()
            .map(|x| x.cumulative_regret[t - 1])
            .sum::<f64>()
            / trials as f64;
        // The first horizon has no previous point, hence no local slope.
        let slope = prev.map_or_else(
            || "-".to_string(),
            |(pt, pm)| format!("{:.3}", (m / pm).ln() / ((t as f64) / pt).ln()),
        );
        let l3 = ((t as f64).ln()).powi(3);
        println!(
            "T {t:>6} R {m:>9.2} local slope {slope:>5} R/ln^3 {:.4}",
            m / l3
        );
        prev = Some((t as f64, m));
        t *= 2;
    }
    println!("{:.1}s", t0.elapsed().as_secs_f64());
}
