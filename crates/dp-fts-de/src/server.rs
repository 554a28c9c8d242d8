//! The central server of DP-FTS-DE (Algorithm 1): subsample, clip, weigh, add noise,
//! broadcast, and account for the privacy loss.

use ndarray::{Array2, ArrayView2};
use privacy::accountant::rdp::{RdpAccountant, RdpConversion, paper_orders};
use privacy::accountant::{PldEpsilon, PldSettings, subsampled_gaussian_pld_epsilon};
use privacy::mechanisms::subsampled::SubsampledGaussian;
use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::agent::AgentVector;
use crate::error::DpFtsDeError;
use crate::weights::SubRegionWeights;

/// What the server broadcasts after a round (Algorithm 1 line 12): the `P` vectors
/// `omega_t^(i)` (`P x M`), and nothing else. In a private federation the subsample `S_t`
/// never leaves the server (the amplification by subsampling depends on it being secret).
#[derive(Debug, Clone, PartialEq)]
pub struct Broadcast {
    vectors: Array2<f64>,
}

impl Broadcast {
    /// Wrap `P x M` vectors (finite), e.g. a broadcast recorded elsewhere.
    pub fn new(vectors: Array2<f64>) -> Result<Self, DpFtsDeError> {
        validation::ensure_finite("broadcast vectors", vectors.iter())?;
        Ok(Self { vectors })
    }

    /// `P x M`: row `i` is `omega_t^(i)`.
    pub fn vectors(&self) -> ArrayView2<'_, f64> {
        self.vectors.view()
    }
}

/// The privacy loss after some number of releases.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PrivacyLoss {
    /// Releases so far (rounds whose aggregate was broadcast).
    pub releases: u64,
    /// `delta`.
    pub delta: f64,
    /// The paper's accountant (papers/README.md): RDP at the integer orders 2..=33, classic
    /// conversion `min_alpha RDP(alpha) + ln(1/delta)/(alpha - 1)`.
    pub epsilon_paper: f64,
    /// The order attaining `epsilon_paper`.
    pub order: f64,
}

/// Algorithm 1 for a federation of `N` agents: private (the subsampled Gaussian mechanism of
/// lines 5-11, with the privacy loss accounted after each release, line 13) or non-private
/// (FTS and FTS-DE without DP: `omega^(i) = sum_n phi_n^(i) omega_n`, every agent, no clipping,
/// no noise).
///
/// It only ever receives [`AgentVector`]s and only ever releases [`Broadcast`]s.
#[derive(Debug, Clone)]
pub struct CentralServer {
    weights: SubRegionWeights,
    mechanism: Option<SubsampledGaussian>,
    accountant: RdpAccountant,
    delta: f64,
    releases: u64,
    clipped: u64,
    received: u64,
}

impl CentralServer {
    /// A private server: `mechanism` (its `q`, `S`, `z` and sampler) at `delta` in `(0, 1)`.
    pub fn private(
        weights: SubRegionWeights,
        mechanism: SubsampledGaussian,
        delta: f64,
    ) -> Result<Self, DpFtsDeError> {
        let delta = validation::open_unit("delta", delta)?;
        Ok(Self {
            weights,
            mechanism: Some(mechanism),
            accountant: RdpAccountant::new(paper_orders())?,
            delta,
            releases: 0,
            clipped: 0,
            received: 0,
        })
    }

    /// A non-private server (FTS, FTS-DE).
    pub fn non_private(weights: SubRegionWeights) -> Result<Self, DpFtsDeError> {
        Ok(Self {
            weights,
            mechanism: None,
            accountant: RdpAccountant::new(paper_orders())?,
            delta: 0.5,
            releases: 0,
            clipped: 0,
            received: 0,
        })
    }

    /// The public weights.
    pub fn weights(&self) -> &SubRegionWeights {
        &self.weights
    }

    /// The mechanism of a private server.
    pub fn mechanism(&self) -> Option<&SubsampledGaussian> {
        self.mechanism.as_ref()
    }

    /// One round at iteration `t` (Algorithm 1 lines 3-12): `vectors[n]` is agent `n`'s
    /// vector; all must have the same length `M`. The weights are those of iteration `t`.
    pub fn aggregate<R: Rng + ?Sized>(
        &mut self,
        t: usize,
        vectors: &[AgentVector],
        rng: &mut R,
    ) -> Result<Broadcast, DpFtsDeError> {
        let n = self.weights.n_agents();
        validation::matching_dimension("agent vectors per round (N)", n, vectors.len())?;
        let m = vectors[0].len();
        let mut stacked = Array2::zeros((n, m));
        for (k, v) in vectors.iter().enumerate() {
            validation::matching_dimension("agent vector length M", m, v.len())?;
            stacked.row_mut(k).assign(&v.as_view());
        }
        let w = self.weights.at(t);
        let out = match &self.mechanism {
            Some(mech) => {
                let bound = mech.clip_bound(w.ncols());
                self.clipped += stacked
                    .rows()
                    .into_iter()
                    .filter(|r| r.dot(r).sqrt() > bound)
                    .count() as u64;
                let released = mech.aggregate(stacked.view(), w.view(), rng)?;
                self.accountant.compose_subsampled_gaussian(
                    mech.q(),
                    mech.noise_multiplier(),
                    1,
                )?;
                released.into_vectors()
            }
            None => w.t().dot(&stacked),
        };
        self.received += n as u64;
        self.releases += 1;
        Broadcast::new(out)
    }

    /// Rounds released so far.
    pub fn releases(&self) -> u64 {
        self.releases
    }

    /// Of all vectors received so far, the fraction whose norm exceeded the clipping bound
    /// `S / sqrt(P)` (the paper reports it to choose `S`, Sec. 5.1). A diagnostic of the
    /// experiment, computed from private inputs: **not part of the release**. `None` for a
    /// non-private server or before the first round.
    pub fn clipped_fraction(&self) -> Option<f64> {
        (self.mechanism.is_some() && self.received > 0)
            .then(|| self.clipped as f64 / self.received as f64)
    }

    /// The privacy loss of the releases so far by the paper's accountant (`None` for a
    /// non-private server or before the first release).
    pub fn privacy_loss(&self) -> Result<Option<PrivacyLoss>, DpFtsDeError> {
        if self.mechanism.is_none() || self.releases == 0 {
            return Ok(None);
        }
        let (eps, order) = self
            .accountant
            .epsilon(self.delta, RdpConversion::Classic)?;
        Ok(Some(PrivacyLoss {
            releases: self.releases,
            delta: self.delta,
            epsilon_paper: eps,
            order,
        }))
    }

    /// The privacy loss of the releases so far by the privacy-loss-distribution accountant
    /// (much tighter than the paper's; `None` as for [`CentralServer::privacy_loss`]).
    pub fn pld_loss(&self, settings: PldSettings) -> Result<Option<PldEpsilon>, DpFtsDeError> {
        match &self.mechanism {
            Some(m) if self.releases > 0 => Ok(Some(subsampled_gaussian_pld_epsilon(
                m.q(),
                m.noise_multiplier(),
                self.releases,
                self.delta,
                settings,
            )?)),
            _ => Ok(None),
        }
    }
}
