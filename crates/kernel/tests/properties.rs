//! Property tests: Gram matrices are symmetric PSD, the incremental posterior equals the
//! from-scratch one, and constructors never panic on arbitrary input.

use kernel::features::gauss_hermite;
use kernel::information_gain::greedy_information_gain;
use kernel::linalg::{Cholesky, ensure_psd, pinv_sqrt, psd_sqrt, symmetric_eigen};
use kernel::{
    ExactGp, FeatureMap, Kernel, Lengthscales, Linear, Matern, MaternNu, NystromEmbedding,
    Precomputed, QuadratureFourierFeatures, RandomFourierFeatures, SquaredExponential,
    WeightSpaceGp,
};
use ndarray::{Array1, Array2};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;

fn points(max_n: usize, d: usize) -> impl Strategy<Value = Array2<f64>> {
    (1..=max_n).prop_flat_map(move |n| {
        proptest::collection::vec(-3.0f64..3.0, n * d)
            .prop_map(move |v| Array2::from_shape_vec((n, d), v).unwrap())
    })
}

/// Any f64, with the special values over-represented.
fn wild() -> impl Strategy<Value = f64> {
    prop_oneof![
        Just(f64::NAN),
        Just(f64::INFINITY),
        Just(f64::NEG_INFINITY),
        Just(0.0),
        Just(-0.0),
        Just(-1.0),
        Just(f64::MIN_POSITIVE),
        Just(f64::MAX),
        any::<f64>(),
        -10.0f64..10.0,
    ]
}

fn kernels() -> impl Strategy<Value = Box<dyn Kernel>> {
    (0usize..5, 0.05f64..3.0, 0.1f64..4.0).prop_map(|(which, l, s)| -> Box<dyn Kernel> {
        let ls = Lengthscales::isotropic(l).unwrap();
        match which {
            0 => Box::new(SquaredExponential::new(s, ls).unwrap()),
            1 => Box::new(Matern::new(MaternNu::Half, s, ls).unwrap()),
            2 => Box::new(Matern::new(MaternNu::ThreeHalves, s, ls).unwrap()),
            3 => Box::new(Matern::new(MaternNu::FiveHalves, s, ls).unwrap()),
            _ => Box::new(Linear::new(s).unwrap()),
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn gram_is_symmetric_and_psd(k in kernels(), x in points(12, 3)) {
        let g = k.gram(x.view()).unwrap();
        for i in 0..g.nrows() {
            for j in 0..g.ncols() {
                prop_assert!(g[[i, j]].to_bits() == g[[j, i]].to_bits());
            }
        }
        // Smallest eigenvalue >= -1e-10 * max(1, max |eigenvalue|).
        prop_assert!(ensure_psd("gram", g.view()).is_ok(), "{:?}", symmetric_eigen("g", g.view()).unwrap().values);
        let c = k.cross(x.view(), x.view()).unwrap();
        prop_assert_eq!(c, g);
    }

    #[test]
    fn incremental_posterior_equals_from_scratch(
        k in kernels(),
        x in points(25, 2),
        lambda in 0.01f64..2.0,
        q in points(6, 2),
        seed in any::<u64>(),
    ) {
        let y: Array1<f64> = x.rows().into_iter().enumerate().map(|(i, r)| (r.sum() * (seed % 7) as f64).sin() + i as f64 * 0.1).collect();
        let mut inc = ExactGp::new(&k, lambda).unwrap();
        for (r, &v) in x.rows().into_iter().zip(y.iter()) {
            inc.observe(r, v).unwrap();
        }
        let full = ExactGp::from_data(&k, lambda, x.view(), y.view()).unwrap();
        let (mi, vi) = inc.predict(q.view()).unwrap();
        let (mf, vf) = full.predict(q.view()).unwrap();
        // Relative to the scale of the problem (|y| <= 4, k(x,x) <= s^2 or |x|^2 s^2 for Linear).
        let scale = 1.0f64.max(k.diag(q.view()).unwrap().iter().fold(0.0, |m: f64, v| m.max(*v)));
        for i in 0..q.nrows() {
            prop_assert!((mi[i] - mf[i]).abs() <= 1e-9 * scale, "mean {} vs {}", mi[i], mf[i]);
            prop_assert!((vi[i] - vf[i]).abs() <= 1e-9 * scale, "var {} vs {}", vi[i], vf[i]);
            prop_assert!(vi[i] >= 0.0);
        }
    }

    #[test]
    fn kernel_constructors_never_panic(a in wild(), b in wild(), c in wild(), d in wild()) {
        let _ = Lengthscales::isotropic(a);
        let _ = Lengthscales::per_dimension(vec![a, b]);
        if let Ok(l) = Lengthscales::isotropic(b) {
            let k = SquaredExponential::new(a, l.clone());
            prop_assert_eq!(k.is_ok(), a.is_finite() && a > 0.0);
            let _ = Matern::new(MaternNu::ThreeHalves, a, l);
        }
        let _ = SquaredExponential::isotropic(a);
        let _ = Matern::isotropic(MaternNu::Half, a);
        let _ = Linear::new(a);
        let g = Array2::from_shape_vec((2, 2), vec![a, b, c, d]).unwrap();
        let _ = Precomputed::new(g.view());
        let g = Array2::from_shape_vec((2, 2), vec![a.abs(), b, b, d.abs()]).unwrap();
        let _ = Precomputed::new(g.view());
        let _ = Cholesky::factor("g", g.view());
        let _ = psd_sqrt("g", g.view());
        let _ = pinv_sqrt("g", g.view(), c);
        let _ = ExactGp::new(SquaredExponential::isotropic(0.5).unwrap(), a);
        let _ = WeightSpaceGp::new(3, a);
        let _ = WeightSpaceGp::from_statistics(g.view(), ndarray::array![c, d].view(), b, 1);
    }

    #[test]
    fn kernel_and_gp_inputs_never_panic(a in wild(), b in wild(), y in wild()) {
        let k = SquaredExponential::isotropic(0.3).unwrap();
        let x = ndarray::array![a, b];
        let _ = k.value(x.view(), ndarray::array![0.0, 1.0].view());
        let _ = k.gram(x.view().insert_axis(ndarray::Axis(0)));
        let mut gp = ExactGp::new(&k, 0.1).unwrap();
        let ok = gp.observe(x.view(), y).is_ok();
        prop_assert_eq!(ok, a.is_finite() && b.is_finite() && y.is_finite());
        let _ = gp.predict(x.view().insert_axis(ndarray::Axis(0)));
        let mut c = Cholesky::empty();
        let _ = c.extend(ndarray::array![].view(), a);
        let _ = c.extend(ndarray::array![b].view(), y);
        let _ = greedy_information_gain(&k, x.view().insert_axis(ndarray::Axis(0)), 3, y);
        let p = Precomputed::new(ndarray::array![[1.0, 0.5], [0.5, 1.0]].view()).unwrap();
        let _ = p.value(ndarray::array![a].view(), ndarray::array![b].view());
    }

    #[test]
    fn feature_constructors_never_panic(a in wild(), b in wild(), mbar in 0usize..40, m in 0usize..50, d in 0usize..4, q in wild()) {
        let mut rng = ChaCha20Rng::seed_from_u64(0);
        if let Ok(k) = SquaredExponential::isotropic(a) {
            let qff = QuadratureFourierFeatures::new(&k, d, mbar.min(6));
            if let Ok(f) = qff {
                let _ = f.map(Array1::from_elem(d, b).view());
                let _ = f.error_bound();
            }
            let _ = RandomFourierFeatures::new(k.clone(), d, m, &mut rng).map(|f| f.map(Array1::from_elem(d, b).view()));
            let x = Array2::from_elem((3, 1), b);
            let _ = NystromEmbedding::sample(&k, x.view(), Array1::from_elem(3, a).view(), q, &mut rng);
        }
        let _ = gauss_hermite(mbar * 20);
    }
}
