//! Figures 2 and 3 as data: each panel's setup, budget and curves (every algorithm under both
//! presets), and the paper's claim about it.

use bandit::experiment::{self, Budget};

use serde::{Deserialize, Serialize};

use super::problems::{Bounds, Problem, Setting};
use super::runs::Algorithm;
use crate::preset::Preset;

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
        claims(setup.setting)
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

/// The label of `algorithm`'s curve in `setting` under `preset`: `NAME-PRESET`.
pub fn curve_label(algorithm: Algorithm, setting: Setting, preset: Preset) -> String {
    format!("{}-{}", algorithm.name(setting), preset.name())
}

/// The paper's claim about every panel, under each preset (Section 5, below Figure 2: "MoMA-GP-UCB
/// (or LDP-MoMA-GP-UCB) tends to empirically outperform the other two algorithms in both
/// non-private and private settings"; "similar observations" for the appendix's Figure 3):
/// MoMA's final regret below TGP's and below ATA's.
pub fn claims(setting: Setting) -> Vec<experiment::Claim> {
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
