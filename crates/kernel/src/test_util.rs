//! Helpers shared by the unit tests.

use ndarray::{ArrayBase, Data, Dimension};

/// `max |a - b|` over all entries; panics on a shape mismatch.
pub fn max_abs_diff<S1, S2, D>(a: &ArrayBase<S1, D>, b: &ArrayBase<S2, D>) -> f64
where
    S1: Data<Elem = f64>,
    S2: Data<Elem = f64>,
    D: Dimension,
{
    assert_eq!(a.shape(), b.shape(), "shape mismatch");
    a.iter()
        .zip(b.iter())
        .fold(0.0f64, |m, (x, y)| m.max((x - y).abs()))
}

/// Assert that two arrays of the same shape agree entrywise to `eps`.
macro_rules! assert_close {
    ($a:expr, $b:expr, $eps:expr) => {{
        let d = $crate::test_util::max_abs_diff(&$a, &$b);
        assert!(
            d <= $eps,
            "max |a - b| = {d:e} > {:e}\na = {:?}\nb = {:?}",
            $eps,
            $a,
            $b
        );
    }};
}
pub(crate) use assert_close;
