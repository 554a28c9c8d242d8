//! Validated privacy parameters: each constructor returns [`PrivacyError`] on bad input, so a
//! value of one of these types is always admissible.

use serde::{Deserialize, Serialize};

use crate::error::PrivacyError;

macro_rules! validated {
    ($(#[$doc:meta])* $name:ident, $err:ident, |$v:ident| $ok:expr) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Serialize, Deserialize)]
        #[serde(try_from = "f64", into = "f64")]
        pub struct $name(f64);

        impl $name {
            /// Validate `value`.
            pub fn new($v: f64) -> Result<Self, PrivacyError> {
                if $ok { Ok(Self($v)) } else { Err(PrivacyError::$err($v)) }
            }

            /// The value.
            pub fn get(self) -> f64 {
                self.0
            }
        }

        impl TryFrom<f64> for $name {
            type Error = PrivacyError;
            fn try_from(v: f64) -> Result<Self, PrivacyError> {
                Self::new(v)
            }
        }

        impl From<$name> for f64 {
            fn from(v: $name) -> f64 {
                v.0
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                self.0.fmt(f)
            }
        }
    };
}

validated!(
    /// The privacy parameter epsilon of (epsilon, delta)-DP: finite and > 0.
    Epsilon, InvalidEpsilon, |v| v.is_finite() && v > 0.0
);
validated!(
    /// The failure probability delta of (epsilon, delta)-DP: in [0, 1).
    Delta, InvalidDelta, |v| (0.0..1.0).contains(&v)
);
validated!(
    /// The parameter rho of rho-zero-concentrated DP (Bun & Steinke 2016): finite and > 0.
    Rho, InvalidRho, |v| v.is_finite() && v > 0.0
);
validated!(
    /// The parameter mu of mu-Gaussian DP (Dong, Roth & Su 2019): finite and > 0.
    Mu, InvalidMu, |v| v.is_finite() && v > 0.0
);
validated!(
    /// A sensitivity (L1 or L2, stated where it is used): finite and >= 0.
    Sensitivity, InvalidSensitivity, |v| v.is_finite() && v >= 0.0
);
validated!(
    /// A noise scale (Laplace `b`, Gaussian `sigma`): finite and > 0.
    NoiseScale, InvalidNoiseScale, |v| v.is_finite() && v > 0.0
);
validated!(
    /// A Poisson sampling rate q: in (0, 1].
    SamplingRate, InvalidSamplingRate, |v| v > 0.0 && v <= 1.0
);
validated!(
    /// A noise multiplier z = sigma / sensitivity: finite and > 0.
    NoiseMultiplier, InvalidNoiseMultiplier, |v| v.is_finite() && v > 0.0
);

/// Return `value` if it is finite, else [`PrivacyError::NonFinite`].
pub fn finite(what: &'static str, value: f64) -> Result<f64, PrivacyError> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(PrivacyError::NonFinite { what, value })
    }
}

/// Return `n` if it is at least 1, else [`PrivacyError::ZeroCount`].
pub fn at_least_one(what: &'static str, n: u64) -> Result<u64, PrivacyError> {
    if n >= 1 {
        Ok(n)
    } else {
        Err(PrivacyError::ZeroCount { what, got: n })
    }
}
