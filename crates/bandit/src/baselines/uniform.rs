//! The uniform random policy.

use ndarray::ArrayView2;
use rand::{Rng, RngExt};

use crate::agent::Agent;
use crate::error::BanditError;
use crate::policy::validate_decision_set;

/// Picks a row of the decision set uniformly at random (`random_range(0..n)`), ignoring all
/// feedback (its message is the raw reward, which it ignores).
///
/// Stateless: having nothing to attach a message to, it accepts `observe` at any time (it
/// keeps no [`crate::policy::Pending`] guard; the runner calls `select` and `observe` in
/// turn anyway).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct UniformRandom;

impl Agent for UniformRandom {
    type Message = f64;
    type Error = BanditError;

    fn select<R: Rng + ?Sized>(
        &mut self,
        decision_set: ArrayView2<'_, f64>,
        rng: &mut R,
    ) -> Result<usize, BanditError> {
        validate_decision_set(decision_set)?;
        Ok(rng.random_range(0..decision_set.nrows()))
    }

    fn observe(&mut self, _message: f64) -> Result<(), BanditError> {
        Ok(())
    }
}
