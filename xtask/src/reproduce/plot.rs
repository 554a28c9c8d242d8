//! Mean regret curves with a band over trials (plotters, SVG backend).

use std::path::Path;

use plotters::prelude::*;

/// One curve: a name, the mean and the band's lower and upper edges per round.
pub struct Curve<'a> {
    pub name: &'a str,
    pub mean: &'a [f64],
    pub lower: &'a [f64],
    pub upper: &'a [f64],
}

/// Ten distinct colours (the Tableau 10 palette), so that up to ten curves of one figure never
/// share a colour (the usca figures have eight).
const COLOURS: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(255, 127, 14),
    RGBColor(23, 190, 207),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
];

/// Write an SVG of the curves: x = round (the first point is round `first_round`; `x_desc`
/// names it, e.g. "round t"), y = the metric (`y_desc`, e.g. "cumulative regret"), a shaded
/// band per curve.
pub fn regret_curves(
    path: &Path,
    title: &str,
    curves: &[Curve<'_>],
    y_desc: &str,
    x_desc: &str,
    first_round: i64,
) -> anyhow::Result<()> {
    let x0 = (first_round - 1) as f64;
    let err = |e: &dyn std::fmt::Display| anyhow::anyhow!("plot {}: {e}", path.display());
    let horizon = curves
        .iter()
        .map(|c| c.mean.len())
        .max()
        .unwrap_or(1)
        .max(2);
    let ymax = curves
        .iter()
        .flat_map(|c| c.upper.iter())
        .fold(1e-9f64, |m, &v| m.max(v))
        * 1.05;
    let root = SVGBackend::new(path, (720, 480)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(x0..x0 + horizon as f64, 0.0..ymax)
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_desc(y_desc)
        .draw()
        .map_err(|e| err(&e))?;
    for (i, c) in curves.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        let band: Vec<(f64, f64)> = c
            .upper
            .iter()
            .enumerate()
            .map(|(t, &v)| (x0 + (t + 1) as f64, v))
            .chain(
                c.lower
                    .iter()
                    .enumerate()
                    .rev()
                    .map(|(t, &v)| (x0 + (t + 1) as f64, v.max(0.0))),
            )
            .collect();
        chart
            .draw_series(std::iter::once(Polygon::new(band, colour.mix(0.15))))
            .map_err(|e| err(&e))?;
        chart
            .draw_series(LineSeries::new(
                c.mean
                    .iter()
                    .enumerate()
                    .map(|(t, &v)| (x0 + (t + 1) as f64, v)),
                colour.stroke_width(2),
            ))
            .map_err(|e| err(&e))?
            .label(c.name)
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 18, y)], colour.stroke_width(2))
            });
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))?;
    Ok(())
}
