//! A quantity between 0 and 1 over a few steps, as points joined by a line: the total
//! variation from uniform after 1, 2, … riffles (the "seven shuffles" chart).
//!
//! The data are exact, so there is no band: each point is printed with its value, which
//! is what a reader quotes ("0.334 after seven"), and a dashed reference line marks the
//! level the text discusses (one half: the cut-off Bayer and Diaconis's "seven" is read
//! against). The vertical axis always spans 0 to 1, the whole range of a total
//! variation, so that two such charts compare at a glance.
//!
//! Each point is a small square, a `<rect>` filled with [`POINT_FILL`], which nothing else uses,
//! so that [`count_points`] counts the data like [`super::count_bars`] does.

use super::Curve;
use super::canvas::{
    AXIS_FONT, CENTER_BOTTOM, CENTER_TOP, Canvas, Drawn, Header, Legend, PLOT_CHART_WIDTH, Swatch, TICK_FONT,
    plot_under_legend,
};
use super::style::{INK, MARGIN, POINT, POINT_FILL, SUSPICIOUS_LINE, rect_tags};

const POINT_HALF: i32 = 4;

/// The chart, as SVG.
pub fn curve(curve: &Curve) -> String {
    let header = Header::new(&curve.titles, PLOT_CHART_WIDTH);
    let mut entries = vec![(Swatch::Line(POINT), curve.y_axis.clone())];
    if let Some((_, label)) = &curve.reference {
        entries.push((Swatch::Dashed(SUSPICIOUS_LINE), label.clone()));
    }
    let legend = Legend::new(entries, PLOT_CHART_WIDTH - 2 * MARGIN);
    plot_under_legend(&header, &legend, |canvas, plot, height| {
        draw(canvas, curve, plot, height)
    })
}

fn draw(canvas: &Canvas<'_>, curve: &Curve, plot: super::canvas::Area, height: i32) -> Drawn {
    let y = |value: f64| plot.bottom() - (value.clamp(0.0, 1.0) * f64::from(plot.height)).round() as i32;
    let count = curve.values.len().max(1) as i32;
    let pitch = plot.width / count;
    let x = |i: usize| plot.left + pitch / 2 + i as i32 * pitch;
    let y_ticks: Vec<(i32, String)> = (0..=5)
        .map(|tick| {
            let value = f64::from(tick) / 5.0;
            (y(value), format!("{value:.1}"))
        })
        .collect();
    canvas.y_ticks(plot, &y_ticks)?;
    if let Some((level, _)) = &curve.reference {
        canvas.dashed(
            (plot.left, y(*level)),
            (plot.right(), y(*level)),
            SUSPICIOUS_LINE,
            2,
        )?;
    }
    let points: Vec<(i32, i32)> = curve
        .values
        .iter()
        .enumerate()
        .map(|(i, &v)| (x(i), y(v)))
        .collect();
    canvas.line(points.clone(), POINT, 2)?;
    for (i, &(px, py)) in points.iter().enumerate() {
        canvas.mark(
            px - POINT_HALF,
            py - POINT_HALF,
            px + POINT_HALF,
            py + POINT_HALF,
            POINT,
        )?;
        let words = format!("{:.3}", curve.values[i]);
        // Above the point, unless that would leave the plot (a value near 1).
        if py - 8 - 12 >= plot.top {
            canvas.text(&words, (px, py - 8), TICK_FONT.color(INK), CENTER_BOTTOM)?;
        } else {
            canvas.text(&words, (px, py + 8), TICK_FONT.color(INK), CENTER_TOP)?;
        }
    }
    canvas.axes(plot)?;
    let x_ticks: Vec<(i32, String)> = curve
        .labels
        .iter()
        .enumerate()
        .map(|(i, l)| (x(i), l.clone()))
        .collect();
    canvas.x_ticks(plot, &x_ticks)?;
    let centre = (plot.left + plot.right()) / 2;
    canvas.text(
        &curve.x_axis,
        (centre, height - MARGIN - 16),
        AXIS_FONT,
        CENTER_TOP,
    )
}

/// How many points a curve chart holds.
pub fn count_points(svg: &str) -> usize {
    rect_tags(svg).filter(|tag| tag.contains(POINT_FILL)).count()
}

#[cfg(test)]
mod tests {
    use super::super::{Curve, Titles};
    use super::*;

    #[test]
    fn one_point_per_value_each_with_its_value() {
        let svg = curve(&Curve {
            titles: Titles {
                title: "riffles · 52 cards".to_string(),
                subtitle: "total variation after K riffles".to_string(),
            },
            labels: (1..=12).map(|k| k.to_string()).collect(),
            values: vec![
                1.0, 1.0, 1.0, 1.0, 0.924, 0.614, 0.334, 0.167, 0.085, 0.043, 0.022, 0.011,
            ],
            x_axis: "riffles".to_string(),
            y_axis: "total variation from uniform".to_string(),
            reference: Some((0.5, "one half".to_string())),
        });
        assert_eq!(count_points(&svg), 12);
        assert!(
            svg.contains("\n0.334\n") && svg.contains("\n0.011\n"),
            "each value printed"
        );
        assert!(svg.contains("one half"));
        assert_eq!(
            crate::report::chart::count_bars(&svg),
            0,
            "no point is taken for a bar"
        );
    }
}
