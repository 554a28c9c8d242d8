//! The one bootstrap over seeds of the scaling checker and the privacy sweep: resample the
//! seeds with replacement (the same resample at every horizon or epsilon, so that a seed's
//! correlations are kept), refit, and take the standard deviation of the refitted slopes.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha20Rng;

use crate::audit::mix;

/// `replicates` resamples of `n` seeds (indices drawn with replacement from the generator
/// seeded by `mix(seed)`, one resample after the other), each refitted by `fit`; the slopes of
/// the resamples `fit` could fit (a resample whose mean has a zero is skipped).
pub(super) fn slopes(
    n: usize,
    replicates: usize,
    seed: u64,
    fit: impl Fn(&[usize]) -> Option<f64>,
) -> Vec<f64> {
    let mut rng = ChaCha20Rng::seed_from_u64(mix(seed));
    (0..replicates)
        .filter_map(|_| {
            let idx: Vec<usize> = (0..n).map(|_| rng.random_range(0..n)).collect();
            fit(&idx)
        })
        .collect()
}

/// The sample standard deviation of the slopes (`n - 1` in the denominator; 0 for fewer than
/// two).
pub(super) fn standard_deviation(v: &[f64]) -> f64 {
    if v.len() < 2 {
        return 0.0;
    }
    let m = v.iter().sum::<f64>() / v.len() as f64;
    (v.iter().map(|b| (b - m) * (b - m)).sum::<f64>() / (v.len() - 1) as f64).sqrt()
}
