//! A number that survives a JSON file exactly: finite values as JSON numbers (serde_json writes
//! the shortest decimal that reads back to the same bits; the workspace enables its
//! `float_roundtrip` parsing), infinities as the strings `"inf"` and `"-inf"` (JSON has no
//! number for them, and a threshold of the auditor can be `-inf`). NaN is refused on reading.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// An `f64` written to JSON without loss (see the module).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ExactF64(pub f64);

impl Serialize for ExactF64 {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            v if v.is_finite() => s.serialize_f64(v),
            v if v == f64::INFINITY => s.serialize_str("inf"),
            v if v == f64::NEG_INFINITY => s.serialize_str("-inf"),
            _ => s.serialize_str("nan"),
        }
    }
}

impl<'de> Deserialize<'de> for ExactF64 {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Repr {
            Number(f64),
            Text(String),
        }
        match Repr::deserialize(d)? {
            Repr::Number(v) => Ok(Self(v)),
            Repr::Text(t) if t == "inf" => Ok(Self(f64::INFINITY)),
            Repr::Text(t) if t == "-inf" => Ok(Self(f64::NEG_INFINITY)),
            Repr::Text(t) => Err(serde::de::Error::custom(format!(
                "{t:?} is not a number, \"inf\" or \"-inf\""
            ))),
        }
    }
}

/// `#[serde(with = "exact::number")]` for an `f64` field.
pub mod number {
    use super::*;

    /// Write `v` exactly.
    pub fn serialize<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
        ExactF64(*v).serialize(s)
    }

    /// Read a number written by [`serialize`].
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        Ok(ExactF64::deserialize(d)?.0)
    }
}

/// `#[serde(with = "exact::optional")]` for an `Option<f64>` field (`null` for `None`).
pub mod optional {
    use super::*;

    /// Write `v` exactly.
    pub fn serialize<S: Serializer>(v: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
        v.map(ExactF64).serialize(s)
    }

    /// Read a value written by [`serialize`].
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
        Ok(Option::<ExactF64>::deserialize(d)?.map(|v| v.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_bit_for_bit() {
        for v in [
            0.1,
            -0.0,
            1.0 / 3.0,
            f64::MIN_POSITIVE,
            5e-324,
            -1.7976931348623157e308,
            1.0 + f64::EPSILON,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ] {
            let s = serde_json::to_string(&ExactF64(v)).unwrap();
            let back: ExactF64 = serde_json::from_str(&s).unwrap();
            assert_eq!(back.0.to_bits(), v.to_bits(), "{v} as {s}");
        }
        assert!(serde_json::from_str::<ExactF64>("\"nan\"").is_err());
    }
}
