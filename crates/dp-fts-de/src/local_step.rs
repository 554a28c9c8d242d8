//! The agent's local Thompson step (Algorithm 2, line 6) by name: the weight-space sample on
//! the shared features (our default, erratum 14), the paper's exact-GP sample of eq. (1), and
//! the authors' practices (erratum 15): fresh random features per sample, `beta = 1`,
//! repeated queries replaced, hyperparameters refitted by maximum marginal likelihood.
//!
//! Whatever the local step, the vector an agent sends (line 10) is the weight-space draw on
//! the shared features (Sec. 3.1): the server's aggregation, its sensitivity and the privacy
//! claim do not depend on the local step.

use std::sync::Arc;

use kernel::linalg::Cholesky;
use kernel::{
    FeatureMap, Kernel, Lengthscales, RandomFourierFeatures, SquaredExponential, WeightSpaceGp,
};
use ndarray::{Array1, Array2, ArrayView2};
use rand::{Rng, RngExt};
use rand_distr::{Distribution, StandardNormal};
use serde::{Deserialize, Serialize};

use crate::error::DpFtsDeError;

/// The model an agent samples from at line 6.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LocalStep {
    /// `w ~ N(nu_t, beta^2 lambda Sigma_t^-1)` on the `M` shared features, `argmax_x phi(x)^T w`
    /// (the RFF approximation of Sec. 2; erratum 14). The default: the reproductions and
    /// snapshots use it.
    #[default]
    WeightSpace,
    /// The paper's eq. (1): `f ~ GP(mu_t, beta^2 sigma_t^2)` jointly on the finite domain,
    /// exact posterior of the SE kernel (the preset's lengthscale, variance 1, noise `lambda`)
    /// on the agent's own observations, by pathwise conditioning ([`ExactPrior`]).
    ExactGp,
    /// The authors' code: each sample draws `features` fresh random Fourier features (of the
    /// SE kernel with the agent's current hyperparameters, from the agent's own stream) and
    /// samples the weight-space posterior on them (erratum 15; the authors use 100).
    FreshFeatures {
        /// Features per sample.
        features: usize,
    },
}

impl LocalStep {
    /// Its name, as `reproduce --preset` and the docs write it.
    pub fn name(self) -> String {
        match self {
            Self::WeightSpace => "weight-space".into(),
            Self::ExactGp => "exact-gp".into(),
            Self::FreshFeatures { features } => format!("fresh-features-{features}"),
        }
    }
}

/// The local step with the authors' two further practices (erratum 15).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct LocalSettings {
    /// The model sampled at line 6.
    pub step: LocalStep,
    /// Replace a query equal to one of the agent's earlier queries by a uniformly random point
    /// of the whole domain (the authors' code; drawn from the agent's stream after the choice).
    pub replace_repeats: bool,
    /// Refit the SE kernel's lengthscale, variance and noise by maximum marginal likelihood on
    /// the agent's own observations every this many observations (the authors: 5; `None`:
    /// never). Only with [`LocalStep::FreshFeatures`] (the shared features fix the
    /// lengthscale of the weight-space step, and the exact step's prior factor is built once).
    pub refit_every: Option<usize>,
}

impl LocalSettings {
    /// The authors' practices together: 100 fresh features per sample, repeated queries
    /// replaced, hyperparameters refitted every 5 observations (use with `beta = 1`,
    /// [`crate::BetaRule::Constant`]).
    pub const AUTHORS: Self = Self {
        step: LocalStep::FreshFeatures { features: 100 },
        replace_repeats: true,
        refit_every: Some(5),
    };

    /// Check the combination: at least one fresh feature; a refit only with fresh features and
    /// a period of at least 1.
    pub fn check(&self) -> Result<(), DpFtsDeError> {
        if let LocalStep::FreshFeatures { features } = self.step {
            validation::at_least_one("fresh features per sample", features)?;
        }
        if let Some(k) = self.refit_every {
            validation::at_least_one("refit period (observations)", k)?;
            if !matches!(self.step, LocalStep::FreshFeatures { .. }) {
                return Err(DpFtsDeError::Setting(format!(
                    "a hyperparameter refit needs the fresh-features local step, not {}",
                    self.step.name()
                )));
            }
        }
        Ok(())
    }
}

/// Relative jitter added to the prior Gram matrix before its Cholesky factorisation (the
/// SE Gram matrix of a dense grid is numerically singular): the exact step samples the prior
/// `N(0, K + j I)` with `j = EXACT_PRIOR_JITTER * max_x k(x, x)`, the first of `j, 10 j, ...`
/// (at most 6 tries) that factorises. Next to the model's noise `lambda` (0.01 in the
/// synthetic preset) a variance of `1e-10` is invisible.
pub const EXACT_PRIOR_JITTER: f64 = 1e-10;

/// The SE prior on the finite domain, shared by the agents of one federation: the Gram matrix
/// `K` (`|X| x |X|`) and a lower factor `L`, `L L^T = K + j I` ([`EXACT_PRIOR_JITTER`]).
///
/// # Pathwise conditioning (Wilson et al. 2020, eq. (13))
///
/// With `f_0 ~ N(0, K)` on the domain and `e ~ N(0, lambda I_t)`,
/// `g = f_0 - K_{X,t} (K_t + lambda I)^{-1} (f_0(x_{1..t}) + e)` is distributed as
/// `N(0, K - K_{X,t} (K_t + lambda I)^{-1} K_{t,X}) = N(0, Sigma_t)`, the posterior covariance
/// of eq. (1); so `mu_t + beta g = beta f_0 + K_{X,t} (alpha - beta v)`, with
/// `alpha = (K_t + lambda I)^{-1} y_t` and `v = (K_t + lambda I)^{-1} (f_0(x_{1..t}) + e)`, is a
/// draw of `GP(mu_t, beta^2 sigma_t^2)` on the whole domain: `O(|X|^2)` for `f_0 = L z`,
/// `O(t^2 + |X| t)` for the rest, instead of factorising `Sigma_t` (`O(|X|^3)`) per sample.
#[derive(Debug, Clone)]
pub struct ExactPrior {
    gram: Array2<f64>,
    factor: Array2<f64>,
    jitter: f64,
}

impl ExactPrior {
    /// The prior of the SE kernel with `lengthscale` (variance 1) on `points` (`|X| x d`).
    pub fn new(points: ArrayView2<'_, f64>, lengthscale: f64) -> Result<Arc<Self>, DpFtsDeError> {
        let kernel = SquaredExponential::isotropic(lengthscale)?;
        let gram = kernel.gram(points)?;
        let base = EXACT_PRIOR_JITTER * gram.diag().iter().fold(0.0f64, |m, &v| m.max(v));
        let mut jitter = base;
        for _ in 0..6 {
            let mut a = gram.clone();
            a.diag_mut().mapv_inplace(|v| v + jitter);
            if let Ok(c) = Cholesky::factor("exact-GP prior Gram matrix", a.view()) {
                return Ok(Arc::new(Self {
                    factor: c.lower(),
                    gram,
                    jitter,
                }));
            }
            jitter *= 10.0;
        }
        Err(DpFtsDeError::Setting(format!(
            "the SE Gram matrix (lengthscale {lengthscale}) does not factorise with jitter up \
             to {jitter:e}"
        )))
    }

    /// The jitter `j` actually used.
    pub fn jitter(&self) -> f64 {
        self.jitter
    }

    /// `K`.
    pub fn gram(&self) -> ArrayView2<'_, f64> {
        self.gram.view()
    }
}

/// The agent's state for its local step besides the shared weight-space posterior.
#[derive(Debug, Clone)]
pub(crate) enum LocalModel {
    /// Nothing more: the shared weight-space posterior is sampled.
    WeightSpace,
    /// The exact posterior: the prior, the observed indices and values, and the Cholesky
    /// factor of `K_t + lambda I`, grown by one row per observation.
    Exact {
        prior: Arc<ExactPrior>,
        lambda: f64,
        chol: Cholesky,
    },
    /// Fresh features per sample, with the current SE hyperparameters.
    Fresh {
        features: usize,
        lengthscale: f64,
        variance: f64,
        lambda: f64,
    },
}

impl LocalModel {
    /// One observation at `x` (domain index) with the agent's earlier ones `xs` (before it).
    pub(crate) fn observe(&mut self, xs: &[usize], x: usize) -> Result<(), DpFtsDeError> {
        if let Self::Exact {
            prior,
            lambda,
            chol,
        } = self
        {
            let b: Array1<f64> = xs.iter().map(|&i| prior.gram[[i, x]]).collect();
            chol.extend(b.view(), prior.gram[[x, x]] + *lambda)?;
        }
        Ok(())
    }

    /// A Thompson sample of the objective on the whole domain (line 6), scaled by `beta`,
    /// given the agent's observations `(xs, ys)`; `points` are the domain's rows.
    pub(crate) fn sample<R: Rng + ?Sized>(
        &self,
        points: ArrayView2<'_, f64>,
        xs: &[usize],
        ys: &[f64],
        beta: f64,
        rng: &mut R,
    ) -> Result<Array1<f64>, DpFtsDeError> {
        match self {
            Self::WeightSpace => Err(DpFtsDeError::Setting(
                "the weight-space step samples the shared posterior".into(),
            )),
            Self::Exact {
                prior,
                lambda,
                chol,
            } => {
                let n = prior.gram.nrows();
                let z: Array1<f64> = (0..n).map(|_| StandardNormal.sample(rng)).collect();
                let f0 = prior.factor.dot(&z);
                let noisy: Array1<f64> = xs
                    .iter()
                    .map(|&i| {
                        let e: f64 = StandardNormal.sample(rng);
                        f0[i] + lambda.sqrt() * e
                    })
                    .collect();
                let v = chol.solve(noisy.view())?;
                let y = Array1::from(ys.to_vec());
                let alpha = chol.solve(y.view())?;
                let coef = &alpha - &(&v * beta);
                let mut f = f0 * beta;
                for (k, &i) in xs.iter().enumerate() {
                    f.scaled_add(coef[k], &prior.gram.column(i));
                }
                Ok(f)
            }
            Self::Fresh {
                features,
                lengthscale,
                variance,
                lambda,
            } => {
                let kernel =
                    SquaredExponential::new(*variance, Lengthscales::Isotropic(*lengthscale))?;
                let rff = RandomFourierFeatures::new(kernel, points.ncols(), *features, rng)?;
                let phi = rff.map_batch(points)?;
                let mut gp = WeightSpaceGp::new(*features, *lambda)?;
                for (&i, &y) in xs.iter().zip(ys) {
                    gp.observe(phi.row(i), y)?;
                }
                let z: Array1<f64> = (0..*features)
                    .map(|_| {
                        let e: f64 = StandardNormal.sample(rng);
                        beta * e
                    })
                    .collect();
                let w = gp.sample_theta_with(z.view())?;
                Ok(phi.dot(&w))
            }
        }
    }

    /// Refit the fresh-features model's hyperparameters by maximum marginal likelihood on
    /// `(points[xs], ys)` (a no-op for the other models).
    pub(crate) fn refit(
        &mut self,
        points: ArrayView2<'_, f64>,
        xs: &[usize],
        ys: &[f64],
    ) -> Result<(), DpFtsDeError> {
        if let Self::Fresh {
            lengthscale,
            variance,
            lambda,
            ..
        } = self
        {
            let x = points.select(ndarray::Axis(0), xs);
            let y = Array1::from(ys.to_vec());
            let fit =
                kernel::fit_squared_exponential(x.view(), y.view(), &kernel::SeBounds::default())?;
            *lengthscale = fit.lengthscale;
            *variance = fit.variance;
            *lambda = fit.lambda;
        }
        Ok(())
    }
}

/// A uniformly random point index of a domain of `n` points (a repeated query's replacement).
pub(crate) fn uniform_point<R: Rng + ?Sized>(n: usize, rng: &mut R) -> usize {
    rng.random_range(0..n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use kernel::ExactGp;
    use ndarray::array;
    use rand::SeedableRng;
    use rand_chacha::ChaCha20Rng;

    /// The pathwise sample of [`LocalModel::Exact`] is `GP(mu_t, beta^2 Sigma_t)` of eq. (1)
    /// jointly: over `n = 40 000` samples at 6 points with 3 observations (one repeated),
    /// every sample mean is within `5.6` standard errors of `mu_t` (exact Gaussian bound; the 6
    /// coordinates together fail with probability below `1.3e-7`), and every entry of the
    /// sample covariance within 6 of its standard deviations `sqrt((S_ii S_jj + S_ij^2) / n)`
    /// of `S = beta^2 Sigma_t` (21 entries, normal approximation at this `n`: below `5e-8`).
    /// Checked by breaking it: without the conditioning noise `e`, or with `beta` left off the
    /// prior draw, the covariances fail.
    #[test]
    fn the_exact_step_samples_the_posterior_of_eq_1() {
        let points = array![[0.0], [0.1], [0.25], [0.4], [0.7], [1.0]];
        let (ls, lambda, beta) = (0.2, 0.05, 1.5);
        let prior = ExactPrior::new(points.view(), ls).unwrap();
        let mut model = LocalModel::Exact {
            prior: Arc::clone(&prior),
            lambda,
            chol: Cholesky::empty(),
        };
        let (xs, ys) = (vec![1, 4, 1], vec![0.3, -0.5, 0.4]);
        for k in 0..xs.len() {
            model.observe(&xs[..k], xs[k]).unwrap();
        }
        let obs = points.select(ndarray::Axis(0), &xs);
        let gp = ExactGp::from_data(
            SquaredExponential::isotropic(ls).unwrap(),
            lambda,
            obs.view(),
            Array1::from(ys.clone()).view(),
        )
        .unwrap();
        let (mu, cov) = gp.predict_cov(points.view()).unwrap();
        let cov = cov * (beta * beta);
        let n = 40_000;
        let mut rng = ChaCha20Rng::seed_from_u64(17);
        let mut sum = Array1::<f64>::zeros(6);
        let mut cross = ndarray::Array2::<f64>::zeros((6, 6));
        for _ in 0..n {
            let f = model
                .sample(points.view(), &xs, &ys, beta, &mut rng)
                .unwrap();
            sum += &f;
            for i in 0..6 {
                for j in 0..6 {
                    cross[[i, j]] += f[i] * f[j];
                }
            }
        }
        let nf = n as f64;
        let m = &sum / nf;
        for i in 0..6 {
            let se = (cov[[i, i]] / nf).sqrt();
            assert!(
                (m[i] - mu[i]).abs() <= 5.6 * se,
                "mean {i}: {} vs {}",
                m[i],
                mu[i]
            );
            for j in 0..=i {
                let c = (cross[[i, j]] - nf * m[i] * m[j]) / (nf - 1.0);
                let sd = ((cov[[i, i]] * cov[[j, j]] + cov[[i, j]] * cov[[i, j]]) / nf).sqrt();
                assert!(
                    (c - cov[[i, j]]).abs() <= 6.0 * sd,
                    "covariance ({i}, {j}): {c} vs {}",
                    cov[[i, j]]
                );
            }
        }
        assert!(prior.jitter() <= 1e-9);
    }

    /// The jitter the exact step needs on the synthetic preset's domain (1000 grid points of
    /// `[0, 1]`, lengthscale 0.03), as the docs state it (erratum 14).
    #[test]
    fn the_synthetic_prior_factorises_with_the_documented_jitter() {
        let p = crate::problem::FederatedProblem::synthetic(2, &mut ChaCha20Rng::seed_from_u64(1))
            .unwrap();
        let prior = ExactPrior::new(p.domain().points(), 0.03).unwrap();
        // The first try, 1e-10 times the prior variance 1 (no escalation).
        assert!(
            (prior.jitter() / 1e-10 - 1.0).abs() < 1e-12,
            "{}",
            prior.jitter()
        );
    }

    #[test]
    fn settings_are_checked() {
        assert!(LocalSettings::AUTHORS.check().is_ok());
        assert!(LocalSettings::default().check().is_ok());
        let refit_shared = LocalSettings {
            refit_every: Some(5),
            ..LocalSettings::default()
        };
        assert!(refit_shared.check().is_err());
        let zero = LocalSettings {
            step: LocalStep::FreshFeatures { features: 0 },
            ..LocalSettings::default()
        };
        assert!(zero.check().is_err());
        let period0 = LocalSettings {
            refit_every: Some(0),
            ..LocalSettings::AUTHORS
        };
        assert!(period0.check().is_err());
    }
}
