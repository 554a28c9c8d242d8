//! The PLD accountant against external references (issue 15): dp_accounting 0.6.0 on the twelve
//! reference settings and the exact Gaussian epsilon, under add/remove and under replace-one,
//! with a positive control (the privacy buckets' lower-end rounding, presented as a bound,
//! falls below the exact value).

use privacy::accountant::pld::reference::{
    DP_ACCOUNTING, DP_ACCOUNTING_REPLACE_ONE, EXACT_GAUSSIAN, EXACT_GAUSSIAN_REPLACE_ONE,
    REFERENCE_SETTINGS,
};
use privacy::accountant::pld::subsampled_gaussian_pld_epsilon_replace_one;
use privacy::accountant::{PldSettings, subsampled_gaussian_pld_epsilon};
use serde_json::json;
use verification::CheckKind;
use verification::{CheckResult, Context, Outcome, verdict};

/// Largest relative excess over dp_accounting's pessimistic epsilon (issue 15: 0.5%).
const TOLERANCE: f64 = 5e-3;

/// Largest relative shortfall below it: the two are the same construction, and dp_accounting's
/// own rounding differs from ours by less (measured: 6e-7 at most); a tolerance of 0.5% on this
/// side would let a bound below dp_accounting's optimistic estimate pass at seven settings.
const BELOW: f64 = 1e-6;

pub(super) fn pld_reference(_ctx: &Context) -> CheckResult {
    let mut rows = Vec::new();
    let mut ok = true;
    let mut worst: f64 = 0.0;
    for (i, ((q, z, t, d), (pess, opt))) in REFERENCE_SETTINGS
        .into_iter()
        .zip(DP_ACCOUNTING)
        .enumerate()
    {
        let r = subsampled_gaussian_pld_epsilon(q, z, t, d, PldSettings::default())?;
        let rel = (r.epsilon - pess) / pess;
        let good = (-BELOW..=TOLERANCE).contains(&rel)
            && r.epsilon >= opt
            && r.epsilon_optimistic <= r.epsilon;
        ok &= good;
        worst = worst.max(rel.abs());
        rows.push(
            json!({"setting": i + 1, "q": q, "z": z, "steps": t, "delta": d,
            "pld": r.epsilon, "pld_optimistic": r.epsilon_optimistic,
            "dp_accounting_pessimistic": pess, "dp_accounting_optimistic": opt,
            "relative_difference": rel, "pass": good}),
        );
    }
    let mut exact_rows = Vec::new();
    for (z, t, d, exact) in EXACT_GAUSSIAN {
        let r = subsampled_gaussian_pld_epsilon(1.0, z, t, d, PldSettings::default())?;
        let good = r.epsilon >= exact;
        ok &= good;
        exact_rows.push(json!({"z": z, "steps": t, "delta": d, "exact": exact,
            "pld": r.epsilon, "excess": r.epsilon - exact, "pass": good}));
    }
    Ok(Outcome::new(
        CheckKind::Accuracy,
        "PLD accountant (bin width 1e-4) on the twelve reference settings of issue 15",
        "every epsilon at most 0.5% above dp_accounting 0.6.0's pessimistic value and at most \
         1e-6 below it (the same construction), above both optimistic estimates (ours, \
         dp_accounting's), and at q = 1 above the exact Gaussian epsilon (mpmath)",
        format!(
            "largest relative difference from dp_accounting {worst:.1e}; exact-Gaussian \
             excesses {}",
            excesses(&exact_rows)
        ),
        verdict(ok),
    )
    .value("rows", rows)
    .value("exact_gaussian", exact_rows)
    .value("worst_relative_difference", worst))
}

/// Positive control: the same check's exact-Gaussian comparison applied to the privacy buckets'
/// lower-end rounding (our optimistic estimate) as if it were the bound: it must fall below the
/// exact epsilon in both settings.
pub(super) fn control_buckets_as_bound(_ctx: &Context) -> CheckResult {
    let mut caught = true;
    let mut lines = Vec::new();
    for (z, t, d, exact) in EXACT_GAUSSIAN {
        let r = subsampled_gaussian_pld_epsilon(1.0, z, t, d, PldSettings::default())?;
        caught &= r.epsilon_optimistic < exact;
        lines.push(format!(
            "z = {z}, T = {t}: {:.9} against exact {exact:.9}",
            r.epsilon_optimistic
        ));
    }
    Ok(Outcome::new(
        CheckKind::PositiveControl,
        "positive control: lower-end rounding (privacy buckets, optimistic) presented as the bound",
        "falls below the exact Gaussian epsilon in both settings, so the comparison that the \
         reference check makes would fail",
        lines.join("; "),
        verdict(caught),
    ))
}

/// The replace-one accountant (the dominating pair) on the twelve settings against
/// dp_accounting 0.6.0's `REPLACE_ONE` (the same pair, the same construction), and at `q = 1`
/// against the exact Gaussian at twice the sensitivity.
pub(super) fn pld_replace_one_reference(_ctx: &Context) -> CheckResult {
    let mut rows = Vec::new();
    let mut ok = true;
    let mut worst: f64 = 0.0;
    for (i, ((q, z, t, d), reference)) in REFERENCE_SETTINGS
        .into_iter()
        .zip(DP_ACCOUNTING_REPLACE_ONE)
        .enumerate()
    {
        let eps = subsampled_gaussian_pld_epsilon_replace_one(q, z, t, d, PldSettings::default())?;
        let rel = (eps - reference) / reference;
        let good = (-BELOW..=TOLERANCE).contains(&rel);
        ok &= good;
        worst = worst.max(rel.abs());
        rows.push(
            json!({"setting": i + 1, "q": q, "z": z, "steps": t, "delta": d,
            "replace_one": eps, "dp_accounting_replace_one": reference,
            "relative_difference": rel, "pass": good}),
        );
    }
    let mut exact_rows = Vec::new();
    for (z, t, d, exact) in EXACT_GAUSSIAN_REPLACE_ONE {
        let eps =
            subsampled_gaussian_pld_epsilon_replace_one(1.0, z, t, d, PldSettings::default())?;
        let good = eps >= exact && eps - exact <= 1e-3;
        ok &= good;
        exact_rows.push(json!({"z": z, "steps": t, "delta": d, "exact": exact,
            "replace_one": eps, "excess": eps - exact, "pass": good}));
    }
    Ok(Outcome::new(
        CheckKind::Accuracy,
        "replace-one PLD accountant (bin width 1e-4) on the twelve reference settings",
        "every epsilon at most 0.5% above dp_accounting 0.6.0's REPLACE_ONE value and at most 1e-6 \
         below it (the same pair and construction), and at q = 1 above the exact Gaussian epsilon \
         at twice the sensitivity (mpmath) by at most 1e-3",
        format!(
            "largest relative difference from dp_accounting {worst:.1e}; exact-Gaussian \
             excesses {}",
            excesses(&exact_rows)
        ),
        verdict(ok),
    )
    .value("rows", rows)
    .value("exact_gaussian", exact_rows)
    .value("worst_relative_difference", worst))
}

/// The `excess` of each exact-Gaussian row, formatted for the report.
fn excesses(rows: &[serde_json::Value]) -> String {
    rows.iter()
        .map(|r| format!("{:.1e}", r["excess"].as_f64().unwrap_or(f64::NAN)))
        .collect::<Vec<_>>()
        .join(", ")
}
