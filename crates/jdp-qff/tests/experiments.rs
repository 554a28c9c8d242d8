//! Every figure of the reproduction runs at a tiny budget, draws the curves its description
//! lists, and gives the same numbers for the same seed.

use bandit::experiment::{Options, PaperExperiments};
use jdp_qff::experiments::{Dubey2021, panels};

#[test]
fn every_figure_runs_with_its_labels_and_is_reproducible() {
    let options = Options::new(2, 12, 5, "unused").unwrap();
    let figures = Dubey2021.figures();
    assert_eq!(
        figures.iter().map(|f| f.id).collect::<Vec<_>>(),
        panels().iter().map(|p| p.id()).collect::<Vec<_>>()
    );
    for figure in &figures {
        // Every claim reads curves of its figure (a typo would skip it silently).
        assert!(!figure.claims.is_empty(), "{}", figure.id);
        for c in &figure.claims {
            for l in c.curves() {
                assert!(
                    figure.curves.iter().any(|x| x == l),
                    "{} {}: {l}",
                    figure.id,
                    c.id
                );
            }
        }
        let first = Dubey2021.run_figure(figure, &options, &mut |_| {}).unwrap();
        let labels: Vec<&str> = first.curves.iter().map(|c| c.label.as_str()).collect();
        assert_eq!(labels, figure.curves, "{}", figure.id);
        assert!(labels.contains(&"non-private"), "{labels:?}");
        for c in &first.curves {
            assert_eq!(c.batch.trials.len(), 2);
            assert_eq!(c.summary.mean.len(), 12);
            assert!(c.summary.mean.iter().all(|r| r.is_finite() && *r >= -1e-12));
        }
        let again = Dubey2021.run_figure(figure, &options, &mut |_| {}).unwrap();
        for (a, b) in first.curves.iter().zip(&again.curves) {
            assert_eq!(a.batch, b.batch, "{} {}", figure.id, a.label);
        }
        // Another seed gives other numbers.
        let other = Dubey2021
            .run_figure(
                figure,
                &Options::new(2, 12, 6, "unused").unwrap(),
                &mut |_| {},
            )
            .unwrap();
        assert_ne!(
            first.curves[0].batch, other.curves[0].batch,
            "{}",
            figure.id
        );
    }
}

#[test]
fn budgets_are_the_papers_and_table1_is_printed_beside_it() {
    let figures = Dubey2021.figures();
    let fallback = Options::new(3, 7, 1, "unused")
        .unwrap()
        .with_overrides(false, false);
    for f in &figures {
        let o = Dubey2021.figure_options(f, &fallback);
        let expected = if f.id.starts_with("table1") {
            (10, 10_000)
        } else {
            (20, 1024)
        };
        assert_eq!((o.trials(), o.horizon()), expected, "{}", f.id);
    }
    let tiny = Options::new(1, 5, 1, "unused").unwrap();
    let table: Vec<_> = figures
        .iter()
        .filter(|f| f.id == "table1-camelback")
        .map(|f| Dubey2021.run_figure(f, &tiny, &mut |_| {}).unwrap())
        .collect();
    let md = Dubey2021.summary_section(&table).unwrap();
    assert!(md.contains("| non-private |"), "{md}");
    assert!(
        md.contains("\\| 519 |") && md.contains("\\| 5002 |"),
        "{md}"
    );
    assert!(md.contains("not run"), "{md}");
    assert!(md.contains("| uniform |"), "{md}");
    assert!(md.contains("- table1-camelback: "), "{md}");
    assert!(md.contains("of uniform play's regret"), "{md}");
    let fig1: Vec<_> = figures
        .iter()
        .filter(|f| f.id == "fig1")
        .map(|f| Dubey2021.run_figure(f, &tiny, &mut |_| {}).unwrap())
        .collect();
    assert_eq!(Dubey2021.summary_section(&fig1), None);
    let params = Dubey2021.parameters(&tiny).unwrap();
    assert!(
        params.json.contains("\"measured_feature_error\""),
        "{}",
        params.json
    );
    assert!(params.json.contains("\"textbook\""), "{}", params.json);
}
