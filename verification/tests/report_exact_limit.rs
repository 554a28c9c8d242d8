//! The report prints an audit's tightness against the exact epsilon of its pair beside the
//! headline tightness (which divides by the claim), in the summary table, the audit table and
//! the HTML page; an audit without one shows only the headline.

use privacy::NeighbouringRelation;
use privacy::{Epsilon, Guarantee, PrivacyClaim, TrustModel};
use rand::RngExt;
use rand_chacha::ChaCha20Rng;
use std::path::Path;
use verification::audit::{AuditConfig, Known, audit};
use verification::outcome::EXACT_TIGHTNESS;
use verification::report_html::to_html;
use verification::{CheckKind, CheckRecord, Outcome, Report, Verdict};

fn audited(id: &str, exact_tightness: Option<f64>) -> CheckRecord {
    let laplace = |x: &f64, rng: &mut ChaCha20Rng| -> Result<f64, std::convert::Infallible> {
        let u: f64 = rng.random::<f64>() - 0.5;
        Ok(x - u.signum() * (-2.0 * u.abs()).ln_1p())
    };
    let claim = PrivacyClaim::new(
        "Laplace, eps = 1",
        Guarantee::PureDp {
            epsilon: Epsilon::new(1.0).unwrap(),
        },
        TrustModel::Central,
        NeighbouringRelation::WithinSensitivity,
        "|x - x'| <= 1",
    );
    let r = audit(
        laplace,
        &0.0,
        &1.0,
        &claim,
        &Known::new("exact LLR ordering (-o)", |o: &f64| -*o),
        &AuditConfig::new(20_000, 1e-6, 1),
    )
    .unwrap();
    let mut o = Outcome::new(
        CheckKind::Audit,
        "Laplace",
        "claim",
        "measured",
        Verdict::Pass,
    )
    .audit((*r).clone());
    if let Some(t) = exact_tightness {
        o = o.value(EXACT_TIGHTNESS, t);
    }
    assert_eq!(o.exact_tightness(), exact_tightness);
    CheckRecord {
        id: id.into(),
        outcome: o,
        seconds: 0.1,
    }
}

#[test]
fn the_exact_limit_tightness_is_printed_beside_the_headline() {
    let report = Report::new(
        "quick",
        None,
        1,
        1.0,
        vec![audited("a/limited", Some(0.9512)), audited("a/plain", None)],
    );
    let md = report.to_markdown();
    assert!(md.contains("(0.951 of the exact limit)"), "{md}");
    assert!(md.contains("| exact limit |"));
    let audit_rows: Vec<&str> = md.lines().filter(|l| l.contains("| 1 - 1e-6 |")).collect();
    assert_eq!(audit_rows.len(), 2, "{md}");
    assert!(audit_rows[0].contains("| 0.9512 |"), "{}", audit_rows[0]);
    assert_eq!(md.matches("of the exact limit").count(), 1);
    let html = to_html(&report, Path::new("/nonexistent"));
    assert_eq!(
        html.matches("0.9512 of the exact limit").count(),
        1,
        "{html}"
    );
}
