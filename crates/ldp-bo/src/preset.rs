//! The two named parameter presets of the three algorithms: [`Preset::Theory`], every constant
//! exactly as the theorems state it, and [`Preset::Practical`], the scaled constants chosen on
//! held-out instances (`docs/ldp-bo.md`, "Presets").
//!
//! There is no `Default` for the algorithms' parameters: a caller says which preset it builds
//! from ([`TgpParams::of`](crate::TgpParams::of), [`AtaParams::of`](crate::AtaParams::of),
//! [`MomaParams::of`](crate::MomaParams::of), [`AlgorithmParams::of`](crate::experiments::AlgorithmParams::of)),
//! and every result names it.

use serde::{Deserialize, Serialize};

use crate::error::{InputError, LdpBoError};

/// Which constants the algorithms use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Preset {
    /// The theorems' algorithms: the widths of Theorem 3 (LDP-TGP-UCB), Theorem 2
    /// (LDP-ATA-GP-UCB) and Theorem 4 / Corollary 1 (LDP-MoMA-GP-UCB) with scale 1, `q` of
    /// Theorems 2 and 4, MoMA's `k = ceil(24 ln(4eT/delta))`; the non-private TGP-UCB's width
    /// with scale 1 (derived in `docs/ldp-bo.md`, "Non-private heavy-tailed versions");
    /// `gamma_{t-1}` the realised information gain of the played points (the quantity the proof
    /// of Theorem 3 bounds); `lambda = 1`, `delta = 0.1`, Nyström accuracy `e = 0.5` (the
    /// theorems hold for any values; these are stated choices).
    Theory,
    /// The same algorithms with their widths' concentration terms scaled down and MoMA's epoch
    /// length divided by 24; the scales were chosen on held-out synthetic instances
    /// (`docs/ldp-bo.md`, "Presets"). The theorems' confidence statements do not hold for it.
    Practical,
}

impl Preset {
    /// Both presets, the theorems' first.
    pub const ALL: [Preset; 2] = [Self::Theory, Self::Practical];

    /// `theory` or `practical`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Theory => "theory",
            Self::Practical => "practical",
        }
    }

    /// The preset named `name` (`theory` or `practical`).
    ///
    /// # Errors
    /// [`InputError::UnknownName`] for any other name.
    pub fn named(name: &str) -> Result<Self, LdpBoError> {
        Self::ALL
            .into_iter()
            .find(|p| p.name() == name)
            .ok_or_else(|| {
                LdpBoError::Input(InputError::UnknownName {
                    what: "preset",
                    name: name.to_string(),
                    known: "theory, practical",
                })
            })
    }
}

impl std::fmt::Display for Preset {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_unknown_names_are_errors() {
        for p in Preset::ALL {
            assert_eq!(Preset::named(p.name()).unwrap(), p);
            assert_eq!(p.to_string(), p.name());
        }
        let e = Preset::named("tuned").unwrap_err().to_string();
        assert!(e.contains("tuned") && e.contains("theory"), "{e}");
    }
}
