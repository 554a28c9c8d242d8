//! What crosses the trust boundary to the SERVER of Algorithm 1 (and to Algorithm 3's
//! [`crate::LocalServer`]): privatised statistics only.
//!
//! [`PrivatizedStatistics`] (Algorithm 2: `(Sigma~_t, u~_t)` released by the PRIVATIZER) and
//! [`ClientMessage`] (Algorithm 3: one client's noisy `(Phi Phi^T + N_t, y Phi + n_t)`) have no
//! public constructor: the only way to make one is a privatizer's or a client's
//! [`bandit::agent::Curator::curate`]. The non-private comparison's exact sums have a type of
//! their own, [`ExactSums`] (made by [`crate::privatizer::ExactStatistics`]), so that no
//! un-noised statistic can pass for a privatized one. Algorithm 1's server is generic over
//! [`StatisticsMessage`]; the server built by [`crate::jdp`] takes [`PrivatizedStatistics`],
//! the [`crate::LocalServer`] of [`crate::local()`] takes [`ClientMessage`], so the type checker guarantees that it never receives a raw
//! `(Phi(x_t), y_t)`. The trait is public so that
//! tests and fixtures can replay a given privatised history (the verification crate's jdp-qff
//! fixtures do); a message type of one's own is outside this guarantee.

use ndarray::{Array1, Array2};

use crate::error::JdpQffError;

/// The statistics the server holds at round `t`: `Sigma~_t` (`m x m`, shift included) and
/// `u~_t` (length `m`), after `observations = t - 1` rounds.
#[derive(Debug, Clone, PartialEq)]
pub struct ServerStatistics {
    /// `Sigma~_t`.
    pub sigma: Array2<f64>,
    /// `u~_t`.
    pub u: Array1<f64>,
    /// The number of rounds they summarise.
    pub observations: usize,
}

impl ServerStatistics {
    /// Round 1: no data, `Sigma~_1 = shift I` (the PSD shift of the noise model), `u~_1 = 0`.
    pub fn initial(m: usize, shift: f64) -> Self {
        Self {
            sigma: Array2::eye(m) * shift,
            u: Array1::zeros(m),
            observations: 0,
        }
    }
}

/// A message that updates the server's statistics.
pub trait StatisticsMessage {
    /// Apply the message to the server's statistics (replace them, or add to them).
    fn apply(self, state: &mut ServerStatistics) -> Result<(), JdpQffError>;

    /// [`StatisticsMessage::apply`] without consuming the message (a copy of the server's
    /// statistics kept beside it, e.g. by the reproduction's diagnostics): the same update, by
    /// default on a clone.
    fn update(&self, state: &mut ServerStatistics) -> Result<(), JdpQffError>
    where
        Self: Clone,
    {
        self.clone().apply(state)
    }
}

/// `(Sigma~_{t+1}, u~_{t+1})` as released by the PRIVATIZER after round `t` (Algorithm 2: the
/// tree's noisy prefix sum, PSD shift on the diagonal included); the server replaces its
/// statistics with them.
#[derive(Debug, Clone, PartialEq)]
pub struct PrivatizedStatistics {
    sigma: Array2<f64>,
    u: Array1<f64>,
    observations: usize,
}

impl PrivatizedStatistics {
    pub(crate) fn new(sigma: Array2<f64>, u: Array1<f64>, observations: usize) -> Self {
        Self {
            sigma,
            u,
            observations,
        }
    }

    /// `Sigma~_{t+1}` (`m x m`).
    pub fn sigma(&self) -> &Array2<f64> {
        &self.sigma
    }

    /// `u~_{t+1}` (length `m`).
    pub fn u(&self) -> &Array1<f64> {
        &self.u
    }

    /// The number of rounds summarised (`t`).
    pub fn observations(&self) -> usize {
        self.observations
    }
}

impl StatisticsMessage for PrivatizedStatistics {
    fn apply(self, state: &mut ServerStatistics) -> Result<(), JdpQffError> {
        replace(state, self.sigma, self.u, self.observations)
    }

    /// Copies into the state's storage (no clone): the same state as [`StatisticsMessage::apply`].
    fn update(&self, state: &mut ServerStatistics) -> Result<(), JdpQffError> {
        replace_from(state, &self.sigma, &self.u, self.observations)
    }
}

/// Replace the server's statistics (after checking their shapes).
fn replace(
    state: &mut ServerStatistics,
    sigma: Array2<f64>,
    u: Array1<f64>,
    observations: usize,
) -> Result<(), JdpQffError> {
    check_shape(state, sigma.nrows(), u.len())?;
    state.sigma = sigma;
    state.u = u;
    state.observations = observations;
    Ok(())
}

/// [`replace`] by reference: copied into the state's arrays when the shapes agree.
fn replace_from(
    state: &mut ServerStatistics,
    sigma: &Array2<f64>,
    u: &Array1<f64>,
    observations: usize,
) -> Result<(), JdpQffError> {
    if sigma.dim() != state.sigma.dim() || u.len() != state.u.len() {
        return replace(state, sigma.clone(), u.clone(), observations);
    }
    state.sigma.assign(sigma);
    state.u.assign(u);
    state.observations = observations;
    Ok(())
}

/// `(Sigma_{t+1}, u_{t+1})` of the NON-PRIVATE comparison after round `t`: the exact sums, no
/// noise, no shift ([`crate::privatizer::ExactStatistics`]). A type of its own, not a
/// [`PrivatizedStatistics`]: a server fed these is `ApproximateGpUcb<F, ExactSums>`, so its
/// type says it is not private. The server replaces its statistics with them.
#[derive(Debug, Clone, PartialEq)]
pub struct ExactSums {
    sigma: Array2<f64>,
    u: Array1<f64>,
    observations: usize,
}

impl ExactSums {
    pub(crate) fn new(sigma: Array2<f64>, u: Array1<f64>, observations: usize) -> Self {
        Self {
            sigma,
            u,
            observations,
        }
    }

    /// `Sigma_{t+1}` (`m x m`).
    pub fn sigma(&self) -> &Array2<f64> {
        &self.sigma
    }

    /// `u_{t+1}` (length `m`).
    pub fn u(&self) -> &Array1<f64> {
        &self.u
    }

    /// The number of rounds summarised (`t`).
    pub fn observations(&self) -> usize {
        self.observations
    }
}

impl StatisticsMessage for ExactSums {
    fn apply(self, state: &mut ServerStatistics) -> Result<(), JdpQffError> {
        replace(state, self.sigma, self.u, self.observations)
    }

    /// Copies into the state's storage (no clone): the same state as [`StatisticsMessage::apply`].
    fn update(&self, state: &mut ServerStatistics) -> Result<(), JdpQffError> {
        replace_from(state, &self.sigma, &self.u, self.observations)
    }
}

/// One client's message of Algorithm 3: `Phi(x_t) Phi(x_t)^T + N_t` and `y_t Phi(x_t) + n_t`;
/// the server adds them to its sums.
#[derive(Debug, Clone, PartialEq)]
pub struct ClientMessage {
    sigma_increment: Array2<f64>,
    u_increment: Array1<f64>,
}

impl ClientMessage {
    pub(crate) fn new(sigma_increment: Array2<f64>, u_increment: Array1<f64>) -> Self {
        Self {
            sigma_increment,
            u_increment,
        }
    }

    /// `Phi Phi^T + N_t` (`m x m`, symmetric).
    pub fn sigma_increment(&self) -> &Array2<f64> {
        &self.sigma_increment
    }

    /// `y Phi + n_t` (length `m`).
    pub fn u_increment(&self) -> &Array1<f64> {
        &self.u_increment
    }
}

impl StatisticsMessage for ClientMessage {
    fn apply(self, state: &mut ServerStatistics) -> Result<(), JdpQffError> {
        self.update(state)
    }

    /// Adds by reference (no clone): the same additions as [`StatisticsMessage::apply`].
    fn update(&self, state: &mut ServerStatistics) -> Result<(), JdpQffError> {
        check_shape(state, self.sigma_increment.nrows(), self.u_increment.len())?;
        state.sigma += &self.sigma_increment;
        state.u += &self.u_increment;
        state.observations += 1;
        Ok(())
    }
}

fn check_shape(state: &ServerStatistics, m_sigma: usize, m_u: usize) -> Result<(), JdpQffError> {
    let m = state.u.len();
    for got in [m_sigma, m_u] {
        if got != m {
            return Err(validation::InputError::DimensionMismatch {
                context: "statistics message (feature dimension m)",
                expected: m,
                got,
            }
            .into());
        }
    }
    Ok(())
}
