//! Growth of the per-round cost with the horizon (`cargo xtask bench ldp-bo`, or
//! `cargo bench -p ldp-bo --bench growth`; always an optimised build).
//!
//! The problem of the timing comparison with Chowdhury & Gopalan's MATLAB code quoted in issue
//! 16 (`docs/ldp-bo.md`, "Benchmarks"): 100 arms on [0, 1], SE kernel with lengthscale 0.2, `f(x) = sin(6x)/2`,
//! Student-t(3) noise, `lambda = 1`, the practical preset, one trial. For each algorithm and
//! `T` in {1000, 4000, 16 000} it runs the algorithm with horizon `T` five times and prints the
//! medians of the whole run's time and of the mean time of a round in the last tenth of the
//! run (`(0.9 T, T]`; the amortised cost, MoMA's epoch updates included), the ratio of that to
//! the one at the first horizon, the mean dimension `m` of the Nyström embedding over the last
//! tenth (ATA and MoMA: their cost per update is O(n m^2 + m^3), and `m` varies with `q`, which
//! grows with `ln T`) and a fingerprint of the arm sequence (FNV-1a of the arm indices), so that
//! two builds can be compared round for round.
//!
//! Arguments (after `--`): horizons to run (default `1000 4000 16000`), e.g.
//! `cargo bench -p ldp-bo --bench growth -- 1000 4000`.

use std::sync::Arc;
use std::time::Instant;

use bandit::agent::Agent;
use kernel::{Kernel, SquaredExponential};
use ldp_bo::{
    AtaGpUcb, AtaParams, CtlCurator, MomaGpUcb, MomaParams, Preset, PrivateReward, TgpParams,
    TgpUcb,
};
use ndarray::Array2;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha20Rng;
use rand_distr::StudentT;

const N_ARMS: usize = 100;
const SEED: u64 = 2019;
/// Runs per algorithm and horizon; the medians are reported.
const REPEATS: usize = 5;

fn arms() -> Array2<f64> {
    Array2::from_shape_fn((N_ARMS, 1), |(i, _)| i as f64 / (N_ARMS - 1) as f64)
}

/// The outcome of one run.
struct Run {
    seconds: f64,
    late_round_seconds: f64,
    fingerprint: u64,
    /// The mean dimension `m` of the Nyström embedding over the last tenth (ATA, MoMA).
    late_dim: Option<f64>,
}

fn fnv(hash: u64, arm: usize) -> u64 {
    let mut h = hash;
    for byte in (arm as u64).to_le_bytes() {
        h ^= u64::from(byte);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// Play `horizon` rounds; `message` turns a raw reward into the agent's message.
fn run<A: Agent>(
    mut agent: A,
    horizon: usize,
    mut message: impl FnMut(f64, &mut ChaCha20Rng) -> A::Message,
    dim: impl Fn(&A) -> Option<usize>,
) -> Run
where
    A::Error: std::fmt::Debug,
{
    let arms = arms();
    let noise = StudentT::new(3.0).expect("3 degrees of freedom");
    let mut rng = ChaCha20Rng::seed_from_u64(SEED);
    let late = horizon - horizon / 10;
    let mut late_seconds = 0.0;
    let mut dims = 0usize;
    let mut fingerprint = 0xcbf2_9ce4_8422_2325;
    let started = Instant::now();
    for t in 0..horizon {
        let round = Instant::now();
        let a = agent.select(arms.view(), &mut rng).expect("select");
        let y = (6.0 * arms[[a, 0]]).sin() / 2.0 + rng.sample(noise);
        let m = message(y, &mut rng);
        agent.observe(m).expect("observe");
        if t >= late {
            late_seconds += round.elapsed().as_secs_f64();
            dims += dim(&agent).unwrap_or(0);
        }
        fingerprint = fnv(fingerprint, a);
    }
    Run {
        seconds: started.elapsed().as_secs_f64(),
        late_round_seconds: late_seconds / (horizon - late) as f64,
        fingerprint,
        late_dim: dim(&agent).map(|_| dims as f64 / (horizon - late) as f64),
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let horizons: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let horizons = if horizons.is_empty() {
        vec![1000, 4000, 16_000]
    } else {
        horizons
    };
    println!(
        "growth of the per-round cost: {} build, {N_ARMS} arms, SE l = 0.2, Student-t(3) noise, \
         practical preset, seed {SEED}, medians of {REPEATS} runs",
        if cfg!(debug_assertions) {
            "UNOPTIMISED (debug assertions on: not a valid timing)"
        } else {
            "optimised (bench/release profile)"
        }
    );
    println!(
        "{:<18} {:>6} {:>9} {:>16} {:>6} {:>7} {:>17}",
        "algorithm", "T", "run (s)", "late round (us)", "ratio", "late m", "arm fingerprint"
    );
    let k: Arc<dyn Kernel> = Arc::new(SquaredExponential::isotropic(0.2).expect("l > 0"));
    let a = arms();
    let curator = CtlCurator::new(1.0, 1.0, 1.0).expect("curator");
    let private = |y: f64, rng: &mut ChaCha20Rng| -> PrivateReward {
        curator.privatize(y, rng).expect("privatize")
    };
    let raw = |y: f64, _: &mut ChaCha20Rng| y;
    // B = 1, Student-t(3) noise: E y^2 <= 1 + 3.
    type Runner<'a> = Box<dyn Fn(usize) -> Run + 'a>;
    let algorithms: Vec<(&str, Runner)> = vec![
        (
            "TGP-UCB",
            Box::new(|t| {
                let p = TgpParams::of(Preset::Practical);
                run(
                    TgpUcb::heavy_tailed(k.clone(), a.view(), 1.0, 1.0, 4.0, p).expect("tgp"),
                    t,
                    raw,
                    |_| None,
                )
            }),
        ),
        (
            "LDP-TGP-UCB",
            Box::new(|t| {
                let p = TgpParams::of(Preset::Practical);
                run(
                    TgpUcb::private(k.clone(), a.view(), &curator, p).expect("tgp"),
                    t,
                    private,
                    |_| None,
                )
            }),
        ),
        (
            "ATA-GP-UCB",
            Box::new(|t| {
                let p = AtaParams::of(Preset::Practical);
                let agent = AtaGpUcb::heavy_tailed(k.clone(), a.view(), 1.0, 4.0, t as u64, p);
                run(agent.expect("ata"), t, raw, |a| Some(a.feature_dim()))
            }),
        ),
        (
            "LDP-ATA-GP-UCB",
            Box::new(|t| {
                let p = AtaParams::of(Preset::Practical);
                let agent = AtaGpUcb::private(k.clone(), a.view(), &curator, t as u64, p);
                run(agent.expect("ata"), t, private, |a| Some(a.feature_dim()))
            }),
        ),
        (
            "MoMA-GP-UCB",
            Box::new(|t| {
                let p = MomaParams::of(Preset::Practical);
                let agent =
                    MomaGpUcb::heavy_tailed(k.clone(), a.view(), 1.0, 1.0, 4.0, t as u64, p);
                run(agent.expect("moma"), t, raw, |a| Some(a.feature_dim()))
            }),
        ),
        (
            "LDP-MoMA-GP-UCB",
            Box::new(|t| {
                let p = MomaParams::of(Preset::Practical);
                let agent = MomaGpUcb::private(k.clone(), a.view(), &curator, t as u64, p);
                run(agent.expect("moma"), t, private, |a| Some(a.feature_dim()))
            }),
        ),
    ];
    for (name, runner) in &algorithms {
        let mut first = None;
        for &t in &horizons {
            let mut runs: Vec<Run> = (0..REPEATS).map(|_| runner(t)).collect();
            assert!(
                runs.iter().all(|r| r.fingerprint == runs[0].fingerprint),
                "{name}: seeded runs differ"
            );
            let seconds = median(runs.iter().map(|r| r.seconds).collect());
            let late = median(runs.iter().map(|r| r.late_round_seconds).collect());
            let mut r = runs.swap_remove(0);
            r.seconds = seconds;
            r.late_round_seconds = late;
            let base = *first.get_or_insert(r.late_round_seconds);
            println!(
                "{name:<18} {t:>6} {:>9.3} {:>16.1} {:>6.2} {:>7} {:>17x}",
                r.seconds,
                1e6 * r.late_round_seconds,
                r.late_round_seconds / base,
                r.late_dim.map_or("-".to_string(), |m| format!("{m:.1}")),
                r.fingerprint
            );
        }
    }
}
