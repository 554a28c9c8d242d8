//! The central server of DP-FTS-DE (Algorithm 1): subsample, clip, weigh, add noise,
//! broadcast, and account for the privacy loss.

use ndarray::Array2;
use privacy::accountant::rdp::{RdpAccountant, RdpConversion, paper_orders};
use privacy::accountant::{PldEpsilon, PldSettings, subsampled_gaussian_pld_epsilon};
use privacy::mechanisms::subsampled::SubsampledGaussian;
use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::error::DpFtsDeError;
use crate::messages::{AgentVector, Broadcast};
use crate::weights::SubRegionWeights;

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

/// One round of the private server (Algorithm 1, lines 5-11) as a [`privacy::Mechanism`]:
/// input the round's agent vectors ([`RoundInput`]), output the [`Broadcast`] only.
///
/// # Neighbouring relation and sensitivity (docs/dp-fts-de.md, "Privacy")
///
/// Two inputs are neighbours when one agent's vector is present in one and absent from the
/// other, the other agents' vectors and all weights fixed (the weights are public: they
/// depend only on the assignment). An absent agent is the same as an agent whose vector is
/// 0 (a selected zero vector adds nothing), which is how the audits build the pair. Agent
/// `n`'s clipped vector `omega_hat_n` (`||omega_hat_n|| <= S / sqrt(P)`, line 9) enters the
/// joint output `(omega^(i))_i` as `(phi_n^(i) omega_hat_n / q)_i` (line 10), of L2 norm
/// `sqrt(sum_i (phi_n^(i))^2) ||omega_hat_n|| / q <= sqrt(P) phi_max (S / sqrt(P)) / q =
/// phi_max S / q`, and the noise of line 11 is `z` times that per coordinate (the paper's
/// calibration; [`privacy::mechanisms::WeightCalibration::RowNorm`] stops one step earlier, at
/// `max_n ||phi_n|| S / (sqrt(P) q)`, erratum 13): the
/// Poisson-subsampled Gaussian mechanism with rate `q` and noise multiplier `z`
/// ([`SubsampledGaussian`]), whose claim this is. Over `T` rounds the whole sequence of one
/// agent's vectors is present or absent; the rounds compose (each round is that mechanism
/// for any vectors the agent sends, chosen adaptively).
#[derive(Debug, Clone)]
pub struct PrivateAggregator {
    weights: SubRegionWeights,
    mechanism: SubsampledGaussian,
}

/// The input of one server round: the iteration `t` (it selects the weights) and the
/// vectors, `vectors[n]` from agent `n`.
#[derive(Debug, Clone, PartialEq)]
pub struct RoundInput {
    /// The iteration.
    pub t: usize,
    /// One vector per agent, all of the same length `M`.
    pub vectors: Vec<AgentVector>,
}

/// Stack the agents' vectors into `N x M`, checking the count and the lengths.
fn stack(n: usize, vectors: &[AgentVector]) -> Result<Array2<f64>, DpFtsDeError> {
    validation::matching_dimension("agent vectors per round (N)", n, vectors.len())?;
    let m = vectors[0].len();
    let mut stacked = Array2::zeros((n, m));
    for (k, v) in vectors.iter().enumerate() {
        validation::matching_dimension("agent vector length M", m, v.len())?;
        stacked.row_mut(k).assign(&v.as_view());
    }
    Ok(stacked)
}

impl PrivateAggregator {
    /// The private round with these public weights and this mechanism (`q`, `S`, `z`,
    /// sampler).
    pub fn new(weights: SubRegionWeights, mechanism: SubsampledGaussian) -> Self {
        Self { weights, mechanism }
    }

    /// The weights.
    pub fn weights(&self) -> &SubRegionWeights {
        &self.weights
    }

    /// The mechanism.
    pub fn mechanism(&self) -> &SubsampledGaussian {
        &self.mechanism
    }

    /// The noise standard deviation of round `t`: `z s(phi(t)) S / q` with the mechanism's
    /// weight factor (`phi_max(t)` in the paper's calibration), times the hardened sampler's
    /// grid slack.
    pub fn sigma(&self, t: usize) -> f64 {
        self.mechanism
            .sigma(self.mechanism.weight_scale(self.weights.at(t).view()))
    }

    /// The round's noise-to-signal ratio `sigma_t / s_t` (a private diagnostic, never
    /// released): `s_t` is the root mean square, over the `P x M` coordinates, of the
    /// noise-free aggregate `sum_n phi_n^(i)(t) clip(omega_n)` (the expectation of line 10's
    /// subsampled sum over `q`), `sigma_t` the noise standard deviation of line 11
    /// ([`Self::sigma`]).
    pub fn noise_to_signal(&self, t: usize, vectors: &[AgentVector]) -> Result<f64, DpFtsDeError> {
        let mut clipped = stack(self.weights.n_agents(), vectors)?;
        let w = self.weights.at(t);
        for mut r in clipped.rows_mut() {
            let c = self.mechanism.clip_vector(r.view(), w.ncols());
            r.assign(&c);
        }
        let signal = w.t().dot(&clipped);
        let rms = (signal.iter().map(|v| v * v).sum::<f64>() / signal.len().max(1) as f64).sqrt();
        let sigma = self.mechanism.sigma(self.mechanism.weight_scale(w.view()));
        Ok(sigma / rms)
    }

    /// One release, with the number of vectors above the clipping bound (a private
    /// diagnostic, never released).
    fn release_counting<R: Rng + ?Sized>(
        &self,
        input: &RoundInput,
        rng: &mut R,
    ) -> Result<(Broadcast, u64), DpFtsDeError> {
        let stacked = stack(self.weights.n_agents(), &input.vectors)?;
        let w = self.weights.at(input.t);
        let bound = self.mechanism.clip_bound(w.ncols());
        let clipped = stacked
            .rows()
            .into_iter()
            .filter(|r| r.dot(r).sqrt() > bound)
            .count() as u64;
        let released = self.mechanism.aggregate(stacked.view(), w.view(), rng)?;
        Ok((Broadcast::new(released.into_vectors())?, clipped))
    }
}

/// Input: one round's vectors; output: the `P` noisy vectors only. Claim: one round of the
/// Poisson-subsampled Gaussian ([`SubsampledGaussian::claim`]); `T` rounds compose.
impl privacy::Mechanism for PrivateAggregator {
    type Input = RoundInput;
    type Output = Broadcast;

    fn claim(&self) -> privacy::PrivacyClaim {
        self.mechanism.claim()
    }

    fn release<R: Rng + ?Sized>(
        &self,
        input: &RoundInput,
        rng: &mut R,
    ) -> Result<Broadcast, privacy::PrivacyError> {
        Ok(self.release_counting(input, rng)?.0)
    }
}

#[derive(Debug, Clone)]
enum Aggregation {
    Private(PrivateAggregator),
    Exact(SubRegionWeights),
}

/// Algorithm 1 for a federation of `N` agents: private (a [`PrivateAggregator`] per round,
/// with the privacy loss accounted after each release, line 13) or non-private (FTS and FTS-DE
/// without DP: `omega^(i) = sum_n phi_n^(i) omega_n`, every agent, no clipping, no noise).
///
/// It only ever receives [`AgentVector`]s and only ever releases [`Broadcast`]s.
#[derive(Debug, Clone)]
pub struct CentralServer {
    aggregation: Aggregation,
    accountant: RdpAccountant,
    delta: f64,
    releases: u64,
    clipped: u64,
    received: u64,
    noise_to_signal: Vec<f64>,
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
            aggregation: Aggregation::Private(PrivateAggregator::new(weights, mechanism)),
            accountant: RdpAccountant::new(paper_orders())?,
            delta,
            releases: 0,
            clipped: 0,
            received: 0,
            noise_to_signal: Vec::new(),
        })
    }

    /// A non-private server (FTS, FTS-DE).
    pub fn non_private(weights: SubRegionWeights) -> Result<Self, DpFtsDeError> {
        Ok(Self {
            aggregation: Aggregation::Exact(weights),
            accountant: RdpAccountant::new(paper_orders())?,
            delta: 0.5,
            releases: 0,
            clipped: 0,
            received: 0,
            noise_to_signal: Vec::new(),
        })
    }

    /// The public weights.
    pub fn weights(&self) -> &SubRegionWeights {
        match &self.aggregation {
            Aggregation::Private(p) => p.weights(),
            Aggregation::Exact(w) => w,
        }
    }

    /// The private round of a private server.
    pub fn private_round(&self) -> Option<&PrivateAggregator> {
        match &self.aggregation {
            Aggregation::Private(p) => Some(p),
            Aggregation::Exact(_) => None,
        }
    }

    /// One round at iteration `t` (Algorithm 1 lines 3-12): `vectors[n]` is agent `n`'s
    /// vector; all must have the same length `M`. The weights are those of iteration `t`.
    pub fn aggregate<R: Rng + ?Sized>(
        &mut self,
        t: usize,
        vectors: Vec<AgentVector>,
        rng: &mut R,
    ) -> Result<Broadcast, DpFtsDeError> {
        let n = vectors.len() as u64;
        let out = match &self.aggregation {
            Aggregation::Private(p) => {
                self.noise_to_signal.push(p.noise_to_signal(t, &vectors)?);
                let (b, clipped) = p.release_counting(&RoundInput { t, vectors }, rng)?;
                self.accountant.compose_subsampled_gaussian(
                    p.mechanism.q(),
                    p.mechanism.noise_multiplier(),
                    1,
                )?;
                self.clipped += clipped;
                b
            }
            Aggregation::Exact(w) => {
                let stacked = stack(w.n_agents(), &vectors)?;
                Broadcast::new(w.at(t).t().dot(&stacked))?
            }
        };
        self.received += n;
        self.releases += 1;
        Ok(out)
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
        (self.private_round().is_some() && self.received > 0)
            .then(|| self.clipped as f64 / self.received as f64)
    }

    /// The noise-to-signal ratio of each release so far ([`PrivateAggregator::noise_to_signal`]:
    /// the noise standard deviation over the root mean square of the noise-free aggregate). A
    /// diagnostic of the experiment, computed from private inputs: **not part of the
    /// release**. Empty for a non-private server.
    pub fn noise_to_signal(&self) -> &[f64] {
        &self.noise_to_signal
    }

    /// The privacy loss of the releases so far by the paper's accountant (`None` for a
    /// non-private server or before the first release).
    pub fn privacy_loss(&self) -> Result<Option<PrivacyLoss>, DpFtsDeError> {
        if self.private_round().is_none() || self.releases == 0 {
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
        match self.private_round() {
            Some(p) if self.releases > 0 => Ok(Some(subsampled_gaussian_pld_epsilon(
                p.mechanism.q(),
                p.mechanism.noise_multiplier(),
                self.releases,
                self.delta,
                settings,
            )?)),
            _ => Ok(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::weights::Weighting;
    use ndarray::{Array1, array};
    use rand::SeedableRng;
    use rand_chacha::ChaCha20Rng;

    /// One sub-region (`P = 1`) for three agents, so the clipping bound is `S` itself.
    fn one_region() -> SubRegionWeights {
        SubRegionWeights::new(
            SubRegionWeights::round_robin(3, 1),
            1,
            15.0,
            Weighting::NonAdaptive,
        )
        .unwrap()
    }

    fn vector(v: Array1<f64>) -> AgentVector {
        AgentVector::new(v).unwrap()
    }

    /// A vector counts as clipped only when its norm exceeds `S / sqrt(P)` (one at exactly the
    /// bound is left unchanged by line 9's clip), and the fraction divides by every vector
    /// received: after the rounds below, 1 of 3 and then 3 of 6.
    #[test]
    fn the_clipped_fraction_counts_norms_strictly_above_the_bound() {
        let mech = SubsampledGaussian::new(0.5, 2.0, 1.0).unwrap();
        assert_eq!(mech.clip_bound(1).to_bits(), 2f64.to_bits());
        let mut server = CentralServer::private(one_region(), mech, 1e-5).unwrap();
        let mut rng = ChaCha20Rng::seed_from_u64(3);
        let round = |a: f64, b: f64, c: f64| {
            vec![
                vector(array![a, 0.0, 0.0]),
                vector(array![0.0, b, 0.0]),
                vector(array![0.0, 0.0, c]),
            ]
        };
        server.aggregate(0, round(2.0, 3.0, 0.5), &mut rng).unwrap();
        assert_eq!(server.clipped_fraction(), Some(1.0 / 3.0));
        server
            .aggregate(1, round(-2.5, 1e9, 7.0), &mut rng)
            .unwrap();
        assert_eq!(server.clipped_fraction(), Some(4.0 / 6.0));
    }

    /// The PLD loss is `None` without a private server or before the first release, and after
    /// `k` releases the PLD accountant's epsilon of `k` compositions at the server's `q`, `z`,
    /// `delta`.
    #[test]
    fn the_pld_loss_is_the_accountants_after_k_releases() {
        let (q, z, delta) = (0.25, 1.0, 1e-5);
        let mech = SubsampledGaussian::new(q, 2.0, z).unwrap();
        let mut server = CentralServer::private(one_region(), mech, delta).unwrap();
        let settings = PldSettings::default();
        assert!(server.pld_loss(settings).unwrap().is_none());
        let mut rng = ChaCha20Rng::seed_from_u64(4);
        let zeros = || (0..3).map(|_| vector(Array1::zeros(2))).collect::<Vec<_>>();
        for k in 1..=2u64 {
            server.aggregate(0, zeros(), &mut rng).unwrap();
            let got = server.pld_loss(settings).unwrap().unwrap();
            let want = subsampled_gaussian_pld_epsilon(q, z, k, delta, settings).unwrap();
            assert_eq!(got, want, "after {k} releases");
        }
        let mut exact = CentralServer::non_private(one_region()).unwrap();
        exact.aggregate(0, zeros(), &mut rng).unwrap();
        assert!(exact.pld_loss(settings).unwrap().is_none());
    }
}
