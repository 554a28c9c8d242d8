//! Every dependency a workspace member declares is used by its code (the check `cargo machete`
//! makes: a dependency whose crate name appears nowhere in the member's sources is unused).
//! `[dependencies]` are searched in `src/`, `[dev-dependencies]` also in `tests/`, `benches/`,
//! `examples/`; the crate pages included with `include_str!` (their doctests) count as sources.
//! A member may declare dependencies that exist only to turn features on (feature
//! unification) under `[package.metadata.feature-unification] crates = [...]`: those are not
//! searched, but each must be declared in `[dependencies]`, so the list cannot go stale.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace")
        .to_path_buf()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The text of the sources in `dirs` of `member`, with the pages they `include_str!`.
fn sources(member: &Path, dirs: &[&str]) -> String {
    let mut files = Vec::new();
    for d in dirs {
        rust_files(&member.join(d), &mut files);
    }
    let mut text = String::new();
    for f in files {
        let src = std::fs::read_to_string(&f).expect("readable source");
        for inc in src.split("include_str!(\"").skip(1) {
            if let Some(rel) = inc.split('"').next()
                && let Some(dir) = f.parent()
                && let Ok(page) = std::fs::read_to_string(dir.join(rel))
            {
                text.push_str(&page);
            }
        }
        text.push_str(&src);
    }
    text
}

/// `name` as a whole identifier in `text`.
fn mentions(text: &str, name: &str) -> bool {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(name).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + name.len()..].chars().next();
        !before.is_some_and(ident) && !after.is_some_and(ident)
    })
}

/// The dependency names of each `[section]` of a manifest.
fn declared(manifest: &str, section: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut inside = false;
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            inside = line == format!("[{section}]");
            continue;
        }
        if inside && !line.is_empty() && !line.starts_with('#') {
            let name = line
                .split(['=', '.', ' '])
                .next()
                .unwrap_or_default()
                .trim();
            if !name.is_empty() {
                out.push(name.to_string());
            }
        }
    }
    out
}

/// The member directories of `patterns`: a pattern ending in `/*` stands for every
/// subdirectory of its parent that has a `Cargo.toml` (Cargo's glob), sorted.
fn expand_members(root: &Path, patterns: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for p in patterns {
        if let Some(parent) = p.strip_suffix("/*") {
            let mut found: Vec<String> = std::fs::read_dir(root.join(parent))
                .expect("member glob directory")
                .filter_map(|e| e.ok())
                .filter(|e| e.path().join("Cargo.toml").is_file())
                .map(|e| format!("{parent}/{}", e.file_name().to_string_lossy()))
                .collect();
            found.sort();
            out.extend(found);
        } else {
            out.push((*p).to_string());
        }
    }
    out
}

/// The crates of `[package.metadata.feature-unification] crates = [...]` (one line).
fn feature_unification(manifest: &str) -> Vec<String> {
    let mut inside = false;
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            inside = line == "[package.metadata.feature-unification]";
            continue;
        }
        if inside && let Some(list) = line.strip_prefix("crates = [") {
            return list
                .split('"')
                .skip(1)
                .step_by(2)
                .map(str::to_string)
                .collect();
        }
    }
    Vec::new()
}

#[test]
fn every_declared_dependency_is_used() {
    let root = root();
    let workspace = std::fs::read_to_string(root.join("Cargo.toml")).expect("workspace manifest");
    let patterns: Vec<&str> = workspace
        .split("members = [")
        .nth(1)
        .and_then(|s| s.split(']').next())
        .expect("a members list")
        .split('"')
        .skip(1)
        .step_by(2)
        .collect();
    let members = expand_members(&root, &patterns);
    assert!(members.len() >= 5, "members: {members:?}");
    let mut unused = Vec::new();
    for m in &members {
        let dir = root.join(m);
        let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).expect("member manifest");
        let unification = feature_unification(&manifest);
        let runtime = declared(&manifest, "dependencies");
        for c in &unification {
            if !runtime.contains(c) {
                unused.push(format!(
                    "{m}: [package.metadata.feature-unification] names {c}, not a dependency"
                ));
            }
        }
        for (section, dirs) in [
            ("dependencies", &["src"][..]),
            (
                "dev-dependencies",
                &["src", "tests", "benches", "examples"][..],
            ),
        ] {
            let text = sources(&dir, dirs);
            for dep in declared(&manifest, section) {
                if section == "dependencies" && unification.contains(&dep) {
                    continue;
                }
                if !mentions(&text, &dep.replace('-', "_")) {
                    unused.push(format!("{m}: [{section}] {dep}"));
                }
            }
        }
    }
    assert!(
        unused.is_empty(),
        "unused dependencies:\n{}",
        unused.join("\n")
    );
}

#[test]
fn the_check_sees_an_unused_dependency() {
    // Power check: a manifest declaring a crate the sources never name is reported.
    let manifest = "[dependencies]\nrand.workspace = true\nnot-a-used-crate = \"1\"\n";
    let deps = declared(manifest, "dependencies");
    assert_eq!(deps, ["rand", "not-a-used-crate"]);
    let text = "use rand::Rng;";
    assert!(mentions(text, "rand"));
    assert!(!mentions(text, "not_a_used_crate"));
    assert!(!mentions("use rand_chacha::X;", "rand"));
    // A feature-unification list is read, and only from its own table.
    let manifest = "[package.metadata.feature-unification]\ncrates = [\"either\", \"zerocopy\"]\n\
                    [dependencies]\neither.workspace = true\n";
    assert_eq!(feature_unification(manifest), ["either", "zerocopy"]);
    assert!(feature_unification("[dependencies]\ncrates = [\"x\"]\n").is_empty());
}
