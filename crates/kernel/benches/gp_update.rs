//! Incremental GP update: one `ExactGp::observe` at t = 100, 500, 1000 existing observations
//! (O(t^2) Cholesky extension), versus a from-scratch factorisation at the same t; one
//! `WeightSpaceGp::observe` (rank-one update) with m = 64 and 512 features; one
//! `FiniteDomainGp::observe` on 100 candidates in each regime: the appended Cholesky at t = 50,
//! the switch at t = n (the Gram matrix and a recomputation from the sufficient statistics, the
//! cost of every periodic recomputation), and a rank-one step at t = 1000.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use kernel::{ExactGp, FiniteDomainGp, SquaredExponential, WeightSpaceGp};
use ndarray::{Array1, Array2};

fn points(n: usize) -> Array2<f64> {
    Array2::from_shape_fn((n, 2), |(i, j)| {
        ((i * 7919 + j * 104_729) % 10_007) as f64 / 10_007.0
    })
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("gp_update");
    let k = SquaredExponential::isotropic(0.2).unwrap();
    for t in [100usize, 500, 1000] {
        let x = points(t + 1);
        let y: Array1<f64> = x
            .rows()
            .into_iter()
            .map(|r| (5.0 * r.sum()).sin())
            .collect();
        let mut gp = ExactGp::new(k.clone(), 0.01).unwrap();
        for i in 0..t {
            gp.observe(x.row(i), y[i]).unwrap();
        }
        g.bench_function(format!("exact_observe_t{t}"), |b| {
            b.iter_batched(
                || gp.clone(),
                |mut gp| {
                    gp.observe(black_box(x.row(t)), y[t]).unwrap();
                    gp
                },
                BatchSize::LargeInput,
            )
        });
        let xt = x
            .slice_axis(ndarray::Axis(0), ndarray::Slice::from(0..t + 1))
            .to_owned();
        g.bench_function(format!("exact_from_scratch_t{}", t + 1), |b| {
            b.iter(|| ExactGp::from_data(k.clone(), 0.01, black_box(xt.view()), y.view()).unwrap())
        });
    }
    for m in [64usize, 512] {
        let ws = WeightSpaceGp::new(m, 1.0).unwrap();
        let phi = Array1::from_shape_fn(m, |i| ((i * 13) % 17) as f64 / 17.0 - 0.5);
        g.bench_function(format!("weight_space_observe_m{m}"), |b| {
            b.iter_batched(
                || ws.clone(),
                |mut ws| {
                    ws.observe(black_box(phi.view()), 0.3).unwrap();
                    ws
                },
                BatchSize::LargeInput,
            )
        });
    }
    let arms = Array2::from_shape_fn((100, 1), |(i, _)| i as f64 / 99.0);
    for (label, t) in [
        ("appended_cholesky_t50", 50usize),
        ("switch_at_t100", 100),
        ("rank_one_t1000", 1000),
    ] {
        let mut gp = FiniteDomainGp::new(k.clone(), arms.view(), 1.0, false).unwrap();
        for i in 0..t {
            let a = (i * 37) % 100;
            gp.observe(a, (6.0 * arms[[a, 0]]).sin()).unwrap();
        }
        g.bench_function(format!("finite_domain_n100_{label}"), |b| {
            b.iter_batched(
                || gp.clone(),
                |mut gp| {
                    gp.observe(black_box(7), 0.5).unwrap();
                    gp
                },
                BatchSize::LargeInput,
            )
        });
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().measurement_time(Duration::from_secs(2)).warm_up_time(Duration::from_millis(500)).sample_size(20);
    targets = bench
}
criterion_main!(benches);
