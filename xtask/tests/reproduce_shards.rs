//! `cargo xtask reproduce PAPER --shard i/n` and `reproduce merge` as a user runs them: one tiny
//! reproduction (jdp-qff's Figure 1, whose curves also write per-trial diagnostics tables), run
//! whole and as 3 shards in 3 processes (uneven blocks: 4 trials), merges to the same files,
//! byte for byte but for the seconds of `summary.md` (wall-clock times, which no two runs
//! share). Bad shard arguments, incomplete, repeated or mismatched shards are clear errors.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The reproduction every run of this test makes.
const RUN: [&str; 7] = [
    "jdp-qff",
    "--only",
    "fig1",
    "--trials",
    "4",
    "--horizon",
    "12",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace")
        .to_path_buf()
}

fn xtask(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xtask"))
        .current_dir(root())
        .env("RUST_BACKTRACE", "0")
        .arg("reproduce")
        .args(args)
        .output()
        .expect("the xtask binary runs")
}

fn ok(out: &Output) {
    assert!(
        out.status.success(),
        "exit {:?}\nstdout:\n{}\nstderr:\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The error message of a failed run.
fn fails(out: &Output) -> String {
    assert!(!out.status.success(), "expected a failure");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn fresh(dir: &Path) -> &str {
    let _ = std::fs::remove_dir_all(dir);
    dir.to_str().expect("a UTF-8 temporary path")
}

/// Every file of `dir` by name.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let p = e.unwrap().path();
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect()
}

/// `summary.md` without its wall-clock seconds: the last cell of each row of the figures'
/// table and the total time.
fn without_seconds(summary: &[u8]) -> String {
    let text = String::from_utf8(summary.to_vec()).unwrap();
    let mut rows = false;
    let mut out = String::new();
    for line in text.lines() {
        let line = if rows && line.starts_with('|') {
            let cells: Vec<&str> = line.trim_end_matches('|').rsplitn(2, '|').collect();
            format!("{}| S |", cells[1])
        } else if let Some(rest) = line.strip_prefix("Total time: ") {
            let (_, after) = rest.split_once(" s.").unwrap();
            format!("Total time: S s.{after}")
        } else {
            line.to_string()
        };
        if line.starts_with("|---|---|---|---|---|---|---|---|") {
            rows = true;
        } else if line.is_empty() {
            rows = false;
        }
        out.push_str(&line);
        out.push('\n');
    }
    out
}

#[test]
fn three_shards_merge_to_the_whole_run_byte_for_byte() {
    let tmp = std::env::temp_dir().join(format!("xtask-shards-{}", std::process::id()));
    let whole = tmp.join("whole");
    let shards = tmp.join("shards");
    let merged = tmp.join("merged");

    ok(&xtask(&[&RUN[..], &["--out", fresh(&whole)][..]].concat()));
    let out = fresh(&shards).to_string();
    // Three processes at once, as a job array would run them: all spawned before any is
    // waited for.
    let children: Vec<_> = (0..3)
        .map(|i| {
            Command::new(env!("CARGO_BIN_EXE_xtask"))
                .current_dir(root())
                .arg("reproduce")
                .args(RUN)
                .args(["--shard", &format!("{i}/3"), "--out", &out])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("the xtask binary starts")
        })
        .collect();
    for c in children {
        ok(&c.wait_with_output().expect("the xtask binary runs"));
    }
    let shard_files = files(&shards);
    assert_eq!(
        shard_files.keys().collect::<Vec<_>>(),
        [
            "shard-0-of-3.json",
            "shard-1-of-3.json",
            "shard-2-of-3.json"
        ],
        "a shard writes its records only"
    );
    let path = |i: usize| shards.join(format!("shard-{i}-of-3.json"));
    let (p0, p1, p2) = (path(0), path(1), path(2));
    let (s0, s1, s2) = (
        p0.to_str().unwrap(),
        p1.to_str().unwrap(),
        p2.to_str().unwrap(),
    );
    // Any order of the files.
    ok(&xtask(&["merge", s2, s0, s1, "--out", fresh(&merged)]));

    let (a, b) = (files(&whole), files(&merged));
    assert_eq!(
        a.keys().collect::<Vec<_>>(),
        b.keys().collect::<Vec<_>>(),
        "the same files"
    );
    assert!(a.contains_key("fig1-non-private-diagnostics.csv"));
    for (name, bytes) in &a {
        if name == "summary.md" {
            assert_eq!(without_seconds(bytes), without_seconds(&b[name]), "{name}");
        } else {
            assert!(
                bytes == &b[name],
                "{name} differs between the whole run and the merge"
            );
        }
    }

    // Bad shards.
    for bad in ["3/3", "0/0", "1", "a/3"] {
        let err = fails(&xtask(&[&RUN[..], &["--shard", bad][..]].concat()));
        assert!(err.contains("invalid shard"), "{bad}: {err}");
    }
    let err = fails(&xtask(&["merge", s0, s2]));
    assert!(err.contains("incomplete shards: 1/3 missing"), "{err}");
    let err = fails(&xtask(&["merge", s0, s1, s2, s1]));
    assert!(err.contains("shard 1/3 is given twice"), "{err}");
    let mut v: serde_json::Value =
        serde_json::from_slice(&shard_files["shard-1-of-3.json"]).unwrap();
    v["arguments"]["seed"] = serde_json::json!(7);
    let other = tmp.join("other-seed.json");
    std::fs::write(&other, serde_json::to_vec(&v).unwrap()).unwrap();
    let err = fails(&xtask(&["merge", s0, other.to_str().unwrap(), s2]));
    assert!(err.contains("shards of different runs"), "{err}");
    v["version"] = serde_json::json!(0);
    std::fs::write(&other, serde_json::to_vec(&v).unwrap()).unwrap();
    let err = fails(&xtask(&["merge", other.to_str().unwrap()]));
    assert!(err.contains("format version"), "{err}");

    let _ = std::fs::remove_dir_all(&tmp);
}
