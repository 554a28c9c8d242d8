//! The figures as data: each figure's setting (problem, USCA's parameters, what is swept), its
//! curves and the claims it tests.

use bandit::experiment::{At, Band, Budget, Claim, ExperimentError, Figure, Metric, Problem};

use serde::Serialize;

use crate::approximating_set::ApproximatingSetSize;
use crate::certificate::DEFAULT_REFINEMENT_CONTEXTS;
use crate::params::UscaParams;
use crate::sensitivity::SensitivityRule;
use crate::synthetic::{KernelFamily, SyntheticProblem};

/// `log2` of the smallest horizon of the error-rate figures.
pub const FIRST_LOG2_T: i64 = 6;
/// Evaluation contexts per error rate.
pub const EVAL_CONTEXTS: usize = 200;
/// The privacy budgets of the private curves.
pub const EPSILONS: [f64; 4] = [0.5, 1.0, 2.0, 8.0];
/// The horizon of the two sweeps.
pub const SWEEP_T: usize = 4096;
/// `log2` of the smallest `tau` of the tau sweep (`tau = 2^-3, ..., 2^8` at its full budget).
pub const FIRST_LOG2_TAU: i64 = -3;
/// `log2` of the smallest `|Z|` of the `|Z|` sweep (`|Z| = 2^6, ..., 2^12` at its full budget).
pub const FIRST_LOG2_Z: i64 = 6;
/// The `|Z|` of the error-rate figures (their cap), the reference point of the `|Z|` sweep.
pub const Z_CAP: usize = 1024;

/// What one curve computes from a trial's shared fit.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub enum Curve {
    /// USCA, certified sensitivity, at `eps`.
    Certified(f64),
    /// USCA, certified sensitivity from the uniform grid alone (no refinement), at `eps`: the
    /// ablation of the certificate's refinement.
    CertifiedUniform(f64),
    /// USCA, query-context sensitivity with the certified `S`, at `eps`.
    QueryContext(f64),
    /// USCA, proven `Delta = 2 B / tau`, at `eps`.
    Proven(f64),
    /// The verbatim fixed smoother (`rho = K tau`) with the proven `Delta`, at `eps`.
    Verbatim(f64),
    /// The exponential mechanism on the GP posterior mean with `Delta_naive`, at `eps`.
    Naive(f64),
    /// `argmax_x mu_T(x, c)` (not private).
    NonPrivate,
    /// `argmax_x` of the GP posterior mean (not private).
    PosteriorMean,
    /// A sweep's reference: `curve` at the sweep point `2^log2`, the same value at every point
    /// (so that a claim can compare a point of the sweep with it).
    Reference {
        /// What is computed there.
        curve: Base,
        /// `log2` of the swept parameter where it is computed.
        log2: i64,
    },
}

/// The curves a [`Curve::Reference`] can repeat.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub enum Base {
    /// [`Curve::Proven`] at `eps`.
    Proven(f64),
    /// [`Curve::Certified`] at `eps`.
    Certified(f64),
    /// [`Curve::NonPrivate`].
    NonPrivate,
}

impl Base {
    /// As a curve.
    pub fn curve(self) -> Curve {
        match self {
            Self::Proven(e) => Curve::Proven(e),
            Self::Certified(e) => Curve::Certified(e),
            Self::NonPrivate => Curve::NonPrivate,
        }
    }
}

/// The curves of the error-rate figures: five predictors at the four `eps`, then the two
/// non-private ones, then the ablation of the certificate's refinement at `eps = 1`.
pub const HORIZON_CURVES: [(&str, Curve); 23] = [
    ("certified-eps0.5", Curve::Certified(0.5)),
    ("certified-eps1", Curve::Certified(1.0)),
    ("certified-eps2", Curve::Certified(2.0)),
    ("certified-eps8", Curve::Certified(8.0)),
    ("query-context-eps0.5", Curve::QueryContext(0.5)),
    ("query-context-eps1", Curve::QueryContext(1.0)),
    ("query-context-eps2", Curve::QueryContext(2.0)),
    ("query-context-eps8", Curve::QueryContext(8.0)),
    ("proven-eps0.5", Curve::Proven(0.5)),
    ("proven-eps1", Curve::Proven(1.0)),
    ("proven-eps2", Curve::Proven(2.0)),
    ("proven-eps8", Curve::Proven(8.0)),
    ("verbatim-eps0.5", Curve::Verbatim(0.5)),
    ("verbatim-eps1", Curve::Verbatim(1.0)),
    ("verbatim-eps2", Curve::Verbatim(2.0)),
    ("verbatim-eps8", Curve::Verbatim(8.0)),
    ("naive-eps0.5", Curve::Naive(0.5)),
    ("naive-eps1", Curve::Naive(1.0)),
    ("naive-eps2", Curve::Naive(2.0)),
    ("naive-eps8", Curve::Naive(8.0)),
    ("usca-nonprivate", Curve::NonPrivate),
    ("posterior-mean", Curve::PosteriorMean),
    ("certified-uniform-eps1", Curve::CertifiedUniform(1.0)),
];

/// The curves of the tau sweep (`T` = [`SWEEP_T`]).
/// (No posterior mean: its `T x T` fit at every `tau` would be half the sweep's time.)
pub const TAU_CURVES: [(&str, Curve); 8] = [
    ("proven-eps0.5", Curve::Proven(0.5)),
    ("proven-eps1", Curve::Proven(1.0)),
    ("proven-eps2", Curve::Proven(2.0)),
    ("proven-eps8", Curve::Proven(8.0)),
    ("certified-eps1", Curve::Certified(1.0)),
    ("query-context-eps1", Curve::QueryContext(1.0)),
    ("usca-nonprivate", Curve::NonPrivate),
    (
        "proven-eps1-at-tau1",
        Curve::Reference {
            curve: Base::Proven(1.0),
            log2: 0,
        },
    ),
];

/// The curves of the `|Z|` sweep (`T` = [`SWEEP_T`], `tau = 1`).
pub const Z_CURVES: [(&str, Curve); 7] = [
    ("certified-eps1", Curve::Certified(1.0)),
    ("query-context-eps1", Curve::QueryContext(1.0)),
    ("proven-eps1", Curve::Proven(1.0)),
    ("usca-nonprivate", Curve::NonPrivate),
    ("posterior-mean", Curve::PosteriorMean),
    (
        "usca-nonprivate-at-z1024",
        Curve::Reference {
            curve: Base::NonPrivate,
            log2: 10,
        },
    ),
    (
        "certified-eps1-at-z1024",
        Curve::Reference {
            curve: Base::Certified(1.0),
            log2: 10,
        },
    ),
];

/// What a figure sweeps.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub enum Sweep {
    /// `T = 2^(6 + i)`, `i = 0 .. horizon - 1`, each an independent learning stage.
    Horizons,
    /// `tau = 2^(FIRST_LOG2_TAU + i)` at `T` = [`SWEEP_T`], on one learning stage per trial.
    Tau,
    /// `|Z| = 2^(FIRST_LOG2_Z + i)` at `T` = [`SWEEP_T`], `tau` of the setting, on one learning
    /// stage per trial.
    ApproximatingSet,
}

impl Sweep {
    /// The curves of a figure of this kind.
    pub fn curves(self) -> &'static [(&'static str, Curve)] {
        match self {
            Self::Horizons => &HORIZON_CURVES,
            Self::Tau => &TAU_CURVES,
            Self::ApproximatingSet => &Z_CURVES,
        }
    }

    /// `log2` of the first sweep point.
    pub fn first(self) -> i64 {
        match self {
            Self::Horizons => FIRST_LOG2_T,
            Self::Tau => FIRST_LOG2_TAU,
            Self::ApproximatingSet => FIRST_LOG2_Z,
        }
    }

    fn metric(self) -> Metric {
        match self {
            Self::Horizons => Metric::ErrorRate,
            Self::Tau => Metric::ErrorRateAgainst {
                x: "log2 tau (T = 4096)",
            },
            Self::ApproximatingSet => Metric::ErrorRateAgainst {
                x: "log2 |Z| (T = 4096, tau = 1)",
            },
        }
    }

    fn budget(self) -> Budget {
        match self {
            Self::Horizons => Budget {
                trials: 20,
                horizon: 8,
            },
            Self::Tau => Budget {
                trials: 20,
                horizon: 12,
            },
            Self::ApproximatingSet => Budget {
                trials: 20,
                horizon: 7,
            },
        }
    }
}

/// The claims of the error-rate figures, at the largest `T` (the error rate of the last
/// horizon), paired over trials (a new `f` per trial on the synthetic figures, the one instance
/// of the light sensors). The rules' conclusions are stated for the `tau = 1` they are measured
/// at.
pub fn horizon_claims() -> Vec<Claim> {
    vec![
        Claim::rising(
            "error-grows-as-eps-shrinks",
            "Theorem 4.1: ER = O(sqrt(gamma_T / T) + gamma_T / (T eps)), the privacy term grows \
             as eps shrinks (certified USCA)",
            [
                "certified-eps8",
                "certified-eps2",
                "certified-eps1",
                "certified-eps0.5",
            ],
            At::Last,
        ),
        Claim::below(
            "non-private-below-eps1",
            "Theorem 4.1: as eps -> inf the error rate reduces to O(sqrt(gamma_T / T))",
            "usca-nonprivate",
            "certified-eps1",
            At::Last,
        ),
        Claim::below(
            "certified-below-proven",
            "ours (docs/usca.md): at tau = 1 the certified sensitivity does better than the proven \
             2B/tau",
            "certified-eps1",
            "proven-eps1",
            At::Last,
        ),
        Claim::below(
            "query-context-below-certified",
            "ours (docs/usca.md): the query-context Delta(c) <= the certified Delta gives a lower \
             error rate",
            "query-context-eps1",
            "certified-eps1",
            At::Last,
        ),
        Claim::below(
            "verbatim-below-certified",
            "independent review (issue 27, finding 2): the verbatim smoother rho = K tau with \
             Delta = 2B/tau beats certified USCA at eps = 1 (tau = 1)",
            "verbatim-eps1",
            "certified-eps1",
            At::Last,
        ),
        Claim::below(
            "refinement-below-uniform",
            "ours (docs/usca.md): the certificate refined around the maximum (a smaller slack) \
             gives a lower error rate than the uniform grid alone at eps = 1",
            "certified-eps1",
            "certified-uniform-eps1",
            At::Last,
        ),
        Claim::below(
            "usca-below-naive",
            "ours (docs/usca.md): USCA beats the naive exponential mechanism on the posterior \
             mean at the same eps",
            "certified-eps1",
            "naive-eps1",
            At::Last,
        ),
    ]
}

/// The claims of the tau sweep (round 11 is `tau = 2^7 = 128`).
pub fn tau_claims() -> Vec<Claim> {
    vec![Claim::below(
        "proven-learns-at-tau128",
        "independent review (issue 27, finding 1): at T = 4096, eps = 1, the proven rule at \
         tau = 128 has a far lower error rate than at tau = 1",
        "proven-eps1",
        "proven-eps1-at-tau1",
        At::Round(11),
    )]
}

/// The claims of the `|Z|` sweep (the last point is `|Z| = 4096`, the reference `1024`).
pub fn z_claims() -> Vec<Claim> {
    vec![
        Claim::below(
            "nonprivate-better-with-4096-points",
            "docs/usca.md (before issue 27): capping |Z| at 1024 limits the non-private USCA, so \
             |Z| = 4096 does better at T = 4096",
            "usca-nonprivate",
            "usca-nonprivate-at-z1024",
            At::Last,
        ),
        Claim::below(
            "certified-better-with-4096-points",
            "ours: a larger Z lowers the certified sup sigma^2, so |Z| = 4096 does better than \
             1024 at eps = 1",
            "certified-eps1",
            "certified-eps1-at-z1024",
            At::Last,
        ),
    ]
}

/// One figure: its description (error rate against `log2 T`, `log2 tau` or `log2 |Z|`,
/// standard-error bands, its draws, its claims), its [`Setting`], its budget and its curves,
/// each a label with its index in the setting's [`Sweep::curves`].
pub type Panel = bandit::experiment::Panel<Setting, usize>;

/// The figure ids and captions.
const FIGURES: [(&str, &str); 7] = [
    ("er-se-1d", "SE x SE, C = [0, 1]"),
    ("er-matern-1d", "Matern-5/2 factors, C = [0, 1]"),
    ("er-se-2d", "SE x SE, C = [0, 1]^2"),
    ("er-matern-2d", "Matern-5/2 factors, C = [0, 1]^2"),
    (
        "er-light",
        "light sensors: sensor = action, ambient level = context",
    ),
    (
        "tau-sweep-se-1d",
        "SE x SE, C = [0, 1]: error rate against tau at T = 4096",
    ),
    (
        "z-sweep-se-1d",
        "SE x SE, C = [0, 1]: error rate against |Z| at T = 4096, tau = 1",
    ),
];

/// The figures (module docs of `experiments`).
pub fn panels() -> Vec<Panel> {
    FIGURES
        .into_iter()
        .map(|(id, caption)| {
            let s = setting(id).expect("every id of the table has a setting");
            let draws = match s.source {
                Source::LightSensor => Problem::Fixed,
                Source::Synthetic(_) => Problem::RandomPerTrial,
            };
            let claims = match s.sweep {
                Sweep::Horizons => horizon_claims(),
                Sweep::Tau => tau_claims(),
                Sweep::ApproximatingSet => z_claims(),
            };
            Panel::new(
                id,
                caption,
                s,
                s.sweep.curves().iter().map(|(l, _)| *l).zip(0..),
            )
            .with_budget(s.sweep.budget())
            .with_figure(|f| {
                let f = f
                    .with_metric(s.sweep.metric())
                    .with_band(Band::StandardError)
                    .with_first_round(s.sweep.first())
                    .with_problem(draws);
                claims.into_iter().fold(f, Figure::with_claim)
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
    /// USCA's parameters (the certified rule; the other curves change the rule, the regulariser,
    /// or the swept parameter).
    pub params: UscaParams,
    /// What the figure sweeps.
    pub sweep: Sweep,
}

/// The setting of figure `id`.
pub fn setting(id: &str) -> Result<Setting, ExperimentError> {
    if id == "er-light" {
        return Ok(Setting {
            source: Source::LightSensor,
            params: UscaParams {
                reward_bound: 1.0,
                approximating_set: ApproximatingSetSize::Capped { cap: Z_CAP },
                sensitivity: SensitivityRule::Certified {
                    points_per_dim: 64,
                    refinement_contexts: DEFAULT_REFINEMENT_CONTEXTS,
                },
                ..UscaParams::default()
            },
            sweep: Sweep::Horizons,
        });
    }
    let (family, context_dim, sweep) = match id {
        "er-se-1d" => (KernelFamily::SquaredExponential, 1, Sweep::Horizons),
        "er-matern-1d" => (KernelFamily::Matern52, 1, Sweep::Horizons),
        "er-se-2d" => (KernelFamily::SquaredExponential, 2, Sweep::Horizons),
        "er-matern-2d" => (KernelFamily::Matern52, 2, Sweep::Horizons),
        "tau-sweep-se-1d" => (KernelFamily::SquaredExponential, 1, Sweep::Tau),
        "z-sweep-se-1d" => (KernelFamily::SquaredExponential, 1, Sweep::ApproximatingSet),
        other => {
            return Err(ExperimentError::UnknownFigure {
                paper: "usca",
                id: other.to_string(),
                known: FIGURES
                    .iter()
                    .map(|(id, _)| *id)
                    .collect::<Vec<_>>()
                    .join(","),
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
            approximating_set: ApproximatingSetSize::Capped { cap: Z_CAP },
            sensitivity: SensitivityRule::Certified {
                points_per_dim: if context_dim == 1 { 64 } else { 20 },
                refinement_contexts: DEFAULT_REFINEMENT_CONTEXTS,
            },
            ..UscaParams::default()
        },
        sweep,
    })
}
