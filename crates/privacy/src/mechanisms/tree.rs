//! Tree-based aggregation (the binary mechanism of Dwork, Naor, Pitassi & Rothblum 2010 and
//! Chan, Shi & Song 2011) for a stream of vectors or symmetric matrices: every prefix sum is
//! released with the noise of at most `floor(log2 T) + 1 <= 1 + ceil(log2 T)` tree nodes.

use crate::claim::NeighbouringRelation;
use ndarray::{Array1, Array2, ArrayView1, ArrayView2};
use rand::Rng;

use crate::accountant::zcdp::{ZcdpConversion, rho_for_target};
use crate::claim::{Guarantee, PrivacyClaim, TrustModel};
use crate::error::PrivacyError;
use crate::mechanism::Mechanism;
use crate::mechanisms::matrix::{
    checked_packed_len, pack_upper, packed_len, spectral_bound, unpack_symmetric,
};
use crate::mechanisms::zcdp_by_sampler::ZcdpBySampler;
use crate::params::{Delta, Epsilon, NoiseScale, Rho, Sensitivity};
use crate::sampler::{Grid, NoiseSampler, Norm, Sampler};
use validation::{InputError, Interval, at_least_one, ensure_finite, ensure_finite_slice, finite};

/// The number of tree levels for a horizon `T >= 1`: `floor(log2 T) + 1`. Each datum lies in
/// at most one node per level, and each prefix sum is the sum of at most this many nodes.
pub fn tree_levels(horizon: u64) -> Result<usize, PrivacyError> {
    let t = at_least_one("horizon T", horizon)?;
    Ok((64 - t.leading_zeros()) as usize)
}

/// The tree nodes whose noisy values make up the prefix sum released at time `t` (1-based):
/// one node per one-bit of `t`, as `(level, start, end)` with the node of level `j` covering
/// the items `start..=end` (1-based, `end - start + 1 = 2^j`), ordered by `start` (highest level
/// first); empty for `t = 0`.
///
/// # Formula
/// For every bit `j` set in `t`, `end = (t >> j) << j` (`t` with its bits below `j` cleared)
/// and `start = end - 2^j + 1`. This
/// is the decomposition [`TreeAggregation`] uses (Chan, Shi & Song 2011, Algorithm 2): the node
/// `(level, start, end)` is completed, and gets its fresh noise, at time `end`. E.g. `t = 13 =
/// 0b1101`: `(3, 1, 8)`, `(2, 9, 12)`, `(0, 13, 13)`.
pub fn prefix_nodes(t: u64) -> Vec<(usize, u64, u64)> {
    (0..u64::BITS as usize)
        .rev()
        .filter(|&j| (t >> j) & 1 == 1)
        .map(|j| {
            let end = (t >> j) << j;
            (j, end - (1u64 << j) + 1, end)
        })
        .collect()
}

/// The node noise standard deviation for a target (eps, delta) over a horizon `T`, for data of
/// L2 sensitivity `Delta` (replace-one or add/remove: the caller states which, see
/// [`crate::mechanisms::matrix::outer_product_sensitivity`]).
///
/// # Derivation (zCDP)
/// Each node is a Gaussian mechanism with sensitivity `Delta`, hence `Delta^2 / (2 sigma^2)`-zCDP
/// (Bun & Steinke 2016, Prop. 1.6). A datum enters at most `L = floor(log2 T) + 1` nodes (one per
/// level), the other nodes do not depend on it, and zCDP composes additively (Bun & Steinke 2016, Lemma 1.7, also
/// adaptively), so the whole stream of node values, and every prefix computed from them
/// (post-processing), is `rho = L Delta^2 / (2 sigma^2)`-zCDP. Solving for the largest `rho*`
/// whose conversion is at most `(eps, delta)` ([`rho_for_target`]) gives
/// `sigma = Delta sqrt(L / (2 rho*))`.
pub fn node_sigma(
    horizon: u64,
    epsilon: f64,
    delta: f64,
    l2_sensitivity: f64,
    conversion: ZcdpConversion,
) -> Result<f64, PrivacyError> {
    let levels = tree_levels(horizon)? as f64;
    let s = Sensitivity::positive(l2_sensitivity)?.get();
    let rho = rho_for_target(epsilon, delta, conversion)?;
    Ok(s * (levels / (2.0 * rho)).sqrt())
}

/// The shape of the stream's items.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StreamShape {
    /// Vectors of this length.
    Vector(usize),
    /// Symmetric `d x d` matrices (noise on the upper triangle, mirrored).
    Symmetric(usize),
}

impl StreamShape {
    /// The packed length, or an error when it overflows (checked once, at construction).
    fn checked_packed(self) -> Result<usize, PrivacyError> {
        match self {
            Self::Vector(d) => Ok(d),
            Self::Symmetric(d) => checked_packed_len(d),
        }
    }

    fn packed(self) -> usize {
        match self {
            Self::Vector(d) => d,
            Self::Symmetric(d) => packed_len(d),
        }
    }
}

/// The binary mechanism.
///
/// At time `t` (1-based) with `i` = the number of trailing zeros of `t`, the node of level `i`
/// covering `(t - 2^i, t]` is completed: its exact value is `x_t` plus the exact nodes of levels
/// `< i` (which are then cleared), and it receives fresh noise. The released prefix sum is the sum
/// of the noisy nodes of the levels of the one-bits of `t` (Chan, Shi & Song 2011, Algorithm 2).
#[derive(Debug, Clone)]
pub struct TreeAggregation {
    shape: StreamShape,
    horizon: u64,
    sigma: NoiseScale,
    sensitivity: f64,
    sampler: Sampler,
    /// The whole stream's zCDP under each sampler, validated when the tree is built.
    zcdp: ZcdpBySampler,
    target: Option<(Epsilon, Delta)>,
    t: u64,
    exact: Vec<Array1<f64>>,
    noisy: Vec<Array1<f64>>,
}

impl TreeAggregation {
    /// A tree with node noise `sigma` (hardened sampler).
    pub fn new(
        shape: StreamShape,
        horizon: u64,
        l2_sensitivity: f64,
        sigma: f64,
    ) -> Result<Self, PrivacyError> {
        let levels = tree_levels(horizon)?;
        let sensitivity = Sensitivity::positive(l2_sensitivity)?.get();
        let sigma = NoiseScale::new(sigma)?;
        let n = shape.checked_packed()?;
        if n == 0 {
            return Err(PrivacyError::Input(InputError::Empty {
                what: "stream item",
            }));
        }
        let zcdp =
            ZcdpBySampler::of_noise("tree aggregation", levels as f64, sensitivity, sigma.get())?;
        Ok(Self {
            shape,
            horizon,
            sigma,
            sensitivity,
            sampler: Sampler::Hardened,
            zcdp,
            target: None,
            t: 0,
            exact: vec![Array1::zeros(n); levels],
            noisy: vec![Array1::zeros(n); levels],
        })
    }

    /// A tree calibrated for (eps, delta) by [`node_sigma`] (hardened sampler: the sensitivity is
    /// inflated by `1 + GRID_SLACK` for the grid).
    pub fn calibrated(
        shape: StreamShape,
        horizon: u64,
        epsilon: f64,
        delta: f64,
        l2_sensitivity: f64,
        conversion: ZcdpConversion,
    ) -> Result<Self, PrivacyError> {
        let s = Sensitivity::positive(l2_sensitivity)?.get();
        let sigma = node_sigma(
            horizon,
            epsilon,
            delta,
            s * Sampler::Hardened.sensitivity_factor(),
            conversion,
        )?;
        let mut t = Self::new(shape, horizon, s, sigma)?;
        t.target = Some((Epsilon::new(epsilon)?, Delta::new(delta)?));
        Ok(t)
    }

    /// Use another sampler. A textbook tree keeps sigma (calibrated with the inflated
    /// sensitivity, so slightly conservative).
    pub fn with_sampler(mut self, sampler: Sampler) -> Self {
        self.sampler = sampler;
        self
    }

    /// The sampler in use.
    pub fn sampler(&self) -> Sampler {
        self.sampler
    }

    /// The node noise standard deviation.
    pub fn sigma(&self) -> f64 {
        self.sigma.get()
    }

    /// The number of levels `L`.
    pub fn levels(&self) -> usize {
        self.exact.len()
    }

    /// The number of items pushed so far.
    pub fn time(&self) -> u64 {
        self.t
    }

    /// The zCDP of the whole stream: `L Delta_eff^2 / (2 sigma^2)`.
    pub fn rho(&self) -> f64 {
        self.zcdp().get()
    }

    /// The same, as the validated parameter of the claim.
    pub fn zcdp(&self) -> Rho {
        self.zcdp.get(self.sampler)
    }

    /// The claim: rho-zCDP for the whole released stream (central; paper crates that use the
    /// tree for joint DP restate it with their trust model).
    pub fn claim(&self) -> PrivacyClaim {
        let target = self
            .target
            .map(|(e, d)| format!(", target eps={e}, delta={d}"))
            .unwrap_or_default();
        PrivacyClaim::new(
            format!(
                "tree_aggregation(T={}, L={}, sigma={}, sampler={}{target})",
                self.horizon,
                self.levels(),
                self.sigma(),
                self.sampler.name()
            ),
            Guarantee::Zcdp { rho: self.zcdp() },
            TrustModel::Central,
            NeighbouringRelation::ReplaceOne,
            format!(
                "one stream item replaced, the two items differing by at most {} in L2 (packed upper triangle for matrices)",
                self.sensitivity
            ),
        )
    }

    fn advance(
        &mut self,
        x: Array1<f64>,
        mut noise: impl FnMut(usize) -> Result<Array1<f64>, PrivacyError>,
    ) -> Result<Array1<f64>, PrivacyError> {
        if self.t >= self.horizon {
            return Err(InputError::OutOfRange {
                what: "stream length",
                value: (self.t + 1) as f64,
                range: Interval::closed(1.0, self.horizon as f64),
            }
            .into());
        }
        let t = self.t + 1;
        let i = t.trailing_zeros() as usize;
        let mut node = x;
        for j in 0..i {
            node += &self.exact[j];
            self.exact[j].fill(0.0);
            self.noisy[j].fill(0.0);
        }
        let mut noisy = noise(i)?;
        noisy += &node;
        self.noisy[i] = noisy;
        self.exact[i] = node;
        self.t = t;
        let mut out = Array1::zeros(self.shape.packed());
        for (j, n) in self.noisy.iter().enumerate() {
            if (t >> j) & 1 == 1 {
                out += n;
            }
        }
        Ok(out)
    }

    fn packed_item(&self, x: ArrayView1<'_, f64>) -> Result<Array1<f64>, PrivacyError> {
        if x.len() != self.shape.packed() {
            return Err(PrivacyError::Input(InputError::DimensionMismatch {
                context: "tree aggregation item",
                expected: self.shape.packed(),
                got: x.len(),
            }));
        }
        match x.as_slice() {
            Some(s) => ensure_finite_slice("stream item entry", s)?,
            None => ensure_finite("stream item entry", x.iter())?,
        }
        Ok(x.to_owned())
    }

    /// The same tree with no item pushed yet (same shape, horizon, noise, sampler and target).
    pub fn fresh(&self) -> Self {
        let n = self.shape.packed();
        Self {
            t: 0,
            exact: vec![Array1::zeros(n); self.levels()],
            noisy: vec![Array1::zeros(n); self.levels()],
            ..self.clone()
        }
    }

    /// Run a whole stream on a [fresh](TreeAggregation::fresh) tree (this one is not touched):
    /// `stream` is `n x k` with `1 <= n <= T` rows, row `t` the (packed) item `t + 1`; returns the
    /// `n` released prefix sums as the rows of an `n x k` array. The same random draws as `n`
    /// calls of [`TreeAggregation::push_packed`] on a fresh tree. The whole stream is checked
    /// before any noise is drawn.
    pub fn release_stream<R: Rng + ?Sized>(
        &self,
        stream: ArrayView2<'_, f64>,
        rng: &mut R,
    ) -> Result<Array2<f64>, PrivacyError> {
        let n = self.shape.packed();
        if stream.nrows() == 0 {
            return Err(PrivacyError::Input(InputError::Empty { what: "stream" }));
        }
        if stream.nrows() as u64 > self.horizon {
            return Err(InputError::OutOfRange {
                what: "stream length",
                value: stream.nrows() as f64,
                range: Interval::closed(1.0, self.horizon as f64),
            }
            .into());
        }
        if stream.ncols() != n {
            return Err(PrivacyError::Input(InputError::DimensionMismatch {
                context: "tree aggregation item",
                expected: n,
                got: stream.ncols(),
            }));
        }
        for &v in stream {
            finite("stream item entry", v)?;
        }
        let mut tree = self.fresh();
        let mut out = Array2::zeros(stream.dim());
        for (item, mut row) in stream.outer_iter().zip(out.outer_iter_mut()) {
            row.assign(&tree.push_packed(item, rng)?);
        }
        Ok(out)
    }

    /// Push a vector (or a packed symmetric matrix) and return the noisy prefix sum (packed).
    pub fn push_packed<R: Rng + ?Sized>(
        &mut self,
        x: ArrayView1<'_, f64>,
        rng: &mut R,
    ) -> Result<Array1<f64>, PrivacyError> {
        let x = self.packed_item(x)?;
        let n = self.shape.packed();
        let grid = Grid::for_sensitivity(self.sensitivity, n, Norm::L2)?;
        let (sigma, sampler) = (self.sigma(), self.sampler);
        // Round the item to the grid (hardened): the node sums are then exact grid multiples.
        let x = if sampler.is_hardened() {
            // An item the grid cannot represent is an error, never silently 0 (issue 15).
            x.iter()
                .map(|&v| grid.round(v))
                .collect::<Result<Array1<f64>, _>>()?
        } else {
            x
        };
        self.advance(x, |_| {
            let mut z = Array1::zeros(n);
            let out = z
                .as_slice_mut()
                .expect("a new one-dimensional array is contiguous");
            sampler.gaussian_noise_into(sigma, grid, out, rng)?;
            Ok(z)
        })
    }

    /// Push with the new node's noise passed in (deterministic test vectors): returns the noisy
    /// prefix sum.
    pub fn push_packed_with_noise(
        &mut self,
        x: ArrayView1<'_, f64>,
        node_noise: ArrayView1<'_, f64>,
    ) -> Result<Array1<f64>, PrivacyError> {
        let x = self.packed_item(x)?;
        let z = self.packed_item(node_noise)?;
        self.advance(x, |_| Ok(z.clone()))
    }

    /// Push a vector item (shape `Vector`).
    pub fn push<R: Rng + ?Sized>(
        &mut self,
        x: ArrayView1<'_, f64>,
        rng: &mut R,
    ) -> Result<Array1<f64>, PrivacyError> {
        self.push_packed(x, rng)
    }

    /// Push a symmetric matrix item (shape `Symmetric`); returns the noisy prefix sum as a
    /// symmetric matrix.
    pub fn push_matrix<R: Rng + ?Sized>(
        &mut self,
        m: ArrayView2<'_, f64>,
        rng: &mut R,
    ) -> Result<Array2<f64>, PrivacyError> {
        let d = match self.shape {
            StreamShape::Symmetric(d) => d,
            StreamShape::Vector(_) => {
                return Err(PrivacyError::Input(InputError::DimensionMismatch {
                    context: "push_matrix on a vector stream",
                    expected: 0,
                    got: m.nrows(),
                }));
            }
        };
        let p = pack_upper(m)?;
        let s = self.push_packed(p.view(), rng)?;
        unpack_symmetric(s.view(), d)
    }

    /// The PSD shift of Shariff & Sheffet 2018 for a matrix stream: with probability at least
    /// `1 - alpha`, every released noise matrix `N_t` (a sum of at most `L` node noises) has
    /// `||N_t||_2 <= Upsilon` ([`spectral_bound`] with `m = L`, `count = T`). Adding
    /// `shift = 2 Upsilon` times the identity to each released prefix makes the noise
    /// `H_t = N_t + 2 Upsilon I` satisfy `Upsilon I <= H_t <= 3 Upsilon I`. Returns
    /// `(shift, lambda_min_bound, lambda_max_bound) = (2 Upsilon, Upsilon, 3 Upsilon)`. The shift
    /// is deterministic (post-processing), so privacy is unchanged.
    pub fn psd_shift(&self, alpha: f64) -> Result<(f64, f64, f64), PrivacyError> {
        let d = match self.shape {
            StreamShape::Symmetric(d) => d,
            StreamShape::Vector(d) => d,
        };
        let u = spectral_bound(self.sigma(), d, self.levels(), self.horizon, alpha)?;
        Ok((2.0 * u, u, 3.0 * u))
    }
}

/// Input: the whole stream, `n x k` with `1 <= n <= T` rows of packed items; output: the `n`
/// released prefix sums ([`TreeAggregation::release_stream`], on a fresh tree). Claim:
/// [`TreeAggregation::claim`] (rho-zCDP for the whole stream).
impl Mechanism for TreeAggregation {
    type Input = Array2<f64>;
    type Output = Array2<f64>;

    fn claim(&self) -> PrivacyClaim {
        TreeAggregation::claim(self)
    }

    fn release<R: Rng + ?Sized>(
        &self,
        input: &Array2<f64>,
        rng: &mut R,
    ) -> Result<Array2<f64>, PrivacyError> {
        self.release_stream(input.view(), rng)
    }
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // exact arithmetic is what these tests check
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn a_calibrated_tree_states_the_rho_of_its_sigma_at_the_inflated_sensitivity() {
        use crate::sampler::GRID_SLACK;
        // T = 100: L = 7 levels; sensitivity 2, inflated by 1 + 2^-20 for the grid.
        let t = TreeAggregation::calibrated(
            StreamShape::Vector(3),
            100,
            1.0,
            1e-5,
            2.0,
            ZcdpConversion::Cks,
        )
        .unwrap();
        let s = 2.0 * (1.0 + GRID_SLACK);
        let sigma = node_sigma(100, 1.0, 1e-5, s, ZcdpConversion::Cks).unwrap();
        approx::assert_relative_eq!(t.sigma(), sigma, max_relative = 1e-15);
        assert_eq!(t.levels(), 7);
        approx::assert_relative_eq!(
            t.rho(),
            7.0 * s * s / (2.0 * sigma * sigma),
            max_relative = 1e-12
        );
        assert_eq!(t.sampler(), Sampler::Hardened);
        let t = t.with_sampler(Sampler::Textbook);
        assert_eq!(t.sampler(), Sampler::Textbook);
        // A textbook tree keeps sigma; its claim is at the plain sensitivity.
        approx::assert_relative_eq!(t.sigma(), sigma, max_relative = 1e-15);
        approx::assert_relative_eq!(
            t.rho(),
            7.0 * 4.0 / (2.0 * sigma * sigma),
            max_relative = 1e-12
        );
    }

    #[test]
    fn prefix_nodes_cover_the_prefix_and_match_the_released_noise() {
        assert!(prefix_nodes(0).is_empty());
        assert_eq!(prefix_nodes(13), vec![(3, 1, 8), (2, 9, 12), (0, 13, 13)]);
        assert_eq!(prefix_nodes(16), vec![(4, 1, 16)]);
        // The node completed at time s gets noise 2^(s-1) (distinct bits): the noise of the
        // prefix released at t is then the sum of 2^(end-1) over prefix_nodes(t).
        let horizon = 40u64;
        let mut tr = TreeAggregation::new(StreamShape::Vector(1), horizon, 1.0, 1.0).unwrap();
        for t in 1..=horizon {
            let nodes = prefix_nodes(t);
            assert_eq!(nodes.len(), t.count_ones() as usize, "t = {t}");
            // Consecutive, disjoint, covering 1..=t, of length 2^level.
            let mut next = 1;
            for &(level, start, end) in &nodes {
                assert_eq!(start, next, "t = {t}");
                assert_eq!(end - start + 1, 1u64 << level, "t = {t}");
                next = end + 1;
            }
            assert_eq!(next, t + 1, "t = {t}");
            let noise = 2f64.powi(t as i32 - 1);
            let out = tr
                .push_packed_with_noise(array![0.0].view(), array![noise].view())
                .unwrap();
            let expected: f64 = nodes
                .iter()
                .map(|&(_, _, end)| 2f64.powi(end as i32 - 1))
                .sum();
            assert_eq!(out[0], expected, "t = {t}");
        }
    }

    #[test]
    fn prefix_sums_use_the_binary_decomposition() {
        // With node noise = 1 per coordinate, the prefix at t carries popcount(t) units of noise.
        let mut tr = TreeAggregation::new(StreamShape::Vector(1), 8, 1.0, 1.0).unwrap();
        for t in 1..=8u64 {
            let out = tr
                .push_packed_with_noise(array![t as f64].view(), array![1.0].view())
                .unwrap();
            let exact: f64 = (1..=t).map(|s| s as f64).sum();
            assert_eq!(out[0], exact + f64::from(t.count_ones()), "t = {t}");
        }
        assert!(
            tr.push_packed_with_noise(array![1.0].view(), array![0.0].view())
                .is_err()
        );
        assert_eq!(tree_levels(8).unwrap(), 4);
        assert_eq!(tree_levels(7).unwrap(), 3);
        assert!(tree_levels(0).is_err());
    }
}
