//! The synthetic problems of the reproduction (the paper has no experiments; docs/usca.md):
//! `X` a grid on `[0, 1]`, `C = [0, 1]^{d_c}` with `kappa` uniform, and `f` drawn from the RKHS
//! of a product kernel on `W = X x C` as the bandit crate's RKHS objective draws it
//! ([`bandit::objective::RkhsSynthetic`]: centres, weights `U[-1, 1]`, normalised to
//! `max |f| = 1` on a reference set).

use std::sync::Arc;

use bandit::domain::BoxDomain;
use bandit::objective::{Objective, RkhsFunction};
use ndarray::{Array1, Array2, Axis, concatenate};
use rand::{Rng, RngExt};
use serde::{Deserialize, Serialize};

use crate::error::UscaError;
use crate::joint_kernel::JointKernel;
pub use crate::joint_kernel::KernelFamily;
use crate::problem::{ContextSpace, ContextualProblem, Instance};

/// A synthetic contextual problem family.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SyntheticProblem {
    /// The kernel family.
    pub family: KernelFamily,
    /// `|X|`: a uniform grid on `[0, 1]` (including both ends).
    pub n_actions: usize,
    /// `dim C` (`C = [0, 1]^{dim C}`).
    pub context_dim: usize,
    /// Lengthscale of the action factor.
    pub action_lengthscale: f64,
    /// Lengthscale of the context factor.
    pub context_lengthscale: f64,
    /// Number of RKHS centres of `f`.
    pub n_centres: usize,
    /// Standard deviation of the Gaussian reward noise.
    pub noise_sd: f64,
}

impl Default for SyntheticProblem {
    /// The setting: 50 actions on `[0, 1]`, `C = [0, 1]`, SE factors with lengthscales
    /// 0.2 (actions) and 0.3 (contexts), 30 centres, noise sd 0.1.
    fn default() -> Self {
        Self {
            family: KernelFamily::SquaredExponential,
            n_actions: 50,
            context_dim: 1,
            action_lengthscale: 0.2,
            context_lengthscale: 0.3,
            n_centres: 30,
            noise_sd: 0.1,
        }
    }
}

impl SyntheticProblem {
    /// The product kernel `k_X k_C` on `W`.
    pub fn kernel(&self) -> Result<JointKernel, UscaError> {
        JointKernel::new(
            self.family,
            self.action_lengthscale,
            self.context_lengthscale,
            1,
            self.context_dim,
        )
    }

    /// Draw an instance. Draw order: the `n_centres` centres (each: an action index
    /// `random_range(0..n_actions)`, then a context from `kappa`), the weights `2U - 1`, then
    /// 1000 reference points of `W` (actions uniform, contexts from `kappa`) on which `f` is
    /// normalised to `max |f| = 1`.
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Result<Instance, UscaError> {
        validation::at_least_one("number of actions", self.n_actions)?;
        validation::at_least_one("context dimension", self.context_dim)?;
        validation::at_least_one("number of RKHS centres", self.n_centres)?;
        let actions = BoxDomain::unit(1)?.grid(&[self.n_actions])?;
        let contexts = ContextSpace::uniform(BoxDomain::unit(self.context_dim)?);
        let draw_w = |n: usize, rng: &mut R| {
            let mut rows = Vec::with_capacity(n);
            for _ in 0..n {
                let a = rng.random_range(0..self.n_actions);
                let c = contexts.sample(1, rng);
                rows.push(concatenate![Axis(0), actions.points().row(a), c.row(0)]);
            }
            let views: Vec<_> = rows.iter().map(|r| r.view()).collect();
            ndarray::stack(Axis(0), &views).expect("rows of one length")
        };
        let centres: Array2<f64> = draw_w(self.n_centres, rng);
        let weights: Array1<f64> = (0..self.n_centres)
            .map(|_| 2.0 * rng.random::<f64>() - 1.0)
            .collect();
        let raw = RkhsFunction::new(self.kernel()?, centres.clone(), weights.clone())?;
        let reference = draw_w(1000, rng);
        let max = reference
            .rows()
            .into_iter()
            .map(|w| raw.value_unchecked(w).abs())
            .fold(0.0, f64::max);
        let max = validation::positive("max |f| of the RKHS draw (all-zero function)", max)?;
        let f = RkhsFunction::new(self.kernel()?, centres, weights / max)?;
        let problem = ContextualProblem::new(actions, contexts, Arc::new(f), self.noise_sd)?;
        Ok(Instance {
            problem,
            kernel: Arc::new(self.kernel()?),
        })
    }
}
