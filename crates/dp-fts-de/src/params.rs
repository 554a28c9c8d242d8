//! The settings of one federation, with the paper's presets (Sec. 5, App. B) and the
//! baselines of Figs. 2, 4 and 5 as named variants.

use privacy::Sampler;
use privacy::mechanisms::WeightCalibration;
use serde::{Deserialize, Serialize};
use validation::{Valid, Validate};

use crate::agent::Init;
use crate::beta::BetaRule;
use crate::error::DpFtsDeError;
use crate::local_step::{LocalSettings, LocalStep};
use crate::schedule::{Annealing, Exploration};
use crate::weights::{SubRegionWeights, Weighting};

/// The central server's privacy settings (Algorithm 1): sampling rate `q`, noise multiplier
/// `z`, clipping threshold `S`, and `delta` of the reported loss.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct DpSettings {
    /// `q` in `(0, 1]`.
    pub q: f64,
    /// `z > 0`.
    pub z: f64,
    /// `S > 0` (each vector is clipped to `S / sqrt(P)`).
    pub clip: f64,
    /// `delta`; `None` is the paper's `1 / N^1.1` (Sec. 5, following McMahan et al. 2018).
    pub delta: Option<f64>,
    /// The noise sampler ([`Sampler::Hardened`] by default: exact Bernoulli subsampling and
    /// the discrete Gaussian; `P M` entries per round is cheap).
    pub sampler: Sampler,
    /// How the noise follows the weights: the paper's `phi_max S / q`
    /// ([`WeightCalibration::PhiMax`], the default) or the realised weights'
    /// `max_n ||phi_n|| S / (sqrt(P) q)` ([`WeightCalibration::RowNorm`], erratum 13: the same
    /// privacy claim with less noise whenever `P > 1` and the weights are not equal).
    #[serde(default)]
    pub calibration: WeightCalibration,
    /// Whether the server draws its subsampling and noise from a stream of this curve's own
    /// ([`bandit::seed::own_stream`] of the run's server stream, labelled by the curve's
    /// parameters) instead of the run's server stream, which every curve of a figure shares.
    /// `false` by default (and then not written); the control for the coupling of a figure's
    /// curves through shared noise (`--sampler textbook-per-curve`). The same law either way.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub own_noise_stream: bool,
}

impl DpSettings {
    /// `q`, `z`, `S` with the paper's `delta` and the hardened sampler.
    pub fn new(q: f64, z: f64, clip: f64) -> Self {
        Self {
            q,
            z,
            clip,
            delta: None,
            sampler: Sampler::Hardened,
            calibration: WeightCalibration::PhiMax,
            own_noise_stream: false,
        }
    }

    /// `delta` for `n` agents.
    pub fn delta_for(&self, n: usize) -> f64 {
        self.delta.unwrap_or_else(|| (n as f64).powf(-1.1))
    }
}

/// Everything one federation needs besides the problem and the seed.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct DpFtsDeParams {
    /// Iterations `T` after the initialisation (`t = 1..=T`).
    pub iterations: usize,
    /// `N_init` initial points per agent (`t = 0`).
    pub n_init: usize,
    /// `M`, the number of shared random features.
    pub features: usize,
    /// The SE lengthscale of the features.
    pub lengthscale: f64,
    /// `lambda > 0` of eq. (2) (the model's noise variance).
    pub lambda: f64,
    /// The Thompson sample's scale.
    pub beta: BetaRule,
    /// `1 - p_t`.
    pub exploration: Exploration,
    /// `P`, the number of sub-regions.
    pub sub_regions: usize,
    /// `a` of the softmax weights (15 in all the paper's experiments).
    pub a: f64,
    /// The weights.
    pub weighting: Weighting,
    /// Where the initial points come from.
    pub init: Init,
    /// Whether there is a server at all (`false`: standard TS, every agent alone).
    pub federated: bool,
    /// `None`: a non-private server (FTS, FTS-DE).
    pub privacy: Option<DpSettings>,
    /// The local Thompson step (line 6; erratum 14 and 15): the weight-space step on the shared
    /// features by default.
    #[serde(default)]
    pub local: LocalSettings,
}

impl DpFtsDeParams {
    /// DP-FTS-DE on the synthetic problem (Sec. 5.1, App. B.1.1, Figs. 2b-d, 4, 6): `T = 40`,
    /// `N_init = 10`, `M = 50`, SE lengthscale 0.03, `lambda = sigma^2 = 0.01`,
    /// `1 - p_t = 1/sqrt(t)`, `P = 2`, `a = 15`, the synthetic annealing, `q = 0.25`, `z = 1`,
    /// `S = 11`; Theorem 1's `beta` with `B = 1`, `sigma = 0.1`, `delta = 0.1`.
    pub fn synthetic() -> Self {
        Self {
            iterations: 40,
            n_init: 10,
            features: 50,
            lengthscale: 0.03,
            lambda: 0.01,
            beta: BetaRule::Theorem {
                b: 1.0,
                sigma: 0.1,
                delta: 0.1,
            },
            exploration: Exploration::InverseSqrt,
            sub_regions: 2,
            a: 15.0,
            weighting: Weighting::Adaptive(Annealing::SYNTHETIC),
            init: Init::SubRegion,
            federated: true,
            privacy: Some(DpSettings::new(0.25, 1.0, 11.0)),
            local: LocalSettings::default(),
        }
    }

    /// DP-FTS-DE on the real-world problems (Sec. 5.2, App. B.2.1): `T = 60`, `N_init = 10`,
    /// `M = 100`, SE lengthscale 0.01, `lambda = 1e-6`, `1 - p_t = 1/t`, `P = 4`, `S = 22`,
    /// the real-world annealing, `q = 0.35`, `z = 1`; Theorem 1's `beta` with `B = 1`,
    /// `sigma = 1e-3` (the model's noise), `delta = 0.1`.
    pub fn real_world() -> Self {
        Self {
            iterations: 60,
            n_init: 10,
            features: 100,
            lengthscale: 0.01,
            lambda: 1e-6,
            beta: BetaRule::Theorem {
                b: 1.0,
                sigma: 1e-3,
                delta: 0.1,
            },
            exploration: Exploration::Inverse,
            sub_regions: 4,
            a: 15.0,
            weighting: Weighting::Adaptive(Annealing::REAL_WORLD),
            init: Init::SubRegion,
            federated: true,
            privacy: Some(DpSettings::new(0.35, 1.0, 22.0)),
            local: LocalSettings::default(),
        }
    }

    /// Theorem 1's constants on top of a preset: `1 - p_t = 1/t^2` (monotone, `O(1/t^2)`) and
    /// `lambda = 1 + 2/T`, with Theorem 1's `beta` (the preset's `B`, `sigma`, `delta`).
    pub fn theorem_1(self) -> Self {
        Self {
            exploration: Exploration::InverseSquare,
            lambda: 1.0 + 2.0 / self.iterations.max(1) as f64,
            ..self
        }
    }

    /// The same with the paper's exact-GP local step (eq. (1), [`LocalStep::ExactGp`]).
    pub fn exact_gp(self) -> Self {
        Self {
            local: LocalSettings {
                step: LocalStep::ExactGp,
                ..self.local
            },
            ..self
        }
    }

    /// The same with the authors' local practices ([`LocalSettings::AUTHORS`]: 100 fresh
    /// features per sample, repeated queries replaced, hyperparameters refitted every 5
    /// observations) and `beta = 1` (erratum 15).
    pub fn authors(self) -> Self {
        Self {
            local: LocalSettings::AUTHORS,
            beta: BetaRule::Constant(1.0),
            ..self
        }
    }

    /// Standard TS: every agent alone (`p_t = 1`), initial points from the whole domain.
    pub fn ts(self) -> Self {
        Self {
            federated: false,
            exploration: Exploration::Never,
            privacy: None,
            sub_regions: 1,
            weighting: Weighting::Equal,
            init: Init::WholeDomain,
            ..self
        }
    }

    /// FTS without DP (Sec. 3.1's modified FTS): one sub-region, a non-private server.
    pub fn fts(self) -> Self {
        Self {
            privacy: None,
            sub_regions: 1,
            weighting: Weighting::Equal,
            init: Init::WholeDomain,
            ..self
        }
    }

    /// FTS-DE without DP with `p` sub-regions (the preset's weighting and initialisation).
    pub fn fts_de(self, p: usize) -> Self {
        Self {
            privacy: None,
            sub_regions: p,
            ..self
        }
    }

    /// DP-FTS (`P = 1`) with clipping threshold `clip` and the preset's `q`, `z`.
    pub fn dp_fts(self, clip: f64) -> Self {
        let dp = self.privacy.unwrap_or(DpSettings::new(0.25, 1.0, clip));
        Self {
            sub_regions: 1,
            weighting: Weighting::Equal,
            init: Init::WholeDomain,
            privacy: Some(DpSettings { clip, ..dp }),
            ..self
        }
    }

    /// The same with the noise calibrated by `calibration` (a private setting is required:
    /// without one this is the setting unchanged).
    pub fn with_calibration(self, calibration: WeightCalibration) -> Self {
        Self {
            privacy: self.privacy.map(|dp| DpSettings { calibration, ..dp }),
            ..self
        }
    }

    /// The same with privacy settings `(q, z, S)` (keeping `delta` and the sampler).
    pub fn with_privacy(self, q: f64, z: f64, clip: f64) -> Self {
        let base = self.privacy.unwrap_or(DpSettings::new(q, z, clip));
        Self {
            privacy: Some(DpSettings { q, z, clip, ..base }),
            ..self
        }
    }

    /// The public weights of a federation of `n_agents` agents: round-robin assignment to the
    /// `P` sub-regions, `a`, and the weighting.
    pub fn weights(&self, n_agents: usize) -> Result<SubRegionWeights, DpFtsDeError> {
        SubRegionWeights::new(
            SubRegionWeights::round_robin(n_agents, self.sub_regions),
            self.sub_regions,
            self.a,
            self.weighting,
        )
    }

    /// Check every setting for a federation of `n_agents` agents: the checks of
    /// [`Validate::check`] (which do not depend on `N`), then `1 <= P <= N` and the `delta`
    /// of the privacy settings for `N` agents.
    ///
    /// Returns the checked value ([`Valid`]); a `Valid<DpFtsDeParams>` made for one `N` is
    /// checked again (by this function) when a federation of another size is built.
    pub fn validate(&self, n_agents: usize) -> Result<Valid<Self>, DpFtsDeError> {
        let valid = Valid::new(*self)?;
        validation::at_least_one("agents N", n_agents)?;
        if self.sub_regions > n_agents {
            return Err(DpFtsDeError::Setting(format!(
                "the number of sub-regions P must be in 1..=N = {n_agents}, got {}",
                self.sub_regions
            )));
        }
        if let Some(dp) = self.privacy {
            validation::open_unit("delta", dp.delta_for(n_agents))?;
        }
        Ok(valid)
    }
}

impl Validate for DpFtsDeParams {
    type Error = DpFtsDeError;

    /// The checks that do not depend on the number of agents: `T, N_init, M >= 1`, positive
    /// lengthscale, `lambda` and `a`, `P >= 1`, and for private settings a server, `q` in
    /// `(0, 1]`, `z > 0` and `S > 0`.
    fn check(&self) -> Result<(), DpFtsDeError> {
        validation::at_least_one("iterations T", self.iterations)?;
        validation::at_least_one("initial points N_init", self.n_init)?;
        validation::at_least_one("number of random features M", self.features)?;
        validation::positive("lengthscale", self.lengthscale)?;
        validation::positive("lambda", self.lambda)?;
        validation::positive("softmax constant a", self.a)?;
        self.local.check()?;
        if self.sub_regions == 0 {
            return Err(DpFtsDeError::Setting(
                "the number of sub-regions P must be at least 1, got 0".into(),
            ));
        }
        if let Some(dp) = self.privacy {
            if !self.federated {
                return Err(DpFtsDeError::Setting(
                    "privacy settings given for agents without a server".into(),
                ));
            }
            validation::in_range(
                "sampling rate q",
                dp.q,
                validation::Interval::open_closed(0.0, 1.0),
            )?;
            validation::positive("noise multiplier z", dp.z)?;
            validation::positive("clipping threshold S", dp.clip)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each variant changes exactly the fields its documentation names (written out here field
    /// by field, so a variant that forgets one, e.g. an FTS baseline that keeps the preset's
    /// privacy, differs from the expected value).
    #[test]
    fn each_variant_sets_exactly_its_fields() {
        let base = DpFtsDeParams::synthetic();
        let mut want = base;
        want.exploration = Exploration::InverseSquare;
        want.lambda = 1.0 + 2.0 / 40.0;
        assert_eq!(base.theorem_1(), want);

        let mut want = base;
        want.local.step = LocalStep::ExactGp;
        assert_eq!(base.exact_gp(), want);
        let authors = base.authors();
        let mut want = base;
        want.local = LocalSettings::AUTHORS;
        want.beta = BetaRule::Constant(1.0);
        assert_eq!(authors, want);
        // The exact step keeps the other local settings.
        let mut want = authors;
        want.local.step = LocalStep::ExactGp;
        assert_eq!(authors.exact_gp(), want);

        let mut want = base;
        want.federated = false;
        want.exploration = Exploration::Never;
        want.privacy = None;
        want.sub_regions = 1;
        want.weighting = Weighting::Equal;
        want.init = Init::WholeDomain;
        assert_eq!(base.ts(), want);

        let mut want = base;
        want.privacy = None;
        want.sub_regions = 1;
        want.weighting = Weighting::Equal;
        want.init = Init::WholeDomain;
        assert_eq!(base.fts(), want);

        let mut want = base;
        want.privacy = None;
        want.sub_regions = 3;
        assert_eq!(base.fts_de(3), want);

        let mut want = base;
        want.sub_regions = 1;
        want.weighting = Weighting::Equal;
        want.init = Init::WholeDomain;
        want.privacy = Some(DpSettings::new(0.25, 1.0, 7.0));
        assert_eq!(base.dp_fts(7.0), want);
        // Without privacy settings, DP-FTS takes the paper's q = 0.25, z = 1.
        assert_eq!(base.fts().dp_fts(7.0).privacy, want.privacy);
    }

    /// `with_privacy` replaces `q`, `z`, `S` and keeps `delta`, the sampler and the
    /// calibration; `with_calibration` changes only the calibration, and nothing without a
    /// private setting.
    #[test]
    fn privacy_variants_keep_what_they_do_not_set() {
        let mut base = DpFtsDeParams::real_world();
        let dp = DpSettings {
            delta: Some(1e-3),
            sampler: Sampler::Textbook,
            calibration: WeightCalibration::RowNorm,
            ..DpSettings::new(0.35, 1.0, 22.0)
        };
        base.privacy = Some(dp);
        let p = base.with_privacy(0.5, 2.0, 3.0).privacy.unwrap();
        assert_eq!(
            p,
            DpSettings {
                q: 0.5,
                z: 2.0,
                clip: 3.0,
                ..dp
            }
        );
        assert_eq!(
            base.fts().with_privacy(0.5, 2.0, 3.0).privacy,
            Some(DpSettings::new(0.5, 2.0, 3.0))
        );
        let c = base.with_calibration(WeightCalibration::PhiMax);
        assert_eq!(
            c.privacy,
            Some(DpSettings {
                calibration: WeightCalibration::PhiMax,
                ..dp
            })
        );
        assert_eq!(
            base.fts().with_calibration(WeightCalibration::RowNorm),
            base.fts()
        );
    }

    /// `1 <= P <= N`: as many sub-regions as agents is valid, one more is not.
    #[test]
    fn sub_regions_may_equal_the_agents() {
        let p = DpFtsDeParams::synthetic().fts_de(3);
        assert!(p.validate(3).is_ok());
        assert!(p.validate(2).is_err());
    }

    /// The paper's `delta = 1 / N^1.1` (Sec. 5) unless one is given.
    #[test]
    fn delta_is_the_papers_unless_given() {
        let dp = DpSettings::new(0.25, 1.0, 11.0);
        for n in [1usize, 10, 200] {
            let want = (n as f64).powf(-1.1);
            assert!((dp.delta_for(n) - want).abs() <= 1e-15 * want);
        }
        let given = DpSettings {
            delta: Some(1e-4),
            ..dp
        };
        assert_eq!(given.delta_for(200).to_bits(), 1e-4f64.to_bits());
    }
}
