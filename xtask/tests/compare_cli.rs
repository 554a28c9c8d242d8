//! `cargo xtask compare` as a user runs it: a copy of our own fixtures passes (exit 0); a copy
//! with one value changed by 1e-6 relative fails in exactly that field (exit 3); an unknown
//! fixture, a schema mismatch or a file that is not JSON is a clear error (exit 1), never a
//! panic.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace")
        .to_path_buf()
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xtask"))
        .current_dir(root())
        .env("RUST_BACKTRACE", "0")
        .arg("compare")
        .args(args)
        .output()
        .expect("the xtask binary runs")
}

/// A copy of every fixture file (not the schemas) under a fresh temporary folder.
fn copy_of_fixtures(tag: &str) -> PathBuf {
    let dst = std::env::temp_dir().join(format!("xtask-compare-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dst);
    copy(&root().join("fixtures"), &dst);
    dst
}

fn copy(src: &Path, dst: &Path) {
    std::fs::create_dir_all(dst).unwrap();
    for e in std::fs::read_dir(src).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap();
        if p.is_dir() && name != "schema" {
            copy(&p, &dst.join(name));
        } else if p.extension().is_some_and(|x| x == "json") {
            std::fs::copy(&p, dst.join(name)).unwrap();
        }
    }
}

fn edit(path: &Path, f: impl FnOnce(&mut serde_json::Value)) {
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    f(&mut v);
    std::fs::write(path, serde_json::to_string(&v).unwrap()).unwrap();
}

#[test]
fn our_own_outputs_pass_and_a_perturbed_value_is_reported_in_its_field() {
    let dir = copy_of_fixtures("own");
    let d = dir.to_str().unwrap();
    let out = run(&[d]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains(" 0 failed, 0 schema mismatches, 0 not provided"),
        "{stdout}"
    );

    edit(&dir.join("jdp-qff/server_after_history.json"), |v| {
        let x = &mut v["outputs"]["theta"][0];
        *x = serde_json::json!(x.as_f64().unwrap() * (1.0 + 1e-6));
    });
    let out = run(&[d, "--json"]);
    assert_eq!(out.status.code(), Some(3));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let mut failing = Vec::new();
    for (name, o) in report["fixtures"].as_object().unwrap() {
        for f in o["fields"].as_array().into_iter().flatten() {
            if f["pass"] == false {
                failing.push(format!("{name}:{}", f["field"].as_str().unwrap()));
                assert_eq!(f["failures"], 1);
                let rel = f["max_rel_error"].as_f64().unwrap();
                assert!((rel - 1e-6).abs() < 1e-9, "{rel}");
                assert!(f["worst"].as_str().unwrap().starts_with("theta[0]:"));
            }
        }
    }
    assert_eq!(failing, vec!["jdp-qff/server_after_history:theta"]);
    let out = run(&[d]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("jdp-qff/server_after_history: FAIL"),
        "{stdout}"
    );
    assert!(
        stdout.contains("1 of 4 values outside; worst theta[0]"),
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

fn fails_with(args: &[&str], message: &str) {
    let out = run(args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{args:?}: {stdout}{stderr}");
    assert!(
        stderr.contains(message) || stdout.contains(message),
        "{args:?}: {stdout}{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
}

#[test]
fn bad_input_is_a_clear_error() {
    let dir = copy_of_fixtures("bad");
    let d = dir.to_str().unwrap().to_string();
    fails_with(
        &[&d, "--fixture", "kernel/se_gramm"],
        "unknown fixture `kernel/se_gramm`",
    );
    fails_with(&["/nonexistent/outputs"], "not a folder");
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    fails_with(
        &[empty.to_str().unwrap()],
        "no output file for any selected fixture",
    );
    edit(&dir.join("kernel/gp_posterior.json"), |v| {
        v["outputs"]["mean"].as_array_mut().unwrap().pop();
    });
    fails_with(&[&d], "$.outputs.mean: expected 5 entries, found 4");
    edit(&dir.join("kernel/gp_posterior.json"), |v| {
        v["outputs"] = serde_json::json!({"mean": [0.0, 0.0, 0.0, 0.0, 0.0], "variance": "0.1"});
    });
    fails_with(&[&d], "$.outputs.variance: expected array, found string");
    std::fs::write(
        dir.join("kernel/gp_posterior.json"),
        "{\"outputs\": {\"mean\": [NaN",
    )
    .unwrap();
    fails_with(&[&d], "not valid JSON");
    std::fs::write(dir.join("kernel/gp_posterior_v2.json"), "{\"outputs\": {}}").unwrap();
    fails_with(&[&d], "unknown fixture `kernel/gp_posterior_v2");
    let _ = std::fs::remove_dir_all(&dir);
}
