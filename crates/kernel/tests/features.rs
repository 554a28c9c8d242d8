//! Feature maps: hand-computed cases, QFF accuracy against Theorem 2, RFF concentration,
//! Nyström exactness on the dictionary.

mod common;

use common::{grid_1d, max_abs_diff, rng, uniform_points};
use kernel::features::{GaussHermite, gauss_hermite};
use kernel::{
    FeatureMap, InputError, Kernel, KernelError, Lengthscales, Matern, MaternNu,
    NormalizedRandomFourierFeatures, NystromEmbedding, QuadratureFourierFeatures,
    RandomFourierFeatures, SquaredExponential,
};
use ndarray::{Array1, Array2, array};

#[test]
fn qff_with_one_or_two_nodes_by_hand() {
    let k = SquaredExponential::new(2.0, Lengthscales::isotropic(0.5).unwrap()).unwrap();
    // mbar = 1: the single node 0 with weight sqrt(pi): phi(x) = [sqrt 2, 0].
    let q = QuadratureFourierFeatures::new(&k, 1, 1).unwrap();
    assert_eq!(q.dim(), 2);
    let phi = q.map(array![0.3].view()).unwrap();
    assert!(max_abs_diff(&phi, &array![2f64.sqrt(), 0.0]) < 1e-15);
    // mbar = 2: nodes +-1/sqrt 2 -> omega = +-1/l = +-2, W = 1/2 each:
    // phi(x)^T phi(y) = s^2 cos(2 (x - y)).
    let q = QuadratureFourierFeatures::new(&k, 1, 2).unwrap();
    let (x, y) = (0.3, -0.4);
    let v = q
        .map(array![x].view())
        .unwrap()
        .dot(&q.map(array![y].view()).unwrap());
    assert!((v - 2.0 * (2.0 * (x - y)).cos()).abs() < 1e-14);
}

#[test]
fn qff_1d_grid_accuracy() {
    // The acceptance case: l = 0.2, 100 grid points on [0, 1], mbar = 32.
    let k = SquaredExponential::isotropic(0.2).unwrap();
    let x = grid_1d(100);
    let q = QuadratureFourierFeatures::new(&k, 1, 32).unwrap();
    assert_eq!(q.dim(), 64);
    let phi = q.map_batch(x.view()).unwrap();
    let err = max_abs_diff(&k.gram(x.view()).unwrap(), &phi.dot(&phi.t()));
    assert!(err <= 1e-10, "max |K - Phi Phi^T| = {err:e}");
}

#[test]
fn qff_2d_error_below_theorem_2() {
    let k =
        SquaredExponential::new(1.0, Lengthscales::per_dimension(vec![0.3, 0.5]).unwrap()).unwrap();
    let x = uniform_points(60, 2, 7);
    let kk = k.gram(x.view()).unwrap();
    for mbar in [4, 6, 8, 10, 12] {
        let q = QuadratureFourierFeatures::new(&k, 2, mbar).unwrap();
        assert_eq!(q.dim(), 2 * mbar * mbar);
        let phi = q.map_batch(x.view()).unwrap();
        let err = max_abs_diff(&kk, &phi.dot(&phi.t()));
        assert!(
            err <= q.error_bound(),
            "mbar {mbar}: error {err:e} > bound {:e}",
            q.error_bound()
        );
    }
}

/// The "positive nodes with doubled weights" shortcut, per dimension: exact in d = 1 and wrong
/// in d >= 2 (the power check of the QFF construction).
fn half_grid_gram(x: &Array2<f64>, l: f64, mbar: usize) -> Array2<f64> {
    let GaussHermite { nodes, weights } = gauss_hermite(mbar).unwrap();
    let sqrt_pi = std::f64::consts::PI.sqrt();
    let half: Vec<(f64, f64)> = nodes
        .iter()
        .zip(weights.iter())
        .filter(|(t, _)| **t >= 0.0)
        .map(|(&t, &w)| {
            (
                std::f64::consts::SQRT_2 * t / l,
                if t > 0.0 { 2.0 * w } else { w } / sqrt_pi,
            )
        })
        .collect();
    let d = x.ncols();
    let n = x.nrows();
    let mut g = Array2::zeros((n, n));
    let grid = half.len().pow(d as u32);
    for i in 0..n {
        for j in 0..n {
            let mut s = 0.0;
            for idx in 0..grid {
                let (mut rest, mut w, mut a) = (idx, 1.0, 0.0);
                for c in 0..d {
                    let (om, wt) = half[rest % half.len()];
                    rest /= half.len();
                    w *= wt;
                    a += om * (x[[i, c]] - x[[j, c]]);
                }
                s += w * a.cos();
            }
            g[[i, j]] = s;
        }
    }
    g
}

#[test]
fn positive_nodes_shortcut_is_exact_in_1d_and_wrong_in_2d() {
    let k = SquaredExponential::isotropic(0.4).unwrap();
    let x1 = grid_1d(20);
    let e1 = max_abs_diff(&k.gram(x1.view()).unwrap(), &half_grid_gram(&x1, 0.4, 16));
    assert!(e1 < 1e-10, "1-d shortcut error {e1:e}");
    let x2 = uniform_points(20, 2, 3);
    let e2 = max_abs_diff(&k.gram(x2.view()).unwrap(), &half_grid_gram(&x2, 0.4, 16));
    let q = QuadratureFourierFeatures::new(&k, 2, 16).unwrap();
    let phi = q.map_batch(x2.view()).unwrap();
    let full = max_abs_diff(&k.gram(x2.view()).unwrap(), &phi.dot(&phi.t()));
    assert!(full < 1e-9, "full grid error {full:e}");
    assert!(e2 > 1e-2, "2-d shortcut error {e2:e} should be large");
}

#[test]
fn qff_errors() {
    let k =
        SquaredExponential::new(1.0, Lengthscales::per_dimension(vec![0.3, 0.5]).unwrap()).unwrap();
    assert!(matches!(
        QuadratureFourierFeatures::new(&k, 3, 4),
        Err(KernelError::Input(InputError::DimensionMismatch { .. }))
    ));
    assert!(matches!(
        QuadratureFourierFeatures::new(&k, 2, 0),
        Err(KernelError::Input(InputError::ZeroCount { .. }))
    ));
    assert!(matches!(
        QuadratureFourierFeatures::new(&k, 2, 100_000),
        Err(KernelError::InvalidCount { .. })
    ));
    let q = QuadratureFourierFeatures::new(&k, 2, 4).unwrap();
    assert!(matches!(
        q.map(array![0.1].view()),
        Err(KernelError::Input(InputError::DimensionMismatch { .. }))
    ));
    assert!(matches!(
        q.map(array![0.1, f64::NAN].view()),
        Err(KernelError::Input(InputError::NonFinite { .. }))
    ));
}

/// The map is `phi_I(x) = sqrt(w_I) (cos <omega_I, x>, sin <omega_I, x>)` with the phase summed
/// by ndarray's `dot`: every bit of the fast path (contiguous rows, fewer than 8 dimensions) and
/// of the general path (strided input and output, 8 or more dimensions) equals that formula.
#[test]
fn qff_map_is_bit_identical_to_its_definition() {
    for (d, mbar) in [(1, 7), (2, 5), (3, 3), (7, 2), (8, 2), (9, 2)] {
        let k = SquaredExponential::new(1.7, Lengthscales::Isotropic(0.3)).unwrap();
        let q = QuadratureFourierFeatures::new(&k, d, mbar).unwrap();
        let g = q.frequencies().nrows();
        let scales: Vec<f64> = {
            // sqrt(w_I) from the feature of x = 0: cos 0 = 1.
            let zero = Array1::<f64>::zeros(d);
            q.map(zero.view())
                .unwrap()
                .iter()
                .take(g)
                .copied()
                .collect()
        };
        let x = uniform_points(20, d, 90 + d as u64) * 4.0 - 2.0;
        let definition = |row: ndarray::ArrayView1<'_, f64>| -> Array1<f64> {
            let mut out = Array1::zeros(2 * g);
            for (i, w) in q.frequencies().rows().into_iter().enumerate() {
                let (sin, cos) = w.dot(&row).sin_cos();
                out[i] = scales[i] * cos;
                out[g + i] = scales[i] * sin;
            }
            out
        };
        let batch = q.map_batch(x.view()).unwrap();
        // A strided input (a column of the transpose) and a strided output.
        let xt = x.t().to_owned();
        let mut strided = Array2::<f64>::zeros((2 * g, 20));
        for (i, row) in x.rows().into_iter().enumerate() {
            let want = definition(row);
            assert_eq!(
                q.map(row).unwrap().to_vec(),
                want.to_vec(),
                "d = {d}, row {i}"
            );
            assert_eq!(
                batch.row(i).to_vec(),
                want.to_vec(),
                "d = {d}, batch row {i}"
            );
            q.map_into_unchecked(xt.column(i), strided.column_mut(i));
            assert_eq!(
                strided.column(i).to_vec(),
                want.to_vec(),
                "d = {d}, strided {i}"
            );
            // A strided input into a contiguous output (the fast path reads x element-wise).
            let mut contiguous = Array1::<f64>::zeros(2 * g);
            q.map_into_unchecked(xt.column(i), contiguous.view_mut());
            assert_eq!(
                contiguous.to_vec(),
                want.to_vec(),
                "d = {d}, strided input {i}"
            );
        }
    }
}

/// Hoeffding: each term of phi(x)^T phi(y) = (2 s^2 / m) sum_i cos(.) cos(.) lies in
/// [-2 s^2, 2 s^2] with mean k(x, y), so P(|phi^T phi - k| > 2 s^2 sqrt(2 ln(2/delta) / m)) <=
/// delta. With delta = 1e-8 per pair and 5 pairs, the false-failure probability is <= 5e-8.
fn rff_tolerance(m: usize) -> f64 {
    2.0 * (2.0 * (2.0f64 / 1e-8).ln() / m as f64).sqrt()
}

fn rff_max_error<K: Kernel>(k: &K, phi: &dyn FeatureMap) -> f64 {
    let x = uniform_points(5, 2, 11);
    let y = uniform_points(5, 2, 12);
    let px = phi.map_batch(x.view()).unwrap();
    let py = phi.map_batch(y.view()).unwrap();
    (0..5)
        .map(|i| (px.row(i).dot(&py.row(i)) - k.value(x.row(i), y.row(i)).unwrap()).abs())
        .fold(0.0, f64::max)
}

#[test]
fn rff_concentrates_for_se_and_matern_and_detects_wrong_lengthscale() {
    let m = 20_000;
    let tol = rff_tolerance(m);
    let se = SquaredExponential::isotropic(0.3).unwrap();
    let f = RandomFourierFeatures::new(se.clone(), 2, m, &mut rng(1)).unwrap();
    assert!(rff_max_error(&se, &f) <= tol);
    for (s, nu) in [MaternNu::Half, MaternNu::ThreeHalves, MaternNu::FiveHalves]
        .into_iter()
        .enumerate()
    {
        let k = Matern::isotropic(nu, 0.3).unwrap();
        let f = RandomFourierFeatures::new(k.clone(), 2, m, &mut rng(2 + s as u64)).unwrap();
        let e = rff_max_error(&k, &f);
        assert!(e <= tol, "{nu:?}: {e} > {tol}");
    }
    // Power check: features of the SE kernel with lengthscale 0.6 fail the same test for 0.3
    // (their expectation differs from k(x, y) by far more than the tolerance at these pairs),
    // and Matérn-1/2 features fail it for the SE kernel.
    let wrong = RandomFourierFeatures::new(
        SquaredExponential::isotropic(0.6).unwrap(),
        2,
        m,
        &mut rng(9),
    )
    .unwrap();
    assert!(rff_max_error(&se, &wrong) > tol);
    let mat = RandomFourierFeatures::new(
        Matern::isotropic(MaternNu::Half, 0.3).unwrap(),
        2,
        m,
        &mut rng(10),
    )
    .unwrap();
    assert!(rff_max_error(&se, &mat) > tol);
}

#[test]
fn normalized_rff_has_norm_s_and_approximates_k() {
    let k = SquaredExponential::new(2.0, Lengthscales::isotropic(0.3).unwrap()).unwrap();
    let f = NormalizedRandomFourierFeatures::new(k.clone(), 2, 20_000, &mut rng(4)).unwrap();
    let x = uniform_points(10, 2, 5);
    let phi = f.map_batch(x.view()).unwrap();
    for r in phi.rows() {
        assert!((r.dot(&r) - 2.0).abs() < 1e-12);
    }
    // Ratio estimator: |z|^2 concentrates at s^2 as fast as the plain estimator; a loose
    // tolerance of twice the plain one suffices here.
    assert!(rff_max_error(&k, &f) <= 2.0 * 2.0 * rff_tolerance(20_000));
}

#[test]
fn rff_errors() {
    let se = SquaredExponential::isotropic(0.3).unwrap();
    assert!(matches!(
        RandomFourierFeatures::new(se.clone(), 2, 0, &mut rng(0)),
        Err(KernelError::Input(InputError::ZeroCount {
            what: "number of random features"
        }))
    ));
    assert!(matches!(
        RandomFourierFeatures::new(se, 0, 5, &mut rng(0)),
        Err(KernelError::Input(InputError::ZeroCount {
            what: "input dimension"
        }))
    ));
}

#[test]
fn nystrom_is_exact_on_the_dictionary() {
    let k = SquaredExponential::isotropic(0.3).unwrap();
    let x = uniform_points(30, 2, 21);
    // q large enough that every point has inclusion probability 1.
    let e = NystromEmbedding::sample(
        &k,
        x.view(),
        Array1::from_elem(30, 1.0).view(),
        10.0,
        &mut rng(0),
    )
    .unwrap();
    assert_eq!(e.dim(), 30);
    assert_eq!(e.indices(), (0..30).collect::<Vec<_>>().as_slice());
    let phi = e.map_batch(x.view()).unwrap();
    let err = max_abs_diff(&phi.dot(&phi.t()), &k.gram(x.view()).unwrap());
    assert!(err < 1e-7, "reconstruction error {err:e}");
    // A sub-dictionary: exact on pairs involving a dictionary point.
    let sub =
        NystromEmbedding::from_indices(&k, x.view(), &[0, 3, 7, 7, 12], kernel::linalg::PINV_RCOND)
            .unwrap();
    let phi = sub.map_batch(x.view()).unwrap();
    // The batch map (one cross matrix, one product) equals the map of each row, and the
    // features from the points' Gram matrix are the same numbers.
    for (i, row) in x.rows().into_iter().enumerate() {
        assert!(max_abs_diff(&phi.row(i), &sub.map(row).unwrap()) < 1e-13);
    }
    let from_gram = kernel::features::nystrom_features_from_gram(
        k.gram(x.view()).unwrap().view(),
        &[0, 3, 7, 7, 12],
        kernel::linalg::PINV_RCOND,
    )
    .unwrap();
    assert!(max_abs_diff(&from_gram, &phi) < 1e-13);
    let kk = k.gram(x.view()).unwrap();
    for &i in &[0, 3, 7, 12] {
        for j in 0..30 {
            assert!((phi.row(i).dot(&phi.row(j)) - kk[[i, j]]).abs() < 1e-7);
        }
    }
}

#[test]
fn nystrom_sampling_probabilities_and_errors() {
    let k = SquaredExponential::isotropic(0.3).unwrap();
    let x = uniform_points(6, 1, 2);
    let v = array![0.0, 0.1, 0.2, 0.5, 1.0, 0.0];
    let e = NystromEmbedding::sample(&k, x.view(), v.view(), 2.0, &mut rng(3)).unwrap();
    assert!(
        max_abs_diff(
            e.inclusion_probabilities(),
            &array![0.0, 0.2, 0.4, 1.0, 1.0, 0.0]
        ) < 1e-15
    );
    assert!(e.indices().contains(&3) && e.indices().contains(&4));
    assert!(!e.indices().contains(&0) && !e.indices().contains(&5));
    // Zero variances: empty dictionary, zero-dimensional features.
    let e =
        NystromEmbedding::sample(&k, x.view(), Array1::zeros(6).view(), 2.0, &mut rng(3)).unwrap();
    assert_eq!(e.dim(), 0);
    assert_eq!(e.map(array![0.5].view()).unwrap().len(), 0);
    assert_eq!(e.map_batch(x.view()).unwrap().dim(), (6, 0));
    assert!(NystromEmbedding::sample(&k, x.view(), v.view(), 0.0, &mut rng(3)).is_err());
    assert!(NystromEmbedding::sample(&k, x.view(), (-&v).view(), 1.0, &mut rng(3)).is_err());
    assert!(NystromEmbedding::sample(&k, x.view(), array![1.0].view(), 1.0, &mut rng(3)).is_err());
    assert!(
        NystromEmbedding::sample(
            &k,
            x.view(),
            array![1.0, f64::NAN, 0.0, 0.0, 0.0, 0.0].view(),
            1.0,
            &mut rng(3)
        )
        .is_err()
    );
    // Closure form, as the LDP-BO learner calls it.
    let e = NystromEmbedding::sample_with(&k, x.view(), |_, _| 1.0, 1.0, &mut rng(3)).unwrap();
    assert_eq!(e.dim(), 6);
}

#[test]
fn nystrom_bernoulli_frequency() {
    // Each of 1000 points has inclusion probability 0.25; the count is Binomial(1000, 0.25),
    // mean 250, sd 13.7. |count - 250| >= 5.5 sd = 75 has probability < 1e-7.
    let k = SquaredExponential::isotropic(0.3).unwrap();
    let x = Array2::from_shape_fn((1000, 1), |(i, _)| i as f64);
    let e = NystromEmbedding::sample(
        &k,
        x.view(),
        Array1::from_elem(1000, 0.125).view(),
        2.0,
        &mut rng(17),
    )
    .unwrap();
    let c = e.dim() as f64;
    assert!((c - 250.0).abs() < 75.0, "count {c}");
    // Power check: confusing sigma with sigma^2 (passing the standard deviations sqrt(0.125))
    // gives p = 0.707 and a count near 707, which the same test rejects.
    let broken = NystromEmbedding::sample(
        &k,
        x.view(),
        Array1::from_elem(1000, 0.125f64.sqrt()).view(),
        2.0,
        &mut rng(17),
    )
    .unwrap();
    assert!((broken.dim() as f64 - 250.0).abs() >= 75.0);
}
