//! Calibration for a target: the smallest noise multiplier `z` whose epsilon, under a given
//! accountant, is at most a target (what Opacus' `get_noise_multiplier` and dp_accounting's
//! calibration helpers do).
//!
//! The accountant is any function `z -> epsilon(z)`; an accountant that can state no finite
//! epsilon ([`PrivacyError::Unbounded`]) counts as "above the target". The search brackets the
//! answer by doubling and halving from `z = 1`, bisects the bracket to the requested
//! resolution, and then *checks* the two facts it reports, whatever the accountant's shape:
//! `epsilon(z) <= target` and `epsilon(z - resolution) > target`. The RDP accountants are
//! non-increasing in `z` (each order's RDP is, and so are the minimum over orders and the
//! conversion), so for them the check only confirms the bisection. A discretised accountant
//! (the PLD) need not be exactly monotone; if the point one resolution below is within the
//! target too, the search steps down until it is not (at most [`MAX_STEPS_DOWN`] steps, then an
//! error), so both reported facts always hold.

use crate::error::PrivacyError;
use validation::{InputError, Interval, in_range, positive};

/// The search halves from `z = 1` no further than the first power of two at or below this
/// (`2^-20`); a target met there is reported as such.
pub const MIN_NOISE_MULTIPLIER: f64 = 1e-6;
/// The search doubles from `z = 1` no further than the first power of two at or above this
/// (`2^20`) before declaring the target unreachable.
pub const MAX_NOISE_MULTIPLIER: f64 = 1e6;
/// The finest resolution accepted: well above the spacing of floating-point numbers near
/// `2^20` (about `2.3e-10`), so that bisection and the step down always make progress.
pub const MIN_RESOLUTION: f64 = 1e-9;
/// How many steps of one resolution the final check may take down before it declares the
/// accountant not monotone near the answer.
pub const MAX_STEPS_DOWN: usize = 64;

/// The outcome of [`smallest_noise_multiplier`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Calibration {
    /// The noise multiplier `z`: `epsilon(z) <= target` (evaluated).
    pub noise_multiplier: f64,
    /// `epsilon(z)`.
    pub epsilon: f64,
    /// The resolution of the search: `epsilon(z - resolution) > target` (evaluated), unless
    /// `z - resolution < MIN_NOISE_MULTIPLIER`.
    pub resolution: f64,
    /// `epsilon(z - resolution)` (`+inf` when the accountant states no finite epsilon there),
    /// `None` when `z - resolution` is below [`MIN_NOISE_MULTIPLIER`].
    pub epsilon_below: Option<f64>,
    /// How many times the accountant was evaluated.
    pub evaluations: usize,
}

/// The smallest noise multiplier `z` (to `resolution`) with `epsilon(z) <= target`, for an
/// accountant `epsilon` (see the module documentation). `progress` is told each evaluation
/// (`z`, `epsilon(z)`), for accountants that take seconds.
///
/// Errors: a target or resolution that is not positive and finite; a target not reached at
/// [`MAX_NOISE_MULTIPLIER`] ([`PrivacyError::Calibration`]); any error of the accountant other
/// than [`PrivacyError::Unbounded`].
pub fn smallest_noise_multiplier(
    target: f64,
    resolution: f64,
    mut epsilon: impl FnMut(f64) -> Result<f64, PrivacyError>,
    mut progress: impl FnMut(f64, f64),
) -> Result<Calibration, PrivacyError> {
    let target = positive("target epsilon", target)?;
    let resolution = in_range(
        "calibration resolution",
        resolution,
        Interval::closed(MIN_RESOLUTION, 1.0),
    )?;
    let mut evaluations = 0usize;
    let mut eval = |z: f64| -> Result<f64, PrivacyError> {
        evaluations += 1;
        let e = match epsilon(z) {
            Ok(e) if e.is_nan() => {
                return Err(PrivacyError::Input(InputError::NonFinite {
                    what: "epsilon returned by the accountant",
                    index: None,
                    value: e,
                }));
            }
            Ok(e) => e,
            Err(PrivacyError::Unbounded(_)) => f64::INFINITY,
            Err(e) => return Err(e),
        };
        progress(z, e);
        Ok(e)
    };
    // Bracket: eps(lo) > target >= eps(hi).
    let mut hi = 1.0;
    let mut eps_hi = eval(hi)?;
    while eps_hi > target {
        if hi >= MAX_NOISE_MULTIPLIER {
            return Err(PrivacyError::Calibration(format!(
                "epsilon {eps_hi} > target {target} even at noise multiplier {hi:e}: the target \
                 is below what this accountant can state at this delta"
            )));
        }
        hi *= 2.0;
        eps_hi = eval(hi)?;
    }
    let mut lo = hi / 2.0;
    // After a doubling, hi / 2 was evaluated already and is above the target.
    let mut eps_lo = if hi > 1.0 { f64::INFINITY } else { eval(lo)? };
    while eps_lo <= target {
        if lo <= MIN_NOISE_MULTIPLIER {
            return Ok(Calibration {
                noise_multiplier: lo,
                epsilon: eps_lo,
                resolution,
                epsilon_below: None,
                evaluations,
            });
        }
        (hi, eps_hi) = (lo, eps_lo);
        lo /= 2.0;
        eps_lo = eval(lo)?;
    }
    // Bisect to the resolution.
    while hi - lo > resolution {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        let e = eval(mid)?;
        if e <= target {
            (hi, eps_hi) = (mid, e);
        } else {
            lo = mid;
        }
    }
    // Check the reported facts; step down while the point below also meets the target.
    for _ in 0..=MAX_STEPS_DOWN {
        let below = hi - resolution;
        if below < MIN_NOISE_MULTIPLIER {
            return Ok(Calibration {
                noise_multiplier: hi,
                epsilon: eps_hi,
                resolution,
                epsilon_below: None,
                evaluations,
            });
        }
        let e = eval(below)?;
        if e > target {
            return Ok(Calibration {
                noise_multiplier: hi,
                epsilon: eps_hi,
                resolution,
                epsilon_below: Some(e),
                evaluations,
            });
        }
        (hi, eps_hi) = (below, e);
    }
    Err(PrivacyError::Calibration(format!(
        "the accountant is not monotone near noise multiplier {hi}: epsilon stayed within the \
         target {target} for {MAX_STEPS_DOWN} steps of {resolution} below the bisection's answer"
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accountant::rdp::{RdpConversion, default_orders, subsampled_gaussian_epsilon};

    fn no_progress(_: f64, _: f64) {}

    #[test]
    fn inverse_law_by_hand() {
        // eps(z) = 2 / z: the smallest z with eps <= 0.5 is 4.
        let mut calls = 0usize;
        let c = smallest_noise_multiplier(
            0.5,
            1e-4,
            |z| {
                calls += 1;
                Ok(2.0 / z)
            },
            no_progress,
        )
        .unwrap();
        assert!(c.noise_multiplier >= 4.0 && c.noise_multiplier < 4.0 + 1e-4);
        assert!(c.epsilon <= 0.5);
        assert!(c.epsilon_below.unwrap() > 0.5);
        // The count it reports is the number of times it asked the accountant.
        assert_eq!(c.evaluations, calls);
        assert!(calls > 10, "{calls}");
    }

    /// The search's cost and its brackets, by hand. `eps(z) = 1000 / z`, target 1, resolution
    /// 1e-3: the bracket doubles from 1 to 1024 (11 evaluations; 512 is known to be above the
    /// target without a new evaluation), the bisection halves the width 512 down to 1e-3 (19
    /// evaluations: 512 / 2^19 < 1e-3 <= 512 / 2^18) and one check below: 31 in all, the answer
    /// within 1e-3 above 1000.
    #[test]
    fn the_search_doubles_then_bisects_with_the_evaluations_counted_by_hand() {
        let c = smallest_noise_multiplier(1.0, 1e-3, |z| Ok(1000.0 / z), no_progress).unwrap();
        assert!(c.noise_multiplier >= 1000.0 && c.noise_multiplier < 1000.0 + 1e-3);
        assert_eq!(c.evaluations, 31);
        // A target met exactly at z = 1: the answer is 1 itself.
        let c = smallest_noise_multiplier(2.0, 1e-3, |z| Ok(2.0 / z), no_progress).unwrap();
        assert_eq!(c.noise_multiplier.to_bits(), 1f64.to_bits());
        assert_eq!(c.epsilon.to_bits(), 2f64.to_bits());
        // A target met below z = 1/2 (eps = 0.1 / z, target 1: z = 0.1): the bracket is
        // searched downwards from 1, not assumed to start at 1/2.
        let c = smallest_noise_multiplier(1.0, 1e-3, |z| Ok(0.1 / z), no_progress).unwrap();
        assert!(c.noise_multiplier >= 0.1 && c.noise_multiplier < 0.1 + 1e-3);
        // Resolution 1/2, a power of two: the bisection stops when the width (512 / 2^k) is
        // at most 1/2, after 10 halvings (not 11): 11 + 10 + 1 = 22 evaluations.
        let c = smallest_noise_multiplier(1.0, 0.5, |z| Ok(1000.0 / z), no_progress).unwrap();
        assert!(c.noise_multiplier >= 1000.0 && c.noise_multiplier <= 1000.5);
        assert_eq!(c.evaluations, 22);
        // An answer within one resolution of the smallest noise multiplier (eps = 1.5e-6 / z,
        // target 1, resolution 1e-6: the search stops at 2^-19 = 1.9e-6, whose point below,
        // 9e-7, is under MIN_NOISE_MULTIPLIER): no point below is evaluated.
        let c = smallest_noise_multiplier(1.0, 1e-6, |z| Ok(1.5e-6 / z), no_progress).unwrap();
        assert_eq!(c.noise_multiplier.to_bits(), 2f64.powi(-19).to_bits());
        assert_eq!(c.epsilon_below, None);
        // A non-monotone accountant whose point below the bisection's answer meets the target
        // exactly (eps = 1 at z = 0.7, 5 around it): the search steps down to it, and the point
        // below that (0.4) is the one reported as above the target.
        let spike = |z: f64| {
            Ok(if z >= 1.0 || (0.69..0.71).contains(&z) {
                1.0
            } else {
                5.0
            })
        };
        let c = smallest_noise_multiplier(1.0, 0.3, spike, no_progress).unwrap();
        assert!(
            (c.noise_multiplier - 0.7).abs() < 1e-15,
            "{}",
            c.noise_multiplier
        );
        assert_eq!(c.epsilon_below, Some(5.0));
        // An accountant answering NaN is an error, not a number compared with the target.
        // (Without the check, NaN fails every comparison and the search ends in a different
        // error, "not monotone", after 64 steps down.)
        assert!(matches!(
            smallest_noise_multiplier(1.0, 1e-3, |_| Ok(f64::NAN), no_progress),
            Err(PrivacyError::Input(InputError::NonFinite { .. }))
        ));
    }

    #[test]
    fn rdp_calibration_meets_the_target_and_is_tight() {
        let eps = |z: f64| {
            subsampled_gaussian_epsilon(
                0.01,
                z,
                1000,
                1e-5,
                &default_orders(),
                RdpConversion::Improved,
            )
            .map(|(e, _)| e)
        };
        let c = smallest_noise_multiplier(1.0, 1e-3, eps, no_progress).unwrap();
        assert!(c.epsilon <= 1.0);
        assert!(eps(c.noise_multiplier).unwrap() <= 1.0);
        assert!(eps(c.noise_multiplier - 0.01).unwrap() > 1.0);
        assert!(c.epsilon_below.unwrap() > 1.0);
    }

    #[test]
    fn unbounded_counts_as_above_and_unreachable_is_an_error() {
        // Unbounded below z = 3, then eps = 1 / z.
        let f = |z: f64| {
            if z < 3.0 {
                Err(PrivacyError::Unbounded("test".into()))
            } else {
                Ok(1.0 / z)
            }
        };
        let c = smallest_noise_multiplier(0.5, 1e-3, f, no_progress).unwrap();
        assert!((c.noise_multiplier - 3.0).abs() <= 1e-3);
        assert_eq!(c.epsilon_below, Some(f64::INFINITY));
        assert!(matches!(
            smallest_noise_multiplier(0.5, 1e-3, |_| Ok(1.0), no_progress),
            Err(PrivacyError::Calibration(_))
        ));
        assert!(smallest_noise_multiplier(0.0, 1e-3, |_| Ok(1.0), no_progress).is_err());
        assert!(smallest_noise_multiplier(1.0, 0.0, |_| Ok(1.0), no_progress).is_err());
        // Finer than the float spacing near 2^20 would never finish: refused.
        assert!(smallest_noise_multiplier(0.5, 1e-17, |z| Ok(2.0 / z), no_progress).is_err());
        assert!(smallest_noise_multiplier(1.0, 1e-3, |_| Ok(f64::NAN), no_progress).is_err());
    }

    #[test]
    fn a_non_monotone_accountant_still_gets_both_facts_checked() {
        // Within the target on [2, 2.5) and from 3 on; above it elsewhere. Bisection from the
        // bracket [2, 4] lands near 3 or in [2, 2.5); the reported z must meet the target and
        // the point one resolution below must not.
        let f = |z: f64| {
            Ok(if (2.0..2.5).contains(&z) || z >= 3.0 {
                0.4
            } else {
                0.6
            })
        };
        let c = smallest_noise_multiplier(0.5, 1e-2, f, no_progress).unwrap();
        assert!(f(c.noise_multiplier).unwrap() <= 0.5);
        assert!(f(c.noise_multiplier - 1e-2).unwrap() > 0.5);
    }

    #[test]
    fn a_wide_non_monotone_band_is_an_error_not_a_long_walk() {
        // Within the target on [0.5, 1.5) except at [1, 1.0001); above below 0.5. The bisection
        // lands at 1.0001; the points below meet the target for hundreds of steps.
        let f = |z: f64| {
            Ok(if (1.0..1.0001).contains(&z) || z < 0.5 {
                0.6
            } else {
                0.4
            })
        };
        assert!(matches!(
            smallest_noise_multiplier(0.5, 1e-3, f, no_progress),
            Err(PrivacyError::Calibration(_))
        ));
    }

    #[test]
    fn a_target_met_at_the_smallest_noise_is_reported() {
        let c = smallest_noise_multiplier(10.0, 1e-3, |_| Ok(1.0), no_progress).unwrap();
        assert!(c.noise_multiplier <= MIN_NOISE_MULTIPLIER);
        assert_eq!(c.epsilon_below, None);
    }
}
