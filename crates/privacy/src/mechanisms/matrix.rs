//! Symmetric matrix Gaussian noise: the upper triangle (diagonal included) i.i.d.
//! `N(0, sigma^2)`, mirrored below the diagonal, the sensitivity of the outer-product
//! statistic `v v^T` with `v = [phi; y]`, and the mechanism that releases that statistic
//! ([`OuterProductGaussian`]).

use ndarray::{Array1, Array2, ArrayView1, ArrayView2, Axis};
use rand::Rng;

use crate::claim::{Guarantee, PrivacyClaim, TrustModel};
use crate::error::{InputError, PrivacyError};
use crate::mechanism::Mechanism;
pub use crate::mechanisms::sensitivity::{
    Neighbouring, SensitivityBound, outer_product_sensitivity,
};
use crate::mechanisms::zcdp_by_sampler::ZcdpBySampler;
use crate::params::{NoiseScale, Rho, Sensitivity};
use crate::sampler::{Grid, NoiseSampler, Norm, Sampler};
use validation::{at_least_one, finite, open_unit};

/// The number of entries of the upper triangle (diagonal included) of a `d x d` matrix.
pub fn packed_len(d: usize) -> usize {
    d * (d + 1) / 2
}

/// [`packed_len`], or an error when `d (d + 1) / 2` does not fit in `usize` (constructors
/// call this once, so that [`packed_len`] never overflows afterwards).
pub fn checked_packed_len(d: usize) -> Result<usize, PrivacyError> {
    d.checked_add(1)
        .and_then(|d1| d.checked_mul(d1))
        .map(|n| n / 2)
        .ok_or_else(|| {
            PrivacyError::Input(InputError::OutOfRange {
                what: "matrix dimension d (d (d + 1) / 2 entries overflow)",
                value: d as f64,
                range: validation::Interval::closed(1.0, (usize::MAX as f64).sqrt()),
            })
        })
}

/// Pack the upper triangle of a square matrix row by row: `(0,0), (0,1), ..., (0,d-1), (1,1), ...`.
pub fn pack_upper(m: ArrayView2<'_, f64>) -> Result<Array1<f64>, PrivacyError> {
    let d = m.nrows();
    if m.ncols() != d {
        return Err(PrivacyError::Input(InputError::DimensionMismatch {
            context: "symmetric matrix: columns",
            expected: d,
            got: m.ncols(),
        }));
    }
    let mut out = Vec::with_capacity(packed_len(d));
    for (i, row) in m.outer_iter().enumerate() {
        // Row i from column i on, in order (a contiguous row is read as a slice).
        let (_, upper) = row.split_at(Axis(0), i);
        for &v in &upper {
            out.push(finite("matrix entry", v)?);
        }
    }
    Ok(Array1::from(out))
}

/// The symmetric matrix whose upper triangle is `packed` (the inverse of [`pack_upper`]).
pub fn unpack_symmetric(
    packed: ArrayView1<'_, f64>,
    d: usize,
) -> Result<Array2<f64>, PrivacyError> {
    if packed.len() != packed_len(d) {
        return Err(PrivacyError::Input(InputError::DimensionMismatch {
            context: "packed symmetric matrix",
            expected: packed_len(d),
            got: packed.len(),
        }));
    }
    // Row-major: row i's upper part (columns i..d) is the next d - i packed values; the strict
    // lower triangle is then mirrored from the upper one.
    let packed = packed.to_vec();
    let mut v = vec![0.0; d * d];
    let mut k = 0;
    for i in 0..d {
        v[i * d + i..(i + 1) * d].copy_from_slice(&packed[k..k + d - i]);
        k += d - i;
    }
    for i in 1..d {
        for j in 0..i {
            v[i * d + j] = v[j * d + i];
        }
    }
    let got = v.len();
    Array2::from_shape_vec((d, d), v).map_err(|_| {
        PrivacyError::Input(InputError::DimensionMismatch {
            context: "unpacked symmetric matrix",
            expected: d * d,
            got,
        })
    })
}

/// The outer product `v v^T` of `v = [phi; y]`, after clipping `phi` to L2 norm `phi_bound` and
/// `y` to `[-y_bound, y_bound]` (so that [`outer_product_sensitivity`] holds for every input).
pub fn clipped_outer_product(
    phi: ArrayView1<'_, f64>,
    y: f64,
    phi_bound: f64,
    y_bound: f64,
) -> Result<Array2<f64>, PrivacyError> {
    let pb = Sensitivity::new(phi_bound)?.get();
    let yb = Sensitivity::new(y_bound)?.get();
    let mut v = Array1::zeros(phi.len() + 1);
    let mut norm2 = 0.0;
    for (i, &x) in phi.iter().enumerate() {
        v[i] = finite("feature", x)?;
        norm2 += x * x;
    }
    let norm = norm2.sqrt();
    if norm > pb {
        let f = pb / norm;
        for x in v.iter_mut().take(phi.len()) {
            *x *= f;
        }
    }
    v[phi.len()] = finite("reward", y)?.clamp(-yb, yb);
    // `v_i v_j + 0.0`: the value a matrix product of the column by the row gives (one
    // correctly rounded product added to a zero accumulator, so a negative zero turns positive).
    let v = v.to_vec();
    let mut product = Vec::with_capacity(v.len() * v.len());
    for &a in &v {
        product.extend(v.iter().map(|&b| a * b + 0.0));
    }
    Ok(Array2::from_shape_vec((v.len(), v.len()), product)
        .expect("n * n entries for an n x n matrix"))
}

/// Symmetric Gaussian noise: upper triangle i.i.d. `N(0, sigma^2)` (hardened: exact discrete
/// Gaussian on a grid chosen from `sensitivity`), mirrored.
pub fn symmetric_gaussian_noise<R: Rng + ?Sized>(
    d: usize,
    sigma: f64,
    sensitivity: f64,
    sampler: Sampler,
    rng: &mut R,
) -> Result<Array2<f64>, PrivacyError> {
    let grid = Grid::for_sensitivity(sensitivity, packed_len(d), Norm::L2)?;
    let mut packed = vec![0.0; packed_len(d)];
    sampler.gaussian_noise_into(sigma, grid, &mut packed, rng)?;
    unpack_symmetric(ArrayView1::from(&packed), d)
}

/// How an [`OuterProductGaussian`] was calibrated.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum OuterProductCalibration {
    /// A target rho-zCDP: `sigma = Delta_eff / sqrt(2 rho)`.
    Zcdp {
        /// rho.
        rho: Rho,
    },
    /// A given noise standard deviation: `rho = Delta_eff^2 / (2 sigma^2)`.
    Sigma {
        /// sigma.
        sigma: NoiseScale,
    },
}

/// The symmetric-matrix Gaussian mechanism on one clipped outer product: on `(phi, y)`, release
/// the packed upper triangle ([`pack_upper`]) of `v v^T + N`, where `v = [clip(phi); clip(y)]`
/// ([`clipped_outer_product`]) and `N` is symmetric with i.i.d. `N(0, sigma^2)` upper triangle
/// ([`symmetric_gaussian_noise`]).
///
/// # Calibration
/// Clipping enforces `||phi||_2 <= phi_bound` and `|y| <= y_bound` for every input, so the
/// packed upper triangle has L2 sensitivity `Delta` = [`outer_product_sensitivity`] (or, with
/// [`OuterProductGaussian::with_bound`], the exact
/// [`crate::mechanisms::packed_outer_product_sensitivity`]) under the chosen [`Neighbouring`]
/// relation. The release is the Gaussian mechanism on the
/// `(d+1)(d+2)/2` packed entries, hence `Delta_eff^2 / (2 sigma^2)`-zCDP (Bun & Steinke 2016,
/// Prop. 1.6), with `Delta_eff = Delta` (textbook) or `(1 + GRID_SLACK) Delta` (hardened: each
/// packed entry is rounded to the grid of [`crate::sampler::Grid::for_sensitivity`]`(Delta,
/// (d+1)(d+2)/2, L2)` and receives exact discrete Gaussian noise, which is zCDP with the
/// inflated sensitivity, Canonne, Kamath & Steinke 2020). A `rho` calibration solves
/// `sigma = Delta_eff / sqrt(2 rho)` and claims that `rho`; a `sigma` calibration claims
/// `rho = Delta_eff^2 / (2 sigma^2)`.
#[derive(Debug, Clone, PartialEq)]
pub struct OuterProductGaussian {
    feature_dim: usize,
    phi_bound: f64,
    y_bound: f64,
    relation: Neighbouring,
    bound: SensitivityBound,
    sensitivity: f64,
    calibration: OuterProductCalibration,
    sampler: Sampler,
    /// `sigma` for the current sampler.
    sigma: f64,
    /// The claim's zCDP parameter under each sampler, validated when the mechanism is built.
    zcdp: ZcdpBySampler,
}

impl OuterProductGaussian {
    /// rho-zCDP release of `[phi; y][phi; y]^T` for features `phi` of length
    /// `feature_dim >= 1` (the matrix is `(feature_dim + 1) x (feature_dim + 1)`), clipped to
    /// `||phi||_2 <= phi_bound`, `|y| <= y_bound` (both finite, >= 0, not both 0), under
    /// `relation`; hardened sampler.
    pub fn zcdp(
        feature_dim: usize,
        phi_bound: f64,
        y_bound: f64,
        relation: Neighbouring,
        rho: f64,
    ) -> Result<Self, PrivacyError> {
        let rho = Rho::new(rho)?;
        Self::build(
            feature_dim,
            phi_bound,
            y_bound,
            relation,
            SensitivityBound::Frobenius,
            OuterProductCalibration::Zcdp { rho },
        )
    }

    /// The same release with a given noise standard deviation `sigma > 0` (finite); the claim
    /// is the rho-zCDP it implies.
    pub fn with_noise(
        feature_dim: usize,
        phi_bound: f64,
        y_bound: f64,
        relation: Neighbouring,
        sigma: f64,
    ) -> Result<Self, PrivacyError> {
        let sigma = NoiseScale::new(sigma)?;
        Self::build(
            feature_dim,
            phi_bound,
            y_bound,
            relation,
            SensitivityBound::Frobenius,
            OuterProductCalibration::Sigma { sigma },
        )
    }

    /// The same release with its sensitivity from `bound` (the default is
    /// [`SensitivityBound::Frobenius`]): a `rho` calibration re-solves `sigma`, a `sigma`
    /// calibration re-computes the `rho` it claims.
    pub fn with_bound(self, bound: SensitivityBound) -> Result<Self, PrivacyError> {
        let sampler = self.sampler;
        Ok(Self::build(
            self.feature_dim,
            self.phi_bound,
            self.y_bound,
            self.relation,
            bound,
            self.calibration,
        )?
        .with_sampler(sampler))
    }

    fn build(
        feature_dim: usize,
        phi_bound: f64,
        y_bound: f64,
        relation: Neighbouring,
        bound: SensitivityBound,
        calibration: OuterProductCalibration,
    ) -> Result<Self, PrivacyError> {
        at_least_one("feature dimension", feature_dim)?;
        checked_packed_len(feature_dim.saturating_add(1))?;
        let sensitivity = bound.sensitivity(phi_bound, y_bound, relation)?;
        let zcdp = match calibration {
            OuterProductCalibration::Zcdp { rho } => ZcdpBySampler::stated(rho),
            OuterProductCalibration::Sigma { sigma } => {
                ZcdpBySampler::of_noise("outer-product Gaussian", 1.0, sensitivity, sigma.get())?
            }
        };
        Ok(Self {
            feature_dim,
            phi_bound,
            y_bound,
            relation,
            bound,
            sensitivity,
            calibration,
            sampler: Sampler::Hardened,
            sigma: f64::NAN,
            zcdp,
        }
        .with_sigma())
    }

    /// The same mechanism with another sampler (a `rho` calibration re-solves `sigma` for the
    /// sampler's effective sensitivity).
    pub fn with_sampler(mut self, sampler: Sampler) -> Self {
        self.sampler = sampler;
        self.with_sigma()
    }

    fn with_sigma(mut self) -> Self {
        self.sigma = match self.calibration {
            OuterProductCalibration::Zcdp { rho } => {
                self.effective_sensitivity() / (2.0 * rho.get()).sqrt()
            }
            OuterProductCalibration::Sigma { sigma } => sigma.get(),
        };
        self
    }

    /// The sampler in use.
    pub fn sampler(&self) -> Sampler {
        self.sampler
    }

    /// The calibration.
    pub fn calibration(&self) -> OuterProductCalibration {
        self.calibration
    }

    /// The length `d` of `phi`; the released matrix is `(d + 1) x (d + 1)`.
    pub fn feature_dim(&self) -> usize {
        self.feature_dim
    }

    /// The number of released entries, `(d + 1)(d + 2) / 2`.
    pub fn packed_len(&self) -> usize {
        packed_len(self.feature_dim + 1)
    }

    /// Which sensitivity bound the calibration uses.
    pub fn bound(&self) -> SensitivityBound {
        self.bound
    }

    /// The L2 sensitivity of the packed statistic under [`Self::bound`]
    /// ([`outer_product_sensitivity`] or [`crate::mechanisms::packed_outer_product_sensitivity`]).
    pub fn sensitivity(&self) -> f64 {
        self.sensitivity
    }

    /// The sensitivity the noise is calibrated for: `Delta` (textbook) or
    /// `(1 + GRID_SLACK) Delta` (hardened).
    pub fn effective_sensitivity(&self) -> f64 {
        self.sensitivity * self.sampler.sensitivity_factor()
    }

    /// The noise standard deviation of each packed entry.
    pub fn sigma(&self) -> f64 {
        self.sigma
    }

    /// The zCDP parameter of the claim: the calibration's `rho`, or
    /// `Delta_eff^2 / (2 sigma^2)` for a given `sigma`.
    pub fn rho(&self) -> f64 {
        self.zcdp.get(self.sampler).get()
    }

    /// The claim: rho-zCDP, central, one `(phi, y)` under the neighbouring relation.
    pub fn claim(&self) -> PrivacyClaim {
        let rho = self.zcdp.get(self.sampler);
        let relation = match self.relation {
            Neighbouring::AddRemove => "added or removed",
            Neighbouring::Replace => "replaced by another",
        };
        let bound = match self.bound {
            SensitivityBound::Frobenius => String::new(),
            b => format!(", bound={}", b.name()),
        };
        PrivacyClaim::new(
            format!(
                "outer_product_gaussian(d={}, phi_bound={}, y_bound={}, l2_sensitivity={}{bound}, sigma={}, sampler={})",
                self.feature_dim,
                self.phi_bound,
                self.y_bound,
                self.sensitivity,
                self.sigma,
                self.sampler.name()
            ),
            Guarantee::Zcdp { rho },
            TrustModel::Central,
            self.relation.into(),
            format!(
                "one (phi, y) {relation}, ||phi||_2 <= {}, |y| <= {} (enforced by clipping); packed upper triangle of [phi; y][phi; y]^T, L2 sensitivity {}",
                self.phi_bound, self.y_bound, self.sensitivity
            ),
        )
    }

    fn check_phi(&self, phi: ArrayView1<'_, f64>) -> Result<(), PrivacyError> {
        if phi.len() != self.feature_dim {
            return Err(PrivacyError::Input(InputError::DimensionMismatch {
                context: "outer product features",
                expected: self.feature_dim,
                got: phi.len(),
            }));
        }
        Ok(())
    }

    /// Release the packed upper triangle of `clip(phi, y) outer + N` (the same as
    /// [`Mechanism::release`]). Packed entries are perturbed in [`pack_upper`] order, one
    /// draw each, exactly the draws of [`symmetric_gaussian_noise`]; with the hardened sampler
    /// each entry is first rounded to the grid (on grid entries the output equals
    /// `pack_upper(clipped_outer_product + symmetric_gaussian_noise)` bit for bit).
    pub fn release_outer_product<R: Rng + ?Sized>(
        &self,
        phi: ArrayView1<'_, f64>,
        y: f64,
        rng: &mut R,
    ) -> Result<Array1<f64>, PrivacyError> {
        self.check_phi(phi)?;
        let m = clipped_outer_product(phi, y, self.phi_bound, self.y_bound)?;
        let mut packed = pack_upper(m.view())?;
        let grid = Grid::for_sensitivity(self.sensitivity, packed.len(), Norm::L2)?;
        let values = packed
            .as_slice_mut()
            .expect("pack_upper returns a contiguous array");
        self.sampler
            .perturb_gaussian_into(values, self.sigma, grid, rng)?;
        Ok(packed)
    }

    /// The deterministic part with the noise passed in: `pack_upper(clip(phi, y) outer) +
    /// noise`, `noise` of length `(d + 1)(d + 2) / 2` (test vectors).
    pub fn release_with_noise(
        &self,
        phi: ArrayView1<'_, f64>,
        y: f64,
        noise: ArrayView1<'_, f64>,
    ) -> Result<Array1<f64>, PrivacyError> {
        self.check_phi(phi)?;
        if noise.len() != self.packed_len() {
            return Err(PrivacyError::Input(InputError::DimensionMismatch {
                context: "outer product noise (packed)",
                expected: self.packed_len(),
                got: noise.len(),
            }));
        }
        for &z in noise {
            finite("noise", z)?;
        }
        let m = clipped_outer_product(phi, y, self.phi_bound, self.y_bound)?;
        Ok(pack_upper(m.view())? + noise)
    }
}

/// Input: one `(phi, y)`; output: the packed upper triangle of `clip(phi, y) outer + N`
/// ([`OuterProductGaussian::release_outer_product`]). Claim: [`OuterProductGaussian::claim`].
impl Mechanism for OuterProductGaussian {
    type Input = (Array1<f64>, f64);
    type Output = Array1<f64>;

    fn claim(&self) -> PrivacyClaim {
        OuterProductGaussian::claim(self)
    }

    fn release<R: Rng + ?Sized>(
        &self,
        input: &(Array1<f64>, f64),
        rng: &mut R,
    ) -> Result<Array1<f64>, PrivacyError> {
        self.release_outer_product(input.0.view(), input.1, rng)
    }
}

/// The spectral-norm bound of symmetric Gaussian noise (Tropp 2015, "An Introduction to Matrix
/// Concentration Inequalities", Theorem 4.1.1, matrix Gaussian series).
///
/// A sum of `m` independent symmetric `d x d` noise matrices, each with i.i.d. `N(0, sigma^2)`
/// upper triangle, is `N = sum_{i<=j} g_ij H_ij` with `g_ij ~ N(0, m sigma^2)`, `H_ii = e_i e_i^T`,
/// `H_ij = e_i e_j^T + e_j e_i^T`. Then `sum H_ij^2 = I + (d - 1) I = d I`, so the variance
/// parameter is `v = m sigma^2 d` and `P(||N||_2 >= t) <= 2 d exp(-t^2 / (2 v))`. A union bound
/// over `count` matrices gives: with probability at least `1 - alpha` all have
/// `||N||_2 <= sigma sqrt(2 m d ln(2 d count / alpha))`.
pub fn spectral_bound(
    sigma: f64,
    d: usize,
    m: usize,
    count: u64,
    alpha: f64,
) -> Result<f64, PrivacyError> {
    open_unit("alpha", alpha)?;
    at_least_one("dimension", d)?;
    at_least_one("node count", m)?;
    at_least_one("number of matrices", count)?;
    let v = m as f64 * sigma * sigma * d as f64;
    Ok((2.0 * v * (2.0 * d as f64 * count as f64 / alpha).ln()).sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn spectral_bound_is_the_matrix_gaussian_series_tail() {
        // sigma sqrt(2 m d ln(2 d count / alpha)) at sigma = 2, d = 3, m = 4, count = 10,
        // alpha = 0.01 (Tropp 2015, Theorem 4.1.1 with a union bound over count matrices).
        let want = 2.0 * (2.0f64 * 4.0 * 3.0 * (2.0f64 * 3.0 * 10.0 / 0.01).ln()).sqrt();
        approx::assert_relative_eq!(
            spectral_bound(2.0, 3, 4, 10, 0.01).unwrap(),
            want,
            max_relative = 1e-15
        );
        assert!(spectral_bound(2.0, 3, 4, 10, 1.5).is_err());
    }

    #[test]
    fn the_sampler_and_the_bound_are_the_ones_chosen() {
        let m = OuterProductGaussian::zcdp(3, 1.0, 1.0, Neighbouring::Replace, 0.5).unwrap();
        assert_eq!(m.sampler(), Sampler::Hardened);
        assert_eq!(m.bound(), SensitivityBound::Frobenius);
        let m = m
            .with_sampler(Sampler::Textbook)
            .with_bound(SensitivityBound::PackedExact)
            .unwrap();
        assert_eq!(m.sampler(), Sampler::Textbook);
        assert_eq!(m.bound(), SensitivityBound::PackedExact);
    }

    #[test]
    fn pack_roundtrip_and_outer_product() {
        let m = array![[1.0, 2.0], [2.0, 3.0]];
        let p = pack_upper(m.view()).unwrap();
        assert_eq!(p.to_vec(), vec![1.0, 2.0, 3.0]);
        assert_eq!(unpack_symmetric(p.view(), 2).unwrap(), m);
        let o = clipped_outer_product(array![3.0, 4.0].view(), 5.0, 1.0, 2.0).unwrap();
        // phi clipped to (0.6, 0.8), y to 2.
        assert!((o[[0, 1]] - 0.48).abs() < 1e-15 && (o[[2, 2]] - 4.0).abs() < 1e-15);
        assert!((o[[0, 2]] - 1.2).abs() < 1e-15);
        // Worst case replace: v = (1, 0, B), w = (0, 1, -B) at phi_bound = 1.
        let b: f64 = 2.0;
        let v = clipped_outer_product(array![1.0, 0.0].view(), b, 1.0, b).unwrap();
        let w = clipped_outer_product(array![0.0, 1.0].view(), 0.0, 1.0, b).unwrap();
        let diff = pack_upper((&v - &w).view()).unwrap();
        let bound = outer_product_sensitivity(1.0, b, Neighbouring::Replace).unwrap();
        assert!(diff.dot(&diff).sqrt() <= bound);
    }

    #[test]
    fn the_outer_product_is_the_matrix_product_bit_for_bit() {
        // Entries whose products round, and zeros of both signs (a negative zero product
        // becomes a positive zero, as in a matrix product's accumulator).
        let phi = array![0.1, -0.3, 0.0, -0.0, 1.0 / 3.0, -1e-200];
        let o = clipped_outer_product(phi.view(), -0.7, 10.0, 2.0).unwrap();
        let v: Array1<f64> = array![0.1, -0.3, 0.0, -0.0, 1.0 / 3.0, -1e-200, -0.7];
        let col = v.view().insert_axis(ndarray::Axis(1));
        let reference: Array2<f64> = col.dot(&col.t());
        for (a, b) in o.iter().zip(reference.iter()) {
            assert_eq!(f64::to_bits(*a), f64::to_bits(*b), "{a:e} vs {b:e}");
        }
        assert!(o.iter().all(|x| x.to_bits() != (-0.0f64).to_bits()));
    }
}
