//! What a check concludes, as types: the [`Verdict`], the [`CheckKind`] of evidence, the
//! [`Outcome`] a check returns and, for privacy audits, the typed [`AuditSummary`] that the
//! report reads (no string keys written by one module and read back by name in another).
//!
//! This is the bottom of the engine: it imports nothing of the engine, and everything else
//! (the checks' runner, the report, the auditor, the scaling checker) imports it.

use privacy::PrivacyClaim;
use serde::{Deserialize, Serialize};

/// The outcome of a check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// The claim holds (within the stated statistics).
    Pass,
    /// The claim is violated (or the check could not run: the record says why).
    Fail,
    /// The evidence is not strong enough either way.
    Inconclusive,
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Pass => "pass",
            Self::Fail => "fail",
            Self::Inconclusive => "inconclusive",
        })
    }
}

/// `pass` when `ok`, else `fail`.
pub fn verdict(ok: bool) -> Verdict {
    if ok { Verdict::Pass } else { Verdict::Fail }
}

/// What kind of evidence a check produces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum CheckKind {
    /// A deterministic numerical accuracy check against a bound or a reference.
    Accuracy,
    /// A fitted rate of convergence (error vs size).
    Convergence,
    /// A deterministic property (identity, invariance, error on bad input).
    Property,
    /// A statistical test of a sampler's distribution.
    Distribution,
    /// A privacy audit of a correct mechanism or algorithm (must pass).
    Audit,
    /// A deliberately broken variant the check must flag (passes when flagged).
    PositiveControl,
    /// A correct variant the check must not flag (passes when not flagged).
    NegativeControl,
    /// A regret-scaling check against a proven exponent.
    Scaling,
    /// Reproduction of numbers published in a paper.
    Reproduction,
    /// A sanity check of an environment, data set or run.
    Sanity,
}

impl CheckKind {
    /// The name used in the report (`positive_control`).
    pub fn name(self) -> &'static str {
        match self {
            Self::Accuracy => "accuracy",
            Self::Convergence => "convergence",
            Self::Property => "property",
            Self::Distribution => "distribution",
            Self::Audit => "audit",
            Self::PositiveControl => "positive_control",
            Self::NegativeControl => "negative_control",
            Self::Scaling => "scaling",
            Self::Reproduction => "reproduction",
            Self::Sanity => "sanity",
        }
    }
}

/// A rejection region and its certified error rates on the held-out split of an audit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CertifiedEvent {
    /// `"s > t"` with the statistic and threshold.
    pub event: String,
    /// The threshold `t`.
    pub threshold: f64,
    /// Held-out outputs under `x` outside the event (false negatives).
    pub false_negatives: u64,
    /// Held-out outputs under `x'` inside the event (false positives).
    pub false_positives: u64,
    /// Point estimates.
    pub fpr: f64,
    /// Point estimate of the false-negative rate.
    pub fnr: f64,
    /// Clopper-Pearson upper bounds.
    pub fpr_upper: f64,
    /// Clopper-Pearson upper bound on the false-negative rate.
    pub fnr_upper: f64,
}

/// Which bound an audit's headline tightness divides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TightnessOf {
    /// `mu_lower / mu_reference` (the Gaussian-DP route).
    Mu,
    /// `eps_lower / eps_claimed`.
    Epsilon,
}

/// The smallest violations an audit could certify at its events.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct DetectableViolation {
    /// The claimed epsilon plus the statistical slack `eps_estimate - eps_lower`.
    pub epsilon: Option<f64>,
    /// `mu_reference + (mu_estimate - mu_lower)`.
    pub mu: Option<f64>,
}

/// A likelihood-ratio audit's numbers (everything of
/// [`AuditResult`](crate::audit::AuditResult) but its empirical trade-off curve): the record's
/// `audit` field, and what the report's audit table reads.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuditSummary {
    /// The claim audited.
    pub claim: PrivacyClaim,
    /// The statistic used.
    pub statistic: String,
    /// The delta of `eps_lower`.
    pub delta: f64,
    /// The epsilon the claim implies at `delta` (`None`: no finite epsilon).
    pub eps_claimed: Option<f64>,
    /// Certified lower bound on epsilon at `delta` (may be negative, or `-inf`: no evidence;
    /// JSON writes a non-finite number as `null`, read back as `-inf`).
    #[serde(deserialize_with = "null_as_minus_infinity")]
    pub eps_lower: f64,
    /// The point estimate of the same bound (no confidence correction).
    #[serde(deserialize_with = "null_as_minus_infinity")]
    pub eps_estimate: f64,
    /// Certified lower bound on mu (Gaussian route only).
    pub mu_lower: Option<f64>,
    /// Point estimate of mu at the GDP event.
    pub mu_estimate: Option<f64>,
    /// The mechanism's own mu, when stated.
    pub mu_reference: Option<f64>,
    /// `1 - alpha`.
    pub confidence: f64,
    /// Held-out outputs per input.
    pub samples: usize,
    /// Training outputs per input.
    pub train_samples: usize,
    /// The event of the epsilon route.
    pub eps_event: CertifiedEvent,
    /// The event of the GDP route.
    pub mu_event: Option<CertifiedEvent>,
    /// `eps_lower / eps_claimed` (None when the claim has no finite epsilon).
    pub eps_tightness: Option<f64>,
    /// `mu_lower / mu_reference`.
    pub mu_tightness: Option<f64>,
    /// The smallest violation of epsilon this run could certify at its event: the claimed epsilon
    /// plus the statistical slack `eps_estimate - eps_lower`.
    pub detectable_epsilon: Option<f64>,
    /// The same for mu: `mu_reference + (mu_estimate - mu_lower)`.
    pub detectable_mu: Option<f64>,
    /// Whether a certified point lies below the claim's trade-off curve.
    pub violated: bool,
    /// The headline tightness: [`Self::mu_tightness`] when the audit has a mu reference, else
    /// [`Self::eps_tightness`] ([`AuditSummary::headline`] sets it).
    pub tightness: Option<f64>,
    /// Which of the two [`Self::tightness`] is.
    pub tightness_of: TightnessOf,
    /// The epsilon route's event (`eps_event.event`), for the report's table.
    pub event: String,
    /// [`Self::detectable_epsilon`] and [`Self::detectable_mu`] together.
    pub smallest_detectable_violation: DetectableViolation,
}

impl AuditSummary {
    /// Set the derived fields ([`Self::tightness`], [`Self::tightness_of`], [`Self::event`],
    /// [`Self::smallest_detectable_violation`]) from the others; the auditor calls it once when
    /// it builds the summary, so the two never disagree.
    pub fn headline(mut self) -> Self {
        (self.tightness, self.tightness_of) = match (self.mu_tightness, self.eps_tightness) {
            (Some(t), _) => (Some(t), TightnessOf::Mu),
            (None, t) => (t, TightnessOf::Epsilon),
        };
        self.event = self.eps_event.event.clone();
        self.smallest_detectable_violation = DetectableViolation {
            epsilon: self.detectable_epsilon,
            mu: self.detectable_mu,
        };
        self
    }
}

/// A bound that JSON wrote as `null` (serde_json writes every non-finite number so): the
/// auditor's non-finite bounds are `-inf` (no evidence) far more often than `+inf`, and both
/// mean "no finite number" to a reader of the report.
fn null_as_minus_infinity<'de, D: serde::Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    Ok(Option::<f64>::deserialize(d)?.unwrap_or(f64::NEG_INFINITY))
}

/// One row of a porosity test at one epsilon.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PorosityRow {
    /// The mechanism's epsilon.
    pub epsilon: f64,
    /// Its noise scale.
    pub scale: f64,
    /// Outputs under `x` found unreachable from `x'`.
    pub unreachable: u64,
    /// Outputs under `x`.
    pub samples: usize,
    /// Clopper-Pearson lower bound on the probability of an unreachable output.
    pub p_unreachable_lower: f64,
    /// Outputs under `x'` checked to be reachable from `x'` (the search's own control).
    pub outputs_under_x_prime_checked: u64,
    /// Whether this epsilon's test flagged infinite privacy loss.
    pub flagged: bool,
}

/// A porosity test (Mironov 2012): outputs under `x` that no randomness can produce under
/// `x'` certify infinite privacy loss; it has no finite lower bound and no tightness.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PorosityAudit {
    /// `"porosity (Mironov 2012)"`.
    pub test: String,
    /// The event: an output not in the image of `x'`.
    pub event: String,
    /// `1 - alpha`, when a bound was certified.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub confidence: Option<f64>,
    /// Outputs under `x` (single-setting tests).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub samples: Option<usize>,
    /// Unreachable outputs (single-setting tests).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub unreachable: Option<u64>,
    /// The exponent of the output grid `2^k` (hardened samplers).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub grid_exponent: Option<i32>,
    /// One row per epsilon (sweeps).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub rows: Option<Vec<PorosityRow>>,
    /// `"inf"` when every setting certified infinite loss, `"none"` otherwise (sweeps).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub eps_lower: Option<String>,
    /// Always `None`: a porosity test has no finite claim to divide by.
    pub tightness: Option<f64>,
}

/// The audit section of a record: a likelihood-ratio audit or a porosity test. In JSON it is
/// the inner object itself (untagged), as in schema version 1.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum AuditSection {
    /// A likelihood-ratio audit ([`crate::audit`]).
    Likelihood(Box<AuditSummary>),
    /// A porosity test ([`crate::audit::porosity`]).
    Porosity(PorosityAudit),
}

impl AuditSection {
    /// The likelihood-ratio audit, if this is one.
    pub fn likelihood(&self) -> Option<&AuditSummary> {
        match self {
            Self::Likelihood(s) => Some(s),
            Self::Porosity(_) => None,
        }
    }

    /// The headline tightness (`None` for a porosity test).
    pub fn tightness(&self) -> Option<f64> {
        self.likelihood().and_then(|s| s.tightness)
    }
}

impl From<AuditSummary> for AuditSection {
    fn from(s: AuditSummary) -> Self {
        Self::Likelihood(Box::new(s))
    }
}

impl From<PorosityAudit> for AuditSection {
    fn from(p: PorosityAudit) -> Self {
        Self::Porosity(p)
    }
}

/// What a check returns; the runner adds the id and the time.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// The kind of evidence.
    pub kind: CheckKind,
    /// What is checked (a function, mechanism or algorithm with its parameters).
    pub subject: String,
    /// What must hold, in words with the numbers.
    pub claim: String,
    /// What was measured, in words with the numbers.
    pub measured: String,
    /// The verdict.
    pub verdict: Verdict,
    /// Machine-readable numbers behind `claim` and `measured` (names are self-explanatory).
    pub values: serde_json::Map<String, serde_json::Value>,
    /// Probability that this check fails although the claim holds (statistical checks only).
    pub false_alarm_probability: Option<f64>,
    /// The privacy audit's numbers, for audits and their controls.
    pub audit: Option<AuditSection>,
    /// Plots, relative to the report's folder.
    pub plots: Vec<String>,
}

/// The name of the value in which an audit records its tightness against the exact epsilon of
/// its pair (what any admissible pair and test could reach) when that lies below the claim; the
/// report prints it beside the headline tightness (which divides by the claim).
pub const EXACT_TIGHTNESS: &str = "exact_tightness";

impl Outcome {
    /// The audit's tightness against the exact epsilon of its pair ([`EXACT_TIGHTNESS`]), when
    /// the check recorded one.
    pub fn exact_tightness(&self) -> Option<f64> {
        self.values.get(EXACT_TIGHTNESS).and_then(|v| v.as_f64())
    }

    /// An outcome with the given texts and verdict and nothing else.
    pub fn new(
        kind: CheckKind,
        subject: impl Into<String>,
        claim: impl Into<String>,
        measured: impl Into<String>,
        verdict: Verdict,
    ) -> Self {
        Self {
            kind,
            subject: subject.into(),
            claim: claim.into(),
            measured: measured.into(),
            verdict,
            values: serde_json::Map::new(),
            false_alarm_probability: None,
            audit: None,
            plots: Vec::new(),
        }
    }

    /// Add a machine-readable value.
    pub fn value(mut self, name: &str, v: impl serde::Serialize) -> Self {
        self.values.insert(
            name.to_string(),
            serde_json::to_value(v).unwrap_or(serde_json::Value::Null),
        );
        self
    }

    /// State the false-alarm probability.
    pub fn false_alarm(mut self, p: f64) -> Self {
        self.false_alarm_probability = Some(p);
        self
    }

    /// Attach the audit's numbers.
    pub fn audit(mut self, a: impl Into<AuditSection>) -> Self {
        self.audit = Some(a.into());
        self
    }

    /// Attach a plot.
    pub fn plot(mut self, path: impl Into<String>) -> Self {
        self.plots.push(path.into());
        self
    }
}
