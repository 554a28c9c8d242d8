//! A mechanism that returns an error fails its audit check, with that error in the report: an
//! error is never turned into an output the auditor would count.

use checks::shared::{ALPHA, Expect, audit_outcome};
use privacy::LaplaceMechanism;
use rand_chacha::ChaCha20Rng;
use verification::audit::{AuditConfig, AuditError, HistogramRatio, audit};
use verification::check::{Check, CheckResult, Context, Settings};
use verification::{CheckKind, Verdict};
use verification::{Mode, Outcome, run_checks};

/// An audit of the Laplace mechanism on a pair whose second input is not finite: the
/// mechanism refuses it with a typed error.
fn audit_with_a_failing_input(ctx: &Context) -> CheckResult {
    let m = LaplaceMechanism::new(1.0, 1.0)?;
    let f = |x: &f64, rng: &mut ChaCha20Rng| m.release_scalar(*x, rng);
    let cfg = AuditConfig::new(1000, ALPHA, ctx.check_seed());
    let r = audit(
        f,
        &0.0,
        &f64::NAN,
        &m.claim(),
        &HistogramRatio { bins: 10 },
        &cfg,
    )?;
    Ok(audit_outcome(
        ctx,
        CheckKind::Audit,
        "Laplace on a non-finite input".into(),
        &r,
        Expect::Holds {
            min_tightness: None,
        },
    ))
}

fn settings() -> Settings {
    Settings {
        mode: Mode::Quick,
        seed: 1,
        out_dir: std::env::temp_dir().join("verification-failing-mechanism"),
        data_dir: std::path::PathBuf::from("../shared/data"),
    }
}

#[test]
fn the_auditor_stops_on_the_first_mechanism_error() {
    let m = LaplaceMechanism::new(1.0, 1.0).unwrap();
    let f = |x: &f64, rng: &mut ChaCha20Rng| m.release_scalar(*x, rng);
    let err = audit(
        f,
        &0.0,
        &f64::INFINITY,
        &m.claim(),
        &HistogramRatio { bins: 10 },
        &AuditConfig::new(1000, 1e-6, 3),
    )
    .unwrap_err();
    assert!(matches!(err, AuditError::Mechanism(_)), "{err:?}");
    let source = std::error::Error::source(&err).expect("the mechanism's error is the source");
    assert!(
        source.to_string().contains("finite"),
        "the source is the privacy crate's error: {source}"
    );
}

#[test]
fn a_mechanism_error_fails_its_check_with_the_error_in_the_report() {
    let checks = [Check::new(
        "audit/test/failing-mechanism",
        audit_with_a_failing_input,
    )];
    let report = run_checks(&checks, &settings(), None, 2, |_| {});
    assert_eq!(report.counts.fail, 1);
    let record = &report.checks[0];
    let Outcome {
        verdict, measured, ..
    } = &record.outcome;
    assert_eq!(*verdict, Verdict::Fail);
    assert!(
        measured.starts_with("error: the audited mechanism failed: ")
            && measured.contains("finite"),
        "the report states the mechanism's error: {measured}"
    );
}
