//! Per-round cost of each algorithm at t = 100 and t = 1000 (the cost of round t + 1 after t
//! rounds of history) on the synthetic problem (100 arms, SE l = 0.2).

use std::hint::black_box;
use std::sync::Arc;

use bandit::agent::Agent;
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use kernel::{Kernel, SquaredExponential};
use ldp_bo::Preset;
use ldp_bo::{
    AtaGpUcb, AtaParams, CtlCurator, MomaGpUcb, MomaParams, PrivateReward, TgpParams, TgpUcb,
};
use ndarray::Array2;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha20Rng;

fn arms() -> Array2<f64> {
    Array2::from_shape_fn((100, 1), |(i, _)| i as f64 / 99.0)
}

/// Play `t` rounds with rewards f(x) = sin(6x) + uniform noise through the curator.
fn warm<A: Agent<Message = PrivateReward>>(
    agent: &mut A,
    c: &CtlCurator,
    arms: &Array2<f64>,
    t: usize,
) {
    let mut rng = ChaCha20Rng::seed_from_u64(7);
    for _ in 0..t {
        let a = agent.select(arms.view(), &mut rng).expect("select");
        let y = (6.0 * arms[[a, 0]]).sin() + 2.0 * rng.random::<f64>() - 1.0;
        let m = c.privatize(y, &mut rng).expect("privatize");
        agent.observe(m).expect("observe");
    }
}

fn bench_round<A: Agent<Message = PrivateReward> + Clone>(
    cr: &mut Criterion,
    name: &str,
    agent: A,
    c: &CtlCurator,
    t: usize,
) {
    let arms = arms();
    let mut warmed = agent;
    warm(&mut warmed, c, &arms, t);
    let mut rng = ChaCha20Rng::seed_from_u64(11);
    cr.bench_function(&format!("{name}/round_at_t={t}"), |b| {
        b.iter_batched(
            || warmed.clone(),
            |mut a| {
                let i = a.select(arms.view(), &mut rng).expect("select");
                let m = c.privatize(0.1 * i as f64, &mut rng).expect("privatize");
                a.observe(m).expect("observe");
                black_box(a)
            },
            BatchSize::LargeInput,
        )
    });
}

fn per_round(cr: &mut Criterion) {
    let k: Arc<dyn Kernel> = Arc::new(SquaredExponential::isotropic(0.2).expect("l > 0"));
    let c = CtlCurator::new(1.0, 1.0, 1.0).expect("curator");
    let a = arms();
    for t in [100usize, 1000] {
        let tgp = TgpUcb::private(k.clone(), a.view(), &c, TgpParams::of(Preset::Practical))
            .expect("tgp");
        bench_round(cr, "ldp-tgp-ucb", tgp, &c, t);
        let ata = AtaGpUcb::private(
            k.clone(),
            a.view(),
            &c,
            1000,
            AtaParams::of(Preset::Practical),
        )
        .expect("ata");
        bench_round(cr, "ldp-ata-gp-ucb", ata, &c, t);
        let moma = MomaGpUcb::private(
            k.clone(),
            a.view(),
            &c,
            1000,
            MomaParams::of(Preset::Practical),
        )
        .expect("moma");
        bench_round(cr, "ldp-moma-gp-ucb", moma, &c, t);
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(3));
    targets = per_round
}
criterion_main!(benches);
