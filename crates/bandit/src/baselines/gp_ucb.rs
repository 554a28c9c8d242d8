//! Exact GP-UCB (Srinivas et al. 2010) with the IGP-UCB confidence width of Chowdhury &
//! Gopalan (2017).

use kernel::{ExactGp, Kernel};
use ndarray::{Array1, ArrayView2};
use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::agent::Agent;
use crate::error::BanditError;
use crate::policy::{Pending, Reselect, finite_message, ucb_argmax, validate_decision_set};
use validation::{at_least_one, non_negative, open_unit, positive};

/// How `gamma_{t-1}` in the IGP-UCB width is obtained.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum GammaSource {
    /// The realised information gain of the points observed so far,
    /// `I_{t-1} = 1/2 ln det(I + lambda^{-1} K_{t-1})` ([`kernel::ExactGp::information_gain`]).
    /// Chowdhury & Gopalan's confidence bound comes from the self-normalised bound
    /// `R sqrt(2 ln(sqrt(det((1 + eta) I + K_{t-1})) / delta))`, which they bound by
    /// `gamma_{t-1}` (plus the `+1` from `eta = 2/T`); using `I_{t-1} <= gamma_{t-1}` directly
    /// keeps the bound valid and makes it computable. The default.
    Realised,
    /// A fixed bound `gamma` used in every round (e.g. the upper bound of
    /// `kernel::information_gain::greedy_information_gain` at the horizon).
    Fixed(f64),
}

/// Parameters of IGP-UCB (Chowdhury & Gopalan 2017, Algorithm 1 and Theorem 2).
///
/// # Formula
///
/// `x_t = argmax_{x in D_t} mu_{t-1}(x) + beta_t^{1/2} sigma_{t-1}(x)` with the GP posterior
/// of regulariser `lambda = 1 + eta` ([`kernel::gp`] convention) and
///
/// `beta_t^{1/2} = B + R sqrt(2 (gamma_{t-1} + 1 + ln(1/delta)))`,
///
/// `B >= ||f||_H`, `R` the sub-Gaussian parameter of the noise, `delta` the failure
/// probability. Chowdhury & Gopalan take `eta = 2/T`: the horizon `T` is not a field, it is
/// passed where the agent is built ([`GpUcb::new`], [`crate::baselines::GpThompson::new`]),
/// which resolve `eta` with [`IgpUcbParams::eta_for`]; set [`IgpUcbParams::eta`] to override
/// it.
///
/// `Default`: `B = 1`, `R = 1`, `delta = 0.1`, `eta = 2/T`, realised information gain.
/// `delta = 0.1` and `R = 1` (uniform noise on `[-1, 1]`) are the settings of this
/// workspace's experiments; `B` has no paper default, it bounds the RKHS norm of the
/// instance, and the experiments set it per instance (the sampled function's norm). `B = 1`
/// is the unit-norm ball, to be overridden.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct IgpUcbParams {
    /// RKHS-norm bound `B >= 0`.
    pub b: f64,
    /// Sub-Gaussian noise parameter `R >= 0`.
    pub r: f64,
    /// Failure probability `delta in (0, 1)`.
    pub delta: f64,
    /// `eta > 0`, the regulariser being `lambda = 1 + eta`; `None` (the default) is
    /// Chowdhury & Gopalan's `eta = 2/T` for the horizon the agent is built with.
    pub eta: Option<f64>,
    /// Where `gamma_{t-1}` comes from.
    pub gamma: GammaSource,
}

impl Default for IgpUcbParams {
    fn default() -> Self {
        Self {
            b: 1.0,
            r: 1.0,
            delta: 0.1,
            eta: None,
            gamma: GammaSource::Realised,
        }
    }
}

impl IgpUcbParams {
    /// The defaults with the RKHS-norm bound `B` of the instance at hand (`B` has no paper
    /// default: the experiments set it per instance, e.g. to the sampled function's norm).
    pub fn with_norm_bound(b: f64) -> Self {
        Self {
            b,
            ..Self::default()
        }
    }

    /// Check the ranges.
    pub fn validate(&self) -> Result<(), BanditError> {
        non_negative("RKHS-norm bound B", self.b)?;
        non_negative("sub-Gaussian noise parameter R", self.r)?;
        open_unit("delta", self.delta)?;
        if let Some(eta) = self.eta {
            positive("eta", eta)?;
        }
        if let GammaSource::Fixed(g) = self.gamma {
            non_negative("fixed gamma", g)?;
        }
        Ok(())
    }

    /// `eta` for horizon `T >= 1`: the override [`IgpUcbParams::eta`] if set, else `2/T`
    /// (Chowdhury & Gopalan 2017, Theorem 2).
    pub fn eta_for(&self, horizon: usize) -> Result<f64, BanditError> {
        at_least_one("horizon T", horizon)?;
        Ok(self.eta.unwrap_or(2.0 / horizon as f64))
    }

    /// The regulariser `lambda = 1 + eta` for horizon `T` ([`IgpUcbParams::eta_for`]).
    pub fn lambda_for(&self, horizon: usize) -> Result<f64, BanditError> {
        Ok(1.0 + self.eta_for(horizon)?)
    }

    /// `beta_t^{1/2}` given `gamma_{t-1}`, with `ln(1/delta)` replaced by `ln(c/delta)`
    /// (`c = 1` for UCB, `c = 2` for Thompson sampling).
    pub fn width(&self, gamma: f64, c: f64) -> f64 {
        self.b + self.r * (2.0 * (gamma + 1.0 + (c / self.delta).ln())).sqrt()
    }
}

/// Exact GP-UCB with the IGP-UCB width ([`IgpUcbParams`]) on any finite decision set.
///
/// The posterior is [`kernel::ExactGp`] (incremental Cholesky, O(t^2) per observation,
/// O(n t^2) per selection over `n` candidates). Exact ties of the UCB (every candidate in the
/// first round, under a stationary prior) are broken uniformly at random with the agent's rng
/// ([`crate::policy`], the one tie rule of the workspace). `select` may be called again
/// before `observe`: the message then belongs to the last action.
#[derive(Debug, Clone)]
pub struct GpUcb<K: Kernel> {
    params: IgpUcbParams,
    gp: ExactGp<K>,
    last: Pending<Array1<f64>>,
    last_width: f64,
}

impl<K: Kernel> GpUcb<K> {
    /// A fresh agent (the GP prior) with kernel `kernel`, for horizon `T = horizon` (which
    /// sets `eta = 2/T` unless `params.eta` overrides it).
    pub fn new(kernel: K, horizon: usize, params: IgpUcbParams) -> Result<Self, BanditError> {
        params.validate()?;
        let gp = ExactGp::new(kernel, params.lambda_for(horizon)?)?;
        Ok(Self {
            params,
            gp,
            last: Pending::new(Reselect::Replace),
            last_width: f64::NAN,
        })
    }

    /// The current posterior.
    pub fn posterior(&self) -> &ExactGp<K> {
        &self.gp
    }

    /// `gamma_{t-1}` as used by the next selection.
    pub fn gamma(&self) -> f64 {
        match self.params.gamma {
            GammaSource::Realised => self.gp.information_gain(),
            GammaSource::Fixed(g) => g,
        }
    }

    /// The `beta_t^{1/2}` used by the last selection (NaN before the first).
    pub fn last_width(&self) -> f64 {
        self.last_width
    }
}

impl<K: Kernel> Agent for GpUcb<K> {
    type Message = f64;
    type Error = BanditError;

    fn select<R: Rng + ?Sized>(
        &mut self,
        decision_set: ArrayView2<'_, f64>,
        rng: &mut R,
    ) -> Result<usize, BanditError> {
        validate_decision_set(decision_set)?;
        let (mean, var) = self.gp.predict(decision_set)?;
        let width = self.params.width(self.gamma(), 1.0);
        let a = ucb_argmax(mean.view(), var.view(), width, rng)?;
        self.last.store(decision_set.row(a).to_owned())?;
        self.last_width = width;
        Ok(a)
    }

    fn observe(&mut self, reward: f64) -> Result<(), BanditError> {
        let x = self.last.take()?;
        self.gp.observe(x.view(), finite_message(reward)?)?;
        Ok(())
    }
}
