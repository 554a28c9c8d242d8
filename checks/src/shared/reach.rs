//! A deterministic quantity measured from a mechanism's outputs held against the bound a claim
//! rests on (issue 31): the change of a released statistic between two neighbouring inputs
//! with the noise held fixed (one seed for both: the noise cancels), the change of utilities
//! between neighbours, a log-ratio of selection probabilities. Nothing random is judged, so
//! such a judgement never fails falsely; a relative allowance `tolerance` covers the
//! floating-point rounding of the computation it measures.

use verification::{CheckKind, Outcome, Verdict};

/// One measured quantity against the bound it must not exceed.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ReachJudgement {
    /// What was measured ("realised utility change between neighbours").
    pub what: String,
    /// The measured value.
    pub measured: f64,
    /// The bound it must not exceed.
    pub bound: f64,
    /// The relative rounding allowance: a violation is `measured > bound (1 + tolerance)`.
    pub tolerance: f64,
    /// Whether the measured value is within the bound (NaN is not).
    pub within: bool,
}

impl ReachJudgement {
    /// `measured <= bound (1 + tolerance)`.
    pub fn new(what: impl Into<String>, measured: f64, bound: f64, tolerance: f64) -> Self {
        Self {
            what: what.into(),
            measured,
            bound,
            tolerance,
            within: measured <= bound * (1.0 + tolerance),
        }
    }

    /// One line for the report.
    pub fn line(&self) -> String {
        format!(
            "{}: {:.6e} against the bound {:.6e} (ratio {:.4}): {}",
            self.what,
            self.measured,
            self.bound,
            self.measured / self.bound,
            if self.within {
                "within"
            } else {
                "EXCEEDS the bound"
            }
        )
    }
}

/// The outcome of a check of correct mechanisms: PASS when every measured value is within its
/// bound (no false failure: nothing random is judged).
pub fn reach_outcome(
    subject: impl Into<String>,
    claim: impl Into<String>,
    judgements: &[ReachJudgement],
) -> Outcome {
    let ok = judgements.iter().all(|j| j.within);
    let measured = judgements
        .iter()
        .map(ReachJudgement::line)
        .collect::<Vec<_>>()
        .join("; ");
    Outcome::new(
        CheckKind::Property,
        subject,
        claim,
        measured,
        verification::verdict(ok),
    )
    .false_alarm(0.0)
    .value("judgements", judgements)
}

/// The outcome of a positive control: every listed judgement of the broken variant must exceed
/// its bound; a control whose variant stays within fails the check.
pub fn reach_control_outcome(
    subject: impl Into<String>,
    claim: impl Into<String>,
    judgements: &[ReachJudgement],
) -> Outcome {
    let ok = !judgements.is_empty() && judgements.iter().all(|j| !j.within);
    let measured = judgements
        .iter()
        .map(|j| format!("{} (expected: exceeds)", j.line()))
        .collect::<Vec<_>>()
        .join("; ");
    Outcome::new(
        CheckKind::PositiveControl,
        subject,
        claim,
        measured,
        if ok { Verdict::Pass } else { Verdict::Fail },
    )
    .value("judgements", judgements)
}

/// A clip-reach measurement: the change of a release between neighbours beyond the clip (one
/// seed), the sensitivity recomputed from the derivation, and the one the noise is calibrated
/// for.
pub struct ClipReach {
    /// The measured change.
    pub change: f64,
    /// The sensitivity recomputed from the derivation.
    pub bound: f64,
    /// The sensitivity the mechanism's noise is calibrated for.
    pub calibrated: f64,
}

impl ClipReach {
    /// The outcome of a clip-reach check: the change within `bound` and within `calibrated`
    /// (allowance `tolerance`), and at least `reached` times `bound` (a bound too small would
    /// show); `labels` name the three judgements in that order.
    pub fn outcome(
        &self,
        subject: &str,
        claim: String,
        labels: [String; 3],
        tolerance: f64,
        reached: f64,
    ) -> Outcome {
        let [vs_bound, vs_calibrated, is_reached] = labels;
        let judgements = [
            ReachJudgement::new(vs_bound, self.change, self.bound, tolerance),
            ReachJudgement::new(vs_calibrated, self.change, self.calibrated, tolerance),
            ReachJudgement::new(is_reached, reached * self.bound, self.change, 0.0),
        ];
        reach_outcome(subject, claim, &judgements)
            .value("change", self.change)
            .value("bound", self.bound)
            .value("calibrated_sensitivity", self.calibrated)
    }
}
