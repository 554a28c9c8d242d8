//! Objectives: benchmark functions at hand-computed points and their maxima; the synthetic
//! RKHS, GP-sample and Dubey constructions.

// Exact float equality is intended here: the runner and the constructions are bit-reproducible.
#![allow(clippy::float_cmp)]

use approx::assert_abs_diff_eq;
use bandit::env::Environment;
use bandit::objective::{
    Camelback, CentreSampling, DubeyEnvironment, DubeyObjective, GpSample, HeterogeneousAgents,
    Michalewicz, Objective, PerturbedCopies, RkhsSynthetic, StyblinskiTang,
};
use bandit::{BanditError, InputError};
use kernel::Kernel;
use ndarray::{Array1, array};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;

// Expected values below were computed by hand from the formulas in docs/bandit.md (checked
// with a few lines of Python double-precision arithmetic).

#[test]
fn camelback_at_hand_computed_points() {
    let f = Camelback;
    assert_eq!(f.value(array![0.0, 0.0].view()).unwrap(), 0.0);
    // u = 1, v = 1: -((4 - 2.1 + 1/3) + 1 + 0) / 5 = -3.2333.../5.
    assert_abs_diff_eq!(
        f.value(array![0.25, 0.5].view()).unwrap(),
        -0.646_666_666_666_666_7,
        epsilon = 1e-15
    );
    assert_abs_diff_eq!(
        f.value(array![-0.1, 0.3].view()).unwrap(),
        0.114_798_933_333_333_33,
        epsilon = 1e-15
    );
}

#[test]
fn camelback_maximum_is_attained_and_not_beaten_on_a_fine_grid() {
    let f = Camelback;
    let m = f.maximum().unwrap();
    assert_abs_diff_eq!(m.value, 0.206_325_690_697_975_4, epsilon = 1e-15);
    for x in m.maximisers.rows() {
        assert_abs_diff_eq!(f.value(x).unwrap(), m.value, epsilon = 1e-12);
    }
    let n = 1000;
    for i in 0..=n {
        for j in 0..=n {
            let x = array![-0.5 + i as f64 / n as f64, -0.5 + j as f64 / n as f64];
            assert!(f.value(x.view()).unwrap() <= m.value + 1e-12);
        }
    }
}

#[test]
fn styblinski_tang_at_hand_computed_points_and_maximum() {
    let f = StyblinskiTang::new(2).unwrap();
    assert_eq!(f.value(array![0.0, 0.0].view()).unwrap(), -0.5);
    // z = (1, -1): sum = (1 - 16 + 5) + (1 - 16 - 5) = -30; f = -(0.5 (-30) / 400 + 0.5).
    assert_abs_diff_eq!(
        f.value(array![0.125, -0.125].view()).unwrap(),
        -0.4625,
        epsilon = 1e-15
    );
    let f3 = StyblinskiTang::new(3).unwrap();
    assert_abs_diff_eq!(
        f3.value(array![0.3, -0.2, 0.1].view()).unwrap(),
        -0.420_650_666_666_666_7,
        epsilon = 1e-15
    );
    // z* solves 4 z^3 - 32 z + 5 = 0 and the maximum is the same in every dimension.
    let z = StyblinskiTang::Z_STAR;
    assert!((4.0 * z * z * z - 32.0 * z + 5.0).abs() < 1e-12);
    for d in [1, 2, 5, 20] {
        let f = StyblinskiTang::new(d).unwrap();
        let m = f.maximum().unwrap();
        assert_abs_diff_eq!(m.value, -0.304_169_171_481_143, epsilon = 1e-14);
        assert_abs_diff_eq!(
            f.value(m.maximisers.row(0)).unwrap(),
            m.value,
            epsilon = 1e-14
        );
    }
    // Separable: checking one coordinate on a fine grid checks all.
    let f1 = StyblinskiTang::new(1).unwrap();
    let best = f1.maximum().unwrap().value;
    for i in 0..=100_000 {
        assert!(
            f1.value(array![-0.5 + i as f64 / 100_000.0].view())
                .unwrap()
                <= best + 1e-15
        );
    }
}

#[test]
fn michalewicz_at_hand_computed_points_and_maximum() {
    let f = Michalewicz::new(2).unwrap();
    // x = 0: w = 1/2, sin(pi/2) (sin(1/2)^4 + sin(1)^4).
    assert_abs_diff_eq!(
        f.value(array![0.0, 0.0].view()).unwrap(),
        0.554_198_458_163_157,
        epsilon = 1e-15
    );
    assert_abs_diff_eq!(
        f.value(array![0.25, -0.3].view()).unwrap(),
        0.150_557_661_258_785_42,
        epsilon = 1e-15
    );
    let f3 = Michalewicz::new(3).unwrap();
    assert_abs_diff_eq!(
        f3.value(array![0.1, 0.2, 0.3].view()).unwrap(),
        0.707_460_110_123_363_2,
        epsilon = 1e-15
    );
    // The maximum is attained and not beaten on a 1001 x 1001 grid.
    let m = f.maximum().unwrap();
    assert_abs_diff_eq!(
        f.value(m.maximisers.row(0)).unwrap(),
        m.value,
        epsilon = 1e-15
    );
    let n = 1000;
    for i in 0..=n {
        for j in 0..=n {
            let x = array![-0.5 + i as f64 / n as f64, -0.5 + j as f64 / n as f64];
            assert!(f.value(x.view()).unwrap() <= m.value + 1e-12);
        }
    }
    // d = 10 (Dubey's "mw"): the value documented in docs/bandit.md, and an independent
    // brute-force check of every coordinate's term on a 10^6-point grid (spacing 1e-6, so
    // the grid maximum is within ~1e-9 of the true one for these smooth terms).
    let m10 = Michalewicz::new(10).unwrap().maximum().unwrap();
    assert_abs_diff_eq!(m10.value, 8.004_987_909_017_707, epsilon = 1e-12);
    for i in 1..=10 {
        let grid_max = (0..=1_000_000)
            .map(|k| Michalewicz::term(i, 10, -0.5 + k as f64 * 1e-6))
            .fold(f64::NEG_INFINITY, f64::max);
        let (x, v) = Michalewicz::coordinate_maximum(i, 10);
        assert!(
            grid_max <= v + 1e-12,
            "coordinate {i}: grid {grid_max} > search {v}"
        );
        assert!(
            grid_max >= v - 1e-8,
            "coordinate {i}: search {v} not reproduced by the grid {grid_max}"
        );
        assert_eq!(m10.maximisers[[0, i - 1]], x);
    }
}

#[test]
fn objective_inputs_are_validated() {
    let f = Camelback;
    assert!(matches!(
        f.value(array![0.0].view()),
        Err(BanditError::Input(InputError::DimensionMismatch { .. }))
    ));
    assert!(matches!(
        f.value(array![0.0, f64::NAN].view()),
        Err(BanditError::Input(InputError::NonFinite { .. }))
    ));
    assert!(matches!(
        StyblinskiTang::new(0),
        Err(BanditError::Input(InputError::Empty { .. }))
    ));
    assert!(matches!(
        Michalewicz::new(0),
        Err(BanditError::Input(InputError::Empty { .. }))
    ));
}

#[test]
fn rkhs_synthetic_is_normalised_and_built_on_the_grid() {
    let mut rng = ChaCha20Rng::seed_from_u64(11);
    for problem in [RkhsSynthetic::default(), RkhsSynthetic::matern()] {
        let inst = problem.sample(&mut rng).unwrap();
        assert_eq!(inst.domain.len(), 100);
        assert_eq!(inst.domain.points()[[99, 0]], 1.0);
        assert_abs_diff_eq!(inst.domain.points()[[1, 0]], 1.0 / 99.0, epsilon = 1e-16);
        let max_abs = inst.values.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        assert_abs_diff_eq!(max_abs, 1.0, epsilon = 1e-15);
        // Values are f at the arms; centres are arms (Zhou & Tan: x_i in D).
        let direct = inst.function.values(inst.domain.points()).unwrap();
        for (a, b) in direct.iter().zip(inst.values.iter()) {
            assert_abs_diff_eq!(*a, *b, epsilon = 1e-14);
        }
        let grid: Vec<f64> = inst.domain.points().column(0).to_vec();
        assert!(
            inst.function
                .centres()
                .column(0)
                .iter()
                .all(|c| grid.contains(c))
        );
        // ||f||_H^2 = a^T K a.
        let k = inst
            .function
            .kernel()
            .gram(inst.function.centres())
            .unwrap();
        let a = inst.function.weights();
        assert_abs_diff_eq!(inst.rkhs_norm.powi(2), a.dot(&k.dot(&a)), epsilon = 1e-10);
        assert!(
            inst.function
                .weights()
                .iter()
                .all(|w| w.abs() <= 1.0 / inst.normaliser)
        );
    }
    let uniform = RkhsSynthetic {
        centres: CentreSampling::UniformInBox,
        ..RkhsSynthetic::default()
    };
    let inst = uniform.sample(&mut rng).unwrap();
    assert!(
        inst.function
            .centres()
            .iter()
            .all(|&c| (0.0..1.0).contains(&c))
    );
    assert!(matches!(
        RkhsSynthetic {
            n_arms: 0,
            ..RkhsSynthetic::default()
        }
        .sample(&mut rng),
        Err(BanditError::Input(InputError::Empty { .. }))
    ));
}

/// `GpSample::dp_fts_de` factors its Gram matrix once per process: the second call's copy and
/// a sampler built from scratch with the same settings draw the same path bit for bit.
#[test]
fn gp_sample_preset_is_cached_without_changing_a_draw() {
    let first = GpSample::dp_fts_de().unwrap();
    let second = GpSample::dp_fts_de().unwrap();
    let fresh = GpSample::new(
        bandit::domain::BoxDomain::unit(1)
            .unwrap()
            .grid(&[1000])
            .unwrap(),
        &kernel::SquaredExponential::isotropic(0.03).unwrap(),
        1e-8,
    )
    .unwrap();
    let draw = |s: &GpSample| s.sample_raw(&mut ChaCha20Rng::seed_from_u64(17)).to_vec();
    assert_eq!(draw(&first), draw(&fresh));
    assert_eq!(draw(&second), draw(&fresh));
}

#[test]
fn gp_sample_agents_follow_dp_fts_de_appendix_b1() {
    let sampler = GpSample::dp_fts_de().unwrap();
    assert_eq!(sampler.domain().len(), 1000);
    let mut rng = ChaCha20Rng::seed_from_u64(5);
    let f = sampler.sample(&mut rng).unwrap();
    assert_eq!(f.iter().fold(f64::INFINITY, |m, &v| m.min(v)), 0.0);
    assert_eq!(f.iter().fold(f64::NEG_INFINITY, |m, &v| m.max(v)), 1.0);
    // A length-scale-0.03 path is smooth at spacing 0.001 but wiggles over [0, 1].
    let max_step = f
        .windows(2)
        .into_iter()
        .map(|w| (w[1] - w[0]).abs())
        .fold(0.0, f64::max);
    assert!(max_step < 0.1, "max step {max_step}");
    let copies = PerturbedCopies::default().sample(&f, &mut rng).unwrap();
    assert_eq!(copies.dim(), (200, 1000));
    let mut plus = 0usize;
    for n in 0..200 {
        for j in 0..1000 {
            let d = copies[[n, j]] - f[j];
            assert!((d.abs() - 0.02).abs() < 1e-15);
            plus += usize::from(d > 0.0);
        }
    }
    // 200000 fair signs: |plus - 100000| <= 2500 fails with probability < 1e-12 (Hoeffding).
    assert!((plus as f64 - 100_000.0).abs() <= 2500.0, "{plus}");
    let (base, same) = HeterogeneousAgents {
        n_agents: 3,
        alpha: 0.0,
    }
    .sample(&sampler, &mut rng)
    .unwrap();
    for row in same.rows() {
        assert_eq!(row, base);
    }
    let (base, mixed) = HeterogeneousAgents {
        n_agents: 3,
        alpha: 0.7,
    }
    .sample(&sampler, &mut rng)
    .unwrap();
    for row in mixed.rows() {
        // alpha f_i + 0.3 f_base stays in [0, 1] and differs from f_base.
        assert!(row.iter().all(|&v| (0.0..=1.0).contains(&v)));
        assert!(
            row.iter()
                .zip(base.iter())
                .any(|(a, b)| (a - b).abs() > 0.1)
        );
    }
    assert!(matches!(
        HeterogeneousAgents {
            n_agents: 3,
            alpha: 1.5
        }
        .sample(&sampler, &mut rng),
        Err(BanditError::Input(InputError::OutOfRange {
            what: "heterogeneity alpha",
            ..
        }))
    ));
}

#[test]
fn dubey_objective_and_decision_sets_follow_section_6_1() {
    let mut rng = ChaCha20Rng::seed_from_u64(17);
    for _ in 0..5 {
        let f = DubeyObjective::sample(2, &mut rng).unwrap();
        assert!(f.alpha().iter().map(|a| a.abs()).sum::<f64>() <= 1.0);
        for c in f.centres().rows() {
            assert!(c.dot(&c).sqrt() <= 2.0);
        }
        let mut env = DubeyEnvironment::new(f.clone(), 25).unwrap();
        for t in 0..10 {
            env.begin_round(t, &mut rng).unwrap();
            let d = env.decision_set().to_owned();
            assert_eq!(d.dim(), (25, 2));
            let vals: Array1<f64> = f.values(d.view()).unwrap();
            let good: Vec<usize> = (0..25).filter(|&i| vals[i] >= 0.8).collect();
            assert_eq!(good.len(), 1);
            assert!((0..25).filter(|i| *i != good[0]).all(|i| vals[i] <= 0.6));
            assert_eq!(env.optimal_mean(), vals[good[0]]);
            for row in d.rows() {
                assert!(row.dot(&row).sqrt() <= 2.0);
            }
            let y = env.sample_reward(good[0], &mut rng).unwrap();
            assert!(y == 0.0 || y == 1.0);
        }
    }
    assert!(matches!(
        DubeyEnvironment::new(DubeyObjective::sample(2, &mut rng).unwrap(), 0),
        Err(BanditError::Input(InputError::Empty { .. }))
    ));
}
