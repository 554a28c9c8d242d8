//! Privacy-loss laws of single mechanisms and their discretisation onto the loss grid.
//!
//! # Connect-the-dots (Doroshenko, Ghazi, Kamath, Kumar & Manurangsi 2022)
//! For a dominating pair `(P, Q)` with loss `L = ln(dP/dQ)`, `x ~ P`, the hockey-stick curve
//! `delta(eps) = E_P[(1 - e^(eps - L))_+]` is convex in `y = e^eps`. The grid `l_j = j h` is cut
//! into bins `B_j = (l_j, l_{j+1}]`. Each bin's mass `P(B_j)` is split between its two ends so
//! that both its `P`-mass and its `Q`-mass (`E_P[e^-L; B_j]`) are kept:
//!
//! * upper end `l_{j+1}`: `e^(l_{j+1}) (P(B_j) - e^(l_j) Q(B_j)) / (e^(l_{j+1}) - e^(l_j))`
//!   `= X_j / (1 - e^-h)`, with the *excess* `X_j = P(B_j) - e^(l_j) Q(B_j) = E_P[1 - e^(l_j - L); B_j] >= 0`;
//! * lower end `l_j`: the rest, `P(B_j) - X_j / (1 - e^-h) >= 0` (because `L <= l_{j+1}` on `B_j`).
//!
//! The discrete law's curve is piecewise linear in `y` and equals the true curve at every grid
//! point: summed over the bins, this is exactly the connect-the-dots PLD of the paper (its
//! masses are `y_j` times the differences of the chord slopes). A chord of a convex function lies
//! above it, so the discrete curve is an upper bound between the grid points, and on
//! `(-inf, l_lo]` (a chord from `(y = 0, 1)`); the mass below the grid goes to its lowest point
//! (moving loss up dominates) and the mass above it to `+infinity` (it counts fully towards
//! delta). The excess over the exact epsilon is second order in `h` (measured: `4.4e-7` at
//! `h = 1e-4`, 100 Gaussian compositions); rounding every bin's mass up (privacy buckets) costs
//! up to `T h`, and the gap to the lower-end estimate is up to `T h`.
//!
//! # Floating point
//! For the Gaussian laws' narrow bins, `P(B_j)` and `X_j = int_{B_j} (-expm1(l_j - L(x))) dP(x)`
//! come from stable integrands by 5-point Gauss-Legendre on pieces at most `z/16` wide in `x`
//! (relative error far below `1e-15`). For bins wider than `64 z` in `x` (where `L` is flat:
//! near the infimum of the add/remove laws' loss, around `L = 0` for the replace-one pair) `P(B_j)` comes from the normal CDF and `X_j` as the difference
//! `P(B_j) - e^(l_j) Q(B_j)`, as in the Laplace law's closed form; such a difference has an
//! error of about `u / h` of the excess, so every bin's upper share is raised by
//! [`SPLIT_MARGIN`] of its mass (moving mass up dominates), which covers it for every accepted
//! bin width (at least [`MIN_BIN_WIDTH`]). Each computed mass is trusted to a
//! relative [`RELATIVE_MASS_ERROR`]; a `T`-fold composition multiplies delta by at most
//! `(1 + RELATIVE_MASS_ERROR)^T`, which [`super::pmf::Pmf`] carries.

use super::pmf::Pmf;
use crate::error::PrivacyError;
use crate::normal::{cdf as normal_cdf, pdf as normal_pdf, sf as normal_sf};

/// Relative accuracy assumed for every computed bin mass: the normal CDF ([`crate::normal`]:
/// libm's `erfc`, below one ulp, with the argument's rounding: relative `x^2 u` at `x` standard
/// deviations) and the quadrature, with a factor of about 1000 to spare.
pub const RELATIVE_MASS_ERROR: f64 = 1e-12;

/// Share of each bin's mass moved to the upper end on top of the computed split.
pub const SPLIT_MARGIN: f64 = 1e-9;

/// Smallest bin width accepted: above it, `u / h < 1e-10`, well inside [`SPLIT_MARGIN`].
pub const MIN_BIN_WIDTH: f64 = 1e-6;

/// Largest number of grid points of one mechanism's loss at a bin width given explicitly
/// (a width chosen by [`super::choose_bin_width`] keeps to its own, smaller cap).
pub(super) const MAX_BINS: usize = 50_000_000;

/// Which discretisation to build.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Estimate {
    /// Connect-the-dots: a dominating law, for upper bounds.
    Upper,
    /// Every bin's mass at its lower end, the mass below the grid dropped and the mass above it
    /// at the grid's top; compositions drop their tails and subtract their error allowances:
    /// an estimate from below (up to mass folded up by a composition's window, at most the tail
    /// mass), to show the discretisation gap.
    Optimistic,
}

/// One mechanism's privacy loss `L` under `P`, for one orientation of its dominating pair.
pub(super) trait LossLaw {
    /// `(lo, hi)` with `P(L <= lo) <= tail` and `P(L > hi) <= tail` (or the loss's bounds);
    /// by default searched from [`Self::cdf`] and [`Self::sf`] ([`tail_range`]).
    fn range(&self, tail: f64, h: f64) -> Result<(f64, f64), PrivacyError> {
        tail_range(&|l| (self.cdf(l), self.sf(l)), tail, h)
    }
    /// `P(L <= l)`.
    fn cdf(&self, l: f64) -> f64;
    /// `P(L > l)`.
    fn sf(&self, l: f64) -> f64;
    /// `(P(a < L <= b), X)` with the excess `X = E_P[1 - e^(a - L); a < L <= b]`.
    fn bin(&self, a: f64, b: f64) -> (f64, f64);
}

/// The number of grid points of `law`'s discretisation at width `h` and tail mass `tail`, and
/// the loss range `(lo, hi)` it covers.
pub(super) fn grid_points<L: LossLaw>(
    law: &L,
    h: f64,
    tail: f64,
) -> Result<(f64, f64, f64), PrivacyError> {
    let (lo, hi) = law.range(tail, h)?;
    let j0 = (lo / h).floor();
    let j1 = (hi / h).ceil().max(j0);
    Ok((j1 - j0 + 1.0, lo, hi))
}

/// The discretised law on the grid of width `h` (see the module documentation), of at most
/// `max_bins` points.
pub(super) fn discretise<L: LossLaw>(
    law: &L,
    h: f64,
    tail: f64,
    estimate: Estimate,
    max_bins: usize,
) -> Result<Pmf, PrivacyError> {
    let (n, lo, hi) = grid_points(law, h, tail)?;
    if !(n.is_finite() && n <= max_bins as f64) {
        return Err(PrivacyError::GridTooFine(format!(
            "PLD: the loss spans [{lo}, {hi}], {n} grid points of width {h} (at most {max_bins}); \
             increase the bin width (PldSettings::bin_width)"
        )));
    }
    let j0 = (lo / h).floor();
    let j1 = (hi / h).ceil().max(j0);
    let (j0, n) = (j0 as i64, n as usize);
    let mut masses = vec![0.0; n];
    let gain = -(-h).exp_m1();
    for k in 0..n - 1 {
        // Both ends from their integer indices, so that consecutive bins, the mass below
        // `j0 h` and the mass above `j1 h` share their end points exactly (computing the upper
        // end as `a + h` left gaps in which an atom of the Laplace or randomized-response law
        // fell into no bin at all: review of issue 15).
        let a = (j0 + k as i64) as f64 * h;
        let b = (j0 + k as i64 + 1) as f64 * h;
        let (p, excess) = law.bin(a, b);
        match estimate {
            Estimate::Upper => {
                let up = (excess / gain + SPLIT_MARGIN * p).clamp(0.0, p);
                masses[k + 1] += up;
                masses[k] += p - up;
            }
            Estimate::Optimistic => masses[k] += p,
        }
    }
    let above = law.sf(j1 * h);
    let (infinity, relative_error) = match estimate {
        Estimate::Upper => {
            masses[0] += law.cdf(j0 as f64 * h);
            (above * (1.0 + RELATIVE_MASS_ERROR), RELATIVE_MASS_ERROR)
        }
        // From below: the mass under the grid is dropped, the mass above it sits at its top.
        Estimate::Optimistic => {
            masses[n - 1] += above;
            (0.0, RELATIVE_MASS_ERROR)
        }
    };
    let mut pmf = Pmf {
        h,
        offset: j0,
        masses,
        infinity,
        error_l2: 0.0,
        relative_error,
        lower_estimate: estimate == Estimate::Optimistic,
    };
    pmf.trim(0.0);
    Ok(pmf)
}

/// 5-point Gauss-Legendre nodes and weights on [-1, 1].
const GL5: [(f64, f64); 5] = [
    (0.0, 0.568_888_888_888_888_9),
    (-0.538_469_310_105_683_1, 0.478_628_670_499_366_5),
    (0.538_469_310_105_683_1, 0.478_628_670_499_366_5),
    (-0.906_179_845_938_664, 0.236_926_885_056_189_1),
    (0.906_179_845_938_664, 0.236_926_885_056_189_1),
];

/// Which neighbour is added or removed (the two orientations of a subsampled mechanism).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Orientation {
    /// `P = (1-q) N(0, z^2) + q N(1, z^2)`, `Q = N(0, z^2)`.
    Remove,
    /// `P = N(0, z^2)`, `Q = (1-q) N(0, z^2) + q N(1, z^2)`.
    Add,
}

/// The loss of the Poisson-subsampled Gaussian mechanism (sensitivity 1, noise `N(0, z^2)`,
/// sampling rate `q`): `L(x) = +-ln((1-q) + q e^s)`, `s = (2x - 1)/(2 z^2)`, increasing in `x`
/// for *remove*, decreasing for *add*. `q = 1` is the Gaussian mechanism.
pub(super) struct SubsampledGaussian {
    pub(super) q: f64,
    pub(super) z: f64,
    pub(super) orientation: Orientation,
}

/// Above this exponent `e^s` is not formed (`e^709.78` overflows; issue 15, defect 1).
const LOG_SPACE_FROM: f64 = 700.0;

/// The mass of `N(shift, z^2)` on `(lo, hi]`, from the side of the CDF without cancellation.
fn normal_span(lo: f64, hi: f64, shift: f64, z: f64) -> f64 {
    let (a, b) = ((lo - shift) / z, (hi - shift) / z);
    if b <= 0.0 {
        normal_cdf(b) - normal_cdf(a)
    } else {
        normal_sf(a) - normal_sf(b)
    }
    .max(0.0)
}

/// `ln((1-q) + q e^s)`, accurate in every range of `s`.
fn log_one_minus_q_plus_q_exp(q: f64, s: f64) -> f64 {
    if q >= 1.0 {
        // ln(e^s) = s, also where e^s would underflow (s < -745; review of issue 15)
        s
    } else if s <= 0.0 {
        ((1.0 - q) + q * s.exp()).ln()
    } else if s < LOG_SPACE_FROM {
        (q * s.exp_m1()).ln_1p()
    } else {
        s + q.ln() + ((1.0 - q) / q * (-s).exp()).ln_1p()
    }
}

impl SubsampledGaussian {
    pub(super) fn new(q: f64, z: f64, orientation: Orientation) -> Self {
        Self { q, z, orientation }
    }

    fn sign(&self) -> f64 {
        match self.orientation {
            Orientation::Remove => 1.0,
            Orientation::Add => -1.0,
        }
    }

    fn log_ratio(&self, s: f64) -> f64 {
        log_one_minus_q_plus_q_exp(self.q, s)
    }

    fn loss_at(&self, x: f64) -> f64 {
        let z = self.z;
        self.sign() * self.log_ratio((2.0 * x - 1.0) / (2.0 * z * z))
    }

    /// The density of `P` at `x`.
    fn density(&self, x: f64) -> f64 {
        let (q, z) = (self.q, self.z);
        let phi = |t: f64| normal_pdf(t) / z;
        match self.orientation {
            Orientation::Remove => (1.0 - q) * phi(x / z) + q * phi((x - 1.0) / z),
            Orientation::Add => phi(x / z),
        }
    }

    /// `x` with `L(x) = l`, or `None` if the loss never reaches `l`.
    fn x_of(&self, l: f64) -> Option<f64> {
        let (q, z) = (self.q, self.z);
        // (1-q) + q e^s = e^{sign l}.
        let sl = self.sign() * l;
        let ln_r = if sl > LOG_SPACE_FROM {
            sl + (-(1.0 - q) * (-sl).exp()).ln_1p() - q.ln()
        } else {
            let r = (sl.exp() - (1.0 - q)) / q;
            if r.is_nan() || r <= 0.0 {
                return None;
            }
            r.ln()
        };
        Some(z * z * ln_r + 0.5)
    }

    /// `(P(L <= l), P(L > l))`, each computed directly (no cancellation).
    fn cdf_sf(&self, l: f64) -> (f64, f64) {
        let (q, z) = (self.q, self.z);
        match (self.orientation, self.x_of(l)) {
            (Orientation::Remove, None) => (0.0, 1.0),
            (Orientation::Remove, Some(x)) => (
                (1.0 - q) * normal_cdf(x / z) + q * normal_cdf((x - 1.0) / z),
                (1.0 - q) * normal_sf(x / z) + q * normal_sf((x - 1.0) / z),
            ),
            (Orientation::Add, None) => (1.0, 0.0),
            (Orientation::Add, Some(x)) => (normal_sf(x / z), normal_cdf(x / z)),
        }
    }

    /// `(mass of P, mass of Q)` on `(lo, hi]` in `x`, from the normal CDF.
    fn masses_by_cdf(&self, lo: f64, hi: f64) -> (f64, f64) {
        let (q, z) = (self.q, self.z);
        let (n0, n1) = (normal_span(lo, hi, 0.0, z), normal_span(lo, hi, 1.0, z));
        let mixture = (1.0 - q) * n0 + q * n1;
        match self.orientation {
            Orientation::Remove => (mixture, n0),
            Orientation::Add => (n0, mixture),
        }
    }
}

impl LossLaw for SubsampledGaussian {
    fn cdf(&self, l: f64) -> f64 {
        self.cdf_sf(l).0
    }

    fn sf(&self, l: f64) -> f64 {
        self.cdf_sf(l).1
    }

    fn bin(&self, a: f64, b: f64) -> (f64, f64) {
        // The bin in x: (x_a, x_b] for remove, [x_b, x_a) for add; None = unbounded or empty.
        let (xa, xb) = (self.x_of(a), self.x_of(b));
        let (lo, hi) = match self.orientation {
            Orientation::Remove => match xb {
                None => return (0.0, 0.0),
                Some(xb) => (xa.unwrap_or(f64::NEG_INFINITY), xb),
            },
            Orientation::Add => match xa {
                None => return (0.0, 0.0),
                Some(xa) => (xb.unwrap_or(f64::NEG_INFINITY), xa),
            },
        };
        if hi <= lo {
            return (0.0, 0.0);
        }
        // Pieces short against the densities' local scale, z / 16 near the centres and
        // z^2 / (16 |x|) in the tails (where the normal density's derivatives grow like
        // (|x| / z)^k), so that 5-point Gauss-Legendre is exact to rounding.
        let z = self.z;
        let reach = lo
            .abs()
            .max(hi.abs())
            .max((lo - 1.0).abs())
            .max((hi - 1.0).abs());
        let piece = z / (16.0 * (1.0 + reach / z));
        if !lo.is_finite() || hi - lo > 64.0 * z {
            let (p, q_mass) = self.masses_by_cdf(lo, hi);
            return (p, (p - a.exp() * q_mass).clamp(0.0, p));
        }
        gauss_legendre_bin(lo, hi, piece, a, &|x| self.density(x), &|x| self.loss_at(x))
    }
}

/// The replace-one pair of the Poisson-subsampled Gaussian (sensitivity 1, noise `N(0, z^2)`,
/// sampling rate `q`): one record's contribution `+1` replaced by `-1`,
/// `P = (1-q) N(0, z^2) + q N(1, z^2)`, `Q = (1-q) N(0, z^2) + q N(-1, z^2)`, with loss
/// `L(x) = ln((1-q) + q e^s1) - ln((1-q) + q e^s2)`, `s1 = (2x - 1)/(2 z^2)`,
/// `s2 = (-2x - 1)/(2 z^2)`: increasing in `x` (`L'(x) = (w1 + w2)/z^2` with the weights
/// `w_i = q e^s_i / ((1-q) + q e^s_i)` in `(0, 1)`) and odd (`L(-x) = -L(x)`), so both orders of
/// the pair have this law. This pair dominates every replace-one pair of records of norm at
/// most 1 in any dimension (`docs/privacy.md`, "Neighbouring relations").
pub(super) struct SubsampledGaussianReplace {
    pub(super) q: f64,
    pub(super) z: f64,
}

impl SubsampledGaussianReplace {
    fn part(&self, s: f64) -> f64 {
        log_one_minus_q_plus_q_exp(self.q, s)
    }

    /// `L(x)`, odd in `x`. With `t = 2|x|/z^2 = s1 - s2` and `D = (1-q) + q e^s2`,
    /// `L(|x|) = ln(1 + q e^s2 expm1(t) / D)`, evaluated in log space (no cancellation near
    /// `L = 0`, no underflow of `e^s2` for small `z`); for `t >= 700` (where `expm1` would
    /// overflow and `L` is large) as the difference of the two logarithms.
    pub(super) fn loss_at(&self, x: f64) -> f64 {
        let (q, zz) = (self.q, self.z * self.z);
        let ax = x.abs();
        let t = 2.0 * ax / zz;
        let s2 = (-2.0 * ax - 1.0) / (2.0 * zz);
        let l = if t < LOG_SPACE_FROM {
            // grouped so that the large s2 cancels first (exactly at q = 1)
            let log_ratio = (q.ln() + t.exp_m1().ln()) + (s2 - self.part(s2));
            log_ratio.exp().ln_1p()
        } else {
            self.part((2.0 * ax - 1.0) / (2.0 * zz)) - self.part(s2)
        };
        l.copysign(x)
    }

    /// `L'(x)`.
    fn slope(&self, x: f64) -> f64 {
        let (q, z) = (self.q, self.z);
        let w = |s: f64| {
            // q e^s / ((1-q) + q e^s) = 1 / (1 + (1-q)/q e^-s); 1 at q = 1 (where the product
            // would be 0 * inf)
            if q >= 1.0 {
                1.0
            } else {
                1.0 / (1.0 + (1.0 - q) / q * (-s).exp())
            }
        };
        let zz = 2.0 * z * z;
        (w((2.0 * x - 1.0) / zz) + w((-2.0 * x - 1.0) / zz)) / (z * z)
    }

    /// The `x` with `L(x) = l`: safeguarded Newton on a bracket that doubles outwards (`L` is
    /// continuous and strictly increasing from `-inf` to `+inf`), with a bisection step whenever
    /// the bracket has not halved, until it is a few ulps wide (so `x` is as accurate as `L`).
    pub(super) fn x_of(&self, l: f64) -> f64 {
        if l == 0.0 {
            return 0.0;
        }
        let (mut lo, mut hi) = if l > 0.0 { (0.0, 1.0) } else { (-1.0, 0.0) };
        while self.loss_at(hi) < l {
            lo = hi;
            hi *= 2.0;
        }
        while self.loss_at(lo) > l {
            hi = lo;
            lo *= 2.0;
        }
        let mut x = 0.5 * (lo + hi);
        let mut width = hi - lo;
        for _ in 0..200 {
            let f = self.loss_at(x) - l;
            if f > 0.0 {
                hi = x;
            } else if f < 0.0 {
                lo = x;
            } else {
                return x;
            }
            let newton = x - f / self.slope(x);
            let halved = hi - lo <= 0.5 * width;
            width = hi - lo;
            let next = if newton > lo && newton < hi && halved {
                newton
            } else {
                0.5 * (lo + hi)
            };
            if next.to_bits() == x.to_bits() || hi - lo <= 4.0 * f64::EPSILON * x.abs().max(1e-300)
            {
                return next;
            }
            x = next;
        }
        x
    }

    /// `(P(L <= l), P(L > l))`, each computed directly.
    fn cdf_sf(&self, l: f64) -> (f64, f64) {
        let (q, z) = (self.q, self.z);
        let x = self.x_of(l);
        (
            (1.0 - q) * normal_cdf(x / z) + q * normal_cdf((x - 1.0) / z),
            (1.0 - q) * normal_sf(x / z) + q * normal_sf((x - 1.0) / z),
        )
    }

    fn density(&self, x: f64) -> f64 {
        let (q, z) = (self.q, self.z);
        ((1.0 - q) * normal_pdf(x / z) + q * normal_pdf((x - 1.0) / z)) / z
    }

    /// `(mass of P, mass of Q)` on `(lo, hi]` in `x`, from the normal CDF.
    fn masses_by_cdf(&self, lo: f64, hi: f64) -> (f64, f64) {
        let (q, z) = (self.q, self.z);
        let span = |shift: f64| normal_span(lo, hi, shift, z);
        let n0 = span(0.0);
        (
            (1.0 - q) * n0 + q * span(1.0),
            (1.0 - q) * n0 + q * span(-1.0),
        )
    }
}

impl LossLaw for SubsampledGaussianReplace {
    fn cdf(&self, l: f64) -> f64 {
        self.cdf_sf(l).0
    }

    fn sf(&self, l: f64) -> f64 {
        self.cdf_sf(l).1
    }

    fn bin(&self, a: f64, b: f64) -> (f64, f64) {
        let (lo, hi) = (self.x_of(a), self.x_of(b));
        if hi <= lo {
            return (0.0, 0.0);
        }
        let z = self.z;
        let reach = lo.abs().max(hi.abs()) + 1.0;
        let piece = z / (16.0 * (1.0 + reach / z));
        if hi - lo > 64.0 * z {
            let (p, q_mass) = self.masses_by_cdf(lo, hi);
            return (p, (p - a.exp() * q_mass).clamp(0.0, p));
        }
        gauss_legendre_bin(lo, hi, piece, a, &|x| self.density(x), &|x| self.loss_at(x))
    }
}

/// `(P(a < L <= b), E_P[1 - e^(a - L); a < L <= b])` over `x` in `(lo, hi]` by 5-point
/// Gauss-Legendre on pieces at most `piece` wide, for a density and a loss of `x`.
fn gauss_legendre_bin(
    lo: f64,
    hi: f64,
    piece: f64,
    a: f64,
    density: &dyn Fn(f64) -> f64,
    loss: &dyn Fn(f64) -> f64,
) -> (f64, f64) {
    let pieces = ((hi - lo) / piece).ceil().max(1.0) as usize;
    let width = (hi - lo) / pieces as f64;
    let (mut p, mut excess) = (0.0, 0.0);
    for i in 0..pieces {
        let mid = lo + (i as f64 + 0.5) * width;
        for (node, weight) in GL5 {
            let x = mid + 0.5 * width * node;
            let w = 0.5 * width * weight * density(x);
            p += w;
            excess += w * (-(a - loss(x)).exp_m1()).max(0.0);
        }
    }
    (p, excess.min(p))
}

/// The smallest `hi` with `P(L > hi) <= tail` and the largest `lo` with `P(L <= lo) <= tail`,
/// to within 1% (plus one bin), for a law given by `cdf_sf(l) = (P(L <= l), P(L > l))`:
/// doubling, then bisection.
fn tail_range(
    cdf_sf: &dyn Fn(f64) -> (f64, f64),
    tail: f64,
    h: f64,
) -> Result<(f64, f64), PrivacyError> {
    let search = |above: &dyn Fn(f64) -> bool, sign: f64| -> Result<f64, PrivacyError> {
        let mut far = sign * 16.0 * h;
        while above(far) {
            far *= 2.0;
            if far.abs() > 1e6 {
                return Err(PrivacyError::Calibration(
                    "PLD: the loss tail does not decay".into(),
                ));
            }
        }
        let mut near = far / 2.0;
        while (far - near).abs() > 0.01 * far.abs() + h {
            let mid = 0.5 * (near + far);
            if above(mid) { near = mid } else { far = mid }
        }
        Ok(far)
    };
    let hi = search(&|l| cdf_sf(l).1 > tail, 1.0)?;
    let lo = search(&|l| cdf_sf(l).0 > tail, -1.0)?;
    Ok((lo, hi))
}

/// Point masses of a loss law: `(loss, P-mass)`.
fn atoms_in(atoms: &[(f64, f64)], a: f64, b: f64) -> (f64, f64) {
    atoms
        .iter()
        .filter(|(l, _)| *l > a && *l <= b)
        .fold((0.0, 0.0), |(p, x), (l, m)| {
            (p + m, x + m * -(a - l).exp_m1())
        })
}

/// The Laplace mechanism with `eps = sensitivity / scale`: `P = Lap(0, b)`, `Q = Lap(Delta, b)`,
/// `L(x) = (|x - Delta| - |x|)/b`: an atom `1/2` at `eps` (`x <= 0`), an atom `e^-eps / 2` at
/// `-eps` (`x >= Delta`) and the density `e^((l - eps)/2) / 4` on `(-eps, eps)`. Both
/// orientations have this law (the pair is symmetric).
pub(super) struct Laplace {
    pub(super) eps: f64,
}

impl Laplace {
    fn atoms(&self) -> [(f64, f64); 2] {
        [(self.eps, 0.5), (-self.eps, 0.5 * (-self.eps).exp())]
    }
}

impl LossLaw for Laplace {
    fn range(&self, _tail: f64, _h: f64) -> Result<(f64, f64), PrivacyError> {
        Ok((-self.eps, self.eps))
    }

    fn cdf(&self, l: f64) -> f64 {
        let e = self.eps;
        if l < -e {
            0.0
        } else if l < e {
            0.5 * ((l - e) / 2.0).exp()
        } else {
            1.0
        }
    }

    fn sf(&self, l: f64) -> f64 {
        let e = self.eps;
        if l < -e {
            1.0
        } else if l < e {
            // 1/2 (atom at eps) + the density's mass on (l, eps).
            0.5 + 0.5 * -((l - e) / 2.0).exp_m1()
        } else {
            0.0
        }
    }

    fn bin(&self, a: f64, b: f64) -> (f64, f64) {
        let e = self.eps;
        let (mut p, mut x) = atoms_in(&self.atoms(), a, b);
        let (lo, hi) = (a.max(-e), b.min(e));
        if lo < hi {
            // int_lo^hi e^((l - e)/2)/4 dl and int (1 - e^(a - l)) e^((l - e)/2)/4 dl.
            let d = hi - lo;
            p += 0.5 * ((lo - e) / 2.0).exp() * (d / 2.0).exp_m1();
            let scale = 0.5 * (-e / 2.0).exp();
            x += scale
                * ((lo / 2.0).exp() * (d / 2.0).exp_m1()
                    + (a - lo / 2.0).exp() * (-d / 2.0).exp_m1());
        }
        (p, x.clamp(0.0, p))
    }
}

/// `k`-ary randomized response with parameter `eps`: the true value with probability
/// `e^eps / (e^eps + k - 1)`, each other value with `1 / (e^eps + k - 1)`. For two inputs the
/// loss is `eps` (P-mass `e^eps / (e^eps + k - 1)`), `-eps` (`1 / (e^eps + k - 1)`) and 0 (the
/// other `k - 2` values). Both orientations have this law.
pub(super) struct RandomizedResponse {
    pub(super) eps: f64,
    pub(super) k: u32,
}

impl RandomizedResponse {
    fn atoms(&self) -> [(f64, f64); 3] {
        let (e, k) = (self.eps, self.k as f64);
        // Normalised with e^-eps to stay finite for large eps.
        let denom = 1.0 + (k - 1.0) * (-e).exp();
        [
            (e, 1.0 / denom),
            (0.0, (k - 2.0) * (-e).exp() / denom),
            (-e, (-e).exp() / denom),
        ]
    }
}

impl LossLaw for RandomizedResponse {
    fn range(&self, _tail: f64, _h: f64) -> Result<(f64, f64), PrivacyError> {
        Ok((-self.eps, self.eps))
    }

    fn cdf(&self, l: f64) -> f64 {
        self.atoms()
            .iter()
            .filter(|(x, _)| *x <= l)
            .map(|a| a.1)
            .sum()
    }

    fn sf(&self, l: f64) -> f64 {
        self.atoms()
            .iter()
            .filter(|(x, _)| *x > l)
            .map(|a| a.1)
            .sum()
    }

    fn bin(&self, a: f64, b: f64) -> (f64, f64) {
        atoms_in(&self.atoms(), a, b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The quadrature's bin masses add up to 1 with the CDF's tails, agree with the CDF's
    /// differences, and equal mpmath's 40-digit values on three bins.
    #[test]
    fn bins_agree_with_the_cdf() {
        for orientation in [Orientation::Remove, Orientation::Add] {
            for (q, z) in [(0.01, 0.5), (0.3, 1.0), (1.0, 2.0)] {
                let law = SubsampledGaussian::new(q, z, orientation);
                let (lo, hi) = law.range(1e-20, 0.01).unwrap();
                let (mut total, mut worst) = (law.cdf(lo), 0.0f64);
                let h = (hi - lo) / 200.0;
                for i in 0..200 {
                    let a = lo + i as f64 * h;
                    let (p, _) = law.bin(a, a + h);
                    let by_cdf = law.cdf(a + h) - law.cdf(a);
                    worst = worst.max((p - by_cdf).abs());
                    total += p;
                }
                total += law.sf(hi);
                assert!(
                    (total - 1.0).abs() < 1e-14,
                    "{orientation:?} {q} {z}: {total}"
                );
                assert!(worst < 1e-15, "{orientation:?} {q} {z}: {worst}");
            }
        }
        // mpmath (mp.dps = 40): (1-q)(ncdf(b/z) - ncdf(a/z)) + q(ncdf((b-1)/z) - ncdf((a-1)/z)).
        let law = SubsampledGaussian::new(0.01, 0.5, Orientation::Remove);
        for (xa, xb, exact) in [
            (
                f64::NEG_INFINITY,
                0.9977134751801784,
                0.972_213_570_901_918_7,
            ),
            (
                0.9977134751801784,
                1.1880499569015792,
                0.015_591_337_446_576_264,
            ),
            (
                1.451070644969605,
                1.5072330403745335,
                8.433_943_191_745_803e-4,
            ),
        ] {
            let (a, b) = (law.loss_at(xa), law.loss_at(xb));
            let (p, _) = law.bin(a, b);
            // (The bin ends pass through the loss and back: a few ulps.)
            assert!(
                (p - exact).abs() <= 1e-14 * exact,
                "{xa}..{xb}: {p} vs {exact}"
            );
        }
    }

    /// Laplace: the bins' masses sum to 1 and their excesses sum to delta(lowest point).
    #[test]
    fn laplace_bins_are_consistent() {
        let law = Laplace { eps: 1.3 };
        let h = 0.1;
        let (lo, hi) = law.range(0.0, h).unwrap();
        let (mut total, mut excess) = (law.cdf(lo - h), 0.0);
        let a0 = lo - h;
        let mut a = a0;
        while a < hi + h {
            let (p, _) = law.bin(a, a + h);
            total += p;
            // Excess with respect to a0 of each bin: E[1 - e^(a0 - L)] over it.
            let (_, x) = law.bin(a0, a + h);
            let (_, x_before) = law.bin(a0, a);
            excess += x - x_before;
            a += h;
        }
        assert!((total - 1.0).abs() < 1e-14, "{total}");
        // delta(a0) of the Laplace mechanism: 1 - e^a0 (everything lies above a0 = -eps - h).
        let exact = -(a0).exp_m1();
        assert!((excess - exact).abs() < 1e-14, "{excess} vs {exact}");
    }
}
