//! Auditing another implementation's mechanism from its outputs (`cargo xtask audit`): parse
//! the two files of outputs drawn under a neighbouring pair `x`, `x'`, split them (shuffled with
//! a seed) into a training part that fits the statistic and chooses the event and a held-out
//! part that certifies it, and state a verdict with the sample size a given tightness would
//! need.
//!
//! Formats, one output per line (blank lines and lines starting with `#` are skipped):
//! a number (scalar outputs); numbers separated by commas or whitespace, or a JSON array
//! (vector outputs); any other token, or a JSON string (discrete outputs). NaN and infinities
//! are refused, with their line; so is a header line (a first line that is not a number above
//! numeric outputs). A discrete label cannot start with `#` (a comment).

use std::sync::Arc;

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha20Rng;
use serde::Serialize;

use super::counts::{HeldOutCounts, Thresholds};
use super::statistic::{
    DiscreteCounts, FisherDiscriminant, HistogramRatio, Known, MeanDifferenceProjection, Score,
    Statistic,
};
use super::{AuditConfig, AuditError, AuditPlan, AuditResult, alpha_rate, eps_bound};
use crate::stats::clopper_pearson_upper;
use privacy::claim::PrivacyClaim;

/// What one output is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum OutputKind {
    /// One number per output.
    Scalar,
    /// A vector of numbers per output (all of one length).
    Vector,
    /// A label per output (an arm, a category).
    Discrete,
}

/// Parsed outputs.
#[derive(Debug, Clone, PartialEq)]
pub enum Outputs {
    /// Scalar outputs.
    Scalar(Vec<f64>),
    /// Vector outputs.
    Vector(Vec<Vec<f64>>),
    /// Discrete outputs.
    Discrete(Vec<String>),
}

impl Outputs {
    /// Number of outputs.
    pub fn len(&self) -> usize {
        match self {
            Self::Scalar(v) => v.len(),
            Self::Vector(v) => v.len(),
            Self::Discrete(v) => v.len(),
        }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Keep the first `n` outputs.
    pub fn truncate(&mut self, n: usize) {
        match self {
            Self::Scalar(v) => v.truncate(n),
            Self::Vector(v) => v.truncate(n),
            Self::Discrete(v) => v.truncate(n),
        }
    }

    /// The kind.
    pub fn kind(&self) -> OutputKind {
        match self {
            Self::Scalar(_) => OutputKind::Scalar,
            Self::Vector(_) => OutputKind::Vector,
            Self::Discrete(_) => OutputKind::Discrete,
        }
    }
}

fn bad(source: &str, line: usize, why: impl std::fmt::Display) -> AuditError {
    AuditError::InvalidConfig(format!("{source}, line {line}: {why}"))
}

/// The fields of a line: separated by commas or whitespace.
fn fields(line: &str) -> Vec<&str> {
    line.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|f| !f.is_empty())
        .collect()
}

/// The kind a line looks like: a number, several numbers (or a JSON array), or a label.
fn kind_of(line: &str) -> OutputKind {
    let t = line.trim();
    if t.starts_with('[') {
        return OutputKind::Vector;
    }
    let fields = fields(t);
    let numeric = fields.iter().all(|f| f.parse::<f64>().is_ok());
    match (numeric, fields.len()) {
        (true, 1) => OutputKind::Scalar,
        (true, _) => OutputKind::Vector,
        _ => OutputKind::Discrete,
    }
}

fn number(source: &str, line: usize, field: &str) -> Result<f64, AuditError> {
    let v: f64 = field
        .trim()
        .parse()
        .map_err(|_| bad(source, line, format!("{field:?} is not a number")))?;
    if !v.is_finite() {
        return Err(bad(
            source,
            line,
            format!("{v} is not an output (NaN and infinities are refused)"),
        ));
    }
    Ok(v)
}

/// Whether a line is an output: not blank and not a `#` comment (leading and trailing
/// whitespace ignored). The one rule of the parser and of the streamed audit's counts.
pub(super) fn is_output(line: &str) -> bool {
    let t = line.trim();
    !t.is_empty() && !t.starts_with('#')
}

/// Parse the outputs in `text` (`source` names it in errors); `kind = None` takes the kind of
/// the first output line.
///
/// # Errors
/// No outputs, a NaN, a line that is not of the kind, vectors of different lengths.
pub fn parse_outputs(
    text: &str,
    kind: Option<OutputKind>,
    source: &str,
) -> Result<Outputs, AuditError> {
    parse_outputs_at(text, kind, source, 1)
}

/// [`parse_outputs`] of a text that starts at line `first_line` of `source` (the line numbers
/// of its errors are the source's).
pub(super) fn parse_outputs_at(
    text: &str,
    kind: Option<OutputKind>,
    source: &str,
    first_line: usize,
) -> Result<Outputs, AuditError> {
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + first_line, l.trim()))
        .filter(|(_, l)| is_output(l))
        .collect();
    let Some(&(_, first)) = lines.first() else {
        return Err(AuditError::InvalidConfig(format!("{source}: no outputs")));
    };
    let kind = match kind {
        Some(k) => k,
        None => {
            let k = kind_of(first);
            // A header line above numeric outputs would make the file look discrete.
            if let (OutputKind::Discrete, Some(&(_, second))) = (k, lines.get(1))
                && kind_of(second) != OutputKind::Discrete
            {
                return Err(bad(
                    source,
                    lines[0].0,
                    format!(
                        "{first:?} is not a number but the next line is: remove the header line \
                         or start it with #, or give --kind discrete"
                    ),
                ));
            }
            k
        }
    };
    Ok(match kind {
        OutputKind::Scalar => Outputs::Scalar(
            lines
                .iter()
                .map(|&(i, l)| match fields(l).as_slice() {
                    [one] => number(source, i, one),
                    _ => Err(bad(source, i, "not one number")),
                })
                .collect::<Result<_, _>>()?,
        ),
        OutputKind::Vector => {
            let mut out: Vec<Vec<f64>> = Vec::with_capacity(lines.len());
            for &(i, l) in &lines {
                let v: Vec<f64> = if l.starts_with('[') {
                    let parsed: Vec<serde_json::Value> = serde_json::from_str(l).map_err(|e| {
                        bad(source, i, format!("not a JSON array of numbers ({e})"))
                    })?;
                    parsed
                        .iter()
                        .map(|x| {
                            x.as_f64().filter(|v| v.is_finite()).ok_or_else(|| {
                                bad(source, i, format!("{x} is not a finite number"))
                            })
                        })
                        .collect::<Result<_, _>>()?
                } else {
                    fields(l)
                        .into_iter()
                        .map(|f| number(source, i, f))
                        .collect::<Result<_, _>>()?
                };
                if let Some(d) = out.first().map(Vec::len)
                    && d != v.len()
                {
                    return Err(bad(
                        source,
                        i,
                        format!("{} numbers, the first output has {d}", v.len()),
                    ));
                }
                out.push(v);
            }
            Outputs::Vector(out)
        }
        OutputKind::Discrete => Outputs::Discrete(
            lines
                .iter()
                .map(|&(i, l)| {
                    if l.starts_with('"') {
                        serde_json::from_str::<String>(l)
                            .map_err(|e| bad(source, i, format!("not a JSON string ({e})")))
                    } else {
                        Ok(l.to_string())
                    }
                })
                .collect::<Result<_, _>>()?,
        ),
    })
}

/// A claim stated as numbers, as the `cargo xtask audit` flags and the Python auditor take it:
/// exactly one of `eps` (with `delta > 0`: approximate DP; without, or with `delta = 0`: pure
/// DP), `mu` (Gaussian DP, with a `delta` in `(0, 1)` at which to certify epsilon) or `rho`
/// (zCDP, with such a `delta`; `gaussian_noise` says the noise is Gaussian, so that `rho`-zCDP
/// is exactly `sqrt(2 rho)`-GDP and the audit also compares on that curve).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct StatedClaim {
    /// Epsilon (pure or approximate DP).
    pub eps: Option<f64>,
    /// Delta.
    pub delta: Option<f64>,
    /// Gaussian-DP mu.
    pub mu: Option<f64>,
    /// zCDP rho.
    pub rho: Option<f64>,
    /// With `rho`: the mechanism's noise is Gaussian.
    pub gaussian_noise: bool,
}

impl StatedClaim {
    /// The claim (subject "external mechanism", central model, the stated pair as the neighbours)
    /// and the reference `mu` of the Gaussian-DP comparison, if any.
    pub fn claim(&self) -> Result<(PrivacyClaim, Option<f64>), AuditError> {
        use privacy::claim::{Guarantee, TrustModel};
        use privacy::params::{Delta, Epsilon, Mu, Rho};
        let bad = |what: &str, e: privacy::PrivacyError| {
            AuditError::InvalidConfig(format!("{what}: {e}"))
        };
        let need_delta = |with: &str| match self.delta {
            Some(d) if d > 0.0 && d < 1.0 => Ok(()),
            Some(d) => Err(AuditError::InvalidConfig(format!(
                "delta {d}: with {with}, give the delta in (0, 1) at which to certify epsilon"
            ))),
            None => Err(AuditError::InvalidConfig(format!(
                "with {with}, give a delta in (0, 1) at which to certify epsilon"
            ))),
        };
        if self.gaussian_noise && self.rho.is_none() {
            return Err(AuditError::InvalidConfig(
                "gaussian_noise qualifies a rho (zCDP) claim only".into(),
            ));
        }
        let (guarantee, mu) = match (self.eps, self.mu, self.rho) {
            (Some(e), None, None) => {
                let epsilon = Epsilon::new(e).map_err(|x| bad("eps", x))?;
                match self.delta {
                    Some(d) if d > 0.0 => (
                        Guarantee::ApproximateDp {
                            epsilon,
                            delta: Delta::new(d).map_err(|x| bad("delta", x))?,
                        },
                        None,
                    ),
                    Some(d) if d < 0.0 || d.is_nan() => {
                        return Err(AuditError::InvalidConfig(format!(
                            "delta {d}: must be in [0, 1)"
                        )));
                    }
                    _ => (Guarantee::PureDp { epsilon }, None),
                }
            }
            (None, Some(m), None) => {
                need_delta("mu")?;
                (
                    Guarantee::GaussianDp {
                        mu: Mu::new(m).map_err(|x| bad("mu", x))?,
                    },
                    Some(m),
                )
            }
            (None, None, Some(r)) => {
                need_delta("rho")?;
                (
                    Guarantee::Zcdp {
                        rho: Rho::new(r).map_err(|x| bad("rho", x))?,
                    },
                    self.gaussian_noise.then(|| (2.0 * r).sqrt()),
                )
            }
            _ => {
                return Err(AuditError::InvalidConfig(
                    "state the claim with exactly one of eps, mu, rho".into(),
                ));
            }
        };
        Ok((
            PrivacyClaim::new(
                "external mechanism",
                guarantee,
                TrustModel::Central,
                privacy::NeighbouringRelation::StatedPair,
                "the two inputs given to the audit",
            ),
            mu,
        ))
    }

    /// The audit's configuration for this claim: `alpha`, `seed`, the stated delta and the
    /// reference `mu` ([`StatedClaim::claim`]).
    pub fn config(&self, alpha: f64, seed: u64) -> Result<AuditConfig, AuditError> {
        let (_, mu) = self.claim()?;
        let mut config = AuditConfig::new(10, alpha, seed);
        if let Some(d) = self.delta {
            config = config.delta(d);
        }
        if mu.is_some() {
            config = config.gaussian(mu);
        }
        Ok(config)
    }
}

/// The verdict of an external audit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// A point certified below the claim's trade-off curve: the claim is false (with
    /// probability at least the confidence).
    ViolationCertified,
    /// No violation, the audit certified at least half the claimed epsilon (the statistic
    /// sees the mechanism's leakage), and its statistical slack at the event is at most half
    /// the claim (an epsilon 1.5 times the claim would have been certified there): the outputs
    /// are consistent with the claim.
    Consistent,
    /// No violation, but the audit certified less than half the claim, or its slack is larger
    /// than half of it: too few outputs, or too weak a statistic, to tell.
    Inconclusive,
}

impl Verdict {
    /// The verdict of an audit's result (the rules above).
    pub fn of(result: &AuditResult) -> Self {
        if result.violated {
            Self::ViolationCertified
        } else if result.eps_tightness.is_some_and(|t| t >= MIN_TIGHTNESS)
            && result
                .eps_claimed
                .zip(result.detectable_epsilon)
                .is_some_and(|(c, d)| d <= 1.5 * c)
        {
            Self::Consistent
        } else {
            Self::Inconclusive
        }
    }

    /// As printed.
    pub fn label(self) -> &'static str {
        match self {
            Self::ViolationCertified => "VIOLATION CERTIFIED",
            Self::Consistent => "CONSISTENT",
            Self::Inconclusive => "INCONCLUSIVE",
        }
    }
}

/// An external audit's result.
#[derive(Debug, Clone, Serialize)]
pub struct ExternalAudit {
    /// The verdict.
    pub verdict: Verdict,
    /// The output kind audited.
    pub kind: OutputKind,
    /// Outputs per input in the files (training plus held-out).
    pub outputs_per_input: usize,
    /// The tightness asked about, and the held-out outputs per input that would certify it at
    /// this event's rates (`None`: not reachable at this event, whose point estimate is below).
    pub target_tightness: f64,
    /// See `target_tightness`.
    pub samples_for_target: Option<u64>,
    /// The audit itself.
    pub result: AuditResult,
}

/// Smallest `eps_lower / eps_claimed` of a CONSISTENT verdict.
pub const MIN_TIGHTNESS: f64 = 0.5;

/// The statistic names for [`audit_external`].
pub const STATISTICS: &str = "identity (scalar: the output itself), histogram (scalar), mean-difference (vector), fisher (vector), counts (discrete)";

/// Audit outputs under `x` and `x'` against `claim`: shuffle each file's outputs with
/// `config.seed`, take the first `train_fraction` of each as training, the rest as held-out.
/// `statistic`: `None` = histogram (scalar), mean-difference (vector), counts (discrete).
///
/// # Errors
/// Different kinds or numbers of outputs, fewer than 20 outputs per input, an unknown or
/// unsuitable statistic, a bad fraction or configuration.
pub fn audit_external(
    x: Outputs,
    x_prime: Outputs,
    claim: &PrivacyClaim,
    statistic: Option<&str>,
    train_fraction: f64,
    target_tightness: f64,
    config: &AuditConfig,
) -> Result<ExternalAudit, AuditError> {
    if x.kind() != x_prime.kind() {
        return Err(AuditError::InvalidConfig(format!(
            "the outputs under x are {:?}, under x' {:?}",
            x.kind(),
            x_prime.kind()
        )));
    }
    if x.len() != x_prime.len() {
        return Err(AuditError::InvalidConfig(format!(
            "unequal numbers of outputs: {} under x, {} under x' (draw as many under each)",
            x.len(),
            x_prime.len()
        )));
    }
    if !(train_fraction > 0.0 && train_fraction < 1.0) {
        return Err(AuditError::InvalidConfig(format!(
            "the training fraction {train_fraction} is not in (0, 1)"
        )));
    }
    if !(target_tightness > 0.0 && target_tightness <= 1.0) {
        return Err(AuditError::InvalidConfig(format!(
            "the target tightness {target_tightness} is not in (0, 1]"
        )));
    }
    let n = x.len();
    let train = ((n as f64) * train_fraction).round() as usize;
    if train < 10 || n - train < 10 {
        return Err(AuditError::InvalidConfig(format!(
            "{n} outputs per input leave {train} for training and {} held out; at least 10 each",
            n - train
        )));
    }
    let kind = x.kind();
    let mut rng = ChaCha20Rng::seed_from_u64(config.seed);
    let (train_x, held_x) = x.shuffled_split(train, &mut rng);
    let (train_xp, held_xp) = x_prime.shuffled_split(train, &mut rng);
    let config = AuditConfig {
        train,
        samples: n - train,
        ..config.clone()
    };
    config.validate()?;
    let (plan, scorer) = fit(&train_x, &train_xp, statistic, claim, &config, "", None)?;
    let mut counts = HeldOutCounts::zeros(plan.thresholds.len());
    scorer.count(
        &mut counts,
        &plan.thresholds,
        &held_x,
        false,
        ("held-out x", 0),
    )?;
    scorer.count(
        &mut counts,
        &plan.thresholds,
        &held_xp,
        true,
        ("held-out x'", 0),
    )?;
    let result = plan.conclude(&counts)?;
    Ok(ExternalAudit::of(
        result,
        kind,
        n,
        target_tightness,
        &config,
    ))
}

impl ExternalAudit {
    /// The verdict of `result` and the held-out outputs per input `target_tightness` would
    /// need at its event's rates; `n` outputs per input in all (training and held-out).
    pub(super) fn of(
        result: AuditResult,
        kind: OutputKind,
        n: usize,
        target_tightness: f64,
        config: &AuditConfig,
    ) -> Self {
        let verdict = Verdict::of(&result);
        let samples_for_target = samples_for_tightness(&result, target_tightness, config);
        Self {
            verdict,
            kind,
            outputs_per_input: n,
            target_tightness,
            samples_for_target,
            result,
        }
    }
}

/// The held-out outputs per input that would certify `eps_lower >= target_tightness *
/// eps_claimed` at `result`'s event and rates (Clopper-Pearson at `config`'s level); `None`
/// when the claim states no epsilon, or the target is beyond the event's point estimate (or
/// beyond 10^10 outputs).
pub fn samples_for_tightness(
    result: &AuditResult,
    target_tightness: f64,
    config: &AuditConfig,
) -> Option<u64> {
    result
        .eps_claimed
        .and_then(|c| samples_for(result, target_tightness * c, alpha_rate(config)))
}

/// The statistic fitted on the training outputs: a score of the outputs' kind (for vectors,
/// with their length).
pub(super) enum Scorer {
    /// Scores of scalar outputs.
    Scalar(Score<f64>),
    /// Scores of vector outputs of this length.
    Vector(Score<Vec<f64>>, usize),
    /// Scores of discrete outputs.
    Discrete(Score<String>),
}

impl Scorer {
    /// Count the scores of `held` (outputs under `x`, or `x'` when `prime`, from `source`;
    /// `first` is the index of the first one there, for error messages) into `counts`.
    ///
    /// # Errors
    /// Outputs of another kind (or vectors of another length) than the training ones, and a
    /// NaN score.
    pub(super) fn count(
        &self,
        counts: &mut HeldOutCounts,
        thresholds: &Thresholds,
        held: &Outputs,
        prime: bool,
        (source, first): (&str, usize),
    ) -> Result<(), AuditError> {
        match (self, held) {
            (Self::Scalar(s), Outputs::Scalar(v)) => {
                counts.count(thresholds, v.iter().map(|o| s(o)), prime, first)
            }
            (Self::Vector(s, d), Outputs::Vector(v)) => {
                if let Some(i) = v.iter().position(|o| o.len() != *d) {
                    return Err(AuditError::InvalidConfig(format!(
                        "{source}, output {} (counting from 1, blank and # lines not counted): {} \
                         numbers, the training outputs {d}",
                        first + i + 1,
                        v[i].len()
                    )));
                }
                counts.count(thresholds, v.iter().map(|o| s(o)), prime, first)
            }
            (Self::Discrete(s), Outputs::Discrete(v)) => {
                counts.count(thresholds, v.iter().map(|o| s(o)), prime, first)
            }
            (_, held) => Err(AuditError::InvalidConfig(format!(
                "{source}: the outputs are {:?}, the training outputs are not",
                held.kind()
            ))),
        }
    }
}

/// Counts every training output at the candidate thresholds, with the statistic fitted on the
/// pilot (the streamed training phase, [`AuditConfig::pilot`]).
pub(super) type TrainingCount<'a> =
    &'a dyn Fn(&Scorer, &Thresholds) -> Result<HeldOutCounts, AuditError>;

/// Fit the named statistic (`None`: histogram, mean-difference or counts by kind) on the
/// training outputs and choose the events: the plan (with `label`) and its score. With
/// `rest`, the outputs given are the pilot and `rest` counts every training output at the
/// candidates ([`AuditPlan::fit_streamed`]).
///
/// # Errors
/// Training outputs of different kinds or numbers, an unknown or unsuitable statistic, and the
/// errors of the fit.
pub(super) fn fit(
    train_x: &Outputs,
    train_x_prime: &Outputs,
    statistic: Option<&str>,
    claim: &PrivacyClaim,
    config: &AuditConfig,
    label: &str,
    rest: Option<TrainingCount<'_>>,
) -> Result<(AuditPlan, Scorer), AuditError> {
    if train_x.kind() != train_x_prime.kind() || train_x.len() != train_x_prime.len() {
        return Err(AuditError::InvalidConfig(format!(
            "the training outputs are {} {:?} under x and {} {:?} under x' (as many of one kind \
             under each)",
            train_x.len(),
            train_x.kind(),
            train_x_prime.len(),
            train_x_prime.kind()
        )));
    }
    let kind = train_x.kind();
    let fit = Fit {
        claim,
        config,
        label,
        rest,
    };
    match (train_x, train_x_prime) {
        (Outputs::Scalar(a), Outputs::Scalar(b)) => match statistic.unwrap_or("histogram") {
            "histogram" => fit.run(&HistogramRatio { bins: 100 }, a, b, Scorer::Scalar),
            "identity" => {
                // Large values are evidence for x when x's outputs are larger on training.
                let sign = if mean(a) >= mean(b) { 1.0 } else { -1.0 };
                let s = Known::new(
                    "the output itself (oriented on the training split)",
                    move |o: &f64| sign * o,
                );
                fit.run(&s, a, b, Scorer::Scalar)
            }
            other => Err(unsuitable(other, kind)),
        },
        (Outputs::Vector(a), Outputs::Vector(b)) => {
            let d = a.first().map_or(0, Vec::len);
            if let Some(o) = b.iter().find(|o| o.len() != d) {
                return Err(AuditError::InvalidConfig(format!(
                    "training outputs of {d} numbers under x and of {} under x'",
                    o.len()
                )));
            }
            let wrap = |score| Scorer::Vector(score, d);
            match statistic.unwrap_or("mean-difference") {
                "mean-difference" => fit.run(&MeanDifferenceProjection, a, b, wrap),
                "fisher" => fit.run(&FisherDiscriminant, a, b, wrap),
                other => Err(unsuitable(other, kind)),
            }
        }
        (Outputs::Discrete(a), Outputs::Discrete(b)) => match statistic.unwrap_or("counts") {
            "counts" => fit.run(&DiscreteCounts, a, b, Scorer::Discrete),
            other => Err(unsuitable(other, kind)),
        },
        _ => unreachable!("kinds checked equal above"),
    }
}

/// What [`fit`] passes to every statistic.
struct Fit<'a> {
    claim: &'a PrivacyClaim,
    config: &'a AuditConfig,
    label: &'a str,
    rest: Option<TrainingCount<'a>>,
}

impl Fit<'_> {
    /// Fit `statistic` on `a`, `b` (the pilot when `rest` counts the rest) and wrap its score.
    fn run<O, S: Statistic<O>>(
        &self,
        statistic: &S,
        a: &[O],
        b: &[O],
        wrap: impl Fn(Score<O>) -> Scorer,
    ) -> Result<(AuditPlan, Scorer), AuditError> {
        let (plan, score) = match self.rest {
            None => AuditPlan::fit(statistic, a, b, self.claim, self.config, self.label)?,
            Some(count) => AuditPlan::fit_streamed(
                statistic,
                a,
                b,
                self.claim,
                self.config,
                self.label,
                |score, candidates| count(&wrap(Arc::clone(score)), candidates),
            )?,
        };
        Ok((plan, wrap(score)))
    }
}

/// Shuffle `v` and split it into its first `train` outputs and the rest.
fn shuffled_split<T>(mut v: Vec<T>, train: usize, rng: &mut ChaCha20Rng) -> (Vec<T>, Vec<T>) {
    v.shuffle(rng);
    let held = v.split_off(train);
    (v, held)
}

impl Outputs {
    /// Shuffle and split into the first `train` outputs and the rest.
    fn shuffled_split(self, train: usize, rng: &mut ChaCha20Rng) -> (Self, Self) {
        match self {
            Self::Scalar(v) => {
                let (a, b) = shuffled_split(v, train, rng);
                (Self::Scalar(a), Self::Scalar(b))
            }
            Self::Vector(v) => {
                let (a, b) = shuffled_split(v, train, rng);
                (Self::Vector(a), Self::Vector(b))
            }
            Self::Discrete(v) => {
                let (a, b) = shuffled_split(v, train, rng);
                (Self::Discrete(a), Self::Discrete(b))
            }
        }
    }
}

fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len() as f64
}

fn unsuitable(name: &str, kind: OutputKind) -> AuditError {
    AuditError::InvalidConfig(format!(
        "statistic {name:?} does not apply to {kind:?} outputs; the statistics: {STATISTICS}"
    ))
}

/// The smallest number of held-out outputs per input whose Clopper-Pearson bounds, at this
/// event's observed rates, give `eps_lower >= target` (doubling, then bisection; `None` beyond
/// `10^10` or when the event's point estimate is below the target).
fn samples_for(result: &AuditResult, target: f64, alpha_rate: f64) -> Option<u64> {
    let e = &result.eps_event;
    if !(e.fpr.is_finite() && e.fnr.is_finite()) || result.eps_estimate <= target {
        return None;
    }
    let lower = |n: u64| {
        let k = |p: f64| ((p * n as f64).round() as u64).min(n);
        eps_bound(
            clopper_pearson_upper(k(e.fpr), n, alpha_rate),
            clopper_pearson_upper(k(e.fnr), n, alpha_rate),
            result.delta,
        )
    };
    let mut hi = 16u64;
    while lower(hi) < target {
        hi *= 2;
        if hi > 10_000_000_000 {
            return None;
        }
    }
    let mut lo = hi / 2;
    while hi - lo > 1.max(hi / 1000) {
        let mid = lo + (hi - lo) / 2;
        if lower(mid) >= target {
            hi = mid
        } else {
            lo = mid
        }
    }
    Some(hi)
}
