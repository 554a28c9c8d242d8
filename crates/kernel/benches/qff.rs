//! QFF map: one point and a batch, d = 1 (mbar = 32, m = 64) and d = 2 (mbar = 16, m = 512).

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use kernel::{FeatureMap, Lengthscales, QuadratureFourierFeatures, SquaredExponential};
use ndarray::{Array1, Array2};

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("qff_map");
    for (d, mbar) in [(1usize, 32usize), (2, 16)] {
        let k = SquaredExponential::new(
            1.0,
            Lengthscales::per_dimension(Array1::from_elem(d, 0.2)).unwrap(),
        )
        .unwrap();
        let q = QuadratureFourierFeatures::new(&k, d, mbar).unwrap();
        let x = Array1::from_elem(d, 0.37);
        g.bench_function(format!("point_d{d}_m{}", q.dim()), |b| {
            b.iter(|| q.map(black_box(x.view())).unwrap())
        });
        let xs = Array2::from_shape_fn((1000, d), |(i, j)| {
            ((i * 31 + j * 7) % 1000) as f64 / 1000.0
        });
        g.bench_function(format!("batch1000_d{d}_m{}", q.dim()), |b| {
            b.iter(|| q.map_batch(black_box(xs.view())).unwrap())
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
