//! The verify report: one record per check, written as `report.json` and `report.md`.
//!
//! The JSON schema (version [`SCHEMA_VERSION`]) is documented in `docs/verification.md`;
//! every field of [`CheckRecord`] is always present (`null` where it does not apply), so that
//! other tools can read the report without guessing.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::check::Outcome;

/// Version of the report's JSON schema; bumped on any incompatible change.
pub const SCHEMA_VERSION: u32 = 1;

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

/// One check's record in the report: the id, the outcome the check returned and the time.
/// In JSON the outcome's fields stand beside the id (flattened), as in schema version 1.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CheckRecord {
    /// Identifier, prefixed by area: `kernel/qff/se-1d-grid`, `audit/laplace/eps-1`, ...
    pub id: String,
    /// What the check returned (kind, subject, claim, measured, verdict, values,
    /// false-alarm probability, audit fields, plots).
    #[serde(flatten)]
    pub outcome: Outcome,
    /// Wall-clock seconds the check took.
    pub seconds: f64,
}

/// Counts of verdicts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    /// Checks that passed.
    pub pass: usize,
    /// Checks that failed.
    pub fail: usize,
    /// Checks that were inconclusive.
    pub inconclusive: usize,
}

/// The whole report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// `quick` or `full`.
    pub mode: String,
    /// The `--only` prefix, if any.
    pub only: Option<String>,
    /// The base seed of every randomised check.
    pub seed: u64,
    /// Total wall-clock seconds.
    pub total_seconds: f64,
    /// Verdict counts.
    pub counts: Counts,
    /// Union (Bonferroni) bound on the probability that any statistical check of this run fails
    /// although every claim holds: the sum of the checks' `false_alarm_probability`.
    pub family_wise_false_alarm_bound: f64,
    /// The records, in the order the checks ran.
    pub checks: Vec<CheckRecord>,
}

impl Report {
    /// Assemble a report from records.
    pub fn new(
        mode: &str,
        only: Option<String>,
        seed: u64,
        total_seconds: f64,
        checks: Vec<CheckRecord>,
    ) -> Self {
        let mut counts = Counts::default();
        for c in &checks {
            match c.outcome.verdict {
                Verdict::Pass => counts.pass += 1,
                Verdict::Fail => counts.fail += 1,
                Verdict::Inconclusive => counts.inconclusive += 1,
            }
        }
        // A fold from +0.0: `Sum` of an empty f64 iterator is -0.0, which would print as "-0".
        let family_wise_false_alarm_bound = checks
            .iter()
            .filter_map(|c| c.outcome.false_alarm_probability)
            .fold(0.0, |a, p| a + p);
        Self {
            schema_version: SCHEMA_VERSION,
            mode: mode.to_string(),
            only,
            seed,
            total_seconds,
            counts,
            family_wise_false_alarm_bound,
            checks,
        }
    }

    /// True when no check failed.
    pub fn ok(&self) -> bool {
        self.counts.fail == 0
    }

    /// The Markdown rendering: a summary, then one table row per check (claim, measured,
    /// verdict, tightness where an audit reports one), then the plots.
    pub fn to_markdown(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "# Verification report\n");
        let _ = writeln!(
            s,
            "Mode `{}`{}, seed {}, {} checks in {:.1} s: **{} pass, {} fail, {} inconclusive**.\n",
            self.mode,
            self.only
                .as_deref()
                .map(|o| format!(", only `{o}`"))
                .unwrap_or_default(),
            self.seed,
            self.checks.len(),
            self.total_seconds,
            self.counts.pass,
            self.counts.fail,
            self.counts.inconclusive
        );
        let _ = writeln!(
            s,
            "Probability that any statistical check below fails although its claim holds \
             (union bound over the checks): at most {:.2e}.\n",
            self.family_wise_false_alarm_bound
        );
        let _ = writeln!(
            s,
            "| verdict | id | kind | claim | measured | tightness | s |"
        );
        let _ = writeln!(s, "|---|---|---|---|---|---|---|");
        for c in &self.checks {
            let tightness = c
                .outcome
                .audit
                .as_ref()
                .and_then(|a| a.get("tightness"))
                .and_then(serde_json::Value::as_f64)
                .map(|t| format!("{t:.3}"))
                .unwrap_or_default();
            let _ = writeln!(
                s,
                "| {} | `{}` | {} | {} | {} | {} | {:.2} |",
                match c.outcome.verdict {
                    Verdict::Pass => "PASS",
                    Verdict::Fail => "**FAIL**",
                    Verdict::Inconclusive => "inconclusive",
                },
                c.id,
                serde_json::to_value(c.outcome.kind)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default(),
                md_cell(&c.outcome.claim),
                md_cell(&c.outcome.measured),
                tightness,
                c.seconds
            );
        }
        audit_table(&mut s, &self.checks);
        let plots: Vec<_> = self
            .checks
            .iter()
            .flat_map(|c| c.outcome.plots.iter().map(move |p| (&c.id, p)))
            .collect();
        if !plots.is_empty() {
            let _ = writeln!(s, "\n## Plots\n");
            for (id, p) in plots {
                let _ = writeln!(s, "### `{id}`\n\n![{id}]({p})\n");
                if let Some(caption) = crate::plot::caption(p) {
                    let _ = writeln!(s, "{caption}\n");
                }
            }
        }
        s
    }
}

/// The privacy audits at a glance: one row per record whose `audit` has a numeric `eps_lower`.
fn audit_table(s: &mut String, checks: &[CheckRecord]) {
    let num = |a: &serde_json::Value, k: &str| a.get(k).and_then(serde_json::Value::as_f64);
    let fmt = |v: Option<f64>| v.map(|x| format!("{x:.4}")).unwrap_or_else(|| "-".into());
    let rows: Vec<_> = checks
        .iter()
        .filter_map(|c| {
            c.outcome
                .audit
                .as_ref()
                .filter(|a| num(a, "eps_lower").is_some())
                .map(|a| (c, a))
        })
        .collect();
    if rows.is_empty() {
        return;
    }
    let _ = writeln!(s, "\n## Privacy audits\n");
    let _ = writeln!(
        s,
        "eps at the stated delta; mu: Gaussian-DP route (mu of the audited pair in brackets); tightness = \
         lower bound / claimed (eps) or / mu of the pair (mu); held-out outputs per input; confidence 1 - alpha.\n"
    );
    let _ = writeln!(
        s,
        "| verdict | id | delta | eps claimed | eps lower | mu lower (pair) | tightness | detectable eps | outputs | confidence |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|---|---|---|---|---|");
    for (c, a) in rows {
        let det = a
            .get("smallest_detectable_violation")
            .and_then(|d| d.get("epsilon"))
            .and_then(serde_json::Value::as_f64);
        let _ = writeln!(
            s,
            "| {} | `{}` | {} | {} | {} | {} ({}) | {} ({}) | {} | {} | {} |",
            c.outcome.verdict,
            c.id,
            num(a, "delta").map_or_else(|| "-".to_string(), |d| format!("{d:e}")),
            fmt(num(a, "eps_claimed")),
            fmt(num(a, "eps_lower")),
            fmt(num(a, "mu_lower")),
            fmt(num(a, "mu_reference")),
            fmt(num(a, "tightness")),
            a.get("tightness_of")
                .and_then(serde_json::Value::as_str)
                .unwrap_or("-"),
            fmt(det),
            a.get("samples")
                .and_then(serde_json::Value::as_u64)
                .map(|n| n.to_string())
                .unwrap_or_default(),
            num(a, "confidence")
                .map(|c| format!("1 - {:.0e}", 1.0 - c))
                .unwrap_or_default(),
        );
    }
}

fn md_cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}
