//! The estimator `mu_T` of eq. (4) and the surrogate variance `sigma^2` of eq. (5).
//!
//! # From the parametric form to the code
//!
//! Lemma 6.2 defines `mu_T(w) = phi(w)^T Z~^{-1} Phi_T y_T` with
//! `Z~ = (1/K) sum_{i=1}^{TK} phi(z_i) phi(z_i)^T + tau I`. Write `m = |Z|` and
//! `Z~ = (T/m) Phi_Z Phi_Z^T + tau I` (for `m = T K` this is the paper's operator). Woodbury:
//!
//! `Z~^{-1} = (1/tau) (I - Phi_Z (K_ZZ + rho I)^{-1} Phi_Z^T)`, `rho = (m / T) tau`,
//!
//! so that (Lemma 3.1 / 9.1 with `K tau` replaced by `rho`, equal when `m = T K`)
//!
//! - `mu_T(w) = (1/tau) (k_{W_T}(w)^T Y_T - k_Z(w)^T (K_ZZ + rho I)^{-1} K_{Z,W_T} Y_T)`, eq. (4);
//! - `sigma^2(w) = phi(w)^T Z~^{-1} phi(w) = (1/tau) (k(w, w) - k_Z(w)^T (K_ZZ + rho I)^{-1} k_Z(w))`, eq. (5).
//!
//! With `L L^T = K_ZZ + rho I` (Cholesky), the code keeps `v = (K_ZZ + rho I)^{-1} K_{Z,W_T} Y_T`
//! (one product with `K_{Z,W_T}`, streamed row by row, never stored, and two triangular
//! solves), so `mu_T(w) = (1/tau)(sum_t k(w, w_t) y_t - k_Z(w)^T v)` costs `T + m` kernel
//! evaluations, and `sigma^2(w) = (1/tau)(k(w, w) - |L^{-1} k_Z(w)|^2)`.
//!
//! When `Z = W_T` (`m = T`, `rho = tau`), `mu_T` is exactly the GP posterior mean of eq. (2)
//! (`(1/tau) k^T (I - (K + tau I)^{-1} K) Y = k^T (K + tau I)^{-1} Y`), and `sigma^2` is the
//! posterior variance of eq. (3) divided by `tau`: a test checks both identities.

use std::sync::Arc;

use kernel::Kernel;
use kernel::linalg::Cholesky;
use ndarray::{Array1, Array2, ArrayView1, ArrayView2};

use crate::error::{InputError, UscaError};
use crate::regulariser::Regulariser;
use validation::positive;

/// `sigma^2` of eq. (5): it depends only on `Z`, `tau` and `T`, never on the data.
#[derive(Debug, Clone)]
pub struct SurrogateVariance {
    kernel: Arc<dyn Kernel>,
    z: Array2<f64>,
    chol: Cholesky,
    tau: f64,
    rho: f64,
    t: usize,
    z_fingerprint: u64,
}

impl SurrogateVariance {
    /// Factor `K_ZZ + rho I`, `rho = (|Z| / T) tau` ([`Regulariser::Scaled`]), for the
    /// approximating set `z` (rows), `T >= 1` learning rounds and `tau > 0`.
    pub fn new(
        kernel: Arc<dyn Kernel>,
        z: Array2<f64>,
        t: usize,
        tau: f64,
    ) -> Result<Self, UscaError> {
        validation::non_empty("approximating set Z", z.nrows())?;
        let rho = Regulariser::Scaled.rho(z.nrows(), t, 1, tau)?;
        Self::with_rho(kernel, z, t, tau, rho)
    }

    /// Factor `K_ZZ + rho I` for a given `rho > 0` (e.g. the printed `K tau`,
    /// [`Regulariser::AsPrinted`]): `Z~ = (tau / rho) Phi_Z Phi_Z^T + tau I`, still
    /// `>= tau I`, so every sensitivity rule holds.
    pub fn with_rho(
        kernel: Arc<dyn Kernel>,
        z: Array2<f64>,
        t: usize,
        tau: f64,
        rho: f64,
    ) -> Result<Self, UscaError> {
        let tau = positive("tau", tau)?;
        let rho = positive("rho (the regulariser of K_ZZ)", rho)?;
        validation::at_least_one("T (learning rounds)", t)?;
        validation::non_empty("approximating set Z", z.nrows())?;
        let mut kzz = kernel.gram(z.view())?;
        kzz.diag_mut().mapv_inplace(|v| v + rho);
        let chol = Cholesky::factor("K_ZZ + rho I", kzz.view())?;
        let z_fingerprint = fingerprint(z.view());
        Ok(Self {
            kernel,
            z,
            chol,
            tau,
            rho,
            t,
            z_fingerprint,
        })
    }

    /// A fingerprint of `Z`'s shape and bits (FNV-1a), computed once: what
    /// [`crate::sensitivity::VarianceId`] compares.
    pub fn z_fingerprint(&self) -> u64 {
        self.z_fingerprint
    }

    /// The kernel on `W`.
    pub fn kernel(&self) -> &Arc<dyn Kernel> {
        &self.kernel
    }

    /// `Z` (rows).
    pub fn approximating_set(&self) -> ArrayView2<'_, f64> {
        self.z.view()
    }

    /// `tau`.
    pub fn tau(&self) -> f64 {
        self.tau
    }

    /// The regulariser `rho` (`(|Z| / T) tau` from [`SurrogateVariance::new`], which is the
    /// paper's `K tau` for `|Z| = T K`).
    pub fn rho(&self) -> f64 {
        self.rho
    }

    /// `T`.
    pub fn horizon(&self) -> usize {
        self.t
    }

    /// `sigma^2(w)` for each row of `w` (validated points of `W`).
    pub fn sigma2(&self, w: ArrayView2<'_, f64>) -> Result<Array1<f64>, UscaError> {
        let kzw = self.kernel.cross(self.z.view(), w)?; // m x n
        self.sigma2_from(kzw.view(), self.kernel.diag(w)?.view())
    }

    /// `sigma^2` of the points whose `k_Z(w)` are the columns of `kzw` (`m x n`) and whose
    /// `k(w, w)` are `diag`.
    pub(crate) fn sigma2_from(
        &self,
        kzw: ArrayView2<'_, f64>,
        diag: ArrayView1<'_, f64>,
    ) -> Result<Array1<f64>, UscaError> {
        let a = self.chol.solve_lower_matrix(kzw)?; // L^{-1} k_Z(w), one column per point
        Ok(diag
            .iter()
            .zip(a.columns())
            .map(|(k, col)| ((k - col.dot(&col)) / self.tau).max(0.0))
            .collect())
    }

    /// `v = (K_ZZ + rho I)^{-1} K_{Z,W_T} y`, with `K_{Z,W_T} y` accumulated row by row.
    fn weights(
        &self,
        w_t: ArrayView2<'_, f64>,
        y: ArrayView1<'_, f64>,
    ) -> Result<Array1<f64>, UscaError> {
        let kzy: Array1<f64> = self
            .z
            .rows()
            .into_iter()
            .map(|z| {
                w_t.rows()
                    .into_iter()
                    .zip(y.iter())
                    .map(|(w, yi)| self.kernel.value_unchecked(z, w) * yi)
                    .sum()
            })
            .collect();
        Ok(self.chol.solve(kzy.view())?)
    }
}

/// The learning data `(W_T, Y_T)`: `T` points `w_t = [x_t; c_t]` and their clipped rewards.
#[derive(Debug, Clone, PartialEq)]
pub struct LearningData {
    points: Array2<f64>,
    rewards: Array1<f64>,
    bound: f64,
}

impl LearningData {
    /// Validate (at least one point, one finite reward per point, finite points) and clip the
    /// rewards to `[-B, B]` (Assumption 2.7, enforced: the sensitivity argument needs it).
    pub fn new(points: Array2<f64>, rewards: Array1<f64>, b: f64) -> Result<Self, UscaError> {
        let b = positive("reward bound B", b)?;
        validation::non_empty("learning data W_T", points.nrows())?;
        validation::matching_dimension(
            "rewards Y_T (one per point)",
            points.nrows(),
            rewards.len(),
        )?;
        validation::ensure_finite("reward", rewards.iter())?;
        validation::ensure_finite("learning point", points.iter())?;
        Ok(Self {
            points,
            rewards: rewards.mapv(|y| y.clamp(-b, b)),
            bound: b,
        })
    }

    /// The clipping bound `B` the rewards were clipped to.
    pub fn bound(&self) -> f64 {
        self.bound
    }

    /// `W_T` (rows).
    pub fn points(&self) -> ArrayView2<'_, f64> {
        self.points.view()
    }

    /// `Y_T` (clipped).
    pub fn rewards(&self) -> ArrayView1<'_, f64> {
        self.rewards.view()
    }

    /// `T`.
    pub fn len(&self) -> usize {
        self.rewards.len()
    }

    /// Never true (construction refuses empty data).
    pub fn is_empty(&self) -> bool {
        self.rewards.is_empty()
    }
}

/// `mu_T` of eq. (4) for one data set, on a [`SurrogateVariance`] (its `Z`, `tau`, `T`).
#[derive(Debug, Clone)]
pub struct UscaEstimator {
    variance: Arc<SurrogateVariance>,
    data: LearningData,
    v: Array1<f64>,
}

impl UscaEstimator {
    /// Fit on `data` (whose length must be the variance's `T`).
    pub fn fit(variance: Arc<SurrogateVariance>, data: LearningData) -> Result<Self, UscaError> {
        if data.len() != variance.t {
            return Err(InputError::DimensionMismatch {
                context: "learning data length (T of the surrogate variance)",
                expected: variance.t,
                got: data.len(),
            }
            .into());
        }
        variance.kernel.validate_batch(data.points())?;
        let v = variance.weights(data.points(), data.rewards())?;
        Ok(Self { variance, data, v })
    }

    /// The surrogate variance it is built on.
    pub fn variance(&self) -> &Arc<SurrogateVariance> {
        &self.variance
    }

    /// The data.
    pub fn data(&self) -> &LearningData {
        &self.data
    }

    /// `mu_T(w)` for each row of `w`.
    pub fn mu(&self, w: ArrayView2<'_, f64>) -> Result<Array1<f64>, UscaError> {
        let s = &self.variance;
        let kwt = s.kernel.cross(w, self.data.points())?; // n x T
        let kwz = s.kernel.cross(w, s.z.view())?; // n x m
        Ok(self.combine(&kwt, &kwz))
    }

    /// `(K_{w,W_T} y - K_{w,Z} v) / tau` from the two cross-kernel matrices (eq. 4).
    pub(crate) fn combine(&self, kwt: &Array2<f64>, kwz: &Array2<f64>) -> Array1<f64> {
        (kwt.dot(&self.data.rewards()) - kwz.dot(&self.v)) / self.variance.tau
    }
}

/// FNV-1a over the shape and the bits of the entries of `z`.
fn fingerprint(z: ArrayView2<'_, f64>) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let shape = [z.nrows() as u64, z.ncols() as u64];
    for v in shape.into_iter().chain(z.iter().map(|x| x.to_bits())) {
        for byte in v.to_le_bytes() {
            h ^= u64::from(byte);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;
    use kernel::{ExactGp, SquaredExponential};
    use ndarray::{Array2, array};
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha20Rng;

    fn data(t: usize, seed: u64) -> (Array2<f64>, Array1<f64>) {
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        let w = Array2::from_shape_fn((t, 2), |_| rng.random::<f64>());
        let y = Array1::from_shape_fn(t, |_| 2.0 * rng.random::<f64>() - 1.0);
        (w, y)
    }

    #[test]
    fn with_z_equal_to_the_data_it_is_the_gp_posterior() {
        let k = SquaredExponential::isotropic(0.3).unwrap();
        let (w, y) = data(12, 1);
        let tau = 0.5;
        let s = SurrogateVariance::new(Arc::new(k.clone()), w.clone(), 12, tau).unwrap();
        assert!((s.rho() - tau).abs() < 1e-15);
        let e = UscaEstimator::fit(
            Arc::new(s),
            LearningData::new(w.clone(), y.clone(), 1.0).unwrap(),
        )
        .unwrap();
        let gp = ExactGp::from_data(k, tau, w.view(), y.view()).unwrap();
        let q = array![[0.1, 0.2], [0.5, 0.9], [0.33, 0.4]];
        let (m, v) = gp.predict(q.view()).unwrap();
        let mu = e.mu(q.view()).unwrap();
        let s2 = e.variance().sigma2(q.view()).unwrap();
        for i in 0..3 {
            assert!((mu[i] - m[i]).abs() < 1e-10, "{} vs {}", mu[i], m[i]);
            assert!(
                (s2[i] - v[i] / tau).abs() < 1e-10,
                "{} vs {}",
                s2[i],
                v[i] / tau
            );
        }
    }

    #[test]
    fn variance_is_at_most_k_over_tau() {
        let k = SquaredExponential::isotropic(0.2).unwrap();
        let (z, _) = data(30, 2);
        let s = SurrogateVariance::new(Arc::new(k), z, 10, 0.25).unwrap();
        let (q, _) = data(200, 3);
        let s2 = s.sigma2(q.view()).unwrap();
        assert!(s2.iter().all(|&v| (0.0..=4.0).contains(&v)));
    }

    #[test]
    fn rewards_are_clipped_and_bad_data_refused() {
        let (w, _) = data(3, 4);
        let d = LearningData::new(w.clone(), array![5.0, -5.0, 0.5], 1.0).unwrap();
        assert_eq!(d.rewards().to_vec(), vec![1.0, -1.0, 0.5]);
        assert!(LearningData::new(w.clone(), array![f64::NAN, 0.0, 0.0], 1.0).is_err());
        assert!(LearningData::new(w.clone(), array![0.0, 0.0], 1.0).is_err());
        assert!(LearningData::new(w, array![0.0, 0.0, 0.0], 0.0).is_err());
    }
}
