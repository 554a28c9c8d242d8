//! Algorithm 3 run in one process: the SERVER ([`LocalServer`]) and the selecting half of each
//! CLIENT(t) ([`ClientSelection`]) behind the runner's [`Agent`] interface; the perturbing half
//! ([`crate::LocalClient`]) is the runner's curator.
//!
//! Each round the runner calls `select(D_t)`: client `t` receives the server's broadcast and
//! selects from it and its `D_t`; then `observe(message)`: the server adds client `t`'s message.
//! The two halves are separate types, so what each side sees is what its type takes: the server
//! takes only [`ClientMessage`]s; `D_t` reaches only [`ClientSelection::select`].

use bandit::agent::Agent;
use bandit::policy::{Pending, Reselect};
use kernel::FeatureMap;
use ndarray::ArrayView2;
use rand::Rng;

use crate::error::JdpQffError;
use crate::local::ClientSelection;
use crate::local_server::LocalServer;
use crate::statistics::ClientMessage;

/// GP-UCB with local JDP (Algorithm 3): a [`LocalServer`] and the clients' [`ClientSelection`],
/// simulated in one process ([`crate::local()`] builds it).
///
/// As in the paper, client `t` computes `V_t` and `beta_t` when it selects: a `V_t` that is not
/// positive definite is reported by `select` in round `t` (Algorithm 1's server, which factors
/// after each release, reports it by `observe` in round `t - 1`).
#[derive(Debug)]
pub struct LocalJdpGpUcb<F> {
    server: LocalServer,
    clients: ClientSelection<F>,
    pending: Pending<()>,
}

impl<F: FeatureMap> LocalJdpGpUcb<F> {
    /// The protocol before round 1: the server's sums at `shift I` (the width's spectrum).
    ///
    /// # Errors
    /// As [`LocalServer::new`].
    pub fn new(clients: ClientSelection<F>) -> Result<Self, JdpQffError> {
        let server = LocalServer::new(clients.features().dim(), clients.width().spectrum().shift)?;
        Ok(Self {
            server,
            clients,
            pending: Pending::new(Reselect::Replace),
        })
    }

    /// The server.
    pub fn server(&self) -> &LocalServer {
        &self.server
    }

    /// The clients' selection rule.
    pub fn clients(&self) -> &ClientSelection<F> {
        &self.clients
    }
}

impl<F: FeatureMap> Agent for LocalJdpGpUcb<F> {
    type Message = ClientMessage;
    type Error = JdpQffError;

    /// Client `t` selects from the server's broadcast and its own `D_t`.
    fn select<R: Rng + ?Sized>(
        &mut self,
        decision_set: ArrayView2<'_, f64>,
        rng: &mut R,
    ) -> Result<usize, JdpQffError> {
        let a = self
            .clients
            .select(self.server.broadcast(), decision_set, rng)?;
        self.pending.store(())?;
        Ok(a)
    }

    /// The server adds client `t`'s message.
    fn observe(&mut self, message: ClientMessage) -> Result<(), JdpQffError> {
        self.pending.take()?;
        self.server.receive(message)
    }
}
