//! LDP-ATA-GP-UCB (Zhou & Tan 2021, Algorithm 1) and the non-private ATA-GP-UCB (Chowdhury &
//! Gopalan 2019) it adapts, one state machine.

use std::marker::PhantomData;

use bandit::agent::Agent;
use bandit::policy::{FixedArms, Pending, Reselect, finite_message};
use kernel::Kernel;
use ndarray::{Array1, ArrayView2};
use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::arm_rewards::ArmRewards;
use crate::curator::{CtlCurator, PrivateReward, RewardMessage};
use crate::error::LdpBoError;
use crate::nystrom_step::NystromPosterior;
use crate::preset::Preset;
use crate::schedule::AtaSchedule;
use crate::truncation::feature_adaptive_truncation_by_arm;
use validation::{Valid, Validate, at_least_one, open_unit, positive};

/// Parameters of (LDP-)ATA-GP-UCB.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct AtaParams {
    /// Regulariser `lambda` (line 8).
    pub lambda: f64,
    /// Confidence `delta` (Theorem 2).
    pub delta: f64,
    /// Nyström accuracy `e` in (0, 1) (the paper's varepsilon): `rho = (1+e)/(1-e)`.
    pub accuracy: f64,
    /// Multiplies `q = 6 rho ln(4T/delta)/e^2` of Theorem 2.
    pub q_scale: f64,
    /// Multiplies the concentration term `4 sqrt(ln(4 m T/delta) v m/lambda)` of the width of
    /// Theorem 2 (its bias term `B(1 + 1/sqrt(1-e))` is kept).
    pub beta_scale: f64,
    /// A control, never a setting of the paper: `true` sets the whole UCB width to 0, so the
    /// learner plays the argmax of its posterior mean (greedy). The regret-scaling checks run it
    /// to show that they fail a learner without its confidence width. Default `false`.
    #[serde(default)]
    pub greedy: bool,
}

/// The scale of the ATA width in [`Preset::Practical`] (see `docs/ldp-bo.md`, "Presets").
pub const PRACTICAL_BETA_SCALE: f64 = 0.003;

impl Validate for AtaParams {
    type Error = LdpBoError;

    /// Check every field.
    fn check(&self) -> Result<(), LdpBoError> {
        positive("lambda", self.lambda)?;
        open_unit("delta", self.delta)?;
        open_unit("Nystrom accuracy", self.accuracy)?;
        positive("q_scale", self.q_scale)?;
        positive("beta_scale", self.beta_scale)?;
        Ok(())
    }
}

impl AtaParams {
    /// The parameters of `preset`: `lambda = 1`, `delta = 0.1`, Nyström accuracy `e = 0.5`,
    /// `q` of Theorem 2 (scale 1), and `beta_scale` 1 ([`Preset::Theory`]) or
    /// [`PRACTICAL_BETA_SCALE`] ([`Preset::Practical`]). The horizon `T` is not a parameter: it
    /// is passed where the algorithm is built.
    pub fn of(preset: Preset) -> Self {
        Self {
            lambda: 1.0,
            delta: 0.1,
            accuracy: 0.5,
            q_scale: 1.0,
            beta_scale: match preset {
                Preset::Theory => 1.0,
                Preset::Practical => PRACTICAL_BETA_SCALE,
            },
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

/// (LDP-)ATA-GP-UCB on a fixed finite arm set.
///
/// Round `t`: [`Agent::select`] first folds in the reward of round `t - 1` (lines 6-13: the
/// Nyström embedding needs randomness, which `select` receives), then plays
/// `x_t = argmax mu_{t-1}(x) + beta_t sigma_{t-1}(x)` (line 4). [`Agent::observe`] stores the
/// message `y_bar_t` (line 5). The update at round `t`:
///
/// - line 6-7: Nyström embedding of `x_1..x_t` with `sigma_{t-1}` (Algorithm 4, `kernel::features::NystromEmbedding`);
/// - line 8: `V_t = Phi_t^T Phi_t + lambda I`;
/// - line 9-10: rows `u_i` of `V_t^{-1/2} Phi_t^T`, truncated sums
///   `r_i = sum_tau u_{i,tau} y_tau 1{|u_{i,tau} y_tau| <= b_tau}` with
///   `b_tau = sqrt(v / ln(4 m_t T/delta))` ([`crate::truncation::feature_adaptive_truncation`]);
/// - line 11: `theta_t = V_t^{-1/2} r`; lines 12-13: mean and variance;
/// - Theorem 2: `beta_{t+1} = B(1 + 1/sqrt(1-e)) + 4 sqrt(ln(4 m_t T/delta) v m_t/lambda)`.
///
/// Cost per round: O(n m^2 + m^3 + n m log t + c_a) for `n` arms and `m <= n` dictionary
/// points, flat in `t` apart from the log: the design matrix is accumulated per arm (a point
/// played `c` times contributes `c phi phi^T`), and line 10 is computed per arm from the arm's
/// rewards sorted by magnitude with prefix sums (`crate::arm_rewards`: the same rewards kept
/// as by the sum over plays; `c_a <= t` is the memory shift when a reward joins arm `a`'s
/// sorted list).
#[derive(Debug, Clone)]
pub struct AtaGpUcb<K: Kernel, M> {
    /// Embedding, posterior and width; a reward arrived since the last update makes lines 6-13
    /// run at the next `select`.
    nystrom: NystromPosterior<K>,
    schedule: AtaSchedule,
    /// The rewards received for each arm, sorted by magnitude (line 10's sufficient
    /// statistic).
    rewards: Vec<ArmRewards>,
    last: Pending<usize>,
    _message: PhantomData<fn(M)>,
}

impl<K: Kernel> AtaGpUcb<K, PrivateReward> {
    /// LDP-ATA-GP-UCB (Algorithm 1) for the rewards released by `curator`:
    /// `v = B^2 + R^2 + 2 L^2` with the curator's Laplace scale `L` (Theorem 2 writes
    /// `8(B+R)^2/eps^2 = 2 (2(B+R)/eps)^2`).
    pub fn private(
        kernel: K,
        arms: ArrayView2<'_, f64>,
        curator: &CtlCurator,
        horizon: u64,
        params: AtaParams,
    ) -> Result<Self, LdpBoError> {
        let (b, r, l) = (curator.b(), curator.r(), curator.laplace_scale());
        let v = b * b + r * r + 2.0 * l * l;
        Self::build(kernel, arms, b, v, horizon, params)
    }
}

impl<K: Kernel> AtaGpUcb<K, f64> {
    /// The non-private ATA-GP-UCB for raw rewards with `E[y^2] <= v` (`alpha = 1`, the case
    /// Theorem 2 covers) and `||f||_H <= B`.
    pub fn heavy_tailed(
        kernel: K,
        arms: ArrayView2<'_, f64>,
        b: f64,
        v: f64,
        horizon: u64,
        params: AtaParams,
    ) -> Result<Self, LdpBoError> {
        Self::build(kernel, arms, b, v, horizon, params)
    }
}

impl<K: Kernel, M> AtaGpUcb<K, M> {
    fn build(
        kernel: K,
        arms: ArrayView2<'_, f64>,
        b: f64,
        v: f64,
        horizon: u64,
        params: AtaParams,
    ) -> Result<Self, LdpBoError> {
        at_least_one("horizon T", horizon)?;
        let params = params.validate()?;
        let arms = FixedArms::new(arms)?;
        let n = arms.len();
        let schedule =
            AtaSchedule::new(b, v, params.lambda, params.delta, horizon, params.accuracy)?;
        let q = params.q_scale * schedule.accuracy.q(horizon, params.delta);
        // Line 2: mu_0 = 0, sigma_0^2 = k(x, x); beta_1 from m_0 = 0.
        let nystrom = NystromPosterior::new(
            kernel,
            arms,
            params.lambda,
            q,
            // Greedy (a control): bias 0 and scale 0 make the width 0 in every round.
            if params.greedy {
                0.0
            } else {
                schedule.accuracy.bias_width(schedule.b)
            },
            if params.greedy {
                0.0
            } else {
                params.beta_scale
            },
            schedule.beta_next(0),
        )?;
        Ok(Self {
            nystrom,
            schedule,
            rewards: vec![ArmRewards::default(); n],
            last: Pending::new(Reselect::Replace),
            _message: PhantomData,
        })
    }

    /// The schedule of Theorem 2.
    pub fn schedule(&self) -> &AtaSchedule {
        &self.schedule
    }

    /// `q` in use (Theorem 2 times `q_scale`).
    pub fn q(&self) -> f64 {
        self.nystrom.q()
    }

    /// The current approximate posterior mean and variance of every arm.
    pub fn posterior(&self) -> (&Array1<f64>, &Array1<f64>) {
        self.nystrom.posterior()
    }

    /// The dimension `m_t` of the current embedding.
    pub fn feature_dim(&self) -> usize {
        self.nystrom.feature_dim()
    }

    /// Lines 6-13 for the rewards received so far.
    fn update<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Result<(), LdpBoError> {
        let step = self.nystrom.sample(rng)?; // lines 6-8
        let m = step.dim();
        // Line 9: the columns of U = V^{-1/2} Phi^T are g(x_tau) = V^{-1/2} phi(x_tau), one
        // per arm (row a of the whitened features). Line 10, grouped by arm (b_tau is the
        // same for every tau).
        let r = feature_adaptive_truncation_by_arm(
            step.whitened.view(),
            &self.rewards,
            self.schedule.truncation(m),
        );
        let theta = step.v_inv_sqrt.dot(&r); // line 11
        let beta = self.schedule.beta_next(m);
        self.nystrom.refit(&step, theta.view(), beta); // lines 12-13
        Ok(())
    }
}

impl<K: Kernel, M: RewardMessage> Agent for AtaGpUcb<K, M> {
    type Message = M;
    type Error = LdpBoError;

    fn select<R: Rng + ?Sized>(
        &mut self,
        decision_set: ArrayView2<'_, f64>,
        rng: &mut R,
    ) -> Result<usize, LdpBoError> {
        self.nystrom.check(decision_set)?;
        if self.nystrom.update_due() {
            self.update(rng)?;
        }
        let a = self.nystrom.ucb_argmax(rng)?;
        self.last.store(a)?;
        Ok(a)
    }

    fn observe(&mut self, message: M) -> Result<(), LdpBoError> {
        let a = self.last.take()?;
        let y = finite_message(message.reward())?;
        self.rewards[a].push(y);
        self.nystrom.record(a);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::truncation::feature_adaptive_truncation;
    use kernel::SquaredExponential;
    use ndarray::Array2;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha20Rng;

    /// The grouped update (line 10 per arm, variance from the whitened features) gives the
    /// posterior of the per-play formulas of Algorithm 1 (U built column by column, `V^{-1}`
    /// explicitly) to 1e-9, on a run long enough for repeated arms and truncated rewards.
    #[test]
    fn grouped_update_equals_the_per_play_formulas() {
        let arms = Array2::from_shape_fn((30, 1), |(i, _)| i as f64 / 29.0);
        let k = SquaredExponential::isotropic(0.2).unwrap();
        let c = CtlCurator::new(1.0, 1.0, 1.0).unwrap();
        let params = AtaParams::of(Preset::Practical);
        let mut agent = AtaGpUcb::private(&k, arms.view(), &c, 400, params).unwrap();
        let mut rng = ChaCha20Rng::seed_from_u64(8);
        for _ in 0..400 {
            let a = agent.select(arms.view(), &mut rng).unwrap();
            let y = (6.0 * arms[[a, 0]]).sin() + rng.random::<f64>() - 0.5;
            agent.observe(c.privatize(y, &mut rng).unwrap()).unwrap();
        }
        let mut twin = agent.clone();
        let mut rng_twin = rng.clone();
        agent.update(&mut rng).unwrap();
        // The same step, by the per-play formulas.
        let step = twin.nystrom.sample(&mut rng_twin).unwrap();
        let m = step.dim();
        let b = twin.schedule.truncation(m);
        let g = step.features.dot(&step.v_inv_sqrt);
        let (mut cols, mut ys) = (Vec::new(), Vec::new());
        for (a, rewards) in twin.rewards.iter().enumerate() {
            for &y in rewards.rewards() {
                cols.push(a);
                ys.push(y);
            }
        }
        let t = ys.len();
        assert_eq!(t, 400);
        let u = Array2::from_shape_fn((m, t), |(i, tau)| g[[cols[tau], i]]);
        let r = feature_adaptive_truncation(
            u.view(),
            ndarray::ArrayView1::from(&ys[..]),
            Array1::from_elem(t, b).view(),
        )
        .unwrap();
        let theta = step.v_inv_sqrt.dot(&r);
        let mean = step.features.dot(&theta);
        let v_inv = step.v_inv();
        let (agent_mean, agent_var) = agent.posterior();
        for a in 0..30 {
            let phi = step.features.row(a);
            let var = (1.0 - phi.dot(&phi) + params.lambda * phi.dot(&v_inv.dot(&phi))).max(0.0);
            assert!((agent_mean[a] - mean[a]).abs() < 1e-9, "mean of arm {a}");
            assert!((agent_var[a] - var).abs() < 1e-9, "variance of arm {a}");
        }
        assert!(m > 0);
    }
}
