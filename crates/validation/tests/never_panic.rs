//! The checks never panic, whatever the input, and accept exactly what they document.

use proptest::prelude::*;
use validation::{
    InputError, Interval, at_least_one, ensure_finite, finite, in_range, index_in,
    matching_dimension, non_empty, non_negative, open_unit, positive,
};

/// Any f64, with the special values (NaN, +-inf, +-0, subnormals) drawn often.
fn any_f64() -> impl Strategy<Value = f64> {
    prop_oneof![
        Just(f64::NAN),
        Just(f64::INFINITY),
        Just(f64::NEG_INFINITY),
        Just(0.0),
        Just(-0.0),
        Just(1.0),
        Just(f64::MIN_POSITIVE / 2.0),
        proptest::num::f64::ANY,
        -10.0..10.0f64,
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn scalar_checks_accept_exactly_their_set(v in any_f64()) {
        prop_assert_eq!(finite("v", v).is_ok(), v.is_finite());
        prop_assert_eq!(positive("v", v).is_ok(), v.is_finite() && v > 0.0);
        prop_assert_eq!(non_negative("v", v).is_ok(), v.is_finite() && v >= 0.0);
        prop_assert_eq!(open_unit("v", v).is_ok(), v > 0.0 && v < 1.0);
        if let Ok(x) = positive("v", v) {
            prop_assert_eq!(x.to_bits(), v.to_bits());
        }
        // Every error has a non-empty message naming the parameter.
        for err in [finite("v", v).err(), positive("v", v).err(), non_negative("v", v).err(), open_unit("v", v).err()]
            .into_iter()
            .flatten()
        {
            prop_assert!(err.to_string().starts_with('v'));
        }
    }

    #[test]
    fn in_range_never_panics(v in any_f64(), a in any_f64(), b in any_f64(), kind in 0..5u8) {
        let iv = match kind {
            0 => Interval::open(a, b),
            1 => Interval::closed(a, b),
            2 => Interval::open_closed(a, b),
            3 => Interval::closed_open(a, b),
            _ => Interval::above(a),
        };
        match in_range("v", v, iv) {
            Ok(x) => {
                prop_assert!(x.is_finite() && x >= iv.lo() && x <= iv.hi());
            }
            Err(InputError::OutOfRange { range, .. }) => prop_assert_eq!(range.to_string(), iv.to_string()),
            Err(other) => prop_assert!(false, "unexpected error {other}"),
        }
        let _ = iv.to_string();
    }

    #[test]
    fn ensure_finite_finds_the_first_bad_entry(xs in proptest::collection::vec(any_f64(), 0..20)) {
        let first_bad = xs.iter().position(|x| !x.is_finite());
        match ensure_finite("xs", &xs) {
            Ok(()) => prop_assert_eq!(first_bad, None),
            Err(InputError::NonFinite { index, .. }) => prop_assert_eq!(index, first_bad),
            Err(other) => prop_assert!(false, "unexpected error {other}"),
        }
    }

    #[test]
    fn integer_checks_never_panic(n in any::<u64>(), len in any::<usize>(), i in any::<usize>()) {
        prop_assert_eq!(at_least_one("n", n).is_ok(), n >= 1);
        prop_assert_eq!(non_empty("xs", len).is_ok(), len >= 1);
        prop_assert_eq!(index_in("i", i, len).is_ok(), i < len);
        prop_assert_eq!(matching_dimension("d", len, i).is_ok(), len == i);
    }
}
