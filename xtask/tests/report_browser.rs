//! `report.html` in a real browser: `cargo xtask verify` writes the page for a few checks with
//! plots of both kinds, headless Chromium loads it as `report.html#selftest`, and the page's
//! self-test (see `verification::report_html`) must report that every plot rendered, every
//! filter shows exactly its checks and no script failed.
//!
//! Ignored by `cargo test` (it needs Chromium, which the default build does not); `.ci/run`
//! installs Debian's `chromium` and runs it with `--ignored`. `CHROMIUM` names the browser
//! (default `chromium`).

use std::path::{Path, PathBuf};
use std::process::Command;

fn browser() -> String {
    std::env::var("CHROMIUM").unwrap_or_else(|_| "chromium".into())
}

/// The DOM of `page#selftest` after its scripts ran, from headless Chromium.
fn dump_dom(page: &Path) -> String {
    let url = format!("file://{}#selftest", page.display());
    let out = Command::new(browser())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--virtual-time-budget=20000",
            "--dump-dom",
            &url,
        ])
        .output()
        .expect("headless Chromium runs (set CHROMIUM to its path)");
    assert!(
        out.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("the DOM is UTF-8")
}

/// The self-test line the page wrote.
fn selftest(dom: &str) -> String {
    dom.split("<pre id=\"selftest\">")
        .nth(1)
        .and_then(|s| s.split("</pre>").next())
        .unwrap_or("(the page wrote no self-test result)")
        .to_string()
}

/// `cargo xtask verify --only prefix --out dir`; the path of its `report.html`.
fn verify(prefix: &str, dir: &Path) -> PathBuf {
    let status = Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(["verify", "--only", prefix, "--out"])
        .arg(dir)
        .status()
        .expect("xtask runs");
    assert!(
        status.success(),
        "cargo xtask verify --only {prefix} failed"
    );
    dir.join("report.html")
}

#[test]
#[ignore = "needs headless Chromium; .ci/run installs it and runs this test"]
fn the_report_page_renders_and_filters_in_chromium() {
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("report_browser");
    // Trade-off plots (audit controls) and regret-scaling plots (the checker's own checks).
    for prefix in ["audit/control/", "checker/"] {
        let dir = root.join(prefix.trim_end_matches('/').replace('/', "_"));
        let _ = std::fs::remove_dir_all(&dir);
        let page = verify(prefix, &dir);
        let html = std::fs::read_to_string(&page).expect("report.html written");
        let plots = html.matches("<figure class=\"plot\">").count();
        assert!(plots > 0, "{prefix}: the page has no plot");
        let result = selftest(&dump_dom(&page));
        assert!(
            result.starts_with("selftest: ok"),
            "{prefix}: {result} ({})",
            page.display()
        );
        assert!(
            result.contains(&format!("{plots} plots")),
            "{prefix}: {result}, expected {plots} plots"
        );
    }
}

#[test]
#[ignore = "needs headless Chromium; .ci/run installs it and runs this test"]
fn the_self_test_fails_on_a_broken_page() {
    // Power check: a page whose plot is empty and whose filter hides nothing is reported.
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("report_browser_broken");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temporary folder");
    let good = verify("checker/scaling/uniform", &dir);
    let html = std::fs::read_to_string(&good).expect("report.html written");
    let start = html.find("<svg").expect("an inline plot");
    let end = html[start..].find("</svg>").expect("its end") + start + "</svg>".len();
    let broken = format!(
        "{}<svg width=\"0\" height=\"0\"></svg>{}",
        &html[..start],
        &html[end..]
    )
    .replace("c.hidden = !s;", "c.hidden = false;");
    let page = dir.join("broken.html");
    std::fs::write(&page, broken).expect("broken page written");
    let result = selftest(&dump_dom(&page));
    assert!(result.starts_with("selftest: FAIL"), "{result}");
    assert!(
        result.contains("empty box") || result.contains("draws nothing"),
        "{result}"
    );
}
