//! Quadrature Fourier features for the squared exponential kernel.

use ndarray::{Array1, Array2, ArrayView1, ArrayViewMut1};

use super::{FeatureMap, gauss_hermite};
use crate::error::KernelError;
use crate::kernels::SquaredExponential;
use validation::at_least_one;

/// Quadrature Fourier features (QFF) of the SE kernel `k(x, y) = s^2 exp(-sum_j (x_j -
/// y_j)^2 / (2 l_j^2))` (Mutny & Krause 2018; Dubey 2021, Section 4.2, Definition 4).
///
/// # Formula
///
/// Bochner: `k(x, y) = s^2 E_{w ~ N(0, diag(l^-2))} cos(w^T (x - y))`. Substituting
/// `w_j = sqrt(2) t_j / l_j` turns the expectation into `pi^{-d/2} int e^{-|t|^2} cos(...) dt`,
/// which the tensor-product Gauss-Hermite rule with `mbar` nodes `t_i` and weights `w_i` per
/// dimension approximates. For every multi-index `I = (i_1, ..., i_d)` of the full grid
/// (`mbar^d` of them), with `omega_I = (sqrt(2) t_{i_j} / l_j)_j` and
/// `W_I = prod_j w_{i_j} / sqrt(pi)`:
///
/// `phi_I^cos(x) = sqrt(s^2 W_I) cos(omega_I^T x)`, `phi_I^sin(x) = sqrt(s^2 W_I) sin(omega_I^T x)`,
///
/// so that `phi(x)^T phi(y) = s^2 sum_I W_I cos(omega_I^T (x - y))`: `m = 2 mbar^d` features
/// (the cosine features first, in the row-major order of the grid, then the sine features).
///
/// The full grid is used in every dimension. Keeping only the non-negative nodes of a
/// dimension with doubled weights is exact in `d = 1` (the cosine is even) but wrong for
/// `d >= 2`: flipping the sign of one coordinate of `omega_I` changes `omega_I^T (x - y)`.
///
/// # Error bound
///
/// Theorem 2 of Dubey (2021), from Mutny & Krause (2018): on `[0, 1]^d` with unit variance and
/// `nu = min_j l_j`, `sup |k - phi^T phi| <= d 2^{d-1} sqrt(pi/2) mbar^{-mbar} (e / (4 nu^2))^mbar`
/// ([`QuadratureFourierFeatures::error_bound`]).
#[derive(Debug, Clone, PartialEq)]
///
/// # Examples
///
/// Deterministic features whose error on `[0, 1]^d` is certified by Theorem 2
/// ([`QuadratureFourierFeatures::error_bound`]):
///
/// ```
/// use kernel::{FeatureMap, Kernel, QuadratureFourierFeatures, SquaredExponential};
/// use ndarray::array;
///
/// let k = SquaredExponential::isotropic(0.5)?;
/// let qff = QuadratureFourierFeatures::new(&k, 1, 12)?;
/// assert_eq!(qff.dim(), 2 * 12); // m = 2 mbar^d
///
/// let xs = array![[0.0], [0.3], [0.7], [1.0]];
/// let phi = qff.map_batch(xs.view())?;
/// let err = (&phi.dot(&phi.t()) - &k.gram(xs.view())?)
///     .iter()
///     .fold(0.0f64, |m, e| m.max(e.abs()));
/// assert!(err <= qff.error_bound(), "{err} > {}", qff.error_bound());
/// # Ok::<(), kernel::KernelError>(())
/// ```
pub struct QuadratureFourierFeatures {
    /// `mbar^d x d` frequencies, one row per grid point.
    omegas: Array2<f64>,
    /// `sqrt(s^2 W_I)` per grid point.
    scales: Array1<f64>,
    mbar: usize,
    lengthscales: Array1<f64>,
    variance: f64,
}

/// Largest number of features `2 mbar^d` a QFF map may have.
pub const MAX_QFF_FEATURES: usize = 1 << 24;

impl QuadratureFourierFeatures {
    /// QFF of the SE kernel `kernel` on inputs of dimension `d` with `mbar` nodes per
    /// dimension. A per-dimension lengthscale vector must have length `d`.
    pub fn new(kernel: &SquaredExponential, d: usize, mbar: usize) -> Result<Self, KernelError> {
        at_least_one("input dimension", d)?;
        let lengthscales = kernel.lengthscales().to_vec(d)?;
        let grid = u32::try_from(d)
            .ok()
            .and_then(|d| mbar.checked_pow(d))
            .filter(|g| g.checked_mul(2).is_some_and(|m| m <= MAX_QFF_FEATURES))
            .ok_or_else(|| KernelError::InvalidCount {
                name: "QFF grid size",
                reason: format!("2 * mbar^d = 2 * {mbar}^{d} exceeds {MAX_QFF_FEATURES}"),
            })?;
        let rule = gauss_hermite(mbar)?;
        let sqrt_pi = std::f64::consts::PI.sqrt();
        let variance = kernel.variance();
        let mut omegas = Array2::zeros((grid, d));
        let mut scales = Array1::zeros(grid);
        for g in 0..grid {
            // Row-major multi-index: the last dimension varies fastest.
            let mut rest = g;
            let mut w = variance;
            for j in (0..d).rev() {
                let i = rest % mbar;
                rest /= mbar;
                omegas[[g, j]] = std::f64::consts::SQRT_2 * rule.nodes[i] / lengthscales[j];
                w *= rule.weights[i] / sqrt_pi;
            }
            scales[g] = w.sqrt();
        }
        Ok(Self {
            omegas,
            scales,
            mbar,
            lengthscales,
            variance,
        })
    }

    /// Number of Hermite nodes per dimension.
    pub fn mbar(&self) -> usize {
        self.mbar
    }

    /// The frequencies `omega_I` (one row per grid point).
    pub fn frequencies(&self) -> &Array2<f64> {
        &self.omegas
    }

    /// The lengthscales per dimension.
    pub fn lengthscales(&self) -> &Array1<f64> {
        &self.lengthscales
    }

    /// The kernel variance `s^2`.
    pub fn variance(&self) -> f64 {
        self.variance
    }

    /// The bound of Theorem 2 (Dubey 2021; Mutny & Krause 2018) on
    /// `sup_{x, y in [0,1]^d} |k(x, y) - phi(x)^T phi(y)|`, times the variance `s^2`:
    /// `s^2 d 2^{d-1} sqrt(pi/2) mbar^{-mbar} (e / (4 nu^2))^mbar` with `nu = min_j l_j`
    /// (computed in logarithms).
    pub fn error_bound(&self) -> f64 {
        let d = self.lengthscales.len() as f64;
        let nu = self
            .lengthscales
            .iter()
            .fold(f64::INFINITY, |m, &l| m.min(l));
        let mb = self.mbar as f64;
        let log = d.ln() + (d - 1.0) * 2f64.ln() + 0.5 * (std::f64::consts::PI / 2.0).ln()
            - mb * mb.ln()
            + mb * (std::f64::consts::E / (4.0 * nu * nu)).ln();
        self.variance * log.exp()
    }
}

impl FeatureMap for QuadratureFourierFeatures {
    fn input_dim(&self) -> usize {
        self.lengthscales.len()
    }

    fn dim(&self) -> usize {
        2 * self.scales.len()
    }

    fn map_into_unchecked(&self, x: ArrayView1<'_, f64>, mut out: ArrayViewMut1<'_, f64>) {
        let g = self.scales.len();
        let d = self.lengthscales.len();
        debug_assert_eq!(x.len(), d, "QFF input of the wrong dimension");
        // `omegas` is built in standard layout (`new`), so its rows are contiguous slices. Below
        // 8 terms the phase `<omega_I, x>` is summed left to right from +0.0, which is exactly
        // what ndarray's `dot` computes for fewer than 8 terms (one unrolled block needs 8), so
        // the fast path changes no bit; longer rows use `dot` itself.
        let (Some(omegas), Some(out_slice)) = (self.omegas.as_slice(), out.as_slice_mut()) else {
            for (i, (w, &s)) in self.omegas.rows().into_iter().zip(&self.scales).enumerate() {
                let (sin, cos) = w.dot(&x).sin_cos();
                out[i] = s * cos;
                out[g + i] = s * sin;
            }
            return;
        };
        let (cos_out, sin_out) = out_slice.split_at_mut(g);
        if d < 8 {
            let mut xs = [0.0; 8];
            for (xj, &v) in xs.iter_mut().zip(x.iter()) {
                *xj = v;
            }
            let xs = &xs[..d];
            for (((w, &s), c), sn) in omegas
                .chunks_exact(d)
                .zip(&self.scales)
                .zip(cos_out.iter_mut())
                .zip(sin_out.iter_mut())
            {
                let mut a = 0.0;
                for (&wj, &xj) in w.iter().zip(xs) {
                    a += wj * xj;
                }
                let (sin, cos) = a.sin_cos();
                *c = s * cos;
                *sn = s * sin;
            }
        } else {
            for (((w, &s), c), sn) in self
                .omegas
                .rows()
                .into_iter()
                .zip(&self.scales)
                .zip(cos_out.iter_mut())
                .zip(sin_out.iter_mut())
            {
                let (sin, cos) = w.dot(&x).sin_cos();
                *c = s * cos;
                *sn = s * sin;
            }
        }
    }
}
