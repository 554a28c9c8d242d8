//! Privacy-loss-distribution (PLD) accounting: the subsampled Gaussian, Laplace and randomized
//! response mechanisms, composed with each other and with themselves, with an epsilon that is
//! an upper bound (Meiser & Mohammadi 2018; Koskela, Jälkö & Honkela 2020; Doroshenko et al.
//! 2022 for the connect-the-dots discretisation; Zhu, Dong & Wang 2022 for composition of
//! dominating pairs).
//!
//! # Method
//! For a dominating pair `(P, Q)` of a mechanism the privacy loss is `L = ln(P(x)/Q(x))`,
//! `x ~ P`, and `delta(eps) = E[(1 - e^(eps - L))_+]` (plus the mass where `Q = 0`).
//! Composition adds independent losses, so the composed law is a convolution, also under
//! adaptive composition with fixed dominating pairs.
//!
//! * [`loss`]: each mechanism's loss law, discretised onto the grid `l_j = j h` by
//!   connect-the-dots (dominating: the discrete curve equals the true one at the grid points and
//!   lies above it between them), with the upper tail beyond the grid at `+infinity`.
//! * [`pmf`]: compositions by FFT on a window of the loss axis cut by Chernoff bounds of the
//!   law itself (so the support stays bounded as `T` grows; the mass beyond the window is
//!   bounded and added to delta), the tails trimmed after every composition (mass `tail_mass`
//!   at a time, added to delta above, moved up below), and every floating-point error bounded
//!   and carried to the final delta; epsilon solved in one pass.
//! * [`fft`]: the convolutions and their error bounds.
//!
//! # Neighbouring relation
//! Add/remove one participant. For the subsampled Gaussian the two orientations have different
//! laws: *remove* `(P, Q) = ((1-q) N(0, z^2) + q N(1, z^2), N(0, z^2))` and *add* the reverse.
//! A fixed pair of neighbouring data sets has the same orientation in every round, so each is
//! composed on its own and the reported epsilon is the larger. The Laplace mechanism and
//! randomized response have one law for both (their pairs are symmetric); for them
//! add/remove and replace-one coincide once the sensitivity (or the two inputs) is stated.
//! Replace-one for the subsampled Gaussian: [`replace_one`] (a dominating pair, with its proof;
//! group privacy over the two orientations below as an independent route).

pub mod fft;
pub mod loss;
pub mod pmf;
pub mod reference;
pub mod replace_one;

pub use pmf::Pmf;
pub use reference::REFERENCE_SETTINGS;
pub use replace_one::{
    GroupPrivacyEpsilon, replace_one_epsilon, subsampled_gaussian_pld_epsilon_replace_one,
};

use loss::{
    Estimate, Laplace, LossLaw, Orientation, RandomizedResponse, SubsampledGaussian,
    SubsampledGaussianReplace,
};
use pmf::MAX_FFT_LEN;

use crate::error::PrivacyError;
use crate::params::{Delta, NoiseMultiplier, SamplingRate};
use validation::{InputError, Interval, at_least_one, in_range, positive};

/// Largest number of compositions the PLD accountant accepts.
pub const MAX_PLD_STEPS: u64 = 100_000;

/// The memory cap of a chosen grid ([`subsampled_gaussian_pld_epsilon_auto`]): at most `2^22`
/// grid points in one mechanism's discretised loss and in a composition's FFT window (a
/// complex buffer of 64 MiB; the accounting holds a few such grids, one at a time per
/// orientation and estimate). At the default bin width `1e-4` this is a loss span of 419;
/// every one of the twelve reference settings fits it (the widest, S6, has a window of
/// `2^21` points). A bin width given explicitly keeps the looser limits of
/// [`PldSettings`] (`5e7` points for one loss, an FFT of `2^24`).
pub const AUTO_GRID_POINTS: usize = 1 << 22;

/// The smallest memory cap [`subsampled_gaussian_pld_epsilon_auto`] accepts (`2^16`: below it
/// a composition's whole support would not fit).
pub const MIN_GRID_POINTS: usize = 1 << 16;

/// How many times a chosen width is coarsened by a quarter when the grid built at it still
/// exceeds the cap (the estimate of the composed window is made on a coarse grid; in the tests
/// it was always enough at the first try).
const WIDTH_RETRIES: usize = 16;

/// Settings of the discretisation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PldSettings {
    /// Bin width `h` of the loss axis, in `[1e-6, 1]`. The excess of the bound over the exact
    /// epsilon is second order in `h` (connect-the-dots); the optimistic estimate's gap is up
    /// to `T h`.
    pub bin_width: f64,
    /// Mass cut at a time from a tail: from one mechanism's loss beyond the grid, and from the
    /// tails of every composition. Above it goes to `+infinity` (it counts fully towards delta),
    /// below it moves up onto the grid (which can only raise delta).
    pub tail_mass: f64,
}

impl Default for PldSettings {
    fn default() -> Self {
        Self {
            bin_width: 1e-4,
            tail_mass: 1e-20,
        }
    }
}

impl PldSettings {
    fn validated(self) -> Result<(f64, f64), PrivacyError> {
        let h = in_range(
            "bin width",
            self.bin_width,
            Interval::closed(loss::MIN_BIN_WIDTH, 1.0),
        )?;
        let tail = in_range("tail mass", self.tail_mass, Interval::open(0.0, 1e-3))?;
        Ok((h, tail))
    }
}

/// A privacy-loss distribution that dominates a (composed) mechanism's, for both orientations
/// of the add/remove relation.
#[derive(Debug, Clone)]
pub struct PrivacyLossDistribution {
    remove: Pmf,
    /// `None`: the same law as `remove` (a symmetric pair).
    add: Option<Pmf>,
    tail: f64,
}

/// Limits on the grids of one accounting: points of one mechanism's loss, length of a
/// composition's FFT.
#[derive(Debug, Clone, Copy)]
struct Limits {
    bins: usize,
    fft: usize,
}

impl Limits {
    /// The limits of a bin width given explicitly.
    const EXPLICIT: Self = Self {
        bins: loss::MAX_BINS,
        fft: MAX_FFT_LEN,
    };

    /// The limits of a chosen grid: `points` for both.
    fn cap(points: usize) -> Self {
        Self {
            bins: points,
            fft: points,
        }
    }
}

/// The two orientations' laws of the Poisson-subsampled Gaussian (`None` for the add
/// orientation at `q = 1`, the Gaussian mechanism, whose two orientations have the same law).
fn subsampled_gaussian_laws(
    q: f64,
    z: f64,
) -> Result<(SubsampledGaussian, Option<SubsampledGaussian>), PrivacyError> {
    let q = SamplingRate::new(q)?.get();
    let z = NoiseMultiplier::new(z)?.get();
    let remove = SubsampledGaussian::new(q, z, Orientation::Remove);
    let add = (q < 1.0).then(|| SubsampledGaussian::new(q, z, Orientation::Add));
    Ok((remove, add))
}

impl PrivacyLossDistribution {
    fn of<L: LossLaw>(
        remove: &L,
        add: Option<&L>,
        settings: PldSettings,
        estimate: Estimate,
    ) -> Result<Self, PrivacyError> {
        Self::of_within(remove, add, settings, estimate, Limits::EXPLICIT)
    }

    fn of_within<L: LossLaw>(
        remove: &L,
        add: Option<&L>,
        settings: PldSettings,
        estimate: Estimate,
        limits: Limits,
    ) -> Result<Self, PrivacyError> {
        let (h, tail) = settings.validated()?;
        Ok(Self {
            remove: loss::discretise(remove, h, tail, estimate, limits.bins)?,
            add: add
                .map(|l| loss::discretise(l, h, tail, estimate, limits.bins))
                .transpose()?,
            tail,
        })
    }

    fn subsampled_gaussian_estimate(
        q: f64,
        z: f64,
        settings: PldSettings,
        estimate: Estimate,
        limits: Limits,
    ) -> Result<Self, PrivacyError> {
        let (remove, add) = subsampled_gaussian_laws(q, z)?;
        Self::of_within(&remove, add.as_ref(), settings, estimate, limits)
    }

    /// One release of the Poisson-subsampled Gaussian mechanism under the *replace-one*
    /// relation: the dominating pair `((1-q) N(0, z^2) + q N(1, z^2), (1-q) N(0, z^2) +
    /// q N(-1, z^2))` (one record's contribution `+1` replaced by `-1`; `z` is the noise
    /// standard deviation over the largest norm of one record's contribution, the add/remove
    /// sensitivity). The pair is symmetric, so one law serves both orders. Why it dominates
    /// every replace-one pair: [`replace_one`] and `docs/privacy.md`.
    ///
    /// # Errors
    /// As [`Self::subsampled_gaussian`].
    pub fn subsampled_gaussian_replace_one(
        q: f64,
        z: f64,
        settings: PldSettings,
    ) -> Result<Self, PrivacyError> {
        let q = SamplingRate::new(q)?.get();
        let z = NoiseMultiplier::new(z)?.get();
        let law = SubsampledGaussianReplace { q, z };
        Self::of(&law, None, settings, Estimate::Upper)
    }

    /// One release of the Poisson-subsampled Gaussian mechanism: sampling rate `q`, noise
    /// multiplier `z` (noise standard deviation over the L2 sensitivity).
    ///
    /// # Errors
    /// `q` outside (0, 1], `z` not positive and finite, bad settings, or
    /// [`PrivacyError::GridTooFine`] for a loss that needs more than 5e7 grid points.
    pub fn subsampled_gaussian(
        q: f64,
        z: f64,
        settings: PldSettings,
    ) -> Result<Self, PrivacyError> {
        Self::subsampled_gaussian_estimate(q, z, settings, Estimate::Upper, Limits::EXPLICIT)
    }

    /// One release of the Gaussian mechanism with noise multiplier `z` (`q = 1`).
    ///
    /// # Errors
    /// As [`Self::subsampled_gaussian`].
    pub fn gaussian(z: f64, settings: PldSettings) -> Result<Self, PrivacyError> {
        Self::subsampled_gaussian(1.0, z, settings)
    }

    /// One release of the Laplace mechanism with `epsilon = sensitivity / scale` (its loss lies
    /// in `[-epsilon, epsilon]`).
    ///
    /// # Errors
    /// `epsilon` not positive and finite, or bad settings.
    pub fn laplace(epsilon: f64, settings: PldSettings) -> Result<Self, PrivacyError> {
        let eps = positive("epsilon", epsilon)?;
        Self::of(&Laplace { eps }, None, settings, Estimate::Upper)
    }

    /// One release of `k`-ary randomized response with parameter `epsilon` (the true value
    /// with probability `e^eps / (e^eps + k - 1)`).
    ///
    /// # Errors
    /// `epsilon` not positive and finite, `k < 2`, or bad settings.
    pub fn randomized_response(
        epsilon: f64,
        k: u32,
        settings: PldSettings,
    ) -> Result<Self, PrivacyError> {
        let eps = positive("epsilon", epsilon)?;
        if k < 2 {
            return Err(InputError::OutOfRange {
                what: "randomized response: number of values k",
                value: k as f64,
                range: Interval::closed(2.0, u32::MAX as f64),
            }
            .into());
        }
        Self::of(
            &RandomizedResponse { eps, k },
            None,
            settings,
            Estimate::Upper,
        )
    }

    /// The discretised law of the remove orientation.
    pub fn remove_law(&self) -> &Pmf {
        &self.remove
    }

    /// The discretised law of the add orientation (the remove law for symmetric pairs).
    pub fn add_law(&self) -> &Pmf {
        self.add.as_ref().unwrap_or(&self.remove)
    }

    /// The composition of `self` and `other` (in either order: the losses add). Both must have
    /// the same bin width.
    ///
    /// # Errors
    /// Different bin widths, or a composed loss beyond the FFT's limit.
    pub fn compose(&self, other: &Self) -> Result<Self, PrivacyError> {
        let tail = self.tail.min(other.tail);
        let remove = self.remove.compose(&other.remove, tail)?;
        let add = match (&self.add, &other.add) {
            (None, None) => None,
            _ => Some(self.add_law().compose(other.add_law(), tail)?),
        };
        Ok(Self { remove, add, tail })
    }

    /// `steps` compositions of `self` with itself.
    ///
    /// # Errors
    /// `steps` outside `1..=MAX_PLD_STEPS`, or [`PrivacyError::GridTooFine`] for a composed
    /// loss beyond the FFT's limit (`2^24`).
    pub fn self_compose(&self, steps: u64) -> Result<Self, PrivacyError> {
        self.self_compose_within(steps, MAX_FFT_LEN)
    }

    /// [`Self::self_compose`] on an FFT of at most `max_len` points.
    fn self_compose_within(&self, steps: u64, max_len: usize) -> Result<Self, PrivacyError> {
        let steps = at_least_one("steps", steps)?;
        if steps > MAX_PLD_STEPS {
            return Err(InputError::OutOfRange {
                what: "steps (PLD)",
                value: steps as f64,
                range: Interval::closed(1.0, MAX_PLD_STEPS as f64),
            }
            .into());
        }
        Ok(Self {
            remove: self.remove.self_compose(steps, self.tail, max_len)?,
            add: self
                .add
                .as_ref()
                .map(|a| a.self_compose(steps, self.tail, max_len))
                .transpose()?,
            tail: self.tail,
        })
    }

    /// Upper bound on `delta` at `epsilon` (the larger over the two orientations).
    ///
    /// # Errors
    /// `epsilon` NaN.
    pub fn delta(&self, epsilon: f64) -> Result<f64, PrivacyError> {
        if epsilon.is_nan() {
            return Err(InputError::NotANumber { what: "epsilon" }.into());
        }
        Ok(self
            .remove
            .delta(epsilon)
            .max(self.add_law().delta(epsilon)))
    }

    /// The `(remove, add)` epsilons at `delta`, each an upper bound.
    ///
    /// # Errors
    /// `delta` outside (0, 1); [`PrivacyError::Unbounded`] when the mass at infinity (the
    /// tails beyond the grids) reaches `delta` in an orientation.
    pub fn epsilons(&self, delta: f64) -> Result<(f64, f64), PrivacyError> {
        let d = Delta::positive(delta)?.get();
        let solve = |p: &Pmf, name: &str| {
            p.epsilon(d).ok_or_else(|| {
                PrivacyError::Unbounded(format!(
                    "PLD ({name}): the loss mass at infinity, {:e}, reaches delta = {d:e}; a \
                     larger delta or noise, or a smaller tail mass, can give a finite epsilon",
                    p.infinity_mass()
                ))
            })
        };
        let remove = solve(&self.remove, "remove")?;
        let add = match &self.add {
            None => remove,
            Some(a) => solve(a, "add")?,
        };
        Ok((remove, add))
    }

    /// Upper bound on epsilon at `delta` (the larger over the two orientations).
    ///
    /// # Errors
    /// As [`Self::epsilons`].
    pub fn epsilon(&self, delta: f64) -> Result<f64, PrivacyError> {
        let (r, a) = self.epsilons(delta)?;
        Ok(r.max(a))
    }
}

/// The result of [`subsampled_gaussian_pld_epsilon`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PldEpsilon {
    /// The upper bound on epsilon (max over the two orientations).
    pub epsilon: f64,
    /// epsilon of the remove orientation.
    pub epsilon_remove: f64,
    /// epsilon of the add orientation.
    pub epsilon_add: f64,
    /// The same computation with every bin's mass at its *lower* end: an estimate from below
    /// (up to the tails and floating point), to show the discretisation gap.
    pub epsilon_optimistic: f64,
    /// The bin width of the loss grid (given, or chosen by
    /// [`subsampled_gaussian_pld_epsilon_auto`]).
    pub bin_width: f64,
}

/// The epsilon of `steps` rounds of the Poisson-subsampled Gaussian (sampling rate `q`, noise
/// multiplier `z`) at `delta`, by the connect-the-dots PLD, with the optimistic estimate beside
/// it.
///
/// # Errors
/// Bad parameters; [`PrivacyError::Unbounded`] when no finite epsilon can be stated at `delta`;
/// [`PrivacyError::GridTooFine`] when the grid would be too large at `settings.bin_width`.
pub fn subsampled_gaussian_pld_epsilon(
    q: f64,
    z: f64,
    steps: u64,
    delta: f64,
    settings: PldSettings,
) -> Result<PldEpsilon, PrivacyError> {
    subsampled_gaussian_pld_epsilon_within(q, z, steps, delta, settings, Limits::EXPLICIT)
}

fn subsampled_gaussian_pld_epsilon_within(
    q: f64,
    z: f64,
    steps: u64,
    delta: f64,
    settings: PldSettings,
    limits: Limits,
) -> Result<PldEpsilon, PrivacyError> {
    Delta::positive(delta)?;
    let upper = PrivacyLossDistribution::subsampled_gaussian_estimate(
        q,
        z,
        settings,
        Estimate::Upper,
        limits,
    )?
    .self_compose_within(steps, limits.fft)?;
    let (epsilon_remove, epsilon_add) = upper.epsilons(delta)?;
    let optimistic = PrivacyLossDistribution::subsampled_gaussian_estimate(
        q,
        z,
        settings,
        Estimate::Optimistic,
        limits,
    )?
    .self_compose_within(steps, limits.fft)?;
    let (or, oa) = optimistic.epsilons(delta)?;
    Ok(PldEpsilon {
        epsilon: epsilon_remove.max(epsilon_add),
        epsilon_remove,
        epsilon_add,
        epsilon_optimistic: or.max(oa),
        bin_width: settings.bin_width,
    })
}

/// [`subsampled_gaussian_pld_epsilon`] on a grid whose bin width is chosen so that every grid
/// of the accounting has at most `max_points` points ([`AUTO_GRID_POINTS`] is the cap of the
/// named accountant and `cargo xtask accountant`): the default width `1e-4` where that fits,
/// coarser only as far as needed (the single loss's span over the cap, and the composition's
/// Chernoff window measured on a coarse grid over the cap; `docs/privacy.md`, "The grid: given
/// or chosen"). The answer is an upper bound at
/// every width (connect-the-dots dominates at any `h`; only its excess over the exact epsilon,
/// second order in `h`, grows); [`PldEpsilon::bin_width`] is the width used.
///
/// # Errors
/// As [`subsampled_gaussian_pld_epsilon`]; `max_points` outside
/// `[MIN_GRID_POINTS, 2^24]`; [`PrivacyError::GridTooFine`] when even the widest bin width,
/// 1, needs more points.
pub fn subsampled_gaussian_pld_epsilon_auto(
    q: f64,
    z: f64,
    steps: u64,
    delta: f64,
    max_points: usize,
) -> Result<PldEpsilon, PrivacyError> {
    Delta::positive(delta)?;
    let max_points = grid_cap(max_points)?;
    let (remove, add) = subsampled_gaussian_laws(q, z)?;
    let tail = PldSettings::default().tail_mass;
    let laws: Vec<&SubsampledGaussian> = std::iter::once(&remove).chain(add.as_ref()).collect();
    let first = choose_bin_width(&laws, steps, tail, max_points)?;
    with_chosen_width(first, max_points, |h| {
        let settings = PldSettings {
            bin_width: h,
            tail_mass: tail,
        };
        subsampled_gaussian_pld_epsilon_within(
            q,
            z,
            steps,
            delta,
            settings,
            Limits::cap(max_points),
        )
    })
    .map(|(e, _)| e)
}

/// [`replace_one::subsampled_gaussian_pld_epsilon_replace_one`] on a chosen grid, as
/// [`subsampled_gaussian_pld_epsilon_auto`]: `(epsilon, bin width)`.
///
/// # Errors
/// As [`subsampled_gaussian_pld_epsilon_auto`].
pub fn subsampled_gaussian_pld_epsilon_replace_one_auto(
    q: f64,
    z: f64,
    steps: u64,
    delta: f64,
    max_points: usize,
) -> Result<(f64, f64), PrivacyError> {
    Delta::positive(delta)?;
    let max_points = grid_cap(max_points)?;
    let q = SamplingRate::new(q)?.get();
    let z = NoiseMultiplier::new(z)?.get();
    let law = SubsampledGaussianReplace { q, z };
    let tail = PldSettings::default().tail_mass;
    let first = choose_bin_width(&[&law], steps, tail, max_points)?;
    with_chosen_width(first, max_points, |h| {
        let settings = PldSettings {
            bin_width: h,
            tail_mass: tail,
        };
        let limits = Limits::cap(max_points);
        PrivacyLossDistribution::of_within(&law, None, settings, Estimate::Upper, limits)?
            .self_compose_within(steps, limits.fft)?
            .epsilon(delta)
    })
}

fn grid_cap(max_points: usize) -> Result<usize, PrivacyError> {
    if !(MIN_GRID_POINTS..=MAX_FFT_LEN).contains(&max_points) {
        return Err(InputError::OutOfRange {
            what: "PLD grid cap (points)",
            value: max_points as f64,
            range: Interval::closed(MIN_GRID_POINTS as f64, MAX_FFT_LEN as f64),
        }
        .into());
    }
    Ok(max_points)
}

/// `h` rounded up to two significant digits (a width that prints as it is: `0.00062`).
fn round_up_two_digits(h: f64) -> f64 {
    let scale = 10f64.powi(1 - h.log10().floor() as i32);
    // (1 - 1e-12): a width already on two digits stays as it is despite the product's rounding;
    // the grid built at the width is checked against the cap anyway.
    (h * scale * (1.0 - 1e-12)).ceil() / scale
}

/// The bin width for the `laws` composed `steps` times within `max_points` grid points: the
/// default width `h0 = 1e-4` when it fits, else the smallest width that fits by the estimate
/// below, rounded up to two significant digits.
///
/// # Derivation
/// * One mechanism's grid covers the loss range `[lo, hi]` outside the tails of mass
///   `tail` ([`loss::grid_points`]): `(hi - lo)/h + 3` points at most (both ends rounded outwards), so
///   `h >= (hi - lo) / (max_points - 3)`.
/// * A composition keeps the Chernoff window of the `steps`-fold sum ([`Pmf`]'s
///   `self_compose`): at most `steps (hi - lo)` long (the composed span is `steps` times the
///   single span), usually far shorter (`O(sqrt(steps))` around the mean). Its length `W` on
///   the loss axis is measured on a coarse grid of about `2^14` points, which spreads the law
///   (connect-the-dots moves mass to the bins' ends), so `W` is if anything an overestimate
///   at a finer `h`; the window then has at most `W/h + 3` points, so `h >= W / (max_points - 3)`.
///
/// The width is only a first guess: the accounting at it checks every grid against the cap,
/// and [`with_chosen_width`] coarsens by a quarter when one does not fit.
fn choose_bin_width<L: LossLaw>(
    laws: &[&L],
    steps: u64,
    tail: f64,
    max_points: usize,
) -> Result<f64, PrivacyError> {
    let h0 = PldSettings::default().bin_width;
    let room = (max_points - 3) as f64;
    let mut h = h0;
    for law in laws {
        let (_, lo, hi) = loss::grid_points(*law, h0, tail)?;
        h = h.max((hi - lo) / room);
    }
    if steps > 1 {
        for law in laws {
            let (_, lo, hi) = loss::grid_points(*law, h, tail)?;
            let coarse = ((hi - lo) / f64::from(1 << 14)).max(h);
            let pmf = loss::discretise(*law, coarse, tail, Estimate::Upper, max_points)?;
            h = h.max(pmf.window_span(steps, tail) / room);
        }
    }
    Ok(if h <= h0 { h0 } else { round_up_two_digits(h) })
}

/// `run(h)` from `first` on, the width coarsened by a quarter (and rounded up to two digits)
/// while `run` reports a grid too large for the cap: `(run's value, the width used)`.
fn with_chosen_width<T>(
    first: f64,
    max_points: usize,
    mut run: impl FnMut(f64) -> Result<T, PrivacyError>,
) -> Result<(T, f64), PrivacyError> {
    let mut h = first;
    for _ in 0..WIDTH_RETRIES {
        if h > 1.0 {
            break;
        }
        match run(h) {
            Err(PrivacyError::GridTooFine(_)) => h = round_up_two_digits(h * 1.25),
            other => return other.map(|t| (t, h)),
        }
    }
    Err(PrivacyError::GridTooFine(format!(
        "PLD: no bin width up to 1 (the widest accepted) keeps the loss grid within \
         {max_points} points (last tried {h})"
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where the default width's grids fit the cap, the chosen width is the default and the
    /// answer the same as with the width given.
    #[test]
    fn where_the_default_fits_it_is_chosen() {
        let (q, z, t, d) = (0.25, 1.0, 4, 1e-3);
        let auto = subsampled_gaussian_pld_epsilon_auto(q, z, t, d, AUTO_GRID_POINTS).unwrap();
        let given = subsampled_gaussian_pld_epsilon(q, z, t, d, PldSettings::default()).unwrap();
        assert_eq!(auto, given);
        assert_eq!(auto.bin_width.to_bits(), 1e-4f64.to_bits());
    }

    /// Where it does not, the chosen width is coarser, two significant digits, and every grid
    /// of the accounting at it fits the cap (one mechanism's loss in both orientations and
    /// estimates, and the composition's FFT window); at half the width they do not (the width
    /// is not needlessly coarse). The smallest cap, `2^16`, keeps the test fast.
    #[test]
    fn the_chosen_width_fits_the_cap() {
        let cap = MIN_GRID_POINTS;
        for (q, z, t) in [
            (0.5, 0.05, 10u64),
            (0.5, 0.01, 1),
            (0.01, 0.3, 1000),
            (0.9, 0.2, 40),
        ] {
            let r = subsampled_gaussian_pld_epsilon_auto(q, z, t, 1e-5, cap).unwrap();
            let h = r.bin_width;
            assert!(h > 1e-4 && h <= 1.0, "{q} {z} {t}: {h}");
            assert_eq!(h.to_bits(), round_up_two_digits(h).to_bits(), "{h}");
            let at = |h: f64| PldSettings {
                bin_width: h,
                ..PldSettings::default()
            };
            for estimate in [Estimate::Upper, Estimate::Optimistic] {
                let pld = PrivacyLossDistribution::subsampled_gaussian_estimate(
                    q,
                    z,
                    at(h),
                    estimate,
                    Limits::cap(cap),
                )
                .unwrap();
                assert!(pld.remove_law().len() <= cap && pld.add_law().len() <= cap);
                let c = pld.self_compose_within(t, cap).unwrap();
                assert!(c.remove_law().len() <= cap && c.add_law().len() <= cap);
            }
            let half = subsampled_gaussian_pld_epsilon_within(
                q,
                z,
                t,
                1e-5,
                at(h / 2.0),
                Limits::cap(cap),
            );
            assert!(
                matches!(half, Err(PrivacyError::GridTooFine(_))),
                "{q} {z} {t}: half of {h} fits"
            );
        }
        // replace-one: the pair's wider loss gets its own width.
        let (e, h) =
            subsampled_gaussian_pld_epsilon_replace_one_auto(0.5, 0.01, 1, 1e-5, cap).unwrap();
        assert!(h > 1e-4 && e.is_finite(), "{h} {e}");
        assert!(subsampled_gaussian_pld_epsilon_auto(0.5, 1.0, 1, 1e-5, cap - 1).is_err());
        assert!(subsampled_gaussian_pld_epsilon_auto(0.5, 1.0, 1, 1e-5, (1 << 24) + 1).is_err());
    }

    /// q = 0.5, z = 0.05, T = 10 (issue 30): at the default width the composed window needs
    /// 2.6e7 points (refused, naming the width); on the chosen grid (memory cap `2^22`) it
    /// answers. The answers are upper bounds: each above the optimistic estimate (an estimate
    /// from below) of a grid 16 times finer than the coarsest (cap `2^16`), and the coarser
    /// of two bounds above the finer (connect-the-dots' excess grows with the width).
    #[test]
    fn a_huge_span_answers_on_a_chosen_grid_and_stays_above() {
        let (q, z, t, d) = (0.5, 0.05, 10, 1e-5);
        let refused = subsampled_gaussian_pld_epsilon(q, z, t, d, PldSettings::default());
        let Err(PrivacyError::GridTooFine(m)) = refused else {
            panic!("{refused:?}");
        };
        assert!(m.contains("PldSettings::bin_width"), "{m}");
        let auto = subsampled_gaussian_pld_epsilon_auto(q, z, t, d, AUTO_GRID_POINTS).unwrap();
        assert!(
            auto.bin_width > 1e-4 && auto.bin_width < 1e-3,
            "{}",
            auto.bin_width
        );
        let coarsest = subsampled_gaussian_pld_epsilon_auto(q, z, t, d, MIN_GRID_POINTS).unwrap();
        let settings = PldSettings {
            bin_width: coarsest.bin_width / 16.0,
            ..PldSettings::default()
        };
        let finer = subsampled_gaussian_pld_epsilon(q, z, t, d, settings).unwrap();
        for bound in [auto, coarsest] {
            assert!(
                bound.epsilon >= finer.epsilon_optimistic,
                "{bound:?} below {finer:?}"
            );
        }
        assert!(
            coarsest.epsilon >= finer.epsilon,
            "{coarsest:?} below {finer:?}"
        );
        assert!(finer.epsilon >= auto.epsilon, "{finer:?} below {auto:?}");
    }
}
