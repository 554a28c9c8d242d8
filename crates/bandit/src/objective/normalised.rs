//! An objective mapped affinely onto `[-1, 1]`, so that benchmarks of different ranges share
//! one reward bound `B = 1` and their regrets are in units of half the function's range.

use ndarray::ArrayView1;

use super::{Maximum, Objective};
use crate::error::BanditError;

/// `inner` mapped affinely so that `[lo, hi]` becomes `[-1, 1]`:
/// `f~(x) = 2 (f(x) - lo) / (hi - lo) - 1`. Its maximum (where `inner`'s is known) has the
/// same maximisers and the mapped value.
///
/// # Examples
///
/// ```
/// use bandit::objective::{Normalised, Objective, StyblinskiTang};
/// use ndarray::array;
///
/// let f = Normalised::new(StyblinskiTang::new(1)?, -1.0, 3.0)?;
/// let x = array![0.0];
/// let raw = StyblinskiTang::new(1)?.value_unchecked(x.view());
/// assert_eq!(f.value_unchecked(x.view()), 2.0 * (raw + 1.0) / 4.0 - 1.0);
/// # Ok::<(), bandit::BanditError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Normalised<O> {
    inner: O,
    lo: f64,
    hi: f64,
}

impl<O: Objective> Normalised<O> {
    /// `inner` with `[lo, hi]` mapped to `[-1, 1]`.
    ///
    /// # Errors
    /// [`BanditError::Input`] unless `lo` is finite and `hi - lo` is finite and positive.
    pub fn new(inner: O, lo: f64, hi: f64) -> Result<Self, BanditError> {
        validation::finite("normalisation lower end", lo)?;
        validation::positive("normalisation range hi - lo", hi - lo)?;
        Ok(Self { inner, lo, hi })
    }

    fn map(&self, v: f64) -> f64 {
        2.0 * (v - self.lo) / (self.hi - self.lo) - 1.0
    }
}

impl<O: Objective> Objective for Normalised<O> {
    fn dim(&self) -> usize {
        self.inner.dim()
    }

    fn value_unchecked(&self, x: ArrayView1<'_, f64>) -> f64 {
        self.map(self.inner.value_unchecked(x))
    }

    fn maximum(&self) -> Option<Maximum> {
        self.inner.maximum().map(|m| Maximum {
            value: self.map(m.value),
            maximisers: m.maximisers,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::objective::Camelback;

    #[test]
    fn the_range_maps_onto_minus_one_one_and_bad_ranges_are_errors() {
        let f = Normalised::new(Camelback, -2.0, 6.0).unwrap();
        assert!((f.map(-2.0) + 1.0).abs() < 1e-15);
        assert!((f.map(6.0) - 1.0).abs() < 1e-15);
        let m = f.maximum().unwrap();
        assert!((m.value - f.map(Camelback.maximum().unwrap().value)).abs() < 1e-15);
        assert!(Normalised::new(Camelback, 1.0, 1.0).is_err());
        assert!(Normalised::new(Camelback, f64::NAN, 1.0).is_err());
        assert!(Normalised::new(Camelback, 0.0, f64::INFINITY).is_err());
    }
}
