//! Helpers shared by the integration tests (included with `mod common;`).
#![allow(dead_code)]

pub use kernel::linalg::max_abs_diff;
use ndarray::Array2;
use rand::RngExt;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;

/// A seeded ChaCha20 generator.
pub fn rng(seed: u64) -> ChaCha20Rng {
    ChaCha20Rng::seed_from_u64(seed)
}

/// `n x d` points uniform on `[0, 1]^d`.
pub fn uniform_points(n: usize, d: usize, seed: u64) -> Array2<f64> {
    let mut r = rng(seed);
    Array2::from_shape_fn((n, d), |_| r.random::<f64>())
}

/// `n` equispaced points on `[0, 1]` as an `n x 1` batch.
pub fn grid_1d(n: usize) -> Array2<f64> {
    Array2::from_shape_fn((n, 1), |(i, _)| i as f64 / (n - 1) as f64)
}
