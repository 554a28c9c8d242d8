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
    /// length divided by 72; the scales were chosen on held-out synthetic instances
    /// (`docs/ldp-bo.md`, "Presets"). The theorems' confidence statements do not hold for it.
    Practical,
}

impl Preset {
    /// Both presets, the theorems' first.
    pub const ALL: [Preset; 2] = [Self::Theory, Self::Practical];

    /// The names of [`Preset::ALL`], in order (the reproduction's variants).
    pub const NAMES: [&'static str; 2] = [Self::Theory.name(), Self::Practical.name()];

    /// `theory` or `practical`.
    pub const fn name(self) -> &'static str {
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

    /// `Theory` is wired as documented: every width at scale 1, `q` at scale 1, and the
    /// algorithm MoMA builds runs Theorem 4's `k = ceil(24 ln(4eT/delta))`, 279 at `T = 1000`,
    /// `delta = 0.1` (24 ln(108 731.4) = 278.32); `Practical` runs `k = 4` there.
    #[test]
    fn theory_is_the_theorems_constants() {
        use crate::{AtaParams, CtlCurator, MomaGpUcb, MomaParams, TgpParams};
        let one = 1f64.to_bits();
        let (t, a, m) = (
            TgpParams::of(Preset::Theory),
            AtaParams::of(Preset::Theory),
            MomaParams::of(Preset::Theory),
        );
        assert_eq!(t.beta_scale.to_bits(), one);
        assert_eq!(a.beta_scale.to_bits(), one);
        assert_eq!(a.q_scale.to_bits(), one);
        assert_eq!(m.beta_scale.to_bits(), one);
        assert_eq!(m.q_scale.to_bits(), one);
        let arms = ndarray::array![[0.0], [0.5], [1.0]];
        let curator = CtlCurator::new(1.0, 1.0, 1.0).unwrap();
        let k = |preset| {
            let kernel = kernel::SquaredExponential::isotropic(0.2).unwrap();
            let p = MomaParams::of(preset);
            MomaGpUcb::private(kernel, arms.view(), &curator, 1000, p)
                .unwrap()
                .epoch_length()
        };
        assert_eq!(k(Preset::Theory), 279);
        assert_eq!(k(Preset::Practical), 4);
    }
}
