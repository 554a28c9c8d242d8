//! The weight-space (feature-space) GP posterior.

use ndarray::{Array1, Array2, ArrayView1, ArrayView2, Axis};
use rand::Rng;
use rand_distr::{Distribution, StandardNormal};

use super::regulariser;
use crate::error::{InputError, KernelError};
use crate::linalg::Cholesky;
use validation::ensure_finite;

/// The weight-space GP posterior for features `phi: X -> R^m`.
///
/// # Formula
///
/// With `Phi_t` the `t x m` matrix of observed features and `y_t` the values
/// (Dai et al. 2021, eq. (2); Dubey 2021, Section 3; Zhou & Tan 2021, Algorithm 3 lines 9-14):
///
/// - `V_t = Phi_t^T Phi_t + lambda I_m`, `b_t = Phi_t^T y_t`, `theta_t = V_t^{-1} b_t`;
/// - mean `mu_t(x) = phi(x)^T theta_t`;
/// - variance `sigma_t^2(x) = lambda phi(x)^T V_t^{-1} phi(x)`;
/// - Thompson sample `theta ~ N(theta_t, lambda V_t^{-1})`.
///
/// By the push-through identity `(Phi^T Phi + lambda I)^{-1} Phi^T = Phi^T (Phi Phi^T +
/// lambda I)^{-1}`, when the features are exact (`phi(x)^T phi(y) = k(x, y)` on the points
/// involved) the mean equals the function-space `mu_t(x)` and
/// `lambda phi^T V^{-1} phi = phi^T phi - phi^T Phi^T (K_t + lambda I)^{-1} Phi phi`
/// equals the function-space `sigma_t^2(x)` of [`ExactGp`](super::ExactGp). With approximate
/// features it is the posterior of the approximating kernel `phi(x)^T phi(y)`. (Zhou & Tan's
/// Algorithm 3, line 14 adds the Nyström residual `k(x, x) - phi(x)^T phi(x)`:
/// [`WeightSpaceGp::predict`] does not, callers add it.)
///
/// Each observation is a rank-one update `V <- V + phi phi^T` of the Cholesky factor of `V`
/// in O(m^2), after which `theta` is refreshed by two triangular solves, also O(m^2).
///
/// # Examples
///
/// With exact features (a Nyström embedding whose dictionary holds every point) the weight
/// space equals the function space of [`ExactGp`](super::ExactGp):
///
/// ```
/// use kernel::linalg::PINV_RCOND;
/// use kernel::{ExactGp, FeatureMap, NystromEmbedding, SquaredExponential, WeightSpaceGp};
/// use ndarray::array;
///
/// let k = SquaredExponential::isotropic(0.3)?;
/// let points = array![[0.0], [0.25], [0.5], [0.75], [1.0]];
/// let phi = NystromEmbedding::from_indices(&k, points.view(), &[0, 1, 2, 3, 4], PINV_RCOND)?
///     .map_batch(points.view())?;
/// let (idx, y) = ([1, 3, 3], array![0.4, -0.1, 0.1]);
///
/// let mut ws = WeightSpaceGp::new(phi.ncols(), 0.5)?;
/// let mut fs = ExactGp::new(&k, 0.5)?;
/// for (&i, &yi) in idx.iter().zip(&y) {
///     ws.observe(phi.row(i), yi)?;
///     fs.observe(points.row(i), yi)?;
/// }
/// let (m1, v1) = ws.predict(phi.view())?;
/// let (m2, v2) = fs.predict(points.view())?;
/// assert!((&m1 - &m2).iter().chain((&v1 - &v2).iter()).all(|d| d.abs() < 1e-8));
/// # Ok::<(), kernel::KernelError>(())
/// ```
#[derive(Debug, Clone)]
pub struct WeightSpaceGp {
    lambda: f64,
    chol: Cholesky,
    b: Array1<f64>,
    theta: Array1<f64>,
    t: usize,
}

impl WeightSpaceGp {
    /// The prior (`V = lambda I`, `theta = 0`) for `m` features, `lambda > 0`.
    pub fn new(m: usize, lambda: f64) -> Result<Self, KernelError> {
        let lambda = regulariser(lambda)?;
        let v = Array2::<f64>::eye(m) * lambda;
        Ok(Self {
            lambda,
            chol: Cholesky::factor("lambda I", v.view())?,
            b: Array1::zeros(m),
            theta: Array1::zeros(m),
            t: 0,
        })
    }

    /// The posterior from the sufficient statistics `G = Phi^T Phi` (`m x m`, symmetric PSD)
    /// and `b = Phi^T y`, as a server sees them after aggregation (possibly perturbed, in which
    /// case `G + lambda I` must still be positive definite). `t` is the number of
    /// observations they summarise (informational).
    pub fn from_statistics(
        gram: ArrayView2<'_, f64>,
        b: ArrayView1<'_, f64>,
        lambda: f64,
        t: usize,
    ) -> Result<Self, KernelError> {
        let lambda = regulariser(lambda)?;
        if gram.nrows() != b.len() {
            return Err(KernelError::Input(InputError::DimensionMismatch {
                context: "weight-space statistics: Phi^T y",
                expected: gram.nrows(),
                got: b.len(),
            }));
        }
        ensure_finite("weight-space statistics Phi^T y", b.iter())?;
        let mut v = gram.to_owned();
        v.diag_mut().mapv_inplace(|a| a + lambda);
        let chol = Cholesky::factor("Phi^T Phi + lambda I", v.view())?;
        let theta = chol.solve(b)?;
        Ok(Self {
            lambda,
            chol,
            b: b.to_owned(),
            theta,
            t,
        })
    }

    /// The posterior after observing feature rows `phi` (`t x m`) with values `y`.
    pub fn from_features(
        phi: ArrayView2<'_, f64>,
        y: ArrayView1<'_, f64>,
        lambda: f64,
    ) -> Result<Self, KernelError> {
        if phi.nrows() != y.len() {
            return Err(KernelError::Input(InputError::DimensionMismatch {
                context: "weight-space data: one value per feature row",
                expected: phi.nrows(),
                got: y.len(),
            }));
        }
        ensure_finite("feature matrix Phi", phi.iter())?;
        ensure_finite("observations y", y.iter())?;
        let g = phi.t().dot(&phi);
        let b = phi.t().dot(&y);
        Self::from_statistics(g.view(), b.view(), lambda, phi.nrows())
    }

    /// Add the observation `(phi(x), y)`: rank-one update of the factor of `V` and refresh of
    /// `theta`, O(m^2).
    pub fn observe(&mut self, phi: ArrayView1<'_, f64>, y: f64) -> Result<(), KernelError> {
        if phi.len() != self.dim() {
            return Err(KernelError::Input(InputError::DimensionMismatch {
                context: "weight-space observation features",
                expected: self.dim(),
                got: phi.len(),
            }));
        }
        ensure_finite("weight-space observation features", phi.iter())?;
        ensure_finite("weight-space observation y", [y].iter())?;
        self.chol.rank_one_update(phi)?;
        self.b.scaled_add(y, &phi);
        self.theta = self.chol.solve(self.b.view())?;
        self.t += 1;
        Ok(())
    }

    fn check_features(&self, phis: ArrayView2<'_, f64>) -> Result<(), KernelError> {
        if phis.ncols() != self.dim() {
            return Err(KernelError::Input(InputError::DimensionMismatch {
                context: "weight-space query features",
                expected: self.dim(),
                got: phis.ncols(),
            }));
        }
        Ok(ensure_finite("weight-space query features", phis.iter())?)
    }

    /// Means `phi^T theta` and variances `lambda phi^T V^{-1} phi` at the feature rows `phis`
    /// (`n x m`).
    pub fn predict(
        &self,
        phis: ArrayView2<'_, f64>,
    ) -> Result<(Array1<f64>, Array1<f64>), KernelError> {
        self.check_features(phis)?;
        let mean = phis.dot(&self.theta);
        let w = self.chol.solve_lower_matrix(phis.t())?;
        let var = w.mapv(|a| a * a).sum_axis(Axis(0)) * self.lambda;
        Ok((mean, var))
    }

    /// Means and the joint covariance `lambda Phi_* V^{-1} Phi_*^T` at the feature rows `phis`.
    pub fn predict_cov(
        &self,
        phis: ArrayView2<'_, f64>,
    ) -> Result<(Array1<f64>, Array2<f64>), KernelError> {
        self.check_features(phis)?;
        let mean = phis.dot(&self.theta);
        let w = self.chol.solve_lower_matrix(phis.t())?;
        Ok((mean, w.t().dot(&w) * self.lambda))
    }

    /// A Thompson sample `theta~ ~ N(theta_t, lambda V_t^{-1})`, drawn as
    /// `theta_t + sqrt(lambda) L^{-T} z` with `z ~ N(0, I_m)` and `V_t = L L^T`
    /// (so `Cov = lambda L^{-T} L^{-1} = lambda V_t^{-1}`).
    pub fn sample_theta<R: Rng + ?Sized>(&self, rng: &mut R) -> Result<Array1<f64>, KernelError> {
        let m = self.dim();
        let z = ndarray::Array2::from_shape_fn((m, 1), |_| StandardNormal.sample(rng));
        self.sample_theta_with(z.column(0))
    }

    /// The deterministic part of [`WeightSpaceGp::sample_theta`]: `theta_t + sqrt(lambda)
    /// L^{-T} z` for a given standard-normal vector `z`.
    pub fn sample_theta_with(&self, z: ArrayView1<'_, f64>) -> Result<Array1<f64>, KernelError> {
        if z.len() != self.dim() {
            return Err(KernelError::Input(InputError::DimensionMismatch {
                context: "Thompson sample noise z",
                expected: self.dim(),
                got: z.len(),
            }));
        }
        ensure_finite("Thompson sample noise z", z.iter())?;
        let mut x = faer::Mat::from_fn(z.len(), 1, |i, _| z[i]);
        if !z.is_empty() {
            self.chol
                .factor_ref()
                .transpose()
                .solve_upper_triangular_in_place(x.as_mut());
        }
        let s = self.lambda.sqrt();
        Ok(Array1::from_shape_fn(z.len(), |i| {
            self.theta[i] + s * x[(i, 0)]
        }))
    }

    /// The feature dimension `m`.
    pub fn dim(&self) -> usize {
        self.b.len()
    }

    /// Number of observations summarised.
    pub fn len(&self) -> usize {
        self.t
    }

    /// Whether no observation has been made.
    pub fn is_empty(&self) -> bool {
        self.t == 0
    }

    /// The regulariser `lambda`.
    pub fn lambda(&self) -> f64 {
        self.lambda
    }

    /// `theta_t = V_t^{-1} Phi_t^T y_t`.
    pub fn theta(&self) -> ArrayView1<'_, f64> {
        self.theta.view()
    }

    /// `b_t = Phi_t^T y_t`.
    pub fn phi_t_y(&self) -> ArrayView1<'_, f64> {
        self.b.view()
    }

    /// The Cholesky factor of `V_t`.
    pub fn cholesky(&self) -> &Cholesky {
        &self.chol
    }

    /// `V_t` itself (`L L^T`), O(m^3); for inspection and tests.
    pub fn v(&self) -> Array2<f64> {
        let l = self.chol.lower();
        l.dot(&l.t())
    }
}
