//! The structure the design asks for, checked on the sources (DESIGN.md, "Dependencies point one
//! way"):
//!
//! - no import circle between the files of any workspace crate: the file-level graph whose edges
//!   are the `crate::...` and `super::...` paths of each file (resolved to the deepest module
//!   file they name) has no cycle;
//! - the statistical engine (`verification`) depends, directly or not, on no paper crate, so
//!   that `cargo xtask audit` and `compare` need none.
//!
//! A parent module's re-exports of its children (`pub use statistic::Score;`) are not edges: a
//! module and the files it declares are one unit. Each rule is shown to fail on a small
//! deliberately circular tree, so that a pass means something.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace")
        .to_path_buf()
}

/// The module path of a source file relative to `src/` (`audit/mod.rs` -> `["audit"]`,
/// `lib.rs` -> `[]`).
fn module_of(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

fn rust_files(dir: &Path, base: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, base, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p.strip_prefix(base).expect("below base").to_path_buf());
        }
    }
}

/// The paths after `prefix` in `text`: for `crate::a::b::C` with prefix `crate::`, `[a, b, C]`;
/// a group `crate::a::{b, c}` gives `[a]` (the group's members are resolved at `a` or below by
/// the deepest-module rule, which is conservative for an edge to `a`).
fn paths_after(text: &str, prefix: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for (i, _) in text.match_indices(prefix) {
        let before = text[..i].chars().next_back();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        let mut segs = Vec::new();
        let mut rest = &text[i + prefix.len()..];
        loop {
            let ident: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if ident.is_empty() {
                break;
            }
            rest = &rest[ident.len()..];
            segs.push(ident);
            match rest.strip_prefix("::") {
                Some(r) => rest = r,
                None => break,
            }
        }
        out.push(segs);
    }
    out
}

/// The product code of a file: without `//` comments (doc comments mention paths in prose and
/// intra-doc links) and without its unit tests (from the first `#[cfg(test)]` on: by the
/// workspace's convention the test module closes the file).
fn code_only(src: &str) -> String {
    let product = src.split("#[cfg(test)]").next().unwrap_or_default();
    product
        .lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The file-level import graph of the sources under `src`: file -> files it imports from.
fn graph(src: &Path) -> BTreeMap<PathBuf, BTreeSet<PathBuf>> {
    let mut files = Vec::new();
    rust_files(src, src, &mut files);
    let by_module: BTreeMap<Vec<String>, PathBuf> =
        files.iter().map(|f| (module_of(f), f.clone())).collect();
    // The deepest module file a path names, from module `base`.
    let resolve = |base: &[String], segs: &[String]| -> Option<PathBuf> {
        (0..=segs.len()).rev().find_map(|k| {
            let mut m = base.to_vec();
            m.extend_from_slice(&segs[..k]);
            by_module.get(&m).cloned()
        })
    };
    let mut g = BTreeMap::new();
    for f in &files {
        let text = code_only(&std::fs::read_to_string(src.join(f)).expect("readable source"));
        let me = module_of(f);
        let mut edges = BTreeSet::new();
        for segs in paths_after(&text, "crate::") {
            edges.extend(resolve(&[], &segs));
        }
        for segs in paths_after(&text, "super::") {
            // `super` of module `a::b` is `a`; chains of `super::super::` climb further.
            let ups = 1 + segs.iter().take_while(|s| *s == "super").count();
            let rest = &segs[ups - 1..];
            if me.len() >= ups {
                edges.extend(resolve(&me[..me.len() - ups], rest));
            }
        }
        edges.remove(f);
        g.insert(f.clone(), edges);
    }
    g
}

/// One cycle of `g`, if any (depth-first search with colours).
fn find_cycle(g: &BTreeMap<PathBuf, BTreeSet<PathBuf>>) -> Option<Vec<PathBuf>> {
    fn visit(
        n: &PathBuf,
        g: &BTreeMap<PathBuf, BTreeSet<PathBuf>>,
        state: &mut BTreeMap<PathBuf, u8>,
        stack: &mut Vec<PathBuf>,
    ) -> Option<Vec<PathBuf>> {
        state.insert(n.clone(), 1);
        stack.push(n.clone());
        for m in g.get(n).into_iter().flatten() {
            match state.get(m).copied().unwrap_or(0) {
                1 => {
                    let start = stack.iter().position(|x| x == m).expect("on the stack");
                    let mut c = stack[start..].to_vec();
                    c.push(m.clone());
                    return Some(c);
                }
                0 => {
                    if let Some(c) = visit(m, g, state, stack) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        stack.pop();
        state.insert(n.clone(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for n in g.keys() {
        if state.get(n).copied().unwrap_or(0) == 0
            && let Some(c) = visit(n, g, &mut state, &mut Vec::new())
        {
            return Some(c);
        }
    }
    None
}

/// Every workspace member with a `src/` folder.
fn members() -> Vec<PathBuf> {
    let r = root();
    let mut out: Vec<PathBuf> = std::fs::read_dir(r.join("crates"))
        .expect("crates/")
        .flatten()
        .map(|e| e.path())
        .collect();
    out.extend(["verification", "checks", "xtask"].map(|m| r.join(m)));
    out.retain(|m| m.join("src").is_dir());
    out.sort();
    out
}

#[test]
fn no_import_circle_in_any_crate() {
    let mut circles = Vec::new();
    for m in members() {
        let g = graph(&m.join("src"));
        assert!(!g.is_empty(), "{} has no sources", m.display());
        if let Some(c) = find_cycle(&g) {
            circles.push(format!(
                "{}: {}",
                m.file_name().unwrap_or_default().to_string_lossy(),
                c.iter()
                    .map(|p| p.display().to_string())
                    .collect::<Vec<_>>()
                    .join(" -> ")
            ));
        }
    }
    assert!(
        circles.is_empty(),
        "import circles:\n{}",
        circles.join("\n")
    );
}

/// The positive control: the circle the engine had (`check.rs` <-> `report.rs`) and a circle
/// through `super::` are both found.
#[test]
fn a_circle_is_found() {
    let dir = std::env::temp_dir().join(format!("import-structure-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("area")).expect("temp dir");
    let write = |p: &str, s: &str| std::fs::write(dir.join(p), s).expect("write");
    write("lib.rs", "pub mod check;\npub mod report;\npub mod area;\n");
    write(
        "check.rs",
        "use crate::report::{Record, Report};\npub struct Outcome;\n",
    );
    write(
        "report.rs",
        "use crate::check::Outcome;\npub struct Report;\n",
    );
    write(
        "area/mod.rs",
        "mod a;\npub fn h() {}\nfn f() { crate::area::a::g(); }\n",
    );
    write(
        "area/a.rs",
        "// crate::report is only mentioned in a comment\npub fn g() {}\n#[cfg(test)]\nmod tests { fn t() { crate::area::h(); } }\n",
    );
    let g = graph(&dir);
    let c = find_cycle(&g).expect("the check <-> report circle is found");
    assert!(c.contains(&PathBuf::from("check.rs")) && c.contains(&PathBuf::from("report.rs")));
    // Broken: report no longer imports check; neither the comment nor the unit test of
    // area/a.rs is an edge.
    write("report.rs", "pub struct Report;\n");
    assert_eq!(find_cycle(&graph(&dir)), None);
    // A circle through super: area/a.rs -> area/mod.rs -> (crate::area::a) area/a.rs.
    write(
        "area/mod.rs",
        "mod a;\npub struct Area;\nfn f() { crate::area::a::g(); }\n",
    );
    write("area/a.rs", "use super::Area;\npub fn g() {}\n");
    let c = find_cycle(&graph(&dir)).expect("the super circle is found");
    assert!(c.contains(&PathBuf::from("area/a.rs")));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The workspace crates `member` depends on under `[dependencies]`, directly or not.
fn workspace_closure(member: &str) -> BTreeSet<String> {
    let r = root();
    let path_of = |name: &str| -> Option<PathBuf> {
        let ws = std::fs::read_to_string(r.join("Cargo.toml")).ok()?;
        let line = ws.lines().find(|l| l.starts_with(&format!("{name} = ")))?;
        let p = line.split("path = \"").nth(1)?.split('"').next()?;
        Some(r.join(p))
    };
    let mut seen = BTreeSet::new();
    let mut todo = vec![member.to_string()];
    while let Some(name) = todo.pop() {
        let dir = if name == member {
            r.join(member)
        } else {
            match path_of(&name) {
                Some(d) => d,
                None => continue,
            }
        };
        let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).expect("manifest");
        let mut inside = false;
        for line in manifest.lines().map(str::trim) {
            if line.starts_with('[') {
                inside = line == "[dependencies]";
                continue;
            }
            if !inside || line.is_empty() || line.starts_with('#') {
                continue;
            }
            let dep = line
                .split(['=', '.', ' '])
                .next()
                .unwrap_or_default()
                .trim();
            let local = line.contains("path =") || path_of(dep).is_some();
            if local && seen.insert(dep.to_string()) {
                todo.push(dep.to_string());
            }
        }
    }
    seen
}

#[test]
fn the_engine_depends_on_no_paper_crate() {
    let papers: Vec<&str> = checks::papers().map(|p| p.name()).collect();
    assert_eq!(papers.len(), 4, "the four papers: {papers:?}");
    let engine = workspace_closure("verification");
    assert!(engine.contains("privacy"), "closure read: {engine:?}");
    for p in &papers {
        assert!(
            !engine.contains(*p),
            "the engine depends on the paper crate {p}"
        );
    }
    // The control: the checks crate does depend on every paper.
    let suite = workspace_closure("checks");
    for p in &papers {
        assert!(
            suite.contains(*p),
            "{p} missing from the checks' closure {suite:?}"
        );
    }
}
