//! Named profiles: the paper's setting as printed, the provably private one (the default), a
//! tightened one and a tuned one, each a complete choice of noise, sensitivity bound, zCDP
//! conversion, spectral constants and width, labelled with what it guarantees
//! (`docs/jdp-qff.md`, "Profiles").

use std::fmt;
use std::str::FromStr;

use privacy::accountant::zcdp::ZcdpConversion;
use privacy::mechanisms::SensitivityBound;
use serde::{Deserialize, Serialize};
use validation::{InputError, positive};

use crate::error::JdpQffError;
use crate::params::{JdpQffParams, NoiseRule};
use crate::spectrum::SpectrumRule;

/// The width multiplier of `tuned` when none is named (`tuned:0.1` is the same): a round
/// number, not fitted to any run reported here.
pub const DEFAULT_TUNED_WIDTH_SCALE: f64 = 0.1;

/// A named profile of the private algorithms (Algorithms 2 and 3).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "profile")]
pub enum Profile {
    /// The paper as printed: Lemma 2's node sigma (Lemma 5's for Algorithm 3) evaluated as
    /// printed, Lemma 3's (Lemma 6's) spectral constants, Theorem 1's width. **No guarantee
    /// from the paper's argument**: those lemmas' formulas are inconsistent (errata 1 and 2 of
    /// the crate docs). The privacy the printed sigma does carry by this crate's derivation is
    /// reported beside it ([`crate::JdpCalibration::of_sigma`]).
    PaperAsPrinted,
    /// `(alpha, beta)`-JDP, proved: the zCDP calibration with the Frobenius sensitivity bound
    /// and the classic conversion, hardened sampler; Theorem 1's width with the paper's spectral
    /// constants (Lemma 6 repaired). The default, and what every reproduced number so far uses.
    #[default]
    ProvablyPrivate,
    /// `(alpha, beta)`-JDP, proved, with less noise: the exact packed sensitivity
    /// ([`SensitivityBound::PackedExact`]), the Canonne-Kamath-Steinke conversion, and the
    /// derived spectral bounds ([`SpectrumRule::Derived`]) in Theorem 1's width.
    Tightened,
    /// The tightened privacy with Theorem 1's width multiplied by `width_scale`: **outside
    /// Theorem 1** (no regret guarantee; the privacy is unchanged, the width is
    /// post-processing).
    Tuned {
        /// The multiplier on `beta_t^{1/2}`, positive and finite.
        width_scale: f64,
    },
}

impl Profile {
    /// Every profile, with `tuned` at [`DEFAULT_TUNED_WIDTH_SCALE`].
    pub fn all() -> [Self; 4] {
        [
            Self::PaperAsPrinted,
            Self::ProvablyPrivate,
            Self::Tightened,
            Self::Tuned {
                width_scale: DEFAULT_TUNED_WIDTH_SCALE,
            },
        ]
    }

    /// The profile's name: `paper-as-printed`, `provably-private`, `tightened` or `tuned`.
    pub fn name(&self) -> &'static str {
        match self {
            Self::PaperAsPrinted => "paper-as-printed",
            Self::ProvablyPrivate => "provably-private",
            Self::Tightened => "tightened",
            Self::Tuned { .. } => "tuned",
        }
    }

    /// What the profile guarantees, in one sentence for every output that uses it.
    pub fn guarantee(&self) -> String {
        match self {
            Self::PaperAsPrinted => "NO privacy guarantee from the paper's argument: Lemma 2's \
                (Lemma 5's) noise as printed, whose formulas are inconsistent (errata 1-2); the \
                alpha this noise carries by our derivation is reported beside it"
                .into(),
            Self::ProvablyPrivate => "(alpha, beta)-JDP, proved (zCDP, Frobenius sensitivity \
                bound, classic conversion, hardened sampler); Theorem 1's width"
                .into(),
            Self::Tightened => "(alpha, beta)-JDP, proved, with less noise (exact packed \
                sensitivity, CKS conversion, hardened sampler); Theorem 1's width with the \
                derived spectral bounds"
                .into(),
            Self::Tuned { width_scale } => format!(
                "(alpha, beta)-JDP as tightened; the width is Theorem 1's times {width_scale}: \
                 OUTSIDE Theorem 1 (no regret guarantee)"
            ),
        }
    }

    /// `base` (its `alpha`, `beta`, `B_y`, width constants and sampler) under this profile: the
    /// noise rule, sensitivity bound, conversion, spectral rule and width scale replaced.
    ///
    /// # Errors
    /// A `tuned` width scale that is not positive and finite.
    pub fn apply(&self, base: JdpQffParams) -> Result<JdpQffParams, JdpQffError> {
        let (noise, bound, conversion, spectrum, scale) = match *self {
            Self::PaperAsPrinted => (
                NoiseRule::PaperAsPrinted,
                SensitivityBound::Frobenius,
                ZcdpConversion::Classic,
                SpectrumRule::Paper,
                1.0,
            ),
            Self::ProvablyPrivate => (
                NoiseRule::Derived,
                SensitivityBound::Frobenius,
                ZcdpConversion::Classic,
                SpectrumRule::Paper,
                1.0,
            ),
            Self::Tightened => (
                NoiseRule::Derived,
                SensitivityBound::PackedExact,
                ZcdpConversion::Cks,
                SpectrumRule::Derived,
                1.0,
            ),
            Self::Tuned { width_scale } => (
                NoiseRule::Derived,
                SensitivityBound::PackedExact,
                ZcdpConversion::Cks,
                SpectrumRule::Derived,
                positive("tuned width scale", width_scale)?,
            ),
        };
        let mut p = base;
        p.noise = noise;
        p.sensitivity_bound = bound;
        p.conversion = conversion;
        p.spectrum = spectrum;
        p.width.scale = scale;
        Ok(p)
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Tuned { width_scale } => write!(f, "tuned:{width_scale}"),
            other => f.write_str(other.name()),
        }
    }
}

impl FromStr for Profile {
    type Err = JdpQffError;

    /// `paper-as-printed`, `provably-private`, `tightened`, `tuned` or `tuned:SCALE`.
    fn from_str(s: &str) -> Result<Self, JdpQffError> {
        let unknown = || {
            JdpQffError::Input(InputError::UnknownName {
                what: "profile",
                name: s.to_string(),
                known: "paper-as-printed, provably-private, tightened, tuned, tuned:SCALE",
            })
        };
        Ok(match s {
            "paper-as-printed" => Self::PaperAsPrinted,
            "provably-private" => Self::ProvablyPrivate,
            "tightened" => Self::Tightened,
            "tuned" => Self::Tuned {
                width_scale: DEFAULT_TUNED_WIDTH_SCALE,
            },
            _ => {
                let scale = s.strip_prefix("tuned:").ok_or_else(unknown)?;
                let width_scale: f64 = scale.parse().map_err(|_| unknown())?;
                Self::Tuned {
                    width_scale: positive("tuned width scale", width_scale)?,
                }
            }
        })
    }
}
