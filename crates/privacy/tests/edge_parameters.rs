//! Issue 15, defect 6: parameters whose noise scale or size cannot be represented are typed
//! errors up front, and no item is silently replaced.

use privacy::PrivacyError;
use privacy::mechanisms::gaussian::GaussianMechanism;
use privacy::mechanisms::matrix::checked_packed_len;
use privacy::mechanisms::tree::{StreamShape, TreeAggregation};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;

#[test]
fn gaussian_constructors_refuse_an_unrepresentable_sigma() {
    // sigma = 1e308 * sigma(1) overflows to infinity.
    assert!(GaussianMechanism::analytic(1.0, 1e-5, 1e308).is_err());
    // sigma = 1 / sqrt(2e308) = 0.
    assert!(GaussianMechanism::zcdp(1e308, 1.0).is_err());
    let ok = GaussianMechanism::zcdp(0.5, 1.0).unwrap();
    assert!(ok.rho().is_finite() && ok.sigma() > 0.0);
}

#[test]
fn a_huge_tree_item_is_an_error_not_zero() {
    let mut t = TreeAggregation::new(StreamShape::Vector(2), 4, 1.0, 1.0).unwrap();
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    let r = t.push(ndarray::arr1(&[1.7e308, 0.0]).view(), &mut rng);
    assert!(matches!(r, Err(PrivacyError::Input(_))), "{r:?}");
}

#[test]
fn matrix_sizes_that_overflow_are_rejected() {
    assert_eq!(checked_packed_len(3).unwrap(), 6);
    assert!(checked_packed_len(usize::MAX / 2).is_err());
    assert!(TreeAggregation::new(StreamShape::Symmetric(usize::MAX / 2), 4, 1.0, 1.0).is_err());
}
