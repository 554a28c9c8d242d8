//! `cargo xtask audit`'s library side: the worked example's stored outputs of a broken Python
//! Laplace mechanism (scale 0.7x, `verification/examples/`), a correct Laplace mechanism's
//! outputs drawn here, and bad input.

use privacy::LaplaceMechanism;
use privacy::NeighbouringRelation;
use privacy::claim::{Guarantee, PrivacyClaim, TrustModel};
use privacy::params::Epsilon;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use verification::audit::AuditConfig;
use verification::audit::external::{OutputKind, Outputs, Verdict, audit_external, parse_outputs};

fn claim(eps: f64) -> PrivacyClaim {
    PrivacyClaim::new(
        "external",
        Guarantee::PureDp {
            epsilon: Epsilon::new(eps).unwrap(),
        },
        TrustModel::Central,
        NeighbouringRelation::StatedPair,
        "inputs 0 and 1",
    )
}

fn example(name: &str) -> Outputs {
    let path = format!("{}/examples/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("the example's stored outputs");
    parse_outputs(&text, None, &path).expect("parses")
}

/// The broken Laplace (scale 0.7 times the calibrated one: true epsilon 1/0.7 = 1.43) is
/// flagged: a certified epsilon above the claimed 1.
#[test]
fn the_broken_python_laplace_is_flagged() {
    let (x, xp) = (
        example("broken_laplace_x.txt"),
        example("broken_laplace_x_prime.txt"),
    );
    assert_eq!(x.kind(), OutputKind::Scalar);
    assert_eq!(x.len(), 20_000);
    let config = AuditConfig::new(10, 1e-6, 1);
    let a = audit_external(x, xp, &claim(1.0), None, 0.5, 0.9, &config).unwrap();
    assert_eq!(a.verdict, Verdict::ViolationCertified);
    assert!(a.result.eps_lower > 1.0, "{}", a.result.eps_lower);
    assert!(a.result.eps_lower < 1.0 / 0.7, "{}", a.result.eps_lower);
}

/// A correct Laplace mechanism (eps = 1, inputs 0 and 1, the textbook sampler) passes, with its
/// tightness reported; the same outputs against a claim of eps = 0.5 are flagged.
#[test]
fn a_correct_laplace_is_consistent() {
    let m = LaplaceMechanism::new(1.0, 1.0)
        .unwrap()
        .with_sampler(privacy::Sampler::Textbook);
    let mut rng = ChaCha20Rng::seed_from_u64(7);
    let mut draw = |v: f64| -> Vec<f64> {
        (0..20_000)
            .map(|_| m.release_scalar(v, &mut rng).unwrap())
            .collect()
    };
    let (x, xp) = (draw(0.0), draw(1.0));
    let config = AuditConfig::new(10, 1e-6, 1);
    let a = audit_external(
        Outputs::Scalar(x.clone()),
        Outputs::Scalar(xp.clone()),
        &claim(1.0),
        None,
        0.5,
        0.9,
        &config,
    )
    .unwrap();
    assert_eq!(a.verdict, Verdict::Consistent);
    let t = a.result.eps_tightness.unwrap();
    assert!(t > 0.7 && t <= 1.0, "{t}");
    let b = audit_external(
        Outputs::Scalar(x),
        Outputs::Scalar(xp),
        &claim(0.5),
        None,
        0.5,
        0.9,
        &config,
    )
    .unwrap();
    assert_eq!(b.verdict, Verdict::ViolationCertified);
}

fn e<T: std::fmt::Debug>(r: Result<T, verification::audit::AuditError>) -> String {
    r.unwrap_err().to_string()
}

/// Bad input: clear errors, never a panic.
#[test]
fn bad_input_is_an_error() {
    let config = AuditConfig::new(10, 1e-6, 1);
    assert!(e(parse_outputs("", None, "f")).contains("no outputs"));
    assert!(e(parse_outputs("# only a comment\n\n", None, "f")).contains("no outputs"));
    let nan = e(parse_outputs("1.0\nNaN\n", None, "f"));
    assert!(nan.contains("line 2") && nan.contains("NaN"), "{nan}");
    assert!(e(parse_outputs("1,2\n3\n", None, "f")).contains("line 2"));
    assert!(e(parse_outputs("1\nabc\n", Some(OutputKind::Scalar), "f")).contains("line 2"));
    let v = parse_outputs("[1, 2]\n3 4\n", None, "f").unwrap();
    assert_eq!(v, Outputs::Vector(vec![vec![1.0, 2.0], vec![3.0, 4.0]]));
    let d = parse_outputs("arm-3\n\"arm 4\"\n", None, "f").unwrap();
    assert_eq!(d.kind(), OutputKind::Discrete);
    let s = |n: usize| Outputs::Scalar((0..n).map(|i| i as f64).collect());
    let c = claim(1.0);
    let unequal = e(audit_external(s(100), s(99), &c, None, 0.5, 0.9, &config));
    assert!(unequal.contains("unequal"), "{unequal}");
    assert!(e(audit_external(s(12), s(12), &c, None, 0.5, 0.9, &config)).contains("at least 10"));
    let kinds = e(audit_external(
        s(100),
        Outputs::Discrete(vec!["a".into(); 100]),
        &c,
        None,
        0.5,
        0.9,
        &config,
    ));
    assert!(kinds.contains("Discrete"), "{kinds}");
    let stat = e(audit_external(
        s(100),
        s(100),
        &c,
        Some("fisher"),
        0.5,
        0.9,
        &config,
    ));
    assert!(stat.contains("does not apply"), "{stat}");
    assert!(e(audit_external(s(100), s(100), &c, None, 1.5, 0.9, &config)).contains("fraction"));
    // Infinities are refused (they made every score NaN, which counted as evidence).
    assert!(e(parse_outputs("1 2\ninf 3\n", None, "f")).contains("line 2"));
    assert!(e(parse_outputs("[1, 2]\n[1e400, 3]\n", None, "f")).contains("line 2"));
    assert!(e(parse_outputs("0.5\n-inf\n", None, "f")).contains("line 2"));
    // A header line above numeric outputs is refused, not read as a discrete label.
    let header = e(parse_outputs("output\n0.5\n0.7\n", None, "f"));
    assert!(header.contains("header"), "{header}");
    // A trailing comma on a scalar line is one number.
    assert_eq!(
        parse_outputs("0.5,\n0.7,\n", None, "f").unwrap(),
        Outputs::Scalar(vec![0.5, 0.7])
    );
}

/// The broken Laplace's outputs read as discrete labels (every value its own label): the
/// statistic is too weak to see the leakage (it certifies less than half the claim), which is
/// INCONCLUSIVE, not CONSISTENT (review of issue 14).
#[test]
fn a_weak_statistic_is_inconclusive() {
    let path = |n: &str| format!("{}/examples/{n}", env!("CARGO_MANIFEST_DIR"));
    let read = |n: &str| {
        let text = std::fs::read_to_string(path(n)).unwrap();
        parse_outputs(&text, Some(OutputKind::Discrete), n).unwrap()
    };
    let (x, xp) = (
        read("broken_laplace_x.txt"),
        read("broken_laplace_x_prime.txt"),
    );
    let config = AuditConfig::new(10, 1e-6, 1);
    let a = audit_external(x, xp, &claim(1.0), None, 0.5, 0.9, &config).unwrap();
    assert_eq!(
        a.verdict,
        Verdict::Inconclusive,
        "{:?}",
        a.result.eps_tightness
    );
}

/// A claim stated as numbers (the `cargo xtask audit` flags and the Python auditor): exactly
/// one of eps, mu, rho; mu and rho need a delta in (0, 1); `gaussian_noise` only with rho.
#[test]
fn stated_claims_are_built_and_refused_as_documented() {
    use privacy::claim::Guarantee;
    use verification::audit::external::StatedClaim;
    let s = |eps, delta, mu, rho, gaussian_noise| StatedClaim {
        eps,
        delta,
        mu,
        rho,
        gaussian_noise,
    };
    let (pure, mu) = s(Some(1.0), None, None, None, false).claim().unwrap();
    assert!(matches!(pure.guarantee, Guarantee::PureDp { .. }) && mu.is_none());
    let (zero, _) = s(Some(1.0), Some(0.0), None, None, false).claim().unwrap();
    assert!(matches!(zero.guarantee, Guarantee::PureDp { .. }));
    let (approx, _) = s(Some(1.0), Some(1e-5), None, None, false).claim().unwrap();
    assert!(matches!(approx.guarantee, Guarantee::ApproximateDp { .. }));
    let (gdp, mu) = s(None, Some(1e-5), Some(0.5), None, false).claim().unwrap();
    assert!(matches!(gdp.guarantee, Guarantee::GaussianDp { .. }));
    assert_eq!(mu, Some(0.5));
    let (zcdp, mu) = s(None, Some(1e-5), None, Some(0.125), true)
        .claim()
        .unwrap();
    assert!(matches!(zcdp.guarantee, Guarantee::Zcdp { .. }));
    assert_eq!(mu, Some(0.5));
    let config = s(None, Some(1e-5), None, Some(0.125), true)
        .config(1e-6, 3)
        .unwrap();
    assert_eq!(
        (config.delta, config.mu_reference, config.seed),
        (Some(1e-5), Some(0.5), 3)
    );
    for bad in [
        s(None, None, None, None, false),
        s(Some(1.0), None, Some(1.0), None, false),
        s(Some(1.0), Some(-0.1), None, None, false),
        s(Some(-1.0), None, None, None, false),
        s(None, None, Some(1.0), None, false),
        s(None, Some(1.0), None, Some(0.5), false),
        s(Some(1.0), None, None, None, true),
    ] {
        assert!(bad.claim().is_err(), "{bad:?}");
    }
}
