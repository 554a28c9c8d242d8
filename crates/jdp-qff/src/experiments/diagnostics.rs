//! The per-run diagnostics of the reproduction (`ID-LABEL-diagnostics.csv` beside each curve):
//! at four checkpoints of every trial, what the learner's choice was made of.
//!
//! The recorder watches the rounds from the harness's side ([`bandit::runner::RoundObserver`]):
//! it keeps its own copy of the learner's statistics, updated with every message exactly as the
//! learner updates its own ([`StatisticsMessage::update`]), and the exact data sums
//! `Sigma_t = sum_{s < t} Phi(x_s) Phi(x_s)^T` of the points chosen. At round `t` it rebuilds the
//! [`Posterior`] the learner selected from, so every column is of the round's actual choice. It
//! draws no randomness: the runs and their regret are those of the batch without diagnostics.
//!
//! | column | what |
//! |---|---|
//! | `trial`, `round` | the trial and the round `t` (1-based; the posterior of `t - 1` observations) |
//! | `sigma_x`, `sigma_u` | the noise sd per entry of `Sigma~` and of `u~` (JDP: the tree's node sd for both; local: the clients' `sigma_X`, `sigma_u` of the run's calibration; 0 without noise) |
//! | `shift`, `lambda_min`, `lambda_max` | the PSD shift and the spectrum of the noise model ([`crate::Spectrum`]) |
//! | `data_eig_1..3` | the three largest eigenvalues of the exact `Sigma_t` (what the data contribute), to hold against the shift |
//! | `noise_eig_min`, `noise_eig_max` | the extreme eigenvalues of `H_t = Sigma~_t - Sigma_t` (noise and shift together; within `[lambda_min, lambda_max]` with probability `1 - zeta`) |
//! | `beta_norm`, `beta_information`, `beta_approximation`, `beta_kappa`, `beta_scale`, `sqrt_beta` | Theorem 1's four terms, the multiplier and `beta_t^{1/2}` ([`crate::WidthTerms`]) |
//! | `mean_min`, `mean_max` | the range of `<theta~_t, Phi(x)>` over `D_t` |
//! | `width_min`, `width_max` | the range of `beta_t^{1/2} ||Phi(x)||_{V_t^-1}` over `D_t` |
//! | `chosen_mean`, `chosen_width` | the two parts of the chosen point's score |
//! | `score_max` | the largest score `mean + width` over `D_t` (the chosen point's, when the row is of the posterior the learner selected from) |
//! | `boundary_chosen`, `boundary_offered` | the fraction of coordinates of the points chosen in rounds `1..t` that lie in the outer band of the domain (box: `|x_i - c_i|` above 80% of the half-width, i.e. the outer tenth of the range at each end of each coordinate, a fifth in all; ball: every coordinate of a point whose norm is above 90% of the radius), and the same over every point offered (what uniform play would show) |
//!
//! Uniform play has no posterior: its rows carry only `trial`, `round` and the boundary
//! fractions (the other fields are empty).

use std::sync::Arc;

use bandit::experiment::RunTable;
use bandit::runner::{RoundObserver, RoundView};
use kernel::FeatureMap;
use kernel::linalg::symmetric_eigenvalues;
use ndarray::{Array2, ArrayView1};

use crate::error::JdpQffError;
use crate::posterior::Posterior;
use crate::statistics::{ServerStatistics, StatisticsMessage};
use crate::width::ConfidenceWidth;

/// The columns of the table (module docs).
pub const COLUMNS: [&str; 27] = [
    "trial",
    "round",
    "sigma_x",
    "sigma_u",
    "shift",
    "lambda_min",
    "lambda_max",
    "data_eig_1",
    "data_eig_2",
    "data_eig_3",
    "noise_eig_min",
    "noise_eig_max",
    "beta_norm",
    "beta_information",
    "beta_approximation",
    "beta_kappa",
    "beta_scale",
    "sqrt_beta",
    "mean_min",
    "mean_max",
    "width_min",
    "width_max",
    "chosen_mean",
    "chosen_width",
    "score_max",
    "boundary_chosen",
    "boundary_offered",
];

/// The rounds (1-based) at which a row is written: `T/8`, `T/4`, `T/2` and `T`, rounded up,
/// without repeats.
pub fn checkpoints(horizon: usize) -> Vec<usize> {
    let mut c: Vec<usize> = [1, 2, 4, 8]
        .iter()
        .map(|k| (horizon * k).div_ceil(8).max(1))
        .collect();
    c.dedup();
    c
}

/// The outer band of a problem's domain (module docs).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Band {
    /// The box `[lo, hi]^d`: a coordinate is in the band when `|x_i - c| > 0.8 (hi - lo) / 2`.
    Box {
        /// The lower end of every coordinate.
        lo: f64,
        /// The upper end of every coordinate.
        hi: f64,
    },
    /// The ball of this radius around 0: a point is in the band (all its coordinates count as
    /// in) when `||x|| > 0.9 radius`.
    Ball {
        /// The radius.
        radius: f64,
    },
}

impl Band {
    /// How many of the coordinates of `x` are in the band.
    fn count(self, x: ArrayView1<'_, f64>) -> usize {
        match self {
            Self::Box { lo, hi } => {
                let (c, h) = (0.5 * (lo + hi), 0.5 * (hi - lo));
                x.iter().filter(|&&v| (v - c).abs() > 0.8 * h).count()
            }
            Self::Ball { radius } => {
                if x.dot(&x).sqrt() > 0.9 * radius {
                    x.len()
                } else {
                    0
                }
            }
        }
    }
}

/// The fraction of coordinates in the band, over the points chosen and over the points offered.
#[derive(Debug, Clone, Copy)]
struct BoundaryCount {
    band: Band,
    chosen: (usize, usize),
    offered: (usize, usize),
}

impl BoundaryCount {
    fn new(band: Band) -> Self {
        Self {
            band,
            chosen: (0, 0),
            offered: (0, 0),
        }
    }

    fn add<M>(&mut self, view: &RoundView<'_, M>) {
        let chosen = view.decision_set.row(view.action);
        self.chosen.0 += self.band.count(chosen);
        self.chosen.1 += chosen.len();
        for row in view.decision_set.rows() {
            self.offered.0 += self.band.count(row);
            self.offered.1 += row.len();
        }
    }

    fn fractions(&self) -> (f64, f64) {
        let f = |(k, n): (usize, usize)| k as f64 / n as f64;
        (f(self.chosen), f(self.offered))
    }
}

/// What the recorder knows of a learner: public parameters and the noise it was calibrated
/// with.
#[derive(Debug, Clone, Copy)]
pub struct Learner {
    /// Theorem 1's width (with the spectrum) the learner uses.
    pub width: ConfidenceWidth,
    /// Noise sd per entry of `Sigma~` (0 without noise).
    pub sigma_x: f64,
    /// Noise sd per entry of `u~` (0 without noise).
    pub sigma_u: f64,
}

/// The recorder of one trial of a learner of this crate (module docs).
#[derive(Debug)]
pub struct Recorder<F> {
    trial: usize,
    checkpoints: Vec<usize>,
    features: Arc<F>,
    learner: Learner,
    shadow: ServerStatistics,
    data: Array2<f64>,
    boundary: BoundaryCount,
    rows: Vec<Vec<f64>>,
    error: Option<JdpQffError>,
}

impl<F: FeatureMap> Recorder<F> {
    /// The recorder of trial `trial` of `horizon` rounds.
    pub fn new(
        trial: usize,
        horizon: usize,
        features: Arc<F>,
        learner: Learner,
        band: Band,
    ) -> Self {
        let m = features.dim();
        Self {
            trial,
            checkpoints: checkpoints(horizon),
            shadow: ServerStatistics::initial(m, learner.width.spectrum().shift),
            data: Array2::zeros((m, m)),
            features,
            learner,
            boundary: BoundaryCount::new(band),
            rows: Vec::new(),
            error: None,
        }
    }

    /// The rows (in the columns of [`COLUMNS`]), or the first error met while recording.
    ///
    /// # Errors
    /// What a round's posterior, features or eigendecomposition reported.
    pub fn finish(self) -> Result<Vec<Vec<f64>>, JdpQffError> {
        self.error.map_or(Ok(self.rows), Err)
    }

    fn row<M>(&self, view: &RoundView<'_, M>) -> Result<Vec<f64>, JdpQffError> {
        let l = &self.learner;
        let s = l.width.spectrum();
        let posterior = Posterior::of(&self.shadow, &l.width)?;
        let (mean, var) = posterior.evaluate(&*self.features, view.decision_set)?;
        let sqrt_beta = posterior.sqrt_beta();
        // The score as `bandit::policy::ucb_argmax` computes it.
        let width = var.mapv(|v| sqrt_beta * v.max(0.0).sqrt());
        let score_max = mean
            .iter()
            .zip(&width)
            .map(|(m, w)| m + w)
            .fold(f64::NEG_INFINITY, f64::max);
        let range = |a: &ndarray::Array1<f64>| {
            a.iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &v| {
                    (lo.min(v), hi.max(v))
                })
        };
        let (mean_min, mean_max) = range(&mean);
        let (width_min, width_max) = range(&width);
        let data = symmetric_eigenvalues("Sigma_t (data)", self.data.view())?;
        let top = |k: usize| data.len().checked_sub(k).map_or(f64::NAN, |i| data[i]);
        let noise = &self.shadow.sigma - &self.data;
        let noise = symmetric_eigenvalues("H_t = Sigma~_t - Sigma_t", noise.view())?;
        let t = posterior.width_terms();
        let (chosen, offered) = self.boundary.fractions();
        Ok(vec![
            self.trial as f64,
            (view.round + 1) as f64,
            l.sigma_x,
            l.sigma_u,
            s.shift,
            s.lambda_min,
            s.lambda_max,
            top(1),
            top(2),
            top(3),
            noise[0],
            noise[noise.len() - 1],
            t.norm,
            t.information,
            t.approximation,
            t.kappa,
            t.scale,
            sqrt_beta,
            mean_min,
            mean_max,
            width_min,
            width_max,
            mean[view.action],
            width[view.action],
            score_max,
            chosen,
            offered,
        ])
    }

    fn record<M: StatisticsMessage + Clone>(
        &mut self,
        view: &RoundView<'_, M>,
    ) -> Result<(), JdpQffError> {
        self.boundary.add(view);
        if self.checkpoints.contains(&(view.round + 1)) {
            let row = self.row(view)?;
            self.rows.push(row);
        }
        view.message.update(&mut self.shadow)?;
        // Sigma_t += Phi Phi^T in place (no m x m temporary per round).
        let phi = self.features.map(view.decision_set.row(view.action))?;
        for (p, mut row) in phi.iter().zip(self.data.outer_iter_mut()) {
            row.scaled_add(*p, &phi);
        }
        Ok(())
    }
}

impl<F: FeatureMap, M: StatisticsMessage + Clone> RoundObserver<M> for Recorder<F> {
    fn on_round(&mut self, view: &RoundView<'_, M>) {
        if self.error.is_none()
            && let Err(e) = self.record(view)
        {
            self.error = Some(e);
        }
    }
}

/// Append `row` to `table` (a row of [`COLUMNS`]).
///
/// # Errors
/// [`validation::InputError::DimensionMismatch`] when the row is not one value per column.
pub fn push(table: &mut RunTable, row: Vec<f64>) -> Result<(), JdpQffError> {
    let got = row.len();
    table.push(row).map_err(|_| {
        JdpQffError::Input(validation::InputError::DimensionMismatch {
            context: "diagnostics row (one value per column)",
            expected: table.columns().len(),
            got,
        })
    })
}

/// The recorder of one trial of uniform play: the boundary fractions only.
#[derive(Debug)]
pub struct UniformRecorder {
    trial: usize,
    checkpoints: Vec<usize>,
    boundary: BoundaryCount,
    rows: Vec<Vec<f64>>,
}

impl UniformRecorder {
    /// The recorder of trial `trial` of `horizon` rounds.
    pub fn new(trial: usize, horizon: usize, band: Band) -> Self {
        Self {
            trial,
            checkpoints: checkpoints(horizon),
            boundary: BoundaryCount::new(band),
            rows: Vec::new(),
        }
    }

    /// The rows, in the columns of [`COLUMNS`].
    pub fn finish(self) -> Vec<Vec<f64>> {
        self.rows
    }
}

impl<M> RoundObserver<M> for UniformRecorder {
    fn on_round(&mut self, view: &RoundView<'_, M>) {
        self.boundary.add(view);
        if self.checkpoints.contains(&(view.round + 1)) {
            let (chosen, offered) = self.boundary.fractions();
            let mut row = vec![f64::NAN; COLUMNS.len()];
            row[0] = self.trial as f64;
            row[1] = (view.round + 1) as f64;
            row[COLUMNS.len() - 2] = chosen;
            row[COLUMNS.len() - 1] = offered;
            self.rows.push(row);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn checkpoints_are_the_eighth_quarter_half_and_end() {
        assert_eq!(checkpoints(10_000), vec![1250, 2500, 5000, 10_000]);
        assert_eq!(checkpoints(1024), vec![128, 256, 512, 1024]);
        assert_eq!(checkpoints(3), vec![1, 2, 3]);
        assert_eq!(checkpoints(1), vec![1]);
    }

    #[test]
    fn the_band_is_the_outer_fifth_of_a_box_side_and_the_outer_tenth_of_a_ball() {
        let b = Band::Box { lo: -0.5, hi: 0.5 };
        assert_eq!(b.count(array![0.41, -0.45, 0.39, 0.0].view()), 2);
        let ball = Band::Ball { radius: 2.0 };
        assert_eq!(ball.count(array![1.9, 0.0].view()), 2);
        assert_eq!(ball.count(array![1.0, 1.0].view()), 0);
    }
}
