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

use crate::error::PrivacyError;
use crate::params::{Delta, NoiseMultiplier, SamplingRate};
use validation::{InputError, Interval, at_least_one, in_range, positive};

/// Largest number of compositions the PLD accountant accepts.
pub const MAX_PLD_STEPS: u64 = 100_000;

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

impl PrivacyLossDistribution {
    fn of<L: LossLaw>(
        remove: &L,
        add: Option<&L>,
        settings: PldSettings,
        estimate: Estimate,
    ) -> Result<Self, PrivacyError> {
        let (h, tail) = settings.validated()?;
        Ok(Self {
            remove: loss::discretise(remove, h, tail, estimate)?,
            add: add
                .map(|l| loss::discretise(l, h, tail, estimate))
                .transpose()?,
            tail,
        })
    }

    fn subsampled_gaussian_estimate(
        q: f64,
        z: f64,
        settings: PldSettings,
        estimate: Estimate,
    ) -> Result<Self, PrivacyError> {
        let q = SamplingRate::new(q)?.get();
        let z = NoiseMultiplier::new(z)?.get();
        let remove = SubsampledGaussian::new(q, z, Orientation::Remove);
        // q = 1: the Gaussian mechanism, whose two orientations have the same law.
        let add = (q < 1.0).then(|| SubsampledGaussian::new(q, z, Orientation::Add));
        Self::of(&remove, add.as_ref(), settings, estimate)
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
    /// `q` outside (0, 1], `z` not positive and finite, bad settings, or a loss that needs more
    /// than 5e7 grid points.
    pub fn subsampled_gaussian(
        q: f64,
        z: f64,
        settings: PldSettings,
    ) -> Result<Self, PrivacyError> {
        Self::subsampled_gaussian_estimate(q, z, settings, Estimate::Upper)
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
    /// `steps` outside `1..=MAX_PLD_STEPS`, or a composed loss beyond the FFT's limit.
    pub fn self_compose(&self, steps: u64) -> Result<Self, PrivacyError> {
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
            remove: self.remove.self_compose(steps, self.tail)?,
            add: self
                .add
                .as_ref()
                .map(|a| a.self_compose(steps, self.tail))
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
}

/// The epsilon of `steps` rounds of the Poisson-subsampled Gaussian (sampling rate `q`, noise
/// multiplier `z`) at `delta`, by the connect-the-dots PLD, with the optimistic estimate beside
/// it.
///
/// # Errors
/// Bad parameters; [`PrivacyError::Unbounded`] when no finite epsilon can be stated at `delta`;
/// a calibration error when the grid would be too large.
pub fn subsampled_gaussian_pld_epsilon(
    q: f64,
    z: f64,
    steps: u64,
    delta: f64,
    settings: PldSettings,
) -> Result<PldEpsilon, PrivacyError> {
    Delta::positive(delta)?;
    let upper =
        PrivacyLossDistribution::subsampled_gaussian(q, z, settings)?.self_compose(steps)?;
    let (epsilon_remove, epsilon_add) = upper.epsilons(delta)?;
    let optimistic = PrivacyLossDistribution::subsampled_gaussian_estimate(
        q,
        z,
        settings,
        Estimate::Optimistic,
    )?
    .self_compose(steps)?;
    let (or, oa) = optimistic.epsilons(delta)?;
    Ok(PldEpsilon {
        epsilon: epsilon_remove.max(epsilon_add),
        epsilon_remove,
        epsilon_add,
        epsilon_optimistic: or.max(oa),
    })
}
