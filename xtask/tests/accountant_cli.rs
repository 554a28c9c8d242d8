//! `cargo xtask accountant --relation replace-one` as a user runs it: the PLD's replace-one
//! epsilon is printed and is above the add/remove one; at q = 1 it is the Gaussian at twice
//! the sensitivity; accountants without a replace-one bound are refused with exit status 1.

use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xtask"))
        .env("RUST_BACKTRACE", "0")
        .arg("accountant")
        .args(args)
        .output()
        .expect("the xtask binary runs")
}

fn epsilon(args: &[&str]) -> (f64, serde_json::Value) {
    let out = run(args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    (v["results"][0]["epsilon"].as_f64().expect("an epsilon"), v)
}

const SETTING: [&str; 8] = [
    "--q",
    "0.25",
    "--noise-multiplier",
    "1",
    "--steps",
    "4",
    "--delta",
    "1e-3",
];

#[test]
fn replace_one_is_printed_and_above_add_remove() {
    let mut ro_args = SETTING.to_vec();
    ro_args.extend([
        "--relation",
        "replace-one",
        "--json",
        "--pld-bin-width",
        "1e-3",
    ]);
    let (ro, v) = epsilon(&ro_args);
    assert_eq!(v["relation"], "replace-one");
    let method = v["results"][0]["method"].as_str().unwrap();
    assert!(method.starts_with("dominating pair"), "{method}");
    let mut ar_args = SETTING.to_vec();
    ar_args.extend(["--accountant", "pld", "--json", "--pld-bin-width", "1e-3"]);
    let (ar, v) = epsilon(&ar_args);
    assert_eq!(v["relation"], "add/remove");
    assert!(ro > ar, "replace-one {ro} <= add/remove {ar}");
    let text = run(&[
        &SETTING[..],
        &["--relation", "replace-one", "--pld-bin-width", "1e-3"],
    ]
    .concat());
    let stdout = String::from_utf8_lossy(&text.stdout);
    assert!(stdout.contains("replace-one"), "{stdout}");
}

#[test]
fn at_q_one_replace_one_is_the_gaussian_at_twice_the_sensitivity() {
    let (ro, v) = epsilon(&[
        "--q",
        "1",
        "--noise-multiplier",
        "4",
        "--steps",
        "1",
        "--delta",
        "1e-5",
        "--relation",
        "replace-one",
        "--json",
    ]);
    assert_eq!(v["relation"], "replace-one");
    let (half, _) = epsilon(&[
        "--q",
        "1",
        "--noise-multiplier",
        "2",
        "--steps",
        "1",
        "--delta",
        "1e-5",
        "--accountant",
        "pld",
        "--json",
    ]);
    assert!((ro - half).abs() < 1e-9, "{ro} vs {half}");
}

#[test]
fn accountants_without_a_replace_one_bound_are_refused() {
    for acc in ["rdp", "rdp-paper", "gdp-clt"] {
        let out = run(&[
            &SETTING[..],
            &["--relation", "replace-one", "--accountant", acc],
        ]
        .concat());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{acc}: {stderr}");
        assert!(stderr.contains("no replace-one bound"), "{acc}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}
