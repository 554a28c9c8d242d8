//! `cargo xtask audit` as a user runs it: the worked example's stored outputs give exit status
//! 3 and the verdict; bad input gives exit status 1 with a message, never a panic.

use std::path::PathBuf;
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace")
        .to_path_buf()
}

fn run(args: &[&str]) -> Output {
    let plot = std::env::temp_dir().join(format!("xtask-audit-{}.svg", std::process::id()));
    Command::new(env!("CARGO_BIN_EXE_xtask"))
        .current_dir(root())
        .arg("audit")
        .args(args)
        .args(["--plot", plot.to_str().expect("utf-8 temp path")])
        .output()
        .expect("the xtask binary runs")
}

fn temp(name: &str, text: &str) -> String {
    let p = std::env::temp_dir().join(format!("xtask-audit-{}-{name}", std::process::id()));
    std::fs::write(&p, text).expect("temp file");
    p.to_str().expect("utf-8").to_string()
}

const X: &str = "verification/examples/broken_laplace_x.txt";
const XP: &str = "verification/examples/broken_laplace_x_prime.txt";

#[test]
fn the_worked_example_is_flagged() {
    let out = run(&["--x", X, "--x-prime", XP, "--eps", "1"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(3), "{stdout}");
    assert!(stdout.contains("VIOLATION CERTIFIED"), "{stdout}");
    let out = run(&["--x", X, "--x-prime", XP, "--eps", "1", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["verdict"], "violation_certified");
    assert!(v["result"]["eps_lower"].as_f64().unwrap() > 1.0);
}

fn fails_with(args: &[&str], message: &str) {
    let out = run(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
    assert!(stderr.contains(message), "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
}

#[test]
fn bad_input_is_a_clear_error() {
    let short = temp("short.txt", &"0.5\n".repeat(100));
    let empty = temp("empty.txt", "");
    let nan = temp("nan.txt", "0.1\n0.2\nNaN\n");
    fails_with(&["--x", X, "--x-prime", XP, "--eps", "0"], "--eps");
    fails_with(&["--x", X, "--x-prime", XP, "--eps", "-1"], "--eps");
    fails_with(&["--x", X, "--x-prime", &short, "--eps", "1"], "unequal");
    fails_with(
        &["--x", &empty, "--x-prime", &empty, "--eps", "1"],
        "no outputs",
    );
    fails_with(&["--x", &nan, "--x-prime", &nan, "--eps", "1"], "line 3");
    fails_with(
        &["--x", "no/such/file", "--x-prime", XP, "--eps", "1"],
        "no/such/file",
    );
    fails_with(&["--x", X, "--x-prime", XP], "exactly one of");
    fails_with(
        &[
            "--x",
            X,
            "--x-prime",
            XP,
            "--eps",
            "1",
            "--statistic",
            "nope",
        ],
        "does not apply",
    );
    fails_with(&["--x", X, "--x-prime", XP, "--mu", "1"], "--delta");
    fails_with(
        &["--x", X, "--x-prime", XP, "--rho", "0.5", "--delta", "0"],
        "--delta",
    );
    let inf = temp("inf.txt", "0.1\ninf\n");
    fails_with(&["--x", &inf, "--x-prime", &inf, "--eps", "1"], "line 2");
}

/// `n` Laplace outputs of scale `b` around `shift`, at the quantiles of a low-discrepancy
/// sequence (`frac(i * step)`), one per line: deterministic files for the mechanics below.
fn laplace_file(name: &str, n: usize, shift: f64, b: f64, step: f64) -> String {
    let mut text = String::from("# Laplace outputs\n");
    for i in 0..n {
        let u = ((i as f64 + 0.5) * step).fract() - 0.5;
        let x = shift - b * u.signum() * (1.0 - 2.0 * u.abs()).ln();
        text.push_str(&format!("{x:e}\n"));
    }
    temp(name, &text)
}

/// The streamed audit as a user runs it: three shard processes at once over the same files,
/// merged (in any order), give the unsharded run's certificate (a Laplace mechanism with half
/// the claim's noise: exit status 3 from both); a shard over other held-out files, and a
/// missing shard, are refused with exit status 1.
#[test]
fn streamed_shards_in_three_processes_merge_to_the_unsharded_certificate() {
    let tx = laplace_file("tx", 10_000, 0.0, 0.5, 0.618_033_988_7);
    let txp = laplace_file("txp", 10_000, 1.0, 0.5, 0.754_877_666_2);
    // 3 chunks of 8192 and a partial one.
    let hx = laplace_file("hx", 30_000, 0.0, 0.5, 0.569_840_290_9);
    let hxp = laplace_file("hxp", 30_000, 1.0, 0.5, 0.682_327_803_8);
    let files = [&tx, &txp, &hx, &hxp];
    let audit = |extra: &[&str]| -> Vec<String> {
        let base = [
            "--train-x",
            files[0],
            "--train-x-prime",
            files[1],
            "--x",
            files[2],
            "--x-prime",
            files[3],
            "--eps",
            "1",
        ];
        base.iter().chain(extra).map(|s| s.to_string()).collect()
    };
    let strs = |v: &[String]| v.iter().map(String::as_str).collect::<Vec<_>>().join(" ");
    let whole = run(&audit(&["--json"])
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>());
    assert_eq!(
        whole.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&whole.stderr)
    );
    let whole: serde_json::Value = serde_json::from_slice(&whole.stdout).expect("JSON");
    assert_eq!(whole["result"]["samples"], 30_000);
    assert_eq!(whole["result"]["train_samples"], 10_000);

    let shards: Vec<String> = (0..3)
        .map(|i| temp(&format!("shard{i}.json"), ""))
        .collect();
    let children: Vec<_> = (0..3)
        .map(|i| {
            let args = audit(&["--shard", &format!("{i}/3"), "--out", &shards[i]]);
            Command::new(env!("CARGO_BIN_EXE_xtask"))
                .current_dir(root())
                .arg("audit")
                .args(&args)
                .spawn()
                .unwrap_or_else(|e| panic!("{}: {e}", strs(&args)))
        })
        .collect();
    for c in children {
        let out = c.wait_with_output().expect("shard runs");
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let merged = run(&["merge", &shards[2], &shards[0], &shards[1], "--json"]);
    assert_eq!(
        merged.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&merged.stderr)
    );
    let merged: serde_json::Value = serde_json::from_slice(&merged.stdout).expect("JSON");
    assert_eq!(merged["result"], whole["result"]);

    // A shard over another x' file, and a missing shard.
    let other = laplace_file("hxp-other", 30_000, 1.0, 0.5, 0.5);
    let other_shard = temp("shard-other.json", "");
    let mut args = audit(&["--shard", "1/3", "--out", &other_shard]);
    args[7] = other;
    let out = Command::new(env!("CARGO_BIN_EXE_xtask"))
        .current_dir(root())
        .arg("audit")
        .args(&args)
        .output()
        .expect("runs");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    fails_with(
        &["merge", &shards[0], &other_shard, &shards[2]],
        "another audit",
    );
    fails_with(&["merge", &shards[0], &shards[1]], "missing shards: 2/3");
    // The merge's text names the held-out size for the target tightness.
    let text = run(&["merge", &shards[0], &shards[1], &shards[2]]);
    let stdout = String::from_utf8_lossy(&text.stdout);
    assert!(stdout.contains("merged from 3 shards"), "{stdout}");
    assert!(
        stdout.contains("held-out outputs per input for tightness 0.9")
            || stdout.contains("tightness 0.9 is not reachable"),
        "{stdout}"
    );
    // Usage errors (exit status 2): --shard without the training files, a pilot under 10
    // outputs, --seed on the streamed route (nothing is drawn).
    let out = run(&["--x", X, "--x-prime", XP, "--eps", "1", "--shard", "0/2"]);
    assert_eq!(out.status.code(), Some(2));
    for extra in [["--train-in-memory", "5"], ["--seed", "3"]] {
        let args = audit(&extra);
        let out = run(&args.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(out.status.code(), Some(2), "{extra:?}");
    }
}
