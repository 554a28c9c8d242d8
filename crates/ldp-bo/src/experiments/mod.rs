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

mod panels;
mod problems;
mod runs;

pub use panels::{Panel, SYNTHETIC_DRAWS, SYNTHETIC_HORIZON, Setup, claims, curve_label, panels};
pub use problems::{Bounds, Instance, InstanceInfo, Problem, Setting, Source};
pub use runs::{Algorithm, AlgorithmParams, regret_curve, run, run_with_sampler};

use std::sync::Arc;

use bandit::experiment::{
    self, Budget, ExperimentError, Options, PaperExperiments, Parameters, TimingWorkload,
};

use privacy::Sampler;
use serde::Serialize;

use crate::preset::Preset;

/// The sampler `--sampler` names (`select_figures` has refused any other name), hardened
/// without one.
fn sampler(options: &Options) -> Sampler {
    match options.sampler() {
        Some("textbook") => Sampler::Textbook,
        _ => Sampler::Hardened,
    }
}

/// The reproduction of Section 5 and Appendix E for `cargo xtask reproduce ldp-bo` and
/// `cargo xtask bench ldp-bo`: the fifteen panels of [`panels`], each drawing the three
/// [`Algorithm`]s in the paper's order (their private names in the LDP panels) under both
/// [`Preset`]s (theory first), every curve a [`run`] of [`AlgorithmParams::of`] the preset on
/// the panel's [`Source`]. A curve's label is `NAME-PRESET` (`LDP-TGP-UCB-theory`); the
/// presets are the reproduction's variants (`--preset theory|practical` draws one).
#[derive(Debug, Clone, Copy, Default)]
pub struct ZhouTan2021;

impl ZhouTan2021 {
    /// The panel with this id.
    ///
    /// # Errors
    /// [`ExperimentError::UnknownFigure`] for an id that is not one of [`panels`].
    pub fn panel(id: &str) -> Result<Panel, ExperimentError> {
        experiment::find_panel(&panels(), "ldp-bo", id).cloned()
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
            sampler: Sampler,
        }
        let presets = Preset::ALL
            .into_iter()
            .filter(|p| options.variant().is_none_or(|v| v == p.name()))
            .map(|p| (p.name(), AlgorithmParams::of(p)))
            .collect();
        let description = match options.variant().map(Preset::named) {
            Some(Ok(Preset::Theory)) => {
                "the preset `theory` (the theorems' constants; `docs/ldp-bo.md`, \"Presets\"), the horizon T and the sampler of CTL(eps)'s Laplace noise (hardened by default; textbook with --sampler textbook, the same calibration without the grid slack)"
            }
            Some(Ok(Preset::Practical)) => {
                "the preset `practical` (scaled widths and MoMA epochs, chosen on held-out instances; `docs/ldp-bo.md`, \"Presets\"), the horizon T and the sampler of CTL(eps)'s Laplace noise (hardened by default; textbook with --sampler textbook, the same calibration without the grid slack)"
            }
            // No preset selected (an unknown one is refused by `select_figures`): both.
            None | Some(Err(_)) => {
                "the presets `theory` (the theorems' constants) and `practical` (scaled widths and MoMA epochs, chosen on held-out instances; `docs/ldp-bo.md`, \"Presets\"), the horizon T and the sampler of CTL(eps)'s Laplace noise (hardened by default; textbook with --sampler textbook, the same calibration without the grid slack)"
            }
        };
        Parameters::json(
            description,
            &Record {
                horizon: options.horizon(),
                presets,
                sampler: sampler(options),
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
        let sampler = sampler(options);
        // The runs follow the selected figure's curves (all of them, or one preset's).
        panel.runs(figure, |&(algorithm, preset)| {
            let source = Arc::clone(&source);
            let params = AlgorithmParams::of(preset);
            move || run_with_sampler(&source, setup.setting, algorithm, &params, &config, sampler)
        })
    }

    /// `hardened` (the default: CTL(eps) with the exact discrete Laplace on a grid, what the
    /// claim is about) or `textbook` (the floating-point Laplace at the same scale, the
    /// control).
    fn samplers(&self) -> &'static [&'static str] {
        &["hardened", "textbook"]
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
    use bandit::dataset;
    use std::path::Path;

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

    /// `--sampler textbook` runs CTL(eps) with the textbook Laplace (each curve `run_with_sampler`
    /// with [`Sampler::Textbook`], different from the hardened default where the noise steers the
    /// actions), and leaves a non-private panel as it is; the parameters record names the sampler; an unknown name is
    /// refused.
    #[test]
    fn the_textbook_sampler_is_a_named_control() {
        let options = Options::new(2, 15, 7, dataset::default_data_dir()).unwrap();
        let textbook = options.clone().with_sampler(Some("textbook".into()));
        let source = Source::load(Problem::SyntheticSe, Path::new("unused")).unwrap();
        let figures = ZhouTan2021.figures();
        let private = figures.iter().find(|f| f.id == "fig3a").unwrap();
        let hardened = ZhouTan2021
            .run_figure(private, &options, &mut |_| {})
            .unwrap();
        let result = ZhouTan2021
            .run_figure(private, &textbook, &mut |_| {})
            .unwrap();
        let presets_and_algorithms = Preset::ALL
            .iter()
            .flat_map(|&p| Algorithm::ALL.map(|a| (p, a)));
        let mut changed = 0;
        for ((curve, h), (preset, algorithm)) in result
            .curves
            .iter()
            .zip(&hardened.curves)
            .zip(presets_and_algorithms)
        {
            let direct = run_with_sampler(
                &source,
                Setting::Ldp { epsilon: 1.0 },
                algorithm,
                &AlgorithmParams::of(preset),
                &options.run_config(),
                Sampler::Textbook,
            )
            .unwrap();
            assert_eq!(curve.batch, direct, "{}", curve.label);
            if curve.batch != h.batch {
                changed += 1;
            }
        }
        // Every curve whose actions depend on the rewards it saw (at T = 15 MoMA's first
        // epoch plays one arm whatever the noise).
        assert!(changed >= 4, "{changed} of 6 curves changed");
        let non_private = figures.iter().find(|f| f.id == "fig2d").unwrap();
        let batches = |o: &Options| -> Vec<_> {
            ZhouTan2021
                .run_figure(non_private, o, &mut |_| {})
                .unwrap()
                .curves
                .into_iter()
                .map(|c| c.batch)
                .collect()
        };
        assert_eq!(batches(&textbook), batches(&options));
        let params = ZhouTan2021.parameters(&textbook).unwrap().json;
        assert!(params.contains("\"sampler\": \"textbook\""), "{params}");
        let params = ZhouTan2021.parameters(&options).unwrap().json;
        assert!(params.contains("\"sampler\": \"hardened\""), "{params}");
        let bogus = options.with_sampler(Some("exact".into()));
        assert!(matches!(
            ZhouTan2021.select_figures(&bogus),
            Err(ExperimentError::UnknownSampler { .. })
        ));
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
