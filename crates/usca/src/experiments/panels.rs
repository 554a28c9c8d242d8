//! The five figures as data: each figure's setting (problem, USCA's parameters), its
//! curves and the claims every figure tests.

use bandit::experiment::{At, Band, Budget, Claim, ExperimentError, Figure, Metric, Problem};

use serde::Serialize;

use crate::approximating_set::ApproximatingSetSize;
use crate::params::UscaParams;
use crate::sensitivity::SensitivityRule;
use crate::synthetic::{KernelFamily, SyntheticProblem};

/// `log2` of the smallest horizon.
pub const FIRST_LOG2_T: i64 = 6;
/// Evaluation contexts per error rate.
pub const EVAL_CONTEXTS: usize = 200;
/// The privacy budgets of the certified-USCA curves.
pub const EPSILONS: [f64; 4] = [0.1, 0.5, 1.0, 2.0];
/// The curve labels, in drawing order.
pub const CURVES: [&str; 8] = [
    "usca-eps0.1",
    "usca-eps0.5",
    "usca-eps1",
    "usca-eps2",
    "usca-nonprivate",
    "usca-eps1-proven",
    "posterior-mean",
    "naive-eps1",
];

/// The claims every figure tests at the largest `T` (the error rate of the last horizon),
/// paired over trials (a new `f` per trial on the synthetic figures, the one instance of the
/// light sensors): Theorem 4.1's two terms (the privacy term `gamma_T / (T eps)` grows as
/// `eps` shrinks; `eps -> inf` leaves `sqrt(gamma_T / T)`), and two of ours
/// (docs/usca.md): the certified sensitivity beats the proven one at `tau = 1`, and USCA beats
/// the naive private predictor at the same `eps`.
pub fn claims() -> Vec<Claim> {
    vec![
        Claim::rising(
            "error-grows-as-eps-shrinks",
            "Theorem 4.1: ER = O(sqrt(gamma_T / T) + gamma_T / (T eps)), the privacy term grows \
             as eps shrinks",
            ["usca-eps2", "usca-eps1", "usca-eps0.5", "usca-eps0.1"],
            At::Last,
        ),
        Claim::below(
            "non-private-below-eps1",
            "Theorem 4.1: as eps -> inf the error rate reduces to O(sqrt(gamma_T / T))",
            "usca-nonprivate",
            "usca-eps1",
            At::Last,
        ),
        Claim::below(
            "certified-below-proven",
            "ours (docs/usca.md): at tau = 1 the certified sensitivity learns, the proven 2B/tau \
             does not",
            "usca-eps1",
            "usca-eps1-proven",
            At::Last,
        ),
        Claim::below(
            "usca-below-naive",
            "ours (docs/usca.md): USCA beats the naive exponential mechanism on the posterior \
             mean at the same eps",
            "usca-eps1",
            "naive-eps1",
            At::Last,
        ),
    ]
}

/// One figure: its description (error rate against `log2 T`, standard-error bands, its draws,
/// [`claims`]), its [`Setting`], its budget (20 trials, `T = 2^6 .. 2^13`) and its curves,
/// each a label of [`CURVES`] with its index there.
pub type Panel = bandit::experiment::Panel<Setting, usize>;

/// The five figures (module docs).
pub fn panels() -> Vec<Panel> {
    [
        ("er-se-1d", "SE x SE, C = [0, 1]"),
        ("er-matern-1d", "Matern-5/2 factors, C = [0, 1]"),
        ("er-se-2d", "SE x SE, C = [0, 1]^2"),
        ("er-matern-2d", "Matern-5/2 factors, C = [0, 1]^2"),
        (
            "er-light",
            "light sensors: sensor = action, ambient level = context",
        ),
    ]
    .into_iter()
    .map(|(id, caption)| {
        let s = setting(id).expect("every id of the table has a setting");
        let draws = match s.source {
            Source::LightSensor => Problem::Fixed,
            Source::Synthetic(_) => Problem::RandomPerTrial,
        };
        Panel::new(id, caption, s, CURVES.iter().copied().zip(0..))
            .with_budget(Budget {
                trials: 20,
                horizon: 8,
            })
            .with_figure(|f| {
                let f = f
                    .with_metric(Metric::ErrorRate)
                    .with_band(Band::StandardError)
                    .with_first_round(FIRST_LOG2_T)
                    .with_problem(draws);
                claims().into_iter().fold(f, Figure::with_claim)
            })
    })
    .collect()
}

/// Where a figure's problem comes from.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub enum Source {
    /// A synthetic problem, a new `f` per trial.
    Synthetic(SyntheticProblem),
    /// The light-sensor instance ([`crate::light_sensor`]), the same for every trial.
    LightSensor,
}

/// The setting of one figure.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Setting {
    /// The problem.
    pub source: Source,
    /// USCA's parameters (the certified curves; the proven curve swaps the rule).
    pub params: UscaParams,
}

/// The setting of figure `id`.
pub fn setting(id: &str) -> Result<Setting, ExperimentError> {
    if id == "er-light" {
        return Ok(Setting {
            source: Source::LightSensor,
            params: UscaParams {
                reward_bound: 1.0,
                approximating_set: ApproximatingSetSize::Capped { cap: 1024 },
                sensitivity: SensitivityRule::Certified { points_per_dim: 64 },
                ..UscaParams::default()
            },
        });
    }
    let (family, context_dim) = match id {
        "er-se-1d" => (KernelFamily::SquaredExponential, 1),
        "er-matern-1d" => (KernelFamily::Matern52, 1),
        "er-se-2d" => (KernelFamily::SquaredExponential, 2),
        "er-matern-2d" => (KernelFamily::Matern52, 2),
        other => {
            return Err(ExperimentError::UnknownFigure {
                paper: "usca",
                id: other.to_string(),
                known: "er-se-1d,er-matern-1d,er-se-2d,er-matern-2d,er-light".into(),
            });
        }
    };
    Ok(Setting {
        source: Source::Synthetic(SyntheticProblem {
            family,
            context_dim,
            ..SyntheticProblem::default()
        }),
        params: UscaParams {
            approximating_set: ApproximatingSetSize::Capped { cap: 1024 },
            sensitivity: SensitivityRule::Certified {
                points_per_dim: if context_dim == 1 { 64 } else { 20 },
            },
            ..UscaParams::default()
        },
    })
}
