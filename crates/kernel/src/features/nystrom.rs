//! The Nyström embedding of Zhou & Tan (2021), Appendix D.3, Algorithm 4.

use ndarray::{Array1, Array2, ArrayView1, ArrayView2, ArrayViewMut1, Axis};
use rand::{Rng, RngExt};

use super::FeatureMap;
use crate::error::{InputError, KernelError};
use crate::kernels::Kernel;
use crate::linalg::{PINV_RCOND, pinv_sqrt};
use validation::{ensure_finite, non_negative, positive};

/// The Nyström embedding `phi(x) = (K_D^{1/2})^+ k_D(x)` of a dictionary `D` of points
/// (Zhou & Tan 2021, Appendix D.3, Algorithm 4, line 7; after Calandriello et al. 2019).
///
/// `K_D = [k(u, v)]_{u, v in D}` and `k_D(x) = [k(u, x)]_{u in D}`, so that
/// `phi(x)^T phi(y) = k_D(x)^T K_D^+ k_D(y)`, which equals `k(x, y)` whenever `x` or `y` is in
/// `D` (the Nyström approximation is exact on the dictionary). The dimension `m = |D|` may be
/// zero (empty dictionary): then `phi(x)` is the empty vector.
///
/// The pseudo-inverse square root drops the eigen-directions of `K_D` with eigenvalue
/// `<= rcond * max eigenvalue` ([`PINV_RCOND`] = 1e-10 by default), which covers repeated
/// dictionary points (a singular `K_D`).
///
/// # Examples
///
/// The embedding is exact on the dictionary: `phi(x)^T phi(y) = k(x, y)` when `x` is a
/// dictionary point.
///
/// ```
/// use kernel::linalg::PINV_RCOND;
/// use kernel::{FeatureMap, Kernel, NystromEmbedding, SquaredExponential};
/// use ndarray::array;
///
/// let k = SquaredExponential::isotropic(0.3)?;
/// let points = array![[0.0], [0.2], [0.5], [0.9]];
/// let phi = NystromEmbedding::from_indices(&k, points.view(), &[0, 2], PINV_RCOND)?;
/// assert_eq!(phi.dim(), 2);
///
/// let (x, y) = (points.row(2), points.row(3));
/// let approx = phi.map(x)?.dot(&phi.map(y)?);
/// assert!((approx - k.value(x, y)?).abs() < 1e-9);
/// # Ok::<(), kernel::KernelError>(())
/// ```
#[derive(Debug, Clone)]
pub struct NystromEmbedding<K: Kernel> {
    kernel: K,
    dictionary: Array2<f64>,
    indices: Vec<usize>,
    probabilities: Array1<f64>,
    projection: Array2<f64>,
}

impl<K: Kernel> NystromEmbedding<K> {
    /// Algorithm 4: include each point `x_i` (row `i` of `points`) in the dictionary
    /// independently with probability `p_i = min(q sigma^2_{t-1}(x_i), 1)` (line 4), where
    /// `variances[i] = sigma^2_{t-1}(x_i) >= 0` is the current (approximate) posterior variance,
    /// then return the embedding of the dictionary (line 7).
    pub fn sample<R: Rng + ?Sized>(
        kernel: K,
        points: ArrayView2<'_, f64>,
        variances: ArrayView1<'_, f64>,
        q: f64,
        rng: &mut R,
    ) -> Result<Self, KernelError> {
        if variances.len() != points.nrows() {
            return Err(KernelError::Input(InputError::DimensionMismatch {
                context: "Nystrom embedding: one posterior variance per point",
                expected: points.nrows(),
                got: variances.len(),
            }));
        }
        Self::sample_with(kernel, points, |i, _| variances[i], q, rng)
    }

    /// As [`NystromEmbedding::sample`], with the posterior variance of point `i` given by
    /// `variance(i, x_i)` (called once per point, in order).
    pub fn sample_with<R: Rng + ?Sized>(
        kernel: K,
        points: ArrayView2<'_, f64>,
        mut variance: impl FnMut(usize, ArrayView1<'_, f64>) -> f64,
        q: f64,
        rng: &mut R,
    ) -> Result<Self, KernelError> {
        let q = positive("q (Nystrom oversampling parameter)", q)?;
        if points.nrows() == 0 {
            return Err(KernelError::Input(InputError::Empty {
                what: "Nystrom embedding points",
            }));
        }
        kernel.validate_batch(points)?;
        let mut probabilities = Array1::zeros(points.nrows());
        let mut indices = Vec::new();
        for (i, x) in points.rows().into_iter().enumerate() {
            let v = variance(i, x);
            non_negative("posterior variance", v)?;
            let p = (q * v).min(1.0);
            probabilities[i] = p;
            // Bernoulli(p): u ~ U[0, 1), include iff u < p (p = 1 always, p = 0 never).
            if rng.random::<f64>() < p {
                indices.push(i);
            }
        }
        let mut e = Self::from_indices(kernel, points, &indices, PINV_RCOND)?;
        e.probabilities = probabilities;
        Ok(e)
    }

    /// The deterministic part of Algorithm 4 (line 7) for a given dictionary: the rows
    /// `indices` of `points`, with eigenvalue cutoff `rcond` (see [`pinv_sqrt`]).
    /// Inclusion probabilities are recorded as 1 for the chosen points and 0 for the others.
    pub fn from_indices(
        kernel: K,
        points: ArrayView2<'_, f64>,
        indices: &[usize],
        rcond: f64,
    ) -> Result<Self, KernelError> {
        kernel.validate_batch(points)?;
        let n = points.nrows();
        let mut dictionary = Array2::zeros((indices.len(), points.ncols()));
        let mut probabilities = Array1::zeros(n);
        for (r, &i) in indices.iter().enumerate() {
            if i >= n {
                return Err(KernelError::Input(InputError::DimensionMismatch {
                    context: "Nystrom dictionary index (must be < number of points)",
                    expected: n,
                    got: i,
                }));
            }
            dictionary.row_mut(r).assign(&points.row(i));
            probabilities[i] = 1.0;
        }
        let projection = if indices.is_empty() {
            Array2::zeros((0, 0))
        } else {
            let kd = kernel.gram(dictionary.view())?;
            pinv_sqrt("Nystrom dictionary Gram matrix K_D", kd.view(), rcond)?
        };
        Ok(Self {
            kernel,
            dictionary,
            indices: indices.to_vec(),
            probabilities,
            projection,
        })
    }

    /// The dictionary points `D`, one per row.
    pub fn dictionary(&self) -> &Array2<f64> {
        &self.dictionary
    }

    /// The indices (rows of the input points) of the dictionary points, ascending for
    /// [`NystromEmbedding::sample`].
    pub fn indices(&self) -> &[usize] {
        &self.indices
    }

    /// The inclusion probabilities `p_i = min(q sigma^2(x_i), 1)` of every input point.
    pub fn inclusion_probabilities(&self) -> &Array1<f64> {
        &self.probabilities
    }

    /// The kernel.
    pub fn kernel(&self) -> &K {
        &self.kernel
    }

    /// The matrix `(K_D^{1/2})^+` (`m x m`).
    pub fn projection(&self) -> &Array2<f64> {
        &self.projection
    }
}

/// The Nyström features `phi(x_i) = (K_D^{1/2})^+ k_D(x_i)` of all `n` points at once from
/// their Gram matrix `gram` (`n x n`, the kernel on the points), for the dictionary
/// `indices` (rows of the points, each `< n`; repeats allowed): the `n x m` matrix
/// `K[:, D] (K_D^{1/2})^+`, the same numbers as [`NystromEmbedding::from_indices`] followed
/// by [`FeatureMap::map_batch`], without a kernel evaluation (for a fixed arm set whose Gram
/// matrix is kept). `rcond` as in [`pinv_sqrt`].
pub fn nystrom_features_from_gram(
    gram: ArrayView2<'_, f64>,
    indices: &[usize],
    rcond: f64,
) -> Result<Array2<f64>, KernelError> {
    let n = gram.nrows();
    if gram.ncols() != n {
        return Err(KernelError::NotSquare {
            what: "Gram matrix of the Nystrom points",
            rows: n,
            cols: gram.ncols(),
        });
    }
    if let Some(&i) = indices.iter().find(|&&i| i >= n) {
        return Err(KernelError::Input(InputError::DimensionMismatch {
            context: "Nystrom dictionary index (must be < number of points)",
            expected: n,
            got: i,
        }));
    }
    if indices.is_empty() {
        return Ok(Array2::zeros((n, 0)));
    }
    let k_xd = gram.select(Axis(1), indices);
    let k_d = k_xd.select(Axis(0), indices);
    let projection = pinv_sqrt("Nystrom dictionary Gram matrix K_D", k_d.view(), rcond)?;
    Ok(k_xd.dot(&projection))
}

impl<K: Kernel> FeatureMap for NystromEmbedding<K> {
    fn input_dim(&self) -> usize {
        self.dictionary.ncols()
    }

    fn dim(&self) -> usize {
        self.dictionary.nrows()
    }

    fn validate_point(&self, x: ArrayView1<'_, f64>) -> Result<(), KernelError> {
        ensure_finite("feature map input", x.iter())?;
        if x.len() != self.input_dim() {
            return Err(KernelError::Input(InputError::DimensionMismatch {
                context: "feature map input",
                expected: self.input_dim(),
                got: x.len(),
            }));
        }
        self.kernel.validate_point(x)
    }

    fn map_into_unchecked(&self, x: ArrayView1<'_, f64>, mut out: ArrayViewMut1<'_, f64>) {
        let kd: Array1<f64> = self
            .dictionary
            .rows()
            .into_iter()
            .map(|u| self.kernel.value_unchecked(u, x))
            .collect();
        out.assign(&self.projection.dot(&kd));
    }

    /// All rows at once: `K_XD (K_D^{1/2})^+` as one cross matrix and one matrix product
    /// (the projection is symmetric), instead of a matrix-vector product per row.
    fn map_batch(&self, x: ArrayView2<'_, f64>) -> Result<Array2<f64>, KernelError> {
        for row in x.rows() {
            self.validate_point(row)?;
        }
        if self.dim() == 0 {
            return Ok(Array2::zeros((x.nrows(), 0)));
        }
        let k_xd = self.kernel.cross(x, self.dictionary.view())?;
        Ok(k_xd.dot(&self.projection))
    }
}
