//! Recompute every golden fixture and compare with `fixtures/` (any difference fails).

use std::path::Path;

#[test]
fn fixtures_match_the_library() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    let all = checks::all_fixtures().expect("every fixture computes");
    assert!(!all.is_empty(), "no fixtures are defined");
    let diffs = verification::fixtures::compare_all(&root, &all).expect("fixtures readable");
    assert!(
        diffs.is_empty(),
        "{} fixture differences (run `cargo xtask fixtures` only if the change is intended):\n{}",
        diffs.len(),
        diffs.join("\n")
    );
}
