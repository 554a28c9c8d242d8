//! A paper's panel as data: the figure's description, the problem it runs on, its own budget,
//! and each curve's label with the configuration a run needs. The curve labels are written
//! once, in the panel: [`Panel::figure`] lists them, and [`Panel::runs`] names each run by
//! them, so the runs of a figure cannot draw other curves than its description lists.

use super::{Budget, ExperimentError, Figure, Run};

/// One panel: its [`Figure`] (id, caption, metric, band, problem draws, claims, ablations),
/// the paper's problem `P` of the panel, its own [`Budget`] (if any) and its curves, each a
/// label with a configuration `C`.
///
/// # Examples
///
/// ```
/// use bandit::experiment::{Budget, Panel, Run, find_panel};
/// use bandit::runner::{BatchResult, RunConfig};
///
/// let panels = vec![
///     Panel::new("fig1", "two step sizes", "quadratic", [("slow", 0.1), ("fast", 0.5)])
///         .with_budget(Budget { trials: 4, horizon: 10 }),
/// ];
/// let p = find_panel(&panels, "fake", "fig1")?;
/// assert_eq!(p.figure().curves, ["slow", "fast"]);
/// let config = RunConfig { horizon: 10, n_trials: 4, base_seed: 1, shard: None };
/// let producer = |&step: &f64| {
///     move || -> Result<BatchResult, std::convert::Infallible> {
///         let _ = step;
///         Ok(BatchResult { config, trials: Vec::new() })
///     }
/// };
/// let runs = p.runs(p.figure(), producer)?;
/// let labels: Vec<&str> = runs.iter().map(|r| r.label.as_str()).collect();
/// assert_eq!(labels, ["slow", "fast"]);
/// // A selection of the curves (one variant's, say) runs only those.
/// let mut fast_only = p.figure().clone();
/// fast_only.curves.retain(|c| c == "fast");
/// assert_eq!(p.runs(&fast_only, producer)?.len(), 1);
/// assert!(find_panel(&panels, "fake", "fig9").is_err());
/// # Ok::<(), bandit::experiment::ExperimentError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Panel<P, C> {
    figure: Figure,
    problem: P,
    budget: Option<Budget>,
    configs: Vec<C>,
}

impl<P, C> Panel<P, C> {
    /// A panel with these curves (label, configuration), in drawing order; its figure draws the
    /// cumulative regret with sd bands ([`Figure::new`]) until [`Panel::with_figure`] says
    /// otherwise.
    pub fn new<S: Into<String>>(
        id: &'static str,
        caption: &'static str,
        problem: P,
        curves: impl IntoIterator<Item = (S, C)>,
    ) -> Self {
        let (labels, configs): (Vec<String>, Vec<C>) =
            curves.into_iter().map(|(l, c)| (l.into(), c)).unzip();
        Self {
            figure: Figure::new(id, caption, labels),
            problem,
            budget: None,
            configs,
        }
    }

    /// The same panel with its figure changed by `change` (metric, band, first round, problem
    /// draws, claims, ablations: [`Figure`]'s builders). The curves stay the panel's.
    #[must_use]
    pub fn with_figure(mut self, change: impl FnOnce(Figure) -> Figure) -> Self {
        let curves = std::mem::take(&mut self.figure.curves);
        self.figure = change(self.figure);
        self.figure.curves = curves;
        self
    }

    /// The same panel with its own budget.
    #[must_use]
    pub fn with_budget(mut self, budget: Budget) -> Self {
        self.budget = Some(budget);
        self
    }

    /// Its id.
    pub fn id(&self) -> &'static str {
        self.figure.id
    }

    /// Its figure description (the labels of its curves included).
    pub fn figure(&self) -> &Figure {
        &self.figure
    }

    /// Its problem.
    pub fn problem(&self) -> &P {
        &self.problem
    }

    /// Its own budget, if it has one.
    pub fn budget(&self) -> Option<Budget> {
        self.budget
    }

    /// Its curves: (label, configuration), in drawing order.
    pub fn curves(&self) -> impl Iterator<Item = (&str, &C)> {
        self.figure
            .curves
            .iter()
            .map(String::as_str)
            .zip(&self.configs)
    }

    /// One run per curve that `selected` lists (the panel's figure, or the one
    /// [`PaperExperiments::select_figures`](super::PaperExperiments::select_figures) kept some of
    /// whose curves, e.g. one variant's), in `selected`'s order, each named by its label:
    /// `produce(config)` makes the batch producer of a curve (see [`Run::new`]).
    ///
    /// # Errors
    /// [`ExperimentError::CurveMismatch`] when `selected` lists a label the panel does not have.
    pub fn runs<F, E>(
        &self,
        selected: &Figure,
        mut produce: impl FnMut(&C) -> F,
    ) -> Result<Vec<Run>, ExperimentError>
    where
        F: FnOnce() -> Result<crate::runner::BatchResult, E> + 'static,
        E: Into<crate::error::BoxedError>,
    {
        self.selected(selected)?
            .into_iter()
            .map(|(label, c)| Ok(Run::new(label, produce(c))))
            .collect()
    }

    /// [`Panel::runs`] for producers that report diagnostics beside the batch
    /// ([`Run::with_diagnostics`]).
    ///
    /// # Errors
    /// As [`Panel::runs`].
    pub fn runs_with_diagnostics<F, E>(
        &self,
        selected: &Figure,
        mut produce: impl FnMut(&C) -> F,
    ) -> Result<Vec<Run>, ExperimentError>
    where
        F: FnOnce() -> Result<(crate::runner::BatchResult, super::Diagnostics), E> + 'static,
        E: Into<crate::error::BoxedError>,
    {
        self.selected(selected)?
            .into_iter()
            .map(|(label, c)| Ok(Run::with_diagnostics(label, produce(c))))
            .collect()
    }

    /// [`Panel::runs`] for producers that report a per-trial diagnostics table beside the batch
    /// ([`Run::with_table`]).
    ///
    /// # Errors
    /// As [`Panel::runs`].
    pub fn runs_with_table<F, E>(
        &self,
        selected: &Figure,
        mut produce: impl FnMut(&C) -> F,
    ) -> Result<Vec<Run>, ExperimentError>
    where
        F: FnOnce() -> Result<(crate::runner::BatchResult, super::RunTable), E> + 'static,
        E: Into<crate::error::BoxedError>,
    {
        self.selected(selected)?
            .into_iter()
            .map(|(label, c)| Ok(Run::with_table(label, produce(c))))
            .collect()
    }

    /// The curves `selected` lists, with their configurations.
    fn selected<'a>(
        &'a self,
        selected: &'a Figure,
    ) -> Result<Vec<(&'a str, &'a C)>, ExperimentError> {
        selected
            .curves
            .iter()
            .map(|label| {
                self.curves().find(|(l, _)| l == label).ok_or_else(|| {
                    ExperimentError::CurveMismatch {
                        figure: self.id().to_string(),
                        expected: self.figure.curves.clone(),
                        got: selected.curves.clone(),
                    }
                })
            })
            .collect()
    }
}

/// The panel of `panels` with this id; [`ExperimentError::UnknownFigure`] (listing the ids)
/// for any other.
///
/// # Errors
/// [`ExperimentError::UnknownFigure`] when no panel has the id.
pub fn find_panel<'a, P, C>(
    panels: &'a [Panel<P, C>],
    paper: &'static str,
    id: &str,
) -> Result<&'a Panel<P, C>, ExperimentError> {
    panels
        .iter()
        .find(|p| p.id() == id)
        .ok_or_else(|| ExperimentError::UnknownFigure {
            paper,
            id: id.to_string(),
            known: panels.iter().map(Panel::id).collect::<Vec<_>>().join(","),
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::{At, Claim, Metric, Problem};

    #[test]
    fn a_figure_change_keeps_the_panels_labels() {
        let p = Panel::new("f", "c", (), [("a", 1), ("b", 2)]).with_figure(|f| {
            f.with_metric(Metric::SimpleRegret)
                .with_problem(Problem::RandomPerTrial)
                .with_claim(Claim::below("x", "y", "a", "b", At::Last))
        });
        assert_eq!(p.figure().curves, ["a", "b"]);
        assert_eq!(p.figure().metric, Metric::SimpleRegret);
        assert_eq!(p.figure().claims.len(), 1);
        let c: Vec<(&str, i32)> = p.curves().map(|(l, &c)| (l, c)).collect();
        assert_eq!(c, [("a", 1), ("b", 2)]);
        assert_eq!(p.budget(), None);
        let mut other = p.figure().clone();
        other.curves = vec!["a".into(), "z".into()];
        assert!(matches!(
            p.runs(&other, |_| || {
                Err::<crate::runner::BatchResult, _>(ExperimentError::ZeroCount { what: "x" })
            }),
            Err(ExperimentError::CurveMismatch { .. })
        ));
    }
}
