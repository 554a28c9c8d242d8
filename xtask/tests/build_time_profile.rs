//! The workspace manifest compiles every dependency at opt-level 3 (`[profile.dev.package]
//! "*"`) except a named list of crates at opt-level 0: procedural macros, build scripts and
//! what they use, which only run while compiling. A runtime crate in that list would silently
//! make the numerics slow, so every crate named at opt-level 0 must be reachable from the
//! workspace only through a procedural macro or a build dependency (read from `cargo
//! metadata`, all platforms). Shown to fail on a small graph where a named crate is also a
//! runtime dependency.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace")
        .to_path_buf()
}

/// The crates of the `[profile.dev.package]` table given `opt-level = 0`.
fn build_time_names(manifest: &str) -> Vec<String> {
    let mut inside = false;
    let mut out = Vec::new();
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            inside = line == "[profile.dev.package]";
            continue;
        }
        if inside
            && let Some((name, value)) = line.split_once('=')
            && value.replace(' ', "").contains("opt-level=0")
        {
            out.push(name.trim().trim_matches('"').to_string());
        }
    }
    out
}

/// One package of the resolved graph: its name, whether it is a procedural macro, and its
/// dependencies as `(package id, is a build dependency, is a dev dependency)`.
struct Node {
    name: String,
    proc_macro: bool,
    deps: Vec<(String, bool, bool)>,
}

/// The names of the packages compiled for the target (run by the workspace's binaries and
/// tests), starting from `members` and never crossing a procedural macro or a build
/// dependency. Dev-dependencies count for the members only (as cargo does).
fn runtime_names(graph: &BTreeMap<String, Node>, members: &[String]) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut stack: Vec<&String> = members.iter().collect();
    while let Some(id) = stack.pop() {
        if !seen.insert(id.clone()) {
            continue;
        }
        let node = &graph[id];
        for (dep, build, dev) in &node.deps {
            if *build || (*dev && !members.contains(id)) || graph[dep].proc_macro {
                continue;
            }
            stack.push(dep);
        }
    }
    seen.iter().map(|id| graph[id].name.clone()).collect()
}

/// The resolved graph of `cargo metadata` output.
fn graph_of(metadata: &Value) -> BTreeMap<String, Node> {
    let mut names = BTreeMap::new();
    for p in metadata["packages"].as_array().expect("packages") {
        let proc_macro = p["targets"].as_array().expect("targets").iter().any(|t| {
            t["kind"]
                .as_array()
                .is_some_and(|k| k.iter().any(|k| k == "proc-macro"))
        });
        names.insert(
            p["id"].as_str().expect("id").to_string(),
            (p["name"].as_str().expect("name").to_string(), proc_macro),
        );
    }
    let mut graph = BTreeMap::new();
    for n in metadata["resolve"]["nodes"].as_array().expect("nodes") {
        let id = n["id"].as_str().expect("id").to_string();
        let deps = n["deps"]
            .as_array()
            .expect("deps")
            .iter()
            .flat_map(|d| {
                let pkg = d["pkg"].as_str().expect("pkg").to_string();
                d["dep_kinds"]
                    .as_array()
                    .expect("dep_kinds")
                    .iter()
                    .map(move |k| {
                        let kind = k["kind"].as_str();
                        (pkg.clone(), kind == Some("build"), kind == Some("dev"))
                    })
                    .collect::<Vec<_>>()
            })
            .collect();
        let (name, proc_macro) = names[&id].clone();
        graph.insert(
            id,
            Node {
                name,
                proc_macro,
                deps,
            },
        );
    }
    graph
}

#[test]
fn every_crate_at_opt_level_0_runs_only_at_build_time() {
    let manifest =
        std::fs::read_to_string(root().join("Cargo.toml")).expect("the workspace manifest");
    let named = build_time_names(&manifest);
    assert!(!named.is_empty(), "no crate is named at opt-level 0");
    let out = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .current_dir(root())
        .args(["metadata", "--format-version", "1", "--locked"])
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let metadata: Value = serde_json::from_slice(&out.stdout).expect("cargo metadata is JSON");
    let graph = graph_of(&metadata);
    let all: BTreeSet<&str> = graph.values().map(|n| n.name.as_str()).collect();
    let members: Vec<String> = metadata["workspace_members"]
        .as_array()
        .expect("workspace_members")
        .iter()
        .map(|m| m.as_str().expect("member id").to_string())
        .collect();
    let runtime = runtime_names(&graph, &members);
    let mut wrong = Vec::new();
    for name in &named {
        if !all.contains(name.as_str()) {
            wrong.push(format!(
                "{name}: not a dependency of the workspace (stale entry)"
            ));
        } else if runtime.contains(name) {
            wrong.push(format!(
                "{name}: compiled into the workspace's code, not only run at build time"
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "[profile.dev.package] opt-level = 0:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_check_sees_a_runtime_crate() {
    // Power check: `m` (member) uses `rt` at run time, the proc macro `pm` and the build
    // dependency `bd`; `pm` and `bd` both use `shared`, which `rt` also uses.
    let node = |name: &str, proc_macro: bool, deps: &[(&str, bool, bool)]| Node {
        name: name.into(),
        proc_macro,
        deps: deps
            .iter()
            .map(|(d, b, v)| (d.to_string(), *b, *v))
            .collect(),
    };
    let mut graph = BTreeMap::new();
    graph.insert(
        "m".to_string(),
        node(
            "m",
            false,
            &[
                ("rt", false, false),
                ("pm", false, false),
                ("bd", true, false),
            ],
        ),
    );
    graph.insert("rt".into(), node("rt", false, &[("shared", false, false)]));
    graph.insert(
        "pm".into(),
        node(
            "pm",
            true,
            &[("syn", false, false), ("shared", false, false)],
        ),
    );
    graph.insert("bd".into(), node("bd", false, &[("cc", false, false)]));
    for leaf in ["shared", "syn", "cc"] {
        graph.insert(leaf.into(), node(leaf, false, &[]));
    }
    let runtime = runtime_names(&graph, &["m".to_string()]);
    assert!(runtime.contains("shared") && runtime.contains("rt"));
    assert!(!runtime.contains("syn") && !runtime.contains("cc") && !runtime.contains("pm"));
    let manifest = "[profile.dev.package]\n\"*\" = { opt-level = 3 }\nsyn = { opt-level = 0 }\n\
                    [profile.dev.package.other]\nx = { opt-level = 0 }\n";
    assert_eq!(build_time_names(manifest), ["syn"]);
}
