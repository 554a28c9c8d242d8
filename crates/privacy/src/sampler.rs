//! Noise samplers behind one interface, [`NoiseSampler`], in two families:
//!
//! - [`Textbook`]: continuous Laplace by inverse CDF on a uniform double, Gaussian from
//!   `rand_distr`. These are the samplers the papers' analyses assume; in floating point they
//!   leak through their low-order bits (Mironov 2012; Jin et al. 2022). Kept under this name
//!   as the papers' reference and as the auditor's positive control. Never a default.
//! - [`Hardened`]: exact discrete Laplace and discrete Gaussian on a grid of width `2^k`, in
//!   fixed-width integers when the scale in grid units is a ratio of integers up to `2^53`
//!   ([`crate::exact_fixed`]: Karney 2016's Algorithm D for the Gaussian, CKS 2020's
//!   Algorithm 2 for the Laplace), in arbitrary precision otherwise (Canonne, Kamath & Steinke
//!   2020, Algorithms 1-3, see [`crate::exact`]); both paths draw from the same law. The input is first
//!   rounded to the grid (exactly: the grid width is a power of two), then an exact integer
//!   multiple of the grid width is added. The rounding moves each coordinate by at most half a
//!   grid width, so two inputs at distance `Delta` round to grid points at distance at most
//!   `Delta + (number of coordinates) * width` in L1 and `Delta + sqrt(number) * width` in L2:
//!   mechanisms choose the width with [`Grid::for_sensitivity`] so that this excess is at most
//!   [`GRID_SLACK`]` * Delta`, and calibrate their noise for the inflated sensitivity
//!   `(1 + GRID_SLACK) Delta`.
//!
//! [`Sampler`] is the run-time choice between the two; `Sampler::default()` is hardened.
//! See `docs/privacy.md` for the threat model.

use num_bigint::BigInt;
use num_traits::ToPrimitive;
use rand::{Rng, RngExt};
use rand_distr::{Distribution, StandardNormal};
use serde::{Deserialize, Serialize};

use crate::error::PrivacyError;
use crate::exact;
use crate::exact_fixed::{self, DiscreteGaussian, DiscreteLaplace};
use validation::{InputError, Interval, in_range, positive};

/// The relative sensitivity excess the hardened samplers' grid may cause (`2^-20`).
pub const GRID_SLACK: f64 = 1.0 / 1_048_576.0;

/// A grid `{ i 2^exponent : i integer }` on which the hardened samplers work.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Grid {
    exponent: i32,
}

/// How a sensitivity is measured, for [`Grid::for_sensitivity`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Norm {
    /// L1: rounding `n` coordinates adds at most `n * width`.
    L1,
    /// L2: rounding `n` coordinates adds at most `sqrt(n) * width`.
    L2,
}

impl Grid {
    /// The grid of width `2^exponent`, `exponent` in [-1000, 1000].
    pub fn new(exponent: i32) -> Result<Self, PrivacyError> {
        in_range(
            "grid exponent",
            f64::from(exponent),
            Interval::closed(-1000.0, 1000.0),
        )?;
        Ok(Self { exponent })
    }

    /// The exponent `k` of the width `2^k`.
    pub fn exponent(self) -> i32 {
        self.exponent
    }

    /// The width `2^k`.
    pub fn width(self) -> f64 {
        power_of_two(self.exponent)
    }

    /// The coarsest grid whose rounding of `count` coordinates adds at most
    /// `GRID_SLACK * sensitivity` to a sensitivity in `norm`: width = the largest power of two
    /// `<= GRID_SLACK * sensitivity / n` (L1) or `/ sqrt(n)` (L2).
    pub fn for_sensitivity(
        sensitivity: f64,
        count: usize,
        norm: Norm,
    ) -> Result<Self, PrivacyError> {
        positive("sensitivity", sensitivity)?;
        let n = count.max(1) as f64;
        let excess = GRID_SLACK * sensitivity / if norm == Norm::L1 { n } else { n.sqrt() };
        let k = excess.log2().floor() as i32;
        // Guard against log2 rounding up at exact powers of two.
        let k = if 2f64.powi(k) > excess { k - 1 } else { k };
        if k < -1000 {
            // A finer grid than 2^-1000 is not supported; a coarser one would break the slack.
            return Err(InputError::Unsatisfied {
                what: "sensitivity",
                value: sensitivity,
                requirement: "too small for its dimension: the hardened grid would be finer than 2^-1000",
            }
            .into());
        }
        // A finer grid than needed only shrinks the excess.
        Self::new(k.min(1000))
    }

    /// The grid point nearest to `x`, as an integer multiple of the width (exact: dividing by a
    /// power of two is exact in floating point).
    pub fn index_of(self, x: f64) -> Result<BigInt, PrivacyError> {
        let scaled = x * power_of_two(-self.exponent);
        exact::round_to_bigint(scaled).ok_or(
            InputError::NonFinite {
                what: "value on the grid",
                index: None,
                value: x,
            }
            .into(),
        )
    }

    /// `i * width` as a double (the nearest double: a post-processing of the exact grid point;
    /// an index beyond the doubles' range gives an infinity of its sign, as `BigInt::to_f64`).
    pub fn value_of(self, i: &BigInt) -> f64 {
        let saturated = || {
            if i.sign() == num_bigint::Sign::Minus {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            }
        };
        i.to_f64().unwrap_or_else(saturated) * self.width()
    }

    /// The grid point nearest to `x`, as a double: `value_of(index_of(x))`, computed in machine
    /// integers when the index fits (`|x / width| < 2^62`), else through the big-integer path
    /// (the same value either way).
    pub fn round(self, x: f64) -> Result<f64, PrivacyError> {
        if x.is_finite()
            && let Some(i) = self.small_index_of(x)
        {
            return Ok(i as f64 * self.width());
        }
        Ok(self.value_of(&self.index_of(x)?))
    }

    /// The grid index of `x` as an `i64` when `|x / width| < 2^62` (the fast path; the same
    /// value as [`Self::index_of`]).
    fn small_index_of(self, x: f64) -> Option<i64> {
        let r = (x * power_of_two(-self.exponent)).round();
        (r.abs() < 2f64.powi(62)).then_some(r as i64)
    }

    /// `(i + z) * width` for machine-integer index and noise (the nearest double, as
    /// [`Self::value_of`]; `|i| < 2^62` and `|z| < 2^63`, so the sum fits `i128`).
    fn combine(self, i: i64, z: i64) -> f64 {
        let sum = i128::from(i) + i128::from(z);
        match i64::try_from(sum) {
            Ok(sum) => sum as f64 * self.width(),
            Err(_) => self.value_of(&BigInt::from(sum)),
        }
    }

    /// A scale in grid units as machine integers `(numerator, denominator)`, both at most
    /// [`exact_fixed::MAX_PARAMETER`], when its exact value allows (the fast path).
    fn scale_in_fixed_units(self, scale: f64) -> Option<(u64, u64)> {
        exact::dyadic_u64(
            scale * power_of_two(-self.exponent),
            exact_fixed::MAX_PARAMETER,
        )
    }

    /// A scale in grid units (`scale / width`) as an exact rational `(numerator, denominator)`.
    fn scale_in_units(
        self,
        scale: f64,
    ) -> Result<(num_bigint::BigUint, num_bigint::BigUint), PrivacyError> {
        let s = scale * power_of_two(-self.exponent);
        let off_grid = InputError::Unsatisfied {
            what: "noise scale",
            value: scale,
            requirement: "must be a finite positive number of grid units",
        };
        if !(s.is_finite() && s > 0.0) {
            return Err(off_grid.into());
        }
        exact::dyadic(s).ok_or(off_grid.into())
    }
}

/// `2^k` for `k` in [-1000, 1000] (a grid's exponent range), exactly, from the bit pattern of
/// the double (biased exponent `k + 1023`, zero mantissa): what `2f64.powi(k)` returns, without
/// the call.
fn power_of_two(k: i32) -> f64 {
    debug_assert!((-1000..=1000).contains(&k));
    f64::from_bits(((i64::from(k) + 1023) as u64) << 52)
}

/// One interface for the noise of every mechanism.
pub trait NoiseSampler {
    /// `"textbook"` or `"hardened"`.
    fn name(&self) -> &'static str;

    /// Whether the sampler works on a grid (and the mechanism must inflate its sensitivity by
    /// `1 + GRID_SLACK`).
    fn is_hardened(&self) -> bool;

    /// `x + Laplace(scale)` (density `exp(-|z|/scale) / (2 scale)`); the hardened sampler returns
    /// `round_grid(x) + width * DiscreteLaplace(scale / width)`.
    fn perturb_laplace<R: Rng + ?Sized>(
        &self,
        x: f64,
        scale: f64,
        grid: Grid,
        rng: &mut R,
    ) -> Result<f64, PrivacyError>;

    /// `x + N(0, sigma^2)`; the hardened sampler returns
    /// `round_grid(x) + width * DiscreteGaussian((sigma / width)^2)`.
    fn perturb_gaussian<R: Rng + ?Sized>(
        &self,
        x: f64,
        sigma: f64,
        grid: Grid,
        rng: &mut R,
    ) -> Result<f64, PrivacyError>;

    /// Fill `out` with independent `N(0, sigma^2)` noise: each entry has the law of
    /// [`perturb_gaussian`](Self::perturb_gaussian)`(0.0, sigma, grid, rng)` (the batch form of
    /// a mechanism over many coordinates; `sigma` is checked once). The textbook sampler draws
    /// exactly what successive single calls would; the hardened one shares one buffer of random
    /// bits over the batch, so its draws differ from successive single calls (same law). On an
    /// error `out` is left partly filled.
    fn gaussian_noise_into<R: Rng + ?Sized>(
        &self,
        sigma: f64,
        grid: Grid,
        out: &mut [f64],
        rng: &mut R,
    ) -> Result<(), PrivacyError> {
        for entry in out.iter_mut() {
            *entry = self.perturb_gaussian(0.0, sigma, grid, rng)?;
        }
        Ok(())
    }

    /// Replace each entry `x` of `values` by `perturb_gaussian(x, sigma, grid, rng)`'s law: the
    /// batch form of a mechanism adding noise to many coordinates (`sigma` checked once). As
    /// for [`gaussian_noise_into`](Self::gaussian_noise_into), the hardened sampler shares one
    /// buffer of random bits over the batch. On an error `values` is left partly replaced.
    fn perturb_gaussian_into<R: Rng + ?Sized>(
        &self,
        values: &mut [f64],
        sigma: f64,
        grid: Grid,
        rng: &mut R,
    ) -> Result<(), PrivacyError> {
        let sigma = check_scale(sigma)?;
        for entry in values.iter_mut() {
            *entry = self.perturb_gaussian(*entry, sigma, grid, rng)?;
        }
        Ok(())
    }

    /// Replace each entry `x` of `values` by `perturb_laplace(x, scale, grid, rng)`'s law: the
    /// batch form of a mechanism adding Laplace noise to many coordinates (`scale` checked
    /// once). The textbook sampler draws exactly what successive single calls would; the
    /// hardened one shares one buffer of random bits over the batch, so its draws differ from
    /// successive single calls (same law). On an error `values` is left partly replaced.
    fn perturb_laplace_into<R: Rng + ?Sized>(
        &self,
        values: &mut [f64],
        scale: f64,
        grid: Grid,
        rng: &mut R,
    ) -> Result<(), PrivacyError> {
        let scale = check_scale(scale)?;
        for entry in values.iter_mut() {
            *entry = self.perturb_laplace(*entry, scale, grid, rng)?;
        }
        Ok(())
    }

    /// A uniform double on [0, 1) (textbook: multiples of 2^-53; hardened:
    /// [`exact::hardened_uniform`]).
    fn uniform<R: Rng + ?Sized>(&self, rng: &mut R) -> f64;

    /// Bernoulli(p) for p in [0, 1] (textbook: `uniform < p`; hardened: exact, with the
    /// rational value of the double `p`).
    fn bernoulli<R: Rng + ?Sized>(&self, p: f64, rng: &mut R) -> Result<bool, PrivacyError>;
}

fn check_x(x: f64) -> Result<f64, PrivacyError> {
    if x.is_finite() {
        Ok(x)
    } else {
        Err(InputError::NonFinite {
            what: "value to perturb",
            index: None,
            value: x,
        }
        .into())
    }
}

fn check_scale(scale: f64) -> Result<f64, PrivacyError> {
    Ok(positive("noise scale", scale)?)
}

fn check_p(p: f64) -> Result<f64, PrivacyError> {
    Ok(in_range("probability", p, Interval::UNIT)?)
}

/// The textbook floating-point samplers. Vulnerable to floating-point attacks; use only by
/// name (paper reproduction, auditor positive controls).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Textbook;

/// The hardened exact samplers (discrete Laplace and discrete Gaussian on a grid).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hardened;

impl Textbook {
    /// Continuous Laplace(scale) by inverse CDF: `u` uniform on (-1/2, 1/2),
    /// `z = -scale sgn(u) ln(1 - 2|u|)`.
    pub fn laplace<R: Rng + ?Sized>(scale: f64, rng: &mut R) -> f64 {
        let u: f64 = rng.random::<f64>() - 0.5;
        -scale * u.signum() * (1.0 - 2.0 * u.abs()).ln()
    }

    /// `N(0, sigma^2)` from `rand_distr::StandardNormal` (Ziggurat).
    pub fn gaussian<R: Rng + ?Sized>(sigma: f64, rng: &mut R) -> f64 {
        let z: f64 = StandardNormal.sample(rng);
        sigma * z
    }
}

impl NoiseSampler for Textbook {
    fn name(&self) -> &'static str {
        "textbook"
    }
    fn is_hardened(&self) -> bool {
        false
    }
    fn perturb_laplace<R: Rng + ?Sized>(
        &self,
        x: f64,
        scale: f64,
        _grid: Grid,
        rng: &mut R,
    ) -> Result<f64, PrivacyError> {
        Ok(check_x(x)? + Self::laplace(check_scale(scale)?, rng))
    }
    fn perturb_gaussian<R: Rng + ?Sized>(
        &self,
        x: f64,
        sigma: f64,
        _grid: Grid,
        rng: &mut R,
    ) -> Result<f64, PrivacyError> {
        Ok(check_x(x)? + Self::gaussian(check_scale(sigma)?, rng))
    }
    fn gaussian_noise_into<R: Rng + ?Sized>(
        &self,
        sigma: f64,
        _grid: Grid,
        out: &mut [f64],
        rng: &mut R,
    ) -> Result<(), PrivacyError> {
        let sigma = check_scale(sigma)?;
        for entry in out.iter_mut() {
            // `0.0 + ...` as in `perturb_gaussian(0.0, ..)`: a negative zero becomes positive.
            *entry = 0.0 + Self::gaussian(sigma, rng);
        }
        Ok(())
    }
    fn uniform<R: Rng + ?Sized>(&self, rng: &mut R) -> f64 {
        rng.random::<f64>()
    }
    fn bernoulli<R: Rng + ?Sized>(&self, p: f64, rng: &mut R) -> Result<bool, PrivacyError> {
        Ok(rng.random::<f64>() < check_p(p)?)
    }
}

/// The fixed-width law of a checked scale in grid units, when it fits.
enum FastLaw {
    Laplace(DiscreteLaplace),
    Gaussian(DiscreteGaussian),
}

impl FastLaw {
    fn draw<R: Rng + ?Sized>(&self, rng: &mut R) -> Result<i64, PrivacyError> {
        match self {
            Self::Laplace(law) => law
                .sample(rng)
                .ok_or(PrivacyError::SampleOverflow("discrete Laplace")),
            Self::Gaussian(law) => law
                .sample(rng)
                .ok_or(PrivacyError::SampleOverflow("discrete Gaussian")),
        }
    }
}

impl Hardened {
    /// The fixed-width law for `scale` in grid units (`None`: the arbitrary-precision path).
    fn fast_law(scale: f64, grid: Grid, gaussian: bool) -> Option<FastLaw> {
        let (n, d) = grid.scale_in_fixed_units(scale)?;
        if gaussian {
            DiscreteGaussian::new(n, d).map(FastLaw::Gaussian)
        } else {
            DiscreteLaplace::new(n, d).map(FastLaw::Laplace)
        }
    }

    /// An integer from the discrete Laplace with scale `scale / width` (grid units): the
    /// fixed-width sampler when the scale in grid units is a ratio of integers up to `2^53`,
    /// the arbitrary-precision one otherwise (the same law).
    pub fn discrete_laplace<R: Rng + ?Sized>(
        scale: f64,
        grid: Grid,
        rng: &mut R,
    ) -> Result<BigInt, PrivacyError> {
        let scale = check_scale(scale)?;
        if let Some(law) = Self::fast_law(scale, grid, false) {
            return law.draw(rng).map(BigInt::from);
        }
        Self::reference_discrete_laplace(scale, grid, rng)
    }

    /// An integer from the discrete Gaussian with `sigma^2 = (sigma / width)^2` (grid units):
    /// the fixed-width sampler when `sigma` in grid units is a ratio of integers up to `2^53`,
    /// the arbitrary-precision one otherwise (the same law).
    pub fn discrete_gaussian<R: Rng + ?Sized>(
        sigma: f64,
        grid: Grid,
        rng: &mut R,
    ) -> Result<BigInt, PrivacyError> {
        let sigma = check_scale(sigma)?;
        if let Some(law) = Self::fast_law(sigma, grid, true) {
            return law.draw(rng).map(BigInt::from);
        }
        Self::reference_discrete_gaussian(sigma, grid, rng)
    }

    /// [`Self::discrete_laplace`] by the arbitrary-precision reference only
    /// ([`exact::discrete_laplace`]), whatever the scale.
    pub fn reference_discrete_laplace<R: Rng + ?Sized>(
        scale: f64,
        grid: Grid,
        rng: &mut R,
    ) -> Result<BigInt, PrivacyError> {
        let (n, d) = grid.scale_in_units(check_scale(scale)?)?;
        // Scale t/s with t = n, s = d.
        Ok(exact::discrete_laplace(&d, &n, rng))
    }

    /// [`Self::discrete_gaussian`] by the arbitrary-precision reference only
    /// ([`exact::discrete_gaussian`]), whatever the scale.
    pub fn reference_discrete_gaussian<R: Rng + ?Sized>(
        sigma: f64,
        grid: Grid,
        rng: &mut R,
    ) -> Result<BigInt, PrivacyError> {
        let (n, d) = grid.scale_in_units(check_scale(sigma)?)?;
        Ok(exact::discrete_gaussian(&(&n * &n), &(&d * &d), rng))
    }

    /// `round_grid(x) + width * noise` with the noise from the fast law when it and the index
    /// fit machine integers, from the reference otherwise.
    fn perturb<R: Rng + ?Sized>(
        x: f64,
        scale: f64,
        grid: Grid,
        gaussian: bool,
        rng: &mut R,
    ) -> Result<f64, PrivacyError> {
        let x = check_x(x)?;
        let scale = check_scale(scale)?;
        if let (Some(i), Some(law)) = (
            grid.small_index_of(x),
            Self::fast_law(scale, grid, gaussian),
        ) {
            return Ok(grid.combine(i, law.draw(rng)?));
        }
        let i = grid.index_of(x)?;
        let z = if gaussian {
            Self::reference_discrete_gaussian(scale, grid, rng)?
        } else {
            Self::reference_discrete_laplace(scale, grid, rng)?
        };
        Ok(grid.value_of(&(i + z)))
    }

    /// The batch form of [`Self::perturb`]: one buffer of random bits for the whole batch
    /// (`DiscreteGaussian::samples`, `DiscreteLaplace::samples`) when the scale fits the
    /// fixed-width law; entry by entry through [`Self::perturb`] otherwise.
    fn perturb_into<R: Rng + ?Sized>(
        values: &mut [f64],
        scale: f64,
        grid: Grid,
        gaussian: bool,
        rng: &mut R,
    ) -> Result<(), PrivacyError> {
        let scale = check_scale(scale)?;
        match Self::fast_law(scale, grid, gaussian) {
            Some(FastLaw::Gaussian(law)) => {
                add_grid_noise(values, grid, law.samples(rng), "discrete Gaussian")
            }
            Some(FastLaw::Laplace(law)) => {
                add_grid_noise(values, grid, law.samples(rng), "discrete Laplace")
            }
            None => {
                for entry in values.iter_mut() {
                    *entry = Self::perturb(*entry, scale, grid, gaussian, rng)?;
                }
                Ok(())
            }
        }
    }
}

/// `values[k] <- round_grid(values[k]) + width * z_k` with `z_k` the stream's k-th item (`None`:
/// a sample that did not fit `i64`, reported as an overflow of `what`).
fn add_grid_noise(
    values: &mut [f64],
    grid: Grid,
    mut noise: impl Iterator<Item = Option<i64>>,
    what: &'static str,
) -> Result<(), PrivacyError> {
    for entry in values.iter_mut() {
        let x = check_x(*entry)?;
        let z = noise
            .next()
            .flatten()
            .ok_or(PrivacyError::SampleOverflow(what))?;
        *entry = match grid.small_index_of(x) {
            Some(i) => grid.combine(i, z),
            None => grid.value_of(&(grid.index_of(x)? + BigInt::from(z))),
        };
    }
    Ok(())
}

impl NoiseSampler for Hardened {
    fn name(&self) -> &'static str {
        "hardened"
    }
    fn is_hardened(&self) -> bool {
        true
    }
    fn perturb_laplace<R: Rng + ?Sized>(
        &self,
        x: f64,
        scale: f64,
        grid: Grid,
        rng: &mut R,
    ) -> Result<f64, PrivacyError> {
        Self::perturb(x, scale, grid, false, rng)
    }
    fn perturb_gaussian<R: Rng + ?Sized>(
        &self,
        x: f64,
        sigma: f64,
        grid: Grid,
        rng: &mut R,
    ) -> Result<f64, PrivacyError> {
        Self::perturb(x, sigma, grid, true, rng)
    }
    fn gaussian_noise_into<R: Rng + ?Sized>(
        &self,
        sigma: f64,
        grid: Grid,
        out: &mut [f64],
        rng: &mut R,
    ) -> Result<(), PrivacyError> {
        let sigma = check_scale(sigma)?;
        let Some(FastLaw::Gaussian(law)) = Self::fast_law(sigma, grid, true) else {
            out.fill(0.0);
            return self.perturb_gaussian_into(out, sigma, grid, rng);
        };
        // `perturb_gaussian_into` on zeros without the per-entry index: the grid index of 0
        // is 0 and `combine(0, z)` is `z * width` (the same draws, the same values).
        let width = grid.width();
        let mut noise = law.samples(rng);
        for entry in out.iter_mut() {
            let z = noise
                .next()
                .flatten()
                .ok_or(PrivacyError::SampleOverflow("discrete Gaussian"))?;
            *entry = z as f64 * width;
        }
        Ok(())
    }
    fn perturb_gaussian_into<R: Rng + ?Sized>(
        &self,
        values: &mut [f64],
        sigma: f64,
        grid: Grid,
        rng: &mut R,
    ) -> Result<(), PrivacyError> {
        Self::perturb_into(values, sigma, grid, true, rng)
    }
    fn perturb_laplace_into<R: Rng + ?Sized>(
        &self,
        values: &mut [f64],
        scale: f64,
        grid: Grid,
        rng: &mut R,
    ) -> Result<(), PrivacyError> {
        Self::perturb_into(values, scale, grid, false, rng)
    }
    fn uniform<R: Rng + ?Sized>(&self, rng: &mut R) -> f64 {
        exact::hardened_uniform(rng)
    }
    fn bernoulli<R: Rng + ?Sized>(&self, p: f64, rng: &mut R) -> Result<bool, PrivacyError> {
        let (n, d) = exact::dyadic(check_p(p)?).ok_or(InputError::OutOfRange {
            what: "probability",
            value: p,
            range: Interval::UNIT,
        })?;
        Ok(exact::bernoulli_ratio(&n, &d, rng))
    }
}

/// The run-time choice of sampler family. The default is [`Sampler::Hardened`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Sampler {
    /// [`Textbook`]: floating point, by explicit choice only.
    Textbook,
    /// [`Hardened`]: exact discrete noise on a grid.
    #[default]
    Hardened,
}

impl NoiseSampler for Sampler {
    fn name(&self) -> &'static str {
        match self {
            Self::Textbook => Textbook.name(),
            Self::Hardened => Hardened.name(),
        }
    }
    fn is_hardened(&self) -> bool {
        matches!(self, Self::Hardened)
    }
    fn perturb_laplace<R: Rng + ?Sized>(
        &self,
        x: f64,
        scale: f64,
        grid: Grid,
        rng: &mut R,
    ) -> Result<f64, PrivacyError> {
        match self {
            Self::Textbook => Textbook.perturb_laplace(x, scale, grid, rng),
            Self::Hardened => Hardened.perturb_laplace(x, scale, grid, rng),
        }
    }
    fn perturb_gaussian<R: Rng + ?Sized>(
        &self,
        x: f64,
        sigma: f64,
        grid: Grid,
        rng: &mut R,
    ) -> Result<f64, PrivacyError> {
        match self {
            Self::Textbook => Textbook.perturb_gaussian(x, sigma, grid, rng),
            Self::Hardened => Hardened.perturb_gaussian(x, sigma, grid, rng),
        }
    }
    fn gaussian_noise_into<R: Rng + ?Sized>(
        &self,
        sigma: f64,
        grid: Grid,
        out: &mut [f64],
        rng: &mut R,
    ) -> Result<(), PrivacyError> {
        match self {
            Self::Textbook => Textbook.gaussian_noise_into(sigma, grid, out, rng),
            Self::Hardened => Hardened.gaussian_noise_into(sigma, grid, out, rng),
        }
    }
    fn perturb_gaussian_into<R: Rng + ?Sized>(
        &self,
        values: &mut [f64],
        sigma: f64,
        grid: Grid,
        rng: &mut R,
    ) -> Result<(), PrivacyError> {
        match self {
            Self::Textbook => Textbook.perturb_gaussian_into(values, sigma, grid, rng),
            Self::Hardened => Hardened.perturb_gaussian_into(values, sigma, grid, rng),
        }
    }
    fn perturb_laplace_into<R: Rng + ?Sized>(
        &self,
        values: &mut [f64],
        scale: f64,
        grid: Grid,
        rng: &mut R,
    ) -> Result<(), PrivacyError> {
        match self {
            Self::Textbook => Textbook.perturb_laplace_into(values, scale, grid, rng),
            Self::Hardened => Hardened.perturb_laplace_into(values, scale, grid, rng),
        }
    }
    fn uniform<R: Rng + ?Sized>(&self, rng: &mut R) -> f64 {
        match self {
            Self::Textbook => Textbook.uniform(rng),
            Self::Hardened => Hardened.uniform(rng),
        }
    }
    fn bernoulli<R: Rng + ?Sized>(&self, p: f64, rng: &mut R) -> Result<bool, PrivacyError> {
        match self {
            Self::Textbook => Textbook.bernoulli(p, rng),
            Self::Hardened => Hardened.bernoulli(p, rng),
        }
    }
}

impl Sampler {
    /// The factor by which a mechanism multiplies its sensitivity for this sampler: 1 for the
    /// textbook samplers, `1 + GRID_SLACK` for the hardened ones (grid rounding).
    pub fn sensitivity_factor(self) -> f64 {
        if self.is_hardened() {
            1.0 + GRID_SLACK
        } else {
            1.0
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    #[allow(clippy::float_cmp)] // exact powers of two
    fn power_of_two_is_powi_over_the_grid_range() {
        for k in -1000..=1000 {
            assert_eq!(super::power_of_two(k), 2f64.powi(k), "{k}");
        }
    }

    #[test]
    fn the_grid_for_a_sensitivity_is_the_largest_power_of_two_within_the_slack() {
        use super::{Grid, Norm};
        // GRID_SLACK = 2^-20: width <= 2^-20 Delta / n (L1) or / sqrt(n) (L2), a power of two.
        let e = |delta: f64, n: usize, norm: Norm| Grid::for_sensitivity(delta, n, norm).unwrap();
        assert_eq!(e(1.0, 1, Norm::L1).exponent(), -20); // exactly at a power of two
        assert_eq!(e(1.0, 4, Norm::L1).exponent(), -22);
        assert_eq!(e(1.0, 4, Norm::L2).exponent(), -21);
        assert_eq!(e(1.0, 16, Norm::L2).exponent(), -22);
        assert_eq!(e(3.0, 1, Norm::L1).exponent(), -19); // 3 * 2^-20 lies in [2^-19, 2^-18)
        assert_eq!(e(3.0, 5, Norm::L1).exponent(), -21); // 0.6 * 2^-20 lies in [2^-21, 2^-20)
        assert_eq!(e(0.75, 9, Norm::L2).exponent(), -22); // 0.25 * 2^-20 = 2^-22 exactly
        #[allow(clippy::float_cmp)] // exact powers of two
        {
            assert_eq!(e(1.0, 4, Norm::L1).width(), 2f64.powi(-22));
        }
        assert_eq!(Grid::new(-7).unwrap().exponent(), -7);
        // Just below a power of two, log2 rounds up to the integer: the guard steps down.
        let below = 2.0 * (1.0 - f64::EPSILON / 2.0);
        assert_eq!(e(below, 1, Norm::L1).exponent(), -20);
        // The finest grid supported, 2^-1000, is given; one finer is refused.
        assert_eq!(e(2f64.powi(-980), 1, Norm::L1).exponent(), -1000);
        assert!(Grid::for_sensitivity(2f64.powi(-981), 1, Norm::L1).is_err());
    }

    /// The Chernoff window of a mean of `n` i.i.d. terms whose sum is Gamma(`k n`) (`k = 1/2`:
    /// chi-square, the squares of a Gaussian; `k = 1`: Exp(1), the magnitudes of a Laplace):
    /// `P(mean / E <= a) <= (a e^(1-a))^(k n)`, the same for `b > 1`. At `n = 40 000`, the
    /// window `[0.96, 1.04]` (`k = 1/2`) and `[0.97, 1.03]` (`k = 1`) each fail with
    /// probability below 2e-7 under the continuous laws; the discrete laws at the scales below
    /// have the same moments to the stated precision.
    const N: usize = 40_000;

    #[test]
    fn the_arbitrary_precision_path_draws_at_the_scale_in_grid_units() {
        use super::{Grid, Hardened};
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(11);
        // Width 1/2: the scale 2.75 is 11/2 grid units and 1.375 is 11/4 (denominators other
        // than 1, and other than 2, where d^2 = 2d). The discrete Gaussian of sigma = 11/4 has
        // E z^2 = 121/16 = 7.5625 (to 1e-60); the discrete Laplace of t = 5.5 has
        // E|z| = 2p / (1 - p^2) with p = e^(-1/5.5).
        let grid = Grid::new(-1).unwrap();
        let to_f64 =
            |z: num_bigint::BigInt| -> f64 { num_traits::ToPrimitive::to_f64(&z).unwrap() };
        let m2 = (0..N)
            .map(|_| {
                to_f64(Hardened::reference_discrete_gaussian(1.375, grid, &mut rng).unwrap())
                    .powi(2)
            })
            .sum::<f64>()
            / N as f64;
        assert!(
            (0.96..=1.04).contains(&(m2 / 7.5625)),
            "E z^2 {m2} against 7.5625"
        );
        let p = (-1.0f64 / 5.5).exp();
        let want = 2.0 * p / (1.0 - p * p);
        let m1 = (0..N)
            .map(|_| {
                to_f64(Hardened::reference_discrete_laplace(2.75, grid, &mut rng).unwrap()).abs()
            })
            .sum::<f64>()
            / N as f64;
        assert!(
            (0.97..=1.03).contains(&(m1 / want)),
            "E|z| {m1} against {want}"
        );
        // A scale that underflows to 0 grid units (1e-300 on the grid 2^1000) is refused, not
        // drawn at scale 0.
        let coarse = Grid::new(1000).unwrap();
        assert!(Hardened::reference_discrete_gaussian(1e-300, coarse, &mut rng).is_err());
        assert!(Hardened::reference_discrete_laplace(1e-300, coarse, &mut rng).is_err());
        assert!(Hardened::discrete_gaussian(1e-300, coarse, &mut rng).is_err());
    }

    #[test]
    fn bernoulli_draws_at_its_probability_and_refuses_one_outside_the_unit_interval() {
        use super::{Hardened, NoiseSampler, Textbook};
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(13);
        // Hoeffding: |count / n - p| > sqrt(ln(2 / 1e-7) / (2 n)) = 0.0205 at n = 20 000 has
        // probability below 1e-7 per sampler.
        let n = 20_000;
        let tol = ((2.0f64 / 1e-7).ln() / (2.0 * f64::from(n))).sqrt();
        let freq = |f: &mut dyn FnMut() -> bool| {
            f64::from((0..n).filter(|_| f()).count() as u32) / f64::from(n)
        };
        let t = freq(&mut || Textbook.bernoulli(0.3, &mut rng).unwrap());
        assert!((t - 0.3).abs() <= tol, "textbook {t}");
        let h = freq(&mut || Hardened.bernoulli(0.3, &mut rng).unwrap());
        assert!((h - 0.3).abs() <= tol, "hardened {h}");
        assert!(Hardened.bernoulli(1.0, &mut rng).unwrap());
        assert!(Textbook.bernoulli(1.5, &mut rng).is_err());
        assert!(Hardened.bernoulli(-0.1, &mut rng).is_err());
    }

    #[test]
    fn samplers_say_whether_they_work_on_a_grid() {
        use super::{Hardened, NoiseSampler, Sampler, Textbook};
        assert!(!Textbook.is_hardened());
        assert!(Hardened.is_hardened());
        assert!(Sampler::Hardened.is_hardened() && !Sampler::Textbook.is_hardened());
    }

    #[test]
    fn textbook_laplace_uniform_and_hardened_fast_gaussian_draw_their_laws() {
        use super::{Grid, Hardened, NoiseSampler, Textbook};
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(17);
        let grid = Grid::new(-1).unwrap();
        // x + Laplace(1.5): E|y - x| = 1.5 within the Gamma window (module constant N).
        let m1 = (0..N)
            .map(|_| (Textbook.perturb_laplace(2.0, 1.5, grid, &mut rng).unwrap() - 2.0).abs())
            .sum::<f64>()
            / N as f64;
        assert!((0.97..=1.03).contains(&(m1 / 1.5)), "E|z| {m1}");
        // Uniform on [0, 1): every draw inside, the mean within Hoeffding's 0.0145 of 1/2
        // (probability below 1e-7 at n = 40 000).
        let u: Vec<f64> = (0..N).map(|_| Textbook.uniform(&mut rng)).collect();
        assert!(u.iter().all(|x| (0.0..1.0).contains(x)));
        let mean = u.iter().sum::<f64>() / N as f64;
        assert!((mean - 0.5).abs() <= 0.0145, "mean {mean}");
        // The fast path of the hardened discrete Gaussian: sigma 2.5 on the grid 1/2 is 5
        // units, E z^2 = 25 within the chi-square window.
        let m2 = (0..N)
            .map(|_| {
                let z = Hardened::discrete_gaussian(2.5, grid, &mut rng).unwrap();
                num_traits::ToPrimitive::to_f64(&z).unwrap().powi(2)
            })
            .sum::<f64>()
            / N as f64;
        assert!((0.96..=1.04).contains(&(m2 / 25.0)), "E z^2 {m2}");
        // And of the hardened discrete Laplace: scale 2.5 on the grid 1/2 is t = 5 units,
        // E|z| = 2p / (1 - p^2) with p = e^(-1/5) (within 3%: about six standard errors).
        let p = (-1.0f64 / 5.0).exp();
        let want = 2.0 * p / (1.0 - p * p);
        let m1 = (0..N)
            .map(|_| {
                let z = Hardened::discrete_laplace(2.5, grid, &mut rng).unwrap();
                num_traits::ToPrimitive::to_f64(&z).unwrap().abs()
            })
            .sum::<f64>()
            / N as f64;
        assert!(
            (0.97..=1.03).contains(&(m1 / want)),
            "E|z| {m1} against {want}"
        );
    }

    #[test]
    fn values_beyond_machine_integer_indices_are_perturbed_not_scaled() {
        use super::{Grid, Hardened, NoiseSampler};
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(19);
        // x = 2^70 on the grid 2^-20: index 2^90, beyond i64, so the big-integer path adds the
        // noise (sigma = 4, a few units of 2^-20 against the double's spacing 2^18 at x): the
        // result is x to within one spacing.
        let grid = Grid::new(-20).unwrap();
        let x = 2f64.powi(70);
        let close = |y: f64| (y - x).abs() <= 2f64.powi(18);
        let mut values = [x, -x];
        Hardened
            .perturb_gaussian_into(&mut values, 4.0, grid, &mut rng)
            .unwrap();
        assert!(close(values[0]) && close(-values[1]), "{values:?}");
        assert!(close(
            Hardened.perturb_gaussian(x, 4.0, grid, &mut rng).unwrap()
        ));
        assert!(close(
            Hardened.perturb_laplace(x, 4.0, grid, &mut rng).unwrap()
        ));
    }

    #[test]
    #[allow(clippy::float_cmp)] // the same draws, bit for bit
    fn the_run_time_choice_dispatches_to_its_sampler() {
        use super::{Grid, Hardened, NoiseSampler, Sampler, Textbook};
        use rand::SeedableRng;
        let grid = Grid::new(-20).unwrap();
        let rng = || rand_chacha::ChaCha20Rng::seed_from_u64(23);
        fn draws<S: NoiseSampler>(s: &S, grid: Grid, mut r: impl rand::Rng) -> Vec<f64> {
            let mut v = vec![
                s.perturb_laplace(0.25, 1.5, grid, &mut r).unwrap(),
                s.perturb_gaussian(0.25, 1.5, grid, &mut r).unwrap(),
                s.uniform(&mut r),
                f64::from(u8::from(s.bernoulli(0.5, &mut r).unwrap())),
            ];
            let mut out = [0.0; 3];
            s.gaussian_noise_into(1.5, grid, &mut out, &mut r).unwrap();
            let mut values = [1.0, 2.0, 3.0];
            s.perturb_gaussian_into(&mut values, 1.5, grid, &mut r)
                .unwrap();
            let mut laplace = [-1.0, 0.5];
            s.perturb_laplace_into(&mut laplace, 1.5, grid, &mut r)
                .unwrap();
            v.extend(out);
            v.extend(values);
            v.extend(laplace);
            v.push(s.perturb_laplace(0.25, 1.5, grid, &mut r).unwrap());
            v
        }
        assert_eq!(
            draws(&Sampler::Textbook, grid, rng()),
            draws(&Textbook, grid, rng())
        );
        assert_eq!(
            draws(&Sampler::Hardened, grid, rng()),
            draws(&Hardened, grid, rng())
        );
        assert_ne!(
            draws(&Sampler::Textbook, grid, rng()),
            draws(&Hardened, grid, rng())
        );
        assert_eq!(Sampler::Textbook.name(), "textbook");
        assert_eq!(Sampler::Hardened.name(), "hardened");
    }

    /// A sampler with only the required methods: the trait's batch defaults are successive
    /// single calls.
    struct SingleCalls;

    impl super::NoiseSampler for SingleCalls {
        fn name(&self) -> &'static str {
            "single calls"
        }
        fn is_hardened(&self) -> bool {
            false
        }
        fn perturb_laplace<R: rand::Rng + ?Sized>(
            &self,
            x: f64,
            scale: f64,
            grid: super::Grid,
            rng: &mut R,
        ) -> Result<f64, crate::PrivacyError> {
            super::Textbook.perturb_laplace(x, scale, grid, rng)
        }
        fn perturb_gaussian<R: rand::Rng + ?Sized>(
            &self,
            x: f64,
            sigma: f64,
            grid: super::Grid,
            rng: &mut R,
        ) -> Result<f64, crate::PrivacyError> {
            super::Textbook.perturb_gaussian(x, sigma, grid, rng)
        }
        fn uniform<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> f64 {
            super::Textbook.uniform(rng)
        }
        fn bernoulli<R: rand::Rng + ?Sized>(
            &self,
            p: f64,
            rng: &mut R,
        ) -> Result<bool, crate::PrivacyError> {
            super::Textbook.bernoulli(p, rng)
        }
    }

    #[test]
    #[allow(clippy::float_cmp)] // the same draws, bit for bit
    fn the_batch_defaults_are_successive_single_calls() {
        use super::{Grid, NoiseSampler, Textbook};
        use rand::SeedableRng;
        let grid = Grid::new(-20).unwrap();
        let rng = || rand_chacha::ChaCha20Rng::seed_from_u64(5);
        let mut noise = [0.0; 4];
        SingleCalls
            .gaussian_noise_into(1.5, grid, &mut noise, &mut rng())
            .unwrap();
        let mut values = [1.0, -2.0, 3.0, 0.5];
        SingleCalls
            .perturb_gaussian_into(&mut values, 1.5, grid, &mut rng())
            .unwrap();
        let mut laplace = [1.0, -2.0, 3.0, 0.5];
        SingleCalls
            .perturb_laplace_into(&mut laplace, 1.5, grid, &mut rng())
            .unwrap();
        let mut r = rng();
        let mut r2 = rng();
        let mut r3 = rng();
        for (k, x) in [1.0, -2.0, 3.0, 0.5].into_iter().enumerate() {
            assert_eq!(
                noise[k],
                Textbook.perturb_gaussian(0.0, 1.5, grid, &mut r).unwrap()
            );
            assert_eq!(
                values[k],
                Textbook.perturb_gaussian(x, 1.5, grid, &mut r2).unwrap()
            );
            assert_eq!(
                laplace[k],
                Textbook.perturb_laplace(x, 1.5, grid, &mut r3).unwrap()
            );
        }
        assert!(noise.iter().all(|z| *z != 0.0));
    }
}
