//! The checks: each returns the validated value, or the [`InputError`] that says what is wrong.

use crate::error::InputError;
use crate::interval::Interval;

/// `Ok(value)` unless `value` is NaN ([`InputError::NotANumber`]): infinities pass, for inputs
/// that are clipped next.
#[inline]
pub fn not_nan(what: &'static str, value: f64) -> Result<f64, InputError> {
    if value.is_nan() {
        Err(InputError::NotANumber { what })
    } else {
        Ok(value)
    }
}

/// `Ok(value)` if `value` is finite, else [`InputError::NonFinite`] (without an index).
#[inline]
pub fn finite(what: &'static str, value: f64) -> Result<f64, InputError> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(InputError::NonFinite {
            what,
            index: None,
            value,
        })
    }
}

/// `Ok(())` if every entry of `values` is finite, else [`InputError::NonFinite`] with the flat
/// index of the first entry that is not. Takes anything that iterates over `&f64`: a slice, a
/// `Vec`, an `ndarray` array or view (in its logical order).
pub fn ensure_finite<'a>(
    what: &'static str,
    values: impl IntoIterator<Item = &'a f64>,
) -> Result<(), InputError> {
    for (index, &value) in values.into_iter().enumerate() {
        if !value.is_finite() {
            return Err(InputError::NonFinite {
                what,
                index: Some(index),
                value,
            });
        }
    }
    Ok(())
}

/// [`ensure_finite`] for a slice, faster on the common path: a first pass without branches (a
/// value is finite when its exponent bits are not all ones; the compiler vectorises the pass),
/// and the index of the first non-finite entry looked up only when there is one. The same
/// result as [`ensure_finite`] on the same values.
#[inline]
pub fn ensure_finite_slice(what: &'static str, values: &[f64]) -> Result<(), InputError> {
    const EXPONENT: u64 = 0x7ff0_0000_0000_0000;
    let all_finite = values
        .iter()
        .fold(true, |ok, v| ok & (v.to_bits() & EXPONENT != EXPONENT));
    if all_finite {
        Ok(())
    } else {
        ensure_finite(what, values)
    }
}

/// `Ok(value)` if `value` is finite and `> 0`, else [`InputError::NotPositive`]. `-0.0` and
/// `0.0` are rejected.
#[inline]
pub fn positive(what: &'static str, value: f64) -> Result<f64, InputError> {
    if value.is_finite() && value > 0.0 {
        Ok(value)
    } else {
        Err(InputError::NotPositive { what, value })
    }
}

/// `Ok(value)` if `value` is finite and `>= 0`, else [`InputError::Negative`]. `-0.0` is
/// accepted (it equals `0.0`) and returned unchanged.
#[inline]
pub fn non_negative(what: &'static str, value: f64) -> Result<f64, InputError> {
    if value.is_finite() && value >= 0.0 {
        Ok(value)
    } else {
        Err(InputError::Negative { what, value })
    }
}

/// `Ok(value)` if `value` lies in `range`, else [`InputError::OutOfRange`] naming the range.
/// NaN and the infinities lie in no interval.
#[inline]
pub fn in_range(what: &'static str, value: f64, range: Interval) -> Result<f64, InputError> {
    if range.contains(value) {
        Ok(value)
    } else {
        Err(InputError::OutOfRange { what, value, range })
    }
}

/// `Ok(value)` if `value` lies in the open unit interval `(0, 1)`, else
/// [`InputError::OutOfRange`].
#[inline]
pub fn open_unit(what: &'static str, value: f64) -> Result<f64, InputError> {
    in_range(what, value, Interval::OPEN_UNIT)
}

/// An unsigned integer type that counts things, for [`at_least_one`].
pub trait Count: Copy + sealed::Sealed {
    /// Whether the count is zero.
    fn is_zero(self) -> bool;
}

mod sealed {
    pub trait Sealed {}
}

macro_rules! count {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl Count for $t {
            fn is_zero(self) -> bool {
                self == 0
            }
        }
    )*};
}
count!(u8, u16, u32, u64, u128, usize);

/// `Ok(n)` if the count `n` is at least 1, else [`InputError::ZeroCount`]. Works for every
/// unsigned integer type.
pub fn at_least_one<N: Count>(what: &'static str, n: N) -> Result<N, InputError> {
    if n.is_zero() {
        Err(InputError::ZeroCount { what })
    } else {
        Ok(n)
    }
}

/// `Ok(len)` if `len` (the length of a set, a batch, a stream: pass `xs.len()` or
/// `array.nrows()`) is at least 1, else [`InputError::Empty`].
pub fn non_empty(what: &'static str, len: usize) -> Result<usize, InputError> {
    if len == 0 {
        Err(InputError::Empty { what })
    } else {
        Ok(len)
    }
}

/// `Ok(got)` if `got == expected`, else [`InputError::DimensionMismatch`] in `context`.
pub fn matching_dimension(
    context: &'static str,
    expected: usize,
    got: usize,
) -> Result<usize, InputError> {
    if got == expected {
        Ok(got)
    } else {
        Err(InputError::DimensionMismatch {
            context,
            expected,
            got,
        })
    }
}

/// `Ok(index)` if `index < len`, else [`InputError::IndexOutOfRange`].
pub fn index_in(what: &'static str, index: usize, len: usize) -> Result<usize, InputError> {
    if index < len {
        Ok(index)
    } else {
        Err(InputError::IndexOutOfRange { what, index, len })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BAD: [f64; 3] = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY];

    fn same(a: f64, b: f64) -> bool {
        a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
    }

    #[test]
    fn finite_accepts_finite_values_unchanged() {
        for v in [0.0, -0.0, 1.5, -3.0, f64::MIN_POSITIVE, f64::MAX, f64::MIN] {
            assert_eq!(finite("x", v).map(f64::to_bits), Ok(v.to_bits()));
        }
        for v in BAD {
            let err = finite("reward", v).unwrap_err();
            assert!(
                matches!(err, InputError::NonFinite { what: "reward", index: None, value } if same(value, v))
            );
        }
        assert_eq!(
            finite("reward", f64::NAN).unwrap_err().to_string(),
            "reward must be finite, got NaN"
        );
    }

    #[test]
    fn ensure_finite_reports_the_first_bad_index() {
        assert_eq!(ensure_finite("x", &[0.0, -0.0, 1e300]), Ok(()));
        assert_eq!(ensure_finite("x", &[] as &[f64]), Ok(()));
        assert_eq!(ensure_finite("x", &vec![1.0; 4]), Ok(()));
        for v in BAD {
            let err = ensure_finite("x", &[1.0, 2.0, v, f64::NAN]).unwrap_err();
            assert!(
                matches!(err, InputError::NonFinite { what: "x", index: Some(2), value } if same(value, v))
            );
        }
        let err = ensure_finite("kernel input x", [0.0, f64::INFINITY].iter()).unwrap_err();
        assert_eq!(err.to_string(), "kernel input x[1] must be finite, got inf");
    }

    #[test]
    fn the_slice_check_is_ensure_finite() {
        // Every position of a bad value (the first and last, each lane of a vectorised pass),
        // the extremes of the finite range and subnormals: the same result as the generic check.
        let edge = [f64::MAX, f64::MIN, f64::MIN_POSITIVE, 5e-324, -0.0, 1.0];
        for len in [0, 1, 2, 3, 7, 16, 33] {
            let ok: Vec<f64> = (0..len).map(|i| edge[i % edge.len()]).collect();
            assert_eq!(ensure_finite_slice("x", &ok), Ok(()));
            for bad_at in 0..len {
                for v in BAD {
                    let mut values = ok.clone();
                    values[bad_at] = v;
                    if bad_at + 1 < len {
                        values[len - 1] = f64::NAN;
                    }
                    assert_eq!(
                        format!("{:?}", ensure_finite_slice("x", &values)),
                        format!("{:?}", ensure_finite("x", &values)),
                    );
                    assert!(matches!(
                        ensure_finite_slice("x", &values),
                        Err(InputError::NonFinite { index: Some(i), .. }) if i == bad_at
                    ));
                }
            }
        }
    }

    #[test]
    fn positive_rejects_zero_negative_zero_and_non_finite() {
        for v in [f64::MIN_POSITIVE, 1e-300, 1.0, f64::MAX] {
            assert_eq!(positive("s", v), Ok(v));
        }
        for v in [0.0, -0.0, -1.0, -f64::MIN_POSITIVE, f64::MIN]
            .into_iter()
            .chain(BAD)
        {
            let err = positive("lengthscale", v).unwrap_err();
            assert!(
                matches!(err, InputError::NotPositive { what: "lengthscale", value } if same(value, v))
            );
        }
        assert_eq!(
            positive("lengthscale", -1.0).unwrap_err().to_string(),
            "lengthscale must be finite and > 0, got -1"
        );
    }

    #[test]
    fn non_negative_accepts_both_zeros() {
        for v in [0.0, -0.0, f64::MIN_POSITIVE, 2.5, f64::MAX] {
            assert_eq!(non_negative("b", v).map(f64::to_bits), Ok(v.to_bits()));
        }
        for v in [-1e-300, -1.0, f64::MIN].into_iter().chain(BAD) {
            let err = non_negative("sensitivity", v).unwrap_err();
            assert!(
                matches!(err, InputError::Negative { what: "sensitivity", value } if same(value, v))
            );
        }
        assert_eq!(
            non_negative("sensitivity", f64::NEG_INFINITY)
                .unwrap_err()
                .to_string(),
            "sensitivity must be finite and >= 0, got -inf"
        );
    }

    #[test]
    fn open_unit_excludes_both_ends() {
        for v in [f64::MIN_POSITIVE, 0.5, 1.0 - f64::EPSILON / 2.0] {
            assert_eq!(open_unit("delta", v), Ok(v));
        }
        for v in [0.0, -0.0, 1.0, -0.5, 1.5].into_iter().chain(BAD) {
            let err = open_unit("delta", v).unwrap_err();
            assert!(matches!(
                err,
                InputError::OutOfRange { what: "delta", value, range } if same(value, v) && range == Interval::OPEN_UNIT
            ));
        }
        assert_eq!(
            open_unit("delta", 1.0).unwrap_err().to_string(),
            "delta must lie in (0, 1), got 1"
        );
    }

    #[test]
    fn in_range_checks_each_kind_of_end() {
        let q = Interval::open_closed(0.0, 1.0);
        assert_eq!(in_range("q", 1.0, q), Ok(1.0));
        assert!(in_range("q", 0.0, q).is_err());
        assert!(in_range("q", -0.0, q).is_err());
        let delta = Interval::closed_open(0.0, 1.0);
        assert_eq!(in_range("delta", 0.0, delta), Ok(0.0));
        assert_eq!(
            in_range("delta", -0.0, delta).map(f64::to_bits),
            Ok((-0.0f64).to_bits())
        );
        assert!(in_range("delta", 1.0, delta).is_err());
        let order = Interval::above(1.0);
        assert!(in_range("order", 1.0, order).is_err());
        assert_eq!(in_range("order", 1.5, order), Ok(1.5));
        for v in BAD {
            for iv in [
                q,
                delta,
                order,
                Interval::closed(f64::NEG_INFINITY, f64::INFINITY),
            ] {
                assert!(matches!(
                    in_range("v", v, iv),
                    Err(InputError::OutOfRange { .. })
                ));
            }
        }
        assert_eq!(
            in_range("Renyi order", 0.5, order).unwrap_err().to_string(),
            "Renyi order must lie in (1, inf), got 0.5"
        );
    }

    #[test]
    fn at_least_one_rejects_zero_for_every_unsigned_type() {
        assert_eq!(at_least_one("T", 1u64), Ok(1));
        assert_eq!(at_least_one("T", u64::MAX), Ok(u64::MAX));
        assert_eq!(at_least_one("m", 3usize), Ok(3));
        assert_eq!(at_least_one("k", 7u32), Ok(7));
        assert_eq!(at_least_one("k", 1u8), Ok(1));
        assert_eq!(at_least_one("k", 1u16), Ok(1));
        assert_eq!(at_least_one("k", 1u128), Ok(1));
        assert_eq!(
            at_least_one("horizon T", 0u64),
            Err(InputError::ZeroCount { what: "horizon T" })
        );
        assert_eq!(
            at_least_one("m", 0usize),
            Err(InputError::ZeroCount { what: "m" })
        );
        assert_eq!(
            at_least_one("horizon T", 0u64).unwrap_err().to_string(),
            "horizon T must be >= 1, got 0"
        );
    }

    #[test]
    fn non_empty_matching_dimension_and_index_in() {
        assert_eq!(non_empty("domain", 1), Ok(1));
        assert_eq!(
            non_empty("domain", 0),
            Err(InputError::Empty { what: "domain" })
        );
        assert_eq!(
            non_empty("domain", 0).unwrap_err().to_string(),
            "domain must not be empty"
        );

        assert_eq!(matching_dimension("value", 3, 3), Ok(3));
        let err = matching_dimension("value", 3, 2).unwrap_err();
        assert_eq!(
            err,
            InputError::DimensionMismatch {
                context: "value",
                expected: 3,
                got: 2
            }
        );
        assert_eq!(
            err.to_string(),
            "dimension mismatch in value: expected 3, got 2"
        );

        assert_eq!(index_in("arm", 0, 1), Ok(0));
        assert_eq!(index_in("arm", 4, 5), Ok(4));
        assert_eq!(
            index_in("arm", 5, 5),
            Err(InputError::IndexOutOfRange {
                what: "arm",
                index: 5,
                len: 5
            })
        );
        assert!(index_in("arm", 0, 0).is_err());
        assert_eq!(
            index_in("arm", 7, 5).unwrap_err().to_string(),
            "arm 7 is out of range for 5 elements"
        );
    }

    #[test]
    fn unsatisfied_states_its_requirement() {
        let err = InputError::Unsatisfied {
            what: "B + R",
            value: 2.0,
            requirement: "must equal the mechanism's clipping bound",
        };
        assert_eq!(
            err.to_string(),
            "B + R = 2 is invalid: must equal the mechanism's clipping bound"
        );
    }
}
