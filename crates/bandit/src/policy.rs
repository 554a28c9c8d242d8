//! Learner plumbing shared by every agent: the argmax with its one tie rule, decision-set
//! validation, and the select/observe protocol guard.
//!
//! # The tie rule
//!
//! [`argmax`] and [`ucb_argmax`] return an index of the largest score, chosen **uniformly at
//! random among the scores that are bit-for-bit equal to the maximum**, by reservoir sampling
//! (Vitter 1985, Algorithm R with a reservoir of one): scanning left to right, the `k`-th score
//! equal to the running maximum replaces the current choice with probability `1/k`
//! (`rng.random_range(0..k) == 0`), and a strictly larger score resets the count to 1. So each
//! of the `m` tied maxima is returned with probability `1/m`. Exact equality on purpose: scores
//! that differ in their last bit are ordered as computed, and the rng is drawn from only when a
//! tie occurs (one `random_range(0..k)` per score equal to the running maximum after the first),
//! so an argmax without ties consumes no randomness.
//!
//! Why not the first index: under a GP prior every candidate has the same upper confidence
//! bound `mu_0 + beta sigma_0` (a stationary kernel), so a first-index rule plays row 0 in the
//! first round of every trial, biasing it towards whatever the environment lists first.
//!
//! A non-finite score is an error ([`InputError::NonFinite`]), never silently skipped.
//!
//! [`validate_decision_set`] checks a decision set (non-empty, finite), [`FixedArms`] the
//! fixed arm set of an algorithm that runs on one, [`finite_message`] what an agent observes.
//!
//! # The protocol guard
//!
//! [`Pending`] holds what `select` stored for `observe` (the chosen arm or point):
//! `observe` before `select` is [`BanditError::ObserveBeforeSelect`], and for algorithms that
//! play a committed action until its message arrives ([`Reselect::Forbid`]) a second `select`
//! is [`BanditError::SelectTwice`].
//!
//! # Example
//!
//! ```
//! use bandit::policy::{Pending, Reselect, ucb_argmax};
//! use ndarray::array;
//! use rand::SeedableRng;
//!
//! let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(1);
//! // mean + 2 sqrt(variance) = [1, 3, 2]: row 1.
//! let a = ucb_argmax(array![1.0, 1.0, 0.0].view(), array![0.0, 1.0, 1.0].view(), 2.0, &mut rng)?;
//! assert_eq!(a, 1);
//! let mut pending = Pending::new(Reselect::Forbid);
//! assert!(pending.take().is_err()); // observe before select
//! pending.store(a)?;
//! assert!(pending.store(a).is_err()); // select twice
//! assert_eq!(pending.take()?, 1);
//! # Ok::<(), bandit::BanditError>(())
//! ```

use ndarray::{Array2, ArrayView1, ArrayView2};
use rand::{Rng, RngExt};

use crate::error::{BanditError, InputError};
use validation::{ensure_finite, finite};

/// The index of a largest entry of `scores`, uniform among bit-equal maxima (module docs).
///
/// Errors: [`InputError::Empty`] for no scores, [`InputError::NonFinite`] (with the index
/// of the first one) for a NaN or infinite score.
pub fn argmax<R: Rng + ?Sized>(
    scores: ArrayView1<'_, f64>,
    rng: &mut R,
) -> Result<usize, BanditError> {
    argmax_of("score", scores.iter().copied(), rng)
}

/// `argmax_i mean_i + width sqrt(max(variance_i, 0))`, the upper-confidence-bound choice of
/// GP-UCB (Srinivas et al. 2010) and of the UCB algorithms of the paper crates, with the tie
/// rule of the module docs (every arm ties under a stationary prior). A variance that rounding
/// made slightly negative counts as 0.
///
/// Errors: [`InputError::DimensionMismatch`] when `mean` and `variance` differ in length,
/// [`InputError::Empty`] for no arms, [`InputError::NonFinite`] for a non-finite bound.
pub fn ucb_argmax<R: Rng + ?Sized>(
    mean: ArrayView1<'_, f64>,
    variance: ArrayView1<'_, f64>,
    width: f64,
    rng: &mut R,
) -> Result<usize, BanditError> {
    if mean.len() != variance.len() {
        return Err(BanditError::Input(InputError::DimensionMismatch {
            context: "posterior variances (one per posterior mean)",
            expected: mean.len(),
            got: variance.len(),
        }));
    }
    let scores = mean
        .iter()
        .zip(variance.iter())
        .map(|(m, v)| m + width * v.max(0.0).sqrt());
    argmax_of("upper confidence bound", scores, rng)
}

/// The scan behind [`argmax`] and [`ucb_argmax`]: reservoir sampling over the running maxima.
fn argmax_of<R: Rng + ?Sized>(
    what: &'static str,
    scores: impl Iterator<Item = f64>,
    rng: &mut R,
) -> Result<usize, BanditError> {
    let mut best = f64::NEG_INFINITY;
    let mut ties = 0usize;
    let mut choice = None;
    for (index, value) in scores.enumerate() {
        if !value.is_finite() {
            return Err(BanditError::Input(InputError::NonFinite {
                what,
                index: Some(index),
                value,
            }));
        }
        if value > best {
            best = value;
            choice = Some(index);
            ties = 1;
        } else if is_tie(value, best) {
            // Reservoir sampling over the tied maxima: each is kept with probability 1/ties.
            ties += 1;
            if rng.random_range(0..ties) == 0 {
                choice = Some(index);
            }
        }
    }
    choice.ok_or(BanditError::Input(InputError::Empty { what }))
}

/// Exact equality on purpose: only bit-equal scores (such as the prior's in the first round)
/// are ties; near-equal scores are ordered as computed.
#[allow(clippy::float_cmp)]
fn is_tie(a: f64, b: f64) -> bool {
    a == b
}

/// Check a decision set offered to an agent: at least one row (candidate) and one column
/// (dimension), every coordinate finite.
///
/// Errors: [`InputError::Empty`], [`InputError::NonFinite`] (flat row-major index).
pub fn validate_decision_set(decision_set: ArrayView2<'_, f64>) -> Result<(), BanditError> {
    if decision_set.nrows() == 0 || decision_set.ncols() == 0 {
        return Err(BanditError::Input(InputError::Empty {
            what: "decision set",
        }));
    }
    Ok(ensure_finite("decision set", decision_set.iter())?)
}

/// `Ok(value)` for a finite message value (a reward, raw or privatised), else
/// [`InputError::NonFinite`]: an agent checks what it observes before it enters any
/// statistic (a NaN would otherwise pass through truncation `y 1{|y| <= b}` as 0, or poison a
/// posterior).
pub fn finite_message(value: f64) -> Result<f64, BanditError> {
    Ok(finite("message value", value)?)
}

/// The fixed finite arm set `D` of an algorithm that runs on one (Zhou & Tan 2021 run all
/// three of theirs on a fixed `D`): validated once, then every decision set offered must be
/// exactly it (compared entry by entry with `==`).
#[derive(Debug, Clone, PartialEq)]
pub struct FixedArms {
    arms: Array2<f64>,
}

impl FixedArms {
    /// Validate (as [`validate_decision_set`]) and keep a copy of `arms`, one arm per row.
    pub fn new(arms: ArrayView2<'_, f64>) -> Result<Self, BanditError> {
        validate_decision_set(arms)?;
        Ok(Self {
            arms: arms.to_owned(),
        })
    }

    /// The arms, `n x d`.
    pub fn arms(&self) -> ArrayView2<'_, f64> {
        self.arms.view()
    }

    /// Number of arms `n`.
    pub fn len(&self) -> usize {
        self.arms.nrows()
    }

    /// Always `false` (a validated arm set has at least one arm); for API symmetry with
    /// [`FixedArms::len`].
    pub fn is_empty(&self) -> bool {
        self.arms.nrows() == 0
    }

    /// Check that `decision_set` is this arm set, entry for entry (the runner hands the same
    /// array each round).
    ///
    /// Errors: [`InputError::DimensionMismatch`] for another shape,
    /// [`BanditError::DecisionSetChanged`] (first differing row and column) for other values.
    pub fn check(&self, decision_set: ArrayView2<'_, f64>) -> Result<(), BanditError> {
        if decision_set.nrows() != self.arms.nrows() {
            return Err(BanditError::Input(InputError::DimensionMismatch {
                context: "decision set rows (the learner's fixed arm set)",
                expected: self.arms.nrows(),
                got: decision_set.nrows(),
            }));
        }
        if decision_set.ncols() != self.arms.ncols() {
            return Err(BanditError::Input(InputError::DimensionMismatch {
                context: "decision set columns (the learner's fixed arm set)",
                expected: self.arms.ncols(),
                got: decision_set.ncols(),
            }));
        }
        if decision_set == self.arms.view() {
            return Ok(());
        }
        let (row, col) = decision_set
            .indexed_iter()
            .find(|&((i, j), v)| !is_tie(*v, self.arms[[i, j]]))
            .map_or((0, 0), |(ij, _)| ij);
        Err(BanditError::DecisionSetChanged { row, col })
    }
}

/// Whether an agent may `select` again before the message about its previous action arrived.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reselect {
    /// The later selection replaces the earlier one (the message that follows belongs to the
    /// last action selected). GP-UCB, GP-TS, TGP-UCB and ATA-GP-UCB.
    Replace,
    /// A second selection is [`BanditError::SelectTwice`]: for algorithms that commit to an
    /// action for several rounds and count the messages of each (MoMA-GP-UCB's epochs).
    Forbid,
}

/// The select/observe protocol guard: what `select` stored for `observe` (the arm played, the
/// point to add to the posterior, ...).
///
/// `select` calls [`Pending::store`] with its choice (after [`Pending::check_select`] when it
/// must refuse before changing any state), `observe` calls [`Pending::take`] to get it back.
#[derive(Debug, Clone, PartialEq)]
pub struct Pending<T> {
    slot: Option<T>,
    reselect: Reselect,
}

impl<T> Pending<T> {
    /// An empty guard with the given rule for a second `select`.
    pub const fn new(reselect: Reselect) -> Self {
        Self {
            slot: None,
            reselect,
        }
    }

    /// `Err(`[`BanditError::SelectTwice`]`)` when the rule is [`Reselect::Forbid`] and a
    /// choice awaits its message: call at the start of `select`, before any state changes.
    pub fn check_select(&self) -> Result<(), BanditError> {
        match (self.reselect, &self.slot) {
            (Reselect::Forbid, Some(_)) => Err(BanditError::SelectTwice),
            _ => Ok(()),
        }
    }

    /// Record the choice of `select` ([`Pending::check_select`] first; under
    /// [`Reselect::Replace`] an earlier choice is dropped).
    pub fn store(&mut self, choice: T) -> Result<(), BanditError> {
        self.check_select()?;
        self.slot = Some(choice);
        Ok(())
    }

    /// The choice the coming message is about, for `observe`; the guard is empty afterwards.
    /// `Err(`[`BanditError::ObserveBeforeSelect`]`)` when nothing was selected since the last
    /// `observe`.
    pub fn take(&mut self) -> Result<T, BanditError> {
        self.slot.take().ok_or(BanditError::ObserveBeforeSelect)
    }

    /// The choice awaiting its message, if any.
    pub fn get(&self) -> Option<&T> {
        self.slot.as_ref()
    }

    /// Whether a choice awaits its message.
    pub fn is_pending(&self) -> bool {
        self.slot.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;
    use rand::SeedableRng;
    use rand_chacha::ChaCha20Rng;

    #[test]
    fn argmax_without_ties_draws_nothing() {
        let mut rng = ChaCha20Rng::seed_from_u64(3);
        let before = rng.clone();
        assert_eq!(
            argmax(array![0.0, 2.0, -1.0, 1.5].view(), &mut rng).unwrap(),
            1
        );
        assert_eq!(rng, before);
        assert_eq!(argmax(array![-3.0].view(), &mut rng).unwrap(), 0);
    }

    #[test]
    fn errors_are_typed() {
        let mut rng = ChaCha20Rng::seed_from_u64(3);
        assert!(matches!(
            argmax(ArrayView1::from(&[] as &[f64]), &mut rng),
            Err(BanditError::Input(InputError::Empty { .. }))
        ));
        assert!(matches!(
            argmax(array![0.0, f64::NAN, 1.0].view(), &mut rng),
            Err(BanditError::Input(InputError::NonFinite {
                index: Some(1),
                ..
            }))
        ));
        assert!(matches!(
            argmax(array![f64::NEG_INFINITY].view(), &mut rng),
            Err(BanditError::Input(InputError::NonFinite {
                index: Some(0),
                ..
            }))
        ));
        assert!(matches!(
            ucb_argmax(array![0.0].view(), array![0.0, 1.0].view(), 1.0, &mut rng),
            Err(BanditError::Input(InputError::DimensionMismatch { .. }))
        ));
        assert!(matches!(
            ucb_argmax(
                array![0.0].view(),
                array![1.0].view(),
                f64::INFINITY,
                &mut rng
            ),
            Err(BanditError::Input(InputError::NonFinite { .. }))
        ));
    }

    #[test]
    fn fixed_arms_check_shape_and_values() {
        let arms = FixedArms::new(array![[0.0, 1.0], [2.0, 3.0]].view()).unwrap();
        assert_eq!(arms.len(), 2);
        assert!(!arms.is_empty());
        arms.check(array![[0.0, 1.0], [2.0, 3.0]].view()).unwrap();
        assert!(matches!(
            arms.check(array![[0.0, 1.0]].view()),
            Err(BanditError::Input(InputError::DimensionMismatch {
                expected: 2,
                got: 1,
                ..
            }))
        ));
        assert!(matches!(
            arms.check(array![[0.0], [2.0]].view()),
            Err(BanditError::Input(InputError::DimensionMismatch {
                expected: 2,
                got: 1,
                ..
            }))
        ));
        assert!(matches!(
            arms.check(array![[0.0, 1.0], [2.0, 3.5]].view()),
            Err(BanditError::DecisionSetChanged { row: 1, col: 1 })
        ));
        assert!(matches!(
            FixedArms::new(Array2::<f64>::zeros((0, 1)).view()),
            Err(BanditError::Input(InputError::Empty { .. }))
        ));
        assert!(matches!(
            FixedArms::new(Array2::<f64>::zeros((3, 0)).view()),
            Err(BanditError::Input(InputError::Empty { .. }))
        ));
        assert!(matches!(
            FixedArms::new(array![[0.0], [f64::NAN]].view()),
            Err(BanditError::Input(InputError::NonFinite {
                index: Some(1),
                ..
            }))
        ));
    }

    #[test]
    fn pending_guards_the_protocol() {
        let mut replace = Pending::new(Reselect::Replace);
        assert!(matches!(
            replace.take(),
            Err(BanditError::ObserveBeforeSelect)
        ));
        replace.store(1).unwrap();
        replace.store(2).unwrap();
        assert_eq!(replace.get(), Some(&2));
        assert_eq!(replace.take().unwrap(), 2);
        assert!(!replace.is_pending());
        assert!(matches!(
            replace.take(),
            Err(BanditError::ObserveBeforeSelect)
        ));

        let mut forbid = Pending::new(Reselect::Forbid);
        forbid.check_select().unwrap();
        forbid.store(4).unwrap();
        assert!(matches!(
            forbid.check_select(),
            Err(BanditError::SelectTwice)
        ));
        assert!(matches!(forbid.store(5), Err(BanditError::SelectTwice)));
        assert_eq!(forbid.take().unwrap(), 4);
        forbid.store(5).unwrap();
        assert_eq!(forbid.take().unwrap(), 5);
    }
}
