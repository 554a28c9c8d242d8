//! `report.html`: the verify report as one self-contained page (no network, no external file):
//! the checks grouped by area, areas with a failure or an inconclusive check first and, within
//! an area, failures, then inconclusive checks, then passes; every check's plots inline (the
//! SVG files of `plots/` copied into the page) with their captions; filters by area and by
//! verdict (a few lines of JavaScript; without JavaScript every check shows).
//!
//! Opened as `report.html#selftest`, the page also tests itself in the browser that renders it:
//! every plot has a non-empty box and drawn elements, each filter shows exactly the checks it
//! selects, and no script error occurred; the result is written into the element
//! `#selftest` ("selftest: ok ..." or "selftest: FAIL ..."). The browser test of `.ci/run`
//! (xtask's `report_browser` test) loads the page in headless Chromium and reads that element.

use std::fmt::Write as _;
use std::path::Path;

use crate::outcome::Verdict;
use crate::report::{CheckRecord, Report, checks_noun};

/// The area of a check id: the part before the first `/`.
fn area_of(id: &str) -> &str {
    id.split('/').next().unwrap_or(id)
}

/// Rank of a verdict in the page's order: failures first, then inconclusive, then passes.
fn rank(v: Verdict) -> u8 {
    match v {
        Verdict::Fail => 0,
        Verdict::Inconclusive => 1,
        Verdict::Pass => 2,
    }
}

fn verdict_name(v: Verdict) -> &'static str {
    match v {
        Verdict::Pass => "pass",
        Verdict::Fail => "fail",
        Verdict::Inconclusive => "inconclusive",
    }
}

/// `text` with the five HTML metacharacters escaped.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The SVG element of a plot file, ready to inline: the XML declaration removed. `None` when
/// the file cannot be read or holds no `<svg` element.
fn inline_svg(path: &Path) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    let start = text.find("<svg")?;
    Some(text[start..].to_string())
}

/// The areas in the page's order: those with a failure first, then those with an
/// inconclusive check, then the others, each group in the report's order.
fn areas_in_order(report: &Report) -> Vec<(&str, Vec<&CheckRecord>)> {
    let mut areas: Vec<(&str, Vec<&CheckRecord>)> = Vec::new();
    for c in &report.checks {
        let a = area_of(&c.id);
        match areas.iter_mut().find(|(name, _)| *name == a) {
            Some((_, list)) => list.push(c),
            None => areas.push((a, vec![c])),
        }
    }
    for (_, list) in &mut areas {
        list.sort_by_key(|c| rank(c.outcome.verdict));
    }
    areas.sort_by_key(|(_, list)| list.iter().map(|c| rank(c.outcome.verdict)).min());
    areas
}

/// The page (module docs). `report_dir` is the folder of the report, against which the
/// records' plot paths are resolved.
pub fn to_html(report: &Report, report_dir: &Path) -> String {
    let mut s = String::new();
    let areas = areas_in_order(report);
    let _ = write!(
        s,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>Verification report</title>\n<style>{CSS}</style>\n</head>\n<body>\n"
    );
    let _ = writeln!(s, "<h1>Verification report</h1>");
    let _ = writeln!(
        s,
        "<p class=\"summary\">Mode <code>{}</code>{}, seed {}, {} checks in {:.1} s: \
         <span class=\"badge fail\">{} fail</span> <span class=\"badge inconclusive\">{} inconclusive</span> \
         <span class=\"badge pass\">{} pass</span></p>",
        escape(&report.mode),
        report
            .only
            .as_deref()
            .map(|o| format!(", only <code>{}</code>", escape(o)))
            .unwrap_or_default(),
        report.seed,
        report.checks.len(),
        report.total_seconds,
        report.counts.fail,
        report.counts.inconclusive,
        report.counts.pass,
    );
    let _ = writeln!(
        s,
        "<p>Probability that any statistical check below fails although its claim holds (union \
         bound over the checks): at most {:.2e}. A positive control passes when it catches its \
         deliberately broken variant.</p>",
        report.family_wise_false_alarm_bound
    );
    if !report.full_only_not_run.is_empty() {
        let _ = writeln!(
            s,
            "<p class=\"not-run\">Not run: {} whose budget belongs to <code>--full</code>: {}.</p>",
            checks_noun(report.full_only_not_run.len()),
            report
                .full_only_not_run
                .iter()
                .map(|id| format!("<code>{}</code>", escape(id)))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    // Filters.
    let _ = writeln!(
        s,
        "<form id=\"filters\" class=\"filters\">\n<label>Area <select id=\"area\">\
         <option value=\"\">all areas</option>"
    );
    for (name, list) in &areas {
        let _ = write!(
            s,
            "<option value=\"{0}\">{0} ({1})</option>",
            escape(name),
            list.len()
        );
    }
    let _ = writeln!(
        s,
        "</select></label>\n<label>Verdict <select id=\"verdict\">\
         <option value=\"\">all verdicts</option>\
         <option value=\"not-pass\">fail or inconclusive</option>\
         <option value=\"fail\">fail</option>\
         <option value=\"inconclusive\">inconclusive</option>\
         <option value=\"pass\">pass</option></select></label>\n\
         <span id=\"shown\"></span>\n</form>"
    );
    // Areas and checks.
    for (name, list) in &areas {
        let (fail, inconclusive) = list
            .iter()
            .fold((0, 0), |(f, i), c| match c.outcome.verdict {
                Verdict::Fail => (f + 1, i),
                Verdict::Inconclusive => (f, i + 1),
                Verdict::Pass => (f, i),
            });
        let _ = writeln!(
            s,
            "<section class=\"area\" data-area=\"{0}\">\n<h2>{0} <small>{1} checks, {2} fail, {3} inconclusive</small></h2>",
            escape(name),
            list.len(),
            fail,
            inconclusive
        );
        for c in list {
            check_html(&mut s, c, report_dir);
        }
        let _ = writeln!(s, "</section>");
    }
    let _ = writeln!(
        s,
        "<pre id=\"selftest\" hidden></pre>\n<script>{SCRIPT}</script>\n</body>\n</html>"
    );
    s
}

/// One check: verdict, id, kind, time; subject, claim, measured; the audit's numbers; the
/// machine-readable values (collapsed); the plots with their captions.
fn check_html(s: &mut String, c: &CheckRecord, report_dir: &Path) {
    let o = &c.outcome;
    let v = verdict_name(o.verdict);
    let _ = writeln!(
        s,
        "<article class=\"check {v}\" id=\"{id}\" data-area=\"{area}\" data-verdict=\"{v}\">\n\
         <h3><span class=\"badge {v}\">{v}</span> <code>{id}</code> <small>{kind}, {secs:.2} s</small></h3>",
        id = escape(&c.id),
        area = escape(area_of(&c.id)),
        kind = o.kind.name(),
        secs = c.seconds,
    );
    let _ = writeln!(
        s,
        "<dl>\n<dt>Subject</dt><dd>{}</dd>\n<dt>Claim</dt><dd>{}</dd>\n<dt>Measured</dt><dd>{}</dd>",
        escape(&o.subject),
        escape(&o.claim),
        escape(&o.measured)
    );
    if let Some(p) = o.false_alarm_probability {
        let _ = writeln!(s, "<dt>False alarm</dt><dd>at most {p:.1e}</dd>");
    }
    if let Some(a) = o.audit.as_ref().and_then(|a| a.likelihood()) {
        let f = |v: Option<f64>| v.map_or_else(|| "-".to_string(), |x| format!("{x:.4}"));
        let _ = writeln!(
            s,
            "<dt>Audit</dt><dd>eps lower {} (claimed {}, delta {:e}); mu lower {} (pair {}); \
             tightness {}{}; {} held-out outputs per input; confidence 1 - {:.0e}</dd>",
            f(Some(a.eps_lower)),
            f(a.eps_claimed),
            a.delta,
            f(a.mu_lower),
            f(a.mu_reference),
            f(a.tightness),
            o.exact_tightness()
                .map(|e| format!(" ({e:.4} of the exact limit, the pair's exact epsilon)"))
                .unwrap_or_default(),
            a.samples,
            1.0 - a.confidence,
        );
    }
    let _ = writeln!(s, "</dl>");
    if !o.values.is_empty() {
        let json = serde_json::to_string_pretty(&o.values).unwrap_or_default();
        let _ = writeln!(
            s,
            "<details><summary>values</summary><pre>{}</pre></details>",
            escape(&json)
        );
    }
    for p in &o.plots {
        let _ = writeln!(s, "<figure class=\"plot\">");
        match inline_svg(&report_dir.join(p)) {
            Some(svg) => s.push_str(&svg),
            None => {
                let _ = write!(
                    s,
                    "<p class=\"missing\">plot file {} could not be read</p>",
                    escape(p)
                );
            }
        }
        let caption = crate::plot::caption(p).unwrap_or("");
        let _ = writeln!(
            s,
            "<figcaption><code>{}</code> {}</figcaption>\n</figure>",
            escape(p),
            escape(caption)
        );
    }
    let _ = writeln!(s, "</article>");
}

const CSS: &str = r#"
body { font-family: system-ui, sans-serif; margin: 1.5em auto; max-width: 72em; padding: 0 1em; color: #222; }
h1 { margin-bottom: 0.2em; }
h2 { border-bottom: 2px solid #ccc; padding-bottom: 0.2em; margin-top: 1.6em; }
h2 small, h3 small { font-weight: normal; color: #666; }
h3 { font-size: 1em; margin: 0 0 0.4em 0; }
.filters { position: sticky; top: 0; background: #f7f7f7; border: 1px solid #ddd; padding: 0.5em 0.8em; z-index: 1; }
.filters label { margin-right: 1.5em; }
#shown { color: #555; }
.check { border: 1px solid #ddd; border-left: 6px solid #999; padding: 0.6em 0.8em; margin: 0.8em 0; }
.check.fail { border-left-color: #c62828; }
.check.inconclusive { border-left-color: #f9a825; }
.check.pass { border-left-color: #2e7d32; }
.badge { display: inline-block; padding: 0 0.5em; border-radius: 0.8em; font-size: 0.85em; color: #fff; text-transform: uppercase; }
.badge.fail { background: #c62828; }
.badge.inconclusive { background: #f9a825; color: #222; }
.badge.pass { background: #2e7d32; }
dl { display: grid; grid-template-columns: 7em 1fr; gap: 0.2em 0.8em; margin: 0.4em 0; }
dt { font-weight: bold; color: #444; }
dd { margin: 0; overflow-wrap: anywhere; }
pre { background: #f7f7f7; padding: 0.5em; overflow-x: auto; }
figure.plot { margin: 0.6em 0; }
figure.plot svg { max-width: 100%; height: auto; display: block; }
figcaption { font-size: 0.85em; color: #444; }
.missing { color: #c62828; }
[hidden] { display: none !important; }
"#;

const SCRIPT: &str = r#"
(function () {
  var errors = [];
  window.addEventListener('error', function (e) { errors.push(String(e.message)); });
  var area = document.getElementById('area');
  var verdict = document.getElementById('verdict');
  var checks = Array.prototype.slice.call(document.querySelectorAll('article.check'));
  var sections = Array.prototype.slice.call(document.querySelectorAll('section.area'));
  function selected(c) {
    var a = area.value, v = verdict.value, cv = c.getAttribute('data-verdict');
    var areaOk = a === '' || c.getAttribute('data-area') === a;
    var verdictOk = v === '' || (v === 'not-pass' ? cv !== 'pass' : cv === v);
    return areaOk && verdictOk;
  }
  function apply() {
    var shown = 0;
    checks.forEach(function (c) { var s = selected(c); c.hidden = !s; if (s) { shown++; } });
    sections.forEach(function (s) {
      s.hidden = !s.querySelector('article.check:not([hidden])');
    });
    document.getElementById('shown').textContent = 'showing ' + shown + ' of ' + checks.length + ' checks';
  }
  area.addEventListener('change', apply);
  verdict.addEventListener('change', apply);
  apply();
  if (location.hash !== '#selftest') { return; }
  var problems = [];
  var plots = document.querySelectorAll('figure.plot');
  var svgs = document.querySelectorAll('figure.plot svg');
  if (svgs.length !== plots.length) { problems.push(plots.length + ' plots but ' + svgs.length + ' inline SVGs'); }
  Array.prototype.forEach.call(svgs, function (svg, i) {
    var r = svg.getBoundingClientRect();
    var drawn = svg.querySelectorAll('path, polyline, line, rect, circle, polygon, text').length;
    if (!(r.width > 0 && r.height > 0)) { problems.push('plot ' + i + ' has an empty box'); }
    if (drawn === 0) { problems.push('plot ' + i + ' draws nothing'); }
  });
  function count(a, v) {
    area.value = a; verdict.value = v; apply();
    var visible = checks.filter(function (c) { return !c.hidden && c.getBoundingClientRect().height > 0; });
    var wrong = visible.filter(function (c) { return !selected(c); }).length;
    var missing = checks.filter(function (c) { return selected(c) && c.hidden; }).length;
    if (wrong || missing) { problems.push('filter (' + a + ', ' + v + '): ' + wrong + ' shown wrongly, ' + missing + ' hidden wrongly'); }
    return visible.length;
  }
  var all = count('', '');
  if (all !== checks.length) { problems.push('no filter shows ' + all + ' of ' + checks.length); }
  var byVerdict = ['pass', 'fail', 'inconclusive'].map(function (v) { return count('', v); });
  if (byVerdict[0] + byVerdict[1] + byVerdict[2] !== checks.length) { problems.push('the verdict filters do not partition the checks'); }
  if (count('', 'not-pass') !== byVerdict[1] + byVerdict[2]) { problems.push('fail-or-inconclusive filter'); }
  var areaTotal = 0;
  Array.prototype.forEach.call(area.options, function (o) { if (o.value !== '') { areaTotal += count(o.value, ''); } });
  if (areaTotal !== checks.length) { problems.push('the area filters do not partition the checks'); }
  count('', '');
  problems = problems.concat(errors.map(function (e) { return 'script error: ' + e; }));
  var out = document.getElementById('selftest');
  out.hidden = false;
  out.textContent = problems.length === 0
    ? 'selftest: ok (' + checks.length + ' checks, ' + svgs.length + ' plots, ' + (area.options.length - 1) + ' areas)'
    : 'selftest: FAIL ' + problems.join('; ');
})();
"#;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::{CheckKind, Outcome};

    fn record(id: &str, verdict: Verdict) -> CheckRecord {
        CheckRecord {
            id: id.into(),
            outcome: Outcome::new(CheckKind::Property, "s <x>", "c & d", "m", verdict),
            seconds: 0.5,
        }
    }

    #[test]
    fn areas_with_failures_come_first_and_failures_lead_each_area() {
        let report = Report::new(
            "quick",
            None,
            1,
            1.0,
            vec![
                record("a/1", Verdict::Pass),
                record("a/2", Verdict::Inconclusive),
                record("b/1", Verdict::Pass),
                record("b/2", Verdict::Fail),
                record("c/1", Verdict::Pass),
            ],
        );
        let order: Vec<(&str, Vec<&str>)> = areas_in_order(&report)
            .into_iter()
            .map(|(a, l)| (a, l.iter().map(|c| c.id.as_str()).collect()))
            .collect();
        assert_eq!(
            order,
            [
                ("b", vec!["b/2", "b/1"]),
                ("a", vec!["a/2", "a/1"]),
                ("c", vec!["c/1"])
            ]
        );
        let html = to_html(&report, Path::new("/nonexistent"));
        assert!(html.contains("s &lt;x&gt;") && html.contains("c &amp; d"));
        assert!(!html.contains("s <x>"));
        assert_eq!(html.matches("<article class=\"check").count(), 5);
    }

    #[test]
    fn the_full_only_checks_a_quick_run_skipped_are_listed() {
        let mut report = Report::new("quick", None, 1, 1.0, vec![record("a/1", Verdict::Pass)]);
        assert!(!to_html(&report, Path::new("/nonexistent")).contains("Not run"));
        report.full_only_not_run = vec!["b/<greedy>".into()];
        let html = to_html(&report, Path::new("/nonexistent"));
        assert!(html.contains("Not run: 1 check whose budget belongs to <code>--full</code>"));
        assert!(html.contains("<code>b/&lt;greedy&gt;</code>"));
        report.full_only_not_run.push("c/1".into());
        let html = to_html(&report, Path::new("/nonexistent"));
        assert!(html.contains("Not run: 2 checks whose budget"));
    }

    #[test]
    fn a_missing_plot_is_said_not_dropped() {
        let mut r = record("a/1", Verdict::Pass);
        r.outcome.plots.push("plots/a_1.scaling.svg".into());
        let report = Report::new("quick", None, 1, 1.0, vec![r]);
        let html = to_html(&report, Path::new("/nonexistent"));
        assert!(html.contains("plot file plots/a_1.scaling.svg could not be read"));
    }
}
