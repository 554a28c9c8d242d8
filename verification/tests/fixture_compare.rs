//! `verification::fixtures::compare` on every published fixture: our own outputs pass with
//! zero error; a copy with one value changed by 1e-6 relative fails in exactly that field (for
//! every numeric field whose tolerance is tighter than the change); a changed integer or
//! string fails exactly its field; a wrong shape is a schema mismatch; bad folders are errors.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use verification::fixtures::Fixture;
use verification::fixtures::compare::{
    CompareError, FixtureOutcome, compare_directory, compare_value, published,
};
use verification::fixtures::tolerance::{fields, lookup};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures")
}

fn all() -> BTreeMap<String, Fixture> {
    let f = published(&root()).expect("the published fixtures parse");
    assert!(f.len() >= 29, "only {} fixtures found", f.len());
    f
}

fn failing(o: &FixtureOutcome) -> Vec<String> {
    match o {
        FixtureOutcome::Compared { fields, .. } => fields
            .iter()
            .filter(|f| !f.pass)
            .map(|f| f.field.clone())
            .collect(),
        other => panic!("not compared: {other:?}"),
    }
}

/// The JSON pointers of the leaves of `field` (the path without indices) in `v`, with values.
fn leaves<'a>(v: &'a Value, field: &str, at: String, out: &mut Vec<(String, &'a Value)>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                let rest = field.strip_prefix(k.as_str());
                match rest {
                    Some("") => leaves(x, "", format!("{at}/{k}"), out),
                    Some(r) if r.starts_with('.') => leaves(x, &r[1..], format!("{at}/{k}"), out),
                    _ => {}
                }
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                leaves(x, field, format!("{at}/{i}"), out);
            }
        }
        leaf if field.is_empty() => out.push((at, leaf)),
        _ => {}
    }
}

#[test]
fn our_own_outputs_pass_with_zero_error() {
    for (name, f) in all() {
        let o = compare_value(&name, &f, &json!({"name": f.name, "outputs": f.outputs}));
        match &o {
            FixtureOutcome::Compared { fields, pass } => {
                assert!(pass, "{name}");
                assert!(fields.iter().all(|r| r.max_abs_error == 0.0), "{name}");
                assert_eq!(fields.len(), self::fields(&f.outputs).len(), "{name}");
            }
            other => panic!("{name}: {other:?}"),
        }
    }
}

#[test]
fn a_value_changed_by_one_part_in_a_million_fails_exactly_its_field() {
    let (mut tested, mut total) = (0, 0);
    let mut too_loose = Vec::new();
    let mut null_only = Vec::new();
    for (name, f) in all() {
        for field in fields(&f.outputs) {
            total += 1;
            let tol = lookup(&f.tolerances, &field).expect("coverage is checked");
            let mut ls = Vec::new();
            leaves(&f.outputs, &field, String::new(), &mut ls);
            // The value of largest magnitude (numbers), or the first (others).
            let Some((ptr, v)) = ls.iter().max_by(|a, b| {
                let m = |x: &Value| x.as_f64().map_or(0.0, f64::abs);
                m(a.1).total_cmp(&m(b.1))
            }) else {
                panic!("{name}: field {field} has no values")
            };
            let changed = match v {
                Value::Number(n) if n.is_f64() => {
                    let x = n.as_f64().unwrap();
                    let y = x * (1.0 + 1e-6);
                    if tol.accepts(x, y) {
                        too_loose.push(format!("{name}:{field}"));
                        continue;
                    }
                    json!(y)
                }
                Value::Number(n) => json!(n.as_i64().expect("small integers") + 1),
                Value::String(s) => json!(format!("{s}x")),
                other => {
                    // a null or boolean: nothing of the same type to change it to
                    assert!(other.is_null(), "{name}:{field}: {other}");
                    null_only.push(format!("{name}:{field}"));
                    continue;
                }
            };
            let mut yours = f.outputs.clone();
            *yours.pointer_mut(ptr).expect("pointer") = changed;
            let o = compare_value(&name, &f, &json!({"outputs": yours}));
            assert_eq!(failing(&o), vec![field.clone()], "{name}: changed {ptr}");
            tested += 1;
        }
    }
    // No field's tolerance admits a 1e-6 relative change of its largest value (the loosest,
    // the PLD epsilons' 5e-7 absolute, is below 1e-6 of every largest PLD epsilon).
    assert!(
        too_loose.is_empty(),
        "fields too loose for a 1e-6 change: {too_loose:?}"
    );
    // The non-adaptive softmax schedule has no a_t (null): the one field without a number.
    assert_eq!(
        null_only,
        vec!["dp-fts-de/softmax_weights:non_adaptive.a_t"]
    );
    assert_eq!(tested + null_only.len(), total);
    assert!(tested > 150, "only {tested} fields");
}

#[test]
fn a_wrong_shape_is_a_schema_mismatch_naming_the_place() {
    for (name, f) in all() {
        let field = &fields(&f.outputs)[0];
        let mut ls = Vec::new();
        leaves(&f.outputs, field, String::new(), &mut ls);
        let ptr = ls[0].0.clone();
        let mut yours = f.outputs.clone();
        *yours.pointer_mut(&ptr).unwrap() = json!({"not": "a value"});
        match compare_value(&name, &f, &json!({"outputs": yours})) {
            FixtureOutcome::SchemaMismatch { problems } => {
                let dotted = ptr.trim_start_matches('/').replace('/', ".");
                assert!(!problems.is_empty(), "{name}");
                assert!(
                    problems[0].contains("expected"),
                    "{name}: {problems:?} ({dotted})"
                );
            }
            other => panic!("{name}: {other:?}"),
        }
        let mut missing = f.outputs.clone();
        let first = missing.as_object().unwrap().keys().next().unwrap().clone();
        missing.as_object_mut().unwrap().remove(&first);
        assert!(
            matches!(
                compare_value(&name, &f, &json!({"outputs": missing})),
                FixtureOutcome::SchemaMismatch { .. }
            ),
            "{name}: missing {first}"
        );
        assert!(matches!(
            compare_value(&name, &f, &json!({"name": "other", "outputs": f.outputs})),
            FixtureOutcome::SchemaMismatch { .. }
        ));
    }
}

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("fixture-compare-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(d.join("kernel")).unwrap();
    d
}

#[test]
fn folders_unknown_fixtures_and_invalid_files() {
    let fx = all();
    let se = &fx["kernel/se_gram"];
    let d = temp_dir("dir");
    std::fs::write(
        d.join("kernel/se_gram.json"),
        serde_json::to_string(&json!({"outputs": se.outputs})).unwrap(),
    )
    .unwrap();
    std::fs::write(d.join("kernel/notes.json"), "{\"comment\": 1}").unwrap();
    let r = compare_directory(&fx, &d, &[]).unwrap();
    assert_eq!(r.passed(), 1);
    assert_eq!(r.not_provided(), fx.len() - 1);
    assert_eq!(r.ignored, vec!["kernel/notes.json".to_string()]);
    let r = compare_directory(&fx, &d, &["kernel/se_gram.json".into()]).unwrap();
    assert_eq!(r.fixtures.len(), 1);
    assert!(matches!(
        compare_directory(&fx, &d, &["kernel/se_gramm".into()]),
        Err(CompareError::UnknownFixture { .. })
    ));
    assert!(matches!(
        compare_directory(&fx, &d, &["kernel/matern52_gram".into()]),
        Err(CompareError::Nothing(_))
    ));
    assert!(matches!(
        compare_directory(&fx, &d.join("absent"), &[]),
        Err(CompareError::Io { .. })
    ));
    std::fs::write(d.join("kernel/matern52_gram.json"), "{\"outputs\": [1,").unwrap();
    let r = compare_directory(&fx, &d, &[]).unwrap();
    assert_eq!(r.schema_mismatches(), 1);
    // a file at a fixture's path is compared even without `outputs` (a schema mismatch)
    std::fs::write(d.join("kernel/matern52_gram.json"), "{\"gram\": [[1.0]]}").unwrap();
    let r = compare_directory(&fx, &d, &[]).unwrap();
    match &r.fixtures["kernel/matern52_gram"] {
        FixtureOutcome::SchemaMismatch { problems } => {
            assert!(
                problems.iter().any(|p| p.contains("missing key `outputs`")),
                "{problems:?}"
            )
        }
        other => panic!("{other:?}"),
    }
    // not UTF-8: reported with its fixture, the other files still compared
    std::fs::write(d.join("kernel/matern52_gram.json"), [b'{', 0xff, b'}']).unwrap();
    let r = compare_directory(&fx, &d, &[]).unwrap();
    assert_eq!(r.schema_mismatches(), 1);
    assert_eq!(r.passed(), 1);
    std::fs::write(d.join("kernel/se_gram_v2.json"), "{\"outputs\": {}}").unwrap();
    match compare_directory(&fx, &d, &[]) {
        Err(CompareError::UnknownFixture { name, .. }) => assert!(name.contains("se_gram_v2")),
        other => panic!("{other:?}"),
    }
    let _ = std::fs::remove_dir_all(&d);
}
