//! The GP log marginal likelihood (log evidence) and a deterministic maximum-marginal-likelihood
//! fit of the isotropic squared-exponential kernel's hyper-parameters.

use std::f64::consts::TAU;

use ndarray::{Array1, Array2, ArrayView1, ArrayView2};
use serde::{Deserialize, Serialize};

use super::regulariser;
use crate::error::{InputError, KernelError};
use crate::kernels::{Kernel, Lengthscales, SquaredExponential};
use crate::linalg::{Cholesky, symmetric_eigen};
use validation::{ensure_finite, matching_dimension, non_empty, positive};

/// The log marginal likelihood (log evidence) of the values `y` at the rows of `x` under a
/// zero-mean GP prior with kernel `k` and Gaussian observation noise of variance `lambda > 0`:
///
/// `log p(y | X) = -1/2 y^T (K + lambda I)^{-1} y - 1/2 log det(K + lambda I) - n/2 log(2 pi)`
///
/// (Rasmussen & Williams 2006, eq. (2.30)), that is the log density of `y` under
/// `N(0, K + lambda I)`, with `K[i, j] = k(x_i, x_j)`. Computed as in R&W's Algorithm 2.1 with
/// one Cholesky factorisation `K + lambda I = L L^T` (O(n^3)):
/// `y^T (K + lambda I)^{-1} y = |L^{-1} y|^2` (one forward substitution) and
/// `log det(K + lambda I) = 2 sum_i log L_ii`.
///
/// The prior mean is zero: centre or standardise `y` first if the data have an offset. The
/// value is `-inf` (never NaN) when the density underflows (`y^T (K + lambda I)^{-1} y`
/// overflows, with a tiny `lambda` and `y` far outside the span of `K`).
///
/// # Errors
///
/// `lambda` not finite and `> 0`, a number of values different from the number of points, no
/// points, a non-finite point or value, values so large that `|y|^2` overflows, a point the
/// kernel does not accept (wrong dimension), and a `K + lambda I` that is not numerically
/// positive definite ([`KernelError::NotPositiveDefinite`]).
///
/// # Examples
///
/// One point: `y ~ N(0, k(x, x) + lambda)`.
///
/// ```
/// use kernel::{SquaredExponential, log_marginal_likelihood};
/// use ndarray::array;
///
/// let k = SquaredExponential::isotropic(0.3)?;
/// let lml = log_marginal_likelihood(&k, array![[0.5]].view(), array![2.0].view(), 0.25)?;
/// let s2: f64 = 1.0 + 0.25;
/// let by_hand = -0.5 * 4.0 / s2 - 0.5 * s2.ln() - 0.5 * (2.0 * std::f64::consts::PI).ln();
/// assert!((lml - by_hand).abs() < 1e-14);
/// # Ok::<(), kernel::KernelError>(())
/// ```
pub fn log_marginal_likelihood<K: Kernel>(
    kernel: &K,
    x: ArrayView2<'_, f64>,
    y: ArrayView1<'_, f64>,
    lambda: f64,
) -> Result<f64, KernelError> {
    let lambda = regulariser(lambda)?;
    validate_data(x, y)?;
    let mut a = kernel.gram(x)?;
    a.diag_mut().mapv_inplace(|v| v + lambda);
    log_density(a, y)
}

/// `x` and `y` describe `n >= 1` observations: one value per point, all finite, and `|y|^2`
/// finite (values up to about `1e150`).
fn validate_data(x: ArrayView2<'_, f64>, y: ArrayView1<'_, f64>) -> Result<(), KernelError> {
    matching_dimension("GP data: one value per point", x.nrows(), y.len())?;
    non_empty("GP data (marginal likelihood)", y.len())?;
    ensure_finite("GP observations y", y.iter())?;
    ensure_finite("GP observation points x", x.iter())?;
    if !y.dot(&y).is_finite() {
        return Err(KernelError::Input(InputError::Unsatisfied {
            what: "GP observations y: largest |y|",
            value: y.iter().fold(0.0, |m: f64, v| m.max(v.abs())),
            requirement: "the sum of squares |y|^2 must be finite (rescale y)",
        }));
    }
    Ok(())
}

/// `log N(y; 0, A)` for a symmetric positive-definite `A` (`n x n`, `n = y.len()`).
fn log_density(a: Array2<f64>, y: ArrayView1<'_, f64>) -> Result<f64, KernelError> {
    let chol = Cholesky::factor("K + lambda I (marginal likelihood)", a.view())?;
    let beta = chol.solve_lower(y)?;
    let quad = beta.dot(&beta);
    Ok(-0.5 * quad - 0.5 * chol.log_det() - 0.5 * y.len() as f64 * TAU.ln())
}

/// Box constraints `[lo, hi]` on the hyper-parameters of [`fit_squared_exponential`]: the SE
/// lengthscale `l`, the variance `s^2` and the noise variance (regulariser) `lambda`.
///
/// The [`Default`] suits inputs in `[0, 1]^d` and outputs of order one: `l` in `[0.01, 1]`,
/// `s^2` in `[0.05, 20]`, `lambda` in `[1e-6, 1]`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SeBounds {
    /// `(lo, hi)` for the lengthscale `l`.
    pub lengthscale: (f64, f64),
    /// `(lo, hi)` for the variance `s^2 = k(x, x)`.
    pub variance: (f64, f64),
    /// `(lo, hi)` for the noise variance `lambda`.
    pub lambda: (f64, f64),
}

impl Default for SeBounds {
    fn default() -> Self {
        Self {
            lengthscale: (0.01, 1.0),
            variance: (0.05, 20.0),
            lambda: (1e-6, 1.0),
        }
    }
}

impl SeBounds {
    /// Each lower bound finite and `> 0`, each upper bound finite and strictly above its lower
    /// bound.
    pub fn validate(&self) -> Result<(), KernelError> {
        check_bounds(
            "lengthscale lower bound",
            "lengthscale upper bound",
            self.lengthscale,
        )?;
        check_bounds(
            "variance lower bound",
            "variance upper bound",
            self.variance,
        )?;
        check_bounds("lambda lower bound", "lambda upper bound", self.lambda)?;
        Ok(())
    }
}

fn check_bounds(
    lo_name: &'static str,
    hi_name: &'static str,
    (lo, hi): (f64, f64),
) -> Result<(), KernelError> {
    positive(lo_name, lo)?;
    if !(hi.is_finite() && hi > lo) {
        return Err(KernelError::Input(InputError::Unsatisfied {
            what: hi_name,
            value: hi,
            requirement: "must be finite and strictly above its lower bound",
        }));
    }
    Ok(())
}

/// The result of [`fit_squared_exponential`]: the hyper-parameters and the log marginal
/// likelihood there (as computed by [`log_marginal_likelihood`] with [`SeFit::kernel`] and
/// [`SeFit::lambda`], bit for bit).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SeFit {
    /// The fitted lengthscale `l`.
    pub lengthscale: f64,
    /// The fitted variance `s^2`.
    pub variance: f64,
    /// The fitted noise variance `lambda`.
    pub lambda: f64,
    /// `log p(y | X)` at the fitted hyper-parameters.
    pub log_marginal_likelihood: f64,
}

impl SeFit {
    /// The fitted kernel `s^2 exp(-|x - y|^2 / (2 l^2))`.
    pub fn kernel(&self) -> Result<SquaredExponential, KernelError> {
        SquaredExponential::new(self.variance, Lengthscales::isotropic(self.lengthscale)?)
    }
}

/// Number of grid values of the lengthscale in [`fit_squared_exponential`].
pub const SE_FIT_GRID_LENGTHSCALES: usize = 12;
/// Number of grid values of the variance in [`fit_squared_exponential`].
pub const SE_FIT_GRID_VARIANCES: usize = 6;
/// Number of grid values of the noise variance `lambda` in [`fit_squared_exponential`].
pub const SE_FIT_GRID_LAMBDAS: usize = 6;
/// Number of grid values of the noise-to-signal ratio `g = lambda / s^2` in
/// [`fit_squared_exponential`].
pub const SE_FIT_GRID_RATIOS: usize = 16;
/// Precision of the search over `log l` (a relative precision of about `5e-4` on the
/// lengthscale; each evaluation costs an eigendecomposition).
const LOG_TOLERANCE_LENGTHSCALE: f64 = 5e-4;
/// Precision of the search over `log g` (each evaluation costs O(n)).
const LOG_TOLERANCE_RATIO: f64 = 1e-5;
/// Cap on the evaluations of one one-dimensional search (Brent's method on a smooth function
/// needs about 8 to 15 here).
const BRENT_MAX_EVALUATIONS: usize = 60;

/// Maximum-marginal-likelihood ("type II maximum likelihood", Rasmussen & Williams 2006,
/// Sec. 5.4.1) fit of the isotropic squared-exponential kernel `s^2 exp(-|x - y|^2 / (2 l^2))`
/// and the noise variance `lambda` to the data `(x, y)` (zero prior mean), within `bounds`:
/// approximately maximises [`log_marginal_likelihood`] over `(l, s^2, lambda)`.
///
/// This is the refit that Dai, Low & Jaillet's DP-FTS-DE code does every 5 observations (see
/// `docs/dp-fts-de.md`, item 15; they use 10 random restarts of a gradient method, this is a
/// deterministic substitute).
///
/// # Method
///
/// Deterministic, no randomness; every search is in log-parameters. Write `K + lambda I =
/// s^2 (R + g I)` with the correlation matrix `R[i, j] = exp(-|x_i - x_j|^2 / (2 l^2))` and
/// the noise-to-signal ratio `g = lambda / s^2`.
///
/// 1. **Lengthscale grid.** [`SE_FIT_GRID_LENGTHSCALES`] = 12 values of `l`, log-spaced and
///    inclusive of the bounds (the `i`-th of `m` values in `[lo, hi]` is
///    `lo (hi / lo)^(i / (m - 1))`; likewise for every grid below).
/// 2. **Variance and noise at a fixed lengthscale** (the profile likelihood in `l`). With one
///    eigendecomposition `R = U diag(e) U^T` (O(n^3)) and `p = U^T y`, the log likelihood at
///    any `(s^2, lambda)` costs O(n):
///    `-1/2 sum_i p_i^2 / (s^2 e_i + lambda) - 1/2 sum_i log(s^2 e_i + lambda) - n/2 log(2 pi)`.
///    It is maximised over `(s^2, lambda)` in the bounds by the best of
///    - at the 12 grid lengthscales only, the product grid of [`SE_FIT_GRID_VARIANCES`] x
///      [`SE_FIT_GRID_LAMBDAS`] = 6 x 6 values (so the fit is never worse than the
///      12 x 6 x 6 grid over all three parameters);
///    - [`SE_FIT_GRID_RATIOS`] = 16 values of `g` in `[lambda_lo / s^2_hi, lambda_hi / s^2_lo]`,
///      each with its best variance in closed form: at fixed `g` the log likelihood
///      `-q(g) / (2 s^2) - n/2 log s^2 + const`, with `q(g) = sum_i p_i^2 / (e_i + g)`, is
///      concave in `log s^2` with its maximum at `s^2 = q(g) / n`, so its maximum over the
///      `s^2` that the bounds allow (on `s^2`, and on `lambda = g s^2`) is that value clamped
///      into them;
///    - a one-dimensional search over `log g` (the variance again in closed form) in the
///      bracket between the two grid neighbours of the best grid ratio, to a precision of
///      `1e-5`.
///
///    Profiling the variance out follows the ridge along which `s^2` and `lambda` trade off,
///    where a search over `s^2` and `lambda` one at a time crawls. (A first version did
///    coordinate-wise golden-section searches over the three parameters from the 12 x 6 x 6
///    grid; on GP samples of lengthscale 0.4, `n = 60`, it stopped 0.1 to 3.9 nats below the
///    best point of a fine grid on 3 of 9 seeds.)
/// 3. **Lengthscale search.** A one-dimensional search over `log l` of the profile of step 2
///    (one eigendecomposition per evaluation), in the bracket between the two grid neighbours
///    of the best grid lengthscale, to a precision of `5e-4`.
///
/// The one-dimensional searches use Brent's method (golden-section search accelerated by
/// parabolic interpolation, Brent 1973, ch. 5; Press et al., *Numerical Recipes*, 3rd ed.,
/// Sec. 10.3), which keeps the best point evaluated.
///
/// Every point evaluated is admissible and the best one evaluated is returned, so the result
/// is never worse than any grid point. It is a local maximum (to the precisions above, unless
/// it lies on the edge of a bracket) near the best grid point, not a certified global maximum:
/// the marginal likelihood can be multi-modal (a short lengthscale with little noise against a
/// long one with much noise), and a mode that no grid lengthscale falls near can be missed.
/// The returned parameters lie within `bounds`. [`SeFit::log_marginal_likelihood`] is
/// recomputed at them with [`log_marginal_likelihood`] (a Cholesky factorisation); it agrees
/// with the spectral value of the search to round-off, which grows with the condition number
/// of `R + g I`.
///
/// # Cost
///
/// 12 + about 8 (at most 12 + 60) symmetric eigendecompositions of `n x n` matrices and
/// `n (n - 1) / 2` exponentials each; everything else is O(n) per evaluation (about 50
/// evaluations per lengthscale). About 4 ms of CPU time for `n = 50` in release mode. Meant
/// for `n` up to about a hundred points.
///
/// # Numerical failures
///
/// An evaluation at which some `s^2 e_i + lambda` is not positive (`K + lambda I` is not
/// numerically positive definite; this should not happen with `lambda >= 1e-6` and a bounded
/// variance, as the eigenvalues of `R` are at worst about `-1e-14`), or a lengthscale whose
/// eigendecomposition fails, counts as log likelihood `-inf` and does not abort the fit. If
/// every evaluation at the grid lengthscales fails, the fit returns
/// [`KernelError::NotPositiveDefinite`]; so does the final [`log_marginal_likelihood`] if its
/// Cholesky factorisation fails.
///
/// # Errors
///
/// Invalid bounds (see [`SeBounds::validate`]), a number of values different from the number
/// of points, no points, a non-finite point or value, values so large that `|y|^2` overflows,
/// or the numerical failures above.
///
/// # Examples
///
/// A smooth function observed with a little noise is fitted with a lengthscale of its scale,
/// and the fit is at least as likely as any fixed choice inside the bounds.
///
/// ```
/// use kernel::{SeBounds, SquaredExponential, fit_squared_exponential, log_marginal_likelihood};
/// use ndarray::{Array1, Array2};
///
/// let x = Array2::from_shape_fn((30, 1), |(i, _)| i as f64 / 29.0);
/// let y: Array1<f64> = x.column(0).mapv(|t| (6.0 * t).sin());
/// let fit = fit_squared_exponential(x.view(), y.view(), &SeBounds::default())?;
/// assert!(fit.lengthscale > 0.05 && fit.lengthscale < 1.0);
/// let k = SquaredExponential::isotropic(0.3)?;
/// let fixed = log_marginal_likelihood(&k, x.view(), y.view(), 0.01)?;
/// assert!(fit.log_marginal_likelihood >= fixed);
/// # Ok::<(), kernel::KernelError>(())
/// ```
pub fn fit_squared_exponential(
    x: ArrayView2<'_, f64>,
    y: ArrayView1<'_, f64>,
    bounds: &SeBounds,
) -> Result<SeFit, KernelError> {
    bounds.validate()?;
    validate_data(x, y)?;
    let search = Search::new(x, y, bounds);

    // 1-2. The lengthscale grid, each with its best variance and noise.
    let grid_l = log_grid(log_bounds(bounds.lengthscale), SE_FIT_GRID_LENGTHSCALES);
    let profiles: Vec<Candidate> = grid_l
        .iter()
        .map(|&t| search.profile(to_param(t, bounds.lengthscale), true))
        .collect();
    let (i, mut best) = argmax(&profiles);
    if !best.f.is_finite() {
        return Err(KernelError::NotPositiveDefinite {
            what: "K + lambda I (squared-exponential fit)",
            kind: "",
            detail: "not numerically positive definite at any grid point of the fit".into(),
        });
    }

    // 3. Search over log l around the best grid lengthscale.
    brent_max(neighbours(&grid_l, i), LOG_TOLERANCE_LENGTHSCALE, |t| {
        let c = search.profile(to_param(t, bounds.lengthscale), false);
        if c.f > best.f {
            best = c;
        }
        c.f
    });

    let mut fit = SeFit {
        lengthscale: best.l,
        variance: best.s2,
        lambda: best.lambda,
        log_marginal_likelihood: f64::NAN,
    };
    fit.log_marginal_likelihood = log_marginal_likelihood(&fit.kernel()?, x, y, fit.lambda)?;
    Ok(fit)
}

/// `(log lo, log hi)`.
fn log_bounds((lo, hi): (f64, f64)) -> (f64, f64) {
    (lo.ln(), hi.ln())
}

/// `m >= 2` log-spaced values from `lo` to `hi` (given as logs), both included.
fn log_grid((lo, hi): (f64, f64), m: usize) -> Vec<f64> {
    let step = (hi - lo) / (m - 1) as f64;
    (0..m)
        .map(|i| if i + 1 == m { hi } else { lo + step * i as f64 })
        .collect()
}

/// `[g[i - 1], g[i + 1]]`, cut at the ends of the grid.
fn neighbours(g: &[f64], i: usize) -> (f64, f64) {
    (g[i.saturating_sub(1)], g[(i + 1).min(g.len() - 1)])
}

/// `exp(t)`, clamped into `[lo, hi]` (round-off in `exp(log hi)` never leaves the bounds).
fn to_param(t: f64, (lo, hi): (f64, f64)) -> f64 {
    t.exp().max(lo).min(hi)
}

/// The first candidate with the largest log likelihood (the first if all are `-inf`).
fn argmax(cs: &[Candidate]) -> (usize, Candidate) {
    cs.iter()
        .copied()
        .enumerate()
        .fold((0, cs[0]), |b, (i, c)| if c.f > b.1.f { (i, c) } else { b })
}

/// A maximum of `f` on `[a, b]` by Brent's method (Brent 1973, ch. 5; Press et al.,
/// *Numerical Recipes*, 3rd ed., Sec. 10.3): golden-section steps, replaced by the vertex of the
/// parabola through the three best points when that vertex is safely inside the bracket and the
/// steps shrink. Stops when the best point is known to within about `tol` (and after at most
/// [`BRENT_MAX_EVALUATIONS`] evaluations). Returns the best point evaluated and its value. An
/// evaluation may be `-inf` (a numerical failure): the parabola through it is not finite and a
/// golden-section step is taken instead; `f` must not return NaN.
fn brent_max(bracket: (f64, f64), tol: f64, mut f: impl FnMut(f64) -> f64) -> (f64, f64) {
    // 2 - golden ratio: the golden-section step as a fraction of the larger side.
    const C: f64 = 0.381_966_011_250_105_1;
    let (mut a, mut b) = bracket;
    // x: the best point; w: the second best; v: the previous w (values of -f: minimised).
    let mut x = a + C * (b - a);
    let mut fx = -f(x);
    let (mut w, mut v, mut fw, mut fv) = (x, x, fx, fx);
    // d: the last step; e: the step before it.
    let (mut d, mut e) = (0.0f64, 0.0f64);
    for _ in 1..BRENT_MAX_EVALUATIONS {
        let xm = 0.5 * (a + b);
        if (x - xm).abs() <= 2.0 * tol - 0.5 * (b - a) {
            break;
        }
        let golden = |x: f64| if x >= xm { a - x } else { b - x };
        if e.abs() > tol {
            let r = (x - w) * (fx - fv);
            let q = (x - v) * (fx - fw);
            let p = (x - v) * q - (x - w) * r;
            let (p, q) = if q - r > 0.0 {
                (-p, 2.0 * (q - r))
            } else {
                (p, -2.0 * (q - r))
            };
            let previous = e;
            e = d;
            // Accept the parabola's vertex x + p / q only if it is finite, inside (a, b), and
            // the step is less than half the step before last.
            if q > 0.0 && p.abs() < (0.5 * q * previous).abs() && p > q * (a - x) && p < q * (b - x)
            {
                d = p / q;
                let u = x + d;
                if u - a < 2.0 * tol || b - u < 2.0 * tol {
                    d = tol.copysign(xm - x);
                }
            } else {
                e = golden(x);
                d = C * e;
            }
        } else {
            e = golden(x);
            d = C * e;
        }
        let u = if d.abs() >= tol {
            x + d
        } else {
            x + tol.copysign(d)
        };
        let fu = -f(u);
        if fu <= fx {
            if u >= x {
                a = x;
            } else {
                b = x;
            }
            (v, fv) = (w, fw);
            (w, fw) = (x, fx);
            (x, fx) = (u, fu);
        } else {
            if u < x {
                a = u;
            } else {
                b = u;
            }
            if fu <= fw || w.to_bits() == x.to_bits() {
                (v, fv) = (w, fw);
                (w, fw) = (u, fu);
            } else if fu <= fv || v.to_bits() == x.to_bits() || v.to_bits() == w.to_bits() {
                (v, fv) = (u, fu);
            }
        }
    }
    (x, -fx)
}

/// Hyper-parameters and their log marginal likelihood `f` (`-inf` on a numerical failure).
#[derive(Debug, Clone, Copy)]
struct Candidate {
    l: f64,
    s2: f64,
    lambda: f64,
    f: f64,
}

/// The data of the fit (the squared distances `|x_i - x_j|^2`, computed once, and `y`), its
/// bounds and its grids of `(s^2, lambda)` and of `log g`.
struct Search<'a> {
    sq_dist: Array2<f64>,
    y: ArrayView1<'a, f64>,
    bounds: SeBounds,
    /// The variance x noise grid (parameters, not logs).
    grid_s2_lambda: Vec<(f64, f64)>,
    /// The grid of `log g`.
    grid_log_g: Vec<f64>,
}

impl<'a> Search<'a> {
    fn new(x: ArrayView2<'_, f64>, y: ArrayView1<'a, f64>, bounds: &SeBounds) -> Self {
        let n = x.nrows();
        let mut sq_dist = Array2::zeros((n, n));
        for i in 0..n {
            for j in 0..i {
                let d2: f64 = x
                    .row(i)
                    .iter()
                    .zip(x.row(j))
                    .map(|(a, b)| (a - b) * (a - b))
                    .sum();
                sq_dist[[i, j]] = d2;
                sq_dist[[j, i]] = d2;
            }
        }
        let grid_s2 = log_grid(log_bounds(bounds.variance), SE_FIT_GRID_VARIANCES);
        let grid_lambda = log_grid(log_bounds(bounds.lambda), SE_FIT_GRID_LAMBDAS);
        let grid_s2_lambda = grid_s2
            .iter()
            .flat_map(|&ts| {
                grid_lambda
                    .iter()
                    .map(move |&tn| (to_param(ts, bounds.variance), to_param(tn, bounds.lambda)))
            })
            .collect();
        let (s2_lo, s2_hi) = log_bounds(bounds.variance);
        let (lambda_lo, lambda_hi) = log_bounds(bounds.lambda);
        let grid_log_g = log_grid((lambda_lo - s2_hi, lambda_hi - s2_lo), SE_FIT_GRID_RATIOS);
        Self {
            sq_dist,
            y,
            bounds: *bounds,
            grid_s2_lambda,
            grid_log_g,
        }
    }

    /// The best `(s^2, lambda)` found at lengthscale `l` (step 2 of the method), `-inf` if the
    /// eigendecomposition fails or every evaluation does.
    fn profile(&self, l: f64, with_grid: bool) -> Candidate {
        let mut best = Candidate {
            l,
            s2: self.bounds.variance.0,
            lambda: self.bounds.lambda.0,
            f: f64::NEG_INFINITY,
        };
        let Some(spectrum) = self.spectrum(l) else {
            return best;
        };
        let mut consider = |s2: f64, lambda: f64| {
            let f = spectrum.log_likelihood(s2, lambda);
            if f > best.f {
                best = Candidate { l, s2, lambda, f };
            }
            f
        };
        if with_grid {
            for &(s2, lambda) in &self.grid_s2_lambda {
                consider(s2, lambda);
            }
        }
        let mut at_ratio = |t: f64| {
            spectrum
                .best_variance(t.exp(), &self.bounds)
                .map_or(f64::NEG_INFINITY, |(s2, lambda)| consider(s2, lambda))
        };
        let ratio_values: Vec<f64> = self.grid_log_g.iter().map(|&t| at_ratio(t)).collect();
        let i = (0..ratio_values.len()).fold(0, |b, i| {
            if ratio_values[i] > ratio_values[b] {
                i
            } else {
                b
            }
        });
        brent_max(
            neighbours(&self.grid_log_g, i),
            LOG_TOLERANCE_RATIO,
            at_ratio,
        );
        best
    }

    /// The eigendecomposition of the SE correlation matrix `R` at lengthscale `l`, as
    /// eigenvalues `e` and squared projections `(U^T y)_i^2`.
    fn spectrum(&self, l: f64) -> Option<Spectrum> {
        let c = -0.5 / (l * l);
        let n = self.sq_dist.nrows();
        let mut corr = Array2::ones((n, n));
        for i in 0..n {
            for j in 0..i {
                let r = (c * self.sq_dist[[i, j]]).exp();
                corr[[i, j]] = r;
                corr[[j, i]] = r;
            }
        }
        let eig = symmetric_eigen("SE correlation matrix (fit)", corr.view()).ok()?;
        let p2 = eig.vectors.t().dot(&self.y).mapv(|p| p * p);
        Some(Spectrum { e: eig.values, p2 })
    }
}

/// The eigenvalues `e` of `R` and the squared projections `p_i^2` of `y` on its eigenvectors.
struct Spectrum {
    e: Array1<f64>,
    p2: Array1<f64>,
}

impl Spectrum {
    /// `log N(y; 0, s^2 R + lambda I)`, `-inf` if some `s^2 e_i + lambda <= 0`.
    fn log_likelihood(&self, s2: f64, lambda: f64) -> f64 {
        let (mut quad, mut log_det) = (0.0, 0.0);
        for (&e, &p2) in self.e.iter().zip(&self.p2) {
            let a = s2 * e + lambda;
            if a.is_nan() || a <= 0.0 {
                return f64::NEG_INFINITY;
            }
            quad += p2 / a;
            log_det += a.ln();
        }
        let f = -0.5 * quad - 0.5 * log_det - 0.5 * self.e.len() as f64 * TAU.ln();
        if f.is_nan() { f64::NEG_INFINITY } else { f }
    }

    /// At ratio `g = lambda / s^2`: the best variance `q(g) / n` clamped into the bounds on
    /// `s^2` and on `lambda = g s^2`, and its `lambda` (`None` if some `e_i + g <= 0`).
    fn best_variance(&self, g: f64, b: &SeBounds) -> Option<(f64, f64)> {
        let mut q = 0.0;
        for (&e, &p2) in self.e.iter().zip(&self.p2) {
            let a = e + g;
            if a.is_nan() || a <= 0.0 {
                return None;
            }
            q += p2 / a;
        }
        let lo = b.variance.0.max(b.lambda.0 / g);
        let hi = b.variance.1.min(b.lambda.1 / g);
        let s2 = (q / self.e.len() as f64).max(lo).min(hi);
        let s2 = s2.max(b.variance.0).min(b.variance.1);
        let lambda = (g * s2).max(b.lambda.0).min(b.lambda.1);
        Some((s2, lambda))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `brent_max` on `f`, with the number of evaluations.
    fn counted(bracket: (f64, f64), tol: f64, f: impl Fn(f64) -> f64) -> (f64, f64, usize) {
        let mut count = 0;
        let (t, v) = brent_max(bracket, tol, |t| {
            count += 1;
            f(t)
        });
        (t, v, count)
    }

    #[test]
    fn brent_finds_the_maximum_of_a_smooth_function_quickly() {
        // Golden-section search alone would need about 30 evaluations to shrink [-2, 3] to 1e-5.
        let f = |t: f64| -(t - 0.7) * (t - 0.7) + 0.1 * (t - 0.7).powi(3);
        let (t, v, count) = counted((-2.0, 3.0), 1e-5, f);
        assert!((t - 0.7).abs() < 3e-5, "t = {t}");
        assert_eq!(v.to_bits(), f(t).to_bits());
        assert!(count <= 15, "{count} evaluations");
    }

    #[test]
    fn brent_at_the_edge_of_the_bracket() {
        let (t, v, _) = counted((0.0, 1.0), 1e-4, |t| t);
        assert!(t > 1.0 - 5e-4 && t <= 1.0, "t = {t}");
        assert_eq!(v.to_bits(), t.to_bits());
        let (t, _, _) = counted((0.0, 1.0), 1e-4, |t| -t);
        assert!((0.0..5e-4).contains(&t), "t = {t}");
    }

    #[test]
    fn brent_on_a_kink_and_through_failures() {
        let (t, _, count) = counted((0.0, 1.0), 1e-6, |t| -(t - 0.3).abs());
        assert!((t - 0.3).abs() < 1e-5, "t = {t}");
        assert!(count < BRENT_MAX_EVALUATIONS, "{count} evaluations");
        // -inf (a failed evaluation) below 0.5, a maximum at 0.8.
        let f = |t: f64| {
            if t < 0.5 {
                f64::NEG_INFINITY
            } else {
                -(t - 0.8) * (t - 0.8)
            }
        };
        let (t, v, _) = counted((0.0, 1.0), 1e-6, f);
        assert!((t - 0.8).abs() < 1e-5 && v.is_finite(), "t = {t}");
        // Every evaluation fails: the value is -inf, no panic.
        let (_, v, count) = counted((0.0, 1.0), 1e-6, |_| f64::NEG_INFINITY);
        assert!(v == f64::NEG_INFINITY && count <= BRENT_MAX_EVALUATIONS);
    }

    #[test]
    fn log_grid_includes_both_ends() {
        let g = log_grid((0.01f64.ln(), 1.0f64.ln()), 12);
        assert_eq!(g.len(), 12);
        assert_eq!(g[0].to_bits(), 0.01f64.ln().to_bits());
        assert_eq!(g[11].to_bits(), 0.0f64.to_bits());
        assert!(g.windows(2).all(|w| w[1] > w[0]));
        assert!((g[1] - g[0] - 100f64.ln() / 11.0).abs() < 1e-12);
    }

    #[test]
    fn the_spectral_likelihood_equals_the_cholesky_one() {
        let x = ndarray::array![[0.1, 0.9], [0.4, 0.2], [0.5, 0.5], [0.8, 0.3], [0.35, 0.25]];
        let y = ndarray::array![0.3, -1.2, 0.8, 0.1, -0.9];
        let search = Search::new(x.view(), y.view(), &SeBounds::default());
        let spectrum = search.spectrum(0.3).unwrap();
        for (s2, lambda) in [(1.0, 0.01), (3.0, 1e-6), (0.1, 0.5)] {
            let k = SquaredExponential::new(s2, Lengthscales::isotropic(0.3).unwrap()).unwrap();
            let chol = log_marginal_likelihood(&k, x.view(), y.view(), lambda).unwrap();
            let spec = spectrum.log_likelihood(s2, lambda);
            assert!(
                (chol - spec).abs() < 1e-10 * chol.abs().max(1.0),
                "{chol} vs {spec}"
            );
        }
    }

    #[test]
    fn the_closed_form_variance_is_the_best_at_its_ratio() {
        let x = ndarray::array![[0.1], [0.4], [0.5], [0.8], [0.35], [0.9]];
        let y = ndarray::array![0.3, -1.2, 0.8, 0.1, -0.9, 2.0];
        let b = SeBounds::default();
        let spectrum = Search::new(x.view(), y.view(), &b).spectrum(0.2).unwrap();
        for g in [1e-4, 0.01, 0.3] {
            let (s2, lambda) = spectrum.best_variance(g, &b).unwrap();
            assert!((lambda / s2 - g).abs() < 1e-12 * g);
            let f = spectrum.log_likelihood(s2, lambda);
            let inside = |v: f64, (lo, hi): (f64, f64)| v >= lo && v <= hi;
            let mut compared = 0;
            for factor in [0.9, 0.99, 1.01, 1.1] {
                if !inside(s2 * factor, b.variance) || !inside(lambda * factor, b.lambda) {
                    continue; // the bounds do not allow it
                }
                compared += 1;
                let other = spectrum.log_likelihood(s2 * factor, lambda * factor);
                assert!(other < f, "g = {g}, factor {factor}: {other} >= {f}");
            }
            assert!(compared >= 2, "g = {g}: s2 = {s2}");
        }
    }
}
