//! Distribution tests of the samplers: Kolmogorov-Smirnov with the DKW threshold at a stated
//! false-failure probability (1e-7 per test), each with a power check (the same test must reject
//! samples from the same sampler at a scale off by 10%).
#![allow(clippy::float_cmp)] // exact test vectors: equality is the point

use num_bigint::BigUint;
use num_traits::ToPrimitive;
use privacy::distribution_tests::{
    discrete_gaussian_cdf, discrete_laplace_cdf, dkw_threshold, ks_statistic, ks_statistic_integer,
    laplace_cdf,
};
use privacy::exact;
use privacy::sampler::{Grid, Hardened, NoiseSampler, Textbook};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use statrs::distribution::{ContinuousCDF, Normal};

/// False-failure probability of each test (DKW, exact for every n).
const ALPHA: f64 = 1e-7;
const N: usize = 100_000;

fn rng(seed: u64) -> ChaCha20Rng {
    ChaCha20Rng::seed_from_u64(seed)
}

fn integer_laplace(scale_num: u32, scale_den: u32, seed: u64) -> Vec<i64> {
    let mut r = rng(seed);
    let (s, t) = (BigUint::from(scale_den), BigUint::from(scale_num));
    (0..N)
        .map(|_| exact::discrete_laplace(&s, &t, &mut r).to_i64().unwrap())
        .collect()
}

fn integer_gaussian(p: u32, q: u32, seed: u64) -> Vec<i64> {
    let mut r = rng(seed);
    let (p, q) = (BigUint::from(p), BigUint::from(q));
    (0..N)
        .map(|_| exact::discrete_gaussian(&p, &q, &mut r).to_i64().unwrap())
        .collect()
}

#[test]
fn discrete_laplace_matches_its_law_and_detects_10_percent() {
    // Scale t = 37/10 = 3.7.
    let thr = dkw_threshold(N, ALPHA);
    let x = integer_laplace(37, 10, 11);
    let d = ks_statistic_integer(&x, |k| discrete_laplace_cdf(3.7, k));
    assert!(d <= thr, "KS {d} > {thr}");
    // Power: samples at scale 3.7 * 1.1 = 4.07 tested against 3.7.
    let y = integer_laplace(407, 100, 12);
    let d = ks_statistic_integer(&y, |k| discrete_laplace_cdf(3.7, k));
    assert!(d > thr, "power: KS {d} <= {thr}");
}

#[test]
fn discrete_gaussian_matches_its_law_and_detects_10_percent() {
    // sigma^2 = 841/100 (sigma = 2.9).
    let thr = dkw_threshold(N, ALPHA);
    let x = integer_gaussian(841, 100, 21);
    let cdf = discrete_gaussian_cdf(2.9);
    let d = ks_statistic_integer(&x, &cdf);
    assert!(d <= thr, "KS {d} > {thr}");
    // Power: sigma = 3.19 (10% larger), tested against 2.9.
    let y = integer_gaussian(319 * 319, 100 * 100, 22);
    let d = ks_statistic_integer(&y, &cdf);
    assert!(d > thr, "power: KS {d} <= {thr}");
}

#[test]
fn hardened_real_valued_noise_matches_the_continuous_law_up_to_the_grid() {
    // On a grid of width w, the grid law's CDF is within one atom (<= w / b for Laplace,
    // <= w / sigma for the Gaussian) of the continuous CDF; that allowance is added to the DKW
    // threshold.
    let mut r = rng(31);
    let b = 1.7;
    let grid = Grid::for_sensitivity(1.0, 1, privacy::sampler::Norm::L1).unwrap();
    let w = grid.width();
    let thr = dkw_threshold(N, ALPHA);
    let x: Vec<f64> = (0..N)
        .map(|_| Hardened.perturb_laplace(0.0, b, grid, &mut r).unwrap())
        .collect();
    assert!(
        x.iter().all(|v| (v / w).fract() == 0.0),
        "outputs lie on the grid"
    );
    assert!(ks_statistic(&x, |v| laplace_cdf(b, v)) <= thr + w / b);
    let y: Vec<f64> = (0..N)
        .map(|_| {
            Hardened
                .perturb_laplace(0.0, 1.1 * b, grid, &mut r)
                .unwrap()
        })
        .collect();
    assert!(
        ks_statistic(&y, |v| laplace_cdf(b, v)) > thr + w / b,
        "power"
    );

    let sigma = 2.3;
    let n = Normal::new(0.0, sigma).unwrap();
    let g: Vec<f64> = (0..N)
        .map(|_| Hardened.perturb_gaussian(0.0, sigma, grid, &mut r).unwrap())
        .collect();
    assert!(ks_statistic(&g, |v| n.cdf(v)) <= thr + w / sigma);
    let h: Vec<f64> = (0..N)
        .map(|_| {
            Hardened
                .perturb_gaussian(0.0, 1.1 * sigma, grid, &mut r)
                .unwrap()
        })
        .collect();
    assert!(ks_statistic(&h, |v| n.cdf(v)) > thr + w / sigma, "power");
}

#[test]
fn textbook_samplers_match_their_laws_and_detect_10_percent() {
    let mut r = rng(41);
    let thr = dkw_threshold(N, ALPHA);
    let b = 0.8;
    let x: Vec<f64> = (0..N).map(|_| Textbook::laplace(b, &mut r)).collect();
    assert!(ks_statistic(&x, |v| laplace_cdf(b, v)) <= thr);
    let y: Vec<f64> = (0..N).map(|_| Textbook::laplace(1.1 * b, &mut r)).collect();
    assert!(ks_statistic(&y, |v| laplace_cdf(b, v)) > thr, "power");
    let n = Normal::new(0.0, 1.3).unwrap();
    let g: Vec<f64> = (0..N).map(|_| Textbook::gaussian(1.3, &mut r)).collect();
    assert!(ks_statistic(&g, |v| n.cdf(v)) <= thr);
    let h: Vec<f64> = (0..N).map(|_| Textbook::gaussian(1.43, &mut r)).collect();
    assert!(ks_statistic(&h, |v| n.cdf(v)) > thr, "power");
}

#[test]
fn hardened_uniform_is_uniform() {
    let mut r = rng(51);
    let thr = dkw_threshold(N, ALPHA);
    let u: Vec<f64> = (0..N).map(|_| Hardened.uniform(&mut r)).collect();
    assert!(ks_statistic(&u, |v| v.clamp(0.0, 1.0)) <= thr);
    // Power: u^1.1 is not uniform (the largest CDF gap of x^(1/1.1) vs x is 0.035).
    let v: Vec<f64> = u.iter().map(|x| x.powf(1.1)).collect();
    assert!(ks_statistic(&v, |x| x.clamp(0.0, 1.0)) > thr, "power");
}

/// The fixed-width exact samplers against their closed-form laws at three scales each (an
/// integer, a non-dyadic rational, and a scale of the size the mechanisms use in grid units,
/// where the discrete CDF is compared with the continuous one plus one atom `1/scale`), each with
/// a power check at a scale 10% too large. The 1% controls run in `cargo xtask verify`
/// (`privacy/sampler/fixed-*`), at the sample sizes they need.
#[test]
fn fixed_width_samplers_match_their_laws_at_three_scales() {
    use privacy::exact_fixed::{DiscreteGaussian, DiscreteLaplace};
    let thr = dkw_threshold(N, ALPHA);
    for (k, &(num, den)) in [(1u64, 1u64), (7, 3), (12_345_678_901, 1024)]
        .iter()
        .enumerate()
    {
        let scale = num as f64 / den as f64;
        let big = scale > 1000.0;
        let allowance = if big { 1.0 / scale } else { 0.0 };
        let gaussian_cdf = |sigma: f64| -> Box<dyn Fn(i64) -> f64> {
            if big {
                let n = Normal::new(0.0, sigma).unwrap();
                Box::new(move |i: i64| n.cdf(i as f64))
            } else {
                Box::new(discrete_gaussian_cdf(sigma))
            }
        };
        let laplace_cdf_at = |b: f64| -> Box<dyn Fn(i64) -> f64> {
            if big {
                Box::new(move |i: i64| laplace_cdf(b, i as f64))
            } else {
                Box::new(move |i: i64| discrete_laplace_cdf(b, i))
            }
        };
        let mut out = vec![0i64; N];
        let mut r = rng(80 + k as u64);
        DiscreteGaussian::new(num, den)
            .unwrap()
            .fill(&mut out, &mut r)
            .unwrap();
        let d = ks_statistic_integer(&out, gaussian_cdf(scale));
        assert!(d <= thr + allowance, "Gaussian {num}/{den}: KS {d} > {thr}");
        DiscreteGaussian::new(num * 11, den * 10)
            .unwrap()
            .fill(&mut out, &mut r)
            .unwrap();
        let d = ks_statistic_integer(&out, gaussian_cdf(scale));
        assert!(d > thr + allowance, "Gaussian {num}/{den} power: KS {d}");
        DiscreteLaplace::new(num, den)
            .unwrap()
            .fill(&mut out, &mut r)
            .unwrap();
        let d = ks_statistic_integer(&out, laplace_cdf_at(scale));
        assert!(d <= thr + allowance, "Laplace {num}/{den}: KS {d} > {thr}");
        DiscreteLaplace::new(num * 11, den * 10)
            .unwrap()
            .fill(&mut out, &mut r)
            .unwrap();
        let d = ks_statistic_integer(&out, laplace_cdf_at(scale));
        assert!(d > thr + allowance, "Laplace {num}/{den} power: KS {d}");
    }
}

/// The hardened batch draws from the law of the per-entry calls: the batch of `sigma = 1234.5`
/// noise on the grid is tested against the continuous law (DKW plus one grid atom), and the same
/// test rejects a batch drawn at 1.1 sigma. (Its draws differ from successive single calls: the
/// batch shares one buffer of random bits.)
#[test]
fn the_hardened_batch_has_the_per_entry_law() {
    use privacy::sampler::{Norm, Sampler};
    let grid = Grid::for_sensitivity(1.5, 60, Norm::L2).unwrap();
    let thr = dkw_threshold(N, ALPHA);
    let sigma = 1234.5;
    let n = Normal::new(0.0, sigma).unwrap();
    let allowance = grid.width() / sigma;
    let mut batch = vec![f64::NAN; N];
    Sampler::Hardened
        .gaussian_noise_into(sigma, grid, &mut batch, &mut rng(72))
        .unwrap();
    assert!(batch.iter().all(|v| (v / grid.width()).fract() == 0.0));
    assert!(ks_statistic(&batch, |v| n.cdf(v)) <= thr + allowance);
    Sampler::Hardened
        .gaussian_noise_into(1.1 * sigma, grid, &mut batch, &mut rng(73))
        .unwrap();
    assert!(
        ks_statistic(&batch, |v| n.cdf(v)) > thr + allowance,
        "power"
    );
}

/// The hardened noise batch is the hardened perturbation batch of zeros, bit for bit, for the
/// same seed: on the fixed-width path (which skips the per-entry grid index) and on the
/// arbitrary-precision one (a scale in grid units that is not a ratio of integers up to 2^53).
#[test]
fn the_hardened_noise_batch_is_the_perturbation_of_zeros() {
    use privacy::sampler::{Norm, Sampler};
    let grid = Grid::for_sensitivity(1.5, 60, Norm::L2).unwrap();
    for sigma in [0.37, 3.0, 1234.5, 1e300] {
        let mut noise = vec![f64::NAN; 200];
        Sampler::Hardened
            .gaussian_noise_into(sigma, grid, &mut noise, &mut rng(74))
            .unwrap();
        let mut zeros = vec![0.0; 200];
        Sampler::Hardened
            .perturb_gaussian_into(&mut zeros, sigma, grid, &mut rng(74))
            .unwrap();
        for (k, (a, b)) in noise.iter().zip(&zeros).enumerate() {
            assert_eq!(a.to_bits(), b.to_bits(), "sigma {sigma}, entry {k}");
        }
        assert!(noise.iter().any(|&v| v != 0.0), "sigma {sigma}: all zero");
    }
}

/// Beyond `2^62` grid units (the big-integer path of the batch) the hardened perturbation is
/// still the value's grid index plus the noise batch's draw, `value_of(index_of(x) + z_k)` with
/// `z_k` the same seed's noise in grid units: a batch that subtracted the draw there (the same
/// law, the symmetric noise) or dropped it fails.
#[test]
fn the_hardened_batch_adds_its_draws_beyond_2_pow_62_grid_units() {
    use num_bigint::BigInt;
    use privacy::sampler::{Norm, Sampler};
    let grid = Grid::for_sensitivity(1.5, 60, Norm::L2).unwrap();
    for sigma in [3.0, 1234.5] {
        let mut noise = vec![f64::NAN; 200];
        Sampler::Hardened
            .gaussian_noise_into(sigma, grid, &mut noise, &mut rng(75))
            .unwrap();
        let far = |k: usize| {
            let sign = if k.is_multiple_of(2) { 1.0 } else { -1.0 };
            sign * 2f64.powi(64) * (1.0 + k as f64 / 256.0) * grid.width()
        };
        let mut values: Vec<f64> = (0..200).map(far).collect();
        Sampler::Hardened
            .perturb_gaussian_into(&mut values, sigma, grid, &mut rng(75))
            .unwrap();
        let mut moved = 0;
        for (k, (v, z)) in values.iter().zip(&noise).enumerate() {
            let z = BigInt::from((z / grid.width()) as i64);
            let expected = grid.value_of(&(grid.index_of(far(k)).unwrap() + z));
            assert_eq!(v.to_bits(), expected.to_bits(), "sigma {sigma}, entry {k}");
            moved += usize::from(*v != far(k));
        }
        assert!(
            moved > 100,
            "sigma {sigma}: the noise moved {moved} of 200 values"
        );
    }
}

/// The textbook batch form draws what the per-entry calls draw, bit for bit (a batch form that
/// consumed the randomness differently, or rescaled it, fails); both samplers refuse a bad sigma.
#[test]
fn the_batch_gaussian_is_the_per_entry_gaussian() {
    use privacy::sampler::{Norm, Sampler};
    for sampler in [Sampler::Textbook, Sampler::Hardened] {
        for sigma in [0.37, 3.0, 1234.5] {
            if sampler == Sampler::Hardened {
                break;
            }
            let grid = Grid::for_sensitivity(1.5, 60, Norm::L2).unwrap();
            let mut batch = vec![f64::NAN; 60];
            sampler
                .gaussian_noise_into(sigma, grid, &mut batch, &mut rng(71))
                .unwrap();
            let mut r = rng(71);
            for (k, &b) in batch.iter().enumerate() {
                let one = sampler.perturb_gaussian(0.0, sigma, grid, &mut r).unwrap();
                assert_eq!(
                    b.to_bits(),
                    one.to_bits(),
                    "{sampler:?}, sigma {sigma}, entry {k}"
                );
            }
        }
        let grid = Grid::for_sensitivity(1.0, 1, Norm::L2).unwrap();
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            assert!(
                sampler
                    .gaussian_noise_into(bad, grid, &mut [0.0; 3], &mut rng(1))
                    .is_err(),
                "{sampler:?} accepted sigma {bad}"
            );
        }
    }
}

/// The Laplace batch (`perturb_laplace_into`, what `LaplaceMechanism::release_vector` calls):
/// the textbook batch draws what the per-entry calls draw, bit for bit; the hardened batch
/// (one shared buffer of random bits, so different draws) has the per-entry law: KS of the
/// output minus the value against the continuous Laplace(b) (DKW plus one grid width, which
/// covers the atoms and the rounding of the value to the grid), at a scale on the fixed-width
/// path (1234.5: one batch) and one beyond it (2^60 grid units, above the fixed-width
/// samplers' 2^53: the batch falls back to single calls of the arbitrary-precision sampler),
/// and the same test rejects a batch drawn at 1.1 b. The values are off the grid, so a batch
/// that skipped rounding them leaves its outputs off the grid (checked at the fixed-width
/// scale, where the outputs are small enough for that to show). Both samplers refuse a bad
/// scale and a non-finite value.
#[test]
fn the_laplace_batch_has_the_per_entry_law() {
    use privacy::sampler::{Norm, Sampler};
    let grid = Grid::for_sensitivity(1.5, 60, Norm::L1).unwrap();
    let thr = dkw_threshold(N, ALPHA);
    // Off the grid (the grid width is 2^-k; 0.1 is no multiple of it).
    let values: Vec<f64> = (0..N).map(|k| (k % 7) as f64 * 0.1 - 0.3).collect();
    assert!(values.iter().any(|v| (v / grid.width()).fract() != 0.0));
    let centred =
        |out: &[f64]| -> Vec<f64> { out.iter().zip(&values).map(|(y, x)| y - x).collect() };
    for b in [1234.5, grid.width() * 2f64.powi(60)] {
        let mut batch = values.clone();
        Sampler::Textbook
            .perturb_laplace_into(&mut batch, b, grid, &mut rng(81))
            .unwrap();
        let mut r = rng(81);
        for (k, (&y, &x)) in batch.iter().zip(&values).enumerate().take(500) {
            let one = Sampler::Textbook
                .perturb_laplace(x, b, grid, &mut r)
                .unwrap();
            assert_eq!(y.to_bits(), one.to_bits(), "textbook b {b}, entry {k}");
        }
        let allowance = grid.width() / b;
        let mut batch = values.clone();
        Sampler::Hardened
            .perturb_laplace_into(&mut batch, b, grid, &mut rng(82))
            .unwrap();
        if b < 1e6 {
            assert!(batch.iter().all(|v| (v / grid.width()).fract() == 0.0));
        }
        let d = ks_statistic(&centred(&batch), |z| laplace_cdf(b, z));
        assert!(d <= thr + allowance, "hardened b {b}: KS {d} > {thr}");
        let mut batch = values.clone();
        Sampler::Hardened
            .perturb_laplace_into(&mut batch, 1.1 * b, grid, &mut rng(83))
            .unwrap();
        let d = ks_statistic(&centred(&batch), |z| laplace_cdf(b, z));
        assert!(d > thr + allowance, "power at b {b}: KS {d}");
    }
    for sampler in [Sampler::Textbook, Sampler::Hardened] {
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            assert!(
                sampler
                    .perturb_laplace_into(&mut [0.0; 3], bad, grid, &mut rng(1))
                    .is_err(),
                "{sampler:?} accepted scale {bad}"
            );
        }
        assert!(
            sampler
                .perturb_laplace_into(&mut [0.0, f64::NAN], 1.0, grid, &mut rng(1))
                .is_err(),
            "{sampler:?} accepted a NaN value"
        );
    }
}

/// `Grid::round` (machine integers when the index fits) is `value_of(index_of(x))` (big
/// integers) bit for bit, across magnitudes from far below the width to beyond `2^62` widths,
/// and refuses what `index_of` refuses.
#[test]
fn grid_round_is_the_big_integer_rounding() {
    use privacy::sampler::Norm;
    let grid = Grid::for_sensitivity(1.0, 200, Norm::L2).unwrap();
    let mut r = rng(90);
    for k in -40..80 {
        for _ in 0..50 {
            let u: f64 = rand::RngExt::random::<f64>(&mut r) - 0.5;
            let x = u * 2f64.powi(k);
            let slow = grid.value_of(&grid.index_of(x).unwrap());
            assert_eq!(grid.round(x).unwrap().to_bits(), slow.to_bits(), "{x}");
        }
    }
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        assert!(grid.round(bad).is_err());
    }
}

/// Pearson correlation of two equally long samples.
fn pearson(a: &[f64], b: &[f64]) -> f64 {
    let n = a.len() as f64;
    let (ma, mb) = (a.iter().sum::<f64>() / n, b.iter().sum::<f64>() / n);
    let (mut sab, mut saa, mut sbb) = (0.0, 0.0, 0.0);
    for (x, y) in a.iter().zip(b) {
        sab += (x - ma) * (y - mb);
        saa += (x - ma) * (x - ma);
        sbb += (y - mb) * (y - mb);
    }
    sab / (saa * sbb).sqrt()
}

/// A design property of the hardened Gaussian batch that paired experiments depend on (not a
/// privacy property: each law is exact at every scale): two batches drawn from the same seed at
/// two scales are comonotone, entry by entry, when both scales are above `2^32` grid units, and
/// (at these scales) unrelated when they are not. The draw's uniform offset `j` below
/// `ceil(sigma)` (`exact_fixed::DiscreteGaussian`, Karney's step D3) then takes a 64-bit word
/// whose rejection probability is below `ceil(sigma) / 2^64` (about `1e-9` here), so both
/// scales read the same words for the same quantile; below `2^32` units it takes a 32-bit word
/// with Lemire's rejection, whose probability `(2^32 mod ceil(sigma)) / 2^32` depends on the
/// scale (0.06 to 0.31 at the scales below, so the batches part within a few entries; a
/// `ceil(sigma)` dividing `2^32` would never reject; not measured). The scales and grid are jdp-qff's Figure 1 and 2 settings (`2^-27`, the grid of
/// its 77 421 packed coordinates): `sigma` 42.34 and 203.47 (5.7e9 and 2.7e10 units) couple,
/// 22.12 and 29.94 (3.0e9 and 4.0e9 units) do not, which is what the reproduction's curves
/// showed (`docs/jdp-qff.md`, "The hardened sampler in the reproduction"). The textbook batch
/// (`sigma z` from one normal stream) couples every pair; it is the check's control. With the
/// 64-bit word taken at every scale (planted, not committed) the uncoupled pair's correlation
/// became 1.000 and the test failed.
#[test]
fn same_seed_hardened_batches_are_comonotone_only_above_2_pow_32_grid_units() {
    let grid = Grid::new(-27).unwrap();
    let n = 20_000;
    let batch = |sampler: &dyn Fn(f64, &mut [f64], &mut ChaCha20Rng), sigma: f64| {
        let mut out = vec![0.0; n];
        sampler(sigma, &mut out, &mut rng(2026));
        out
    };
    let hardened = |s: f64, out: &mut [f64], r: &mut ChaCha20Rng| {
        Hardened.gaussian_noise_into(s, grid, out, r).unwrap();
    };
    let textbook = |s: f64, out: &mut [f64], r: &mut ChaCha20Rng| {
        Textbook.gaussian_noise_into(s, grid, out, r).unwrap();
    };
    let units = |s: f64| s / grid.width();
    let (big_a, big_b) = (42.340_330_466_329_156, 203.472_112_012_457_1);
    let (small_a, small_b) = (22.120_109_018_765_138, 29.939_134_790_420_72);
    assert!(units(big_a) > 2f64.powi(32) && units(big_b) > 2f64.powi(32));
    assert!(units(small_a) < 2f64.powi(32) && units(small_b) < 2f64.powi(32));

    // Above 2^32 units: the same standardised draw, entry by entry (to the grid's resolution
    // and the `ceil(sigma) - sigma` slack, both below 1e-9 in units of sigma).
    let (a, b) = (batch(&hardened, big_a), batch(&hardened, big_b));
    let worst = a
        .iter()
        .zip(&b)
        .map(|(x, y)| (x / big_a - y / big_b).abs())
        .fold(0.0, f64::max);
    assert!(
        worst < 1e-6,
        "above 2^32 units: largest gap {worst:e} (in sigmas)"
    );

    // Below: unrelated. Under independence the correlation of 20 000 pairs has sd 0.0071, so
    // |r| > 0.05 (7 sd) has probability below 1e-11.
    let r = pearson(&batch(&hardened, small_a), &batch(&hardened, small_b));
    assert!(r.abs() < 0.05, "below 2^32 units: correlation {r}");
    let r = pearson(&batch(&hardened, small_a), &batch(&hardened, big_a));
    assert!(r.abs() < 0.05, "across 2^32 units: correlation {r}");

    // Control: the textbook batch couples both pairs.
    for (s, t) in [(big_a, big_b), (small_a, small_b)] {
        let r = pearson(&batch(&textbook, s), &batch(&textbook, t));
        assert!(r > 0.9999, "textbook {s} vs {t}: correlation {r}");
    }
}
