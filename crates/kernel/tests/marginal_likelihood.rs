//! The GP log marginal likelihood (hand-computed cases, against an eigendecomposition) and the
//! maximum-marginal-likelihood fit of the SE kernel (recovery of a known lengthscale with a
//! positive control, never worse than its grid, a local maximum, within the bounds, typed
//! errors, no panics on odd inputs).

mod common;

use common::{max_abs_diff, rng, uniform_points};
use kernel::linalg::{Cholesky, symmetric_eigen};
use kernel::{
    InputError, Kernel, KernelError, Lengthscales, Matern, MaternNu, SeBounds, SeFit,
    SquaredExponential, fit_squared_exponential, log_marginal_likelihood,
};
use ndarray::{Array1, Array2, array};
use rand::RngExt;
use rand_distr::StandardNormal;

const LN_2PI: f64 = 1.837_877_066_409_345_5;

fn se(variance: f64, l: f64) -> SquaredExponential {
    SquaredExponential::new(variance, Lengthscales::isotropic(l).unwrap()).unwrap()
}

fn rel_err(a: f64, b: f64) -> f64 {
    (a - b).abs() / b.abs().max(1.0)
}

#[test]
fn ln_2pi_constant() {
    assert!((LN_2PI - std::f64::consts::TAU.ln()).abs() < 1e-15);
}

#[test]
fn one_point_by_hand() {
    // y ~ N(0, s^2 + lambda) with s^2 = 1.7, lambda = 0.2.
    let k = se(1.7, 0.3);
    let lml = log_marginal_likelihood(&k, array![[0.4]].view(), array![1.3].view(), 0.2).unwrap();
    let a: f64 = 1.7 + 0.2;
    let by_hand = -0.5 * 1.3 * 1.3 / a - 0.5 * a.ln() - 0.5 * LN_2PI;
    assert!(rel_err(lml, by_hand) < 1e-12, "{lml} vs {by_hand}");
}

#[test]
fn two_points_by_hand() {
    // Two points in the plane at distance^2 0.16 + 0.09 = 0.25; A = [[a, b], [b, a]].
    let (s2, l, lambda) = (0.8, 0.4, 0.05);
    let k = se(s2, l);
    let x = array![[0.1, 0.2], [0.5, 0.5]];
    let (y1, y2) = (0.7, -1.1);
    let lml = log_marginal_likelihood(&k, x.view(), array![y1, y2].view(), lambda).unwrap();
    let a = s2 + lambda;
    let b = s2 * (-0.25 / (2.0 * l * l)).exp();
    let det = a * a - b * b;
    // A^{-1} = [[a, -b], [-b, a]] / det.
    let quad = (a * y1 * y1 - 2.0 * b * y1 * y2 + a * y2 * y2) / det;
    let by_hand = -0.5 * quad - 0.5 * det.ln() - LN_2PI;
    assert!(rel_err(lml, by_hand) < 1e-12, "{lml} vs {by_hand}");
}

#[test]
fn equals_the_gaussian_log_density_by_eigendecomposition() {
    // log N(y; 0, A) = -1/2 sum_i (u_i^T y)^2 / e_i - 1/2 sum_i log e_i - n/2 log(2 pi).
    let x = uniform_points(8, 2, 11);
    let mut r = rng(12);
    let y: Array1<f64> = (0..8).map(|_| 2.0 * r.random::<f64>() - 1.0).collect();
    let kernels: [Box<dyn Kernel>; 2] = [
        Box::new(se(1.3, 0.35)),
        Box::new(Matern::isotropic(MaternNu::FiveHalves, 0.2).unwrap()),
    ];
    for k in &kernels {
        for lambda in [1e-3, 0.1, 2.0] {
            let lml = log_marginal_likelihood(k, x.view(), y.view(), lambda).unwrap();
            let mut a = k.gram(x.view()).unwrap();
            a.diag_mut().mapv_inplace(|v| v + lambda);
            let eig = symmetric_eigen("A", a.view()).unwrap();
            let proj = eig.vectors.t().dot(&y);
            let quad: f64 = proj.iter().zip(&eig.values).map(|(p, e)| p * p / e).sum();
            let log_det: f64 = eig.values.iter().map(|e| e.ln()).sum();
            let other = -0.5 * quad - 0.5 * log_det - 4.0 * LN_2PI;
            assert!(
                (lml - other).abs() < 1e-10,
                "lambda = {lambda}: {lml} vs {other}"
            );
        }
    }
}

/// `n` points uniform on `[0, 1]` and `y ~ N(0, K + lambda I)` for the SE kernel with variance
/// 1 and lengthscale `l` (a GP sample plus independent noise of variance `lambda`), drawn as
/// `y = L z` with `L L^T = K + lambda I` and `z ~ N(0, I)`.
fn gp_data(l: f64, lambda: f64, n: usize, seed: u64) -> (Array2<f64>, Array1<f64>) {
    let x = uniform_points(n, 1, seed);
    let mut a = se(1.0, l).gram(x.view()).unwrap();
    a.diag_mut().mapv_inplace(|v| v + lambda);
    let chol = Cholesky::factor("K + lambda I", a.view()).unwrap();
    let mut r = rng(seed.wrapping_add(1000));
    let z: Array1<f64> = (0..n).map(|_| r.sample::<f64, _>(StandardNormal)).collect();
    (x, chol.lower().dot(&z))
}

const RECOVERY_SEEDS: [u64; 9] = [1, 2, 3, 4, 5, 6, 7, 8, 9];

fn fitted_lengthscales(l: f64) -> Vec<f64> {
    RECOVERY_SEEDS
        .iter()
        .map(|&seed| {
            let (x, y) = gp_data(l, 0.01, 60, seed);
            fit_squared_exponential(x.view(), y.view(), &SeBounds::default())
                .unwrap()
                .lengthscale
        })
        .collect()
}

fn median(v: &[f64]) -> f64 {
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    s[s.len() / 2]
}

#[test]
fn recovers_a_known_lengthscale() {
    // Truth: l = 0.1, s^2 = 1, lambda = 0.01, n = 60 points in [0, 1], seeds 1..=9.
    let fitted = fitted_lengthscales(0.1);
    eprintln!("fitted lengthscales, truth 0.1: {fitted:?}");
    for (seed, &l) in RECOVERY_SEEDS.iter().zip(&fitted) {
        assert!(
            l > 0.1 / 1.5 && l < 0.1 * 1.5,
            "seed {seed}: fitted lengthscale {l} not within a factor 1.5 of 0.1"
        );
    }
    let m = median(&fitted);
    assert!((m / 0.1 - 1.0).abs() < 0.25, "median {m}");
}

#[test]
fn positive_control_a_longer_lengthscale_is_not_fitted_as_the_short_one() {
    // The same test on data of lengthscale 0.4: every fit is far from 0.1 (so the recovery
    // test distinguishes lengthscales) and the median is near 0.4.
    let fitted = fitted_lengthscales(0.4);
    eprintln!("fitted lengthscales, truth 0.4: {fitted:?}");
    for (seed, &l) in RECOVERY_SEEDS.iter().zip(&fitted) {
        assert!(l > 0.2, "seed {seed}: fitted lengthscale {l}");
    }
    let m = median(&fitted);
    assert!((m / 0.4 - 1.0).abs() < 0.25, "median {m}");
}

/// The documented grid: `m` values `lo (hi / lo)^(i / (m - 1))`, `i = 0..m`.
fn grid((lo, hi): (f64, f64), m: usize) -> Vec<f64> {
    (0..m)
        .map(|i| lo * (hi / lo).powf(i as f64 / (m - 1) as f64))
        .collect()
}

fn lml_at(x: &Array2<f64>, y: &Array1<f64>, l: f64, s2: f64, lambda: f64) -> f64 {
    log_marginal_likelihood(&se(s2, l), x.view(), y.view(), lambda).unwrap()
}

fn assert_within(fit: &SeFit, b: &SeBounds) {
    for (what, v, (lo, hi)) in [
        ("lengthscale", fit.lengthscale, b.lengthscale),
        ("variance", fit.variance, b.variance),
        ("lambda", fit.lambda, b.lambda),
    ] {
        assert!(v >= lo && v <= hi, "{what} = {v} outside [{lo}, {hi}]");
    }
}

/// Data sets of several kinds: a GP sample, a smooth function without noise, pure noise,
/// two-dimensional inputs, a single point, outputs far larger than the variance bound, and a
/// straight line (which drives the lengthscale to its upper bound).
fn data_sets() -> Vec<(&'static str, Array2<f64>, Array1<f64>)> {
    let (x1, y1) = gp_data(0.1, 0.01, 40, 21);
    let x2 = uniform_points(25, 1, 22);
    let y2 = x2.column(0).mapv(|t| (7.0 * t).sin() + 0.5 * t);
    let x3 = uniform_points(30, 1, 23);
    let mut r = rng(24);
    let y3: Array1<f64> = (0..30)
        .map(|_| r.sample::<f64, _>(StandardNormal))
        .collect();
    let x4 = uniform_points(35, 2, 25);
    let y4 = x4
        .rows()
        .into_iter()
        .map(|p| (3.0 * p[0]).cos() * (4.0 * p[1]).sin())
        .collect();
    let x6 = uniform_points(20, 1, 26);
    let y6 = x6.column(0).mapv(|t| 30.0 * (2.0 * t).sin());
    let x7 = uniform_points(15, 1, 27);
    let y7 = x7.column(0).mapv(|t| 2.0 * t - 1.0);
    vec![
        ("gp sample", x1, y1),
        ("smooth function", x2, y2),
        ("pure noise", x3, y3),
        ("two dimensions", x4, y4),
        ("one point", array![[0.3]], array![0.8]),
        ("large outputs", x6, y6),
        ("a line (the longest lengthscale)", x7, y7),
    ]
}

#[test]
fn never_worse_than_its_grid_and_within_the_bounds() {
    let narrow = SeBounds {
        lengthscale: (0.3, 0.5),
        variance: (0.5, 2.0),
        lambda: (0.05, 0.2),
    };
    // Upper bounds whose logarithm exponentiates to a number above them (exp(ln 3) > 3 in
    // floating point): a fit at the bound must not step over it.
    let rounding = SeBounds {
        lengthscale: (0.05, 3.0),
        variance: (0.05, 20.001),
        lambda: (1e-6, 1.0),
    };
    for bounds in [SeBounds::default(), narrow, rounding] {
        for (name, x, y) in data_sets() {
            let fit = fit_squared_exponential(x.view(), y.view(), &bounds).unwrap();
            assert_within(&fit, &bounds);
            let mut best_grid = f64::NEG_INFINITY;
            for &l in &grid(bounds.lengthscale, kernel::gp::SE_FIT_GRID_LENGTHSCALES) {
                for &s2 in &grid(bounds.variance, kernel::gp::SE_FIT_GRID_VARIANCES) {
                    for &lambda in &grid(bounds.lambda, kernel::gp::SE_FIT_GRID_LAMBDAS) {
                        best_grid = best_grid.max(lml_at(&x, &y, l, s2, lambda));
                    }
                }
            }
            assert!(
                fit.log_marginal_likelihood >= best_grid - 1e-9 * best_grid.abs().max(1.0),
                "{name}: fit {} below the best grid point {best_grid}",
                fit.log_marginal_likelihood
            );
        }
    }
}

#[test]
fn the_reported_likelihood_is_the_likelihood_at_the_fit() {
    for (name, x, y) in data_sets() {
        let fit = fit_squared_exponential(x.view(), y.view(), &SeBounds::default()).unwrap();
        let lml = log_marginal_likelihood(&fit.kernel().unwrap(), x.view(), y.view(), fit.lambda)
            .unwrap();
        assert_eq!(
            lml.to_bits(),
            fit.log_marginal_likelihood.to_bits(),
            "{name}"
        );
        assert_eq!(
            fit.kernel().unwrap().variance().to_bits(),
            fit.variance.to_bits()
        );
    }
}

#[test]
fn the_fit_is_a_local_maximum() {
    // Moving any one parameter by 1% (where the bounds allow) does not increase the likelihood
    // by more than round-off: the search went past the grid (whose spacing is a factor 1.5 in
    // the lengthscale and more in the others) to a stationary point or a bound.
    for (name, x, y) in data_sets() {
        let b = SeBounds::default();
        let fit = fit_squared_exponential(x.view(), y.view(), &b).unwrap();
        let p = [fit.lengthscale, fit.variance, fit.lambda];
        let bounds = [b.lengthscale, b.variance, b.lambda];
        for c in 0..3 {
            for factor in [0.99, 1.01] {
                let mut q = p;
                q[c] *= factor;
                if q[c] < bounds[c].0 || q[c] > bounds[c].1 {
                    continue;
                }
                let moved = lml_at(&x, &y, q[0], q[1], q[2]);
                let tol = 1e-7 * fit.log_marginal_likelihood.abs().max(1.0);
                assert!(
                    moved <= fit.log_marginal_likelihood + tol,
                    "{name}: parameter {c} times {factor} gives {moved} > {}",
                    fit.log_marginal_likelihood
                );
            }
        }
    }
}

#[test]
fn deterministic() {
    let (x, y) = gp_data(0.2, 0.01, 30, 5);
    let fits: Vec<Array1<f64>> = (0..2)
        .map(|_| {
            let f = fit_squared_exponential(x.view(), y.view(), &SeBounds::default()).unwrap();
            array![
                f.lengthscale,
                f.variance,
                f.lambda,
                f.log_marginal_likelihood
            ]
        })
        .collect();
    assert!(max_abs_diff(&fits[0], &fits[1]) <= 0.0, "{fits:?}");
}

#[test]
fn default_bounds() {
    let b = SeBounds::default();
    assert_eq!(format!("{:?}", b.lengthscale), "(0.01, 1.0)");
    assert_eq!(format!("{:?}", b.variance), "(0.05, 20.0)");
    assert_eq!(format!("{:?}", b.lambda), "(1e-6, 1.0)");
    assert!(b.validate().is_ok());
}

fn input_err<T: std::fmt::Debug>(r: Result<T, KernelError>) -> InputError {
    match r {
        Err(KernelError::Input(e)) => e,
        other => panic!("expected an input error, got {other:?}"),
    }
}

#[test]
fn invalid_data_is_an_error() {
    let k = se(1.0, 0.2);
    let b = SeBounds::default();
    let x = array![[0.1], [0.2], [0.3]];
    let y = array![1.0, 2.0, 3.0];
    let short = array![1.0, 2.0];
    let empty_x = Array2::<f64>::zeros((0, 1));
    let empty_y = Array1::<f64>::zeros(0);
    let nan_x = array![[0.1], [f64::NAN], [0.3]];
    let inf_y = array![1.0, f64::INFINITY, 3.0];

    for e in [
        input_err(log_marginal_likelihood(&k, x.view(), short.view(), 0.1)),
        input_err(fit_squared_exponential(x.view(), short.view(), &b)),
    ] {
        assert!(matches!(
            e,
            InputError::DimensionMismatch {
                expected: 3,
                got: 2,
                ..
            }
        ));
    }
    for e in [
        input_err(log_marginal_likelihood(
            &k,
            empty_x.view(),
            empty_y.view(),
            0.1,
        )),
        input_err(fit_squared_exponential(empty_x.view(), empty_y.view(), &b)),
    ] {
        assert!(matches!(e, InputError::Empty { .. }), "{e:?}");
    }
    for e in [
        input_err(log_marginal_likelihood(&k, nan_x.view(), y.view(), 0.1)),
        input_err(fit_squared_exponential(nan_x.view(), y.view(), &b)),
        input_err(log_marginal_likelihood(&k, x.view(), inf_y.view(), 0.1)),
        input_err(fit_squared_exponential(x.view(), inf_y.view(), &b)),
    ] {
        assert!(matches!(e, InputError::NonFinite { .. }), "{e:?}");
    }
    for lambda in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        let e = input_err(log_marginal_likelihood(&k, x.view(), y.view(), lambda));
        assert!(matches!(e, InputError::NotPositive { .. }), "{e:?}");
    }
    // |y|^2 overflows.
    let huge_y = array![1e200, 1.0, 2.0];
    for e in [
        input_err(log_marginal_likelihood(&k, x.view(), huge_y.view(), 0.1)),
        input_err(fit_squared_exponential(x.view(), huge_y.view(), &b)),
    ] {
        assert!(matches!(e, InputError::Unsatisfied { .. }), "{e:?}");
    }
    // A kernel of fixed input dimension 2 on one-dimensional points.
    let k2 =
        SquaredExponential::new(1.0, Lengthscales::per_dimension(vec![0.1, 0.2]).unwrap()).unwrap();
    let e = input_err(log_marginal_likelihood(&k2, x.view(), y.view(), 0.1));
    assert!(matches!(e, InputError::DimensionMismatch { .. }), "{e:?}");
}

#[test]
fn invalid_bounds_are_an_error() {
    let x = array![[0.1], [0.2], [0.3]];
    let y = array![1.0, 2.0, 3.0];
    let d = SeBounds::default();
    let cases = [
        SeBounds {
            lengthscale: (0.0, 1.0),
            ..d
        },
        SeBounds {
            lengthscale: (-0.1, 1.0),
            ..d
        },
        SeBounds {
            lengthscale: (0.5, 0.5),
            ..d
        },
        SeBounds {
            lengthscale: (0.5, 0.1),
            ..d
        },
        SeBounds {
            variance: (f64::NAN, 1.0),
            ..d
        },
        SeBounds {
            variance: (0.1, f64::INFINITY),
            ..d
        },
        SeBounds {
            variance: (0.1, f64::NAN),
            ..d
        },
        SeBounds {
            lambda: (0.0, 1.0),
            ..d
        },
        SeBounds {
            lambda: (1.0, 1e-3),
            ..d
        },
    ];
    for b in cases {
        let e = input_err(b.validate());
        assert!(
            matches!(
                e,
                InputError::NotPositive { .. } | InputError::Unsatisfied { .. }
            ),
            "{b:?}: {e:?}"
        );
        let e2 = input_err(fit_squared_exponential(x.view(), y.view(), &b));
        assert_eq!(format!("{e:?}"), format!("{e2:?}"));
    }
}

#[test]
fn a_failure_at_every_grid_point_is_an_error() {
    // 30 points within 1 of each other, lengthscales of 50 to 100 and a negligible noise:
    // R has about 27 eigenvalues at round-off level (some of them negative), and
    // s^2 R + lambda I with lambda = 1e-300 is not numerically positive definite anywhere.
    let x = common::grid_1d(30);
    let y = x.column(0).mapv(|t| t - 0.5);
    let b = SeBounds {
        lengthscale: (50.0, 100.0),
        variance: (1.0, 2.0),
        lambda: (1e-300, 1e-299),
    };
    // The fit's own error (not that of a final Cholesky factorisation).
    let r = fit_squared_exponential(x.view(), y.view(), &b);
    assert!(
        matches!(r, Err(KernelError::NotPositiveDefinite { what, .. }) if what.contains("fit")),
        "{r:?}"
    );
    // With a usable noise floor the same data fit.
    let fit = fit_squared_exponential(x.view(), y.view(), &SeBounds::default()).unwrap();
    assert!(fit.log_marginal_likelihood.is_finite());
}

#[test]
fn odd_but_valid_inputs_do_not_panic() {
    // Points of dimension 0 (every point the same), far-apart points (squared distances
    // overflow), tiny outputs, zero outputs.
    let cases = [
        (Array2::<f64>::zeros((3, 0)), array![0.1, 0.2, 0.3]),
        (array![[0.0], [1e200], [-1e200]], array![0.1, 0.2, 0.3]),
        (array![[0.1], [0.2], [0.3]], array![1e-200, 0.0, 1e-200]),
        (array![[0.1], [0.2], [0.3]], array![0.0, 0.0, 0.0]),
    ];
    for (x, y) in cases {
        let fit = fit_squared_exponential(x.view(), y.view(), &SeBounds::default()).unwrap();
        assert!(fit.log_marginal_likelihood.is_finite(), "{x:?}: {fit:?}");
        assert_within(&fit, &SeBounds::default());
    }
}
