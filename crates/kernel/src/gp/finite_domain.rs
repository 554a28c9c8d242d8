//! The exact GP posterior on a fixed finite candidate set: O(t n) per observation while
//! `t < n`, then O(n^2) per observation, flat in `t`.

use std::sync::Arc;

use ndarray::{Array1, Array2, ArrayView1, ArrayView2, Axis};

use super::regulariser;
use crate::error::{InputError, KernelError};
use crate::kernels::Kernel;
use crate::linalg::Cholesky;
use validation::ensure_finite;

/// How often the rank-one regime recomputes the posterior from the sufficient statistics:
/// every `REFRESH_PERIOD_PER_CANDIDATE * n` observations (amortised O(n^2) per observation).
pub const REFRESH_PERIOD_PER_CANDIDATE: usize = 32;

/// Which update a [`FiniteDomainGp`] uses for its next observation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Regime {
    /// `t < n` (and no joint covariance requested): the Cholesky factor of `K_t + lambda I`
    /// grows by one row, O(t n) per observation.
    AppendedCholesky,
    /// The `n x n` posterior covariance is updated by rank one, O(n^2) per observation.
    RankOneCovariance,
}

/// The exact posterior `mu_t`, `sigma_t^2` (same convention as [`super::ExactGp`]) on a fixed
/// set of `n` candidates `C`, when every observation is at a candidate: the bandit setting
/// with a finite arm set.
///
/// # Method
///
/// Two regimes; the cheaper one is chosen automatically ([`Regime`]).
///
/// **Appended Cholesky (`t < n`).** With `L_t` the Cholesky factor of `K_t + lambda I`, keep
/// `W_t = L_t^{-1} K_{t,C}` (`t x n`), `z_t = L_t^{-1} y_t`, the running
/// `s(c) = sum_i W_{i,c}^2` and `m(c) = sum_i W_{i,c} z_i`: then `mu_t(c) = m(c)` and
/// `sigma_t^2(c) = k(c, c) - s(c)`, because
/// `k_t(c)^T (K_t + lambda I)^{-1} y_t = (L^{-1} k_t(c))^T (L^{-1} y_t)`.
/// Observing at candidate `j` appends one row to `L_t` whose off-diagonal part is
/// `l = L_t^{-1} k_t(x_j) = W_t[:, j]` (already known: no triangular solve) and whose diagonal
/// is `l_* = sqrt(k(x_j, x_j) + lambda - |l|^2) >= sqrt(lambda)`. The new row of `W` is
/// `w(c) = (k(x_j, c) - l . W_t[:, c]) / l_*` and `z_{t+1} = (y - l . z_t) / l_*`: O(t n).
///
/// **Rank-one covariance (`t >= n`).** Keep the joint posterior covariance `Sigma_t` on `C`
/// (`n x n`) and the mean. Observing `y` at candidate `j` is the Gaussian conditioning step
///
/// `s = Sigma_t[:, j]`, `d = s_j + lambda`,
/// `mu_{t+1} = mu_t + s (y - mu_t(j)) / d`, `Sigma_{t+1} = Sigma_t - s s^T / d`,
///
/// O(n^2), with `d = sigma_t^2(x_j) + lambda = l_*^2`. The information gain grows by
/// `ln(d / lambda) / 2` in both regimes (the matrix determinant lemma).
///
/// **Numerical guard: periodic recomputation.** The rank-one downdate accumulates round-off
/// (about `t * 1e-16 * max k` after `t` steps) and loses exact symmetry. Every
/// [`REFRESH_PERIOD_PER_CANDIDATE`]` * n` observations, and when entering the regime, the
/// posterior is recomputed from the sufficient statistics, which resets the error: with
/// `A` the `m` distinct candidates observed, `c_a` their counts, `S_a` the sums of their
/// observations and `D = diag(sqrt(c_a))`, the `t` observations enter the posterior only
/// through `(c_a, S_a)` (repeated observations at one point are one observation of their
/// mean with noise `lambda / c_a`), and
///
/// `B = I + D K_AA D / lambda = L L^T`, `V = L^{-1} D K_AC / sqrt(lambda)` (`m x n`),
/// `Sigma = K_CC - V^T V`, `mu = V^T L^{-1} (S_a / sqrt(c_a)) / sqrt(lambda)`,
/// `ln det(I + K_t / lambda) = ln det B = 2 sum_i ln L_ii`
///
/// (Sylvester's identity for the determinant; `B` has eigenvalues `>= 1`, so its Cholesky
/// factorisation cannot break down, the form Rasmussen & Williams use in their Algorithm 3.2;
/// its condition number can still reach `1 + t max k / lambda`). The
/// recomputation costs O(m^3 + m^2 n + m n^2) <= O(n^3) every `32 n` steps: amortised
/// O(n^2). We chose it over a Cholesky-based update of `Sigma` because `Sigma` is only
/// positive semi-definite (singular on a dense arm grid), and over refactorising every step
/// because that is O(n^3).
///
/// This is algebraically the same posterior as [`super::ExactGp`] (tests compare them to
/// 1e-9 in both regimes; `cargo xtask verify` does at `t = 10, 1000, 10 000`).
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
    observed: Vec<usize>,
    values: Vec<f64>,
    /// Sufficient statistics: observations and their sum per candidate.
    counts: Vec<usize>,
    sums: Vec<f64>,
    mean: Array1<f64>,
    log_det_half: f64,
    state: State,
}

#[derive(Debug, Clone)]
enum State {
    AppendedCholesky {
        /// Rows of `W`, each of length `n`, row-major.
        w: Vec<f64>,
        z: Vec<f64>,
        sum_sq: Array1<f64>,
    },
    RankOneCovariance {
        /// `K_CC`, kept for the recomputations (shared between clones).
        gram: Arc<Array2<f64>>,
        covariance: Array2<f64>,
        since_refresh: usize,
    },
}

impl<K: Kernel> FiniteDomainGp<K> {
    /// The prior on the rows of `candidates` (`n x d`, non-empty), regulariser `lambda > 0`.
    /// With `track_covariance`, the joint posterior covariance is kept from the start (the
    /// rank-one regime, O(n^2) memory and time per observation; needed by Thompson sampling);
    /// without, it is kept from the `(n+1)`-th observation on (the first one made when
    /// `t >= n`).
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
        let state = if track_covariance {
            let gram = kernel.gram(candidates)?;
            State::RankOneCovariance {
                covariance: gram.clone(),
                gram: Arc::new(gram),
                since_refresh: 0,
            }
        } else {
            State::AppendedCholesky {
                w: Vec::new(),
                z: Vec::new(),
                sum_sq: Array1::zeros(n),
            }
        };
        Ok(Self {
            kernel,
            lambda,
            candidates: candidates.to_owned(),
            prior_variance,
            observed: Vec::new(),
            values: Vec::new(),
            counts: vec![0; n],
            sums: vec![0.0; n],
            mean: Array1::zeros(n),
            log_det_half: 0.0,
            state,
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

    /// The regime of the current state (and of the next observation, unless `t = n` now: the
    /// `(n+1)`-th observation switches to the rank-one regime).
    pub fn regime(&self) -> Regime {
        match self.state {
            State::AppendedCholesky { .. } => Regime::AppendedCholesky,
            State::RankOneCovariance { .. } => Regime::RankOneCovariance,
        }
    }

    /// Add the observation `y` at candidate `index`: O(t n) while `t < n`, then O(n^2)
    /// (amortised, see the type's documentation).
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
        if self.len() >= n && self.regime() == Regime::AppendedCholesky {
            // From here on the rank-one update is the cheaper one. The state changes only once
            // the recomputation has succeeded.
            let gram = Arc::new(self.kernel.gram(self.candidates.view())?);
            let (covariance, mean, log_det_half) =
                recompute(&gram, &self.counts, &self.sums, self.lambda)?;
            self.state = State::RankOneCovariance {
                covariance,
                gram,
                since_refresh: 0,
            };
            self.mean = mean;
            self.log_det_half = log_det_half;
        }
        match &mut self.state {
            State::AppendedCholesky { w, z, sum_sq } => {
                let t = z.len();
                // l = W[:, index], l_* = sqrt(k(x, x) + lambda - |l|^2).
                let l: Vec<f64> = (0..t).map(|i| w[i * n + index]).collect();
                let l_sq: f64 = l.iter().map(|v| v * v).sum();
                let diag_sq = self.prior_variance[index] + self.lambda - l_sq;
                // Analytically >= lambda; guard against round-off far below it.
                let diag = diag_sq.max(self.lambda * 1e-12).sqrt();
                let x = self.candidates.row(index);
                let mut row = vec![0.0; n];
                for (c, out) in row.iter_mut().enumerate() {
                    let mut dot = 0.0;
                    for (i, li) in l.iter().enumerate() {
                        dot += li * w[i * n + c];
                    }
                    *out = (self.kernel.value_unchecked(x, self.candidates.row(c)) - dot) / diag;
                }
                let lz: f64 = l.iter().zip(z.iter()).map(|(a, b)| a * b).sum();
                let z_new = (y - lz) / diag;
                for (c, &wc) in row.iter().enumerate() {
                    sum_sq[c] += wc * wc;
                    self.mean[c] += wc * z_new;
                }
                self.log_det_half += (diag * diag / self.lambda).ln() / 2.0;
                w.extend_from_slice(&row);
                z.push(z_new);
            }
            State::RankOneCovariance {
                covariance,
                since_refresh,
                ..
            } => {
                let s = covariance.row(index).to_owned();
                // Analytically >= lambda (s_j is a variance); the same guard as above.
                let d = (s[index] + self.lambda).max(self.lambda * 1e-12);
                let gain = (y - self.mean[index]) / d;
                self.mean.scaled_add(gain, &s);
                for (a, mut row) in covariance.rows_mut().into_iter().enumerate() {
                    row.scaled_add(-s[a] / d, &s);
                }
                self.log_det_half += (d / self.lambda).ln() / 2.0;
                *since_refresh += 1;
            }
        }
        self.observed.push(index);
        self.values.push(y);
        self.counts[index] += 1;
        self.sums[index] += y;
        if let State::RankOneCovariance {
            gram,
            covariance,
            since_refresh,
        } = &mut self.state
            && *since_refresh >= REFRESH_PERIOD_PER_CANDIDATE * n
        {
            // The observation is recorded either way; if the recomputation fails (sums that
            // overflow), the rank-one posterior stays and the error is reported.
            let (c, mean, log_det_half) = recompute(gram, &self.counts, &self.sums, self.lambda)?;
            *covariance = c;
            *since_refresh = 0;
            self.mean = mean;
            self.log_det_half = log_det_half;
        }
        Ok(())
    }

    /// The posterior mean `mu_t(c)` at every candidate.
    pub fn mean(&self) -> ArrayView1<'_, f64> {
        self.mean.view()
    }

    /// The posterior variance `sigma_t^2(c)` at every candidate (clamped at 0).
    pub fn variance(&self) -> Array1<f64> {
        match &self.state {
            State::AppendedCholesky { sum_sq, .. } => {
                (&self.prior_variance - sum_sq).mapv(|v| v.max(0.0))
            }
            State::RankOneCovariance { covariance, .. } => covariance.diag().mapv(|v| v.max(0.0)),
        }
    }

    /// The joint posterior covariance `K_CC - K_CX (K_t + lambda I)^{-1} K_XC` when it is
    /// kept: in the rank-one regime ([`FiniteDomainGp::regime`]), which is from the start with
    /// `track_covariance`, and after more than `n` observations without.
    pub fn covariance(&self) -> Option<ArrayView2<'_, f64>> {
        match &self.state {
            State::AppendedCholesky { .. } => None,
            State::RankOneCovariance { covariance, .. } => Some(covariance.view()),
        }
    }

    /// The information gain of the observations so far,
    /// `1/2 ln det(I + K_t / lambda) = sum_i ln(l_ii^2 / lambda) / 2`.
    pub fn information_gain(&self) -> f64 {
        self.log_det_half
    }
}

/// The covariance, the mean and half the log-determinant `ln det(I + K_t / lambda) / 2`
/// recomputed from the sufficient statistics (counts and sums per candidate) and the Gram
/// matrix `gram` of the candidates ([`FiniteDomainGp`], "Numerical guard").
fn recompute(
    gram: &Array2<f64>,
    counts: &[usize],
    sums: &[f64],
    lambda: f64,
) -> Result<(Array2<f64>, Array1<f64>, f64), KernelError> {
    let seen: Vec<usize> = (0..counts.len()).filter(|&a| counts[a] > 0).collect();
    let root_counts = Array1::from_iter(seen.iter().map(|&a| (counts[a] as f64).sqrt()));
    let k_ac = gram.select(Axis(0), &seen); // m x n
    let scale = 1.0 / lambda.sqrt();
    // D K_AC / sqrt(lambda) and B = I + D K_AA D / lambda.
    let d_k_ac = &k_ac * &root_counts.view().insert_axis(Axis(1)) * scale;
    let mut b = d_k_ac.select(Axis(1), &seen) * root_counts.view().insert_axis(Axis(0));
    b *= scale;
    for i in 0..seen.len() {
        b[[i, i]] += 1.0;
    }
    // Exact symmetry for the factorisation (the product is symmetric up to round-off).
    let b = (&b + &b.t()) * 0.5;
    let chol = Cholesky::factor("I + D K_AA D / lambda", b.view())?;
    let v = chol.solve_lower_matrix(d_k_ac.view())?; // m x n
    let mut sigma = gram.clone();
    ndarray::linalg::general_mat_mul(-1.0, &v.t(), &v, 1.0, &mut sigma);
    let rhs = Array1::from_iter(
        seen.iter()
            .zip(root_counts.iter())
            .map(|(&a, &rc)| sums[a] / rc),
    );
    let u = chol.solve_lower(rhs.view())?;
    Ok((sigma, v.t().dot(&u) * scale, chol.log_det() / 2.0))
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

    /// Without `track_covariance`: the appended Cholesky while `t < n`, the switch at the
    /// `(n+1)`-th observation, rank-one steps and two recomputations (every `32 n` steps), each
    /// step equal to the exact posterior.
    #[test]
    fn both_regimes_and_the_recomputation_equal_the_exact_posterior() {
        let n = 6;
        let c = grid(n);
        let k = SquaredExponential::isotropic(0.3).unwrap();
        let mut fd = FiniteDomainGp::new(k.clone(), c.view(), 0.3, false).unwrap();
        let mut ex = ExactGp::new(k, 0.3).unwrap();
        let steps = 2 * REFRESH_PERIOD_PER_CANDIDATE * n + n + 3;
        for s in 0..steps {
            let j = (s * 7 + s / 3) % n;
            let y = (s as f64 * 0.37).cos() + 0.1 * j as f64;
            let expected = if s < n {
                Regime::AppendedCholesky
            } else {
                Regime::RankOneCovariance
            };
            fd.observe(j, y).unwrap();
            assert_eq!(fd.regime(), expected, "after observation {}", s + 1);
            assert_eq!(fd.covariance().is_some(), s >= n);
            ex.observe(c.row(j), y).unwrap();
            let (m, v) = ex.predict(c.view()).unwrap();
            for i in 0..n {
                assert!((fd.mean()[i] - m[i]).abs() < 1e-9, "mean at {i}, step {s}");
                assert!(
                    (fd.variance()[i] - v[i]).abs() < 1e-9,
                    "variance {i}, step {s}"
                );
            }
            assert!(
                (fd.information_gain() - ex.information_gain()).abs() < 1e-9,
                "gain, step {s}"
            );
        }
        assert_eq!(fd.len(), steps);
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
        assert_eq!(gp.regime(), Regime::AppendedCholesky);
    }
}
