//! `cargo xtask audit-mechanism` as a user runs it: three shards in three processes at once,
//! merged, print byte for byte the certificate of the unsharded run (Laplace with half its
//! noise: exit status 3 from both); shards of another audit and a missing shard are refused
//! with exit status 1 and a message.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace")
        .to_path_buf()
}

/// `cargo xtask audit-mechanism ARGS --plot DIR/tradeoff.svg` (without the plot for a shard,
/// which draws none: `--plot` with `--shard` is a usage error).
fn xtask(dir: &Path, args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_xtask"));
    c.current_dir(root()).arg("audit-mechanism").args(args);
    if !args.contains(&"--shard") {
        c.args(["--plot", dir.join("tradeoff.svg").to_str().expect("utf-8")]);
    }
    c
}

/// 6 chunks of 8192 and a partial one per input: shards of 3, 2 and 2 chunks.
const AUDIT: [&str; 10] = [
    "--mechanism",
    "laplace",
    "--scale-factor",
    "0.5",
    "--samples",
    "50000",
    "--train",
    "10000",
    "--seed",
    "7",
];

fn shard_file(dir: &Path, name: &str) -> String {
    dir.join(name).to_str().expect("utf-8").to_string()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn three_shard_processes_merge_to_the_unsharded_certificate() {
    let dir = std::env::temp_dir().join(format!("xtask-audit-mechanism-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let whole = xtask(&dir, &[&AUDIT[..], &["--json"]].concat())
        .output()
        .expect("runs");
    assert_eq!(whole.status.code(), Some(3), "{}", stderr(&whole));
    let v: serde_json::Value = serde_json::from_slice(&whole.stdout).expect("JSON");
    assert_eq!(v["verdict"], "violation_certified");
    assert!(v["result"]["eps_lower"].as_f64().expect("a number") > 1.5);

    let files: Vec<String> = (0..3)
        .map(|i| shard_file(&dir, &format!("shard{i}.json")))
        .collect();
    let children: Vec<_> = (0..3)
        .map(|i| {
            let shard = format!("{i}/3");
            xtask(
                &dir,
                &[&AUDIT[..], &["--shard", &shard, "--out", &files[i]]].concat(),
            )
            .spawn()
            .expect("spawns")
        })
        .collect();
    for c in children {
        let out = c.wait_with_output().expect("shard runs");
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    }
    // In any order.
    let merged = xtask(&dir, &["merge", &files[2], &files[0], &files[1], "--json"])
        .output()
        .expect("runs");
    assert_eq!(merged.status.code(), Some(3), "{}", stderr(&merged));
    assert_eq!(
        String::from_utf8_lossy(&merged.stdout),
        String::from_utf8_lossy(&whole.stdout)
    );

    // A shard of another seed, and a missing shard.
    let other = shard_file(&dir, "other.json");
    let mut args = AUDIT;
    args[9] = "8";
    let out = xtask(
        &dir,
        &[&args[..], &["--shard", "1/3", "--out", &other]].concat(),
    )
    .output()
    .expect("runs");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    for (files, message) in [
        (["merge", &files[0], &other, &files[2]].to_vec(), "seed"),
        (
            ["merge", &files[0], &files[1]].to_vec(),
            "missing shards: 2/3",
        ),
    ] {
        let out = xtask(&dir, &files).output().expect("runs");
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(err.contains(message) && !err.contains("panicked"), "{err}");
    }
    std::fs::remove_dir_all(&dir).expect("clean up");
}
