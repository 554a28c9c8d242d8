//! The cost of building USCA's `mu_T` and `sigma^2` (the `|Z| x |Z|` Cholesky and one product
//! with `K_{Z, W_T}`) at `T` = 1000, 10 000, 100 000 with a fixed `|Z| = 1024`, against the
//! exact GP posterior (a `T x T` Cholesky) where it is feasible, and of one prediction (the
//! utilities of 50 actions and one exponential-mechanism draw).
//!
//! `cargo bench -p usca --bench estimator` (or `cargo xtask bench usca`).

use std::hint::black_box;
use std::sync::Arc;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use kernel::ExactGp;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use usca::synthetic::SyntheticProblem;
use usca::{SurrogateVariance, UscaEstimator, learning_stage, sample_approximating_set};

const Z_SIZE: usize = 1024;

fn build(c: &mut Criterion) {
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    let spec = SyntheticProblem::default();
    let inst = spec.sample(&mut rng).expect("instance");
    let mut g = c.benchmark_group("usca/build");
    g.sample_size(10);
    for t in [1_000usize, 10_000, 100_000] {
        let data = learning_stage(&inst.problem, t, 1.5, &mut rng).expect("data");
        let z = sample_approximating_set(&inst.problem, Z_SIZE, &mut rng).expect("Z");
        g.bench_with_input(
            BenchmarkId::new("mu_T and sigma^2, |Z| = 1024", t),
            &t,
            |b, &t| {
                b.iter(|| {
                    let v = Arc::new(
                        SurrogateVariance::new(inst.kernel.clone(), z.clone(), t, 1.0)
                            .expect("factor"),
                    );
                    black_box(UscaEstimator::fit(v, data.clone()).expect("fit"))
                });
            },
        );
        if t <= 1_000 {
            g.bench_with_input(BenchmarkId::new("exact GP posterior", t), &t, |b, _| {
                b.iter(|| {
                    black_box(
                        ExactGp::from_data(
                            spec.kernel().expect("k"),
                            1.0,
                            data.points(),
                            data.rewards(),
                        )
                        .expect("gp"),
                    )
                });
            });
        }
    }
    g.finish();
}

fn predict(c: &mut Criterion) {
    let mut rng = ChaCha20Rng::seed_from_u64(2);
    let inst = SyntheticProblem::default()
        .sample(&mut rng)
        .expect("instance");
    let mut g = c.benchmark_group("usca/predict");
    for t in [1_000usize, 10_000] {
        let data = learning_stage(&inst.problem, t, 1.5, &mut rng).expect("data");
        let z = sample_approximating_set(&inst.problem, Z_SIZE, &mut rng).expect("Z");
        let v = Arc::new(SurrogateVariance::new(inst.kernel.clone(), z, t, 1.0).expect("factor"));
        let e = UscaEstimator::fit(v.clone(), data).expect("fit");
        let w = inst.problem.joint_all(ndarray::array![0.3].view());
        let m = privacy::mechanisms::ExponentialMechanism::new(1.0, 3.0).expect("em");
        g.bench_with_input(
            BenchmarkId::new("utilities of 50 actions + one draw", t),
            &t,
            |b, _| {
                b.iter(|| {
                    let u = e.mu(w.view()).expect("mu");
                    black_box(
                        m.select(u.as_slice().expect("contiguous"), &mut rng)
                            .expect("draw"),
                    )
                });
            },
        );
    }
    g.finish();
}

criterion_group!(benches, build, predict);
criterion_main!(benches);
