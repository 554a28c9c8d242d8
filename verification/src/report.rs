//! The verify report: one record per check, written as `report.json` and `report.md`.
//!
//! The JSON schema (version [`SCHEMA_VERSION`]) is documented in `docs/verification.md`;
//! every field of [`CheckRecord`] is always present (`null` where it does not apply), so that
//! other tools can read the report without guessing.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::outcome::{AuditSummary, Outcome, TightnessOf, Verdict};

/// Version of the report's JSON schema; bumped on any incompatible change.
pub const SCHEMA_VERSION: u32 = 1;

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
    /// Checks selected but not run because they run only with `--full` (empty in a full run).
    #[serde(default)]
    pub full_only_not_run: Vec<String>,
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
            full_only_not_run: Vec::new(),
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
        if !self.full_only_not_run.is_empty() {
            let _ = writeln!(
                s,
                "Not run: {} whose budget belongs to `--full` ({}).\n",
                checks_noun(self.full_only_not_run.len()),
                self.full_only_not_run
                    .iter()
                    .map(|id| format!("`{id}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
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
                .and_then(|a| a.tightness())
                .map(|t| match c.outcome.exact_tightness() {
                    Some(e) => format!("{t:.3} ({e:.3} of the exact limit)"),
                    None => format!("{t:.3}"),
                })
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
                c.outcome.kind.name(),
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

/// The privacy audits at a glance: one row per record with a likelihood-ratio audit whose
/// epsilon lower bound is finite (an audit without evidence, `-inf`, has no row).
fn audit_table(s: &mut String, checks: &[CheckRecord]) {
    let fmt = |v: Option<f64>| v.map(|x| format!("{x:.4}")).unwrap_or_else(|| "-".into());
    let rows: Vec<(&CheckRecord, &AuditSummary)> = checks
        .iter()
        .filter_map(|c| {
            c.outcome
                .audit
                .as_ref()
                .and_then(|a| a.likelihood())
                .filter(|a| a.eps_lower.is_finite())
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
         lower bound / claimed (eps) or / mu of the pair (mu); exact limit: lower bound / the exact eps of the \
         audited pair, where that lies below the claim (no admissible pair reaches the claim; the \
         check's text gives the proof); held-out outputs per input; confidence 1 - alpha.\n"
    );
    let _ = writeln!(
        s,
        "| verdict | id | delta | eps claimed | eps lower | mu lower (pair) | tightness | exact limit | detectable eps | outputs | confidence |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|---|---|---|---|---|---|");
    for (c, a) in rows {
        let _ = writeln!(
            s,
            "| {} | `{}` | {:e} | {} | {} | {} ({}) | {} ({}) | {} | {} | {} | 1 - {:.0e} |",
            c.outcome.verdict,
            c.id,
            a.delta,
            fmt(a.eps_claimed),
            fmt(Some(a.eps_lower)),
            fmt(a.mu_lower),
            fmt(a.mu_reference),
            fmt(a.tightness),
            match a.tightness_of {
                TightnessOf::Mu => "mu",
                TightnessOf::Epsilon => "epsilon",
            },
            fmt(c.outcome.exact_tightness()),
            fmt(a.smallest_detectable_violation.epsilon),
            a.samples,
            1.0 - a.confidence,
        );
    }
}

/// "1 check" or "`n` checks".
pub fn checks_noun(n: usize) -> String {
    if n == 1 {
        "1 check".to_string()
    } else {
        format!("{n} checks")
    }
}

fn md_cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}
