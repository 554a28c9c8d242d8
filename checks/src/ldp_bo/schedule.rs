//! The schedules of the theorems' algorithms against values computed independently of the crate:
//! `fixtures/ldp-bo/independent/theory_schedules.json`, written by the Python transcription
//! `theory_schedules.py` beside it (the paper's formulas copied line by line, evaluated with
//! mpmath at 50 digits). The crate's functions must agree to [`RELATIVE_TOLERANCE`] on every
//! case: the CTL scale, Algorithm 2's `K`, `b_t` and `beta_t`, Theorem 2's `v`, `rho`, `q`, `b_t`
//! and `beta_{t+1}`, Corollary 1's `c`, Algorithm 3's `k`, Theorem 4's `beta_{n+1}` (with the
//! proof's `lambda^{-1/2}`), and Theorem 1's lower-bound rates.
//!
//! The control evaluates Algorithm 2's schedule one round late (`b_t` for `b_{t-1}` and
//! `ln t` for `ln(t - 1)` in `beta_t`): the same comparison must reject it.

use ldp_bo::lower_bound::{LowerBoundKernel, LowerBoundSetting};
use ldp_bo::schedule::{
    AtaSchedule, MomaSchedule, NystromAccuracy, TgpSchedule, ata_private_v, ctl_scale,
    moma_private_c,
};
use serde::Deserialize;

use verification::CheckKind;
use verification::{CheckError, CheckResult, Context, Outcome, verdict};

/// The reference values (embedded at compile time, so the check needs no path at run time).
const REFERENCE: &str = include_str!("../../../fixtures/ldp-bo/independent/theory_schedules.json");

/// Largest accepted relative difference between the crate and the reference.
pub(super) const RELATIVE_TOLERANCE: f64 = 1e-12;

#[derive(Deserialize)]
struct Reference {
    cases: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    quantity: String,
    inputs: serde_json::Map<String, serde_json::Value>,
    value: String,
}

impl Case {
    fn f(&self, name: &str) -> Result<f64, CheckError> {
        self.inputs
            .get(name)
            .and_then(serde_json::Value::as_f64)
            .ok_or_else(|| CheckError::msg(format!("{}: input {name} missing", self.quantity)))
    }

    fn u(&self, name: &str) -> Result<u64, CheckError> {
        self.inputs
            .get(name)
            .and_then(serde_json::Value::as_u64)
            .ok_or_else(|| CheckError::msg(format!("{}: input {name} missing", self.quantity)))
    }
}

/// Which schedule to evaluate: the crate's, Algorithm 2's one round late, or every schedule
/// built with `B` and `R` swapped (the controls).
#[derive(Clone, Copy, PartialEq)]
enum Variant {
    Crate,
    OneRoundLate,
    BrSwapped,
}

/// `(B, R)` of a case, swapped for [`Variant::BrSwapped`].
fn b_r(c: &Case, variant: Variant) -> Result<(f64, f64), CheckError> {
    let (b, r) = (c.f("B")?, c.f("R")?);
    Ok(if variant == Variant::BrSwapped {
        (r, b)
    } else {
        (b, r)
    })
}

fn tgp(c: &Case, variant: Variant) -> Result<TgpSchedule, CheckError> {
    let (b, r) = b_r(c, variant)?;
    let (lambda, delta) = if c.quantity == "tgp_beta" {
        (c.f("lambda")?, c.f("delta")?)
    } else {
        (1.0, 0.5)
    };
    Ok(TgpSchedule::new(b, r, c.f("epsilon")?, lambda, delta)?)
}

/// The crate's value of one reference case.
fn evaluate(c: &Case, variant: Variant) -> Result<f64, CheckError> {
    let late = u64::from(variant == Variant::OneRoundLate);
    Ok(match c.quantity.as_str() {
        "ctl_scale" => {
            let (b, r) = b_r(c, variant)?;
            ctl_scale(b, r, c.f("epsilon")?)?
        }
        "tgp_K" => tgp(c, variant)?.k_constant(),
        "tgp_b" => tgp(c, variant)?.truncation(c.u("t")? + late),
        "tgp_beta" => tgp(c, variant)?.beta(c.u("t")? + late, c.f("gamma_prev")?),
        "ata_v" => {
            let (b, r) = b_r(c, variant)?;
            ata_private_v(b, r, c.f("epsilon")?)?
        }
        "moma_c" => {
            let (b, r) = b_r(c, variant)?;
            moma_private_c(b, r, c.f("epsilon")?)?
        }
        "nystrom_rho" => NystromAccuracy::new(c.f("accuracy")?)?.rho(),
        "nystrom_q" => NystromAccuracy::new(c.f("accuracy")?)?.q(c.u("T")?, c.f("delta")?),
        "ata_b" | "ata_beta" => {
            let s = AtaSchedule::new(
                c.f("B")?,
                c.f("v")?,
                c.f("lambda")?,
                c.f("delta")?,
                c.u("T")?,
                c.f("accuracy")?,
            )?;
            let m = c.u("m")? as usize;
            if c.quantity == "ata_b" {
                s.truncation(m)
            } else {
                s.beta_next(m)
            }
        }
        "moma_k" => MomaSchedule::new(1.0, 1.0, 1.0, 1.0, c.f("delta")?, c.u("T")?, 0.5)?
            .theorem_epoch_length() as f64,
        "moma_beta" => MomaSchedule::new(
            c.f("B")?,
            c.f("c")?,
            c.f("alpha")?,
            c.f("lambda")?,
            0.5,
            1000,
            c.f("accuracy")?,
        )?
        .beta_next(c.u("m")? as usize, c.u("n")?),
        "lower_bound_se" | "lower_bound_matern" => {
            let kernel = if c.quantity == "lower_bound_se" {
                LowerBoundKernel::SquaredExponential
            } else {
                LowerBoundKernel::Matern { nu: c.f("nu")? }
            };
            LowerBoundSetting {
                kernel,
                dimension: c.u("d")? as usize,
                b: c.f("B")?,
                epsilon: c.f("epsilon")?,
                alpha: c.f("alpha")?,
                v: c.f("v")?,
            }
            .rate(c.u("T")?)?
        }
        other => {
            return Err(CheckError::msg(format!(
                "unknown reference quantity {other}"
            )));
        }
    })
}

/// Per quantity: cases, cases outside the tolerance, largest relative difference.
struct Comparison {
    rows: Vec<(String, usize, usize, f64)>,
    failed: usize,
    total: usize,
    worst: f64,
}

fn compare(variant: Variant) -> Result<Comparison, CheckError> {
    let reference: Reference = serde_json::from_str(REFERENCE)?;
    let mut rows: Vec<(String, usize, usize, f64)> = Vec::new();
    for c in &reference.cases {
        let expected: f64 = c
            .value
            .parse()
            .map_err(|e| CheckError::msg(format!("{}: value {}: {e}", c.quantity, c.value)))?;
        let got = evaluate(c, variant)?;
        let rel = (got - expected).abs() / expected.abs().max(f64::MIN_POSITIVE);
        let rel = if rel.is_nan() { f64::INFINITY } else { rel };
        match rows.iter_mut().find(|r| r.0 == c.quantity) {
            Some(r) => {
                r.1 += 1;
                r.2 += usize::from(rel > RELATIVE_TOLERANCE);
                r.3 = r.3.max(rel);
            }
            None => rows.push((
                c.quantity.clone(),
                1,
                usize::from(rel > RELATIVE_TOLERANCE),
                rel,
            )),
        }
    }
    let failed = rows.iter().map(|r| r.2).sum();
    let total = rows.iter().map(|r| r.1).sum();
    let worst = rows.iter().map(|r| r.3).fold(0.0, f64::max);
    Ok(Comparison {
        rows,
        failed,
        total,
        worst,
    })
}

fn table(c: &Comparison) -> String {
    c.rows
        .iter()
        .map(|(q, n, bad, worst)| format!("{q}: {n} cases, {bad} outside, max rel {worst:.1e}"))
        .collect::<Vec<_>>()
        .join("; ")
}

pub(super) fn theory_formulas(_ctx: &Context) -> CheckResult {
    let c = compare(Variant::Crate)?;
    Ok(Outcome::new(
        CheckKind::Accuracy,
        "ldp_bo::schedule and ldp_bo::lower_bound (the theorems' constants, scale 1)",
        format!(
            "every case of fixtures/ldp-bo/independent/theory_schedules.json (the paper's \
             formulas transcribed in Python, mpmath at 50 digits) agrees with the crate to \
             relative {RELATIVE_TOLERANCE:e}"
        ),
        format!(
            "{} of {} cases outside; largest relative difference {:.1e}; {}",
            c.failed,
            c.total,
            c.worst,
            table(&c)
        ),
        verdict(c.failed == 0),
    )
    .value("cases", c.total)
    .value("cases_outside", c.failed)
    .value("max_relative_difference", c.worst))
}

/// A positive control: the schedules evaluated as `variant`, which the comparison of
/// `ldp-bo/schedule/theory-formulas` must reject.
fn control(variant: Variant, subject: &str) -> CheckResult {
    let c = compare(variant)?;
    Ok(Outcome::new(
        CheckKind::PositiveControl,
        subject,
        format!(
            "the comparison of ldp-bo/schedule/theory-formulas rejects it: at least one case \
             outside relative {RELATIVE_TOLERANCE:e}"
        ),
        format!("{} of {} cases outside; {}", c.failed, c.total, table(&c)),
        verdict(c.failed > 0),
    )
    .value("cases_outside", c.failed))
}

pub(super) fn control_one_round_late(_ctx: &Context) -> CheckResult {
    control(
        Variant::OneRoundLate,
        "Algorithm 2's schedule one round late (b_t for b_{t-1}, ln t for ln(t - 1))",
    )
}

pub(super) fn control_b_r_swapped(_ctx: &Context) -> CheckResult {
    control(
        Variant::BrSwapped,
        "the CTL scale, Algorithm 2's schedule and the private v, c built with B and R swapped \
         (the curator's distribution depends on B + R only, so the privacy audits cannot see \
         this swap; the learner's width beta_t starts with B, and Corollary 1's \
         c = R^2 + 8 (B + R)^2 / eps^2)",
    )
}
