//! SVG plots of the report (plotters, SVG backend only).
//!
//! Without a font feature, plotters lays text out with a crude width estimate and writes it as
//! SVG `<text>` elements that the viewer renders with its own fonts: titles and axis labels
//! show in any browser, their extents are approximate. Every plot is also described in words in
//! the report's captions (`docs/verification.md`, section "Plots").

use std::path::Path;

use plotters::prelude::*;

use crate::audit::{AuditResult, CertifiedEvent};
use crate::scaling::ScalingResult;

/// File-name suffix of trade-off plots (the report's captions key on it).
pub const TRADEOFF_SUFFIX: &str = ".tradeoff.svg";
/// File-name suffix of regret-scaling plots.
pub const SCALING_SUFFIX: &str = ".scaling.svg";

/// Caption of a trade-off plot in `report.md`.
pub const TRADEOFF_CAPTION: &str = "Trade-off plot. x: false-positive rate P_x'(E), y: false-negative rate \
P_x(not E), both from 0 to 1. Red: the claim's trade-off curve (no test against a mechanism that keeps the \
claim lies below it). Blue line: the empirical trade-off of the audit's statistic on the held-out outputs. \
Blue dot: the chosen event's empirical rates; grey box: from there to their Clopper-Pearson upper bounds; \
black circle: the certified point (both upper bounds). A black circle below the red curve is a certified \
violation. Left panel: linear axes with a legend; right panel: the same on log-log axes (at large epsilon \
everything of interest lies within the first percent of the linear axes), rates of 0 drawn at the panel's \
lower end.";

/// Caption of a regret-scaling plot in `report.md`.
pub const SCALING_CAPTION: &str = "Regret scaling. x: ln T, y: ln cumulative regret. Light blue band: 10% to 90% \
quantiles over seeds; grey: each seed's run; \
blue: mean over seeds; red: the fitted ln R = a + b ln T + c ln ln T (slope b of ln(R / (ln T)^c), the log \
factor c added back; the legend gives b and its interval); green: the theory's exponent with the same log \
factor, through the first mean point. The plot has a legend.";

/// The report-relative path of a check's plot: `plots/<id with / replaced by _><suffix>`.
pub fn relative_path(id: &str, suffix: &str) -> String {
    format!("plots/{}{suffix}", id.replace('/', "_"))
}

/// The caption of a plot, from its file name (None for plots of other kinds).
pub fn caption(path: &str) -> Option<&'static str> {
    if path.ends_with(TRADEOFF_SUFFIX) {
        Some(TRADEOFF_CAPTION)
    } else if path.ends_with(SCALING_SUFFIX) {
        Some(SCALING_CAPTION)
    } else {
        None
    }
}

fn err(e: impl std::fmt::Display) -> String {
    format!("plot: {e}")
}

/// Trade-off plot of an audit, in two panels: x = false-positive rate, y = false-negative
/// rate, on `[0, 1]` (left) and on log-log axes from [`log_floor`] to 1 (right: at large
/// epsilon the claim's curve and the certified points lie within the first percent of the
/// linear axes; rates of 0 are drawn at the floor). Red: the claim's trade-off curve (no test
/// of a mechanism satisfying the claim lies below it); blue: the empirical trade-off of the
/// audit's statistic on the held-out split; black circles: the certified points
/// `(FPR_ub, FNR_ub)` of the events used (a violation is a black circle below the red curve).
pub fn tradeoff(path: &Path, title: &str, audit: &AuditResult) -> Result<(), String> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(err)?;
    }
    let root = SVGBackend::new(path, (1040, 500)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let root = root.titled(title, ("sans-serif", 16)).map_err(err)?;
    let (left, right) = root.split_horizontally(520);
    let mut linear = ChartBuilder::on(&left)
        .caption("linear axes", ("sans-serif", 13))
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(0.0..1.0f64, 0.0..1.0f64)
        .map_err(err)?;
    linear
        .configure_mesh()
        .x_desc("false-positive rate P_x'(E)")
        .y_desc("false-negative rate P_x(not E)")
        .draw()
        .map_err(err)?;
    tradeoff_panel(&mut linear, audit, 0.0, true)?;
    let floor = log_floor(audit);
    let mut log = ChartBuilder::on(&right)
        .caption(
            format!("log-log axes (rates of 0 drawn at {floor:.0e})"),
            ("sans-serif", 13),
        )
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d((floor..1.0f64).log_scale(), (floor..1.0f64).log_scale())
        .map_err(err)?;
    log.configure_mesh()
        .x_desc("false-positive rate (log)")
        .y_desc("false-negative rate (log)")
        .x_label_formatter(&|v| format!("{v:.0e}"))
        .y_label_formatter(&|v| format!("{v:.0e}"))
        .draw()
        .map_err(err)?;
    tradeoff_panel(&mut log, audit, floor, false)?;
    root.present().map_err(err)?;
    Ok(())
}

/// The events an audit certified: the epsilon route's and, when run, the Gaussian-DP route's.
fn events(audit: &AuditResult) -> Vec<&CertifiedEvent> {
    std::iter::once(&audit.eps_event)
        .chain(audit.mu_event.as_ref())
        .collect()
}

/// The series legend of a chart at `position`, in the one style of every plot here.
fn legend_box<'a, X, Y>(
    chart: &mut ChartContext<'a, SVGBackend<'a>, Cartesian2d<X, Y>>,
    position: SeriesLabelPosition,
) -> Result<(), String>
where
    X: Ranged<ValueType = f64>,
    Y: Ranged<ValueType = f64>,
{
    chart
        .configure_series_labels()
        .position(position)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font(("sans-serif", 11))
        .draw()
        .map_err(err)
}

/// The lower end of the log-log panel: the power of ten at or below the smallest positive rate
/// drawn (the certified points, the empirical rates and the claim's curve at those rates), kept
/// within `[1e-8, 1e-2]`.
pub fn log_floor(audit: &AuditResult) -> f64 {
    let smallest = events(audit)
        .into_iter()
        .flat_map(|e| {
            [
                e.fpr,
                e.fnr,
                e.fpr_upper,
                e.fnr_upper,
                audit.claim.tradeoff(e.fpr_upper),
            ]
        })
        .chain(audit.empirical_tradeoff.iter().flat_map(|&(a, b)| [a, b]))
        .filter(|&v| v > 0.0)
        .fold(1e-2f64, f64::min);
    10f64.powf(smallest.log10().floor()).max(1e-8)
}

/// The series of one panel of [`tradeoff`] on `chart`'s axes (the mesh is drawn by the
/// caller); values below `floor` are drawn at it.
fn tradeoff_panel<'a, X, Y>(
    chart: &mut ChartContext<'a, SVGBackend<'a>, Cartesian2d<X, Y>>,
    audit: &AuditResult,
    floor: f64,
    legend: bool,
) -> Result<(), String>
where
    X: Ranged<ValueType = f64>,
    Y: Ranged<ValueType = f64>,
{
    let at = |(x, y): (f64, f64)| (x.max(floor), y.max(floor));
    let claim = &audit.claim;
    // Rates from the floor (or 0) to 1, denser near 0 on either axis kind.
    let grid: Vec<(f64, f64)> = (0..=400)
        .map(|i| {
            let u = i as f64 / 400.0;
            let a = if floor > 0.0 {
                floor.powf(1.0 - u)
            } else {
                u * u
            };
            at((a, claim.tradeoff(a)))
        })
        .collect();
    let s = chart
        .draw_series(LineSeries::new(grid, RED.stroke_width(2)))
        .map_err(err)?;
    if legend {
        s.label("claimed trade-off curve")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], RED.stroke_width(2)));
    }
    let s = chart
        .draw_series(LineSeries::new(
            audit.empirical_tradeoff.iter().map(|&p| at(p)),
            BLUE.stroke_width(1),
        ))
        .map_err(err)?;
    if legend {
        s.label("empirical trade-off of the statistic (held-out outputs)")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], BLUE.stroke_width(1)));
    }
    let events = events(audit);
    // The confidence box of each event: from its empirical rates to their Clopper-Pearson upper
    // bounds (the certified point is the box's upper-right corner).
    let s = chart
        .draw_series(events.iter().map(|e| {
            Rectangle::new(
                [at((e.fpr, e.fnr)), at((e.fpr_upper, e.fnr_upper))],
                BLACK.mix(0.15).filled(),
            )
        }))
        .map_err(err)?;
    if legend {
        s.label("confidence box (empirical rates to their upper bounds)")
            .legend(|(x, y)| {
                Rectangle::new([(x, y - 5), (x + 18, y + 5)], BLACK.mix(0.15).filled())
            });
    }
    let s = chart
        .draw_series(
            events
                .iter()
                .map(|e| Circle::new(at((e.fpr, e.fnr)), 3, BLUE.filled())),
        )
        .map_err(err)?;
    if legend {
        s.label(format!("chosen event ({})", audit.eps_event.event))
            .legend(|(x, y)| Circle::new((x + 9, y), 3, BLUE.filled()));
    }
    let s = chart
        .draw_series(
            events
                .iter()
                .map(|e| Circle::new(at((e.fpr_upper, e.fnr_upper)), 4, BLACK.stroke_width(2))),
        )
        .map_err(err)?;
    if legend {
        s.label("certified point (below the red curve: a violation)")
            .legend(|(x, y)| Circle::new((x + 9, y), 4, BLACK.stroke_width(2)));
        legend_box(chart, SeriesLabelPosition::UpperRight)?;
    }
    Ok(())
}

/// Regret-scaling plot: x = ln T, y = ln(cumulative regret). Light blue band: 10%-90% quantiles
/// over seeds; grey: each seed's run; blue: the
/// mean over seeds; red: the fitted `ln R = intercept + slope ln T + c ln ln T` (the log factor
/// added back); green: the theory's exponent through the first mean point.
pub fn scaling(path: &Path, title: &str, result: &ScalingResult) -> Result<(), String> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(err)?;
    }
    let xs: Vec<f64> = result
        .config
        .horizons
        .iter()
        .map(|&t| (t as f64).ln())
        .collect();
    let ln = |v: f64| v.max(1e-12).ln();
    let c = result.config.log_power;
    let fitted: Vec<(f64, f64)> = xs
        .iter()
        .map(|&x| (x, result.intercept + result.slope * x + c * x.ln()))
        .collect();
    let (x0, y0) = (xs[0], ln(result.mean[0]));
    let a = result.config.theory_exponent;
    let theory: Vec<(f64, f64)> = xs
        .iter()
        .map(|&x| (x, y0 + a * (x - x0) + c * (x.ln() - x0.ln())))
        .collect();
    // The y range holds every line drawn (the theory's and the fit's too: a line outside the
    // range would be drawn clipped along the border).
    let ys = result
        .regret
        .iter()
        .flatten()
        .chain(&result.mean)
        .map(|&v| ln(v))
        .chain(fitted.iter().chain(&theory).map(|&(_, y)| y));
    let (ymin, ymax) = ys.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
        (a.min(v), b.max(v))
    });
    let pad = 0.05 * (ymax - ymin).max(1e-3);
    let xpad = 0.05 * (xs[xs.len() - 1] - xs[0]);
    let root = SVGBackend::new(path, (560, 480)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 16))
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(
            (xs[0] - xpad)..(xs[xs.len() - 1] + xpad),
            (ymin - pad)..(ymax + pad),
        )
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc("ln T")
        .y_desc("ln regret")
        .draw()
        .map_err(err)?;
    // Band: the 10% and 90% quantiles over seeds at each horizon (light blue).
    let quantile = |j: usize, p: f64| {
        let mut v: Vec<f64> = result.regret.iter().map(|run| run[j]).collect();
        v.sort_by(f64::total_cmp);
        v[((v.len() - 1) as f64 * p).round() as usize]
    };
    let band: Vec<(f64, f64)> = (0..xs.len())
        .map(|j| (xs[j], ln(quantile(j, 0.9))))
        .chain((0..xs.len()).rev().map(|j| (xs[j], ln(quantile(j, 0.1)))))
        .collect();
    let band_colour = RGBColor(200, 215, 255);
    let seed_colour = RGBColor(190, 190, 190);
    chart
        .draw_series(std::iter::once(Polygon::new(band, band_colour.filled())))
        .map_err(err)?
        .label("10%-90% of the seeds")
        .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 18, y + 5)], band_colour.filled()));
    for (i, run) in result.regret.iter().enumerate() {
        let series = chart
            .draw_series(LineSeries::new(
                xs.iter().zip(run).map(|(&x, &r)| (x, ln(r))),
                seed_colour,
            ))
            .map_err(err)?;
        if i == 0 {
            series
                .label(format!("each seed ({} runs)", result.regret.len()))
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], seed_colour));
        }
    }
    chart
        .draw_series(LineSeries::new(
            xs.iter().zip(&result.mean).map(|(&x, &r)| (x, ln(r))),
            BLUE.stroke_width(2),
        ))
        .map_err(err)?
        .label("mean over seeds")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], BLUE.stroke_width(2)));
    chart
        .draw_series(LineSeries::new(fitted, RED.stroke_width(2)))
        .map_err(err)?
        .label(format!(
            "fit: exponent b = {:.3} [{:.3}, {:.3}]",
            result.slope, result.slope_lower, result.slope_upper
        ))
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], RED.stroke_width(2)));
    chart
        .draw_series(LineSeries::new(theory, GREEN.stroke_width(1)))
        .map_err(err)?
        .label(format!("theory: exponent {a} (through the first mean)"))
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], GREEN.stroke_width(1)));
    legend_box(&mut chart, SeriesLabelPosition::UpperLeft)?;
    root.present().map_err(err)?;
    Ok(())
}
