//! Intervals of the real line, to check a parameter and to say in the error what was expected.

use std::fmt;

/// An interval of the real line with open or closed ends: `(lo, hi)`, `[lo, hi]`, `(lo, hi]`
/// or `[lo, hi)`. An unbounded side is an infinite bound (`Interval::above(1.0)` is
/// `(1, inf)`). The same value checks a parameter ([`Interval::contains`]) and prints the
/// admissible range in [`InputError::OutOfRange`](crate::InputError::OutOfRange), so the check
/// and its message cannot disagree.
///
/// The constructors do not validate their bounds (they are `const`, for named intervals): an
/// interval with a NaN bound or with `lo > hi` contains nothing, it never panics.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    lo: f64,
    hi: f64,
    lo_closed: bool,
    hi_closed: bool,
}

impl Interval {
    /// The open unit interval `(0, 1)` (failure probabilities, confidence levels).
    pub const OPEN_UNIT: Self = Self::open(0.0, 1.0);
    /// The closed unit interval `[0, 1]` (probabilities).
    pub const UNIT: Self = Self::closed(0.0, 1.0);

    /// `(lo, hi)`.
    pub const fn open(lo: f64, hi: f64) -> Self {
        Self {
            lo,
            hi,
            lo_closed: false,
            hi_closed: false,
        }
    }

    /// `[lo, hi]`.
    pub const fn closed(lo: f64, hi: f64) -> Self {
        Self {
            lo,
            hi,
            lo_closed: true,
            hi_closed: true,
        }
    }

    /// `(lo, hi]`.
    pub const fn open_closed(lo: f64, hi: f64) -> Self {
        Self {
            lo,
            hi,
            lo_closed: false,
            hi_closed: true,
        }
    }

    /// `[lo, hi)`.
    pub const fn closed_open(lo: f64, hi: f64) -> Self {
        Self {
            lo,
            hi,
            lo_closed: true,
            hi_closed: false,
        }
    }

    /// `(lo, inf)`: every finite number strictly above `lo`.
    pub const fn above(lo: f64) -> Self {
        Self::open(lo, f64::INFINITY)
    }

    /// The lower bound.
    pub const fn lo(self) -> f64 {
        self.lo
    }

    /// The upper bound.
    pub const fn hi(self) -> f64 {
        self.hi
    }

    /// Whether `x` lies in the interval. NaN lies in no interval, and an infinite `x` lies in
    /// none either (an infinite bound is always open).
    pub fn contains(self, x: f64) -> bool {
        let above_lo = if self.lo_closed {
            x >= self.lo
        } else {
            x > self.lo
        };
        let below_hi = if self.hi_closed {
            x <= self.hi
        } else {
            x < self.hi
        };
        x.is_finite() && above_lo && below_hi
    }
}

impl fmt::Display for Interval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let open = if self.lo_closed && self.lo.is_finite() {
            '['
        } else {
            '('
        };
        let close = if self.hi_closed && self.hi.is_finite() {
            ']'
        } else {
            ')'
        };
        write!(f, "{open}{}, {}{close}", self.lo, self.hi)
    }
}

#[cfg(test)]
mod tests {
    use super::Interval;

    #[test]
    fn ends_are_open_or_closed_as_named() {
        let (lo, hi) = (0.0, 1.0);
        for (iv, has_lo, has_hi, text) in [
            (Interval::open(lo, hi), false, false, "(0, 1)"),
            (Interval::closed(lo, hi), true, true, "[0, 1]"),
            (Interval::open_closed(lo, hi), false, true, "(0, 1]"),
            (Interval::closed_open(lo, hi), true, false, "[0, 1)"),
        ] {
            assert_eq!(iv.contains(lo), has_lo, "{iv}");
            assert_eq!(iv.contains(hi), has_hi, "{iv}");
            assert!(iv.contains(0.5), "{iv}");
            assert!(!iv.contains(-0.5) && !iv.contains(1.5), "{iv}");
            assert!(!iv.contains(f64::NAN), "{iv}");
            assert_eq!(iv.to_string(), text);
            assert_eq!((iv.lo(), iv.hi()), (lo, hi));
        }
        // -0.0 == 0.0: it is the closed lower end of [0, 1] and outside (0, 1).
        assert!(Interval::UNIT.contains(-0.0));
        assert!(!Interval::OPEN_UNIT.contains(-0.0));
    }

    #[test]
    fn unbounded_side_is_open_and_excludes_infinity() {
        let iv = Interval::above(1.0);
        assert_eq!(iv.to_string(), "(1, inf)");
        assert!(!iv.contains(1.0));
        assert!(iv.contains(1.0 + f64::EPSILON));
        assert!(iv.contains(f64::MAX));
        assert!(!iv.contains(f64::INFINITY));
        let all = Interval::closed(f64::NEG_INFINITY, f64::INFINITY);
        assert_eq!(all.to_string(), "(-inf, inf)");
        assert!(!all.contains(f64::NEG_INFINITY));
        assert!(all.contains(f64::MIN));
    }

    #[test]
    fn degenerate_intervals_contain_nothing() {
        assert!(!Interval::closed(2.0, 1.0).contains(1.5));
        assert!(!Interval::closed(f64::NAN, 1.0).contains(0.5));
        assert!(Interval::closed(1.0, 1.0).contains(1.0));
        assert!(!Interval::open(1.0, 1.0).contains(1.0));
    }
}
