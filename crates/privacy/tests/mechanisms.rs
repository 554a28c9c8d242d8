//! Mechanisms: exact test vectors with the noise passed in, calibration formulas, and the
//! exponential mechanism's selection law (Hoeffding, false failure <= 1e-7, with a power check).
#![allow(clippy::float_cmp)] // exact test vectors: equality is the point

use approx::assert_relative_eq;
use ndarray::{Array2, array};
use privacy::Sampler;
use privacy::accountant::{
    PldSettings, ZcdpConversion, subsampled_gaussian_pld_epsilon, zcdp_to_epsilon,
};
use privacy::distribution_tests::hoeffding_threshold;
use privacy::mechanisms::gaussian::{gaussian_delta, gaussian_epsilon};
use privacy::mechanisms::{
    ExponentialMechanism, GaussianMechanism, LaplaceMechanism, StreamShape, SubsampledGaussian,
    TreeAggregation, node_sigma,
};
use privacy::sampler::GRID_SLACK;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;

#[test]
fn laplace_and_gaussian_release() {
    let m = LaplaceMechanism::new(2.0, 1.0).unwrap();
    assert_relative_eq!(m.clone().with_sampler(Sampler::Textbook).scale(), 0.5);
    let out = m
        .release_with_noise(array![1.0, 2.0].view(), array![0.5, -0.5].view())
        .unwrap();
    assert_eq!(out, array![1.5, 1.5]);
    let mut rng = ChaCha20Rng::seed_from_u64(2);
    let r = m
        .release_vector(array![1.0, 2.0, 3.0].view(), &mut rng)
        .unwrap();
    assert_eq!(r.len(), 3);
    let g = GaussianMechanism::analytic(1.0, 1e-5, 1.0)
        .unwrap()
        .with_sampler(Sampler::Textbook)
        .unwrap();
    let s = g.sigma();
    // At most the target, and below it only by the calibration's safety margin
    // (sigma 1e-9 relative above the exact solution).
    let got = gaussian_delta(s, 1.0, 1.0);
    assert!(got <= 1e-5 && 1e-5 - got <= 1e-7 * 1e-5, "{got}");
    assert_relative_eq!(g.rho(), 1.0 / (2.0 * s * s), max_relative = 1e-15);
    let h = GaussianMechanism::zcdp(0.5, 2.0).unwrap();
    assert_relative_eq!(h.sigma(), 2.0 * (1.0 + GRID_SLACK), max_relative = 1e-15);
    assert!(h.release_vector(array![0.0, 1.0].view(), &mut rng).is_ok());
}

#[test]
fn tree_calibration_meets_the_target() {
    for conv in [ZcdpConversion::Classic, ZcdpConversion::Cks] {
        let (t, e, d, s) = (1000u64, 1.0, 1e-6, 3.0);
        let sigma = node_sigma(t, e, d, s, conv).unwrap();
        let levels = 10.0; // floor(log2 1000) + 1
        let rho = levels * s * s / (2.0 * sigma * sigma);
        assert!((zcdp_to_epsilon(rho, d, conv).unwrap() - e).abs() <= 1e-9);
    }
    let mut tree = TreeAggregation::calibrated(
        StreamShape::Symmetric(3),
        16,
        1.0,
        1e-5,
        2.0,
        ZcdpConversion::Cks,
    )
    .unwrap();
    let mut rng = ChaCha20Rng::seed_from_u64(3);
    let m = Array2::<f64>::eye(3);
    let mut last = Array2::zeros((3, 3));
    for _ in 0..16 {
        last = tree.push_matrix(m.view(), &mut rng).unwrap();
        assert_eq!(last, last.t());
    }
    assert!((last[[0, 0]] - 16.0).abs() < 30.0 * tree.sigma());
    let (shift, lo, hi) = tree.psd_shift(0.01).unwrap();
    assert_relative_eq!(shift, 2.0 * lo);
    assert_relative_eq!(hi, 3.0 * lo);
    assert!(
        tree.push_matrix(m.view(), &mut rng).is_err(),
        "horizon exceeded"
    );
}

#[test]
fn subsampled_aggregation_by_hand() {
    let m = SubsampledGaussian::new(0.5, 2.0, 1.0).unwrap();
    // Two participants, P = 1 weight column; the first vector (3, 4) is clipped to norm 2.
    let v = array![[3.0, 4.0], [0.5, 0.0]];
    let w = array![[1.0], [0.5]];
    let out = m
        .aggregate_with(
            v.view(),
            w.view(),
            &[true, true],
            array![[0.1, -0.1]].view(),
        )
        .unwrap();
    // (1/0.5) (1.2, 1.6) + (0.5/0.5) (0.5, 0) + noise.
    assert_relative_eq!(out[[0, 0]], 2.4 + 0.5 + 0.1, max_relative = 1e-15);
    assert_relative_eq!(out[[0, 1]], 3.2 - 0.1, max_relative = 1e-15);
    let out = m
        .aggregate_with(
            v.view(),
            w.view(),
            &[false, true],
            array![[0.0, 0.0]].view(),
        )
        .unwrap();
    assert_eq!(out, array![[0.5, 0.0]]);
    // sigma = z phi_max S / q.
    assert_relative_eq!(m.clone().with_sampler(Sampler::Textbook).sigma(1.0), 4.0);
    let mut rng = ChaCha20Rng::seed_from_u64(4);
    let a = m.aggregate(v.view(), w.view(), &mut rng).unwrap();
    assert_eq!(a.vectors().dim(), (1, 2));
    assert!(m.composed_claim(40).is_ok());
}

/// The realised-weights calibration: `s = max_n ||phi_n||_2 / sqrt(P)`, by hand, never above
/// `phi_max`, equal to it for equal weights; the aggregate's noise uses it, the claim does not
/// change.
#[test]
fn row_norm_calibration_uses_the_largest_weight_row() {
    use privacy::mechanisms::WeightCalibration;
    let m = SubsampledGaussian::new(0.5, 2.0, 1.5).unwrap();
    let r = m.clone().with_calibration(WeightCalibration::RowNorm);
    // Two participants, P = 2: rows (0.6, 0.1) and (0.4, 0.9).
    let w = array![[0.6, 0.1], [0.4, 0.9]];
    assert_eq!(m.weight_scale(w.view()), 0.9);
    let expected = (0.4f64 * 0.4 + 0.9 * 0.9).sqrt() / 2f64.sqrt();
    assert_relative_eq!(r.weight_scale(w.view()), expected, max_relative = 1e-15);
    assert!(expected < 0.9);
    // Equal weights: both give phi_max.
    let eq = array![[0.5, 0.5], [0.5, 0.5]];
    assert_relative_eq!(r.weight_scale(eq.view()), 0.5, max_relative = 1e-15);
    // sigma = z s S / q; the claim is the same curve with the profile in its description.
    let t = r.clone().with_sampler(Sampler::Textbook);
    assert_relative_eq!(
        t.sigma(expected),
        1.5 * expected * 2.0 / 0.5,
        max_relative = 1e-15
    );
    assert_eq!(r.claim().guarantee, m.claim().guarantee);
    assert!(r.claim().subject.contains("calibration=row_norm"));
    assert!(!m.claim().subject.contains("calibration"));
    // The release's noise level follows the calibration.
    let v = array![[1.0, 0.0], [0.0, 1.0]];
    let mut rng = ChaCha20Rng::seed_from_u64(9);
    let a = r
        .aggregate_with_subsample(v.view(), w.view(), &mut rng)
        .unwrap();
    assert_relative_eq!(a.sigma, r.sigma(expected), max_relative = 1e-15);
    let mut rng = ChaCha20Rng::seed_from_u64(9);
    let b = m
        .aggregate_with_subsample(v.view(), w.view(), &mut rng)
        .unwrap();
    assert_relative_eq!(b.sigma, m.sigma(0.9), max_relative = 1e-15);
}

#[test]
fn exponential_mechanism_law_and_power() {
    let u = [0.0, 1.0, 2.0, 3.0, 0.5];
    let m = ExponentialMechanism::new(2.0, 1.0).unwrap();
    let p = m.probabilities(&u).unwrap();
    let z: f64 = u.iter().map(|x| x.exp()).sum();
    for (pi, ui) in p.iter().zip(u) {
        assert_relative_eq!(*pi, ui.exp() / z, max_relative = 1e-14);
    }
    // Huge utilities do not overflow.
    let big = m.probabilities(&[1e308, 0.0]).unwrap();
    assert_eq!(big, vec![1.0, 0.0]);
    assert_eq!(m.select_with_uniform(&u, 0.0).unwrap(), 0);
    assert_eq!(m.select_with_uniform(&u, 0.999_999).unwrap(), 4);
    // The first i whose cumulative probability exceeds u (strictly): u equal to p_0 selects 1.
    assert_eq!(m.select_with_uniform(&u, p[0]).unwrap(), 1);
    assert_eq!(m.select_with_uniform(&u, p[0].next_down()).unwrap(), 0);
    // Frequencies of the exact sampler: all within the simultaneous Hoeffding threshold at
    // false-failure probability 1e-7; the same test rejects eps 10% larger.
    let n = 100_000;
    let thr = hoeffding_threshold(n, u.len(), 1e-7);
    let freq = |mech: &ExponentialMechanism, seed: u64| {
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        let mut c = vec![0usize; u.len()];
        for _ in 0..n {
            c[mech.select(&u, &mut rng).unwrap()] += 1;
        }
        c.into_iter()
            .map(|x| x as f64 / n as f64)
            .collect::<Vec<_>>()
    };
    let f = freq(&m, 5);
    assert!(
        f.iter().zip(&p).all(|(a, b)| (a - b).abs() <= thr),
        "{f:?} vs {p:?} (thr {thr})"
    );
    let f = freq(&ExponentialMechanism::new(2.2, 1.0).unwrap(), 6);
    assert!(f.iter().zip(&p).any(|(a, b)| (a - b).abs() > thr), "power");
    // The same law for utilities shifted by 1/4 (no zero among them, every one a fraction: the
    // exact arithmetic's common exponent comes from the non-zero utilities).
    let shifted: Vec<f64> = u.iter().map(|x| x + 0.25).collect();
    let mut rng = ChaCha20Rng::seed_from_u64(8);
    let mut c = vec![0usize; u.len()];
    for _ in 0..n {
        c[m.select(&shifted, &mut rng).unwrap()] += 1;
    }
    let f: Vec<f64> = c.into_iter().map(|x| x as f64 / n as f64).collect();
    assert!(
        f.iter().zip(&p).all(|(a, b)| (a - b).abs() <= thr),
        "{f:?} vs {p:?} (thr {thr})"
    );
    // Extreme and mixed exponents: exact arithmetic, no overflow.
    let mut rng = ChaCha20Rng::seed_from_u64(7);
    for _ in 0..200 {
        assert_eq!(m.select(&[1e300, 0.0, -1e300], &mut rng).unwrap(), 0);
        assert!(m.select(&[1e-300, -5e-324, 0.0], &mut rng).unwrap() < 3);
    }
    assert!(m.select(&[], &mut ChaCha20Rng::seed_from_u64(0)).is_err());
    assert!(
        m.select(&[f64::NAN], &mut ChaCha20Rng::seed_from_u64(0))
            .is_err()
    );
}

#[test]
fn pld_at_q_one_bounds_the_exact_gaussian() {
    // q = 1: T rounds of the Gaussian mechanism with multiplier z are one Gaussian mechanism with
    // sensitivity sqrt(T) / z (unit noise); its exact eps solves Balle-Wang's delta(eps) = delta.
    let (z, t, d) = (2.0, 10u64, 1e-5);
    let pld = subsampled_gaussian_pld_epsilon(
        1.0,
        z,
        t,
        d,
        PldSettings {
            bin_width: 1e-3,
            tail_mass: 1e-20,
        },
    )
    .unwrap();
    let hi = gaussian_epsilon(1.0, (t as f64).sqrt() / z, d).unwrap();
    assert!(pld.epsilon >= hi, "{} < exact {hi}", pld.epsilon);
    assert!(
        pld.epsilon <= hi + t as f64 * 1e-3 + 1e-3,
        "{} vs exact {hi}",
        pld.epsilon
    );
    assert!(pld.epsilon_optimistic <= hi + 1e-9);
}

/// Calibrations checked away from the settings where a wrong operator gives the right answer
/// (`rho = 1/2`, where `s / sqrt(2 rho) = s sqrt(2 rho)`; sensitivity 1, where `x / s = x s`;
/// the grid factor, a relative `2^-20`).
#[test]
fn calibrations_away_from_their_fixed_points() {
    use privacy::mechanisms::{Neighbouring, OuterProductGaussian};
    // zCDP: sigma = s / sqrt(2 rho) = 3 / 2 at rho = 2 (textbook: no grid factor).
    let g = GaussianMechanism::zcdp(2.0, 3.0)
        .unwrap()
        .with_sampler(Sampler::Textbook)
        .unwrap();
    assert_eq!(g.sigma().to_bits(), 1.5f64.to_bits());
    assert_eq!(g.sampler(), Sampler::Textbook);
    // The outer product at rho = 2: sigma = its effective sensitivity / 2.
    let m = OuterProductGaussian::zcdp(3, 1.0, 1.0, Neighbouring::Replace, 2.0)
        .unwrap()
        .with_sampler(Sampler::Textbook);
    assert_eq!(
        m.sigma().to_bits(),
        (m.effective_sensitivity() / 2.0).to_bits()
    );
    // The exact Gaussian delta at sensitivity 2 is that of sigma / 2 at sensitivity 1:
    // 0.10874437688858545485 (mpmath, 40 digits) for sigma = 3, eps = 1/2 (statrs' normal CDF
    // gives it to about 1e-10 relative).
    assert_relative_eq!(
        gaussian_delta(3.0, 2.0, 0.5),
        0.108_744_376_888_585_45,
        max_relative = 1e-9
    );
    // The hardened Laplace scale carries the grid factor exactly: Delta (1 + 2^-20) / eps.
    let l = LaplaceMechanism::new(0.5, 3.0).unwrap();
    assert_eq!(l.sampler(), Sampler::Hardened);
    assert_eq!(
        l.scale().to_bits(),
        (3.0 * (1.0 + GRID_SLACK) / 0.5).to_bits()
    );
}

/// The analytic Gaussian refuses a target where rounding alone can move the computed delta past
/// its margin, instead of answering with a sigma that misses it: at eps = 1e-12, delta = 1e-20 the bisection's sigma
/// (5.004e12) has a true delta of 1.0457e-20 (mpmath, 60 digits); at eps = 1e-300 the computed
/// delta reads 0 from sigma of about 1e17 on. The corner of the verified range is answered.
#[test]
fn the_analytic_gaussian_refuses_targets_it_cannot_evaluate() {
    use privacy::mechanisms::gaussian::analytic_sigma;
    for (eps, delta) in [
        (1e-300, 5e-324),
        (1e-300, 1e-300),
        (1e-12, 1e-20),
        (0.001, 1e-10),
    ] {
        let r = analytic_sigma(eps, delta, 1.0);
        assert!(r.is_err(), "eps {eps}, delta {delta}: {r:?}");
    }
    for (eps, delta) in [
        (0.05, 1e-14),
        (20.0, 1e-14),
        (0.05, 0.5),
        (0.01, 1e-14),
        (300.0, 1e-10),
    ] {
        let s = analytic_sigma(eps, delta, 1.0).unwrap();
        assert!(gaussian_delta(s, 1.0, eps) <= delta);
    }
}
