//! GP sample paths on a finite domain, normalised to `[0, 1]`: the DP-FTS-DE synthetic
//! (Dai, Low & Jaillet 2021, App. B.1.1) and its heterogeneous variant (App. B.1.2).

use std::sync::OnceLock;

use kernel::linalg::Cholesky;
use kernel::{Kernel, SquaredExponential};
use ndarray::{Array1, Array2};
use rand::{Rng, RngExt};
use rand_distr::{Distribution, StandardNormal};
use serde::{Deserialize, Serialize};

use crate::domain::{BoxDomain, FiniteDomain};
use crate::error::BanditError;
use validation::{Interval, in_range, non_negative, positive};

/// Draws of `f ~ GP(0, k)` on a finite domain, each normalised to the range `[0, 1]`:
/// `f <- (f - min f) / (max f - min f)` (App. B.1.1: "normalize the function values into the
/// range [0, 1]").
///
/// The draw is `f = L z` with `z ~ N(0, I_n)` (n standard normals, drawn in point order) and
/// `L L^T = K + jitter I` the Cholesky factor of the Gram matrix. The jitter (default `1e-8`)
/// makes the numerically rank-deficient Gram matrix of a smooth kernel on a fine grid
/// factorable; it adds independent `N(0, 1e-8)` noise (standard deviation `1e-4`) per point,
/// negligible against the `[0, 1]` range. The factor is computed once per sampler.
///
/// Default: 1000 equally spaced points on `[0, 1]` (endpoints included) and the SE kernel
/// with lengthscale 0.03 (`exp(-r^2 / (2 * 0.03^2))`).
#[derive(Debug, Clone)]
pub struct GpSample {
    domain: FiniteDomain,
    lower: Array2<f64>,
    jitter: f64,
}

impl GpSample {
    /// The DP-FTS-DE synthetic sampler: 1000 grid points on `[0, 1]`, SE `l = 0.03`.
    ///
    /// The sampler is data-independent, so its Gram matrix and Cholesky factor (about
    /// `n^3 / 3 = 3.3e8` flops) are computed on the first call only; later calls return a copy
    /// of that sampler, identical to a fresh one bit for bit (the factorisation is
    /// deterministic).
    pub fn dp_fts_de() -> Result<Self, BanditError> {
        static PRESET: OnceLock<GpSample> = OnceLock::new();
        if let Some(sampler) = PRESET.get() {
            return Ok(sampler.clone());
        }
        let domain = BoxDomain::unit(1)?.grid(&[1000])?;
        let sampler = Self::new(domain, &SquaredExponential::isotropic(0.03)?, 1e-8)?;
        Ok(PRESET.get_or_init(|| sampler).clone())
    }

    /// A sampler of GP draws on `domain` with kernel `kernel` and diagonal jitter `>= 0`.
    pub fn new<K: Kernel>(
        domain: FiniteDomain,
        kernel: &K,
        jitter: f64,
    ) -> Result<Self, BanditError> {
        let jitter = non_negative("GP sample jitter", jitter)?;
        let mut k = kernel.gram(domain.points())?;
        for i in 0..k.nrows() {
            k[[i, i]] += jitter;
        }
        let chol = Cholesky::factor("GP sample Gram matrix + jitter I", k.view())?;
        Ok(Self {
            domain,
            lower: chol.lower(),
            jitter,
        })
    }

    /// The domain.
    pub fn domain(&self) -> &FiniteDomain {
        &self.domain
    }

    /// The jitter added to the diagonal.
    pub fn jitter(&self) -> f64 {
        self.jitter
    }

    /// One raw (unnormalised) draw `L z`.
    pub fn sample_raw<R: Rng + ?Sized>(&self, rng: &mut R) -> Array1<f64> {
        let z: Array1<f64> = (0..self.domain.len())
            .map(|_| StandardNormal.sample(rng))
            .collect();
        self.lower.dot(&z)
    }

    /// One draw normalised to `[0, 1]` (min 0, max 1). Errors only for a constant draw
    /// (a one-point domain).
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Result<Array1<f64>, BanditError> {
        normalise_to_unit_range(self.sample_raw(rng))
    }
}

/// `(f - min f) / (max f - min f)`.
pub fn normalise_to_unit_range(f: Array1<f64>) -> Result<Array1<f64>, BanditError> {
    let lo = f.iter().fold(f64::INFINITY, |m, &v| m.min(v));
    let hi = f.iter().fold(f64::NEG_INFINITY, |m, &v| m.max(v));
    let range = positive("range max f - min f of a GP draw (constant draw)", hi - lo)?;
    Ok(f.mapv(|v| (v - lo) / range))
}

/// Per-agent copies of one objective, `f^n(x) = f(x) + d_n(x)` with `d_n(x) = +delta` or
/// `-delta` with probability 1/2 each, independently for every agent and point (App. B.1.1:
/// `delta = 0.02`, `N = 200` agents). Draw order: agent by agent, point by point,
/// `random_bool(0.5)` true meaning `+delta`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PerturbedCopies {
    /// Number of agents `N`.
    pub n_agents: usize,
    /// Perturbation size `delta >= 0`.
    pub delta: f64,
}

impl Default for PerturbedCopies {
    fn default() -> Self {
        Self {
            n_agents: 200,
            delta: 0.02,
        }
    }
}

impl PerturbedCopies {
    /// The agents' objectives, one row per agent.
    pub fn sample<R: Rng + ?Sized>(
        &self,
        base: &Array1<f64>,
        rng: &mut R,
    ) -> Result<Array2<f64>, BanditError> {
        let delta = non_negative("perturbation size delta", self.delta)?;
        let mut out = Array2::zeros((self.n_agents, base.len()));
        for n in 0..self.n_agents {
            for (j, &v) in base.iter().enumerate() {
                out[[n, j]] = if rng.random_bool(0.5) {
                    v + delta
                } else {
                    v - delta
                };
            }
        }
        Ok(out)
    }
}

/// Heterogeneous agents (App. B.1.2): draw `f_base`, then for each agent an independent draw
/// `f^i` (same sampler, both normalised to `[0, 1]`) and use `alpha f^i + (1 - alpha) f_base`;
/// `alpha = 0` gives identical agents, `alpha = 1` independent ones (the paper uses 50 agents,
/// `alpha = 0.7` and `1.0`). Draw order: `f_base`, then `f^1, ..., f^N`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct HeterogeneousAgents {
    /// Number of agents.
    pub n_agents: usize,
    /// Heterogeneity `alpha in [0, 1]`.
    pub alpha: f64,
}

impl HeterogeneousAgents {
    /// `(f_base, objectives)` with one agent's objective per row.
    pub fn sample<R: Rng + ?Sized>(
        &self,
        sampler: &GpSample,
        rng: &mut R,
    ) -> Result<(Array1<f64>, Array2<f64>), BanditError> {
        in_range("heterogeneity alpha", self.alpha, Interval::UNIT)?;
        let base = sampler.sample(rng)?;
        let mut out = Array2::zeros((self.n_agents, base.len()));
        for i in 0..self.n_agents {
            let fi = sampler.sample(rng)?;
            out.row_mut(i)
                .assign(&(fi * self.alpha + &base * (1.0 - self.alpha)));
        }
        Ok((base, out))
    }
}
