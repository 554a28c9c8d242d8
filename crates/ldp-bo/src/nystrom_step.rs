//! What Algorithms 1 and 3 share: the Nyström embedding of the played points (Algorithm 4),
//! the design matrix `V = Phi^T Phi + lambda I`, and the approximate posterior
//! `mu(x) = phi(x)^T theta`, `sigma^2(x) = k(x,x) - phi(x)^T phi(x) + lambda phi(x)^T V^-1 phi(x)`
//! (Algorithm 1 lines 6-8 and 12-13; Algorithm 3 lines 7-9 and 13-14), and the learner state
//! built on them ([`NystromPosterior`]): what ATA-GP-UCB and MoMA-GP-UCB keep between rounds
//! apart from their own estimate of `theta` (truncation, median of means).

use bandit::policy::{FixedArms, ucb_argmax};
use std::sync::Arc;

use kernel::Kernel;
use kernel::features::{FeatureMap, NystromEmbedding, nystrom_features_from_gram};
use kernel::linalg::{PINV_RCOND, symmetric_eigen};
use ndarray::{Array1, Array2, ArrayView1, ArrayView2, Axis};
use rand::{Rng, RngExt};

use crate::error::LdpBoError;
use crate::ucb::scaled_width;

/// The embedding of one round (or epoch) and the matrices built from it.
#[derive(Debug, Clone)]
pub(crate) struct NystromStep {
    /// `phi(a)` of every arm `a`, one row per arm (`n x m`).
    pub features: Array2<f64>,
    /// `V = sum_i phi(x_i) phi(x_i)^T + lambda I` over the played points `x_i` (`m x m`).
    pub v: Array2<f64>,
    /// `V^{-1/2}`.
    pub v_inv_sqrt: Array2<f64>,
    /// The whitened features `g(a) = V^{-1/2} phi(a)` of every arm, one row per arm
    /// (`n x m`): the columns of `U` in Algorithm 1 line 9, and `lambda |g(a)|^2 =
    /// lambda phi(a)^T V^{-1} phi(a)` in the variance.
    pub whitened: Array2<f64>,
}

impl NystromStep {
    /// The dimension `m` of the embedding.
    pub fn dim(&self) -> usize {
        self.features.ncols()
    }

    /// Algorithm 4, lines 3-5, on the multiset of played arms (`counts[a]` plays of arm `a`),
    /// with the posterior variances `variance[a] = sigma^2_{t-1}(a)` of the previous round:
    /// the dictionary, as arm indices in increasing order.
    ///
    /// Algorithm 4 draws one Bernoulli(`p_a = min(q sigma^2(a), 1)`) per *play* and adds the
    /// point to the dictionary if any draw succeeds (line 5 is a set union). For an arm played
    /// `c_a` times that is one Bernoulli(`1 - (1 - p_a)^c_a`) draw, which is what we sample: the
    /// same distribution of dictionaries with one random number per arm instead of one per play.
    pub fn dictionary<R: Rng + ?Sized>(
        counts: &[usize],
        variance: ArrayView1<'_, f64>,
        q: f64,
        rng: &mut R,
    ) -> Vec<usize> {
        let mut dictionary = Vec::new();
        for (a, &c) in counts.iter().enumerate() {
            if c == 0 {
                continue;
            }
            let p = (q * variance[a].max(0.0)).min(1.0);
            let include = 1.0 - (1.0 - p).powi(c.min(i32::MAX as usize) as i32);
            if rng.random::<f64>() < include {
                dictionary.push(a);
            }
        }
        dictionary
    }

    /// Line 7 of Algorithm 4 from the kernel: the features `phi(a)` of every arm for the given
    /// dictionary (arm indices), `n x m`.
    pub fn features<K: Kernel>(
        kernel: &K,
        arms: ArrayView2<'_, f64>,
        dictionary: &[usize],
    ) -> Result<Array2<f64>, LdpBoError> {
        let embedding = NystromEmbedding::from_indices(kernel, arms, dictionary, PINV_RCOND)?;
        Ok(embedding.map_batch(arms)?)
    }

    /// The deterministic part: embedding of the given dictionary (arm indices) and `V`.
    #[cfg(test)]
    pub fn from_dictionary<K: Kernel>(
        kernel: &K,
        arms: ArrayView2<'_, f64>,
        counts: &[usize],
        dictionary: &[usize],
        lambda: f64,
    ) -> Result<Self, LdpBoError> {
        Self::from_features(Self::features(kernel, arms, dictionary)?, counts, lambda)
    }

    /// Line 7 of Algorithm 4 done (`features` holds `phi(a)` of every arm, `n x m`): the
    /// design matrix `V` of line 8 (Algorithm 1) / line 9 (Algorithm 3), its inverse square
    /// root and the whitened features.
    pub fn from_features(
        features: Array2<f64>,
        counts: &[usize],
        lambda: f64,
    ) -> Result<Self, LdpBoError> {
        let m = features.ncols();
        // V = Phi^T diag(counts) Phi + lambda I.
        let weights = Array1::from_iter(counts.iter().map(|&c| c as f64));
        let weighted = &features * &weights.view().insert_axis(Axis(1));
        let mut v = features.t().dot(&weighted);
        for i in 0..m {
            v[[i, i]] += lambda;
        }
        // Exact symmetry for the eigensolver (the product is symmetric up to round-off).
        let v = (&v + &v.t()) * 0.5;
        let eig = symmetric_eigen("V = Phi^T Phi + lambda I", v.view())?;
        let v_inv_sqrt = eig.map_values(|x| 1.0 / x.sqrt());
        let whitened = features.dot(&v_inv_sqrt);
        Ok(Self {
            features,
            v,
            v_inv_sqrt,
            whitened,
        })
    }

    /// `V^{-1} = V^{-1/2} V^{-1/2}`.
    pub fn v_inv(&self) -> Array2<f64> {
        self.v_inv_sqrt.dot(&self.v_inv_sqrt)
    }

    /// Lines 12-13 (Algorithm 1) / 13-14 (Algorithm 3): the mean `phi(a)^T theta` and the
    /// variance `k(a,a) - |phi(a)|^2 + lambda phi(a)^T V^-1 phi(a)` (clamped at 0) of every arm,
    /// the last term computed as `lambda |g(a)|^2` from the whitened features.
    pub fn posterior(
        &self,
        theta: ArrayView1<'_, f64>,
        prior_variance: ArrayView1<'_, f64>,
        lambda: f64,
    ) -> (Array1<f64>, Array1<f64>) {
        let mean = self.features.dot(&theta);
        let variance = Array1::from_iter(
            self.features
                .rows()
                .into_iter()
                .zip(self.whitened.rows())
                .zip(prior_variance.iter())
                .map(|((phi, g), &k)| (k - phi.dot(&phi) + lambda * g.dot(&g)).max(0.0)),
        );
        (mean, variance)
    }
}

/// Up to this many arms the Gram matrix on the arms is computed once and kept (`8 n^2` bytes:
/// 32 MiB at the limit, shared between clones) instead of evaluating the kernel between the
/// dictionary and every arm in every update.
pub(crate) const GRAM_CACHE_MAX_ARMS: usize = 2048;

/// The state Algorithms 1 and 3 share between updates: the arms and kernel, the plays per arm,
/// the approximate posterior (`mu`, `sigma^2`) and the width `beta` of the coming choice.
///
/// An update (Algorithm 1 lines 6-13, Algorithm 3 lines 7-14) is [`NystromPosterior::sample`]
/// (the embedding with `sigma_{t-1}`, Algorithm 4, and `V`), the algorithm's own estimate of
/// `theta` from that step, then [`NystromPosterior::refit`] (mean and variance with `theta`,
/// the next `beta`). The UCB choice (Algorithm 1 line 4, Algorithm 3 line 5) keeps the
/// function-norm term `B(1 + 1/sqrt(1-e))` of the theorems' `beta` (Theorems 2 and 4) and
/// multiplies the rest by `beta_scale` ([`scaled_width`]).
#[derive(Debug, Clone)]
pub(crate) struct NystromPosterior<K> {
    arms: FixedArms,
    kernel: K,
    /// The kernel's Gram matrix on the arms (when `n <= GRAM_CACHE_MAX_ARMS`): every update
    /// needs the kernel between the dictionary and all arms, which is then a selection.
    gram: Option<Arc<Array2<f64>>>,
    /// The last dictionary and its features: a dictionary drawn again (every played arm
    /// included, as happens once `q sigma^2 >= 1` on the played arms) reuses them.
    last_embedding: Option<(Vec<usize>, Array2<f64>)>,
    lambda: f64,
    q: f64,
    /// `B(1 + 1/sqrt(1-e))`, the term of `beta` the scale leaves alone.
    bias: f64,
    beta_scale: f64,
    /// `k(a, a)` of every arm: `sigma_0^2`.
    prior_variance: Array1<f64>,
    /// How often each arm was played (Algorithm 1) or chosen for an epoch (Algorithm 3).
    counts: Vec<usize>,
    mean: Array1<f64>,
    variance: Array1<f64>,
    beta: f64,
    dim: usize,
    /// A play (or epoch) was recorded since the last [`NystromPosterior::refit`].
    update_due: bool,
}

impl<K: Kernel> NystromPosterior<K> {
    /// The prior (Algorithm 1 line 2): `mu_0 = 0`, `sigma_0^2(x) = k(x, x)`, with the width
    /// `beta_1` from `m_0 = 0`; `q` is Algorithm 4's oversampling, `lambda` the regulariser.
    pub fn new(
        kernel: K,
        arms: FixedArms,
        lambda: f64,
        q: f64,
        bias: f64,
        beta_scale: f64,
        beta: f64,
    ) -> Result<Self, LdpBoError> {
        let prior_variance = kernel.diag(arms.arms())?;
        let n = arms.len();
        let gram = if n <= GRAM_CACHE_MAX_ARMS {
            Some(Arc::new(kernel.gram(arms.arms())?))
        } else {
            None
        };
        Ok(Self {
            gram,
            last_embedding: None,
            mean: Array1::zeros(n),
            variance: prior_variance.clone(),
            counts: vec![0; n],
            arms,
            kernel,
            lambda,
            q,
            bias,
            beta_scale,
            prior_variance,
            beta,
            dim: 0,
            update_due: false,
        })
    }

    /// The arm set, checked against the one offered.
    pub fn check(&self, decision_set: ArrayView2<'_, f64>) -> Result<(), LdpBoError> {
        Ok(self.arms.check(decision_set)?)
    }

    /// `q` of Algorithm 4 in use.
    pub fn q(&self) -> f64 {
        self.q
    }

    /// The current approximate posterior mean and variance of every arm.
    pub fn posterior(&self) -> (&Array1<f64>, &Array1<f64>) {
        (&self.mean, &self.variance)
    }

    /// The dimension `m` of the current embedding.
    pub fn feature_dim(&self) -> usize {
        self.dim
    }

    /// Whether a play was recorded since the last update.
    pub fn update_due(&self) -> bool {
        self.update_due
    }

    /// Count one more play of arm `a`; the next selection updates first.
    pub fn record(&mut self, a: usize) {
        self.counts[a] += 1;
        self.update_due = true;
    }

    /// The UCB choice `argmax mu(x) + w sigma(x)` with `w` the bias term of `beta` plus
    /// `beta_scale` times its concentration term.
    pub fn ucb_argmax<R: Rng + ?Sized>(&self, rng: &mut R) -> Result<usize, LdpBoError> {
        let width = scaled_width(self.bias, self.beta, self.beta_scale);
        Ok(ucb_argmax(
            self.mean.view(),
            self.variance.view(),
            width,
            rng,
        )?)
    }

    /// The first part of an update: Algorithm 4 on the plays so far with the current
    /// variances ([`NystromStep::dictionary`]), the features (those of the last dictionary when
    /// it is drawn again), and `V` ([`NystromStep::from_features`]).
    pub fn sample<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Result<NystromStep, LdpBoError> {
        let dictionary = NystromStep::dictionary(&self.counts, self.variance.view(), self.q, rng);
        let features = match &self.last_embedding {
            Some((last, features)) if *last == dictionary => features.clone(),
            _ => {
                let features = match &self.gram {
                    Some(gram) => nystrom_features_from_gram(gram.view(), &dictionary, PINV_RCOND)?,
                    None => NystromStep::features(&self.kernel, self.arms.arms(), &dictionary)?,
                };
                self.last_embedding = Some((dictionary, features.clone()));
                features
            }
        };
        NystromStep::from_features(features, &self.counts, self.lambda)
    }

    /// The last part of an update: the mean and variance of `step` with the algorithm's
    /// `theta` ([`NystromStep::posterior`]), and the width `beta` of the next choice.
    pub fn refit(&mut self, step: &NystromStep, theta: ArrayView1<'_, f64>, beta: f64) {
        let (mean, variance) = step.posterior(theta, self.prior_variance.view(), self.lambda);
        self.mean = mean;
        self.variance = variance;
        self.dim = step.dim();
        self.beta = beta;
        self.update_due = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kernel::SquaredExponential;
    use kernel::gp::FiniteDomainGp;
    use ndarray::Array2;

    /// With every played arm in the dictionary, the Nyström embedding is exact on the played
    /// points, so the approximate posterior equals the exact one (weight-space identity).
    #[test]
    fn full_dictionary_gives_the_exact_posterior() {
        let arms = Array2::from_shape_fn((12, 1), |(i, _)| i as f64 / 11.0);
        let k = SquaredExponential::isotropic(0.3).unwrap();
        let plays = [2usize, 5, 5, 9, 2, 2, 11];
        let ys = [0.3, -0.1, 0.4, 1.0, 0.2, 0.25, -0.5];
        let mut counts = vec![0usize; 12];
        let mut gp = FiniteDomainGp::new(k.clone(), arms.view(), 0.7, false).unwrap();
        for (&a, &y) in plays.iter().zip(&ys) {
            counts[a] += 1;
            gp.observe(a, y).unwrap();
        }
        let dict: Vec<usize> = (0..12).filter(|&a| counts[a] > 0).collect();
        let step = NystromStep::from_dictionary(&k, arms.view(), &counts, &dict, 0.7).unwrap();
        // theta = V^-1 Phi^T y.
        let mut phity = Array1::zeros(step.dim());
        for (&a, &y) in plays.iter().zip(&ys) {
            phity += &step.features.row(a).mapv(|v| v * y);
        }
        let theta = step.v_inv().dot(&phity);
        let prior = Array1::ones(12);
        let (mean, var) = step.posterior(theta.view(), prior.view(), 0.7);
        let exact_var = gp.variance();
        for a in 0..12 {
            assert!(
                (mean[a] - gp.mean()[a]).abs() < 1e-8,
                "mean {a}: {} vs {}",
                mean[a],
                gp.mean()[a]
            );
            assert!((var[a] - exact_var[a]).abs() < 1e-8, "var {a}");
        }
    }

    #[test]
    fn empty_dictionary_is_the_prior() {
        let arms = Array2::from_shape_fn((4, 1), |(i, _)| i as f64);
        let k = SquaredExponential::isotropic(1.0).unwrap();
        let step = NystromStep::from_dictionary(&k, arms.view(), &[1, 0, 0, 0], &[], 1.0).unwrap();
        assert_eq!(step.dim(), 0);
        let (mean, var) = step.posterior(Array1::zeros(0).view(), Array1::ones(4).view(), 1.0);
        assert!(mean.iter().all(|&m| m == 0.0));
        assert!(var.iter().all(|&v| (v - 1.0).abs() < 1e-15));
    }
}
