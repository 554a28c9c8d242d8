//! One synthetic problem, USCA and its baselines at a few horizons: the error rate of eq. (1)
//! on 500 fresh contexts. Each line draws its own learning stage (the baselines too). The
//! proven lines also print the `tau` that `usca::suggested_tau` gives at `eps = 1`.
//!
//! `cargo run --release -p usca --example quick -- [tau]`

use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use usca::certificate::DEFAULT_REFINEMENT_CONTEXTS;
use usca::synthetic::SyntheticProblem;
use usca::{ApproximatingSetSize, PosteriorMeanBaseline, SensitivityRule, Usca, UscaParams};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let tau: f64 = std::env::args().nth(1).map_or(Ok(1.0), |s| s.parse())?;
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    let mut coins = ChaCha20Rng::seed_from_u64(2);
    let spec = SyntheticProblem::default();
    let inst = spec.sample(&mut rng)?;
    for &t in &[64usize, 256, 1024] {
        for rule in [
            SensitivityRule::Proven,
            SensitivityRule::Certified {
                points_per_dim: 64,
                refinement_contexts: DEFAULT_REFINEMENT_CONTEXTS,
            },
        ] {
            let params = UscaParams {
                tau,
                approximating_set: ApproximatingSetSize::Capped { cap: 1024 },
                sensitivity: rule,
                ..UscaParams::default()
            };
            let started = std::time::Instant::now();
            let u = Usca::learn(
                &inst.problem,
                inst.kernel.clone(),
                Some(&inst.kernel),
                params,
                t,
                &mut rng,
                &mut coins,
            )?;
            let fit = started.elapsed().as_secs_f64();
            let s = u.summary();
            let mut line = format!(
                "T={t:5} gamma={:.1} K={} |Z|={} {} sup_s2={:.4} Delta={:.3} fit {fit:.2}s |",
                s.gamma_t,
                s.k,
                s.z_size,
                rule.label(),
                s.bound.sup_sigma2(),
                s.bound.sensitivity()
            );
            if rule == SensitivityRule::Proven {
                // The data-independent tau of usca::tau_rule at eps = 1 for this T.
                let n = inst.problem.actions().len();
                line.push_str(&format!(
                    " tau rule (eps=1): {:.1} |",
                    usca::suggested_tau(t, s.gamma_t, 1.0, n)?
                ));
            }
            for eps in [0.5, 1.0, 2.0, 8.0, f64::INFINITY] {
                let er = inst
                    .problem
                    .error_rate(|c| u.probabilities(c, eps), 500, &mut rng)?;
                line.push_str(&format!(" eps={eps}: {:.3}", er.mean));
            }
            println!("{line}");
        }
        let data = usca::learning_stage(&inst.problem, t, 1.5, &mut rng)?;
        let pm =
            PosteriorMeanBaseline::fit_factored(inst.kernel.clone(), &inst.problem, &data, tau)?;
        let a = inst
            .problem
            .error_rate(|c| pm.probabilities(c, f64::INFINITY), 500, &mut rng)?;
        let b = inst
            .problem
            .error_rate(|c| pm.probabilities(c, 1.0), 500, &mut rng)?;
        let n = inst.problem.actions().len();
        let unif = inst
            .problem
            .error_rate(|_| Ok(vec![1.0 / n as f64; n]), 500, &mut rng)?;
        println!(
            "        posterior mean {:.3}, naive private eps=1 {:.3} (Delta {:.2}), uniform {:.3}",
            a.mean,
            b.mean,
            pm.sensitivity(),
            unif.mean
        );
    }
    Ok(())
}
