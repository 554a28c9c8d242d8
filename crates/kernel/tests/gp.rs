//! GP posteriors: hand-computed cases, incremental vs from-scratch, weight space vs function
//! space, Thompson samples, typed errors.

mod common;

use std::sync::Arc;

use common::{max_abs_diff, rng, uniform_points};
use kernel::information_gain::{
    exact_max_information_gain, greedy_information_gain, information_gain,
};
use kernel::linalg::psd_sqrt;
use kernel::{
    ExactGp, FeatureMap, InputError, Kernel, KernelError, Matern, MaternNu, NystromEmbedding,
    Precomputed, SquaredExponential, WeightSpaceGp,
};
use ndarray::{Array1, Array2, Axis, array, concatenate};

#[test]
fn one_observation_by_hand() {
    // SE, l = 1, one observation (0, 1), lambda = 0.5: K + lambda = 1.5.
    let mut gp = ExactGp::new(SquaredExponential::isotropic(1.0).unwrap(), 0.5).unwrap();
    gp.observe(array![0.0].view(), 1.0).unwrap();
    let (m, v) = gp.predict(array![[0.0], [1.0]].view()).unwrap();
    let e = (-0.5f64).exp();
    assert!(max_abs_diff(&m, &array![1.0 / 1.5, e / 1.5]) < 1e-15);
    assert!(max_abs_diff(&v, &array![1.0 - 1.0 / 1.5, 1.0 - e * e / 1.5]) < 1e-15);
    assert!((gp.information_gain() - 0.5 * (1.0f64 + 2.0).ln()).abs() < 1e-15);
    assert!((gp.alpha().unwrap()[0] - 1.0 / 1.5).abs() < 1e-15);
    assert!((gp.beta()[0] - 1.0 / 1.5f64.sqrt()).abs() < 1e-15);
}

#[test]
fn prior_before_any_observation() {
    let gp = ExactGp::new(Matern::isotropic(MaternNu::FiveHalves, 0.2).unwrap(), 0.1).unwrap();
    let (m, v) = gp.predict(array![[0.0, 1.0], [2.0, 3.0]].view()).unwrap();
    assert_eq!(m, array![0.0, 0.0]);
    assert_eq!(v, array![1.0, 1.0]);
    assert!(gp.is_empty());
}

fn data(n: usize, d: usize, seed: u64) -> (Array2<f64>, Array1<f64>) {
    let x = uniform_points(n, d, seed);
    let y = x
        .rows()
        .into_iter()
        .map(|r| (6.0 * r.sum()).sin())
        .collect();
    (x, y)
}

#[test]
fn incremental_equals_from_scratch() {
    let k = SquaredExponential::isotropic(0.25).unwrap();
    let (x, y) = data(80, 2, 1);
    let mut inc = ExactGp::new(k.clone(), 0.01).unwrap();
    for (r, &v) in x.rows().into_iter().zip(y.iter()) {
        inc.observe(r, v).unwrap();
    }
    let full = ExactGp::from_data(k, 0.01, x.view(), y.view()).unwrap();
    let xs = uniform_points(50, 2, 2);
    let (mi, vi) = inc.predict(xs.view()).unwrap();
    let (mf, vf) = full.predict(xs.view()).unwrap();
    assert!(max_abs_diff(&mi, &mf) < 1e-9);
    assert!(max_abs_diff(&vi, &vf) < 1e-9);
    let (mc, c) = inc.predict_cov(xs.view()).unwrap();
    assert!(max_abs_diff(&mc, &mi) < 1e-12);
    assert!(max_abs_diff(&c.diag().to_owned(), &vi) < 1e-12);
    assert!(vi.iter().all(|&s| s >= 0.0));
    assert_eq!(inc.len(), 80);
    assert_eq!(inc.points(), x.view());
}

#[test]
fn boxed_and_shared_kernels_work_generically() {
    let (x, y) = data(10, 1, 3);
    let boxed: Box<dyn Kernel> = Box::new(SquaredExponential::isotropic(0.3).unwrap());
    let shared: Arc<dyn Kernel> = Arc::new(SquaredExponential::isotropic(0.3).unwrap());
    let plain = SquaredExponential::isotropic(0.3).unwrap();
    let a = ExactGp::from_data(boxed, 0.1, x.view(), y.view()).unwrap();
    let b = ExactGp::from_data(shared, 0.1, x.view(), y.view()).unwrap();
    let c = ExactGp::from_data(&plain, 0.1, x.view(), y.view()).unwrap();
    let xs = uniform_points(5, 1, 4);
    assert_eq!(a.predict(xs.view()).unwrap(), b.predict(xs.view()).unwrap());
    assert_eq!(a.predict(xs.view()).unwrap(), c.predict(xs.view()).unwrap());
    // The precomputed kernel's own validation is forwarded through the box.
    let p: Box<dyn Kernel> =
        Box::new(Precomputed::new(array![[1.0, 0.5], [0.5, 1.0]].view()).unwrap());
    assert!(matches!(
        p.value(array![2.0].view(), array![0.0].view()),
        Err(KernelError::ArmIndexOutOfRange { .. })
    ));
}

#[test]
fn weight_space_with_exact_features_equals_function_space() {
    // Exact features on a finite set: the rows of K^{1/2} (phi_i^T phi_j = K_ij).
    let pts = uniform_points(25, 2, 5);
    let k = SquaredExponential::isotropic(0.3).unwrap();
    let gram = k.gram(pts.view()).unwrap();
    let feats = psd_sqrt("K", gram.view()).unwrap();
    let arms = Precomputed::new(gram.view()).unwrap();
    let lambda = 0.05;
    let obs = [0usize, 3, 3, 7, 11, 19, 24];
    let mut fs = ExactGp::new(&arms, lambda).unwrap();
    let mut ws = WeightSpaceGp::new(25, lambda).unwrap();
    for (s, &i) in obs.iter().enumerate() {
        let y = (s as f64).cos();
        fs.observe(array![i as f64].view(), y).unwrap();
        ws.observe(feats.row(i), y).unwrap();
    }
    let (mf, vf) = fs.predict(arms.arms().view()).unwrap();
    let (mw, vw) = ws.predict(feats.view()).unwrap();
    assert!(max_abs_diff(&mf, &mw) < 1e-9, "{}", max_abs_diff(&mf, &mw));
    assert!(max_abs_diff(&vf, &vw) < 1e-9, "{}", max_abs_diff(&vf, &vw));
    let (_, cf) = fs.predict_cov(arms.arms().view()).unwrap();
    let (_, cw) = ws.predict_cov(feats.view()).unwrap();
    assert!(max_abs_diff(&cf, &cw) < 1e-9);
    // Rank-one updates equal the batch construction.
    let phi = Array2::from_shape_fn((obs.len(), 25), |(r, c)| feats[[obs[r], c]]);
    let y: Array1<f64> = (0..obs.len()).map(|s| (s as f64).cos()).collect();
    let batch = WeightSpaceGp::from_features(phi.view(), y.view(), lambda).unwrap();
    assert!(max_abs_diff(&batch.theta().to_owned(), &ws.theta().to_owned()) < 1e-10);
}

#[test]
fn weight_space_with_full_nystrom_equals_function_space() {
    let k = SquaredExponential::isotropic(0.4).unwrap();
    let (x, y) = data(12, 2, 8);
    let xs = uniform_points(6, 2, 9);
    let all = concatenate(Axis(0), &[x.view(), xs.view()]).unwrap();
    let idx: Vec<usize> = (0..18).collect();
    let e = NystromEmbedding::from_indices(&k, all.view(), &idx, 1e-13).unwrap();
    let ws =
        WeightSpaceGp::from_features(e.map_batch(x.view()).unwrap().view(), y.view(), 0.1).unwrap();
    let fs = ExactGp::from_data(&k, 0.1, x.view(), y.view()).unwrap();
    let (mw, vw) = ws.predict(e.map_batch(xs.view()).unwrap().view()).unwrap();
    let (mf, vf) = fs.predict(xs.view()).unwrap();
    assert!(max_abs_diff(&mw, &mf) < 1e-6, "{}", max_abs_diff(&mw, &mf));
    assert!(max_abs_diff(&vw, &vf) < 1e-6, "{}", max_abs_diff(&vw, &vf));
}

#[test]
fn thompson_sample_has_covariance_lambda_v_inverse() {
    let phi = uniform_points(8, 3, 10);
    let y = array![1.0, -1.0, 0.5, 0.2, 0.0, 0.3, -0.7, 1.1];
    let ws = WeightSpaceGp::from_features(phi.view(), y.view(), 0.2).unwrap();
    // Deterministic part: V (theta~ - theta) = sqrt(lambda) L z.
    let z = array![0.3, -1.2, 0.8];
    let t = ws.sample_theta_with(z.view()).unwrap();
    let lhs = ws.v().dot(&(&t - &ws.theta()));
    let rhs = ws.cholesky().lower().dot(&z) * 0.2f64.sqrt();
    assert!(max_abs_diff(&lhs, &rhs) < 1e-12);
    // Statistical: the empirical covariance of 40000 samples. Each entry of the sample
    // covariance has sd <= sqrt(2 / n) max_ii C_ii; the tolerance 6 sd keeps the false-failure
    // probability of the 6 distinct entries below 1e-7 (Gaussian tails of the CLT).
    let n = 40_000;
    let mut r = rng(5);
    let c = ws.v();
    let target = kernel::linalg::Cholesky::factor("V", c.view())
        .unwrap()
        .solve_matrix(Array2::<f64>::eye(3).view())
        .unwrap()
        * 0.2;
    let mut acc = Array2::<f64>::zeros((3, 3));
    for _ in 0..n {
        let d = ws.sample_theta(&mut r).unwrap() - ws.theta();
        acc += &d
            .view()
            .insert_axis(Axis(1))
            .dot(&d.view().insert_axis(Axis(0)));
    }
    acc /= n as f64;
    let scale = target.diag().iter().fold(0.0f64, |m, &v| m.max(v));
    let tol = 6.0 * (2.0 / n as f64).sqrt() * scale;
    assert!(max_abs_diff(&acc, &target) < tol);
    // Power check: the same test rejects the covariance V^{-1} (lambda forgotten).
    assert!(max_abs_diff(&acc, &(&target / 0.2)) >= tol);
}

#[test]
fn gp_errors_are_typed() {
    let k = SquaredExponential::isotropic(0.3).unwrap();
    assert!(matches!(
        ExactGp::new(k.clone(), 0.0),
        Err(KernelError::Input(InputError::NotPositive { .. }))
    ));
    assert!(matches!(
        ExactGp::new(k.clone(), f64::NAN),
        Err(KernelError::Input(InputError::NotPositive { .. }))
    ));
    let mut gp = ExactGp::new(k.clone(), 0.1).unwrap();
    gp.observe(array![0.1, 0.2].view(), 1.0).unwrap();
    assert!(matches!(
        gp.observe(array![0.1].view(), 1.0),
        Err(KernelError::Input(InputError::DimensionMismatch { .. }))
    ));
    assert!(matches!(
        gp.observe(array![0.1, f64::NAN].view(), 1.0),
        Err(KernelError::Input(InputError::NonFinite { .. }))
    ));
    assert!(matches!(
        gp.observe(array![0.1, 0.3].view(), f64::INFINITY),
        Err(KernelError::Input(InputError::NonFinite { .. }))
    ));
    assert!(matches!(
        gp.predict(array![[0.1, 0.2, 0.3]].view()),
        Err(KernelError::Input(InputError::DimensionMismatch { .. }))
    ));
    assert_eq!(gp.len(), 1);
    assert!(WeightSpaceGp::new(3, -1.0).is_err());
    let mut ws = WeightSpaceGp::new(3, 1.0).unwrap();
    assert!(matches!(
        ws.observe(array![1.0].view(), 1.0),
        Err(KernelError::Input(InputError::DimensionMismatch { .. }))
    ));
    assert!(matches!(
        ws.predict(array![[1.0, f64::NAN, 0.0]].view()),
        Err(KernelError::Input(InputError::NonFinite { .. }))
    ));
    // Perturbed statistics that make V indefinite are rejected, not silently used.
    let g = array![[-5.0, 0.0], [0.0, 1.0]];
    assert!(matches!(
        WeightSpaceGp::from_statistics(g.view(), array![0.0, 0.0].view(), 1.0, 1),
        Err(KernelError::NotPositiveDefinite { .. })
    ));
}

#[test]
fn information_gain_by_hand_and_greedy_vs_exact() {
    let k = SquaredExponential::new(2.0, kernel::Lengthscales::isotropic(0.3).unwrap()).unwrap();
    // One point: 1/2 log(1 + k(x,x)/lambda) = 1/2 log 5 at lambda = 0.5.
    let g = information_gain(&k, array![[0.2]].view(), 0.5).unwrap();
    assert!((g - 0.5 * 5f64.ln()).abs() < 1e-14);
    let (x, y) = data(7, 1, 12);
    let gp = ExactGp::from_data(&k, 0.5, x.view(), y.view()).unwrap();
    assert!((gp.information_gain() - information_gain(&k, x.view(), 0.5).unwrap()).abs() < 1e-12);
    // Greedy vs exhaustive over multisets of 3 out of 6 candidates.
    let c = uniform_points(6, 1, 13);
    let greedy = greedy_information_gain(&k, c.view(), 3, 0.5).unwrap();
    let (exact, _) = exact_max_information_gain(&k, c.view(), 3, 0.5, 1000).unwrap();
    let chosen = Array2::from_shape_fn((3, 1), |(r, _)| c[[greedy.chosen[r], 0]]);
    assert!(
        (greedy.lower_bound() - information_gain(&k, chosen.view(), 0.5).unwrap()).abs() < 1e-12
    );
    assert!(greedy.lower_bound() <= exact + 1e-12);
    assert!(exact <= greedy.upper_bound());
    // T = 1: greedy is exact.
    let g1 = greedy_information_gain(&k, c.view(), 1, 0.5).unwrap();
    let (e1, _) = exact_max_information_gain(&k, c.view(), 1, 0.5, 1000).unwrap();
    assert!((g1.lower_bound() - e1).abs() < 1e-14);
    assert!(exact_max_information_gain(&k, c.view(), 20, 0.5, 1000).is_err());
}
