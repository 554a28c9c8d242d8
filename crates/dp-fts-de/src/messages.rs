//! What crosses the trust boundary of DP-FTS-DE: the [`AgentVector`] an agent sends to the
//! central server (Algorithm 2 line 10) and the [`Broadcast`] the server sends back
//! (Algorithm 1 line 12). The agent ([`crate::agent`]) and the server ([`crate::server`]) both
//! import these types from here, and neither imports the other.

use ndarray::{Array1, Array2, ArrayView1, ArrayView2};

use crate::error::DpFtsDeError;

/// What an agent sends to the central server each round (Algorithm 2 line 10, Algorithm 1
/// line 4): one `M`-vector `omega_{n,t}`, finite in every entry (checked when it is made, so a
/// NaN never reaches an aggregate). Nothing else about the agent travels: the server cannot
/// read the agent's observations or posterior through it.
#[derive(Debug, Clone, PartialEq)]
pub struct AgentVector {
    omega: Array1<f64>,
}

impl AgentVector {
    /// Wrap a vector, rejecting any non-finite entry (also for vectors from an external
    /// implementation of the agent's role).
    pub fn new(omega: Array1<f64>) -> Result<Self, DpFtsDeError> {
        validation::at_least_one("agent vector length M", omega.len())?;
        validation::ensure_finite("agent vector omega_{n,t}", omega.iter())?;
        Ok(Self { omega })
    }

    /// `M`.
    pub fn len(&self) -> usize {
        self.omega.len()
    }

    /// Never true (a vector has `M >= 1` entries).
    pub fn is_empty(&self) -> bool {
        self.omega.is_empty()
    }

    /// The entries (what the agent chose to send).
    pub fn as_view(&self) -> ArrayView1<'_, f64> {
        self.omega.view()
    }
}

/// What the server broadcasts after a round (Algorithm 1 line 12): the `P` vectors
/// `omega_t^(i)` (`P x M`), and nothing else. In a private federation the subsample `S_t`
/// never leaves the server (the amplification by subsampling depends on it being secret).
#[derive(Debug, Clone, PartialEq)]
pub struct Broadcast {
    vectors: Array2<f64>,
}

impl Broadcast {
    /// Wrap the `P x M` vectors the server's mechanism released (finite). Crate-private: a
    /// broadcast is made by the central server only, so that no raw aggregate can reach an agent
    /// as if it had been privatized.
    pub(crate) fn new(vectors: Array2<f64>) -> Result<Self, DpFtsDeError> {
        validation::ensure_finite("broadcast vectors", vectors.iter())?;
        Ok(Self { vectors })
    }

    /// `P x M`: row `i` is `omega_t^(i)`.
    pub fn vectors(&self) -> ArrayView2<'_, f64> {
        self.vectors.view()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn messages_refuse_non_finite_entries() {
        assert!(Broadcast::new(array![[0.0, f64::NAN]]).is_err());
        assert!(Broadcast::new(array![[0.0, 1.0]]).is_ok());
        assert!(AgentVector::new(array![0.0, f64::INFINITY]).is_err());
        assert!(AgentVector::new(Array1::zeros(0)).is_err());
    }
}
