//! The exact (function-space) GP posterior with an incrementally extended Cholesky factor.

use ndarray::{Array1, Array2, ArrayView1, ArrayView2, Axis};

use super::regulariser;
use crate::error::{InputError, KernelError};
use crate::kernels::Kernel;
use crate::linalg::Cholesky;
use validation::ensure_finite;

/// The exact GP posterior `mu_t`, `sigma_t^2` (see the [module docs](super) for the formulas
/// and conventions), updated one observation at a time.
///
/// [`ExactGp::observe`] extends the Cholesky factor `L_t` of `K_t + lambda I` by one row and
/// column in O(t^2) (one triangular solve, instead of an O(t^3) refactorisation) and appends one
/// entry to `beta_t = L_t^{-1} y_t` in O(t) (forward substitution only adds a row).
/// [`ExactGp::predict`] at `n` points then computes `V = L_t^{-1} K_t(xs)^T` (one triangular
/// solve with `n` right-hand sides, O(n t^2)) plus the `n t` kernel evaluations, and returns
/// `mu = V^T beta_t` and `sigma^2 = k(x, x) - |V_x|^2`.
///
/// # Examples
///
/// Observing shrinks the variance below the prior `k(x, x)` and pulls the mean towards the
/// data; one observation at a time gives the posterior computed from scratch.
///
/// ```
/// use kernel::{ExactGp, SquaredExponential};
/// use ndarray::array;
///
/// let k = SquaredExponential::isotropic(0.2)?;
/// let (xs, ys) = (array![[0.1], [0.5], [0.9]], array![0.3, -0.2, 0.8]);
/// let mut gp = ExactGp::new(k.clone(), 0.01)?;
/// for (x, &y) in xs.rows().into_iter().zip(&ys) {
///     gp.observe(x, y)?;
/// }
/// let (mean, var) = gp.predict(array![[0.5], [3.0]].view())?;
/// assert!((mean[0] - -0.2).abs() < 0.05 && var[0] < 0.02); // near the data
/// assert!(mean[1].abs() < 1e-6 && (var[1] - 1.0).abs() < 1e-6); // far away: the prior
///
/// let scratch = ExactGp::from_data(k, 0.01, xs.view(), ys.view())?;
/// let (mean2, _) = scratch.predict(array![[0.5], [3.0]].view())?;
/// assert!((&mean - &mean2).iter().all(|d| d.abs() < 1e-12));
/// assert!(gp.information_gain() > 0.0);
/// # Ok::<(), kernel::KernelError>(())
/// ```
#[derive(Debug, Clone)]
pub struct ExactGp<K: Kernel> {
    kernel: K,
    lambda: f64,
    input_dim: Option<usize>,
    /// Observed points, row-major, `t * d` entries.
    xs: Vec<f64>,
    ys: Vec<f64>,
    chol: Cholesky,
    /// `beta_t = L_t^{-1} y_t`.
    beta: Vec<f64>,
}

impl<K: Kernel> ExactGp<K> {
    /// An empty posterior (the prior: mean 0, variance `k(x, x)`) with regulariser `lambda > 0`.
    pub fn new(kernel: K, lambda: f64) -> Result<Self, KernelError> {
        let lambda = regulariser(lambda)?;
        let input_dim = kernel.input_dim();
        Ok(Self {
            kernel,
            lambda,
            input_dim,
            xs: Vec::new(),
            ys: Vec::new(),
            chol: Cholesky::empty(),
            beta: Vec::new(),
        })
    }

    /// The posterior after observing the rows of `x` with values `y`, computed from scratch
    /// (one O(t^3) factorisation of `K_t + lambda I`); equal to `t` calls of
    /// [`ExactGp::observe`] up to round-off.
    pub fn from_data(
        kernel: K,
        lambda: f64,
        x: ArrayView2<'_, f64>,
        y: ArrayView1<'_, f64>,
    ) -> Result<Self, KernelError> {
        let mut gp = Self::new(kernel, lambda)?;
        if x.nrows() != y.len() {
            return Err(KernelError::Input(InputError::DimensionMismatch {
                context: "GP data: one value per point",
                expected: x.nrows(),
                got: y.len(),
            }));
        }
        ensure_finite("GP observations y", y.iter())?;
        if x.nrows() == 0 {
            return Ok(gp);
        }
        let mut k = gp.kernel.gram(x)?;
        k.diag_mut().mapv_inplace(|v| v + gp.lambda);
        gp.chol = Cholesky::factor("K_t + lambda I", k.view())?;
        gp.input_dim = Some(x.ncols());
        gp.xs = x.iter().copied().collect();
        gp.ys = y.to_vec();
        gp.beta = gp.chol.solve_lower(y)?.to_vec();
        Ok(gp)
    }

    /// Add the observation `(x, y)`: O(t^2) for the Cholesky extension, O(t) for `beta`.
    ///
    /// Errors (and leaves the posterior unchanged) on a non-finite `x` or `y`, a point of the
    /// wrong dimension, or a numerically singular extension.
    pub fn observe(&mut self, x: ArrayView1<'_, f64>, y: f64) -> Result<(), KernelError> {
        self.kernel.validate_point(x)?;
        ensure_finite("GP observation y", [y].iter())?;
        if let Some(d) = self.input_dim
            && x.len() != d
        {
            return Err(KernelError::Input(InputError::DimensionMismatch {
                context: "GP observation point",
                expected: d,
                got: x.len(),
            }));
        }
        let kt = self.k_t(x);
        let c = self.kernel.value_unchecked(x, x) + self.lambda;
        self.chol.extend(kt.view(), c)?;
        // New row of L: [w^T, d]; beta_{t+1} = (y - w^T beta_t) / d.
        let t = self.len();
        let l = self.chol.factor_ref();
        let wb: f64 = (0..t).map(|j| l[(t, j)] * self.beta[j]).sum();
        self.beta.push((y - wb) / l[(t, t)]);
        self.input_dim = Some(x.len());
        self.xs.extend(x.iter().copied());
        self.ys.push(y);
        Ok(())
    }

    /// `k_t(x) = [k(x_1, x), ..., k(x_t, x)]` for a validated `x`.
    fn k_t(&self, x: ArrayView1<'_, f64>) -> Array1<f64> {
        let d = x.len();
        self.xs
            .chunks_exact(d.max(1))
            .take(self.len())
            .map(|xi| self.kernel.value_unchecked(ArrayView1::from(xi), x))
            .collect()
    }

    fn validate_queries(&self, xs: ArrayView2<'_, f64>) -> Result<(), KernelError> {
        self.kernel.validate_batch(xs)?;
        if let Some(d) = self.input_dim
            && xs.ncols() != d
            && xs.nrows() > 0
        {
            return Err(KernelError::Input(InputError::DimensionMismatch {
                context: "GP query points",
                expected: d,
                got: xs.ncols(),
            }));
        }
        Ok(())
    }

    /// `K_t(xs)^T` (`t x n`) and `V = L^{-1} K_t(xs)^T`.
    fn cross_and_v(
        &self,
        xs: ArrayView2<'_, f64>,
    ) -> Result<(Array2<f64>, Array2<f64>), KernelError> {
        let t = self.len();
        let mut kx = Array2::zeros((t, xs.nrows()));
        for (j, x) in xs.rows().into_iter().enumerate() {
            kx.column_mut(j).assign(&self.k_t(x));
        }
        let v = self.chol.solve_lower_matrix(kx.view())?;
        Ok((kx, v))
    }

    /// Posterior means `mu_t` and variances `sigma_t^2` (clamped at 0) at the rows of `xs`.
    pub fn predict(
        &self,
        xs: ArrayView2<'_, f64>,
    ) -> Result<(Array1<f64>, Array1<f64>), KernelError> {
        self.validate_queries(xs)?;
        let prior: Array1<f64> = xs
            .rows()
            .into_iter()
            .map(|x| self.kernel.value_unchecked(x, x))
            .collect();
        if self.is_empty() {
            return Ok((Array1::zeros(xs.nrows()), prior));
        }
        let (_, v) = self.cross_and_v(xs)?;
        let mean = v.t().dot(&ArrayView1::from(&self.beta[..]));
        let reduction = v.mapv(|a| a * a).sum_axis(Axis(0));
        let var = (&prior - &reduction).mapv(|s| s.max(0.0));
        Ok((mean, var))
    }

    /// Posterior means and the joint posterior covariance
    /// `K(xs, xs) - K_t(xs)^T (K_t + lambda I)^{-1} K_t(xs)` at the rows of `xs` (for Thompson
    /// sampling on a finite set). The covariance is exactly symmetric and its diagonal is
    /// clamped at 0; it may still have eigenvalues of order `-1e-15` from round-off.
    pub fn predict_cov(
        &self,
        xs: ArrayView2<'_, f64>,
    ) -> Result<(Array1<f64>, Array2<f64>), KernelError> {
        self.validate_queries(xs)?;
        let prior = self.kernel.gram(xs)?;
        if self.is_empty() {
            return Ok((Array1::zeros(xs.nrows()), prior));
        }
        let (_, v) = self.cross_and_v(xs)?;
        let mean = v.t().dot(&ArrayView1::from(&self.beta[..]));
        let mut cov = &prior - &v.t().dot(&v);
        let n = cov.nrows();
        for i in 0..n {
            cov[[i, i]] = cov[[i, i]].max(0.0);
            for j in 0..i {
                let s = 0.5 * (cov[[i, j]] + cov[[j, i]]);
                cov[[i, j]] = s;
                cov[[j, i]] = s;
            }
        }
        Ok((mean, cov))
    }

    /// Number of observations `t`.
    pub fn len(&self) -> usize {
        self.ys.len()
    }

    /// Whether no observation has been made.
    pub fn is_empty(&self) -> bool {
        self.ys.is_empty()
    }

    /// The kernel.
    pub fn kernel(&self) -> &K {
        &self.kernel
    }

    /// The regulariser `lambda`.
    pub fn lambda(&self) -> f64 {
        self.lambda
    }

    /// The observed points, one per row (`t x d`; `0 x 0` before the first observation).
    pub fn points(&self) -> ArrayView2<'_, f64> {
        let d = self.input_dim.filter(|_| !self.is_empty()).unwrap_or(0);
        ArrayView2::from_shape((self.len(), d), &self.xs[..])
            .unwrap_or_else(|_| ArrayView2::from_shape((0, 0), &[]).expect("empty view"))
    }

    /// The observed values `y_t`.
    pub fn values(&self) -> ArrayView1<'_, f64> {
        ArrayView1::from(&self.ys[..])
    }

    /// `alpha_t = (K_t + lambda I)^{-1} y_t`, so that `mu_t(x) = k_t(x)^T alpha_t`
    /// (two O(t^2) triangular solves per call).
    pub fn alpha(&self) -> Result<Array1<f64>, KernelError> {
        self.chol.solve(ArrayView1::from(&self.ys[..]))
    }

    /// `beta_t = L_t^{-1} y_t` with `L_t` the Cholesky factor of `K_t + lambda I`.
    pub fn beta(&self) -> ArrayView1<'_, f64> {
        ArrayView1::from(&self.beta[..])
    }

    /// The Cholesky factor of `K_t + lambda I`.
    pub fn cholesky(&self) -> &Cholesky {
        &self.chol
    }

    /// The information gain of the observed points,
    /// `1/2 log det(I + K_t / lambda) = 1/2 (log det(K_t + lambda I) - t log lambda)`.
    pub fn information_gain(&self) -> f64 {
        0.5 * (self.chol.log_det() - self.len() as f64 * self.lambda.ln())
    }
}
