//! LDP-TGP-UCB (Zhou & Tan 2021, Algorithm 2) and the non-private TGP-UCB (Chowdhury &
//! Gopalan 2019), one state machine with two schedules.

use std::marker::PhantomData;

use bandit::agent::Agent;
use bandit::baselines::GammaSource;
use bandit::policy::{FixedArms, Pending, Reselect, finite_message, ucb_argmax};
use kernel::{FiniteDomainGp, Kernel};
use ndarray::ArrayView2;
use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::curator::{CtlCurator, PrivateReward, RewardMessage};
use crate::error::LdpBoError;
use crate::preset::Preset;
use crate::schedule::{HeavyTailTgpSchedule, TgpSchedule};
use crate::truncation::truncate_reward;
use crate::ucb::scaled_width;
use validation::{Valid, Validate, non_negative, open_unit, positive};

/// Parameters of (LDP-)TGP-UCB.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct TgpParams {
    /// Regulariser `lambda` of the GP posterior (lines 9-10).
    pub lambda: f64,
    /// Confidence `delta` of the width `beta_t` (line 5).
    pub delta: f64,
    /// Multiplies the concentration terms of the width `beta_t` of line 5, i.e. everything but
    /// its leading `B` (1 = the theorem's width; see `docs/ldp-bo.md`, "Presets").
    pub beta_scale: f64,
    /// Where `gamma_{t-1}` of line 5 comes from.
    pub gamma: GammaSource,
    /// A control, never a setting of the paper: `true` sets the whole UCB width to 0, so the
    /// learner plays the argmax of its posterior mean (greedy). The regret-scaling checks run it
    /// to show that they fail a learner without its confidence width. Default `false`.
    #[serde(default)]
    pub greedy: bool,
}

/// The scale of the TGP-UCB width in [`Preset::Practical`] (see `docs/ldp-bo.md`, "Presets").
pub const PRACTICAL_BETA_SCALE: f64 = 0.01;

impl Validate for TgpParams {
    type Error = LdpBoError;

    /// Check every field.
    fn check(&self) -> Result<(), LdpBoError> {
        positive("lambda", self.lambda)?;
        open_unit("delta", self.delta)?;
        positive("beta_scale", self.beta_scale)?;
        if let GammaSource::Fixed(g) = self.gamma {
            non_negative("fixed gamma", g)?;
        }
        Ok(())
    }
}

impl TgpParams {
    /// The parameters of `preset`: `lambda = 1`, `delta = 0.1`, realised information gain, and
    /// `beta_scale` 1 ([`Preset::Theory`]) or [`PRACTICAL_BETA_SCALE`] ([`Preset::Practical`]).
    pub fn of(preset: Preset) -> Self {
        Self {
            lambda: 1.0,
            delta: 0.1,
            beta_scale: match preset {
                Preset::Theory => 1.0,
                Preset::Practical => PRACTICAL_BETA_SCALE,
            },
            gamma: GammaSource::Realised,
            greedy: false,
        }
    }

    /// Check every field.
    ///
    /// Returns the checked value ([`Valid`]), what the constructors work from.
    pub fn validate(&self) -> Result<Valid<Self>, LdpBoError> {
        Valid::new(*self)
    }
}

/// Which schedule: Algorithm 2's (private rewards) or the heavy-tailed one (raw rewards).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TgpVariant {
    /// LDP-TGP-UCB: `b_t = B + R + L ln t`, `beta_t` of line 5.
    Private(TgpSchedule),
    /// TGP-UCB for `E|y|^(1+alpha) <= v`.
    HeavyTailed(HeavyTailTgpSchedule),
}

impl TgpVariant {
    fn truncation(&self, t: u64) -> f64 {
        match self {
            Self::Private(s) => s.truncation(t),
            Self::HeavyTailed(s) => s.truncation(t),
        }
    }

    fn beta(&self, t: u64, gamma_prev: f64) -> f64 {
        match self {
            Self::Private(s) => s.beta(t, gamma_prev),
            Self::HeavyTailed(s) => s.beta(t, gamma_prev),
        }
    }

    /// The function-norm term of the width, `B`, which the scale leaves alone.
    fn bias(&self) -> f64 {
        match self {
            Self::Private(s) => s.b,
            Self::HeavyTailed(s) => s.b,
        }
    }
}

/// (LDP-)TGP-UCB on a fixed finite arm set.
///
/// Round `t` (1-based): [`Agent::select`] computes `beta_t` (line 5) and plays
/// `x_t = argmax mu_hat_{t-1}(x) + beta_t sigma_{t-1}(x)` (line 6); [`Agent::observe`] receives
/// `y_bar_t` (line 7), truncates it to `y_hat_t = y_bar_t 1{|y_bar_t| <= b_t}` (line 8) and
/// updates the exact posterior (lines 9-10) incrementally, in O(t n) while `t < n` and O(n^2)
/// after, for `n` arms
/// ([`kernel::FiniteDomainGp`]).
#[derive(Debug, Clone)]
pub struct TgpUcb<K: Kernel, M> {
    arms: FixedArms,
    gp: FiniteDomainGp<K>,
    variant: TgpVariant,
    params: Valid<TgpParams>,
    last: Pending<usize>,
    last_beta: f64,
    _message: PhantomData<fn(M)>,
}

impl<K: Kernel> TgpUcb<K, PrivateReward> {
    /// LDP-TGP-UCB (Algorithm 2) for the rewards released by `curator` (its `B`, `R` and
    /// Laplace scale `L` set the schedule).
    pub fn private(
        kernel: K,
        arms: ArrayView2<'_, f64>,
        curator: &CtlCurator,
        params: TgpParams,
    ) -> Result<Self, LdpBoError> {
        let params = params.validate()?;
        // The learner calibrates with the Laplace scale the curator really uses.
        let s = TgpSchedule::from_laplace_scale(
            curator.b(),
            curator.r(),
            curator.laplace_scale(),
            params.lambda,
            params.delta,
        )?;
        Self::build(kernel, arms, TgpVariant::Private(s), params)
    }
}

impl<K: Kernel> TgpUcb<K, f64> {
    /// The non-private TGP-UCB for raw rewards with `E|y|^(1+alpha) <= v` and `||f||_H <= B`.
    pub fn heavy_tailed(
        kernel: K,
        arms: ArrayView2<'_, f64>,
        b: f64,
        alpha: f64,
        v: f64,
        params: TgpParams,
    ) -> Result<Self, LdpBoError> {
        let params = params.validate()?;
        let s = HeavyTailTgpSchedule::new(b, v, alpha, params.lambda, params.delta)?;
        Self::build(kernel, arms, TgpVariant::HeavyTailed(s), params)
    }
}

impl<K: Kernel, M> TgpUcb<K, M> {
    fn build(
        kernel: K,
        arms: ArrayView2<'_, f64>,
        variant: TgpVariant,
        params: Valid<TgpParams>,
    ) -> Result<Self, LdpBoError> {
        let arms = FixedArms::new(arms)?;
        let gp = FiniteDomainGp::new(kernel, arms.arms(), params.lambda, false)?;
        Ok(Self {
            arms,
            gp,
            variant,
            params,
            last: Pending::new(Reselect::Replace),
            last_beta: f64::NAN,
            _message: PhantomData,
        })
    }

    /// The schedule in use.
    pub fn variant(&self) -> &TgpVariant {
        &self.variant
    }

    /// The posterior on the arms.
    pub fn posterior(&self) -> &FiniteDomainGp<K> {
        &self.gp
    }

    /// The width `beta_t` used by the last selection.
    pub fn last_beta(&self) -> f64 {
        self.last_beta
    }

    /// `beta_t` (line 5) for the round about to be played, with its concentration terms
    /// multiplied by the scale: `B + scale (beta_t - B)`.
    fn width(&self) -> f64 {
        let t = self.gp.len() as u64 + 1;
        let gamma = match self.params.gamma {
            GammaSource::Realised => self.gp.information_gain(),
            GammaSource::Fixed(g) => g,
        };
        if self.params.greedy {
            return 0.0;
        }
        scaled_width(
            self.variant.bias(),
            self.variant.beta(t, gamma),
            self.params.beta_scale,
        )
    }
}

impl<K: Kernel, M: RewardMessage> Agent for TgpUcb<K, M> {
    type Message = M;
    type Error = LdpBoError;

    fn select<R: Rng + ?Sized>(
        &mut self,
        decision_set: ArrayView2<'_, f64>,
        rng: &mut R,
    ) -> Result<usize, LdpBoError> {
        self.arms.check(decision_set)?;
        let beta = self.width();
        let var = self.gp.variance();
        let a = ucb_argmax(self.gp.mean(), var.view(), beta, rng)?;
        self.last.store(a)?;
        self.last_beta = beta;
        Ok(a)
    }

    fn observe(&mut self, message: M) -> Result<(), LdpBoError> {
        let a = self.last.take()?;
        let y_bar = finite_message(message.reward())?;
        let t = self.gp.len() as u64 + 1;
        let y_hat = truncate_reward(y_bar, self.variant.truncation(t));
        self.gp.observe(a, y_hat)?;
        Ok(())
    }
}
