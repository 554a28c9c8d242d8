//! The experiments of Section 5 and Appendix E (Zhou & Tan 2021): the problems, the private
//! and non-private settings, and seeded batch runs of the six algorithms.
//!
//! | figure | setting | problem |
//! |---|---|---|
//! | 2(a) | LDP, eps = 1 | synthetic, Matérn 5/2 |
//! | 2(b) | LDP, eps = 0.5 | light sensors |
//! | 2(c) | LDP, eps = 1 | stocks |
//! | 2(d) | non-private, heavy-tailed | synthetic, SE |
//! | 2(e) | non-private | light sensors |
//! | 2(f) | non-private | stocks |
//! | 3(a) | LDP, eps = 1 | synthetic, SE |
//! | 3(b) | LDP, eps = 1 | light sensors |
//! | 3(c) | LDP, eps = 0.5 | stocks |
//!
//! Six more LDP panels (not in the paper) fix `B` and `R` in advance, as a deployment must
//! ([`Bounds::HeldOut`]): 2(b) and 3(b) with the light sensors' train rows, and 2(c) and 3(c) on
//! the stock days from 2017 with 2016 held out, beside the same later window with the paper's
//! rule.
//!
//! Synthetic problems draw a new function per trial (as the paper does, "a different f is
//! chosen for each trial"); the data-set problems are fixed and only the rewards are random.
//!
//! [`ZhouTan2021`] describes these panels to the paper-neutral
//! [`bandit::experiment::PaperExperiments`], which `cargo xtask reproduce ldp-bo` and
//! `cargo xtask bench ldp-bo` run.

use std::path::Path;
use std::sync::Arc;

use bandit::agent::{Agent, Curator, Identity};
use bandit::dataset::{self, DataSetProblem, HeldOutBounds};
use bandit::env::{Annotated, FixedSetEnvironment};
use bandit::experiment::{
    self, Budget, ExperimentError, Options, PaperExperiments, Parameters, TimingWorkload,
};
use bandit::noise::RewardModel;
use bandit::objective::RkhsSynthetic;
use bandit::runner::{BatchResult, RunConfig, run_trials};
use kernel::Kernel;
use ndarray::Array2;
use rand_chacha::ChaCha20Rng;
use serde::{Deserialize, Serialize};

use crate::ata::{AtaGpUcb, AtaParams};
use crate::curator::CtlCurator;
use crate::error::{InputError, LdpBoError};
use crate::moma::{MomaGpUcb, MomaParams};
use crate::preset::Preset;
use crate::tgp::{TgpParams, TgpUcb};

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

/// The three algorithms; the setting decides between the private and non-private version.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Algorithm {
    /// (LDP-)ATA-GP-UCB, Algorithm 1.
    Ata,
    /// (LDP-)TGP-UCB, Algorithm 2.
    Tgp,
    /// (LDP-)MoMA-GP-UCB, Algorithm 3.
    Moma,
}

impl Algorithm {
    /// All three, in the paper's order.
    pub const ALL: [Algorithm; 3] = [Self::Ata, Self::Tgp, Self::Moma];

    /// The paper's name in a setting.
    pub fn name(self, setting: Setting) -> &'static str {
        match (self, setting) {
            (Self::Ata, Setting::Ldp { .. }) => "LDP-ATA-GP-UCB",
            (Self::Tgp, Setting::Ldp { .. }) => "LDP-TGP-UCB",
            (Self::Moma, Setting::Ldp { .. }) => "LDP-MoMA-GP-UCB",
            (Self::Ata, Setting::NonPrivate) => "ATA-GP-UCB",
            (Self::Tgp, Setting::NonPrivate) => "TGP-UCB",
            (Self::Moma, Setting::NonPrivate) => "MoMA-GP-UCB",
        }
    }
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

/// What a panel of Figures 2 and 3 runs on: the problem, the setting and where `B` and `R`
/// come from.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Setup {
    /// The problem.
    pub problem: Problem,
    /// The setting.
    pub setting: Setting,
    /// Where `B` and `R` come from.
    pub bounds: Bounds,
}

/// Problem draws of a synthetic panel (a new function per trial) in the reproduction: enough
/// for the claims' paired tests over draws (at 20 draws a sign test can reach p = 1e-6).
pub const SYNTHETIC_DRAWS: usize = 20;

/// The horizon of the synthetic panels' budget (the reproduction's default horizon).
pub const SYNTHETIC_HORIZON: usize = 1000;

/// One panel of Figures 2 and 3: its figure (every algorithm under both presets; the
/// problem's draws and the paper's claims: MoMA below ATA and TGP), its [`Setup`], the budget
/// of a synthetic panel, and each curve's label with its algorithm and preset.
pub type Panel = experiment::Panel<Setup, (Algorithm, Preset)>;

/// A panel on `setup`: every algorithm under both presets.
fn panel(id: &'static str, caption: &'static str, setup: Setup) -> Panel {
    let curves = Preset::ALL.iter().flat_map(|&p| {
        Algorithm::ALL
            .iter()
            .map(move |&a| (curve_label(a, setup.setting, p), (a, p)))
    });
    let panel = experiment::Panel::new(id, caption, setup, curves).with_figure(|f| {
        let f = f.with_problem(if setup.problem.is_synthetic() {
            experiment::Problem::RandomPerTrial
        } else {
            experiment::Problem::Fixed
        });
        ZhouTan2021::claims(setup.setting)
            .into_iter()
            .fold(f, experiment::Figure::with_claim)
    });
    // Synthetic panels (a new function per trial) run `SYNTHETIC_DRAWS` draws at the default
    // horizon; the data-set panels keep the options' budget.
    if setup.problem.is_synthetic() {
        panel.with_budget(Budget {
            trials: SYNTHETIC_DRAWS,
            horizon: SYNTHETIC_HORIZON,
        })
    } else {
        panel
    }
}

/// Figures 2(a)-(f) and 3(a)-(c), then the six data-set panels with `B` and `R` fixed in
/// advance and their comparison on the same stock days (not in the paper; issue 13, item 6).
pub fn panels() -> Vec<Panel> {
    vec![
        panel(
            "fig2a",
            "LDP, eps = 1, synthetic data, Matern",
            Setup {
                problem: Problem::SyntheticMatern,
                setting: Setting::Ldp { epsilon: 1.0 },
                bounds: Bounds::FromRewards,
            },
        ),
        panel(
            "fig2b",
            "LDP, eps = 0.5, light sensor data",
            Setup {
                problem: Problem::LightSensor,
                setting: Setting::Ldp { epsilon: 0.5 },
                bounds: Bounds::FromRewards,
            },
        ),
        panel(
            "fig2c",
            "LDP, eps = 1, stock market data",
            Setup {
                problem: Problem::Stocks,
                setting: Setting::Ldp { epsilon: 1.0 },
                bounds: Bounds::FromRewards,
            },
        ),
        panel(
            "fig2d",
            "Non-private, synthetic data, SE",
            Setup {
                problem: Problem::SyntheticSe,
                setting: Setting::NonPrivate,
                bounds: Bounds::FromRewards,
            },
        ),
        panel(
            "fig2e",
            "Non-private, light sensor data",
            Setup {
                problem: Problem::LightSensor,
                setting: Setting::NonPrivate,
                bounds: Bounds::FromRewards,
            },
        ),
        panel(
            "fig2f",
            "Non-private, stock market data",
            Setup {
                problem: Problem::Stocks,
                setting: Setting::NonPrivate,
                bounds: Bounds::FromRewards,
            },
        ),
        panel(
            "fig3a",
            "LDP, eps = 1, synthetic data, SE",
            Setup {
                problem: Problem::SyntheticSe,
                setting: Setting::Ldp { epsilon: 1.0 },
                bounds: Bounds::FromRewards,
            },
        ),
        panel(
            "fig3b",
            "LDP, eps = 1, light sensor data",
            Setup {
                problem: Problem::LightSensor,
                setting: Setting::Ldp { epsilon: 1.0 },
                bounds: Bounds::FromRewards,
            },
        ),
        panel(
            "fig3c",
            "LDP, eps = 0.5, stock market data",
            Setup {
                problem: Problem::Stocks,
                setting: Setting::Ldp { epsilon: 0.5 },
                bounds: Bounds::FromRewards,
            },
        ),
        panel(
            "fig2b-held-out",
            "LDP, eps = 0.5, light sensor data, B and R from the train rows",
            Setup {
                problem: Problem::LightSensor,
                setting: Setting::Ldp { epsilon: 0.5 },
                bounds: Bounds::HeldOut,
            },
        ),
        panel(
            "fig3b-held-out",
            "LDP, eps = 1, light sensor data, B and R from the train rows",
            Setup {
                problem: Problem::LightSensor,
                setting: Setting::Ldp { epsilon: 1.0 },
                bounds: Bounds::HeldOut,
            },
        ),
        panel(
            "fig2c-2017",
            "LDP, eps = 1, stocks from 2017, B and R from the rewards",
            Setup {
                problem: Problem::StocksFrom2017,
                setting: Setting::Ldp { epsilon: 1.0 },
                bounds: Bounds::FromRewards,
            },
        ),
        panel(
            "fig2c-2017-held-out",
            "LDP, eps = 1, stocks from 2017, B and R from 2016",
            Setup {
                problem: Problem::StocksFrom2017,
                setting: Setting::Ldp { epsilon: 1.0 },
                bounds: Bounds::HeldOut,
            },
        ),
        panel(
            "fig3c-2017",
            "LDP, eps = 0.5, stocks from 2017, B and R from the rewards",
            Setup {
                problem: Problem::StocksFrom2017,
                setting: Setting::Ldp { epsilon: 0.5 },
                bounds: Bounds::FromRewards,
            },
        ),
        panel(
            "fig3c-2017-held-out",
            "LDP, eps = 0.5, stocks from 2017, B and R from 2016",
            Setup {
                problem: Problem::StocksFrom2017,
                setting: Setting::Ldp { epsilon: 0.5 },
                bounds: Bounds::HeldOut,
            },
        ),
    ]
}

/// The parameters of the three algorithms, built from a named [`Preset`]
/// ([`AlgorithmParams::of`]; `docs/ldp-bo.md`, "Presets"). The horizon `T` is not among them:
/// [`run`] passes `RunConfig::horizon` to the algorithms it builds.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct AlgorithmParams {
    /// (LDP-)TGP-UCB.
    pub tgp: TgpParams,
    /// (LDP-)ATA-GP-UCB.
    pub ata: AtaParams,
    /// (LDP-)MoMA-GP-UCB.
    pub moma: MomaParams,
}

impl AlgorithmParams {
    /// The three algorithms' parameters of `preset`.
    pub fn of(preset: Preset) -> Self {
        Self {
            tgp: TgpParams::of(preset),
            ata: AtaParams::of(preset),
            moma: MomaParams::of(preset),
        }
    }

    /// Check the parameters of the three algorithms.
    pub fn validate(&self) -> Result<(), LdpBoError> {
        self.tgp.validate()?;
        self.ata.validate()?;
        self.moma.validate()
    }
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

/// Run `config.n_trials` seeded trials of `algorithm` in `setting` on the instances of
/// `source` (trial `i` seeded from `(config.base_seed, i)`, bit-identical for any thread
/// count).
pub fn run(
    source: &Source,
    setting: Setting,
    algorithm: Algorithm,
    params: &AlgorithmParams,
    config: &RunConfig,
) -> Result<BatchResult, LdpBoError> {
    params.validate()?;
    let horizon = config.horizon as u64;
    let p = *params;
    match setting {
        Setting::Ldp { epsilon } => {
            let ctl = |i: &InstanceInfo| CtlCurator::new(epsilon, i.b, i.r);
            match algorithm {
                Algorithm::Ata => batch(source, setting, config, ctl, |i| {
                    AtaGpUcb::private(i.kernel.clone(), i.arms.view(), &ctl(i)?, horizon, p.ata)
                }),
                Algorithm::Tgp => batch(source, setting, config, ctl, |i| {
                    TgpUcb::private(i.kernel.clone(), i.arms.view(), &ctl(i)?, p.tgp)
                }),
                Algorithm::Moma => batch(source, setting, config, ctl, |i| {
                    MomaGpUcb::private(i.kernel.clone(), i.arms.view(), &ctl(i)?, horizon, p.moma)
                }),
            }
        }
        Setting::NonPrivate => {
            let identity = |_: &InstanceInfo| Ok::<_, std::convert::Infallible>(Identity);
            match algorithm {
                Algorithm::Ata => batch(source, setting, config, identity, |i| {
                    AtaGpUcb::heavy_tailed(
                        i.kernel.clone(),
                        i.arms.view(),
                        i.b,
                        i.v,
                        horizon,
                        p.ata,
                    )
                }),
                Algorithm::Tgp => batch(source, setting, config, identity, |i| {
                    TgpUcb::heavy_tailed(i.kernel.clone(), i.arms.view(), i.b, i.alpha, i.v, p.tgp)
                }),
                Algorithm::Moma => batch(source, setting, config, identity, |i| {
                    MomaGpUcb::heavy_tailed(
                        i.kernel.clone(),
                        i.arms.view(),
                        i.b,
                        i.alpha,
                        i.c,
                        horizon,
                        p.moma,
                    )
                }),
            }
        }
    }
}

/// The cumulative-regret curve `R_1, ..., R_T` of one seeded trial (trial 0 of a batch with
/// base seed `seed`): what the regret-scaling checks read their horizons from.
pub fn regret_curve(
    source: &Source,
    setting: Setting,
    algorithm: Algorithm,
    params: &AlgorithmParams,
    horizon: usize,
    seed: u64,
) -> Result<Vec<f64>, LdpBoError> {
    let config = RunConfig {
        horizon,
        n_trials: 1,
        base_seed: seed,
    };
    let mut batch = run(source, setting, algorithm, params, &config)?;
    Ok(batch.trials.swap_remove(0).cumulative_regret)
}

/// The batch runner with this crate's instances, a curator and an agent built from the
/// instance's [`InstanceInfo`].
fn batch<A, C>(
    source: &Source,
    setting: Setting,
    config: &RunConfig,
    curator: impl Fn(&InstanceInfo) -> Result<C, C::Error> + Sync,
    agent: impl Fn(&InstanceInfo) -> Result<A, LdpBoError> + Sync,
) -> Result<BatchResult, LdpBoError>
where
    C: Curator,
    A: Agent<Message = C::Message, Error = LdpBoError>,
{
    let make_env = |rng: &mut ChaCha20Rng| -> Result<Instance, bandit::BanditError> {
        source.instance(setting, rng).map_err(|e| match e {
            LdpBoError::Bandit(b) => b,
            other => bandit::BanditError::Environment {
                round: None,
                source: Box::new(other),
            },
        })
    };
    Ok(run_trials(
        config,
        make_env,
        |e: &Instance, _: &mut ChaCha20Rng| agent(&e.info),
        |e: &Instance, _: &mut ChaCha20Rng| curator(&e.info),
    )?)
}

/// The reproduction of Section 5 and Appendix E for `cargo xtask reproduce ldp-bo` and
/// `cargo xtask bench ldp-bo`: the fifteen panels of [`panels`], each drawing the three
/// [`Algorithm`]s in the paper's order (their private names in the LDP panels) under both
/// [`Preset`]s (theory first), every curve a [`run`] of [`AlgorithmParams::of`] the preset on
/// the panel's [`Source`]. A curve's label is `NAME-PRESET` (`LDP-TGP-UCB-theory`); the
/// presets are the reproduction's variants (`--preset theory|practical` draws one).
#[derive(Debug, Clone, Copy, Default)]
pub struct ZhouTan2021;

/// The label of `algorithm`'s curve in `setting` under `preset`: `NAME-PRESET`.
pub fn curve_label(algorithm: Algorithm, setting: Setting, preset: Preset) -> String {
    format!("{}-{}", algorithm.name(setting), preset.name())
}

impl ZhouTan2021 {
    /// The panel with this id.
    ///
    /// # Errors
    /// [`ExperimentError::UnknownFigure`] for an id that is not one of [`panels`].
    pub fn panel(id: &str) -> Result<Panel, ExperimentError> {
        experiment::find_panel(&panels(), "ldp-bo", id).cloned()
    }

    /// The paper's claim about every panel, under each preset (Section 5, below Figure 2: "MoMA-GP-UCB
    /// (or LDP-MoMA-GP-UCB) tends to empirically outperform the other two algorithms in both
    /// non-private and private settings"; "similar observations" for the appendix's Figure 3):
    /// MoMA's final regret below TGP's and below ATA's.
    fn claims(setting: Setting) -> Vec<experiment::Claim> {
        const SOURCE: &str = "Section 5: MoMA-GP-UCB (or LDP-MoMA-GP-UCB) tends to empirically outperform the other two algorithms";
        Preset::ALL
            .iter()
            .flat_map(|&p| {
                let moma = curve_label(Algorithm::Moma, setting, p);
                [Algorithm::Tgp, Algorithm::Ata].map(|other| {
                    experiment::Claim::below(
                        format!(
                            "moma-below-{}-{}",
                            match other {
                                Algorithm::Tgp => "tgp",
                                _ => "ata",
                            },
                            p.name()
                        ),
                        SOURCE,
                        moma.clone(),
                        curve_label(other, setting, p),
                        experiment::At::Last,
                    )
                })
            })
            .collect()
    }
}

impl PaperExperiments for ZhouTan2021 {
    fn name(&self) -> &'static str {
        "ldp-bo"
    }

    fn title(&self) -> &'static str {
        "Zhou & Tan 2021: reproduced Figures 2 and 3"
    }

    fn figures(&self) -> Vec<experiment::Figure> {
        panels().iter().map(|p| p.figure().clone()).collect()
    }

    /// Synthetic panels (a new function per trial) run [`SYNTHETIC_DRAWS`] draws at the
    /// default horizon; the data-set panels keep the options' budget.
    fn budget(&self, figure: &experiment::Figure) -> Option<Budget> {
        Self::panel(figure.id).ok().and_then(|p| p.budget())
    }

    fn variants(&self) -> &'static [&'static str] {
        &Preset::NAMES
    }

    fn parameters(&self, options: &Options) -> Result<Parameters, ExperimentError> {
        /// The record of a reproduction: the horizon every algorithm was built with, and the
        /// algorithms' parameters under each preset that ran.
        #[derive(Serialize)]
        struct Record {
            horizon: usize,
            presets: std::collections::BTreeMap<&'static str, AlgorithmParams>,
        }
        let presets = Preset::ALL
            .into_iter()
            .filter(|p| options.variant().is_none_or(|v| v == p.name()))
            .map(|p| (p.name(), AlgorithmParams::of(p)))
            .collect();
        let description = match options.variant().map(Preset::named) {
            Some(Ok(Preset::Theory)) => {
                "the preset `theory` (the theorems' constants; `docs/ldp-bo.md`, \"Presets\") and the horizon T"
            }
            Some(Ok(Preset::Practical)) => {
                "the preset `practical` (scaled widths and MoMA epochs, chosen on held-out instances; `docs/ldp-bo.md`, \"Presets\") and the horizon T"
            }
            // No preset selected (an unknown one is refused by `select_figures`): both.
            None | Some(Err(_)) => {
                "the presets `theory` (the theorems' constants) and `practical` (scaled widths and MoMA epochs, chosen on held-out instances; `docs/ldp-bo.md`, \"Presets\"), and the horizon T"
            }
        };
        Parameters::json(
            description,
            &Record {
                horizon: options.horizon(),
                presets,
            },
        )
    }

    fn runs(
        &self,
        figure: &experiment::Figure,
        options: &Options,
    ) -> Result<Vec<experiment::Run>, ExperimentError> {
        let panel = Self::panel(figure.id)?;
        let setup = *panel.problem();
        let source = Arc::new(
            Source::load_with(setup.problem, setup.bounds, options.data_dir()).map_err(|e| {
                ExperimentError::Setup {
                    figure: panel.id().to_string(),
                    source: Box::new(e),
                }
            })?,
        );
        let config = options.run_config();
        // The runs follow the selected figure's curves (all of them, or one preset's).
        panel.runs(figure, |&(algorithm, preset)| {
            let source = Arc::clone(&source);
            let params = AlgorithmParams::of(preset);
            move || run(&source, setup.setting, algorithm, &params, &config)
        })
    }

    /// All six algorithms under both presets (twelve curves) at `T = 1000`, 10 trials, seed 2021, on the synthetic SE problem:
    /// LDP on Figure 3(a), non-private on Figure 2(d) (`docs/ldp-bo.md`, "Benchmarks").
    fn timings(&self) -> TimingWorkload {
        TimingWorkload {
            description: "synthetic SE problem",
            figures: &["fig3a", "fig2d"],
            trials: 10,
            horizon: 1000,
            base_seed: 2021,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fifteen_panels_of_three_curves_per_preset_in_the_paper_order() {
        let figures = ZhouTan2021.figures();
        assert_eq!(
            figures.iter().map(|f| f.id).collect::<Vec<_>>(),
            panels().iter().map(|p| p.id()).collect::<Vec<_>>()
        );
        assert_eq!(
            figures[0].curves,
            [
                "LDP-ATA-GP-UCB-theory",
                "LDP-TGP-UCB-theory",
                "LDP-MoMA-GP-UCB-theory",
                "LDP-ATA-GP-UCB-practical",
                "LDP-TGP-UCB-practical",
                "LDP-MoMA-GP-UCB-practical"
            ]
        );
        assert_eq!(
            figures[3].curves[3..],
            [
                "ATA-GP-UCB-practical",
                "TGP-UCB-practical",
                "MoMA-GP-UCB-practical"
            ]
        );
        // One preset selected: its three curves only; an unknown preset is an error.
        let theory = Options::new(1, 5, 0, "d")
            .unwrap()
            .with_variant(Some("theory".into()));
        let selected = ZhouTan2021.select_figures(&theory).unwrap();
        assert!(
            selected
                .iter()
                .all(|f| f.curves.len() == 3 && f.curves.iter().all(|c| c.ends_with("-theory")))
        );
        let bogus = theory.clone().with_variant(Some("tuned".into()));
        assert!(matches!(
            ZhouTan2021.select_figures(&bogus),
            Err(ExperimentError::UnknownVariant { .. })
        ));
        let timed = ZhouTan2021.timings();
        assert!(
            timed
                .figures
                .iter()
                .all(|id| ZhouTan2021::panel(id).is_ok())
        );
    }

    #[test]
    fn a_figure_run_is_the_batch_of_run() {
        let options = Options::new(2, 15, 7, dataset::default_data_dir()).unwrap();
        let figure = &ZhouTan2021.figures()[6];
        assert_eq!(figure.id, "fig3a");
        let result = ZhouTan2021
            .run_figure(figure, &options, &mut |_| {})
            .unwrap();
        let source = Source::load(Problem::SyntheticSe, Path::new("unused")).unwrap();
        let presets_and_algorithms = Preset::ALL
            .iter()
            .flat_map(|&p| Algorithm::ALL.map(|a| (p, a)));
        assert_eq!(result.curves.len(), 6);
        for (curve, (preset, algorithm)) in result.curves.iter().zip(presets_and_algorithms) {
            let direct = run(
                &source,
                Setting::Ldp { epsilon: 1.0 },
                algorithm,
                &AlgorithmParams::of(preset),
                &options.run_config(),
            )
            .unwrap();
            assert_eq!(curve.batch, direct, "{}", curve.label);
        }
    }

    #[test]
    fn unknown_panels_and_missing_data_are_errors() {
        let options = Options::new(1, 5, 0, "/nonexistent-data-folder").unwrap();
        let bogus = experiment::Figure::new("fig9z", "none", ["x"]);
        assert!(matches!(
            ZhouTan2021.runs(&bogus, &options),
            Err(ExperimentError::UnknownFigure { .. })
        ));
        let light = &ZhouTan2021.figures()[1];
        assert!(matches!(
            ZhouTan2021.runs(light, &options),
            Err(ExperimentError::Setup { .. })
        ));
        let params = ZhouTan2021.parameters(&options).unwrap();
        assert!(params.json.contains("\"horizon\": 5"), "{}", params.json);
    }
}
