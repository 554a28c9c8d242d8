use approx::assert_abs_diff_eq;

use crate::test_util::assert_close;
use ndarray::{Array2, array};

use super::*;
use crate::error::InputError;

fn spd(n: usize) -> Array2<f64> {
    // A = B B^T + n I with a fixed B: symmetric positive definite.
    let b = Array2::from_shape_fn((n, n), |(i, j)| ((i * 7 + j * 3) % 11) as f64 / 11.0 - 0.4);
    b.dot(&b.t()) + Array2::<f64>::eye(n) * (n as f64)
}

#[test]
fn cholesky_of_hand_computed_matrix() {
    // [[4, 2], [2, 5]] = L L^T with L = [[2, 0], [1, 2]].
    let a = array![[4.0, 2.0], [2.0, 5.0]];
    let c = Cholesky::factor("a", a.view()).unwrap();
    let l = c.lower();
    assert_close!(l, array![[2.0, 0.0], [1.0, 2.0]], 1e-14);
    assert_abs_diff_eq!(c.log_det(), 16f64.ln(), epsilon = 1e-14);
    // A x = [8, 9] has x = [31/16, 5/8]... check by multiplication instead.
    let x = c.solve(array![8.0, 9.0].view()).unwrap();
    assert_close!(a.dot(&x), array![8.0, 9.0], 1e-13);
    assert_close!(
        c.solve_lower(array![2.0, 3.0].view()).unwrap(),
        array![1.0, 1.0],
        1e-14
    );
}

#[test]
fn extension_equals_factorisation() {
    let a = spd(9);
    let full = Cholesky::factor("a", a.view()).unwrap();
    let mut inc = Cholesky::empty();
    for t in 0..9 {
        inc.extend(a.row(t).split_at(ndarray::Axis(0), t).0, a[[t, t]])
            .unwrap();
    }
    assert_close!(inc.lower(), full.lower(), 1e-12);
    assert_abs_diff_eq!(inc.log_det(), full.log_det(), epsilon = 1e-11);
    let b = Array2::from_shape_fn((9, 3), |(i, j)| (i + j) as f64);
    let x = inc.solve_matrix(b.view()).unwrap();
    assert_close!(a.dot(&x), b, 1e-10);
}

#[test]
fn extension_rejects_non_pd_and_keeps_factor() {
    let mut c = Cholesky::factor("a", array![[1.0]].view()).unwrap();
    let err = c.extend(array![1.0].view(), 1.0).unwrap_err();
    assert!(
        matches!(err, KernelError::NotPositiveDefinite { .. }),
        "{err}"
    );
    assert_eq!(c.dim(), 1);
    assert!(matches!(
        c.extend(array![1.0, 2.0].view(), 3.0),
        Err(KernelError::Input(InputError::DimensionMismatch { .. }))
    ));
    assert!(matches!(
        c.extend(array![f64::NAN].view(), 3.0),
        Err(KernelError::Input(InputError::NonFinite { .. }))
    ));
}

#[test]
fn factor_errors_are_typed() {
    assert!(matches!(
        Cholesky::factor("a", Array2::zeros((2, 3)).view()),
        Err(KernelError::NotSquare { .. })
    ));
    assert!(matches!(
        Cholesky::factor("a", array![[1.0, 2.0], [0.0, 1.0]].view()),
        Err(KernelError::NotSymmetric { .. })
    ));
    assert!(matches!(
        Cholesky::factor("a", array![[1.0, 2.0], [2.0, 1.0]].view()),
        Err(KernelError::NotPositiveDefinite { .. })
    ));
    assert!(matches!(
        Cholesky::factor("a", array![[f64::INFINITY]].view()),
        Err(KernelError::Input(InputError::NonFinite { .. }))
    ));
}

/// An exactly symmetric positive-definite matrix whose entries are not small integers (so that
/// the factor's rounding depends on the order of the operations).
fn rough_spd(n: usize) -> Array2<f64> {
    let b = Array2::from_shape_fn((n, n), |(i, j)| {
        ((i * 31 + j * 17) as f64 * 0.618_034).sin()
    });
    let a = b.dot(&b.t()) + Array2::<f64>::eye(n) * 0.5;
    // Exactly symmetric (the mean of a pair does not depend on its order).
    Array2::from_shape_fn((n, n), |(i, j)| 0.5 * (a[[i, j]] + a[[j, i]]))
}

#[test]
fn the_factor_is_faers_llt_bit_for_bit() {
    // The direct in-place factor must be the computation of `faer::Mat::llt(Side::Lower)`,
    // reading the lower triangle only, on both sides of faer's blocking and parallel sizes.
    for n in [1, 2, 7, 33, 160, 320, 392] {
        let mut a = rough_spd(n);
        // Upper triangle perturbed within the tolerance: only the lower one may be read.
        for i in 0..n {
            for j in (i + 1)..n {
                a[[i, j]] *= 1.0 + 1e-13;
            }
        }
        // Row-major input, and a transposed view (the other copying path).
        for view in [a.view(), a.t()] {
            // The faer backend itself (with the `lapack` feature `Cholesky::factor` runs
            // LAPACK's `potrf`, compared with faer to a tolerance elsewhere).
            let ours = faer_backend::cholesky_lower("a", view).unwrap();
            let reference = faer_backend::to_faer(view).llt(faer::Side::Lower).unwrap();
            let l = reference.L();
            for j in 0..n {
                for i in 0..n {
                    let want = if i >= j { l[(i, j)] } else { 0.0 };
                    assert_eq!(
                        ours[(i, j)].to_bits(),
                        want.to_bits(),
                        "n = {n}, entry ({i}, {j})"
                    );
                }
            }
        }
    }
}

#[test]
fn the_symmetry_check_finds_a_gap_in_any_tile_and_names_the_first_largest() {
    // Gaps placed across the 32 x 32 tiles (first row and column, the diagonal block, the far
    // corner, a ragged last tile): each is found, and the message names the first pair in row
    // order among the largest gaps.
    let n = 70;
    let base = rough_spd(n);
    for &(i, j) in &[(1, 0), (69, 0), (40, 33), (69, 68), (64, 31)] {
        let mut a = base.clone();
        a[[i, j]] += 1e-3;
        match validate_symmetric("a", a.view()) {
            Err(KernelError::NotSymmetric { i: gi, j: gj, .. }) => assert_eq!((gi, gj), (i, j)),
            other => panic!("gap at ({i}, {j}) not found: {other:?}"),
        }
        // A gap above the diagonal is the same pair.
        let mut a = base.clone();
        a[[j, i]] -= 1e-3;
        assert!(matches!(
            validate_symmetric("a", a.view()),
            Err(KernelError::NotSymmetric { i: gi, j: gj, .. }) if (gi, gj) == (i, j)
        ));
    }
    // Two gaps of exactly the same size (and a smaller one): the first in row order is named.
    let mut a = base.clone();
    for (i, j) in [(60, 5), (50, 10), (20, 3)] {
        a[[i, j]] = 0.25;
        a[[j, i]] = 0.25;
    }
    a[[60, 5]] += 2f64.powi(-10);
    a[[50, 10]] += 2f64.powi(-10);
    a[[20, 3]] += 2f64.powi(-11);
    assert!(matches!(
        validate_symmetric("a", a.view()),
        Err(KernelError::NotSymmetric { i: 50, j: 10, .. })
    ));
    // Within the tolerance, and in a non-standard layout (a transposed view), accepted.
    let mut a = base.clone();
    a[[69, 0]] *= 1.0 + 1e-13;
    validate_symmetric("a", a.view()).unwrap();
    validate_symmetric("a", a.t()).unwrap();
    let mut a = base;
    a[[40, 33]] += 1e-3;
    assert!(validate_symmetric("a", a.t()).is_err());
}

#[test]
fn eigen_sqrt_and_pinv_sqrt() {
    // [[2, 1], [1, 2]] has eigenvalues 1 and 3.
    let a = array![[2.0, 1.0], [1.0, 2.0]];
    let e = symmetric_eigen("a", a.view()).unwrap();
    assert_close!(e.values, array![1.0, 3.0], 1e-14);
    assert_close!(
        symmetric_eigenvalues("a", a.view()).unwrap(),
        array![1.0, 3.0],
        1e-14
    );
    // Values only agree with the full decomposition on a larger matrix (the parallel path).
    let n = 300;
    let b = Array2::from_shape_fn((n, n), |(i, j)| {
        let (x, y) = (i.min(j) as f64, i.max(j) as f64);
        ((x + 1.0) * 0.37 + (y + 1.0) * 0.11).sin() + if i == j { 3.0 } else { 0.0 }
    });
    let full = symmetric_eigen("b", b.view()).unwrap().values;
    let only = symmetric_eigenvalues("b", b.view()).unwrap();
    assert_close!(only, full, 1e-9);
    assert!(symmetric_eigenvalues("asym", array![[1.0, 2.0], [0.0, 1.0]].view()).is_err());
    assert_eq!(
        symmetric_eigenvalues("empty", Array2::<f64>::zeros((0, 0)).view())
            .unwrap()
            .len(),
        0
    );
    let s = psd_sqrt("a", a.view()).unwrap();
    assert_close!(s.dot(&s), a, 1e-13);
    let p = pinv_sqrt("a", a.view(), PINV_RCOND).unwrap();
    assert_close!(p.dot(&a).dot(&p), Array2::<f64>::eye(2), 1e-13);
    // Rank one: [[1, 1], [1, 1]] = 2 u u^T with u = (1, 1)/sqrt 2; pinv sqrt = u u^T / sqrt 2.
    let r = array![[1.0, 1.0], [1.0, 1.0]];
    let p = pinv_sqrt("r", r.view(), PINV_RCOND).unwrap();
    let expect = array![[0.5, 0.5], [0.5, 0.5]] / 2f64.sqrt();
    assert_close!(p, expect, 1e-13);
    assert!(pinv_sqrt("r", r.view(), 1.5).is_err());
}

#[test]
fn psd_check() {
    ensure_psd("a", array![[1.0, 1.0], [1.0, 1.0]].view()).unwrap();
    ensure_psd("a", Array2::<f64>::zeros((0, 0)).view()).unwrap();
    let err = ensure_psd("a", array![[1.0, 2.0], [2.0, 1.0]].view()).unwrap_err();
    assert!(
        err.to_string().contains("not positive semi-definite"),
        "{err}"
    );
}

#[cfg(feature = "lapack")]
#[test]
fn faer_and_lapack_backends_agree() {
    for n in [1, 5, 40] {
        let a = spd(n);
        let lf = faer_backend::to_ndarray(
            faer_backend::cholesky_lower("a", a.view())
                .unwrap()
                .as_ref(),
        );
        let ll = faer_backend::to_ndarray(
            lapack_backend::cholesky_lower("a", a.view())
                .unwrap()
                .as_ref(),
        );
        assert_close!(lf, ll, 1e-11);
        let (vf, uf) = faer_backend::eigh("a", a.view()).unwrap();
        let (vl, ul) = lapack_backend::eigh("a", a.view()).unwrap();
        assert_close!(vf, vl, 1e-10);
        // Both decompositions reconstruct A; eigenvectors of simple eigenvalues (gap > 1e-3)
        // are unique up to sign, so compare their projectors u u^T.
        for (v, u) in [(&vf, &uf), (&vl, &ul)] {
            let rec = (u * &v.view().insert_axis(ndarray::Axis(0))).dot(&u.t());
            assert_close!(rec, a, 1e-10);
        }
        for k in 0..n {
            let gap = (0..n)
                .filter(|&j| j != k)
                .map(|j| (vf[j] - vf[k]).abs())
                .fold(f64::INFINITY, f64::min);
            if gap < 1e-3 {
                continue;
            }
            let pf = uf
                .column(k)
                .insert_axis(ndarray::Axis(1))
                .dot(&uf.column(k).insert_axis(ndarray::Axis(0)));
            let pl = ul
                .column(k)
                .insert_axis(ndarray::Axis(1))
                .dot(&ul.column(k).insert_axis(ndarray::Axis(0)));
            assert_close!(pf, pl, 1e-8);
        }
    }
    assert!(
        lapack_backend::cholesky_lower("a", ndarray::array![[1.0, 2.0], [2.0, 1.0]].view())
            .is_err()
    );
}

#[test]
fn rank_one_update_equals_refactorisation() {
    let a = spd(7);
    let v = ndarray::Array1::from_shape_fn(7, |i| (i as f64 - 3.0) * 0.7);
    let mut c = Cholesky::factor("a", a.view()).unwrap();
    c.rank_one_update(v.view()).unwrap();
    let outer = v
        .view()
        .insert_axis(ndarray::Axis(1))
        .dot(&v.view().insert_axis(ndarray::Axis(0)));
    let full = Cholesky::factor("a", (&a + &outer).view()).unwrap();
    assert_close!(c.lower(), full.lower(), 1e-12);
}
