//! The summary of a report: one horizontal bar per result, as long as the evidence
//! against fairness (−log10 of the smallest adjusted p-value), coloured by verdict.
//!
//! The two thresholds a verdict is read against are dashed lines, so a reader sees why
//! a bar is red: it crosses the `fail` line. Evidence spans hundreds of decades (a
//! broken shuffle gives p < 1e-300, a fair one p = 0.4), and one such bar must not
//! squash the others into slivers: the axis stops a few decades past the `fail` line
//! (at most at 50), and longer bars run to its edge, end in an arrow and print their
//! p-value. Every bar also says its verdict in words, so colour is never the only cue.
//!
//! A result whose test did not run has no bar, only the words "no test ran".

use super::canvas::{
    AXIS_FONT, Anchor, Area, CENTER_BOTTOM, CENTER_TOP, Canvas, Drawn, Font, Header, LEFT_MIDDLE, Legend,
    RIGHT_MIDDLE, Swatch, TICK_FONT, render,
};
use super::style::{
    FAIL, GRID, INCONCLUSIVE, INK, LEGEND_SIZE, MARGIN, PASS, SOFT_INK, SUSPICIOUS, SUSPICIOUS_LINE, WHITE,
    dark, nice_step, tick_number, ticks,
};
use super::{Summary, SummaryRow};
use crate::format::format_probability;
use crate::stats::Verdict;
use plotters::style::RGBColor;
use plotters::style::text_anchor::{HPos, VPos};

const WIDTH: i32 = 800;
const ROW: i32 = 26;
const BAR_HEIGHT: i32 = 16;
/// The axis never reaches past this many decades, whatever the data.
const CAP: f64 = 50.0;
/// Where `suspicious` begins.
const SUSPICIOUS_LEVEL: f64 = 3.0;

const LABEL_FONT: Font = Font::new(LEGEND_SIZE, INK);

/// The summary chart: one bar per row, in the rows' order.
pub fn summary(summary: &Summary) -> String {
    let chart = Chart::new(summary);
    render(WIDTH, chart.height, |canvas| chart.draw(canvas, summary))
}

fn color(verdict: Verdict) -> RGBColor {
    match verdict {
        Verdict::Pass => PASS,
        Verdict::Suspicious => SUSPICIOUS,
        Verdict::Fail => FAIL,
        Verdict::Inconclusive => INCONCLUSIVE,
    }
}

/// A row's evidence, if it has any: −log10 p, never negative (NaN counts as none).
fn evidence(row: &SummaryRow) -> Option<f64> {
    row.minus_log10_p.filter(|v| !v.is_nan()).map(|v| v.max(0.0))
}

/// A threshold line: where, what it says, in which colour.
struct Threshold {
    at: f64,
    label: String,
    ink: RGBColor,
    /// Which row of labels above the plot (0 or 1), so two labels never overlap.
    row: i32,
}

struct Chart {
    height: i32,
    header: Header,
    legend: Legend,
    plot: Area,
    axis_max: f64,
    step: f64,
    names: Vec<String>,
    thresholds: Vec<Threshold>,
    x_title: String,
}

impl Chart {
    fn new(summary: &Summary) -> Self {
        // A level outside (0, 1) cannot be drawn: the usual 1e-6 stands in.
        let alpha = if summary.alpha > 0.0 && summary.alpha < 1.0 {
            summary.alpha
        } else {
            1e-6
        };
        let fail_at = -alpha.log10();
        let largest = summary
            .rows
            .iter()
            .filter_map(evidence)
            .filter(|v| *v <= CAP)
            .fold(0.0_f64, f64::max);
        // At least ten decades and four past the fail line; at most the cap, unless the
        // fail line itself lies beyond it.
        let limit = CAP.max(fail_at + 4.0);
        let wanted = 10.0_f64.max(fail_at + 4.0).max(largest * 1.05).min(limit);
        let step = nice_step(wanted, 8).max(1.0);
        let axis_max = (wanted / step).ceil() * step;

        let names: Vec<String> = summary
            .rows
            .iter()
            .map(|r| LABEL_FONT.fit(&r.name, 240.0))
            .collect();
        let name_width = names
            .iter()
            .map(|n| LABEL_FONT.width(n))
            .fold(40.0, f64::max)
            .ceil() as i32;
        let left = MARGIN + name_width + 12;
        let plot_width = WIDTH - left - MARGIN - 14;

        let mut thresholds = vec![Threshold {
            at: fail_at,
            label: format!("fail: α = {}", format_probability(alpha)),
            ink: FAIL,
            row: 0,
        }];
        if alpha < 1e-3 {
            thresholds.push(Threshold {
                at: SUSPICIOUS_LEVEL,
                label: "suspicious: 1e-3".to_string(),
                ink: SUSPICIOUS_LINE,
                row: 0,
            });
            // Labels centred on lines closer than their half-widths would touch.
            let x = |v: f64| v / axis_max * f64::from(plot_width);
            let apart = (x(fail_at) - x(SUSPICIOUS_LEVEL)).abs();
            let needed = thresholds
                .iter()
                .map(|t| TICK_FONT.width(&t.label) / 2.0)
                .sum::<f64>()
                + 8.0;
            if apart < needed {
                thresholds[1].row = 1;
            }
        }
        let label_rows = 1 + thresholds.iter().map(|t| t.row).max().unwrap_or(0);

        let entries = [
            Verdict::Pass,
            Verdict::Suspicious,
            Verdict::Fail,
            Verdict::Inconclusive,
        ]
        .into_iter()
        .map(|v| (Swatch::Fill(swatch(color(v))), v.to_string()))
        .chain([(Swatch::Note, "no bar: no test ran".to_string())])
        .collect();
        let legend = Legend::new(entries, WIDTH - 2 * MARGIN);
        let header = Header::new(&summary.titles, WIDTH);
        let top = header.height() + legend.height() + 10 + 16 * label_rows;
        let rows = summary.rows.len().max(1) as i32;
        let plot = Area {
            left,
            top,
            width: plot_width,
            height: rows * ROW + 8,
        };
        let height = plot.bottom() + 22 + 22 + MARGIN;
        let x_title =
            "−log10 p (smallest adjusted p-value): the longer the bar, the stronger the evidence of bias";
        Chart {
            height,
            header,
            legend,
            plot,
            axis_max,
            step,
            names,
            thresholds,
            x_title: AXIS_FONT.fit(x_title, f64::from(WIDTH - 2 * MARGIN)),
        }
    }

    fn x(&self, value: f64) -> i32 {
        let fraction = (value / self.axis_max).clamp(0.0, 1.0);
        self.plot.left + (fraction * f64::from(self.plot.width)).round() as i32
    }

    fn draw(&self, canvas: &Canvas<'_>, summary: &Summary) -> Drawn {
        self.header.draw(canvas)?;
        self.legend.draw(canvas, MARGIN, self.header.height())?;
        let plot = self.plot;
        let tick_values = ticks(0.0, self.axis_max, self.step);
        for &v in &tick_values {
            canvas.line(vec![(self.x(v), plot.top), (self.x(v), plot.bottom())], GRID, 1)?;
        }
        let x_ticks: Vec<(i32, String)> = tick_values
            .iter()
            .map(|&v| (self.x(v), tick_number(v, self.step)))
            .collect();

        // Thresholds first: bars and words lie over them.
        for threshold in &self.thresholds {
            let x = self.x(threshold.at);
            canvas.dashed((x, plot.top), (x, plot.bottom()), threshold.ink, 2)?;
            let y = plot.top - 4 - 16 * threshold.row;
            let half = (TICK_FONT.width(&threshold.label) / 2.0).ceil() as i32;
            let centre = x.clamp(MARGIN + half, WIDTH - MARGIN - half);
            let font = TICK_FONT.color(threshold.ink).bold();
            canvas.text(&threshold.label, (centre, y), font, CENTER_BOTTOM)?;
        }
        for (i, row) in summary.rows.iter().enumerate() {
            let middle = plot.top + 4 + i as i32 * ROW + ROW / 2;
            canvas.text(&self.names[i], (plot.left - 8, middle), LABEL_FONT, RIGHT_MIDDLE)?;
            self.draw_row(canvas, row, middle)?;
        }
        canvas.axes(plot)?;
        canvas.x_ticks(plot, &x_ticks)?;
        let centre = (plot.left + plot.right()) / 2;
        canvas.text(
            &self.x_title,
            (centre, self.height - MARGIN - 16),
            AXIS_FONT,
            CENTER_TOP,
        )?;
        if summary.rows.is_empty() {
            let at = (centre, plot.top + plot.height / 2);
            canvas.text("no results", at, AXIS_FONT, Anchor(HPos::Center, VPos::Center))?;
        }
        Ok(())
    }

    /// One result's bar and its words, centred on the pixel row `middle`.
    fn draw_row(&self, canvas: &Canvas<'_>, row: &SummaryRow, middle: i32) -> Drawn {
        let Some(value) = evidence(row) else {
            let words = format!("{} · no test ran", row.verdict);
            return on_white(canvas, &words, (self.plot.left + 6, middle), SOFT_INK);
        };
        let fill = color(row.verdict);
        let (top, bottom) = (middle - BAR_HEIGHT / 2, middle + BAR_HEIGHT / 2);
        let (start, end) = (self.plot.left, self.x(value));
        canvas.mark(start, top, end, bottom, fill)?;
        let beyond = value > self.axis_max;
        if beyond {
            // An arrow past the axis's end: the bar goes on.
            let tip = (end + 9, middle);
            canvas.polygon(vec![(end, top - 2), tip, (end, bottom + 2)], fill, 1.0)?;
        }
        let words = format!(
            "{} · p = {}",
            row.verdict,
            crate::stats::PValue::from_log10(-value)
        )
        .replace("= <", "<");
        let width = LABEL_FONT.width(&words).ceil() as i32;
        if !beyond && end + 6 + width <= self.plot.right() {
            on_white(canvas, &words, (end + 6, middle), INK)
        } else if end - start >= width + 12 {
            let ink = if dark(fill) { WHITE } else { INK };
            canvas.text(&words, (end - 6, middle), LABEL_FONT.color(ink), RIGHT_MIDDLE)
        } else {
            // Neither after the bar nor in it (only on a very narrow plot): after it,
            // over the edge if need be.
            on_white(canvas, &words, (end + 6, middle), INK)
        }
    }
}

/// `words` starting at `at` on a white ground, so that a threshold line behind them does
/// not cross them.
fn on_white(canvas: &Canvas<'_>, words: &str, at: (i32, i32), ink: RGBColor) -> Drawn {
    let width = LABEL_FONT.width(words).ceil() as i32;
    let ground = Area {
        left: at.0 - 3,
        top: at.1 - 8,
        width: width + 6,
        height: 16,
    };
    canvas.panel(ground, WHITE, 1.0)?;
    canvas.text(words, at, LABEL_FONT.color(ink), LEFT_MIDDLE)
}

/// A legend swatch's colour: the verdict's, one step off, so that it cannot be mistaken
/// for a bar.
fn swatch(color: RGBColor) -> RGBColor {
    RGBColor(color.0, color.1, color.2 ^ 1)
}

#[cfg(test)]
mod tests {
    use super::super::Titles;
    use super::*;

    fn row(name: &str, verdict: Verdict, minus_log10_p: Option<f64>) -> SummaryRow {
        SummaryRow {
            name: name.to_string(),
            verdict,
            minus_log10_p,
        }
    }

    fn six() -> Summary {
        Summary {
            titles: Titles {
                title: "shuffle-audit run · 3 cards · 600,000 shuffles · seed 1".to_string(),
                subtitle: "evidence against fairness, one bar per result".to_string(),
            },
            rows: vec![
                row("fisher-yates", Verdict::Pass, Some(0.4)),
                row("naive-swap", Verdict::Fail, Some(f64::INFINITY)),
                row("sattolo", Verdict::Fail, Some(250.0)),
                row("sort-by-random-key", Verdict::Suspicious, Some(4.2)),
                row("reservoir", Verdict::Inconclusive, None),
                row("merge-shuffle", Verdict::Fail, Some(8.7)),
            ],
            alpha: 1e-6,
        }
    }

    fn parse(svg: &str) -> roxmltree::Document<'_> {
        let doc = roxmltree::Document::parse(svg).expect("well-formed SVG");
        assert_eq!(doc.root_element().tag_name().name(), "svg");
        doc
    }

    /// The bars' (fill, x, width), in drawing order.
    fn bars(svg: &str) -> Vec<(String, i32, i32)> {
        let doc = parse(svg);
        doc.descendants()
            .filter(|n| n.has_tag_name("rect"))
            .map(|n| {
                let number = |a: &str| n.attribute(a).and_then(|v| v.parse().ok()).unwrap_or(-1);
                (
                    n.attribute("fill").unwrap_or("").to_string(),
                    number("x"),
                    number("width"),
                )
            })
            .collect()
    }

    #[test]
    fn every_verdict_has_its_colour_and_none_has_no_bar() {
        let svg = summary(&six());
        let bars = bars(&svg);
        let fills: Vec<&str> = bars.iter().map(|b| b.0.as_str()).collect();
        assert_eq!(fills, ["#1B9E77", "#B2182B", "#B2182B", "#E6AB02", "#B2182B"]);
        assert!(svg.contains("inconclusive · no test ran"));
        assert!(svg.contains("pass · p = 0.398"));
        assert!(svg.contains("suspicious · p = 6.3e-5"));
        for word in [
            "pass",
            "suspicious",
            "fail",
            "inconclusive",
            "no bar: no test ran",
        ] {
            assert!(svg.contains(&format!(">\n{word}\n<")), "legend: {word}");
        }
        // No legend swatch shares a bar's fill.
        let doc = parse(&svg);
        for polygon in doc.descendants().filter(|n| n.has_tag_name("polygon")) {
            let fill = polygon.attribute("fill").unwrap_or("");
            let points = polygon
                .attribute("points")
                .unwrap_or("")
                .split_whitespace()
                .count();
            assert!(points == 3 || !fills.contains(&fill), "{fill}");
        }
    }

    #[test]
    fn huge_evidence_runs_to_the_edge_and_says_how_huge() {
        let svg = summary(&six());
        let bars = bars(&svg);
        // p < 1e-300 and p = 1e-250 both end at the axis's end, beyond the others.
        assert_eq!(bars[1].1 + bars[1].2, bars[2].1 + bars[2].2);
        assert!(
            bars.iter().all(|b| b.1 + b.2 <= bars[1].1 + bars[1].2),
            "{bars:?}"
        );
        assert!(svg.contains("fail · p &lt; 1e-300"));
        assert!(svg.contains("fail · p = 1.0e-250"));
        assert!(svg.contains("fail · p = 2.0e-9"));
        // The axis stops at its cap, not at 250: 8.7 keeps a readable length.
        assert!(bars[4].2 * 8 > bars[1].2, "{bars:?}");
        assert!(svg.contains(">\n50\n<") || svg.contains(">\n10\n<"));
        assert!(!svg.contains(">\n250\n<"));
    }

    #[test]
    fn thresholds_are_drawn_and_labelled() {
        let svg = summary(&six());
        assert!(svg.contains("fail: α = 1e-6"));
        assert!(svg.contains("suspicious: 1e-3"));
        // With α = 0.01, suspicious cannot happen: one line only.
        let loose = Summary { alpha: 0.01, ..six() };
        let svg = summary(&loose);
        assert!(svg.contains("fail: α = 0.01"));
        assert!(!svg.contains("suspicious: 1e-3"));
    }

    #[test]
    fn moderate_evidence_gets_an_axis_of_ten_decades() {
        let mild = Summary {
            rows: vec![
                row("a", Verdict::Pass, Some(1.0)),
                row("b", Verdict::Suspicious, Some(3.5)),
            ],
            ..six()
        };
        let svg = summary(&mild);
        assert!(svg.contains(">\n10\n<"));
        assert!(!svg.contains(">\n12\n<") && !svg.contains(">\n20\n<"));
        let bars = bars(&svg);
        assert_eq!(bars.len(), 2);
        assert!(
            (bars[1].2 as f64 / bars[0].2 as f64 - 3.5).abs() < 0.1,
            "{bars:?}"
        );
    }

    #[test]
    fn forty_rows_fit() {
        let many = Summary {
            rows: (0..40)
                .map(|i| row(&format!("result {i}"), Verdict::Pass, Some(f64::from(i) / 10.0)))
                .collect(),
            ..six()
        };
        let svg = summary(&many);
        let doc = parse(&svg);
        let height: i32 = doc.root_element().attribute("height").unwrap().parse().unwrap();
        assert!(height > 40 * ROW);
        assert_eq!(bars(&svg).len(), 40);
    }

    #[test]
    fn hostile_names_are_escaped_and_nothing_breaks() {
        let mut hostile = six();
        hostile.rows[0].name = "<script>alert(1)</script>".to_string();
        hostile.titles.subtitle = "\"'&".to_string();
        hostile.rows[1].minus_log10_p = Some(f64::NAN);
        hostile.alpha = f64::NAN;
        let svg = summary(&hostile);
        parse(&svg);
        assert!(!svg.contains("<script"));
        assert!(svg.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        assert!(svg.contains("&quot;&apos;&amp;"));
        assert!(svg.contains("fail · no test ran"));
        let empty = Summary {
            rows: vec![],
            ..six()
        };
        assert!(summary(&empty).contains("no results"));
    }

    #[test]
    fn the_same_input_draws_the_same_svg() {
        assert_eq!(summary(&six()), summary(&six()));
    }
}
