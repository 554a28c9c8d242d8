//! The problems of Section 5: the RKHS synthetic functions (a new one per trial) and the two
//! data sets, with where a data-set panel's `B` and `R` come from.

use std::path::Path;
use std::sync::Arc;

use bandit::dataset::{self, DataSetProblem, HeldOutBounds};
use bandit::env::{Annotated, FixedSetEnvironment};
use bandit::noise::RewardModel;
use bandit::objective::RkhsSynthetic;
use kernel::Kernel;
use ndarray::Array2;

use serde::{Deserialize, Serialize};

use crate::error::{InputError, LdpBoError};

/// The problems of Section 5.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Problem {
    /// 100 arms on [0, 1], `f = sum_i a_i k(., x_i)`, `p = 100`, SE `l = 0.2`, `max |f| = 1`.
    SyntheticSe,
    /// The same with Matérn 5/2, `l = 0.2`.
    SyntheticMatern,
    /// The 41 light sensors (`../shared/data`).
    LightSensor,
    /// The 29 stocks (`../shared/data`).
    Stocks,
    /// The 29 stocks on the days from [`bandit::dataset::STOCKS_SPLIT`] on (2016 held out).
    StocksFrom2017,
}

impl Problem {
    /// Whether the problem is drawn anew in each trial (the synthetic functions).
    pub fn is_synthetic(self) -> bool {
        matches!(self, Self::SyntheticSe | Self::SyntheticMatern)
    }

    /// A short name for files and tables.
    pub fn name(self) -> &'static str {
        match self {
            Self::SyntheticSe => "synthetic-se",
            Self::SyntheticMatern => "synthetic-matern52",
            Self::LightSensor => "light-sensor",
            Self::Stocks => "stocks",
            Self::StocksFrom2017 => "stocks-from-2017",
        }
    }
}

/// Private (CTL(eps) in the loop) or non-private (raw heavy-tailed rewards).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum Setting {
    /// eps-LDP through the CTL(eps) curator.
    Ldp {
        /// eps.
        epsilon: f64,
    },
    /// Non-private: the learner sees raw rewards (Student-t(3) noise on the synthetic
    /// problems, data rows on the data sets).
    NonPrivate,
}

/// Where a data-set panel's `B` and `R` (the curator's clip `B + R`, and the learner's
/// schedule) come from. The synthetic panels know theirs (`B = max |f|`, `R = 1`) either way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Bounds {
    /// The paper's rule (Section 5.1): from the rewards being privatised, `B = max f`, `R` =
    /// the largest deviation of a reading from its column mean.
    FromRewards,
    /// Fixed in advance from rows the private run does not draw
    /// ([`bandit::dataset::HeldOutBounds`]): the light sensors' train rows, the stocks' 2016.
    HeldOut,
}

/// One trial's problem: the environment, annotated with what the learners are told.
pub type Instance = Annotated<FixedSetEnvironment, InstanceInfo>;

/// What the learners are told about a problem.
#[derive(Debug, Clone)]
pub struct InstanceInfo {
    /// The kernel the learners use.
    pub kernel: Arc<dyn Kernel>,
    /// The arms, one per row.
    pub arms: Array2<f64>,
    /// `B` (the paper sets `B = max |f|`).
    pub b: f64,
    /// `R`: the noise bound of the LDP setting (uniform `[-1, 1]`: 1; data sets: the largest
    /// deviation of a reading from its column mean, over the rewards or, with
    /// [`Bounds::HeldOut`], over the held-out rows).
    pub r: f64,
    /// `v`: the second-moment bound of the raw reward (non-private ATA, TGP).
    pub v: f64,
    /// `c`: the second-moment bound of the raw noise (non-private MoMA).
    pub c: f64,
    /// `alpha` (1 in every experiment of the paper).
    pub alpha: f64,
}

/// Where instances come from: the synthetic generator or a loaded data set.
#[derive(Debug, Clone)]
pub enum Source {
    /// A synthetic generator (a new function per trial).
    Synthetic(RkhsSynthetic),
    /// A data set (the same problem in every trial), with `B` and `R` from held-out rows when
    /// [`Bounds::HeldOut`] chose them (else the problem's own, the paper's rule).
    DataSet(Box<DataSetProblem>, Option<HeldOutBounds>),
}

impl Source {
    /// The source of a problem with the paper's bounds; data sets are read from `data_dir`.
    pub fn load(problem: Problem, data_dir: &Path) -> Result<Self, LdpBoError> {
        Self::load_with(problem, Bounds::FromRewards, data_dir)
    }

    /// The source of a problem with `B` and `R` from `bounds`.
    ///
    /// # Errors
    /// A data set that cannot be read; [`Bounds::HeldOut`] for the full stock table, which
    /// has no held-out rows (use [`Problem::StocksFrom2017`]).
    pub fn load_with(
        problem: Problem,
        bounds: Bounds,
        data_dir: &Path,
    ) -> Result<Self, LdpBoError> {
        let held_out = bounds == Bounds::HeldOut;
        Ok(match problem {
            Problem::SyntheticSe => Self::Synthetic(RkhsSynthetic::default()),
            Problem::SyntheticMatern => Self::Synthetic(RkhsSynthetic::matern()),
            Problem::LightSensor if held_out => {
                let (p, b) = dataset::light_sensor_held_out(data_dir)?;
                Self::DataSet(Box::new(p), Some(b))
            }
            Problem::LightSensor => Self::DataSet(Box::new(dataset::light_sensor(data_dir)?), None),
            Problem::Stocks if held_out => {
                return Err(LdpBoError::Input(InputError::Unsatisfied {
                    what: "held-out bounds on the full stock table",
                    value: f64::NAN,
                    requirement: "no rows are held out; use the problem StocksFrom2017",
                }));
            }
            Problem::Stocks => Self::DataSet(Box::new(dataset::stocks(data_dir)?), None),
            Problem::StocksFrom2017 => {
                let (p, b) = dataset::stocks_held_out(data_dir)?;
                Self::DataSet(Box::new(p), held_out.then_some(b))
            }
        })
    }

    /// The instance of one trial (the synthetic generator uses `rng`).
    pub fn instance<R: rand::Rng + ?Sized>(
        &self,
        setting: Setting,
        rng: &mut R,
    ) -> Result<Instance, LdpBoError> {
        match self {
            Self::Synthetic(generator) => {
                let inst = generator.sample(rng)?;
                let b = inst.values.iter().fold(0.0f64, |m, v| m.max(v.abs()));
                // LDP: uniform noise on [-1, 1], R = 1. Non-private: Student-t(3), v = B^2 + 3,
                // c = 3 (Section 5.1).
                let reward = match setting {
                    Setting::Ldp { .. } => RewardModel::uniform(1.0)?,
                    Setting::NonPrivate => RewardModel::student_t(3.0, 1.0)?,
                };
                let arms = inst.domain.points().to_owned();
                Ok(Annotated {
                    env: inst.environment(reward)?,
                    info: InstanceInfo {
                        kernel: Arc::new(inst.function.kernel().clone()),
                        arms,
                        b,
                        r: 1.0,
                        v: b * b + 3.0,
                        c: 3.0,
                        alpha: 1.0,
                    },
                })
            }
            Self::DataSet(p, held_out) => Ok(Annotated {
                env: p.environment()?,
                info: InstanceInfo {
                    kernel: Arc::new(p.kernel()?),
                    arms: p.arm_points(),
                    b: held_out.map_or(p.b, |h| h.b),
                    r: held_out.map_or(p.r, |h| h.r),
                    v: p.v,
                    c: p.c,
                    alpha: 1.0,
                },
            }),
        }
    }
}
