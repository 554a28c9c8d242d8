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
    // The rows the paper does not have: the tightened profile and the two ablations.
    for row in [
        "| alpha-1-tightened |",
        "| alpha-1-noise-free |",
        "| alpha-1-width-x0.01 |",
    ] {
        assert!(md.contains(row), "{row}: {md}");
    }
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
    assert!(params.json.contains("\"hardened\""), "{}", params.json);
    assert!(!params.json.contains("\"textbook\""), "{}", params.json);
    // `--sampler textbook` is the named control; any other name is refused.
    let textbook = tiny.clone().with_sampler(Some("textbook".into()));
    let params = Dubey2021.parameters(&textbook).unwrap();
    assert!(params.json.contains("\"textbook\""), "{}", params.json);
    assert!(
        Dubey2021
            .select_figures(&tiny.clone().with_sampler(Some("fast".into())))
            .is_err()
    );
}

/// `--preset` names a profile for every private curve: all curves are kept, the parameters name
/// the profile and its guarantee, an unknown profile is refused; the non-private curve and the
/// curves naming their own profile do not change with it.
#[test]
fn preset_is_a_profile_for_the_private_curves() {
    let tiny = Options::new(1, 5, 1, "unused").unwrap();
    let all = Dubey2021.select_figures(&tiny).unwrap();
    for preset in ["tightened", "paper-as-printed", "tuned", "tuned:0.5"] {
        let o = tiny.clone().with_variant(Some(preset.into()));
        let selected = Dubey2021.select_figures(&o).unwrap();
        assert_eq!(selected.len(), all.len(), "{preset}");
        for (a, b) in all.iter().zip(&selected) {
            assert_eq!(a.curves, b.curves, "{preset}");
        }
        let params = Dubey2021.parameters(&o).unwrap();
        assert!(
            params.json.contains(&format!("\"profile\": \"{preset}")),
            "{}",
            params.json
        );
    }
    let params = Dubey2021.parameters(&tiny).unwrap();
    assert!(
        params.json.contains("\"profile\": \"provably-private\""),
        "{}",
        params.json
    );
    let bad = tiny.clone().with_variant(Some("tight".into()));
    let e = Dubey2021.select_figures(&bad).unwrap_err().to_string();
    assert!(e.contains("tight") && e.contains("tightened"), "{e}");
    // Under tightened, the alpha-1 curve equals the alpha-1-tightened curve (same seeds, same
    // algorithm); the non-private curve is the same as without a preset.
    let camelback: Vec<_> = all.iter().filter(|f| f.id == "table1-camelback").collect();
    let short = Options::new(1, 30, 1, "unused").unwrap();
    let plain = Dubey2021
        .run_figure(camelback[0], &short, &mut |_| {})
        .unwrap();
    let tight = Dubey2021
        .run_figure(
            camelback[0],
            &short.clone().with_variant(Some("tightened".into())),
            &mut |_| {},
        )
        .unwrap();
    let curve = |r: &bandit::experiment::FigureResult, l: &str| {
        r.curves
            .iter()
            .find(|c| c.label == l)
            .unwrap()
            .batch
            .clone()
    };
    assert_eq!(curve(&tight, "alpha-1"), curve(&plain, "alpha-1-tightened"));
    assert_eq!(curve(&tight, "non-private"), curve(&plain, "non-private"));
    assert_ne!(curve(&tight, "alpha-1"), curve(&plain, "alpha-1"));
}

/// `--sampler textbook-per-curve` is the textbook sampler with each curve's noise from a stream
/// of its own: the non-private curve is the textbook run's to the digit (it draws no privacy
/// noise), every private curve differs from the shared-stream textbook run, a rerun gives the
/// same numbers, and the parameters record the textbook sampler.
#[test]
fn per_curve_noise_streams_change_only_the_private_curves() {
    let options = Options::new(1, 6, 3, "unused").unwrap();
    let named = |s: &str| options.clone().with_sampler(Some(s.into()));
    let fig1 = Dubey2021
        .figures()
        .into_iter()
        .find(|f| f.id == "fig1")
        .unwrap();
    let batches = |o: &Options| -> Vec<(String, bandit::runner::BatchResult)> {
        Dubey2021
            .run_figure(&fig1, o, &mut |_| {})
            .unwrap()
            .curves
            .into_iter()
            .map(|c| (c.label, c.batch))
            .collect()
    };
    let shared = batches(&named("textbook"));
    let own = batches(&named("textbook-per-curve"));
    assert_eq!(own, batches(&named("textbook-per-curve")));
    for ((label, a), (_, b)) in shared.iter().zip(&own) {
        if label == "non-private" {
            assert_eq!(a, b, "{label}");
        } else {
            assert_ne!(a, b, "{label}");
        }
    }
    let params = Dubey2021.parameters(&named("textbook-per-curve")).unwrap();
    assert!(params.json.contains("\"textbook\""), "{}", params.json);
    assert!(
        params.json.contains("\"noise_streams\": \"per-curve\""),
        "{}",
        params.json
    );
    let params = Dubey2021.parameters(&named("textbook")).unwrap();
    assert!(
        params.json.contains("\"noise_streams\": \"shared\""),
        "{}",
        params.json
    );
    assert!(
        Dubey2021
            .select_figures(&named("hardened-per-curve"))
            .is_ok()
    );
}
