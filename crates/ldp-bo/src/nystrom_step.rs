//! What Algorithms 1 and 3 share: the Nyström embedding of the played points (Algorithm 4),
//! the design matrix `V = Phi^T Phi + lambda I`, and the approximate posterior
//! `mu(x) = phi(x)^T theta`, `sigma^2(x) = k(x,x) - phi(x)^T phi(x) + lambda phi(x)^T V^-1 phi(x)`
//! (Algorithm 1 lines 6-8 and 12-13; Algorithm 3 lines 7-9 and 13-14).

use kernel::Kernel;
use kernel::features::{FeatureMap, NystromEmbedding};
use kernel::linalg::{PINV_RCOND, symmetric_eigen};
use ndarray::{Array1, Array2, ArrayView1, ArrayView2, Axis};
use rand::{Rng, RngExt};

use crate::error::LdpBoError;

/// The embedding of one round (or epoch) and the matrices built from it.
#[derive(Debug, Clone)]
pub(crate) struct NystromStep {
    /// `phi(a)` of every arm `a`, one row per arm (`n x m`).
    pub features: Array2<f64>,
    /// `V = sum_i phi(x_i) phi(x_i)^T + lambda I` over the played points `x_i` (`m x m`).
    pub v: Array2<f64>,
    /// `V^{-1/2}`.
    pub v_inv_sqrt: Array2<f64>,
    /// `V^{-1}`.
    pub v_inv: Array2<f64>,
}

impl NystromStep {
    /// The dimension `m` of the embedding.
    pub fn dim(&self) -> usize {
        self.features.ncols()
    }

    /// Algorithm 4 on the multiset of played arms (`counts[a]` plays of arm `a`), with the
    /// posterior variances `variance[a] = sigma^2_{t-1}(a)` of the previous round, and the
    /// design matrix of line 8 (Algorithm 1) / line 9 (Algorithm 3).
    ///
    /// Algorithm 4 draws one Bernoulli(`p_a = min(q sigma^2(a), 1)`) per *play* and adds the
    /// point to the dictionary if any draw succeeds (line 5 is a set union). For an arm played
    /// `c_a` times that is one Bernoulli(`1 - (1 - p_a)^c_a`) draw, which is what we sample: the
    /// same distribution of dictionaries with one random number per arm instead of one per play.
    pub fn sample<K: Kernel, R: Rng + ?Sized>(
        kernel: &K,
        arms: ArrayView2<'_, f64>,
        counts: &[usize],
        variance: ArrayView1<'_, f64>,
        q: f64,
        lambda: f64,
        rng: &mut R,
    ) -> Result<Self, LdpBoError> {
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
        Self::from_dictionary(kernel, arms, counts, &dictionary, lambda)
    }

    /// The deterministic part: embedding of the given dictionary (arm indices) and `V`.
    pub fn from_dictionary<K: Kernel>(
        kernel: &K,
        arms: ArrayView2<'_, f64>,
        counts: &[usize],
        dictionary: &[usize],
        lambda: f64,
    ) -> Result<Self, LdpBoError> {
        let embedding = NystromEmbedding::from_indices(kernel, arms, dictionary, PINV_RCOND)?;
        let features = embedding.map_batch(arms)?;
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
        let v_inv = eig.map_values(|x| 1.0 / x);
        Ok(Self {
            features,
            v,
            v_inv_sqrt,
            v_inv,
        })
    }

    /// Lines 12-13 (Algorithm 1) / 13-14 (Algorithm 3): the mean `phi(a)^T theta` and the
    /// variance `k(a,a) - |phi(a)|^2 + lambda phi(a)^T V^-1 phi(a)` (clamped at 0) of every arm.
    pub fn posterior(
        &self,
        theta: ArrayView1<'_, f64>,
        prior_variance: ArrayView1<'_, f64>,
        lambda: f64,
    ) -> (Array1<f64>, Array1<f64>) {
        let mean = self.features.dot(&theta);
        let projected = self.features.dot(&self.v_inv);
        let variance = Array1::from_iter(
            self.features
                .rows()
                .into_iter()
                .zip(projected.rows())
                .zip(prior_variance.iter())
                .map(|((phi, vphi), &k)| (k - phi.dot(&phi) + lambda * phi.dot(&vphi)).max(0.0)),
        );
        (mean, variance)
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
        let theta = step.v_inv.dot(&phity);
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
