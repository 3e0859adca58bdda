//! Observed counts as bars against their expected counts and 99.9 % bands.
//!
//! The chart answers one question at a glance: which outcomes came out more or less
//! often than a fair process allows? Colour carries the answer (calm blue within the
//! band, strong red outside it), so the count axis can stay honest and start at zero:
//! a 12 % bias looks small on it, and is small, but its bars are still red. The band is
//! laid translucently over the bars so that it shows on tall and short bars alike, and
//! the expected count is one dark line (a step when expectations differ bar to bar).
//!
//! Every outcome gets exactly one `<rect>` in [`BAR_FILL`](super::BAR_FILL) or
//! [`OUTSIDE_FILL`](super::OUTSIDE_FILL), even a zero count (a rect of height zero), so
//! that [`count_bars`](super::count_bars) equals the number of outcomes. Up to 240 bars
//! get whole-pixel widths; more (720 orders of 6 cards) share 720 pixels edge to edge.
//!
//! Labels never overlap: up to 24 bars are all labelled (upright when the labels are
//! long), and beyond that only every k-th bar, for a round k that keeps labels apart.
//! A log axis (for runs and gaps, whose tails span many decades) starts at 0.5, so a
//! count of 1 still shows and a count of 0 is an empty bar.

use super::Bars;
use super::canvas::{
    AXIS_FONT, Anchor, Area, CENTER_TOP, Canvas, Drawn, Header, Legend, LogAxis, Swatch, TICK_FONT, render,
    sparse,
};
use super::style::{
    AXIS, BAND, BAND_OPACITY, BAR, BAR_SWATCH, INK, MARGIN, OUTSIDE, OUTSIDE_SWATCH, SOFT_INK, counted,
    nice_step, thousands, tick_number, ticks,
};
use plotters::style::text_anchor::{HPos, VPos};

/// Pixels the bars may spread over.
const PLOT_WIDTH: i32 = 720;
const PLOT_HEIGHT: i32 = 340;
/// Bars up to this many are all labelled.
const ALL_LABELLED: usize = 24;

/// The bar chart of `bars`: one bar per observed count. A missing label, expectation or
/// band (shorter vectors than `observed`) is left out of the drawing.
pub fn bars(bars: &Bars) -> String {
    let chart = Chart::new(bars);
    render(chart.width, chart.height, |canvas| chart.draw(canvas, bars))
}

/// How counts map to heights.
enum Scale {
    /// From 0 to `top`, ticks `step` apart.
    Linear { top: f64, step: f64 },
    /// Logarithmic.
    Log(LogAxis),
}

impl Scale {
    fn new(bars: &Bars) -> Self {
        let highest = bars
            .observed
            .iter()
            .map(|&c| c as f64)
            .chain(bars.expected.iter().copied())
            .chain(bars.band.iter().map(|b| b.1))
            .filter(|v| v.is_finite())
            .fold(0.0_f64, f64::max);
        if bars.log_scale {
            Scale::Log(LogAxis::new(highest))
        } else {
            let step = nice_step(highest.max(1.0) * 1.05, 5).max(1.0);
            let top = ((highest * 1.05 / step).ceil() * step).max(step);
            Scale::Linear { top, step }
        }
    }

    /// The fraction of the plot's height at which `value` stands.
    fn fraction(&self, value: f64) -> f64 {
        let fraction = match *self {
            Scale::Linear { top, .. } => value / top,
            Scale::Log(ref axis) => axis.fraction(value),
        };
        if fraction.is_nan() {
            0.0
        } else {
            fraction.clamp(0.0, 1.0)
        }
    }

    /// The tick values with their labels.
    fn ticks(&self) -> Vec<(f64, String)> {
        match *self {
            Scale::Linear { top, step } => ticks(0.0, top, step)
                .into_iter()
                .map(|v| (v, tick_number(v, step)))
                .collect(),
            Scale::Log(ref axis) => axis.ticks(),
        }
    }
}

/// How the x axis is labelled.
enum Labels {
    /// Every bar, level; with its count underneath when `counts`.
    Level { counts: bool },
    /// Every bar, reading upwards, `length` pixels long at most.
    Upright { length: i32 },
    /// The first and every k-th bar, level.
    Sparse { k: usize, shown: Vec<usize> },
}

/// The layout of one chart, computed from the input before anything is drawn.
struct Chart {
    width: i32,
    height: i32,
    header: Header,
    legend: Legend,
    plot: Area,
    /// Pixels from one bar's left edge to the next (fractional beyond 240 bars).
    pitch: f64,
    scale: Scale,
    y_ticks: Vec<(f64, String)>,
    labels: Labels,
    /// The x labels as drawn (cut to fit).
    texts: Vec<String>,
    outside: Vec<bool>,
    x_title: String,
    y_title: String,
}

const LABEL_MAX: f64 = 120.0;
const UPRIGHT_MAX: f64 = 140.0;

impl Chart {
    fn new(bars: &Bars) -> Self {
        let n = bars.observed.len();
        let (pitch, plot_width) = match n {
            0 => (0.0, PLOT_WIDTH),
            n if n <= PLOT_WIDTH as usize / 3 => {
                let pitch = PLOT_WIDTH / n as i32;
                (f64::from(pitch), pitch * n as i32)
            }
            n => (f64::from(PLOT_WIDTH) / n as f64, PLOT_WIDTH),
        };
        let scale = Scale::new(bars);
        let y_ticks = scale.ticks();
        let tick_width = y_ticks
            .iter()
            .map(|(_, label)| TICK_FONT.width(label))
            .fold(0.0, f64::max)
            .ceil() as i32;
        let left = MARGIN + 18 + 10 + tick_width + 8;
        let width = left + plot_width + 28;

        let label = |i: usize| bars.labels.get(i).map_or("", String::as_str);
        let level: Vec<String> = (0..n).map(|i| TICK_FONT.fit(label(i), LABEL_MAX)).collect();
        let widest = |texts: &[String]| texts.iter().map(|t| TICK_FONT.width(t)).fold(0.0, f64::max);
        let (labels, texts) = if n <= ALL_LABELLED && widest(&level) + 6.0 <= pitch {
            let counts = bars
                .observed
                .iter()
                .all(|&c| TICK_FONT.width(&thousands(c)) + 6.0 <= pitch);
            (Labels::Level { counts }, level)
        } else if n <= ALL_LABELLED {
            let upright: Vec<String> = (0..n).map(|i| TICK_FONT.fit(label(i), UPRIGHT_MAX)).collect();
            let length = widest(&upright).ceil() as i32;
            (Labels::Upright { length }, upright)
        } else {
            let (k, shown) = sparse(n, pitch, widest(&level) + 10.0);
            (Labels::Sparse { k, shown }, level)
        };
        let label_height = match labels {
            Labels::Level { counts: true } => 36,
            Labels::Level { counts: false } | Labels::Sparse { .. } => 20,
            Labels::Upright { length } => length + 12,
        };

        let outside: Vec<bool> = (0..n)
            .map(|i| {
                let count = bars.observed[i] as f64;
                bars.band
                    .get(i)
                    .is_some_and(|&(low, high)| count < low || count > high)
            })
            .collect();
        let legend = Legend::new(legend_entries(bars, &outside), width - 2 * MARGIN);
        let header = Header::new(&bars.titles, width);
        let top = header.height() + legend.height() + 14;
        let plot = Area {
            left,
            top,
            width: plot_width,
            height: PLOT_HEIGHT,
        };
        let height = plot.bottom() + label_height + 22 + MARGIN;

        let x_title = match labels {
            Labels::Sparse { k, .. } => format!(
                "{} ({}, every {} labelled)",
                bars.x_axis,
                counted(n, "bar"),
                ordinal(k)
            ),
            _ => bars.x_axis.clone(),
        };
        let y_title = match bars.log_scale {
            true => format!("{} (log scale)", bars.y_axis),
            false => bars.y_axis.clone(),
        };
        Chart {
            width,
            height,
            header,
            legend,
            plot,
            pitch,
            scale,
            y_ticks,
            labels,
            texts,
            outside,
            x_title: AXIS_FONT.fit(&x_title, f64::from(width - 2 * MARGIN)),
            y_title: AXIS_FONT.fit(&y_title, f64::from(PLOT_HEIGHT)),
        }
    }

    /// The pixel row of `value`.
    fn y(&self, value: f64) -> i32 {
        self.plot.bottom() - (self.scale.fraction(value) * f64::from(self.plot.height)).round() as i32
    }

    /// The left and right pixel edges of slot `i` (a bar and its share of the gap).
    fn slot(&self, i: usize) -> (i32, i32) {
        let edge = |i: usize| self.plot.left + (i as f64 * self.pitch + 1e-9).floor() as i32;
        (edge(i), edge(i + 1))
    }

    /// The left and right pixel edges of bar `i`.
    fn bar(&self, i: usize) -> (i32, i32) {
        let (left, right) = self.slot(i);
        let gap = match self.pitch {
            p if p >= 5.0 => (p * 0.2).round() as i32,
            p if p >= 3.0 => 1,
            _ => 0,
        };
        let (left, right) = (left + gap / 2, right - (gap - gap / 2));
        (left, right.max(left + 1))
    }

    fn draw(&self, canvas: &Canvas<'_>, bars: &Bars) -> Drawn {
        self.header.draw(canvas)?;
        self.legend.draw(canvas, MARGIN, self.header.height())?;
        let ticks: Vec<(i32, String)> = self
            .y_ticks
            .iter()
            .map(|(v, label)| (self.y(*v), label.clone()))
            .collect();
        canvas.y_ticks(self.plot, &ticks)?;

        let n = bars.observed.len();
        let baseline = self.plot.bottom();
        for i in 0..n {
            let (left, right) = self.bar(i);
            let top = self.y(bars.observed[i] as f64);
            let color = if self.outside[i] { OUTSIDE } else { BAR };
            canvas.mark(left, top, right, baseline, color)?;
            // A bar too short to see that is outside its band (an outcome that never
            // came out) still shows its colour: a stub on the baseline.
            if self.outside[i] && baseline - top < 3 {
                let stub = Area {
                    left,
                    top: baseline - 3,
                    width: (right - left).max(1),
                    height: 3,
                };
                canvas.panel(stub, OUTSIDE_SWATCH, 1.0)?;
            }
        }
        self.draw_band(canvas, bars)?;
        self.draw_expected(canvas, bars)?;
        canvas.axes(self.plot)?;
        self.draw_labels(canvas, bars)?;

        let middle = (self.plot.left + self.plot.right()) / 2;
        canvas.text(
            &self.x_title,
            (middle, self.height - MARGIN - 16),
            AXIS_FONT,
            CENTER_TOP,
        )?;
        let y_middle = (self.plot.top + self.plot.bottom()) / 2;
        canvas.text_up(
            &self.y_title,
            (MARGIN + 8, y_middle),
            AXIS_FONT,
            Anchor(HPos::Center, VPos::Center),
        )?;
        if n == 0 {
            let at = (middle, y_middle);
            canvas.text(
                "nothing to draw",
                at,
                AXIS_FONT,
                Anchor(HPos::Center, VPos::Center),
            )?;
        }
        Ok(())
    }

    /// The band: one strip when it is the same for every bar, a stepped one otherwise.
    fn draw_band(&self, canvas: &Canvas<'_>, bars: &Bars) -> Drawn {
        let n = bars.observed.len().min(bars.band.len());
        if n == 0 {
            return Ok(());
        }
        let mut upper = Vec::with_capacity(2 * n);
        let mut lower = Vec::with_capacity(2 * n);
        for i in 0..n {
            let (left, right) = self.slot(i);
            let (low, high) = bars.band[i];
            upper.extend([(left, self.y(high)), (right, self.y(high))]);
            lower.extend([(left, self.y(low)), (right, self.y(low))]);
        }
        let uniform = bars.band[..n].iter().all(|b| *b == bars.band[0]);
        if uniform {
            upper = vec![upper[0], upper[2 * n - 1]];
            lower = vec![lower[0], lower[2 * n - 1]];
        }
        lower.reverse();
        upper.extend(lower);
        canvas.polygon(upper, BAND, BAND_OPACITY)
    }

    /// The expected counts: one line when they are all equal, a step otherwise.
    fn draw_expected(&self, canvas: &Canvas<'_>, bars: &Bars) -> Drawn {
        let n = bars.observed.len().min(bars.expected.len());
        if n == 0 {
            return Ok(());
        }
        let expected = &bars.expected[..n];
        if expected.iter().all(|e| *e == expected[0]) {
            let y = self.y(expected[0]);
            return canvas.line(vec![(self.plot.left, y), (self.plot.right(), y)], INK, 2);
        }
        let mut points = Vec::with_capacity(2 * n);
        for (i, &e) in expected.iter().enumerate() {
            let (left, right) = self.slot(i);
            points.extend([(left, self.y(e)), (right, self.y(e))]);
        }
        canvas.line(points, INK, 2)
    }

    fn draw_labels(&self, canvas: &Canvas<'_>, bars: &Bars) -> Drawn {
        let below = self.plot.bottom() + 7;
        let centre = |i: usize| {
            let (left, right) = self.slot(i);
            (left + right) / 2
        };
        match self.labels {
            Labels::Level { counts } => {
                let ticks: Vec<(i32, String)> = self
                    .texts
                    .iter()
                    .enumerate()
                    .map(|(i, t)| (centre(i), t.clone()))
                    .collect();
                canvas.x_ticks(self.plot, &ticks)?;
                if counts {
                    for (i, &count) in bars.observed.iter().enumerate() {
                        let font = TICK_FONT.color(SOFT_INK);
                        canvas.text(&thousands(count), (centre(i), below + 15), font, CENTER_TOP)?;
                    }
                }
            }
            Labels::Upright { .. } => {
                for (i, text) in self.texts.iter().enumerate() {
                    let x = centre(i);
                    canvas.line(
                        vec![(x, self.plot.bottom()), (x, self.plot.bottom() + 4)],
                        AXIS,
                        1,
                    )?;
                    let anchor = Anchor(HPos::Right, VPos::Center);
                    canvas.text_up(text, (x, below), TICK_FONT, anchor)?;
                }
            }
            Labels::Sparse { ref shown, .. } => {
                // A last label that would run off the chart's right edge is left out.
                let fits = |i: &usize| {
                    let half = TICK_FONT.width(&self.texts[*i]) / 2.0;
                    f64::from(centre(*i)) + half <= f64::from(self.width - 4)
                };
                let ticks: Vec<(i32, String)> = shown
                    .iter()
                    .copied()
                    .filter(fits)
                    .map(|i| (centre(i), self.texts[i].clone()))
                    .collect();
                canvas.x_ticks(self.plot, &ticks)?;
            }
        }
        Ok(())
    }
}

/// What the colours, the line and the band mean.
fn legend_entries(bars: &Bars, outside: &[bool]) -> Vec<(Swatch, String)> {
    let n = bars.observed.len();
    let out = outside.iter().filter(|&&o| o).count();
    // An exact law has no noise, so no band: every bar off the line is a real bias.
    let exact = bars.band.iter().all(|&(low, high)| low == high);
    let mut entries = if exact {
        let reference = bars.reference.as_deref().unwrap_or("the equal share");
        vec![
            (Swatch::Fill(BAR_SWATCH), format!("exactly {reference}")),
            (
                Swatch::Fill(OUTSIDE_SWATCH),
                format!("off it: {} of {}", thousands(out as u64), counted(n, "bar")),
            ),
            (Swatch::Line(INK), format!("{reference} (exact law: no band)")),
        ]
    } else {
        vec![
            (Swatch::Fill(BAR_SWATCH), "within the 99.9 % band".to_string()),
            (
                Swatch::Fill(OUTSIDE_SWATCH),
                format!("outside it: {} of {}", thousands(out as u64), counted(n, "bar")),
            ),
            (
                Swatch::Line(INK),
                bars.reference.clone().unwrap_or_else(|| "expected".to_string()),
            ),
            (
                Swatch::Band,
                "99.9 % band: a fair result falls outside it once in 1,000".to_string(),
            ),
        ]
    };
    let zeros = bars.observed.iter().filter(|&&c| c == 0).count();
    if bars.log_scale && zeros > 0 {
        let note = match zeros {
            1 => "the bar counting 0 is empty".to_string(),
            z => format!("the {} bars counting 0 are empty", thousands(z as u64)),
        };
        entries.push((Swatch::Note, note));
    }
    entries
}

/// `2nd`, `3rd`, `120th`; `1` is "every bar".
fn ordinal(k: usize) -> String {
    let suffix = match (k % 10, k % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    match k {
        1 => "bar".to_string(),
        k => format!("{}{suffix}", thousands(k as u64)),
    }
}

#[cfg(test)]
mod tests {
    use super::super::{BAR_FILL, OUTSIDE_FILL, Titles, binomial_band, count_bars};
    use super::*;

    fn titles(title: &str) -> Titles {
        Titles {
            title: title.to_string(),
            subtitle: "how often each order came out".to_string(),
        }
    }

    /// naive-swap on 3 cards, 600,000 shuffles: four of the six orders are off by 11 %.
    fn naive_swap() -> Bars {
        let observed = vec![88_927, 111_030, 111_245, 110_835, 88_848, 89_115];
        let labels = ["1 2 3", "1 3 2", "2 1 3", "2 3 1", "3 1 2", "3 2 1"];
        Bars {
            titles: titles("naive-swap · 3 cards · 600,000 shuffles · seed 1"),
            labels: labels.iter().map(|l| l.to_string()).collect(),
            expected: vec![100_000.0; 6],
            band: vec![binomial_band(600_000, 1.0 / 6.0); 6],
            observed,
            x_axis: "order".to_string(),
            y_axis: "shuffles".to_string(),
            log_scale: false,
            reference: None,
        }
    }

    fn parse(svg: &str) -> roxmltree::Document<'_> {
        let doc = roxmltree::Document::parse(svg).expect("well-formed SVG");
        assert_eq!(doc.root_element().tag_name().name(), "svg");
        doc
    }

    fn fills(svg: &str, fill: &str) -> usize {
        let doc = parse(svg);
        doc.descendants()
            .filter(|n| n.has_tag_name("rect") && n.attribute("fill") == Some(fill))
            .count()
    }

    #[test]
    fn six_orders_make_six_bars_and_the_biased_ones_stand_out() {
        let svg = bars(&naive_swap());
        parse(&svg);
        assert_eq!(count_bars(&svg), 6);
        // Every order of naive-swap on 3 cards is outside its band.
        assert_eq!(fills(&svg, OUTSIDE_FILL), 6);
        assert_eq!(fills(&svg, BAR_FILL), 0);
        assert!(svg.contains("outside it: 6 of 6 bars"));
        // Few bars: every label and every count is written.
        for text in ["1 2 3", "3 2 1", "111,030", "88,848", "100,000"] {
            assert!(svg.contains(text), "{text}");
        }
    }

    #[test]
    fn bars_within_their_band_are_calm() {
        let mut fair = naive_swap();
        fair.observed = vec![100_120, 99_870, 100_400, 99_650, 100_010, 99_950];
        let svg = bars(&fair);
        assert_eq!(fills(&svg, BAR_FILL), 6);
        assert_eq!(count_bars(&svg), 6);
        assert!(svg.contains("outside it: 0 of 6 bars"));
    }

    #[test]
    fn no_other_element_uses_the_bar_fills() {
        let svg = bars(&naive_swap());
        let doc = parse(&svg);
        for node in doc.descendants().filter(|n| n.is_element()) {
            if matches!(node.attribute("fill"), Some(BAR_FILL) | Some(OUTSIDE_FILL)) {
                assert!(node.has_tag_name("rect"), "{node:?}");
            }
        }
    }

    /// Fisher–Yates on 6 cards: 720 orders near 833 each, a few at the edge.
    fn six_cards() -> Bars {
        let observed: Vec<u64> = (0..720u64).map(|i| 833 + (i * 37 % 61) - 30).collect();
        let mut observed = observed;
        observed[5] = 0;
        observed[700] = 1_000;
        let band = binomial_band(600_000, 1.0 / 720.0);
        Bars {
            titles: titles("fisher-yates · 6 cards · 600,000 shuffles · seed 1"),
            labels: (0..720).map(|i| format!("order {i}")).collect(),
            expected: vec![600_000.0 / 720.0; 720],
            band: vec![band; 720],
            observed,
            x_axis: "order".to_string(),
            y_axis: "shuffles".to_string(),
            log_scale: false,
            reference: None,
        }
    }

    #[test]
    fn seven_hundred_twenty_bars_with_sparse_labels() {
        let svg = bars(&six_cards());
        parse(&svg);
        assert_eq!(count_bars(&svg), 720);
        assert_eq!(fills(&svg, OUTSIDE_FILL), 2, "the zero and the 1,000");
        // Sparse labels: the first order is labelled, its neighbour is not.
        assert!(svg.contains(">\norder 0\n<"));
        assert!(!svg.contains(">\norder 1\n<"));
        assert!(svg.contains(">\norder 99\n<"), "the 100th");
        assert!(svg.contains("every 100th labelled"));
        // Bars sit edge to edge within the plot and never leave it.
        let doc = parse(&svg);
        let xs: Vec<i32> = doc
            .descendants()
            .filter(|n| n.has_tag_name("rect"))
            .filter_map(|n| n.attribute("x")?.parse().ok())
            .collect();
        assert_eq!(xs.len(), 720);
        assert!(xs.windows(2).all(|w| w[1] == w[0] + 1), "one pixel apart");
    }

    #[test]
    fn level_labels_never_overlap() {
        for n in [3, 10, 24, 25, 60, 120, 720] {
            let mut chart_bars = six_cards();
            chart_bars.observed.truncate(n);
            chart_bars.labels = (0..n).map(|i| format!("{}", i + 1)).collect();
            let chart = Chart::new(&chart_bars);
            let shown: Vec<usize> = match chart.labels {
                Labels::Level { .. } => (0..n).collect(),
                Labels::Sparse { ref shown, .. } => shown.clone(),
                Labels::Upright { .. } => panic!("short labels stay level"),
            };
            for pair in shown.windows(2) {
                let half = |i: usize| TICK_FONT.width(&chart.texts[i]) / 2.0;
                let centre = |i: usize| {
                    let (l, r) = chart.slot(i);
                    f64::from(l + r) / 2.0
                };
                let space = centre(pair[1]) - centre(pair[0]);
                assert!(space >= half(pair[0]) + half(pair[1]) + 4.0, "{n} bars: {pair:?}");
            }
        }
    }

    #[test]
    fn long_labels_of_few_bars_stand_upright() {
        let mut long = naive_swap();
        long.labels = (0..6)
            .map(|i| format!("a rather long outcome name {i}"))
            .collect();
        let svg = bars(&long);
        assert!(svg.contains("rotate(270"));
        assert_eq!(count_bars(&svg), 6);
    }

    /// Run lengths: geometric counts from a million down to nothing.
    fn runs() -> Bars {
        let observed: Vec<u64> = (0..20)
            .map(|i| 1_000_000u64 >> i)
            .map(|c| c / 1000 * 1000)
            .collect();
        let expected: Vec<f64> = (0..20).map(|i| 1e6 / 2f64.powi(i)).collect();
        let band = expected
            .iter()
            .map(|&e| ((e - BAND_Z_TEST * e.sqrt()).max(0.0), e + BAND_Z_TEST * e.sqrt()))
            .collect();
        Bars {
            titles: titles("runs"),
            labels: (1..=20).map(|i| i.to_string()).collect(),
            observed,
            expected,
            band,
            x_axis: "run length".to_string(),
            y_axis: "runs".to_string(),
            log_scale: true,
            reference: None,
        }
    }
    const BAND_Z_TEST: f64 = super::super::BAND_Z;

    #[test]
    fn log_scale_keeps_every_bar_including_zeros() {
        let runs = runs();
        let zeros = runs.observed.iter().filter(|&&c| c == 0).count();
        assert!(zeros >= 5, "{zeros}");
        let svg = bars(&runs);
        parse(&svg);
        assert_eq!(count_bars(&svg), 20);
        assert!(svg.contains("(log scale)"));
        assert!(svg.contains("1,000,000"), "powers of ten on the axis");
        assert!(svg.contains(&format!("the {zeros} bars counting 0 are empty")));
        // A zero count is a rect of height zero, not a missing rect.
        let doc = parse(&svg);
        let flat = doc
            .descendants()
            .filter(|n| n.has_tag_name("rect") && n.attribute("height") == Some("0"))
            .count();
        assert_eq!(flat, zeros);
    }

    #[test]
    fn zero_counts_on_a_linear_axis_are_bars_too() {
        let mut sparse = naive_swap();
        sparse.observed = vec![0, 0, 5, 0, 1, 0];
        sparse.expected = vec![1.0; 6];
        sparse.band = vec![binomial_band(6, 1.0 / 6.0); 6];
        let svg = bars(&sparse);
        assert_eq!(count_bars(&svg), 6);
        assert_eq!(fills(&svg, OUTSIDE_FILL), 1, "only the 5");
    }

    /// The most corners of any line in the expected line's colour.
    fn expected_corners(svg: &str) -> usize {
        let doc = parse(svg);
        doc.descendants()
            .filter(|n| n.has_tag_name("polyline") && n.attribute("stroke") == Some("#222222"))
            .filter_map(|n| n.attribute("points"))
            .map(|p| p.split_whitespace().count())
            .max()
            .unwrap_or(0)
    }

    #[test]
    fn uneven_expectations_draw_a_step_and_even_ones_a_line() {
        // The step has two corners per bar.
        assert!(expected_corners(&bars(&runs())) >= 40);
        assert!(expected_corners(&bars(&naive_swap())) <= 8);
    }

    #[test]
    fn hostile_labels_are_escaped() {
        let mut hostile = naive_swap();
        hostile.titles.title = "<script>alert(1)</script> & \"quoted\" 'single'".to_string();
        hostile.titles.subtitle = "a < b & c".to_string();
        hostile.labels[0] = "<script>alert(1)</script>".to_string();
        hostile.x_axis = "x & <y>".to_string();
        hostile.y_axis = "\"'\u{0}".to_string();
        let svg = bars(&hostile);
        let doc = parse(&svg);
        assert!(!svg.contains("<script"));
        assert!(svg.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        assert!(svg.contains("&amp; &quot;quoted&quot; &apos;single&apos;"));
        let texts: Vec<&str> = doc.descendants().filter_map(|n| n.text()).collect();
        assert!(
            texts
                .iter()
                .any(|t| t.contains("<script>alert(1)</script> & \"quoted\""))
        );
        assert!(texts.iter().any(|t| t.contains("x & <y>")));
    }

    #[test]
    fn the_same_input_draws_the_same_svg() {
        for input in [naive_swap(), six_cards(), runs()] {
            assert_eq!(bars(&input), bars(&input));
        }
    }

    #[test]
    fn nothing_to_draw_is_still_a_chart() {
        let empty = Bars {
            labels: vec![],
            observed: vec![],
            expected: vec![],
            band: vec![],
            ..naive_swap()
        };
        let svg = bars(&empty);
        parse(&svg);
        assert_eq!(count_bars(&svg), 0);
        assert!(svg.contains("nothing to draw"));
    }

    #[test]
    fn ordinals() {
        assert_eq!(ordinal(2), "2nd");
        assert_eq!(ordinal(3), "3rd");
        assert_eq!(ordinal(11), "11th");
        assert_eq!(ordinal(21), "21st");
        assert_eq!(ordinal(120), "120th");
        assert_eq!(ordinal(1), "bar");
    }
}
