//! Objectives `f: X -> R`: RKHS functions, GP samples, the Mutny & Krause benchmark functions
//! and Dubey's synthetic, and [`Normalised`] (an objective mapped onto `[-1, 1]`).

mod benchmarks;
mod dubey;
mod gp_sample;
mod normalised;
mod rkhs;

pub use benchmarks::{Camelback, Michalewicz, StyblinskiTang};
pub use dubey::{BALL_RADIUS, DubeyEnvironment, DubeyObjective};
pub use gp_sample::{GpSample, HeterogeneousAgents, PerturbedCopies};
pub use normalised::Normalised;
pub use rkhs::{CentreSampling, RkhsEnvironment, RkhsFunction, RkhsKernel, RkhsSynthetic};

use ndarray::{Array1, Array2, ArrayView1, ArrayView2};
use serde::{Deserialize, Serialize};

use crate::error::{BanditError, InputError};
use validation::ensure_finite;

/// The global maximum of an objective on its domain, where it is known.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Maximum {
    /// `max_x f(x)`.
    pub value: f64,
    /// The maximisers, one per row.
    pub maximisers: Array2<f64>,
}

/// An objective function on `R^d`.
pub trait Objective: Send + Sync + std::fmt::Debug {
    /// The input dimension `d`.
    fn dim(&self) -> usize;

    /// `f(x)` without validation (the caller has checked dimension and finiteness).
    fn value_unchecked(&self, x: ArrayView1<'_, f64>) -> f64;

    /// The global maximum on the objective's documented domain, when known.
    fn maximum(&self) -> Option<Maximum> {
        None
    }

    /// `f(x)`, validated (finite, of dimension [`Objective::dim`]).
    fn value(&self, x: ArrayView1<'_, f64>) -> Result<f64, BanditError> {
        if x.len() != self.dim() {
            return Err(BanditError::Input(InputError::DimensionMismatch {
                context: "objective input",
                expected: self.dim(),
                got: x.len(),
            }));
        }
        ensure_finite("objective input", x.iter())?;
        Ok(self.value_unchecked(x))
    }

    /// `f` at every row of `xs`, validated.
    fn values(&self, xs: ArrayView2<'_, f64>) -> Result<Array1<f64>, BanditError> {
        if xs.ncols() != self.dim() {
            return Err(BanditError::Input(InputError::DimensionMismatch {
                context: "objective inputs (columns)",
                expected: self.dim(),
                got: xs.ncols(),
            }));
        }
        ensure_finite("objective inputs", xs.iter())?;
        Ok(xs
            .rows()
            .into_iter()
            .map(|x| self.value_unchecked(x))
            .collect())
    }
}

/// The shape check of a weighted sum of kernel bumps `sum_i w_i k(x_i, x)` (an RKHS function,
/// Dubey's objective): at least one centre in a non-empty dimension, and one weight per centre.
/// `centres_what` and `weights_what` name them in the errors.
fn check_centres_and_weights(
    centres: &Array2<f64>,
    weights: &Array1<f64>,
    centres_what: &'static str,
    weights_what: &'static str,
) -> Result<(), BanditError> {
    if centres.nrows() == 0 || centres.ncols() == 0 {
        return Err(BanditError::Input(InputError::Empty { what: centres_what }));
    }
    if weights.len() != centres.nrows() {
        return Err(BanditError::Input(InputError::DimensionMismatch {
            context: weights_what,
            expected: centres.nrows(),
            got: weights.len(),
        }));
    }
    Ok(())
}
