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
mod tests;
