//! SVG plots of the report (plotters, SVG backend only).
//!
//! Without a font feature, plotters lays text out with a crude width estimate and writes it as
//! SVG `<text>` elements that the viewer renders with its own fonts: titles and axis labels
//! show in any browser, their extents are approximate. Every plot is also described in words in
//! the report's captions (`docs/verification.md`, section "Plots").

use std::path::Path;

use plotters::prelude::*;

use crate::audit::AuditResult;
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
violation. The plot has a legend.";

/// Caption of a regret-scaling plot in `report.md`.
pub const SCALING_CAPTION: &str = "Regret scaling. x: ln T, y: ln cumulative regret. Light blue band: 10% to 90% \
quantiles over seeds; grey: each seed's run; \
blue: mean over seeds; red: the fitted ln R = a + b ln T + c ln ln T (slope b of ln(R / (ln T)^c), the log \
factor c added back); green: the theory's exponent with the same log factor, through the first mean point.";

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

/// Trade-off plot of an audit: x = false-positive rate, y = false-negative rate, both in
/// [0, 1]. Red: the claim's trade-off curve (no test of a mechanism satisfying the claim lies
/// below it); blue: the empirical trade-off of the audit's statistic on the held-out split;
/// black circles: the certified points `(FPR_ub, FNR_ub)` of the events used (a violation is a
/// black circle below the red curve).
pub fn tradeoff(path: &Path, title: &str, audit: &AuditResult) -> Result<(), String> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(err)?;
    }
    let root = SVGBackend::new(path, (520, 480)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 16))
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(0.0..1.0f64, 0.0..1.0f64)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc("false-positive rate P_x'(E)")
        .y_desc("false-negative rate P_x(not E)")
        .draw()
        .map_err(err)?;
    let claim = &audit.claim;
    let grid = (0..=400).map(|i| {
        let a = (i as f64 / 400.0).powi(2);
        (a, claim.tradeoff(a))
    });
    chart
        .draw_series(LineSeries::new(grid, RED.stroke_width(2)))
        .map_err(err)?
        .label("claimed trade-off curve")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], RED.stroke_width(2)));
    chart
        .draw_series(LineSeries::new(
            audit.empirical_tradeoff.iter().copied(),
            BLUE.stroke_width(1),
        ))
        .map_err(err)?
        .label("empirical trade-off of the statistic (held-out outputs)")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], BLUE.stroke_width(1)));
    let events: Vec<_> = std::iter::once(&audit.eps_event)
        .chain(audit.mu_event.as_ref())
        .collect();
    // The confidence box of each event: from its empirical rates to their Clopper-Pearson upper
    // bounds (the certified point is the box's upper-right corner).
    chart
        .draw_series(events.iter().map(|e| {
            Rectangle::new(
                [(e.fpr, e.fnr), (e.fpr_upper, e.fnr_upper)],
                BLACK.mix(0.15).filled(),
            )
        }))
        .map_err(err)?
        .label("confidence box (empirical rates to their upper bounds)")
        .legend(|(x, y)| Rectangle::new([(x, y - 5), (x + 18, y + 5)], BLACK.mix(0.15).filled()));
    chart
        .draw_series(
            events
                .iter()
                .map(|e| Circle::new((e.fpr, e.fnr), 3, BLUE.filled())),
        )
        .map_err(err)?
        .label(format!("chosen event ({})", audit.eps_event.event))
        .legend(|(x, y)| Circle::new((x + 9, y), 3, BLUE.filled()));
    chart
        .draw_series(
            events
                .iter()
                .map(|e| Circle::new((e.fpr_upper, e.fnr_upper), 4, BLACK.stroke_width(2))),
        )
        .map_err(err)?
        .label("certified point (below the red curve: a violation)")
        .legend(|(x, y)| Circle::new((x + 9, y), 4, BLACK.stroke_width(2)));
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font(("sans-serif", 11))
        .draw()
        .map_err(err)?;
    root.present().map_err(err)?;
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
    let ys = result
        .regret
        .iter()
        .flatten()
        .chain(&result.mean)
        .map(|&v| ln(v));
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
    chart
        .draw_series(std::iter::once(Polygon::new(
            band,
            RGBColor(200, 215, 255).filled(),
        )))
        .map_err(err)?;
    for run in &result.regret {
        chart
            .draw_series(LineSeries::new(
                xs.iter().zip(run).map(|(&x, &r)| (x, ln(r))),
                RGBColor(190, 190, 190),
            ))
            .map_err(err)?;
    }
    chart
        .draw_series(LineSeries::new(
            xs.iter().zip(&result.mean).map(|(&x, &r)| (x, ln(r))),
            BLUE.stroke_width(2),
        ))
        .map_err(err)?;
    let c = result.config.log_power;
    let fitted = xs
        .iter()
        .map(|&x| (x, result.intercept + result.slope * x + c * x.ln()));
    chart
        .draw_series(LineSeries::new(fitted, RED.stroke_width(2)))
        .map_err(err)?;
    let (x0, y0) = (xs[0], ln(result.mean[0]));
    let a = result.config.theory_exponent;
    let theory = xs
        .iter()
        .map(|&x| (x, y0 + a * (x - x0) + c * (x.ln() - x0.ln())));
    chart
        .draw_series(LineSeries::new(theory, GREEN.stroke_width(1)))
        .map_err(err)?;
    root.present().map_err(err)?;
    Ok(())
}
