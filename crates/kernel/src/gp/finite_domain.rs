//! The exact GP posterior on a fixed finite candidate set, updated in O(t n) per observation.

use ndarray::{Array1, Array2, ArrayView1, ArrayView2};

use super::regulariser;
use crate::error::{InputError, KernelError};
use crate::kernels::Kernel;
use validation::ensure_finite;

/// The exact posterior `mu_t`, `sigma_t^2` (same convention as [`super::ExactGp`]) on a fixed
/// set of `n` candidates `C`, when every observation is at a candidate: the bandit setting
/// with a finite arm set.
///
/// # Method
///
/// With `L_t` the Cholesky factor of `K_t + lambda I`, keep `W_t = L_t^{-1} K_{t,C}` (`t x n`),
/// `z_t = L_t^{-1} y_t`, the running `s(c) = sum_i W_{i,c}^2` and `m(c) = sum_i W_{i,c} z_i`:
/// then `mu_t(c) = m(c)` and `sigma_t^2(c) = k(c, c) - s(c)`, because
/// `k_t(c)^T (K_t + lambda I)^{-1} y_t = (L^{-1} k_t(c))^T (L^{-1} y_t)`.
///
/// Observing at candidate `j` appends one row to `L_t` whose off-diagonal part is
/// `l = L_t^{-1} k_t(x_j) = W_t[:, j]` (already known: no triangular solve) and whose diagonal
/// is `l_* = sqrt(k(x_j, x_j) + lambda - |l|^2) >= sqrt(lambda)`. The new row of `W` is
/// `w(c) = (k(x_j, c) - l . W_t[:, c]) / l_*` and `z_{t+1} = (y - l . z_t) / l_*`. The update
/// costs O(t n) time (the `l . W[:, c]` products) and the `n` kernel evaluations; a prediction
/// at all candidates then costs O(n). [`FiniteDomainGp::covariance`] keeps the joint
/// posterior covariance `K_CC - W^T W` up to date in O(n^2) more per observation.
///
/// This is algebraically the same posterior as [`super::ExactGp`] (a test compares them to
/// 1e-9), at O(t n) instead of O(t^2 n) per round for `n` candidates.
///
/// # Examples
///
/// ```
/// use kernel::{ExactGp, FiniteDomainGp, SquaredExponential};
/// use ndarray::array;
///
/// let k = SquaredExponential::isotropic(0.2)?;
/// let arms = array![[0.0], [0.3], [0.6], [0.9]];
/// let mut gp = FiniteDomainGp::new(&k, arms.view(), 0.1, false)?;
/// gp.observe(2, 0.7)?; // a reward at arm 2
/// gp.observe(0, -0.3)?;
///
/// let exact = ExactGp::from_data(&k, 0.1, array![[0.6], [0.0]].view(), array![0.7, -0.3].view())?;
/// let (mean, var) = exact.predict(arms.view())?;
/// assert!((&mean - &gp.mean()).iter().all(|d| d.abs() < 1e-9));
/// assert!((&var - &gp.variance()).iter().all(|d| d.abs() < 1e-9));
/// # Ok::<(), kernel::KernelError>(())
/// ```
#[derive(Debug, Clone)]
pub struct FiniteDomainGp<K: Kernel> {
    kernel: K,
    lambda: f64,
    candidates: Array2<f64>,
    prior_variance: Array1<f64>,
    /// Rows of `W`, each of length `n`, row-major.
    w: Vec<f64>,
    z: Vec<f64>,
    observed: Vec<usize>,
    values: Vec<f64>,
    sum_sq: Array1<f64>,
    mean: Array1<f64>,
    covariance: Option<Array2<f64>>,
    log_det_half: f64,
}

impl<K: Kernel> FiniteDomainGp<K> {
    /// The prior on the rows of `candidates` (`n x d`, non-empty), regulariser `lambda > 0`.
    /// With `track_covariance`, the joint posterior covariance is kept as well (O(n^2) memory
    /// and time per observation; needed by Thompson sampling).
    pub fn new(
        kernel: K,
        candidates: ArrayView2<'_, f64>,
        lambda: f64,
        track_covariance: bool,
    ) -> Result<Self, KernelError> {
        let lambda = regulariser(lambda)?;
        if candidates.nrows() == 0 {
            return Err(KernelError::Input(InputError::Empty {
                what: "candidate set",
            }));
        }
        kernel.validate_batch(candidates)?;
        let prior_variance = kernel.diag(candidates)?;
        let n = candidates.nrows();
        let covariance = if track_covariance {
            Some(kernel.gram(candidates)?)
        } else {
            None
        };
        Ok(Self {
            kernel,
            lambda,
            candidates: candidates.to_owned(),
            prior_variance,
            w: Vec::new(),
            z: Vec::new(),
            observed: Vec::new(),
            values: Vec::new(),
            sum_sq: Array1::zeros(n),
            mean: Array1::zeros(n),
            covariance,
            log_det_half: 0.0,
        })
    }

    /// Number of candidates `n`.
    pub fn n_candidates(&self) -> usize {
        self.candidates.nrows()
    }

    /// Number of observations `t`.
    pub fn len(&self) -> usize {
        self.observed.len()
    }

    /// True before the first observation.
    pub fn is_empty(&self) -> bool {
        self.observed.is_empty()
    }

    /// The candidates, one per row.
    pub fn candidates(&self) -> ArrayView2<'_, f64> {
        self.candidates.view()
    }

    /// The regulariser `lambda`.
    pub fn lambda(&self) -> f64 {
        self.lambda
    }

    /// The kernel.
    pub fn kernel(&self) -> &K {
        &self.kernel
    }

    /// The candidates observed so far (indices, in order) and their values.
    pub fn observations(&self) -> (&[usize], &[f64]) {
        (&self.observed, &self.values)
    }

    /// Add the observation `y` at candidate `index`, in O(t n) (+ O(n^2) with covariance).
    pub fn observe(&mut self, index: usize, y: f64) -> Result<(), KernelError> {
        let n = self.n_candidates();
        if index >= n {
            return Err(KernelError::Input(InputError::DimensionMismatch {
                context: "finite-domain GP: candidate index (must be < number of candidates)",
                expected: n,
                got: index,
            }));
        }
        ensure_finite("observation", [y].iter())?;
        let t = self.len();
        // l = W[:, index], l_* = sqrt(k(x, x) + lambda - |l|^2).
        let l: Vec<f64> = (0..t).map(|i| self.w[i * n + index]).collect();
        let l_sq: f64 = l.iter().map(|v| v * v).sum();
        let diag_sq = self.prior_variance[index] + self.lambda - l_sq;
        // Analytically >= lambda; guard against round-off far below it.
        let diag = diag_sq.max(self.lambda * 1e-12).sqrt();
        let x = self.candidates.row(index);
        let mut row = vec![0.0; n];
        for (c, out) in row.iter_mut().enumerate() {
            let mut dot = 0.0;
            for (i, li) in l.iter().enumerate() {
                dot += li * self.w[i * n + c];
            }
            *out = (self.kernel.value_unchecked(x, self.candidates.row(c)) - dot) / diag;
        }
        let lz: f64 = l.iter().zip(&self.z).map(|(a, b)| a * b).sum();
        let z_new = (y - lz) / diag;
        for (c, &wc) in row.iter().enumerate() {
            self.sum_sq[c] += wc * wc;
            self.mean[c] += wc * z_new;
        }
        if let Some(cov) = self.covariance.as_mut() {
            for a in 0..n {
                for b in 0..n {
                    cov[[a, b]] -= row[a] * row[b];
                }
            }
        }
        self.log_det_half += (diag * diag / self.lambda).ln() / 2.0;
        self.w.extend_from_slice(&row);
        self.z.push(z_new);
        self.observed.push(index);
        self.values.push(y);
        Ok(())
    }

    /// The posterior mean `mu_t(c)` at every candidate.
    pub fn mean(&self) -> ArrayView1<'_, f64> {
        self.mean.view()
    }

    /// The posterior variance `sigma_t^2(c)` at every candidate (clamped at 0).
    pub fn variance(&self) -> Array1<f64> {
        (&self.prior_variance - &self.sum_sq).mapv(|v| v.max(0.0))
    }

    /// The joint posterior covariance `K_CC - W^T W` (only when created with
    /// `track_covariance`).
    pub fn covariance(&self) -> Option<ArrayView2<'_, f64>> {
        self.covariance.as_ref().map(|c| c.view())
    }

    /// The information gain of the observations so far,
    /// `1/2 ln det(I + K_t / lambda) = sum_i ln(l_ii^2 / lambda) / 2`.
    pub fn information_gain(&self) -> f64 {
        self.log_det_half
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gp::ExactGp;
    use crate::kernels::{Matern, MaternNu, SquaredExponential};
    use ndarray::Array2;

    fn grid(n: usize) -> Array2<f64> {
        Array2::from_shape_fn((n, 1), |(i, _)| i as f64 / (n - 1) as f64)
    }

    #[test]
    fn equals_the_exact_posterior() {
        let c = grid(30);
        let k = Matern::isotropic(MaternNu::FiveHalves, 0.2).unwrap();
        let mut fd = FiniteDomainGp::new(k.clone(), c.view(), 0.5, true).unwrap();
        let mut ex = ExactGp::new(k, 0.5).unwrap();
        // Repeated candidates included: the factor must stay well defined.
        let picks = [3usize, 17, 3, 29, 0, 17, 17, 8, 22, 3, 11, 11];
        for (s, &j) in picks.iter().enumerate() {
            let y = (s as f64 * 0.7).sin();
            fd.observe(j, y).unwrap();
            ex.observe(c.row(j), y).unwrap();
            let (m, v) = ex.predict(c.view()).unwrap();
            let (_, cov) = ex.predict_cov(c.view()).unwrap();
            for i in 0..c.nrows() {
                assert!((fd.mean()[i] - m[i]).abs() < 1e-9, "mean at {i}");
                assert!((fd.variance()[i] - v[i]).abs() < 1e-9, "variance at {i}");
                for j2 in 0..c.nrows() {
                    assert!((fd.covariance().unwrap()[[i, j2]] - cov[[i, j2]]).abs() < 1e-9);
                }
            }
            assert!((fd.information_gain() - ex.information_gain()).abs() < 1e-9);
        }
    }

    #[test]
    fn bad_inputs_are_errors() {
        let k = SquaredExponential::isotropic(0.2).unwrap();
        assert!(FiniteDomainGp::new(k.clone(), Array2::zeros((0, 1)).view(), 1.0, false).is_err());
        assert!(FiniteDomainGp::new(k.clone(), grid(3).view(), 0.0, false).is_err());
        let mut gp = FiniteDomainGp::new(k, grid(3).view(), 1.0, false).unwrap();
        assert!(gp.observe(3, 1.0).is_err());
        assert!(gp.observe(0, f64::NAN).is_err());
        assert!(gp.covariance().is_none());
        assert!(gp.is_empty());
    }
}
