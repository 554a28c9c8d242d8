//! A noise scale measured from a mechanism's outputs, judged against the scale a privacy claim
//! needs (issue 31, "checks that do not trust the claim"): the requirement is recomputed by the
//! check, the scale is estimated from noise draws the check extracts from released outputs
//! (output minus the exact, noise-free value it computes itself), never read from a field.
//!
//! # Bounds (rigorous, distribution-exact, no quantile routine)
//! - *Gaussian noise* `N(0, sigma^2)`, `n` draws, `m2 = sum x^2 / n`: `n m2 / sigma^2` is
//!   chi-square with `n` degrees of freedom, and the Chernoff bound gives, for `a < 1 < b`,
//!   `P(m2 / sigma^2 <= a) <= (a e^(1-a))^(n/2)` and `P(m2 / sigma^2 >= b) <= (b e^(1-b))^(n/2)`.
//! - *Laplace noise* of scale `b`, `m1 = sum |x| / n`: `|x| / b` is Exp(1), `n m1 / b` is
//!   Gamma(n, 1), and `P(m1 / b <= a) <= (a e^(1-a))^n`, the same for `>= b`.
//!
//! With `a`, `b` solving `(a e^(1-a))^k = alpha / 2` (`k = n/2` or `n`), the scale lies below
//! `upper = sqrt(m2 / a)` (`m1 / a`) and above `lower = sqrt(m2 / b)` (`m1 / b`), each with
//! probability at least `1 - alpha / 2`.
//!
//! # Verdicts
//! - **below the claim** (a privacy bug) when `upper < required`: if the true scale is at least
//!   the requirement this happens with probability at most `alpha / 2`;
//! - **looser than the claim** (a correctness bug: more noise than the claim needs, so the claim
//!   is weaker than the truth) when `lower > looser * required`: probability at most `alpha / 2`
//!   when the true scale is at most `looser` times the requirement;
//! - otherwise the noise **meets** the claim.
//!
//! So a check with a correct mechanism fails with probability at most `alpha` (the shared
//! [`ALPHA`](super::ALPHA) = `1e-6`), its seed fixed. The hardened samplers draw an exact
//! discrete Gaussian (Laplace) on a grid about `2^-20` of the sensitivity, far finer than the
//! scale; its law differs from the continuous one by far less than any rate above (its
//! variance by a relative `exp(-2 pi^2 sigma^2 / g^2)`-small amount, Poisson summation), which
//! the bounds do not count.

use verification::{CheckKind, Outcome, Verdict};

/// The law of the noise a mechanism adds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoiseLaw {
    /// Gaussian: the scale is the standard deviation.
    Gaussian,
    /// Laplace: the scale is `b` (density `exp(-|x| / b) / (2b)`).
    Laplace,
}

/// Noise draws reduced to their sufficient statistic.
#[derive(Debug, Clone, Copy)]
pub struct NoiseSample {
    law: NoiseLaw,
    n: usize,
    /// `sum x^2 / n` (Gaussian) or `sum |x| / n` (Laplace).
    moment: f64,
}

impl NoiseSample {
    /// Draws of a zero-mean noise of law `law`.
    pub fn new(law: NoiseLaw, draws: impl IntoIterator<Item = f64>) -> Self {
        let (mut n, mut s) = (0usize, 0.0f64);
        for x in draws {
            n += 1;
            s += match law {
                NoiseLaw::Gaussian => x * x,
                NoiseLaw::Laplace => x.abs(),
            };
        }
        Self {
            law,
            n,
            moment: s / n.max(1) as f64,
        }
    }

    /// The number of draws.
    pub fn len(&self) -> usize {
        self.n
    }

    /// Whether there are no draws.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// The estimated scale: `sqrt(m2)` or `m1`.
    pub fn scale(&self) -> f64 {
        match self.law {
            NoiseLaw::Gaussian => self.moment.sqrt(),
            NoiseLaw::Laplace => self.moment,
        }
    }

    /// The Chernoff exponent `k`: `n/2` (chi-square) or `n` (Gamma).
    fn k(&self) -> f64 {
        match self.law {
            NoiseLaw::Gaussian => self.n as f64 / 2.0,
            NoiseLaw::Laplace => self.n as f64,
        }
    }

    /// `(lower, upper)`: one-sided bounds on the scale, each at level `1 - p`.
    pub fn bounds(&self, p: f64) -> (f64, f64) {
        let (a, b) = chernoff_ratios(self.k(), p);
        match self.law {
            NoiseLaw::Gaussian => ((self.moment / b).sqrt(), (self.moment / a).sqrt()),
            NoiseLaw::Laplace => (self.moment / b, self.moment / a),
        }
    }
}

/// `(a, b)` with `a < 1 < b` and `(a e^(1-a))^k = (b e^(1-b))^k = p`, by bisection.
fn chernoff_ratios(k: f64, p: f64) -> (f64, f64) {
    // g(x) = k (ln x + 1 - x) - ln p: increasing on (0, 1), decreasing on (1, inf), 0 at both.
    let g = |x: f64| k * (x.ln() + 1.0 - x) - p.ln();
    let solve = |mut lo: f64, mut hi: f64, increasing: bool| {
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            if (g(mid) < 0.0) == increasing {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        (lo, hi)
    };
    // Below 1: take the lower end of the bracket (a smaller a, a larger upper bound: safe).
    let a = solve(1e-300, 1.0, true).0;
    let mut hi = 2.0;
    while g(hi) > 0.0 {
        hi *= 2.0;
    }
    // Above 1: the upper end (a larger b, a smaller lower bound: safe).
    let b = solve(1.0, hi, false).1;
    (a, b)
}

/// Where a measured scale stands against a requirement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NoiseVerdict {
    /// Within `[required, looser * required]` as far as the bounds can tell.
    Meets,
    /// Certainly below the requirement: the claim does not hold (privacy bug).
    BelowClaim,
    /// Certainly above `looser` times the requirement: the claim is weaker than the truth.
    LooserThanClaim,
}

impl NoiseVerdict {
    /// The words in the report.
    pub fn words(self) -> &'static str {
        match self {
            Self::Meets => "meets the claim",
            Self::BelowClaim => "BELOW what the claim needs (privacy bug)",
            Self::LooserThanClaim => "far ABOVE what the claim needs (claim looser than the truth)",
        }
    }
}

/// One measured scale against one recomputed requirement.
#[derive(Debug, Clone, serde::Serialize)]
pub struct NoiseJudgement {
    /// What was measured ("tree node noise, classic conversion").
    pub what: String,
    /// The estimated scale.
    pub measured: f64,
    /// One-sided lower bound at level `1 - alpha / 2`.
    pub lower: f64,
    /// One-sided upper bound at level `1 - alpha / 2`.
    pub upper: f64,
    /// The scale the claim needs, recomputed by the check.
    pub required: f64,
    /// `measured / required`.
    pub ratio: f64,
    /// The largest ratio not reported as looser.
    pub looser: f64,
    /// Noise draws.
    pub draws: usize,
    /// The verdict.
    pub verdict: NoiseVerdict,
}

impl NoiseJudgement {
    /// Judge `sample` against `required` at total level `alpha` (`alpha / 2` per side).
    pub fn new(
        what: impl Into<String>,
        sample: &NoiseSample,
        required: f64,
        looser: f64,
        alpha: f64,
    ) -> Self {
        let (lower, upper) = sample.bounds(alpha / 2.0);
        // A NaN bound (no draws) is below the claim: nothing certifies the noise.
        let verdict = if upper.is_nan() || upper < required {
            NoiseVerdict::BelowClaim
        } else if lower > looser * required {
            NoiseVerdict::LooserThanClaim
        } else {
            NoiseVerdict::Meets
        };
        Self {
            what: what.into(),
            measured: sample.scale(),
            lower,
            upper,
            required,
            ratio: sample.scale() / required,
            looser,
            draws: sample.len(),
            verdict,
        }
    }

    /// One line for the report.
    pub fn line(&self) -> String {
        format!(
            "{}: measured {:.5} in [{:.5}, {:.5}] from {} draws, required {:.5} (ratio {:.4}; looser above {}): {}",
            self.what,
            self.measured,
            self.lower,
            self.upper,
            self.draws,
            self.required,
            self.ratio,
            self.looser,
            self.verdict.words()
        )
    }
}

/// The outcome of a check of correct mechanisms: PASS when every judgement meets its claim,
/// FAIL otherwise; false alarm at most `alpha` per judgement (listed as their sum).
pub fn noise_outcome(
    subject: impl Into<String>,
    claim: impl Into<String>,
    judgements: &[NoiseJudgement],
    alpha: f64,
) -> Outcome {
    let ok = judgements.iter().all(|j| j.verdict == NoiseVerdict::Meets);
    let measured = judgements
        .iter()
        .map(NoiseJudgement::line)
        .collect::<Vec<_>>()
        .join("; ");
    Outcome::new(
        CheckKind::Property,
        subject,
        claim,
        measured,
        verification::verdict(ok),
    )
    .false_alarm(alpha * judgements.len() as f64)
    .value("judgements", judgements)
}

/// The outcome of a positive control: each broken variant's judgement must be the one it
/// plants (`expected`); a control whose variant is judged otherwise (meets, or the other side)
/// fails the check, so a run whose check cannot see the planted bug turns red.
pub fn noise_control_outcome(
    subject: impl Into<String>,
    claim: impl Into<String>,
    cases: &[(NoiseJudgement, NoiseVerdict)],
) -> Outcome {
    let ok = cases.iter().all(|(j, e)| j.verdict == *e);
    let measured = cases
        .iter()
        .map(|(j, e)| format!("{} (expected: {})", j.line(), e.words()))
        .collect::<Vec<_>>()
        .join("; ");
    let judgements: Vec<&NoiseJudgement> = cases.iter().map(|(j, _)| j).collect();
    Outcome::new(
        CheckKind::PositiveControl,
        subject,
        claim,
        measured,
        if ok { Verdict::Pass } else { Verdict::Fail },
    )
    .value("judgements", judgements)
}
