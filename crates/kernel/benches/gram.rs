//! Gram matrices of n points in d = 3: SE and Matérn-5/2.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use kernel::{Kernel, Matern, MaternNu, SquaredExponential};
use ndarray::Array2;

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("gram");
    let se = SquaredExponential::isotropic(0.3).unwrap();
    let ma = Matern::isotropic(MaternNu::FiveHalves, 0.3).unwrap();
    for n in [100usize, 500] {
        let x = Array2::from_shape_fn((n, 3), |(i, j)| ((i * 37 + j * 11) % 997) as f64 / 997.0);
        g.bench_function(format!("se_n{n}_d3"), |b| {
            b.iter(|| se.gram(black_box(x.view())).unwrap())
        });
        g.bench_function(format!("matern52_n{n}_d3"), |b| {
            b.iter(|| ma.gram(black_box(x.view())).unwrap())
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
