//! The effective dimension `gamma_T` that sets `K = ceil(T / gamma_T)`.
//!
//! The paper defines `gamma_T = sup_{W_T} 1/2 log det(I + K_{W_T} / tau)` (Sec. 2.1) and only
//! uses its order (`O(log^{d+1} T)` for SE, `~T^{d/(2 nu + d)}` for Matérn), which fixes no
//! number. We use the information gain of the design USCA actually plays, in its spectral form:
//!
//! `gamma_T ~= 1/2 sum_j log(1 + T lambda_j / tau)`,
//!
//! where `lambda_j` are the Mercer eigenvalues of the kernel under the sampling measure
//! `rho` (x uniform on X, c ~ kappa). For `T` i.i.d. points from `rho`, the information gain
//! `1/2 log det(I_H + tau^{-1} sum_t phi(w_t) phi(w_t)^T)` has expectation at most this value
//! (`log det` is concave; Jensen), and it is the quantity Lemma 4.4 works with
//! (`Z = T Lambda + tau I`). The `lambda_j` are estimated by the eigenvalues of `K_n / n` for
//! `n` points drawn from `rho` (the Nyström estimate of the operator spectrum); eigenvalues past
//! the `n`-th are missing (and the top ones are biased upwards), so with `n` too small the value
//! can be off in either direction. A smaller estimate means a larger `K` (more work, the safe
//! side of Lemma 6.1's `K >= T / gamma_T`), a larger one a smaller `K` (that condition may
//! fail: utility only); no choice of `gamma_T` affects privacy. The greedy estimate of the kernel crate
//! ([`kernel::information_gain::greedy_information_gain`]) costs `O(T^2 n)` and would be run
//! for every `T`; this costs one `n x n` eigendecomposition for all `T`.

use ndarray::ArrayView2;
use serde::Serialize;

use crate::error::UscaError;
use kernel::Kernel;

/// The estimated spectrum `lambda_1 >= lambda_2 >= ... >= 0` of the kernel under the design.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DesignSpectrum {
    eigenvalues: Vec<f64>,
}

impl DesignSpectrum {
    /// The eigenvalues of `K_n / n` for the rows of `sample` (points of `W` drawn from the
    /// design), negative rounding errors set to 0, in descending order.
    pub fn estimate<K: Kernel + ?Sized>(
        kernel: &K,
        sample: ArrayView2<'_, f64>,
    ) -> Result<Self, UscaError> {
        validation::non_empty("design sample", sample.nrows())?;
        let n = sample.nrows() as f64;
        let g = kernel.gram(sample)? / n;
        let e = kernel::linalg::symmetric_eigen("K_n / n", g.view())?;
        let mut eigenvalues: Vec<f64> = e.values.iter().map(|v| v.max(0.0)).collect();
        eigenvalues.sort_by(|a, b| b.total_cmp(a));
        Ok(Self { eigenvalues })
    }

    /// The eigenvalues, in descending order.
    pub fn eigenvalues(&self) -> &[f64] {
        &self.eigenvalues
    }

    /// `gamma_T = 1/2 sum_j log(1 + T lambda_j / tau)` for `T >= 1`, `tau > 0`.
    pub fn gamma(&self, t: usize, tau: f64) -> Result<f64, UscaError> {
        validation::at_least_one("T (learning rounds)", t)?;
        let tau = validation::positive("tau", tau)?;
        let t = t as f64;
        Ok(0.5
            * self
                .eigenvalues
                .iter()
                .map(|l| (t * l / tau).ln_1p())
                .sum::<f64>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kernel::SquaredExponential;
    use ndarray::Array2;

    #[test]
    fn one_repeated_point_has_one_eigenvalue() {
        let k = SquaredExponential::isotropic(0.3).unwrap();
        let s = DesignSpectrum::estimate(&k, Array2::zeros((4, 1)).view()).unwrap();
        assert!((s.eigenvalues()[0] - 1.0).abs() < 1e-12);
        assert!(s.eigenvalues()[1..].iter().all(|&v| v < 1e-12));
        // gamma_T = 1/2 log(1 + T / tau) exactly: the information gain of T copies of a point.
        let g = s.gamma(9, 0.5).unwrap();
        assert!((g - 0.5 * 19.0f64.ln()).abs() < 1e-10, "{g}");
        assert!(s.gamma(0, 0.5).is_err());
        assert!(s.gamma(1, 0.0).is_err());
    }

    #[test]
    fn gamma_grows_sublinearly() {
        let k = SquaredExponential::isotropic(0.2).unwrap();
        let x = Array2::from_shape_fn((200, 1), |(i, _)| i as f64 / 199.0);
        let s = DesignSpectrum::estimate(&k, x.view()).unwrap();
        let g: Vec<f64> = [64, 256, 1024]
            .iter()
            .map(|&t| s.gamma(t, 1.0).unwrap())
            .collect();
        assert!(g[0] < g[1] && g[1] < g[2]);
        assert!(g[2] / g[0] < 4.0, "{g:?}");
    }
}
