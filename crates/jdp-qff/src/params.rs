//! The parameters of the three algorithms and their construction: [`jdp`] (Algorithms 1 + 2),
//! [`local`] (Algorithm 3) and [`non_private`] (Algorithm 1 with exact statistics).

use std::sync::Arc;

use kernel::FeatureMap;
use privacy::Sampler;
use privacy::accountant::zcdp::ZcdpConversion;
use privacy::mechanisms::SensitivityBound;
use serde::{Deserialize, Serialize};
use validation::{Valid, Validate, positive};

use crate::calibration::{
    JdpCalibration, LocalCalibration, check_target, paper_lemma2_sigma, paper_lemma5_variances,
};
use crate::error::JdpQffError;
use crate::local::{ClientSelection, LocalClient};
use crate::local_protocol::LocalJdpGpUcb;
use crate::privatizer::{ExactStatistics, JdpPrivatizer};
use crate::server::ApproximateGpUcb;
use crate::spectrum::{Spectrum, SpectrumRule};
use crate::statistics::{ExactSums, PrivatizedStatistics};
use crate::width::{ConfidenceWidth, WidthParams};

/// Everything the private algorithms need besides the features and the horizon.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct JdpQffParams {
    /// `alpha > 0` of `(alpha, beta)`-(local) JDP.
    pub alpha: f64,
    /// `beta` in `(0, 1)`.
    pub beta: f64,
    /// The reward clipping bound `B_y` (Bernoulli rewards: 1).
    pub reward_bound: f64,
    /// The constants of Theorem 1.
    pub width: WidthParams,
    /// The spectral constants: the paper's Lemmas 3/6 or the derived bounds.
    pub spectrum: SpectrumRule,
    /// zCDP to `(alpha, beta)`.
    pub conversion: ZcdpConversion,
    /// The noise sampler: [`Sampler::Hardened`] (exact discrete Gaussian on a grid, the
    /// default, what the privacy claim is about) or [`Sampler::Textbook`] (floating-point
    /// Gaussian with the same sigma: the same noise distribution up to the grid, much faster;
    /// for regret experiments, by explicit choice only).
    #[serde(default)]
    pub sampler: Sampler,
    /// How the noise is set: derived from `(alpha, beta)` (the default) or the paper's lemma as
    /// printed ([`crate::profile::Profile::PaperAsPrinted`]).
    #[serde(default)]
    pub noise: NoiseRule,
    /// The bound on the packed sensitivity of Algorithm 2's items (Frobenius by default).
    #[serde(default)]
    pub sensitivity_bound: SensitivityBound,
}

/// How the private algorithms set their noise.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NoiseRule {
    /// Derived from `(alpha, beta)` ([`JdpCalibration::new`], [`LocalCalibration::new`]).
    #[default]
    Derived,
    /// The paper's lemmas evaluated as printed: Lemma 2's node sigma
    /// ([`crate::calibration::paper_lemma2_sigma`] with Theorem 1's `B` and `rho`) for
    /// Algorithm 2, Lemma 5's ([`crate::calibration::paper_lemma5_variances`] with `B`) for
    /// Algorithm 3. The calibration then reports the `alpha` this noise carries
    /// ([`JdpCalibration::of_sigma`], [`LocalCalibration::of_sigmas`]).
    PaperAsPrinted,
}

impl Validate for JdpQffParams {
    type Error = JdpQffError;

    /// Check every field.
    fn check(&self) -> Result<(), JdpQffError> {
        check_target(self.alpha, self.beta)?;
        positive("reward bound B_y", self.reward_bound)?;
        self.width.check()
    }
}

impl JdpQffParams {
    /// Section 6.1 (the synthetic functions of Dubey's kind): `alpha = 1`, `beta = 0.1`,
    /// Bernoulli rewards (`B_y = 1`), Theorem 1's width ([`WidthParams::default`]), the
    /// paper's spectral constants, the classic zCDP conversion, the hardened sampler.
    ///
    /// Privacy: the paper's setting as printed, calibrated by [`JdpCalibration`] /
    /// [`LocalCalibration`] (whose derivations are in the crate docs); its spectral constants
    /// are the paper's Lemmas 3/6 ([`SpectrumRule::Paper`]), which concern the width, not the
    /// privacy.
    pub fn section_6_1() -> Self {
        Self {
            alpha: 1.0,
            beta: 0.1,
            reward_bound: 1.0,
            width: WidthParams::default(),
            spectrum: SpectrumRule::Paper,
            conversion: ZcdpConversion::Classic,
            sampler: Sampler::Hardened,
            noise: NoiseRule::Derived,
            sensitivity_bound: SensitivityBound::Frobenius,
        }
    }

    /// Section 6.2 (Table 1's benchmark functions, mapped to `[-1, 1]`): Section 6.1's privacy
    /// target (`alpha = 1`, `beta = 0.1`) with Gaussian reward noise of sd `rho = 0.1` clipped
    /// to `|y| <= B_y = 1.5`, Theorem 1's width with `B = 1`, `rho = 0.1`, `lambda = 1`. The
    /// width's `epsilon` (the sup error of the features) is the caller's: it depends on the
    /// feature map (`crate::experiments::problem_params` measures it).
    pub fn section_6_2() -> Self {
        Self {
            reward_bound: 1.5,
            width: WidthParams {
                b: 1.0,
                rho: 0.1,
                lambda: 1.0,
                ..WidthParams::default()
            },
            ..Self::section_6_1()
        }
    }

    /// Check every field.
    ///
    /// Returns the checked value ([`Valid`]), what the constructors work from.
    pub fn validate(&self) -> Result<Valid<Self>, JdpQffError> {
        Valid::new(*self)
    }
}

/// The SERVER and PRIVATIZER of `(alpha, beta)`-JDP GP-UCB (Algorithms 1 and 2) for `T` rounds.
pub fn jdp<F: FeatureMap>(
    features: Arc<F>,
    horizon: u64,
    params: &JdpQffParams,
) -> Result<(ApproximateGpUcb<F, PrivatizedStatistics>, JdpPrivatizer<F>), JdpQffError> {
    let params = params.validate()?;
    let calibration = match params.noise {
        NoiseRule::Derived => JdpCalibration::new(
            params.alpha,
            params.beta,
            horizon,
            params.reward_bound,
            params.conversion,
        )?
        .with_bound(params.sensitivity_bound)?,
        NoiseRule::PaperAsPrinted => JdpCalibration::of_sigma(
            paper_lemma2_sigma(
                params.alpha,
                params.beta,
                horizon,
                params.width.b,
                params.width.rho,
            )?,
            params.beta,
            horizon,
            params.reward_bound,
            params.conversion,
            params.sensitivity_bound,
        )?,
    };
    let spectrum = Spectrum::jdp(
        &calibration,
        features.dim(),
        params.width.zeta,
        params.spectrum,
    )?;
    let width = ConfidenceWidth::new(params.width, spectrum)?;
    let privatizer = JdpPrivatizer::new(Arc::clone(&features), calibration, spectrum)?
        .with_sampler(params.sampler);
    Ok((ApproximateGpUcb::new(features, width)?, privatizer))
}

/// `(alpha, beta)`-local JDP GP-UCB (Algorithm 3) for `T` rounds: the SERVER with the clients'
/// selection ([`LocalJdpGpUcb`], the runner's agent) and the clients' perturbation
/// ([`LocalClient`], the runner's curator).
pub fn local<F: FeatureMap>(
    features: Arc<F>,
    horizon: u64,
    params: &JdpQffParams,
) -> Result<(LocalJdpGpUcb<F>, LocalClient<F>), JdpQffError> {
    let params = params.validate()?;
    let calibration = match params.noise {
        NoiseRule::Derived => LocalCalibration::new(
            params.alpha,
            params.beta,
            params.reward_bound,
            params.conversion,
        )?,
        NoiseRule::PaperAsPrinted => {
            let (vx, vu) =
                paper_lemma5_variances(params.alpha, params.beta, params.width.b, features.dim())?;
            LocalCalibration::of_sigmas(
                vx.sqrt(),
                vu.sqrt(),
                params.beta,
                params.reward_bound,
                params.conversion,
            )?
        }
    };
    let spectrum = Spectrum::local(
        &calibration,
        features.dim(),
        horizon,
        params.width.zeta,
        params.spectrum,
    )?;
    let width = ConfidenceWidth::new(params.width, spectrum)?;
    let client = LocalClient::new(
        Arc::clone(&features),
        calibration.with_sampler(params.sampler),
    )?;
    let protocol = LocalJdpGpUcb::new(ClientSelection::new(features, width))?;
    Ok((protocol, client))
}

/// The non-private comparison: Algorithm 1 with the exact statistics (no noise, no shift) and
/// Theorem 1's width without noise terms.
pub fn non_private<F: FeatureMap>(
    features: Arc<F>,
    width: WidthParams,
) -> Result<(ApproximateGpUcb<F, ExactSums>, ExactStatistics<F>), JdpQffError> {
    let width = ConfidenceWidth::new(width, Spectrum::none())?;
    let exact = ExactStatistics::new(Arc::clone(&features));
    Ok((ApproximateGpUcb::new(features, width)?, exact))
}
