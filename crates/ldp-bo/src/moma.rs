//! (LDP-)MoMA-GP-UCB (Zhou & Tan 2021, Algorithm 3 and Corollary 1).

use std::marker::PhantomData;

use bandit::agent::Agent;
use bandit::policy::{FixedArms, Pending, Reselect, finite_message};
use kernel::Kernel;
use ndarray::{Array1, Array2, ArrayView2};
use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::curator::{CtlCurator, PrivateReward, RewardMessage};
use crate::error::LdpBoError;
use crate::median_of_means::median_of_means;
use crate::nystrom_step::NystromPosterior;
use crate::preset::Preset;
use crate::schedule::MomaSchedule;
use validation::{InputError, Valid, Validate, at_least_one, open_unit, positive};

/// How the epoch length `k` is set.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum EpochLength {
    /// `k = ceil(scale * 24 ln(4eT/delta))`: `scale = 1` is Theorem 4.
    Scaled(f64),
    /// A fixed `k >= 1`.
    Fixed(u64),
}

/// Parameters of (LDP-)MoMA-GP-UCB.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct MomaParams {
    /// Regulariser `lambda` (line 9).
    pub lambda: f64,
    /// Confidence `delta` (Theorem 4).
    pub delta: f64,
    /// Nyström accuracy `e` in (0, 1): `rho = (1+e)/(1-e)`.
    pub accuracy: f64,
    /// Multiplies `q = 6 rho ln(4T/delta)/e^2`.
    pub q_scale: f64,
    /// Multiplies the concentration term `3 lambda^(-1/2) (9 m c)^(1/(1+a)) n^(...)` of the width
    /// of Theorem 4 (its bias term `B(1 + 1/sqrt(1-e))` is kept).
    pub beta_scale: f64,
    /// The epoch length `k`.
    pub epoch_length: EpochLength,
    /// A control, never a setting of the paper: `true` sets the whole UCB width to 0, so the
    /// learner plays the argmax of its posterior mean (greedy). The regret-scaling checks run it
    /// to show that they fail a learner without its confidence width. Default `false`.
    #[serde(default)]
    pub greedy: bool,
}

/// The scale of the MoMA width in [`Preset::Practical`] (see `docs/ldp-bo.md`, "Presets").
pub const PRACTICAL_BETA_SCALE: f64 = 0.01;

/// The scale of the epoch length in [`Preset::Practical`]: `k = ceil(ln(4eT/delta) / 3)`, 1/72
/// of Theorem 4's (`k = 4` at `T = 1000`, where Theorem 4's `k = 279` leaves 3 epochs; see
/// `docs/ldp-bo.md`, "Presets").
pub const PRACTICAL_EPOCH_SCALE: f64 = 1.0 / 72.0;

impl Validate for MomaParams {
    type Error = LdpBoError;

    /// Check every field.
    fn check(&self) -> Result<(), LdpBoError> {
        positive("lambda", self.lambda)?;
        open_unit("delta", self.delta)?;
        open_unit("Nystrom accuracy", self.accuracy)?;
        positive("q_scale", self.q_scale)?;
        positive("beta_scale", self.beta_scale)?;
        match self.epoch_length {
            EpochLength::Scaled(s) => {
                positive("epoch length scale", s)?;
            }
            EpochLength::Fixed(0) => {
                return Err(LdpBoError::Input(InputError::ZeroCount {
                    what: "epoch length k",
                }));
            }
            EpochLength::Fixed(_) => {}
        }
        Ok(())
    }
}

impl MomaParams {
    /// The parameters of `preset`: `lambda = 1`, `delta = 0.1`, Nyström accuracy `e = 0.5`,
    /// `q` of Theorem 4 (scale 1); [`Preset::Theory`]: `beta_scale` 1 and Theorem 4's
    /// `k = ceil(24 ln(4eT/delta))`; [`Preset::Practical`]: [`PRACTICAL_BETA_SCALE`] and
    /// `k` scaled by [`PRACTICAL_EPOCH_SCALE`]. The horizon `T` is not a parameter: it is
    /// passed where the algorithm is built.
    pub fn of(preset: Preset) -> Self {
        let (beta_scale, epoch_scale) = match preset {
            Preset::Theory => (1.0, 1.0),
            Preset::Practical => (PRACTICAL_BETA_SCALE, PRACTICAL_EPOCH_SCALE),
        };
        Self {
            lambda: 1.0,
            delta: 0.1,
            accuracy: 0.5,
            q_scale: 1.0,
            beta_scale,
            epoch_length: EpochLength::Scaled(epoch_scale),
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

/// (LDP-)MoMA-GP-UCB on a fixed finite arm set.
///
/// Epoch `n` (1-based): [`Agent::select`] picks `x_n = argmax mu_{n-1}(x) + beta_n
/// sigma_{n-1}(x)` (line 5) and returns it for the `k` rounds of the epoch (line 6);
/// [`Agent::observe`] stores `y_{n,1..k}`. At the first selection after the epoch (the update
/// needs randomness, which `select` receives):
///
/// - lines 7-9: Nyström embedding of `x_1..x_n` with `sigma_{n-1}`, `V_n`;
/// - line 10: `theta_{n,j} = V_n^{-1} sum_i y_{i,j} phi(x_i)` for `j = 1..k`;
/// - lines 11-12: the median-of-means choice `k*` ([`median_of_means`]);
/// - lines 13-14: mean `phi^T theta_{n,k*}` and variance;
/// - Theorem 4: `beta_{n+1} = B(1 + 1/sqrt(1-e)) + 3 lambda^{-1/2} (9 m_n c)^{1/(1+a)} n^{(1-a)/(2(1+a))}`.
///
/// Algorithm 3 runs `N = floor(T/k)` epochs and says nothing of the last `T - N k` rounds; here
/// the learner simply starts epoch `N + 1` (chosen by the same rule), which the run cuts short.
///
/// Line 10's sums are kept per arm: `sum_i y_{i,j} phi(x_i) = sum_a Y_{a,j} phi(a)` with
/// `Y_{a,j}` the sum of `y_{i,j}` over the epochs that played arm `a`, so an update costs
/// O(n m^2 + m^3 + n k m + k m^2 + k^2 m^2) for `n` arms, `m` dictionary points and epoch
/// length `k` (the last two terms: the `k` estimates and their median of means), flat in the
/// number of epochs.
#[derive(Debug, Clone)]
pub struct MomaGpUcb<K: Kernel, M> {
    /// Embedding, posterior and width; an epoch ended since the last update makes lines 7-14
    /// run at the next `select`.
    nystrom: NystromPosterior<K>,
    schedule: MomaSchedule,
    k: usize,
    /// The number of completed epochs.
    epochs: usize,
    /// The arms of the completed epochs, each once, in order of first play.
    played: Vec<usize>,
    /// `Y_{a,j}` for the arms in `played` (same order): the sum of `y_{i,j}` over the
    /// completed epochs `i` that played arm `a`. `O(min(n, N) k)` memory, at most `T`.
    arm_sums: Vec<Vec<f64>>,
    /// The arm of the epoch in progress (`None` between epochs).
    current_arm: Option<usize>,
    /// The rewards received so far in the epoch in progress.
    current_rewards: Vec<f64>,
    /// The arm played, awaiting its message: each play's reward is counted once, so a second
    /// `select` before `observe` is refused.
    last: Pending<usize>,
    _message: PhantomData<fn(M)>,
}

impl<K: Kernel> MomaGpUcb<K, PrivateReward> {
    /// LDP-MoMA-GP-UCB (Corollary 1) for the rewards released by `curator`: `alpha = 1`,
    /// `c = R^2 + 2 L^2` with the curator's Laplace scale `L` (Corollary 1 writes
    /// `R^2 + 8(B+R)^2/eps^2`).
    pub fn private(
        kernel: K,
        arms: ArrayView2<'_, f64>,
        curator: &CtlCurator,
        horizon: u64,
        params: MomaParams,
    ) -> Result<Self, LdpBoError> {
        let (r, l) = (curator.r(), curator.laplace_scale());
        Self::build(
            kernel,
            arms,
            curator.b(),
            r * r + 2.0 * l * l,
            1.0,
            horizon,
            params,
        )
    }
}

impl<K: Kernel> MomaGpUcb<K, f64> {
    /// MoMA-GP-UCB (Theorem 4) for raw rewards whose noise has `E|eta|^(1+alpha) <= c`, and
    /// `||f||_H <= B`.
    pub fn heavy_tailed(
        kernel: K,
        arms: ArrayView2<'_, f64>,
        b: f64,
        alpha: f64,
        c: f64,
        horizon: u64,
        params: MomaParams,
    ) -> Result<Self, LdpBoError> {
        Self::build(kernel, arms, b, c, alpha, horizon, params)
    }
}

impl<K: Kernel, M> MomaGpUcb<K, M> {
    fn build(
        kernel: K,
        arms: ArrayView2<'_, f64>,
        b: f64,
        c: f64,
        alpha: f64,
        horizon: u64,
        params: MomaParams,
    ) -> Result<Self, LdpBoError> {
        at_least_one("horizon T", horizon)?;
        let params = params.validate()?;
        let arms = FixedArms::new(arms)?;
        let schedule = MomaSchedule::new(
            b,
            c,
            alpha,
            params.lambda,
            params.delta,
            horizon,
            params.accuracy,
        )?;
        let q = params.q_scale * schedule.accuracy.q(horizon, params.delta);
        let k = match params.epoch_length {
            EpochLength::Scaled(s) => schedule.scaled_epoch_length(s) as usize,
            EpochLength::Fixed(k) => k as usize,
        };
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
            schedule.beta_next(0, 0),
        )?;
        Ok(Self {
            nystrom,
            schedule,
            k,
            epochs: 0,
            played: Vec::new(),
            arm_sums: Vec::new(),
            current_arm: None,
            // An epoch longer than the horizon never completes: T rewards at most.
            current_rewards: Vec::with_capacity(k.min(usize::try_from(horizon).unwrap_or(k))),
            last: Pending::new(Reselect::Forbid),
            _message: PhantomData,
        })
    }

    /// The epoch length `k`.
    pub fn epoch_length(&self) -> usize {
        self.k
    }

    /// The number of completed epochs.
    pub fn epochs(&self) -> usize {
        self.epochs
    }

    /// The schedule of Theorem 4.
    pub fn schedule(&self) -> &MomaSchedule {
        &self.schedule
    }

    /// The current approximate posterior mean and variance of every arm.
    pub fn posterior(&self) -> (&Array1<f64>, &Array1<f64>) {
        self.nystrom.posterior()
    }

    /// The dimension `m_n` of the current embedding.
    pub fn feature_dim(&self) -> usize {
        self.nystrom.feature_dim()
    }

    /// Lines 7-14 after epoch `n = epochs()`.
    fn update<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Result<(), LdpBoError> {
        let n = self.epochs;
        let step = self.nystrom.sample(rng)?; // lines 7-9
        // Line 10: Theta (k x m), row j = (V^{-1} sum_i y_{i,j} phi(x_i))^T
        // = (V^{-1} sum_a Y_{a,j} phi(a))^T.
        let m = step.dim();
        let mut sums = Array2::<f64>::zeros((self.k, m));
        for (&a, y) in self.played.iter().zip(&self.arm_sums) {
            let phi = step.features.row(a);
            for (mut row, &y_aj) in sums.rows_mut().into_iter().zip(y) {
                row.scaled_add(y_aj, &phi);
            }
        }
        let thetas = sums.dot(&step.v_inv()); // V^{-1} is symmetric
        // Lines 11-12.
        let choice = median_of_means(thetas.view(), step.v.view())?;
        let theta = thetas.row(choice.chosen).to_owned();
        let beta = self.schedule.beta_next(m, n as u64);
        self.nystrom.refit(&step, theta.view(), beta); // lines 13-14
        Ok(())
    }
}

impl<K: Kernel, M: RewardMessage> Agent for MomaGpUcb<K, M> {
    type Message = M;
    type Error = LdpBoError;

    fn select<R: Rng + ?Sized>(
        &mut self,
        decision_set: ArrayView2<'_, f64>,
        rng: &mut R,
    ) -> Result<usize, LdpBoError> {
        self.nystrom.check(decision_set)?;
        self.last.check_select()?;
        if self.nystrom.update_due() {
            self.update(rng)?;
        }
        let a = match self.current_arm {
            Some(a) => a,
            None => {
                let a = self.nystrom.ucb_argmax(rng)?;
                self.current_arm = Some(a);
                a
            }
        };
        self.last.store(a)?;
        Ok(a)
    }

    fn observe(&mut self, message: M) -> Result<(), LdpBoError> {
        let a = self.last.take()?;
        let y = finite_message(message.reward())?;
        self.current_rewards.push(y);
        if self.current_rewards.len() == self.k {
            match self.played.iter().position(|&b| b == a) {
                Some(i) => {
                    for (s, y) in self.arm_sums[i]
                        .iter_mut()
                        .zip(self.current_rewards.drain(..))
                    {
                        *s += y;
                    }
                }
                None => {
                    self.played.push(a);
                    self.arm_sums
                        .push(std::mem::take(&mut self.current_rewards));
                }
            }
            self.current_arm = None;
            self.epochs += 1;
            self.nystrom.record(a);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kernel::SquaredExponential;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha20Rng;

    /// Line 10 from the per-arm sums gives the posterior of the per-epoch formula
    /// `theta_j = V^{-1} sum_i y_{i,j} phi(x_i)` to 1e-9 (arms chosen for several epochs).
    #[test]
    fn per_arm_sums_equal_the_per_epoch_formula() {
        let arms = Array2::from_shape_fn((20, 1), |(i, _)| i as f64 / 19.0);
        let k = SquaredExponential::isotropic(0.2).unwrap();
        let c = CtlCurator::new(1.0, 1.0, 1.0).unwrap();
        let params = MomaParams {
            epoch_length: EpochLength::Fixed(3),
            ..MomaParams::of(Preset::Practical)
        };
        let mut agent = MomaGpUcb::private(&k, arms.view(), &c, 300, params).unwrap();
        let mut rng = ChaCha20Rng::seed_from_u64(4);
        let mut epochs: Vec<(usize, Vec<f64>)> = Vec::new();
        for t in 0..300 {
            let a = agent.select(arms.view(), &mut rng).unwrap();
            let message = c
                .privatize((6.0 * arms[[a, 0]]).sin() + rng.random::<f64>(), &mut rng)
                .unwrap();
            if t % 3 == 0 {
                epochs.push((a, Vec::new()));
            }
            epochs.last_mut().unwrap().1.push(message.reward());
            agent.observe(message).unwrap();
        }
        assert!(agent.played.len() < epochs.len(), "some arm chosen twice");
        let mut twin = agent.clone();
        let mut rng_twin = rng.clone();
        agent.update(&mut rng).unwrap();
        let step = twin.nystrom.sample(&mut rng_twin).unwrap();
        let mut sums = Array2::<f64>::zeros((3, step.dim()));
        for (a, ys) in &epochs {
            for (j, &y) in ys.iter().enumerate() {
                sums.row_mut(j).scaled_add(y, &step.features.row(*a));
            }
        }
        let thetas = sums.dot(&step.v_inv());
        let chosen = median_of_means(thetas.view(), step.v.view())
            .unwrap()
            .chosen;
        let prior = Array1::ones(20);
        let (mean, var) = step.posterior(thetas.row(chosen), prior.view(), params.lambda);
        let (agent_mean, agent_var) = agent.posterior();
        for a in 0..20 {
            assert!((agent_mean[a] - mean[a]).abs() < 1e-9, "mean of arm {a}");
            assert!((agent_var[a] - var[a]).abs() < 1e-9, "variance of arm {a}");
        }
    }
}
