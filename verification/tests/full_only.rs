//! A check marked `full_only` runs with `--full` and is listed, not run, in a quick run.

use std::path::PathBuf;

use verification::{Check, CheckKind, Context, Mode, Outcome, Settings, Verdict, run_checks};

fn pass(ctx: &Context) -> verification::CheckResult {
    let _ = ctx;
    Ok(Outcome::new(
        CheckKind::Sanity,
        "a",
        "always holds",
        "ran",
        Verdict::Pass,
    ))
}

fn settings(mode: Mode) -> Settings {
    Settings {
        mode,
        seed: 1,
        out_dir: std::env::temp_dir().join("verification-full-only"),
        data_dir: PathBuf::from("."),
    }
}

#[test]
fn a_full_only_check_is_listed_in_quick_and_run_in_full() {
    let checks = [
        Check::new("area/every-run", pass),
        Check::new("area/heavy", pass).full_only(),
    ];
    let quick = run_checks(&checks, &settings(Mode::Quick), None, 1, |_| {});
    let ran: Vec<_> = quick.checks.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ran, ["area/every-run"]);
    assert_eq!(quick.full_only_not_run, ["area/heavy"]);
    assert!(
        quick
            .to_markdown()
            .contains("Not run: 1 check whose budget belongs to `--full` (`area/heavy`)")
    );

    let full = run_checks(&checks, &settings(Mode::Full), None, 1, |_| {});
    let ran: Vec<_> = full.checks.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ran, ["area/every-run", "area/heavy"]);
    assert!(full.full_only_not_run.is_empty());
    assert!(!full.to_markdown().contains("Not run"));

    // `--only` narrows both lists.
    let only = run_checks(&checks, &settings(Mode::Quick), Some("area/e"), 1, |_| {});
    assert!(only.full_only_not_run.is_empty());
}
