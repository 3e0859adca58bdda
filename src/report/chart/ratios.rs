//! A histogram of observed/expected ratios, for tables too large for a bar per cell.
//!
//! From 7 cards on, a shuffle has 5,040 to 3,628,800 orders: one bar each would be a
//! grey smear. What a reader needs instead is the shape of the spread: do the cells
//! gather inside their 99.9 % band as a fair shuffle's do, or do too many fall outside?
//! So the chart counts cells per ratio bin, with the band's edges as dashed lines and the
//! bins beyond them in the outside colour.
//!
//! Bins never straddle a band edge, so every bin is wholly inside or wholly outside and
//! its colour never lies. When the ratios sit on a lattice (integer counts over one
//! expectation, the usual case) the bins are whole numbers of lattice steps, centred on
//! them, so that no bin catches one more possible count than its neighbour (which would
//! draw a comb); otherwise the band is cut into equal bins that fit it exactly.
//!
//! The count axis is logarithmic: a fair table puts about one cell in a thousand
//! outside, and those few cells must show next to bins holding thousands.

use super::Ratios;
use super::canvas::{
    AXIS_FONT, Anchor, Area, CENTER_TOP, Canvas, Drawn, Header, Legend, LogAxis, Swatch, TICK_FONT, render,
};
use super::style::{
    BAR, BAR_SWATCH, INK, MARGIN, OUTSIDE, OUTSIDE_SWATCH, SOFT_INK, counted, nice_step, plural, ratio,
    thousands, tick_number, ticks,
};
use plotters::style::text_anchor::{HPos, VPos};

const PLOT_WIDTH: i32 = 720;
const PLOT_HEIGHT: i32 = 320;
/// About this many bins across the data.
const BINS: f64 = 60.0;
/// Never more bins than this.
const MAX_BINS: f64 = 160.0;

/// The histogram of `ratios`. Ratios that are not finite numbers (a cell with no
/// expectation) are left out, and the legend says how many.
pub fn ratio_histogram(ratios: &Ratios) -> String {
    let chart = Chart::new(ratios);
    render(chart.width, chart.height, |canvas| chart.draw(canvas))
}

/// One bin: the cells whose ratio lies in `[low, high)`.
#[derive(Clone, Debug, PartialEq)]
struct Bin {
    low: f64,
    high: f64,
    count: u64,
    outside: bool,
}

/// The bins of `values` (sorted, finite) around `band`, and the edges between which
/// bins are inside it.
fn bins(values: &[f64], band: (f64, f64)) -> (Vec<Bin>, (f64, f64)) {
    let (Some(&first), Some(&last)) = (values.first(), values.last()) else {
        return (Vec::new(), band);
    };
    let (low, high) = (first.min(band.0), last.max(band.1));
    let (edges, inside) = match lattice_step(values) {
        Some(step) => lattice_edges(first, step, low, high, band),
        None => even_edges(low, high, band),
    };
    let mut bins: Vec<Bin> = edges
        .windows(2)
        .map(|w| {
            let middle = (w[0] + w[1]) / 2.0;
            let outside = middle < inside.0 || middle > inside.1;
            Bin {
                low: w[0],
                high: w[1],
                count: 0,
                outside,
            }
        })
        .collect();
    for &v in values {
        let i = edges.partition_point(|&e| e <= v).clamp(1, bins.len()) - 1;
        bins[i].count += 1;
    }
    (bins, inside)
}

/// The step of the lattice the values sit on (all differences whole multiples of the
/// smallest one), if they do and it is not too fine to bin by.
fn lattice_step(values: &[f64]) -> Option<f64> {
    let scale = values.iter().fold(1.0_f64, |m, v| m.max(v.abs()));
    let tolerance = 1e-9 * scale;
    let step = values
        .windows(2)
        .map(|w| w[1] - w[0])
        .filter(|&d| d > tolerance)
        .fold(f64::INFINITY, f64::min);
    if !step.is_finite() {
        return None;
    }
    let first = values[0];
    let on_lattice = values.iter().all(|v| {
        let k = (v - first) / step;
        (k - k.round()).abs() < 1e-3
    });
    let points = (values[values.len() - 1] - first) / step;
    (on_lattice && points < 1e6).then_some(step)
}

/// Bins of whole lattice steps centred on the lattice points, cut where the band is.
fn lattice_edges(origin: f64, step: f64, low: f64, high: f64, band: (f64, f64)) -> (Vec<f64>, (f64, f64)) {
    // The band's edges moved to the half-steps between the last point outside it and
    // the first inside: no possible ratio lies between the two.
    let first_in = ((band.0 - origin) / step - 1e-9).ceil();
    let last_in = ((band.1 - origin) / step + 1e-9).floor().max(first_in - 1.0);
    let inside = (origin + (first_in - 0.5) * step, origin + (last_in + 0.5) * step);
    let points = (high - low) / step + 1.0;
    let width = step * (points / BINS).ceil().max(1.0);
    let edges = grid(inside, width, low - step / 2.0, high + step / 2.0);
    (edges, inside)
}

/// Bins of one width that cut the band exactly: a whole number of them fills it.
fn even_edges(low: f64, high: f64, band: (f64, f64)) -> (Vec<f64>, (f64, f64)) {
    // All ratios equal and no band: a span of its own, so bins do not shrink to nothing.
    let span = (high - low).max(0.02 * high.abs().max(1.0));
    let band_width = band.1 - band.0;
    let mut width = span / BINS;
    if band_width > 0.0 {
        let inside_bins = (BINS * band_width / span).round().max(1.0);
        width = band_width / inside_bins;
    }
    if span / width > MAX_BINS {
        width = span / BINS;
    }
    let padding = width / 2.0;
    (grid(band, width, low - padding, high + padding), band)
}

/// Edges `width` apart through `inside.0`, with `inside.1` added, covering
/// `[from, to]`.
fn grid(inside: (f64, f64), width: f64, from: f64, to: f64) -> Vec<f64> {
    let below = ((inside.0 - from) / width - 1e-9).ceil().max(0.0);
    let start = inside.0 - below * width;
    let mut edges: Vec<f64> = Vec::new();
    let mut i = 0.0;
    loop {
        let edge = start + i * width;
        edges.push(edge);
        if edge >= to - 1e-12 * width.max(1.0) && edges.len() > 1 {
            break;
        }
        i += 1.0;
    }
    let near = |e: &f64| (e - inside.1).abs() < 1e-6 * width;
    if inside.1 > edges[0] && inside.1 < edges[edges.len() - 1] && !edges.iter().any(near) {
        let at = edges.partition_point(|&e| e < inside.1);
        edges.insert(at, inside.1);
    }
    edges
}

/// `×0`, `×0.5`, `×1`, `×1.5`.
fn ratio_tick(value: f64, step: f64) -> String {
    let text = tick_number(value, step);
    match text.contains('.') {
        true => format!("×{}", text.trim_end_matches('0').trim_end_matches('.')),
        false => format!("×{text}"),
    }
}

struct Chart {
    width: i32,
    height: i32,
    header: Header,
    legend: Legend,
    plot: Area,
    bins: Vec<Bin>,
    /// Where the band's edges are drawn (bin edges).
    inside: (f64, f64),
    x_range: (f64, f64),
    x_ticks: Vec<(f64, String)>,
    axis: LogAxis,
    x_title: String,
    y_title: String,
}

impl Chart {
    fn new(ratios: &Ratios) -> Self {
        let mut values: Vec<f64> = ratios.ratios.iter().copied().filter(|r| r.is_finite()).collect();
        values.sort_by(f64::total_cmp);
        let band = match ratios.band {
            (low, high) if low.is_finite() && high.is_finite() && low <= high => (low, high),
            _ => (1.0, 1.0),
        };
        let (bins, inside) = bins(&values, band);
        let x_range = match (bins.first(), bins.last()) {
            (Some(first), Some(last)) => (first.low, last.high),
            _ => (band.0 - 0.5, band.1 + 0.5),
        };
        let step = nice_step(x_range.1 - x_range.0, 8);
        let x_ticks = ticks(x_range.0, x_range.1, step)
            .into_iter()
            .map(|v| (v, ratio_tick(v, step)))
            .collect();
        let axis = LogAxis::new(bins.iter().map(|b| b.count as f64).fold(0.0, f64::max));
        let tick_width = axis
            .ticks()
            .iter()
            .map(|(_, label)| TICK_FONT.width(label))
            .fold(0.0, f64::max)
            .ceil() as i32;
        let left = MARGIN + 18 + 10 + tick_width + 8;
        let width = left + PLOT_WIDTH + 28;

        let total = ratios.ratios.len();
        let outside = values.iter().filter(|&&v| v < band.0 || v > band.1).count();
        let mut entries = vec![
            (
                Swatch::Fill(BAR_SWATCH),
                format!("{} within the 99.9 % band", plural(&ratios.cell)),
            ),
            (
                Swatch::Fill(OUTSIDE_SWATCH),
                format!(
                    "outside it: {} of {} (a fair table: about {})",
                    thousands(outside as u64),
                    counted(values.len(), &ratios.cell),
                    thousands((values.len() as f64 / 1000.0).round() as u64),
                ),
            ),
            (
                Swatch::Dashed(INK),
                format!("band edges {} and {}", ratio(band.0), ratio(band.1)),
            ),
            (Swatch::Line(INK), "×1: as expected".to_string()),
        ];
        if values.len() < total {
            let left_out = counted(total - values.len(), &ratios.cell);
            entries.push((
                Swatch::Note,
                format!("{left_out} without an expectation left out"),
            ));
        }
        let legend = Legend::new(entries, width - 2 * MARGIN);
        let header = Header::new(&ratios.titles, width);
        let top = header.height() + legend.height() + 14;
        let plot = Area {
            left,
            top,
            width: PLOT_WIDTH,
            height: PLOT_HEIGHT,
        };
        let height = plot.bottom() + 20 + 22 + MARGIN;
        let x_title = format!("observed / expected count of each {}", ratios.cell);
        let y_title = format!("{} per bin (log scale)", plural(&ratios.cell));
        Chart {
            width,
            height,
            header,
            legend,
            plot,
            bins,
            inside,
            x_range,
            x_ticks,
            axis,
            x_title: AXIS_FONT.fit(&x_title, f64::from(width - 2 * MARGIN)),
            y_title: AXIS_FONT.fit(&y_title, f64::from(PLOT_HEIGHT)),
        }
    }

    fn x(&self, ratio: f64) -> i32 {
        let (low, high) = self.x_range;
        let fraction = ((ratio - low) / (high - low)).clamp(0.0, 1.0);
        self.plot.left + (fraction * f64::from(self.plot.width)).round() as i32
    }

    fn y(&self, count: f64) -> i32 {
        self.plot.bottom() - (self.axis.fraction(count) * f64::from(self.plot.height)).round() as i32
    }

    fn draw(&self, canvas: &Canvas<'_>) -> Drawn {
        self.header.draw(canvas)?;
        self.legend.draw(canvas, MARGIN, self.header.height())?;
        let y_ticks: Vec<(i32, String)> = self
            .axis
            .ticks()
            .into_iter()
            .map(|(v, label)| (self.y(v), label))
            .collect();
        canvas.y_ticks(self.plot, &y_ticks)?;
        for bin in &self.bins {
            let (left, right) = (self.x(bin.low), self.x(bin.high));
            let right = if right - left >= 4 {
                right - 1
            } else {
                right.max(left + 1)
            };
            let color = if bin.outside { OUTSIDE } else { BAR };
            canvas.mark(left, self.y(bin.count as f64), right, self.plot.bottom(), color)?;
        }
        let (top, bottom) = (self.plot.top, self.plot.bottom());
        for edge in [self.inside.0, self.inside.1] {
            canvas.dashed((self.x(edge), top), (self.x(edge), bottom), INK, 2)?;
        }
        if (self.x_range.0..=self.x_range.1).contains(&1.0) {
            canvas.line(vec![(self.x(1.0), top), (self.x(1.0), bottom)], INK, 2)?;
        }
        canvas.axes(self.plot)?;
        let x_ticks: Vec<(i32, String)> = self
            .x_ticks
            .iter()
            .map(|(v, label)| (self.x(*v), label.clone()))
            .collect();
        canvas.x_ticks(self.plot, &x_ticks)?;

        let middle = (self.plot.left + self.plot.right()) / 2;
        canvas.text(
            &self.x_title,
            (middle, self.height - MARGIN - 16),
            AXIS_FONT,
            CENTER_TOP,
        )?;
        let y_middle = (top + bottom) / 2;
        let centre = Anchor(HPos::Center, VPos::Center);
        canvas.text_up(&self.y_title, (MARGIN + 8, y_middle), AXIS_FONT, centre)?;
        if self.bins.is_empty() {
            canvas.text(
                "nothing to draw",
                (middle, y_middle),
                AXIS_FONT.color(SOFT_INK),
                centre,
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::{BAR_FILL, OUTSIDE_FILL, Titles, binomial_band, count_bars};
    use super::*;

    /// 40,320 orders of 8 cards, 25 shuffles expected each, spread as a fair shuffle's
    /// would be (a fixed pattern, no randomness), with a few far out.
    fn eight_cards() -> Ratios {
        let expected = 25.0;
        let ratios = (0..40_320u64)
            .map(|i| {
                let spread: i32 = [0, 1, -1, 2, -2, 3, -3, 5, -5, 8, -8][(i * 7 % 11) as usize];
                let count = match i % 4_000 {
                    0 => 50,
                    1 => 2,
                    _ => 25 + spread,
                };
                f64::from(count) / expected
            })
            .collect();
        let (low, high) = binomial_band(1_008_000, 1.0 / 40_320.0);
        Ratios {
            titles: Titles {
                title: "naive-swap · 8 cards · 1,008,000 shuffles · seed 1".to_string(),
                subtitle: "how far each order's count is from its expectation".to_string(),
            },
            ratios,
            band: (low / expected, high / expected),
            cell: "order".to_string(),
        }
    }

    fn parse(svg: &str) -> roxmltree::Document<'_> {
        let doc = roxmltree::Document::parse(svg).expect("well-formed SVG");
        assert_eq!(doc.root_element().tag_name().name(), "svg");
        doc
    }

    #[test]
    fn lattice_ratios_get_one_bin_per_possible_count() {
        let values: Vec<f64> = (0..50).map(|c| f64::from(c) / 25.0).collect();
        let band = binomial_band(1_008_000, 1.0 / 40_320.0);
        let (bins, inside) = bins(&values, (band.0 / 25.0, band.1 / 25.0));
        assert_eq!(bins.len(), 50);
        assert!(bins.iter().all(|b| b.count == 1), "no comb");
        // The band (8.55 to 41.4 shuffles) keeps the counts 9 to 41.
        assert!((inside.0 - 8.5 / 25.0).abs() < 1e-9);
        assert!((inside.1 - 41.5 / 25.0).abs() < 1e-9);
        assert_eq!(bins.iter().filter(|b| !b.outside).count(), 33);
    }

    #[test]
    fn wide_lattices_share_bins_evenly() {
        let values: Vec<f64> = (0..1_000).map(|c| f64::from(c) / 100.0).collect();
        let (bins, _) = bins(&values, (4.0, 6.0));
        assert!(bins.len() <= MAX_BINS as usize, "{}", bins.len());
        let counts: Vec<u64> = bins.iter().map(|b| b.count).collect();
        // Equal bins hold equal numbers of lattice points, except where the band cuts.
        let common = counts[1];
        assert!(counts.iter().filter(|&&c| c != common).count() <= 4, "{counts:?}");
        assert_eq!(counts.iter().sum::<u64>(), 1_000);
    }

    #[test]
    fn no_bin_straddles_the_band() {
        let values: Vec<f64> = (0..997)
            .map(|i| 0.5 + f64::from(i).sqrt() / 31.6 + 1e-7 * f64::from(i % 3))
            .collect();
        for band in [(0.8, 1.2), (0.95, 1.01), (0.0, 3.0), (1.0, 1.0)] {
            let (bins, inside) = bins(&values, band);
            assert_eq!(bins.iter().map(|b| b.count).sum::<u64>(), 997);
            assert!(bins.len() as f64 <= MAX_BINS + 2.0, "{}", bins.len());
            for bin in &bins {
                let cut = bin.low < inside.0 - 1e-12 && bin.high > inside.0 + 1e-12
                    || bin.low < inside.1 - 1e-12 && bin.high > inside.1 + 1e-12;
                assert!(!cut, "{band:?}: {bin:?}");
            }
            // Each cell's bin agrees with the cell about being outside.
            let outside_cells = values.iter().filter(|&&v| v < band.0 || v > band.1).count() as u64;
            let outside_bins: u64 = bins.iter().filter(|b| b.outside).map(|b| b.count).sum();
            assert_eq!(outside_cells, outside_bins, "{band:?}");
        }
    }

    #[test]
    fn the_histogram_counts_cells_and_marks_the_outside_ones() {
        let input = eight_cards();
        let svg = ratio_histogram(&input);
        let doc = parse(&svg);
        let fill_count = |fill: &str| {
            doc.descendants()
                .filter(|n| n.has_tag_name("rect") && n.attribute("fill") == Some(fill))
                .count()
        };
        assert!(fill_count(OUTSIDE_FILL) >= 2, "bins on both sides");
        assert!(fill_count(BAR_FILL) >= 10);
        assert_eq!(count_bars(&svg), fill_count(OUTSIDE_FILL) + fill_count(BAR_FILL));
        // The far cells: 11 at ×2, 11 at ×0.08.
        assert!(
            svg.contains("outside it: 22 of 40,320 orders (a fair table: about 40)"),
            "{svg}"
        );
        assert!(svg.contains("orders per bin (log scale)"));
    }

    #[test]
    fn cells_without_expectation_are_counted_out() {
        let mut input = eight_cards();
        input.ratios.extend([f64::NAN, f64::INFINITY]);
        let svg = ratio_histogram(&input);
        parse(&svg);
        assert!(svg.contains("2 orders without an expectation left out"));
    }

    #[test]
    fn nothing_to_draw_is_still_a_chart() {
        let empty = Ratios {
            ratios: vec![],
            ..eight_cards()
        };
        let svg = ratio_histogram(&empty);
        parse(&svg);
        assert_eq!(count_bars(&svg), 0);
        assert!(svg.contains("nothing to draw"));
        let one = Ratios {
            ratios: vec![1.0; 5],
            band: (f64::NAN, 2.0),
            ..eight_cards()
        };
        let svg = ratio_histogram(&one);
        parse(&svg);
        assert!((1..=2).contains(&count_bars(&svg)));
        assert!(svg.contains("outside it: 0 of 5 orders"));
    }

    #[test]
    fn hostile_names_are_escaped() {
        let mut input = eight_cards();
        input.titles.title = "<script>alert(1)</script>".to_string();
        input.cell = "o'rder & \"cell\"".to_string();
        let svg = ratio_histogram(&input);
        parse(&svg);
        assert!(!svg.contains("<script"));
        assert!(svg.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        assert!(svg.contains("o&apos;rder &amp; &quot;cell&quot;"));
    }

    #[test]
    fn ratio_ticks_drop_trailing_zeros() {
        assert_eq!(ratio_tick(0.0, 0.5), "×0");
        assert_eq!(ratio_tick(1.0, 0.5), "×1");
        assert_eq!(ratio_tick(1.5, 0.5), "×1.5");
        assert_eq!(ratio_tick(1.25, 0.25), "×1.25");
        assert_eq!(ratio_tick(10.0, 10.0), "×10");
    }

    #[test]
    fn the_same_input_draws_the_same_svg() {
        let input = eight_cards();
        assert_eq!(ratio_histogram(&input), ratio_histogram(&input));
    }
}
