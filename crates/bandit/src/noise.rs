//! Reward models: additive noise (Gaussian, uniform on `[-R, R]`, Student-t, centred Pareto),
//! Bernoulli rewards and rewards read from the rows of a data set.

use ndarray::Array2;
use rand::{Rng, RngExt};
use rand_distr::{Distribution, Pareto, StandardNormal, StudentT};
use serde::{Deserialize, Serialize};

use crate::error::{BanditError, InputError};
use validation::{Interval, ensure_finite, in_range, non_negative, positive};

/// How a reward is drawn given the mean `f(x)` of the chosen action.
///
/// Build it with the validated constructors; environments call [`RewardModel::validate`] once
/// more when they are built, so a hand-written variant with bad parameters is still rejected.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub enum RewardModel {
    /// `y = f(x) + sigma Z`, `Z ~ N(0, 1)`; sigma-sub-Gaussian.
    Gaussian {
        /// Standard deviation `sigma >= 0`.
        sigma: f64,
    },
    /// `y = f(x) + eta`, `eta ~ U[-R, R]` (Zhou & Tan's LDP synthetic uses `R = 1`);
    /// R-sub-Gaussian and bounded by `R`.
    Uniform {
        /// Half-width `R >= 0`.
        half_width: f64,
    },
    /// `y = f(x) + scale T`, `T ~ Student-t(nu)` (Zhou & Tan's heavy-tailed synthetic:
    /// `nu = 3`, scale 1). Finite moments of order `< nu` only.
    StudentT {
        /// Degrees of freedom `nu > 0`.
        nu: f64,
        /// Scale `> 0`.
        scale: f64,
    },
    /// `y = f(x) + (X - E X)`, `X ~ Pareto(scale x_m, shape a)` with `a > 1`, so that
    /// `E X = a x_m / (a - 1)` exists and the noise has mean zero. Moments of order `< a`
    /// exist: `a in (1, 2]` gives infinite variance (the heavy-tailed regime of Chowdhury &
    /// Gopalan 2019 with `1 + alpha < a`).
    Pareto {
        /// Scale `x_m > 0`.
        scale: f64,
        /// Shape `a > 1`.
        shape: f64,
    },
    /// `y ~ Bernoulli(f(x))`; needs `f(x) in [0, 1]` (an error otherwise). 1/2-sub-Gaussian.
    Bernoulli,
    /// `y = rows[r, arm]` with `r` uniform over the rows of a table (the data-set problems:
    /// a reading of sensor `arm` at a uniformly drawn test time). The mean of arm `i` is the
    /// column mean, which the data-set loaders use as `f_i`; the action must be an arm index.
    Rows(RowRewards),
}

/// A table of rewards, `rows x arms`, read by [`RewardModel::Rows`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RowRewards {
    table: Array2<f64>,
}

impl RowRewards {
    /// Validate a non-empty, finite table.
    pub fn new(table: Array2<f64>) -> Result<Self, BanditError> {
        if table.nrows() == 0 || table.ncols() == 0 {
            return Err(BanditError::Input(InputError::Empty {
                what: "reward table",
            }));
        }
        ensure_finite("reward table", table.iter())?;
        Ok(Self { table })
    }

    /// The table (`rows x arms`).
    pub fn table(&self) -> &Array2<f64> {
        &self.table
    }

    /// Column means: the expected reward of every arm.
    pub fn column_means(&self) -> ndarray::Array1<f64> {
        self.table
            .mean_axis(ndarray::Axis(0))
            .expect("non-empty table")
    }
}

impl RewardModel {
    /// Gaussian noise with standard deviation `sigma >= 0`.
    pub fn gaussian(sigma: f64) -> Result<Self, BanditError> {
        Ok(Self::Gaussian {
            sigma: non_negative("Gaussian noise standard deviation sigma", sigma)?,
        })
    }

    /// Uniform noise on `[-R, R]`, `R >= 0`.
    pub fn uniform(half_width: f64) -> Result<Self, BanditError> {
        Ok(Self::Uniform {
            half_width: non_negative("uniform noise half-width R", half_width)?,
        })
    }

    /// Student-t noise with `nu > 0` degrees of freedom and the given scale `> 0`.
    pub fn student_t(nu: f64, scale: f64) -> Result<Self, BanditError> {
        Ok(Self::StudentT {
            nu: positive("Student-t degrees of freedom nu", nu)?,
            scale: positive("Student-t scale", scale)?,
        })
    }

    /// Centred Pareto noise with scale `x_m > 0` and shape `a > 1`.
    pub fn pareto(scale: f64, shape: f64) -> Result<Self, BanditError> {
        positive("Pareto scale x_m", scale)?;
        // a > 1 so that the noise has a finite mean and can be centred.
        in_range("Pareto shape a", shape, Interval::above(1.0))?;
        Ok(Self::Pareto { scale, shape })
    }

    /// Rewards read from the rows of a table.
    pub fn rows(table: Array2<f64>) -> Result<Self, BanditError> {
        Ok(Self::Rows(RowRewards::new(table)?))
    }

    /// Check the parameters (the same rules as the constructors).
    pub fn validate(&self) -> Result<(), BanditError> {
        match self {
            Self::Gaussian { sigma } => Self::gaussian(*sigma).map(|_| ()),
            Self::Uniform { half_width } => Self::uniform(*half_width).map(|_| ()),
            Self::StudentT { nu, scale } => Self::student_t(*nu, *scale).map(|_| ()),
            Self::Pareto { scale, shape } => Self::pareto(*scale, *shape).map(|_| ()),
            Self::Bernoulli => Ok(()),
            Self::Rows(r) => RowRewards::new(r.table.clone()).map(|_| ()),
        }
    }

    /// The sub-Gaussian parameter `R` of the noise `y - f(x)` when it is sub-Gaussian
    /// (Gaussian: `sigma`; uniform on `[-R, R]`: `R` (Hoeffding); Bernoulli: `1/2`), `None`
    /// for the heavy-tailed models and data rows.
    pub fn sub_gaussian_parameter(&self) -> Option<f64> {
        match self {
            Self::Gaussian { sigma } => Some(*sigma),
            Self::Uniform { half_width } => Some(*half_width),
            Self::Bernoulli => Some(0.5),
            _ => None,
        }
    }

    /// Draw a reward for an action whose mean is `mean`; `arm` is the action's index in the
    /// environment's arm list (used by [`RewardModel::Rows`] only).
    pub fn sample<R: Rng + ?Sized>(
        &self,
        mean: f64,
        arm: usize,
        rng: &mut R,
    ) -> Result<f64, BanditError> {
        let y = match self {
            Self::Gaussian { sigma } => {
                let z: f64 = StandardNormal.sample(rng);
                mean + sigma * z
            }
            Self::Uniform { half_width } => {
                let u: f64 = rng.random();
                mean + half_width * (2.0 * u - 1.0)
            }
            Self::StudentT { nu, scale } => {
                let t = StudentT::new(*nu).map_err(|_| InputError::NotPositive {
                    what: "Student-t degrees of freedom nu",
                    value: *nu,
                })?;
                mean + scale * t.sample(rng)
            }
            Self::Pareto { scale, shape } => {
                let p = Pareto::new(*scale, *shape).map_err(|_| InputError::OutOfRange {
                    what: "Pareto shape a",
                    value: *shape,
                    range: Interval::above(1.0),
                })?;
                let x: f64 = p.sample(rng);
                mean + (x - shape * scale / (shape - 1.0))
            }
            Self::Bernoulli => {
                in_range("Bernoulli reward mean f(x)", mean, Interval::UNIT)?;
                if rng.random_bool(mean) { 1.0 } else { 0.0 }
            }
            Self::Rows(r) => {
                if arm >= r.table.ncols() {
                    return Err(BanditError::Input(InputError::DimensionMismatch {
                        context: "reward table column (arm index)",
                        expected: r.table.ncols(),
                        got: arm,
                    }));
                }
                let row = rng.random_range(0..r.table.nrows());
                r.table[[row, arm]]
            }
        };
        Ok(y)
    }
}
