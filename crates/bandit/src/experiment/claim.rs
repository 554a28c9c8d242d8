//! A figure's claims as data, tested with paired tests across problem draws, and the ablations
//! that explain what does or does not hold.
//!
//! A reproduction is a statement about an algorithm, not about one random draw. A [`Claim`] is
//! what the paper says about a figure (an ordering between two curves at a round or over a
//! window of rounds, or a monotone trend over a sweep of curves); [`evaluate`] tests it over the
//! figure's problem draws with the paired tests of [`super::paired`] and concludes
//! [`ClaimVerdict::Holds`], [`ClaimVerdict::DoesNotHold`] or [`ClaimVerdict::Inconclusive`].
//!
//! # The paired values
//!
//! Trial `i` of every curve of a figure is seeded from `(base seed, i)` ([`crate::runner`]), so
//! the curves of a figure see the same problem draw in trial `i` (for a figure whose problem is
//! random, [`Problem::RandomPerTrial`]) and the same reward noise where the algorithms query
//! the same points. Draw `d` groups trials `d k .. d k + k - 1` for `k =`
//! [`Figure::trials_per_draw`](super::Figure::trials_per_draw); its value of a curve is the
//! mean over those trials of the figure's metric at the claim's round (or its mean over the
//! claim's window). The pairs are the draws.
//!
//! # Verdicts
//!
//! For "`a` below `b`" at level `alpha` (one-sided, [`LEVEL`] unless stated): HOLDS when the
//! exact sign test's p-value of "below" is at most `alpha`; DOES NOT HOLD when the p-value of
//! the reverse ordering ("above") is at most `alpha`; otherwise INCONCLUSIVE. The sign test is
//! the verdict's test because it assumes nothing about the differences' distribution; the
//! Wilcoxon signed-rank p-values are reported beside it. A trend over `k` curves holds when each
//! of its `k - 1` consecutive orderings holds at `alpha / (k - 1)` (Bonferroni), does not hold
//! when one of them is reversed at that level, and is inconclusive otherwise.
//!
//! On a figure whose problem is fixed (a data set), the draws are independent runs on that one
//! problem: the verdict is a statement about the algorithms on that problem, and the output
//! says so ([`Problem::Fixed`]).

use serde::Serialize;

use super::paired::{PairedTest, paired_test};
use super::{ExperimentError, FigureResult};

/// The one-sided level of every claim's test unless the claim states its own: the probability
/// that a claim is declared to hold (or to be reversed) when the two curves do not differ.
pub const LEVEL: f64 = 0.01;

/// Whether a figure's problem is drawn anew in each trial or fixed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Problem {
    /// A new problem (function, agents, contexts) in each trial: the draws are independent
    /// problems, and a claim that holds is a statement about the algorithms on the problem
    /// class.
    RandomPerTrial,
    /// One problem (a data set) in every trial: the draws are independent runs on it.
    #[default]
    Fixed,
}

impl Problem {
    /// What a draw is, in words, for the summary.
    pub fn draws_are(self) -> &'static str {
        match self {
            Self::RandomPerTrial => "independent problem draws",
            Self::Fixed => "independent runs on the one fixed problem",
        }
    }
}

/// Where along the curves a claim compares them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum At {
    /// The last recorded round (`R_T` of cumulative regret).
    Last,
    /// Recorded round `t` (1-based index into the record, whatever the figure's axis numbers).
    Round(usize),
    /// The mean over recorded rounds `from..=to` (1-based).
    Window {
        /// First round of the window.
        from: usize,
        /// Last round of the window.
        to: usize,
    },
}

impl At {
    fn describe(&self) -> String {
        match self {
            Self::Last => "at the last round".into(),
            Self::Round(t) => format!("at round {t}"),
            Self::Window { from, to } => format!("over rounds {from}-{to}"),
        }
    }

    /// Whether this well-formed point lies past the end of a record of `n` values (a run
    /// shortened with `--horizon` may end before it). A malformed point (round 0, an empty
    /// window) is not "beyond": it stays an error of [`evaluate`].
    pub fn beyond(&self, n: usize) -> bool {
        match *self {
            Self::Last => false,
            Self::Round(t) => t > n && t >= 1,
            Self::Window { from, to } => from >= 1 && from <= to && to > n,
        }
    }

    /// The value of one record's metric values.
    fn value(&self, v: &[f64]) -> Option<f64> {
        match *self {
            Self::Last => v.last().copied(),
            Self::Round(t) => t.checked_sub(1).and_then(|i| v.get(i)).copied(),
            Self::Window { from, to } => {
                if from == 0 || to < from || to > v.len() {
                    return None;
                }
                let w = &v[from - 1..to];
                Some(w.iter().sum::<f64>() / w.len() as f64)
            }
        }
    }
}

/// What a claim says.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Statement {
    /// Curve `lower` has a lower metric than curve `higher` (lower regret is better).
    Below {
        /// The curve that should be lower.
        lower: String,
        /// The curve it is compared with.
        higher: String,
        /// Where.
        at: At,
    },
    /// The metric rises along `curves` (each curve above the one before it).
    Rising {
        /// The sweep, in order.
        curves: Vec<String>,
        /// Where.
        at: At,
    },
}

/// A claim of the paper about one figure.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Claim {
    /// A short id, unique within the figure (`moma-below-tgp`).
    pub id: String,
    /// The paper's words (with section or page), or ours when the paper is implicit.
    pub source: String,
    /// What is tested.
    pub statement: Statement,
}

impl Claim {
    /// "`lower` ends below `higher`": an ordering at the last round.
    pub fn below(
        id: impl Into<String>,
        source: impl Into<String>,
        lower: impl Into<String>,
        higher: impl Into<String>,
        at: At,
    ) -> Self {
        Self {
            id: id.into(),
            source: source.into(),
            statement: Statement::Below {
                lower: lower.into(),
                higher: higher.into(),
                at,
            },
        }
    }

    /// "the metric rises along `curves`".
    pub fn rising<S: Into<String>>(
        id: impl Into<String>,
        source: impl Into<String>,
        curves: impl IntoIterator<Item = S>,
        at: At,
    ) -> Self {
        Self {
            id: id.into(),
            source: source.into(),
            statement: Statement::Rising {
                curves: curves.into_iter().map(Into::into).collect(),
                at,
            },
        }
    }

    /// Where it compares the curves.
    pub fn at(&self) -> &At {
        match &self.statement {
            Statement::Below { at, .. } | Statement::Rising { at, .. } => at,
        }
    }

    /// The curves the claim reads.
    pub fn curves(&self) -> Vec<&str> {
        match &self.statement {
            Statement::Below { lower, higher, .. } => vec![lower, higher],
            Statement::Rising { curves, .. } => curves.iter().map(String::as_str).collect(),
        }
    }

    /// The statement in words.
    pub fn describe(&self) -> String {
        match &self.statement {
            Statement::Below { lower, higher, at } => {
                format!("{lower} below {higher} {}", at.describe())
            }
            Statement::Rising { curves, at } => {
                format!("rising along {} {}", curves.join(" < "), at.describe())
            }
        }
    }
}

/// A curve that isolates a cause: `label` differs from `base` in one thing (`changes`), so the
/// paired comparison of the two measures that thing's effect. An explanation in a summary or in
/// the docs rests on such a pair or is written "unexplained".
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Ablation {
    /// The control curve.
    pub label: String,
    /// The curve it is a variant of.
    pub base: String,
    /// What the control changes, in words ("same shift and width, no noise").
    pub changes: String,
    /// The claims (ids) whose outcome it is meant to explain.
    pub explains: Vec<String>,
}

/// The three outcomes of a claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ClaimVerdict {
    /// The ordering is significant in the claimed direction.
    Holds,
    /// The reverse ordering is significant.
    DoesNotHold,
    /// Neither.
    Inconclusive,
}

impl std::fmt::Display for ClaimVerdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Holds => "HOLDS",
            Self::DoesNotHold => "DOES NOT HOLD",
            Self::Inconclusive => "INCONCLUSIVE",
        })
    }
}

/// One ordering `a` below `b` and its paired tests.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Ordering {
    /// The curve claimed lower.
    pub lower: String,
    /// The curve claimed higher.
    pub higher: String,
    /// The one-sided level the ordering is tested at.
    pub level: f64,
    /// The paired tests (`a = lower`, `b = higher`).
    pub test: PairedTest,
    /// The ordering's verdict.
    pub verdict: ClaimVerdict,
}

impl Ordering {
    fn new(lower: &str, higher: &str, a: &[f64], b: &[f64], level: f64) -> Self {
        let test = paired_test(a, b);
        let verdict = if test.sign.below <= level {
            ClaimVerdict::Holds
        } else if test.sign.above <= level {
            ClaimVerdict::DoesNotHold
        } else {
            ClaimVerdict::Inconclusive
        };
        Self {
            lower: lower.into(),
            higher: higher.into(),
            level,
            test,
            verdict,
        }
    }
}

/// A tested claim.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClaimResult {
    /// The figure.
    pub figure: String,
    /// The claim.
    pub claim: Claim,
    /// What a draw is ([`Problem`]).
    pub problem: Problem,
    /// Trials averaged in each draw.
    pub trials_per_draw: usize,
    /// The orderings tested (one for [`Statement::Below`], `k - 1` for a trend).
    pub orderings: Vec<Ordering>,
    /// The claim's verdict.
    pub verdict: ClaimVerdict,
    /// The ablations that name this claim, each with its paired comparison to its base
    /// (`lower` = the ablation, `higher` = the base; its verdict says whether the change lowers
    /// the metric).
    pub ablations: Vec<(Ablation, Ordering)>,
}

/// The per-draw values of curve `label` in `result`.
fn draw_values(
    result: &FigureResult,
    label: &str,
    at: &At,
    per_draw: usize,
) -> Result<Vec<f64>, ExperimentError> {
    let invalid = |reason: &'static str| ExperimentError::InvalidClaim {
        figure: result.figure.id.to_string(),
        reason: format!("{label}: {reason}"),
    };
    let curve = result
        .curves
        .iter()
        .find(|c| c.label == label)
        .ok_or_else(|| invalid("not a curve of the figure"))?;
    let mut trials: Vec<_> = curve.batch.trials.iter().collect();
    trials.sort_by_key(|t| t.trial);
    if trials.is_empty() || trials.len() % per_draw != 0 {
        return Err(invalid(
            "its trial count is not a positive multiple of the trials per draw",
        ));
    }
    trials
        .chunks(per_draw)
        .map(|chunk| {
            let mut sum = 0.0;
            for t in chunk {
                sum += at
                    .value(result.figure.metric.values(t))
                    .ok_or_else(|| invalid("the claim's round is outside the record"))?;
            }
            Ok(sum / chunk.len() as f64)
        })
        .collect()
}

/// Test every claim of the figure that ran (a claim whose curves did not all run, e.g. under
/// one preset, or whose point lies past the end of a shortened run, is skipped), with the
/// figure's ablations beside the claims they explain.
///
/// # Errors
/// [`ExperimentError::InvalidClaim`] when a claim's point is malformed (round 0, an empty
/// window), or the
/// curves' trial counts do not divide into draws, or the curves have different trial counts.
pub fn evaluate(result: &FigureResult) -> Result<Vec<ClaimResult>, ExperimentError> {
    let f = &result.figure;
    let ran = |l: &str| result.curves.iter().any(|c| c.label == l);
    let per_draw = f.trials_per_draw;
    let mut out = Vec::new();
    // A claim is tested when its curves ran and its point is inside their records (a run
    // shortened with `--horizon` may end before it).
    let points = result.curves.first().map_or(0, |c| c.batch.config.horizon);
    for claim in f
        .claims
        .iter()
        .filter(|c| c.curves().iter().all(|l| ran(l)) && !c.at().beyond(points))
    {
        let (pairs, level, at): (Vec<(&str, &str)>, f64, &At) = match &claim.statement {
            Statement::Below { lower, higher, at } => (vec![(lower, higher)], LEVEL, at),
            Statement::Rising { curves, at } => {
                let k = curves.len().saturating_sub(1).max(1);
                (
                    curves
                        .windows(2)
                        .map(|w| (w[0].as_str(), w[1].as_str()))
                        .collect(),
                    LEVEL / k as f64,
                    at,
                )
            }
        };
        let mut orderings = Vec::with_capacity(pairs.len());
        for (lo, hi) in pairs {
            let a = draw_values(result, lo, at, per_draw)?;
            let b = draw_values(result, hi, at, per_draw)?;
            if a.len() != b.len() {
                return Err(ExperimentError::InvalidClaim {
                    figure: f.id.to_string(),
                    reason: format!("{lo} and {hi} have different numbers of draws"),
                });
            }
            orderings.push(Ordering::new(lo, hi, &a, &b, level));
        }
        let verdict = if orderings.iter().all(|o| o.verdict == ClaimVerdict::Holds) {
            ClaimVerdict::Holds
        } else if orderings
            .iter()
            .any(|o| o.verdict == ClaimVerdict::DoesNotHold)
        {
            ClaimVerdict::DoesNotHold
        } else {
            ClaimVerdict::Inconclusive
        };
        let mut ablations = Vec::new();
        for ab in f
            .ablations
            .iter()
            .filter(|ab| ab.explains.contains(&claim.id) && ran(&ab.label) && ran(&ab.base))
        {
            let a = draw_values(result, &ab.label, at, per_draw)?;
            let b = draw_values(result, &ab.base, at, per_draw)?;
            ablations.push((
                ab.clone(),
                Ordering::new(&ab.label, &ab.base, &a, &b, LEVEL),
            ));
        }
        out.push(ClaimResult {
            figure: f.id.to_string(),
            claim: claim.clone(),
            problem: f.problem,
            trials_per_draw: per_draw,
            orderings,
            verdict,
            ablations,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::{CurveResult, Figure, RegretSummary};
    use crate::runner::{BatchResult, RunConfig, TrialRecord};

    /// A curve whose trial `i` has cumulative regret `level(i) * t` at round `t`.
    fn curve(
        label: &str,
        trials: usize,
        horizon: usize,
        level: impl Fn(usize) -> f64,
    ) -> CurveResult {
        let config = RunConfig {
            horizon,
            n_trials: trials,
            base_seed: 1,
            shard: None,
        };
        let record = |trial: usize| TrialRecord {
            trial,
            actions: vec![0; horizon],
            rewards: vec![0.0; horizon],
            mean_rewards: vec![0.0; horizon],
            instantaneous_regret: vec![level(trial); horizon],
            cumulative_regret: (1..=horizon).map(|t| level(trial) * t as f64).collect(),
            simple_regret: vec![level(trial); horizon],
        };
        let batch = BatchResult {
            config,
            trials: (0..trials).map(record).collect(),
        };
        CurveResult {
            label: label.into(),
            summary: RegretSummary::of(label, &batch).expect("a valid batch"),
            batch,
            seconds: 0.0,
            diagnostics: Vec::new(),
            table: None,
        }
    }

    fn figure(claims: Vec<Claim>) -> Figure {
        claims
            .into_iter()
            .fold(
                Figure::new("fig1", "test", ["A", "B", "C"]),
                Figure::with_claim,
            )
            .with_problem(Problem::RandomPerTrial)
    }

    /// A lower than B on every draw (by a draw-dependent margin); C equal to A on half the
    /// draws and far above on the other half.
    fn result(claims: Vec<Claim>) -> FigureResult {
        FigureResult {
            figure: figure(claims),
            curves: vec![
                curve("A", 20, 5, |i| 1.0 + i as f64),
                curve("B", 20, 5, |i| 1.5 + 1.1 * i as f64),
                curve(
                    "C",
                    20,
                    5,
                    |i| if i % 2 == 0 { 1.0 + i as f64 } else { 50.0 },
                ),
            ],
        }
    }

    #[test]
    fn a_true_ordering_holds_and_its_reverse_does_not() {
        let r = evaluate(&result(vec![
            Claim::below("a-below-b", "test", "A", "B", At::Last),
            Claim::below("b-below-a", "test", "B", "A", At::Round(2)),
            Claim::below("a-below-c", "test", "A", "C", At::Window { from: 1, to: 5 }),
        ]))
        .expect("claims evaluate");
        assert_eq!(r.len(), 3);
        assert_eq!(r[0].verdict, ClaimVerdict::Holds);
        assert_eq!(r[0].orderings[0].test.below, 20);
        assert!((r[0].orderings[0].test.sign.below - 2f64.powi(-20)).abs() < 1e-18);
        // The control: the same data, the reverse claim.
        assert_eq!(r[1].verdict, ClaimVerdict::DoesNotHold);
        // A below C on 10 draws, tied on 10: 10 of 10 non-zero pairs below (p = 2^-10 < 0.01).
        assert_eq!(r[2].orderings[0].test.ties, 10);
        assert_eq!(r[2].verdict, ClaimVerdict::Holds);
    }

    #[test]
    fn a_trend_needs_every_step_and_an_undecided_step_is_inconclusive() {
        let r = evaluate(&result(vec![
            Claim::rising("abc", "test", ["A", "B", "C"], At::Last),
            Claim::rising("ab", "test", ["A", "B"], At::Last),
        ]))
        .expect("claims evaluate");
        // B < C on the 10 odd draws, B > C on the 10 even ones: undecided.
        assert_eq!(r[0].orderings.len(), 2);
        assert!((r[0].orderings[0].level - LEVEL / 2.0).abs() < 1e-15);
        assert_eq!(r[0].orderings[1].verdict, ClaimVerdict::Inconclusive);
        assert_eq!(r[0].verdict, ClaimVerdict::Inconclusive);
        assert_eq!(r[1].verdict, ClaimVerdict::Holds);
    }

    #[test]
    fn draws_group_trials_and_ablations_sit_beside_their_claim() {
        let mut res = result(vec![Claim::below("a-below-b", "test", "A", "B", At::Last)]);
        res.figure = res.figure.with_trials_per_draw(4).with_ablation(
            "C",
            "A",
            "half the draws broken",
            ["a-below-b"],
        );
        let r = evaluate(&res).expect("claims evaluate");
        assert_eq!(r[0].orderings[0].test.draws, 5);
        assert_eq!(r[0].trials_per_draw, 4);
        assert_eq!(r[0].ablations.len(), 1);
        // C above A in every group of four (two of each four trials are at 50), but five draws
        // cannot reach the level: p = 2^-5 > 0.01.
        assert_eq!(r[0].ablations[0].1.verdict, ClaimVerdict::Inconclusive);
        assert_eq!(r[0].ablations[0].1.test.above, 5);
    }

    #[test]
    fn bad_claims_are_errors_and_claims_on_curves_not_run_are_skipped() {
        let past_the_end = evaluate(&result(vec![Claim::below(
            "x",
            "t",
            "A",
            "B",
            At::Round(6),
        )]))
        .expect("a claim past the end of a shortened run is skipped");
        assert!(past_the_end.is_empty());
        let round_zero = evaluate(&result(vec![Claim::below(
            "x",
            "t",
            "A",
            "B",
            At::Round(0),
        )]));
        assert!(matches!(
            round_zero,
            Err(ExperimentError::InvalidClaim { .. })
        ));
        let window = evaluate(&result(vec![Claim::below(
            "x",
            "t",
            "A",
            "B",
            At::Window { from: 3, to: 2 },
        )]));
        assert!(matches!(window, Err(ExperimentError::InvalidClaim { .. })));
        let mut res = result(vec![Claim::below("x", "t", "A", "B", At::Last)]);
        res.figure = res.figure.with_trials_per_draw(3);
        assert!(matches!(
            evaluate(&res),
            Err(ExperimentError::InvalidClaim { .. })
        ));
        let skipped = evaluate(&result(vec![Claim::below("x", "t", "A", "Z", At::Last)]))
            .expect("a claim on a curve that did not run is skipped");
        assert!(skipped.is_empty());
    }
}
