//! Helpers shared by the unit tests.

/// Assert that two arrays of the same shape agree entrywise to `eps`
/// ([`crate::linalg::max_abs_diff`]).
macro_rules! assert_close {
    ($a:expr, $b:expr, $eps:expr) => {{
        let d = $crate::linalg::max_abs_diff(&$a, &$b);
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
