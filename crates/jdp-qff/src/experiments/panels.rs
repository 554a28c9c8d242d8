//! The panels of Section 6 as data: each curve's setting, the paper's claims and Table 1's
//! numbers.

use bandit::experiment::{self, At, Budget, Claim};
use serde::{Deserialize, Serialize};

use super::problems::Problem;
use crate::profile::Profile;

/// Non-private, `(alpha, beta)`-JDP (Algorithms 1 + 2) or local JDP (Algorithm 3), and the
/// uniform random choice from `D_t` as a reference (not an algorithm of the paper).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum Setting {
    /// A uniformly random point of `D_t` each round ([`bandit::baselines::UniformRandom`]):
    /// the regret of learning nothing, drawn beside Table 1's curves so a reader can see how
    /// far a private run is from it.
    Uniform,
    /// Exact statistics.
    NonPrivate,
    /// The tree-based JDP privatizer.
    Jdp {
        /// alpha.
        alpha: f64,
        /// beta.
        beta: f64,
    },
    /// Local JDP clients.
    LocalJdp {
        /// alpha.
        alpha: f64,
        /// beta.
        beta: f64,
    },
    /// The tree-based JDP privatizer under a named profile, whatever profile the rest of the
    /// run uses (a comparison curve; its label names the profile).
    JdpProfile {
        /// alpha.
        alpha: f64,
        /// beta.
        beta: f64,
        /// The profile.
        profile: Profile,
    },
    /// Ablation, never private: the JDP server fed Algorithm 2's releases without noise, with
    /// the same PSD shift and the same width as the `Jdp` curve of this `(alpha, beta)`.
    JdpNoiseFree {
        /// alpha.
        alpha: f64,
        /// beta.
        beta: f64,
    },
    /// Ablation: the JDP algorithm with Theorem 1's width times `width_scale`, noise and shift
    /// unchanged (outside Theorem 1).
    JdpWidthScaled {
        /// alpha.
        alpha: f64,
        /// beta.
        beta: f64,
        /// The multiplier on `beta_t^{1/2}`.
        width_scale: f64,
    },
}

impl Setting {
    /// Whether the run's profile (`--preset`) applies: every private setting except a
    /// [`Setting::JdpProfile`] (which names its own); not uniform play or the non-private
    /// algorithm.
    pub fn follows_profile(&self) -> bool {
        matches!(
            self,
            Self::Jdp { .. }
                | Self::LocalJdp { .. }
                | Self::JdpNoiseFree { .. }
                | Self::JdpWidthScaled { .. }
        )
    }
}

/// One figure (or Table 1 row group) of Section 6: its figure (with its problem's draws and its
/// claims, [`claims`]), its problem, its budget (the paper's trials and rounds per trial) and
/// each curve's label with its setting.
pub type Panel = experiment::Panel<Problem, Setting>;

fn jdp_setting(alpha: f64, beta: f64) -> Setting {
    Setting::Jdp { alpha, beta }
}

/// A panel of Section 6 on `problem`, with the paper's `trials x horizon`.
fn panel<S: Into<String>>(
    id: &'static str,
    caption: &'static str,
    problem: Problem,
    curves: impl IntoIterator<Item = (S, Setting)>,
    trials: usize,
    horizon: usize,
) -> Panel {
    experiment::Panel::new(id, caption, problem, curves)
        .with_budget(Budget { trials, horizon })
        .with_figure(|f| {
            claims(id).into_iter().fold(
                f.with_problem(problem.draws()),
                experiment::Figure::with_claim,
            )
        })
}

/// The width multiplier of the width ablation (the review's measurement used it).
pub const ABLATION_WIDTH_SCALE: f64 = 0.01;

/// The panels of Section 6, in the paper's order.
pub fn panels() -> Vec<Panel> {
    // Table 1: the paper's rows, uniform play, the tightened profile at alpha = 1 and the two
    // ablations at the alpha whose explanation the review contested (Camelback alpha = 1,
    // Michalewicz alpha = 10; the same pair on Styblinski-Tang at alpha = 1).
    let table1 = |id, caption, problem, (a, ablated): (&'static str, f64)| {
        panel(
            id,
            caption,
            problem,
            [
                ("uniform".to_string(), Setting::Uniform),
                ("non-private".into(), Setting::NonPrivate),
                ("alpha-10".into(), jdp_setting(10.0, 0.1)),
                ("alpha-1".into(), jdp_setting(1.0, 0.1)),
                ("alpha-0.1".into(), jdp_setting(0.1, 0.1)),
                (
                    "alpha-1-tightened".into(),
                    Setting::JdpProfile {
                        alpha: 1.0,
                        beta: 0.1,
                        profile: Profile::Tightened,
                    },
                ),
                (
                    format!("{a}-noise-free"),
                    Setting::JdpNoiseFree {
                        alpha: ablated,
                        beta: 0.1,
                    },
                ),
                (
                    format!("{a}-width-x{ABLATION_WIDTH_SCALE}"),
                    Setting::JdpWidthScaled {
                        alpha: ablated,
                        beta: 0.1,
                        width_scale: ABLATION_WIDTH_SCALE,
                    },
                ),
            ],
            10,
            10_000,
        )
        .with_figure(|f| {
            f.with_ablation(
                format!("{a}-noise-free"),
                a,
                "the releases without noise, the same PSD shift and the same width",
                ["regret-grows-as-alpha-shrinks"],
            )
            .with_ablation(
                format!("{a}-width-x{ABLATION_WIDTH_SCALE}"),
                a,
                format!("Theorem 1's width times {ABLATION_WIDTH_SCALE}, the same noise and shift"),
                ["regret-grows-as-alpha-shrinks"],
            )
            .with_ablation(
                "alpha-1-tightened",
                "alpha-1",
                "the tightened profile (exact packed sensitivity, CKS conversion, derived \
                 spectral bounds): less noise and shift for the same (alpha, beta)",
                ["regret-grows-as-alpha-shrinks"],
            )
        })
    };
    vec![
        panel(
            "fig1",
            "JDP, beta = 0.1, varying alpha (synthetic, d = 2)",
            Problem::Dubey,
            [
                ("non-private", Setting::NonPrivate),
                ("alpha-10", jdp_setting(10.0, 0.1)),
                ("alpha-1", jdp_setting(1.0, 0.1)),
                ("alpha-0.5", jdp_setting(0.5, 0.1)),
                ("alpha-0.1", jdp_setting(0.1, 0.1)),
            ],
            20,
            1024,
        ),
        panel(
            "fig2",
            "JDP, alpha = 1, varying beta (synthetic, d = 2)",
            Problem::Dubey,
            [
                ("non-private", Setting::NonPrivate),
                ("beta-0.99", jdp_setting(1.0, 0.99)),
                ("beta-0.5", jdp_setting(1.0, 0.5)),
                ("beta-0.1", jdp_setting(1.0, 0.1)),
                ("beta-0.01", jdp_setting(1.0, 0.01)),
            ],
            20,
            1024,
        ),
        panel(
            "remark7",
            "local JDP vs JDP, beta = 0.1 (synthetic, d = 2; Remark 7: T^(3/4))",
            Problem::Dubey,
            [
                ("non-private", Setting::NonPrivate),
                ("JDP-alpha-1", jdp_setting(1.0, 0.1)),
                (
                    "local-alpha-10",
                    Setting::LocalJdp {
                        alpha: 10.0,
                        beta: 0.1,
                    },
                ),
                (
                    "local-alpha-1",
                    Setting::LocalJdp {
                        alpha: 1.0,
                        beta: 0.1,
                    },
                ),
            ],
            20,
            1024,
        ),
        table1(
            "table1-camelback",
            "Table 1, Camelback (d = 2)",
            Problem::Camelback,
            ("alpha-1", 1.0),
        ),
        table1(
            "table1-styblinski-tang-20",
            "Table 1, Styblinski-Tang (d = 20)",
            Problem::StyblinskiTang20,
            ("alpha-1", 1.0),
        ),
        table1(
            "table1-michalewicz-10",
            "Table 1, Michalewicz (d = 10)",
            Problem::Michalewicz10,
            ("alpha-10", 10.0),
        ),
    ]
}

/// The paper's claims about panel `id`, in its words (Section 6), tested over the panel's
/// trials: independent problem draws on the synthetic of Section 6.1 (a new objective per
/// trial, [`Problem::draws`]), independent runs on each fixed benchmark of Table 1. Every
/// claim compares the final cumulative regret `R_T`.
pub fn claims(id: &str) -> Vec<Claim> {
    let rising = |cid: &str, src: &str, curves: &[&str]| {
        Claim::rising(cid, src, curves.iter().copied(), At::Last)
    };
    match id {
        "fig1" => vec![rising(
            "regret-grows-as-alpha-shrinks",
            "Sec. 6.1: the regret scales as predicted with decreasing alpha",
            &["alpha-10", "alpha-1", "alpha-0.5", "alpha-0.1"],
        )],
        "fig2" => vec![rising(
            "regret-grows-as-beta-shrinks",
            "Sec. 6.1: the regret increases with decreasing beta",
            &["beta-0.99", "beta-0.5", "beta-0.1", "beta-0.01"],
        )],
        "remark7" => vec![Claim::below(
            "jdp-below-local",
            "Remark 7: local JDP's T^(3/4) regret against JDP's near-sqrt(T), at alpha = 1",
            "JDP-alpha-1",
            "local-alpha-1",
            At::Last,
        )],
        "table1-camelback" | "table1-styblinski-tang-20" | "table1-michalewicz-10" => {
            vec![rising(
                "regret-grows-as-alpha-shrinks",
                "Sec. 6.2: a consistent increase in regret as the privacy budget alpha is \
                 reduced (Table 1, the non-private row lowest)",
                &["non-private", "alpha-10", "alpha-1", "alpha-0.1"],
            )]
        }
        _ => Vec::new(),
    }
}

/// The paper's Table 1 (rows: non-private, alpha = 10, 1, 0.1; columns: Camelback,
/// Styblinski-Tang-20, Michalewicz-10).
pub const PAPER_TABLE1: [(&str, [f64; 3]); 4] = [
    ("non-private", [519.0, 885.0, 901.0]),
    ("alpha-10", [775.0, 1667.0, 1558.0]),
    ("alpha-1", [1029.0, 2680.0, 2883.0]),
    ("alpha-0.1", [3324.0, 4493.0, 5002.0]),
];
