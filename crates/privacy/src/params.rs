//! Validated privacy parameters: each constructor checks its value with the shared checks of the
//! `validation` crate and returns [`PrivacyError::Input`] on bad input, so a value of one of
//! these types is always admissible.

use serde::{Deserialize, Serialize};
use validation::{Interval, in_range, non_negative, positive};

use crate::error::PrivacyError;

macro_rules! validated {
    ($(#[$doc:meta])* $name:ident, |$v:ident| $check:expr) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Serialize, Deserialize)]
        #[serde(try_from = "f64", into = "f64")]
        pub struct $name(f64);

        impl $name {
            /// Validate `value`.
            pub fn new($v: f64) -> Result<Self, PrivacyError> {
                Ok(Self($check?))
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
    Epsilon, |v| positive("epsilon", v)
);
validated!(
    /// The failure probability delta of (epsilon, delta)-DP: in [0, 1).
    Delta, |v| in_range("delta", v, Interval::closed_open(0.0, 1.0))
);
validated!(
    /// The parameter rho of rho-zero-concentrated DP (Bun & Steinke 2016): finite and > 0.
    Rho, |v| positive("rho (zCDP)", v)
);
validated!(
    /// The parameter mu of mu-Gaussian DP (Dong, Roth & Su 2019): finite and > 0.
    Mu, |v| positive("mu (Gaussian DP)", v)
);
validated!(
    /// A sensitivity (L1 or L2, stated where it is used): finite and >= 0.
    Sensitivity, |v| non_negative("sensitivity", v)
);
validated!(
    /// A noise scale (Laplace `b`, Gaussian `sigma`): finite and > 0.
    NoiseScale, |v| positive("noise scale", v)
);
validated!(
    /// A Poisson sampling rate q: in (0, 1].
    SamplingRate, |v| in_range("sampling rate q", v, Interval::open_closed(0.0, 1.0))
);
validated!(
    /// A noise multiplier z = sigma / sensitivity: finite and > 0.
    NoiseMultiplier, |v| positive("noise multiplier z", v)
);

impl Delta {
    /// A delta in the open interval (0, 1): the conversions to (epsilon, delta)-DP (from zCDP,
    /// RDP or a privacy-loss distribution) and the Gaussian and Laplace-tail calibrations
    /// divide by delta or take its logarithm, so `delta = 0` is rejected there.
    pub fn positive(value: f64) -> Result<Self, PrivacyError> {
        Ok(Self(in_range("delta", value, Interval::OPEN_UNIT)?))
    }
}

impl Sensitivity {
    /// A sensitivity that is finite and > 0: a mechanism calibrated to sensitivity 0 would
    /// add no noise (or divide by zero), so mechanisms reject it.
    pub fn positive(value: f64) -> Result<Self, PrivacyError> {
        Ok(Self(positive("sensitivity", value)?))
    }
}
