//! The parameters of USCA.

use serde::{Deserialize, Serialize};

use crate::approximating_set::ApproximatingSetSize;
use crate::error::UscaError;
use crate::sensitivity::SensitivityRule;

/// The parameters of Algorithm 1 (`T` is the caller's horizon, `eps` the prediction's budget).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct UscaParams {
    /// The regulariser `tau > 0` of eqs. (2)-(5) (the fictitious noise variance).
    pub tau: f64,
    /// The reward bound `B > 0` of Assumption 2.7; rewards are clipped to `[-B, B]`.
    pub reward_bound: f64,
    /// `|Z|` ([`ApproximatingSetSize`]).
    pub approximating_set: ApproximatingSetSize,
    /// How `sup sigma^2` is bounded ([`SensitivityRule`]; default: the proven `sup_diag / tau`,
    /// `1 / tau` for the unit-variance kernels of the paper).
    pub sensitivity: SensitivityRule,
    /// Points drawn from the design to estimate the spectrum behind `gamma_T`
    /// ([`crate::gamma::DesignSpectrum`]).
    pub design_sample: usize,
}

impl Default for UscaParams {
    /// `tau = 1`, `B = 1.5` (a function with `max |f| = 1` and noise of sd 0.1 stays inside
    /// w.p. `1 - 6e-7` per reward), the paper's `|Z| = T K` up to 4096 points, the proven
    /// sensitivity, 512 design points.
    fn default() -> Self {
        Self {
            tau: 1.0,
            reward_bound: 1.5,
            approximating_set: ApproximatingSetSize::default(),
            sensitivity: SensitivityRule::Proven,
            design_sample: 512,
        }
    }
}

impl UscaParams {
    /// Check `tau > 0`, `B > 0`, `design_sample >= 1`.
    pub fn validate(&self) -> Result<(), UscaError> {
        validation::positive("tau", self.tau)?;
        validation::positive("reward bound B", self.reward_bound)?;
        validation::at_least_one("design sample size", self.design_sample)?;
        Ok(())
    }
}
