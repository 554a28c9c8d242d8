//! GP-UCB (IGP-UCB width) and GP-TS vs uniform random on the Zhou & Tan synthetic RKHS
//! objective, uniform noise on [-1, 1]:
//! `cargo run -p bandit --release --example gp_ucb_vs_random -- [T] [trials] [seed] [se|matern] [ts]`.

use bandit::BanditError;
use bandit::baselines::{GpThompson, GpUcb, IgpUcbParams, UniformRandom};
use bandit::noise::RewardModel;
use bandit::objective::RkhsSynthetic;
use bandit::runner::{BatchResult, RunConfig, Runner};

fn summary(name: &str, b: &BatchResult, secs: f64) {
    let finals = b.final_cumulative_regrets();
    let n = finals.len() as f64;
    let mean = finals.iter().sum::<f64>() / n;
    let sd = (finals.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0)).sqrt();
    let t = b.config.horizon;
    let curve = b.mean_cumulative_regret();
    let q: Vec<String> = [t / 10, t / 4, t / 2, t]
        .iter()
        .map(|&s| format!("R_{s}={:.2}", curve[s - 1]))
        .collect();
    println!(
        "{name:10} mean R_T = {mean:9.3} (sd {sd:7.3}, {} trials)  {}  [{secs:.1} s]",
        finals.len(),
        q.join(" ")
    );
}

fn main() -> Result<(), BanditError> {
    let args: Vec<String> = std::env::args().collect();
    let horizon: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let n_trials: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(10);
    let base_seed: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(2021);
    let problem = if args.get(4).map(String::as_str) == Some("matern") {
        RkhsSynthetic::matern()
    } else {
        RkhsSynthetic::default()
    };
    let with_ts = args.get(5).map(String::as_str) == Some("ts");
    let config = RunConfig {
        horizon,
        n_trials,
        base_seed,
        shard: None,
    };
    let env = problem.annotated_environments(RewardModel::uniform(1.0)?);

    let t = std::time::Instant::now();
    let random = Runner::new(config, &env, |_, _| Ok(UniformRandom)).trials()?;
    summary("random", &random, t.elapsed().as_secs_f64());

    // B = ||f||_H of the trial's function, R = 1 (uniform noise on [-1, 1]), delta = 0.1.
    let params = IgpUcbParams::with_norm_bound;
    let t = std::time::Instant::now();
    let ucb = Runner::new(config, &env, |e, _| {
        GpUcb::new(e.info.1.clone(), horizon, params(e.info.0))
    })
    .trials()?;
    summary("gp-ucb", &ucb, t.elapsed().as_secs_f64());

    if with_ts {
        let t = std::time::Instant::now();
        let ts = Runner::new(config, &env, |e, _| {
            GpThompson::new(e.info.1.clone(), horizon, params(e.info.0))
        })
        .trials()?;
        summary("gp-ts", &ts, t.elapsed().as_secs_f64());
    }
    let norms: Vec<String> = (0..n_trials)
        .map(|i| {
            let mut rng =
                bandit::runner::trial_rng(base_seed, i, bandit::runner::Role::Environment);
            Ok(format!("{:.2}", problem.sample(&mut rng)?.rkhs_norm))
        })
        .collect::<Result<_, BanditError>>()?;
    println!("B = ||f||_H per trial: {}", norms.join(" "));
    Ok(())
}
