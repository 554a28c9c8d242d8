//! Criterion benches: cost per sample of the hardened and textbook samplers (single calls and
//! batches of 10 000), of the exact Bernoulli(exp(-gamma)) they rest on, of the exact
//! exponential mechanism, and of the accountants.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use num_bigint::BigUint;
use privacy::accountant::rdp::paper_preset_epsilon;
use privacy::accountant::{PldSettings, subsampled_gaussian_pld_epsilon};
use privacy::exact;
use privacy::exact_fixed::{self, DiscreteGaussian, DiscreteLaplace};
use privacy::mechanisms::ExponentialMechanism;
use privacy::sampler::{Grid, Hardened, NoiseSampler, Norm, Textbook};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;

fn samplers(c: &mut Criterion) {
    let mut rng = ChaCha20Rng::seed_from_u64(0);
    let grid = Grid::for_sensitivity(1.0, 1, Norm::L2).expect("valid grid");
    c.bench_function("hardened laplace (b = 1, grid 2^-20)", |b| {
        b.iter(|| Hardened.perturb_laplace(black_box(0.3), 1.0, grid, &mut rng))
    });
    c.bench_function("hardened gaussian (sigma = 1, grid 2^-20)", |b| {
        b.iter(|| Hardened.perturb_gaussian(black_box(0.3), 1.0, grid, &mut rng))
    });
    c.bench_function("textbook laplace", |b| {
        b.iter(|| Textbook::laplace(black_box(1.0), &mut rng))
    });
    c.bench_function("textbook gaussian", |b| {
        b.iter(|| Textbook::gaussian(black_box(1.0), &mut rng))
    });
    fixed_width(c, &mut rng);
    c.bench_function("hardened uniform", |b| {
        b.iter(|| Hardened.uniform(&mut rng))
    });
    let u: Vec<f64> = (0..100).map(|i| (i as f64 * 0.37).sin()).collect();
    let m = ExponentialMechanism::new(1.0, 1.0).expect("valid mechanism");
    c.bench_function("exponential mechanism, exact, 100 candidates", |b| {
        b.iter(|| m.select(black_box(&u), &mut rng))
    });
}

/// Textbook against hardened, per sample and per batch of 10 000, at the scales the mechanisms
/// use: sigma (or the Laplace scale) of 1.5 sensitivities, on the grid of a 200-coordinate L2
/// sensitivity (jdp-qff's m = 200 round), so about 2^27 grid units; the hardened path through
/// the public `NoiseSampler` API (fixed-width), and the arbitrary-precision reference beside it.
fn fixed_width(c: &mut Criterion, rng: &mut ChaCha20Rng) {
    let grid = Grid::for_sensitivity(1.0, 200, Norm::L2).expect("valid grid");
    let scale = 1.5;
    let mut g = c.benchmark_group("per sample, scale 1.5, grid for 200 coordinates");
    g.bench_function("textbook gaussian", |b| {
        b.iter(|| Textbook.perturb_gaussian(black_box(0.3), scale, grid, rng))
    });
    g.bench_function("hardened gaussian (fixed width)", |b| {
        b.iter(|| Hardened.perturb_gaussian(black_box(0.3), scale, grid, rng))
    });
    g.bench_function("hardened gaussian (arbitrary-precision reference)", |b| {
        b.iter(|| Hardened::reference_discrete_gaussian(black_box(scale), grid, rng))
    });
    g.bench_function("textbook laplace", |b| {
        b.iter(|| Textbook.perturb_laplace(black_box(0.3), scale, grid, rng))
    });
    g.bench_function("hardened laplace (fixed width)", |b| {
        b.iter(|| Hardened.perturb_laplace(black_box(0.3), scale, grid, rng))
    });
    g.bench_function("hardened laplace (arbitrary-precision reference)", |b| {
        b.iter(|| Hardened::reference_discrete_laplace(black_box(scale), grid, rng))
    });
    g.finish();
    let mut g = c.benchmark_group("batch of 10 000, scale 1.5, grid for 200 coordinates");
    g.throughput(criterion::Throughput::Elements(10_000));
    let mut out = vec![0.0; 10_000];
    g.bench_function("textbook gaussian", |b| {
        b.iter(|| Textbook.gaussian_noise_into(black_box(scale), grid, &mut out, rng))
    });
    g.bench_function("hardened gaussian (fixed width)", |b| {
        b.iter(|| Hardened.gaussian_noise_into(black_box(scale), grid, &mut out, rng))
    });
    let mut values = vec![0.3; 10_000];
    g.bench_function("textbook laplace", |b| {
        b.iter(|| Textbook.perturb_laplace_into(black_box(&mut values), scale, grid, rng))
    });
    g.bench_function("hardened laplace (fixed width)", |b| {
        b.iter(|| Hardened.perturb_laplace_into(black_box(&mut values), scale, grid, rng))
    });
    let units = scale / grid.width();
    let (num, den) = (units as u64, 1);
    let laplace = DiscreteLaplace::new(num, den).expect("scale within range");
    let mut ints = vec![0i64; 10_000];
    g.bench_function("hardened laplace (fixed width, integers)", |b| {
        b.iter(|| laplace.fill(black_box(&mut ints), rng))
    });
    let gaussian = DiscreteGaussian::new(num, den).expect("sigma within range");
    g.bench_function("hardened gaussian (fixed width, integers)", |b| {
        b.iter(|| gaussian.fill(black_box(&mut ints), rng))
    });
    g.finish();
    bernoulli_exp_neg(c, rng);
}

/// Bernoulli(exp(-gamma)), the step both exact samplers rest on, at the rational gammas they
/// use (`gamma = a/b` below 1, e.g. `U/t` in the discrete Laplace, and above 1): the
/// fixed-width form against the arbitrary-precision reference.
fn bernoulli_exp_neg(c: &mut Criterion, rng: &mut ChaCha20Rng) {
    let mut g = c.benchmark_group("bernoulli(exp(-gamma))");
    for (a, b) in [(1u64, 3u64), (2_718_281, 1_000_000), (7, 2)] {
        let (big_a, big_b) = (BigUint::from(a), BigUint::from(b));
        g.bench_function(format!("fixed width, gamma = {a}/{b}"), |bench| {
            bench.iter(|| exact_fixed::bernoulli_exp_neg(black_box(a), b, rng))
        });
        g.bench_function(format!("arbitrary precision, gamma = {a}/{b}"), |bench| {
            bench.iter(|| exact::bernoulli_exp_neg(black_box(&big_a), &big_b, rng))
        });
    }
    g.finish();
}

fn accountants(c: &mut Criterion) {
    let delta = 200f64.powf(-1.1);
    c.bench_function("rdp paper preset (q = 0.25, z = 1, T = 40)", |b| {
        b.iter(|| paper_preset_epsilon(black_box(0.25), 1.0, 40, delta))
    });
    let mut g = c.benchmark_group("pld");
    g.sample_size(10);
    g.bench_function("pld (q = 0.25, z = 1, T = 40, h = 1e-3)", |b| {
        b.iter(|| {
            subsampled_gaussian_pld_epsilon(
                black_box(0.25),
                1.0,
                40,
                delta,
                PldSettings {
                    bin_width: 1e-3,
                    tail_mass: 1e-20,
                },
            )
        })
    });
    g.finish();
}

criterion_group!(benches, samplers, accountants);
criterion_main!(benches);
