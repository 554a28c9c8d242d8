//! Algorithm 3's SERVER (GP-UCB with local JDP): "Initialize `Sigma_1 = 0, u_1 = 0`. For round
//! `t`: send `Sigma~_t, u~_t -> CLIENT(t)`; receive the updated sums `<- CLIENT(t)`." Here the
//! client sends its increment (its noisy `Phi Phi^T + N_t` and `y Phi + n_t`) and the server
//! adds it: the same sums, and the server never holds a sum a client could have altered.
//!
//! It holds the sums of the clients' messages and nothing else: its only input is a
//! [`ClientMessage`] (built only by a [`crate::LocalClient`]), its only output the sums it
//! broadcasts. It never sees a decision set, a chosen point or a reward; the selection runs in
//! the client ([`crate::ClientSelection`]).

use crate::error::JdpQffError;
use crate::statistics::{ClientMessage, ServerStatistics, StatisticsMessage};

/// Algorithm 3's SERVER: the running sums `Sigma~_t = shift I + sum_{s < t} (Phi_s Phi_s^T +
/// N_s)` and `u~_t = sum_{s < t} (y_s Phi_s + n_s)`.
///
/// The PSD `shift` on the diagonal (Lemma 6; the paper's `Sigma_1 = 0`) is public: it depends
/// only on the calibration, the horizon and `m`, so it may equally be added by each client.
#[derive(Debug, Clone)]
pub struct LocalServer {
    sums: ServerStatistics,
}

impl LocalServer {
    /// The server before round 1: `Sigma~_1 = shift I`, `u~_1 = 0`, for `m` features.
    ///
    /// # Errors
    /// [`JdpQffError`] for `m = 0` or a shift that is negative or not finite.
    pub fn new(m: usize, shift: f64) -> Result<Self, JdpQffError> {
        let m = validation::at_least_one("feature dimension m", m)?;
        let shift = validation::non_negative("PSD shift", shift)?;
        Ok(Self {
            sums: ServerStatistics::initial(m, shift),
        })
    }

    /// What the server sends to CLIENT(t): `(Sigma~_t, u~_t)` and the number of messages summed.
    pub fn broadcast(&self) -> &ServerStatistics {
        &self.sums
    }

    /// Add client `t`'s message to the sums.
    ///
    /// # Errors
    /// [`JdpQffError`] when the message's dimension is not the server's `m`.
    pub fn receive(&mut self, message: ClientMessage) -> Result<(), JdpQffError> {
        message.apply(&mut self.sums)
    }
}
