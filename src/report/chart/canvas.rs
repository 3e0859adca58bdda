//! The drawing surface shared by the charts: a plotters SVG backend writing into a
//! string, with the few primitives the charts need, a header, a legend and axes.
//!
//! Plotters draws the SVG (and escapes every text), but the charts lay themselves out
//! here instead of through plotters' `ChartBuilder` mesh: the mesh places and formats
//! tick labels by its own rules, and the charts need rules it does not have — one label
//! in every k-th of 720 bars, rotated labels for a few long ones, ticks only at powers of
//! ten on a log axis, thousands separators everywhere, a heat map's sparse row labels.
//! Every position is computed in whole pixels from the input alone.
//!
//! One convention keeps the charts checkable: data marks (bars, histogram bins, heat-map
//! cells, summary bars) are the only `<rect>` elements. The background, bands, legend
//! swatches and colour bars are drawn as polygons, so a test can count the marks of a
//! chart by scanning its `<rect>` tags.

use std::borrow::Cow;

use plotters::backend::SVGBackend;
use plotters::coord::Shift;
use plotters::drawing::{DrawingArea, DrawingAreaErrorKind, IntoDrawingArea};
use plotters::element::{PathElement, Polygon, Rectangle, Text};
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{
    Color, FontDesc, FontFamily, FontStyle, FontTransform, RGBColor, ShapeStyle, TextStyle,
};

use super::Titles;
use super::style::{
    AXIS, AXIS_TITLE_SIZE, BAND_SWATCH, GRID, INK, LEGEND_SIZE, MARGIN, SOFT_INK, SUBTITLE_SIZE, TICK_INK,
    TICK_SIZE, TITLE_SIZE, WHITE, text_width, thousands,
};

/// What every drawing step returns. Drawing into a string does no I/O and reads no
/// font, so the error never happens; it is carried to one place and unwrapped there.
pub(super) type Drawn = Result<(), DrawingAreaErrorKind<std::io::Error>>;

/// A rectangle on the canvas, in pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Area {
    pub left: i32,
    pub top: i32,
    pub width: i32,
    pub height: i32,
}

impl Area {
    pub fn right(&self) -> i32 {
        self.left + self.width
    }

    pub fn bottom(&self) -> i32 {
        self.top + self.height
    }
}

/// A font: size in SVG pixels, weight and colour. Always sans-serif.
#[derive(Clone, Copy, Debug)]
pub(super) struct Font {
    pub size: f64,
    pub bold: bool,
    pub color: RGBColor,
}

impl Font {
    pub const fn new(size: f64, color: RGBColor) -> Self {
        Font {
            size,
            bold: false,
            color,
        }
    }

    pub const fn bold(self) -> Self {
        Font { bold: true, ..self }
    }

    pub const fn color(self, color: RGBColor) -> Self {
        Font { color, ..self }
    }

    /// The estimated width of `text` in this font.
    pub fn width(&self, text: &str) -> f64 {
        let width = text_width(text, self.size);
        if self.bold { width * 1.08 } else { width }
    }

    /// `text`, cut with an ellipsis to fit in `max` pixels.
    pub fn fit(&self, text: &str, max: f64) -> String {
        if self.width(text) <= max {
            return text.to_string();
        }
        let mut kept = String::new();
        for c in text.chars() {
            let longer = format!("{kept}{c}…");
            if self.width(&longer) > max {
                break;
            }
            kept.push(c);
        }
        format!("{}…", kept.trim_end())
    }

    /// `text` broken at spaces into lines of at most `max` pixels, at most `lines` of
    /// them (the last one cut with an ellipsis if the text goes on).
    pub fn wrap(&self, text: &str, max: f64, lines: usize) -> Vec<String> {
        let mut wrapped: Vec<String> = Vec::new();
        let mut line = String::new();
        for word in text.split(' ').filter(|w| !w.is_empty()) {
            let longer = match line.is_empty() {
                true => word.to_string(),
                false => format!("{line} {word}"),
            };
            if self.width(&longer) <= max || line.is_empty() {
                line = longer;
            } else {
                wrapped.push(std::mem::replace(&mut line, word.to_string()));
            }
        }
        if !line.is_empty() {
            wrapped.push(line);
        }
        if wrapped.len() > lines {
            let rest = wrapped.split_off(lines - 1).join(" ");
            wrapped.push(rest);
        }
        wrapped.iter().map(|line| self.fit(line, max)).collect()
    }
}

pub(super) const TICK_FONT: Font = Font::new(TICK_SIZE, TICK_INK);
pub(super) const AXIS_FONT: Font = Font::new(AXIS_TITLE_SIZE, SOFT_INK);
pub(super) const LEGEND_FONT: Font = Font::new(LEGEND_SIZE, INK);
const TITLE_FONT: Font = Font::new(TITLE_SIZE, INK).bold();
const SUBTITLE_FONT: Font = Font::new(SUBTITLE_SIZE, SOFT_INK);

/// How text sits on its anchor point.
#[derive(Clone, Copy)]
pub(super) struct Anchor(pub HPos, pub VPos);

pub(super) const LEFT_TOP: Anchor = Anchor(HPos::Left, VPos::Top);
pub(super) const LEFT_MIDDLE: Anchor = Anchor(HPos::Left, VPos::Center);
pub(super) const RIGHT_MIDDLE: Anchor = Anchor(HPos::Right, VPos::Center);
pub(super) const CENTER_TOP: Anchor = Anchor(HPos::Center, VPos::Top);
pub(super) const CENTER_MIDDLE: Anchor = Anchor(HPos::Center, VPos::Center);
pub(super) const CENTER_BOTTOM: Anchor = Anchor(HPos::Center, VPos::Bottom);

/// A chart being drawn.
pub(super) struct Canvas<'a> {
    area: DrawingArea<SVGBackend<'a>, Shift>,
}

/// The width of a [`plot_under_legend`] chart, which its header and legend are laid out to.
pub(super) const PLOT_CHART_WIDTH: i32 = 800;

/// An 800-pixel chart of one plot, 300 pixels high, under its header and legend, with
/// room for the value axis on the left and the position axis below: the layout the curve
/// and the guessing chart share. `draw` gets the plot's area and the chart's height.
pub(super) fn plot_under_legend(
    header: &Header,
    legend: &Legend,
    draw: impl FnOnce(&Canvas<'_>, Area, i32) -> Drawn,
) -> String {
    let left = MARGIN + 48;
    let plot = Area {
        left,
        top: header.height() + legend.height() + 16,
        width: PLOT_CHART_WIDTH - left - MARGIN - 10,
        height: 300,
    };
    let height = plot.bottom() + 22 + 24 + MARGIN;
    render(PLOT_CHART_WIDTH, height, |canvas| {
        header.draw(canvas)?;
        legend.draw(canvas, MARGIN, header.height())?;
        draw(canvas, plot, height)
    })
}

/// Draws a `width × height` chart on a white background with `draw`, and returns the SVG.
pub(super) fn render(width: i32, height: i32, draw: impl FnOnce(&Canvas<'_>) -> Drawn) -> String {
    let mut svg = String::new();
    {
        let size = (width.max(1) as u32, height.max(1) as u32);
        let canvas = Canvas {
            area: SVGBackend::with_string(&mut svg, size).into_drawing_area(),
        };
        let whole = Area {
            left: 0,
            top: 0,
            width,
            height,
        };
        canvas
            .panel(whole, WHITE, 1.0)
            .and_then(|()| draw(&canvas))
            .and_then(|()| canvas.area.present())
            .expect("drawing into a String does no I/O and reads no font");
    }
    svg
}

impl Canvas<'_> {
    /// A data mark: the only kind of element drawn as a `<rect>`. Drawn even when it has
    /// no width or height, so that every datum yields exactly one.
    pub fn mark(&self, x0: i32, y0: i32, x1: i32, y1: i32, color: RGBColor) -> Drawn {
        let style = ShapeStyle {
            color: color.to_rgba(),
            filled: true,
            stroke_width: 0,
        };
        self.area.draw(&Rectangle::new([(x0, y0), (x1, y1)], style))
    }

    /// A filled rectangle that is not a data mark (background, band, swatch), drawn as a
    /// polygon.
    pub fn panel(&self, area: Area, color: RGBColor, opacity: f64) -> Drawn {
        let (l, t, r, b) = (area.left, area.top, area.right(), area.bottom());
        self.polygon(vec![(l, t), (r, t), (r, b), (l, b)], color, opacity)
    }

    pub fn polygon(&self, points: Vec<(i32, i32)>, color: RGBColor, opacity: f64) -> Drawn {
        self.area.draw(&Polygon::new(points, color.mix(opacity).filled()))
    }

    /// A solid line through `points`.
    pub fn line(&self, points: Vec<(i32, i32)>, color: RGBColor, width: u32) -> Drawn {
        self.area
            .draw(&PathElement::new(points, color.stroke_width(width)))
    }

    /// A dashed straight line from `from` to `to` (plotters' SVG has no dash attribute,
    /// so the dashes are drawn one by one).
    pub fn dashed(&self, from: (i32, i32), to: (i32, i32), color: RGBColor, width: u32) -> Drawn {
        let (dx, dy) = ((to.0 - from.0) as f64, (to.1 - from.1) as f64);
        let length = dx.hypot(dy);
        let (dash, gap) = (5.0, 4.0);
        let mut at = 0.0;
        while at < length {
            let end = (at + dash).min(length);
            let point = |s: f64| {
                let f = if length > 0.0 { s / length } else { 0.0 };
                (from.0 + (dx * f).round() as i32, from.1 + (dy * f).round() as i32)
            };
            self.line(vec![point(at), point(end)], color, width)?;
            at += dash + gap;
        }
        Ok(())
    }

    /// `text` at `at`, anchored by `anchor`.
    pub fn text(&self, text: &str, at: (i32, i32), font: Font, anchor: Anchor) -> Drawn {
        self.write(text, at, font, anchor, FontTransform::None)
    }

    /// `text` reading upwards; `anchor` as if it were not rotated.
    pub fn text_up(&self, text: &str, at: (i32, i32), font: Font, anchor: Anchor) -> Drawn {
        self.write(text, at, font, anchor, FontTransform::Rotate270)
    }

    fn write(
        &self,
        text: &str,
        at: (i32, i32),
        font: Font,
        anchor: Anchor,
        transform: FontTransform,
    ) -> Drawn {
        if text.is_empty() {
            return Ok(());
        }
        let weight = if font.bold {
            FontStyle::Bold
        } else {
            FontStyle::Normal
        };
        // Plotters writes font-size as size / 1.24.
        let desc = FontDesc::new(FontFamily::SansSerif, font.size * 1.24, weight).transform(transform);
        let style = TextStyle {
            font: desc,
            color: font.color.to_backend_color(),
            pos: Pos::new(anchor.0, anchor.1),
        };
        self.area.draw(&Text::new(printable(text), at, style))
    }

    /// The horizontal grid line and left tick label of each `(y, label)`, across `plot`.
    pub fn y_ticks(&self, plot: Area, ticks: &[(i32, String)]) -> Drawn {
        for (y, label) in ticks {
            self.line(vec![(plot.left, *y), (plot.right(), *y)], GRID, 1)?;
            self.line(vec![(plot.left - 4, *y), (plot.left, *y)], AXIS, 1)?;
            self.text(label, (plot.left - 7, *y), TICK_FONT, RIGHT_MIDDLE)?;
        }
        Ok(())
    }

    /// The tick mark and label under the bottom axis of `plot` at each `(x, label)`.
    pub fn x_ticks(&self, plot: Area, ticks: &[(i32, String)]) -> Drawn {
        for (x, label) in ticks {
            self.line(vec![(*x, plot.bottom()), (*x, plot.bottom() + 4)], AXIS, 1)?;
            self.text(label, (*x, plot.bottom() + 7), TICK_FONT, CENTER_TOP)?;
        }
        Ok(())
    }

    /// The left and bottom axis lines of `plot`.
    pub fn axes(&self, plot: Area) -> Drawn {
        let corner = (plot.left, plot.bottom());
        self.line(vec![(plot.left, plot.top), corner], AXIS, 1)?;
        self.line(vec![corner, (plot.right(), plot.bottom())], AXIS, 1)
    }
}

/// Text without control characters and noncharacters (U+FFFE, U+FFFF), which XML cannot
/// hold even escaped. Escaping itself is plotters' job.
fn printable(text: &str) -> Cow<'_, str> {
    let unfit = |c: char| c.is_control() || u32::from(c) & 0xFFFE == 0xFFFE;
    match text.chars().any(unfit) {
        true => text
            .chars()
            .map(|c| if unfit(c) { ' ' } else { c })
            .collect::<String>()
            .into(),
        false => text.into(),
    }
}

/// The title and subtitle at the top of a chart, wrapped to its width.
pub(super) struct Header {
    title: Vec<String>,
    subtitle: Vec<String>,
}

const TITLE_LINE: i32 = 22;
const SUBTITLE_LINE: i32 = 19;

impl Header {
    pub fn new(titles: &Titles, width: i32) -> Self {
        let max = f64::from(width - 2 * MARGIN);
        Header {
            title: TITLE_FONT.wrap(&titles.title, max, 3),
            subtitle: SUBTITLE_FONT.wrap(&titles.subtitle, max, 3),
        }
    }

    /// From the top of the chart to the first thing under the header.
    pub fn height(&self) -> i32 {
        MARGIN + TITLE_LINE * self.title.len() as i32 + SUBTITLE_LINE * self.subtitle.len() as i32 + 10
    }

    pub fn draw(&self, canvas: &Canvas<'_>) -> Drawn {
        let mut y = MARGIN;
        for line in &self.title {
            canvas.text(line, (MARGIN, y), TITLE_FONT, LEFT_TOP)?;
            y += TITLE_LINE;
        }
        for line in &self.subtitle {
            canvas.text(line, (MARGIN, y + 2), SUBTITLE_FONT, LEFT_TOP)?;
            y += SUBTITLE_LINE;
        }
        Ok(())
    }
}

/// What a legend entry shows before its text.
#[derive(Clone, Copy, Debug)]
pub(super) enum Swatch {
    /// A filled square.
    Fill(RGBColor),
    /// The band's shade.
    Band,
    /// A short solid line.
    Line(RGBColor),
    /// A short dashed line.
    Dashed(RGBColor),
    /// Nothing: the entry is a note.
    Note,
}

/// A row (or rows) of legend entries, laid out left to right and wrapped.
pub(super) struct Legend {
    entries: Vec<(Swatch, String, i32, i32)>,
    rows: i32,
}

const LEGEND_ROW: i32 = 20;

impl Legend {
    pub fn new(entries: Vec<(Swatch, String)>, max_width: i32) -> Self {
        let (mut x, mut row) = (0, 0);
        let mut placed = Vec::with_capacity(entries.len());
        for (swatch, label) in entries {
            let swatch_width = match swatch {
                Swatch::Fill(_) | Swatch::Band => 20,
                Swatch::Line(_) | Swatch::Dashed(_) => 28,
                Swatch::Note => 0,
            };
            let label = LEGEND_FONT.fit(&label, f64::from(max_width - swatch_width));
            let width = swatch_width + LEGEND_FONT.width(&label).ceil() as i32;
            if x > 0 && x + width > max_width {
                (x, row) = (0, row + 1);
            }
            placed.push((swatch, label, x, row));
            x += width + 22;
        }
        let rows = if placed.is_empty() { 0 } else { row + 1 };
        Legend {
            entries: placed,
            rows,
        }
    }

    pub fn height(&self) -> i32 {
        LEGEND_ROW * self.rows
    }

    pub fn draw(&self, canvas: &Canvas<'_>, left: i32, top: i32) -> Drawn {
        for (swatch, label, x, row) in &self.entries {
            let (x, y) = (left + x, top + row * LEGEND_ROW + LEGEND_ROW / 2);
            let square = Area {
                left: x,
                top: y - 6,
                width: 13,
                height: 13,
            };
            let text_x = match swatch {
                Swatch::Fill(color) => {
                    canvas.panel(square, *color, 1.0)?;
                    x + 20
                }
                Swatch::Band => {
                    canvas.panel(square, BAND_SWATCH, 1.0)?;
                    x + 20
                }
                Swatch::Line(color) => {
                    canvas.line(vec![(x, y), (x + 22, y)], *color, 2)?;
                    x + 28
                }
                Swatch::Dashed(color) => {
                    canvas.dashed((x, y), (x + 22, y), *color, 2)?;
                    x + 28
                }
                Swatch::Note => x,
            };
            let font = match swatch {
                Swatch::Note => LEGEND_FONT.color(SOFT_INK),
                _ => LEGEND_FONT,
            };
            canvas.text(label, (text_x, y), font, LEFT_MIDDLE)?;
        }
        Ok(())
    }
}

/// A logarithmic count axis from 0.5 (so that a count of 1 still shows and a count of 0
/// is empty, never minus infinity) to the power of ten above 1.5 × the highest count,
/// with ticks only at powers of ten.
pub(super) struct LogAxis {
    decades: i32,
}

/// The lowest count a log axis shows.
pub(super) const LOG_FLOOR: f64 = 0.5;

impl LogAxis {
    pub fn new(highest: f64) -> Self {
        let decades = (highest * 1.5).log10().ceil();
        LogAxis {
            decades: if decades.is_finite() {
                decades.clamp(1.0, 300.0) as i32
            } else {
                1
            },
        }
    }

    /// The fraction of the axis's length at which `count` stands, in `[0, 1]`.
    pub fn fraction(&self, count: f64) -> f64 {
        let low = LOG_FLOOR.log10();
        let fraction = (count.max(LOG_FLOOR).log10() - low) / (f64::from(self.decades) - low);
        if fraction.is_nan() {
            0.0
        } else {
            fraction.clamp(0.0, 1.0)
        }
    }

    /// 1, 10, 100… (every other power beyond eight decades), with their labels.
    pub fn ticks(&self) -> Vec<(f64, String)> {
        let step = (self.decades + 7) / 8;
        (0..=self.decades)
            .step_by(step as usize)
            .map(|k| {
                let label = match k {
                    0..=15 => thousands(10u64.pow(k as u32)),
                    _ => format!("1e{k}"),
                };
                (10f64.powi(k), label)
            })
            .collect()
    }
}

/// Which of `count` labels `pitch` pixels apart to show, each needing `need` pixels
/// (its width and a gap): all of them, every other one (1, 3, 5…), or the first and
/// every k-th counting from 1 (1, 10, 15…, or 1, 5, 10… when 5 is far enough from 1) for
/// the smallest round k that keeps them apart. The first is always labelled: it is the
/// card a reader looks for first. Returns k too.
pub(super) fn sparse(count: usize, pitch: f64, need: f64) -> (usize, Vec<usize>) {
    let k = [
        1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000,
    ]
    .into_iter()
    .find(|&k| k as f64 * pitch >= need)
    .unwrap_or(10_000);
    match k {
        1 => (1, (0..count).collect()),
        // Every other label: 1, 3, 5… (2, 4, 6… would leave the first unlabelled).
        2 => (2, (0..count).step_by(2).collect()),
        // The first, then round numbers far enough from it: 1, 10, 15… when 5 is too close.
        _ => {
            let round = (0..count).filter(|i| (i + 1) % k == 0 && *i as f64 * pitch >= need);
            (k, std::iter::once(0).take(count.min(1)).chain(round).collect())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_text_is_cut_or_wrapped_to_fit() {
        let font = LEGEND_FONT;
        let cut = font.fit("a very long label that cannot fit", 80.0);
        assert!(cut.ends_with('…'), "{cut}");
        assert!(font.width(&cut) <= 80.0);
        assert_eq!(font.fit("short", 80.0), "short");

        let lines = font.wrap("one two three four five six seven eight nine ten", 90.0, 3);
        assert_eq!(lines.len(), 3);
        assert!(lines.iter().all(|l| font.width(l) <= 90.0), "{lines:?}");
        assert!(lines[2].ends_with('…'));
        assert_eq!(font.wrap("fits", 90.0, 3), vec!["fits".to_string()]);
        assert!(font.wrap("", 90.0, 3).is_empty());
    }

    #[test]
    fn control_characters_become_spaces() {
        assert_eq!(printable("a\u{0}b\nc\u{FFFF}"), "a b c ");
        assert!(matches!(printable("plain"), Cow::Borrowed(_)));
    }

    #[test]
    fn labels_are_spaced_by_round_steps() {
        assert_eq!(sparse(3, 72.0, 14.0), (1, vec![0, 1, 2]));
        // 52 rows of 10 pixels: every other, from the 1st (card 1 is always labelled).
        let (k, shown) = sparse(52, 10.0, 14.0);
        assert_eq!(k, 2);
        assert_eq!(shown, (0..52).filter(|i| i % 2 == 0).collect::<Vec<_>>());
        // 52 bars of 6 pixels need k = 5, and 5 is too close to 1: 1, 10, 15…
        let (k, shown) = sparse(52, 6.0, 28.0);
        assert_eq!(k, 5);
        assert_eq!(&shown[..3], &[0, 9, 14]);
        let (k, hundred) = sparse(100, 5.6, 14.0);
        assert_eq!(k, 5);
        assert_eq!(&hundred[..4], &[0, 4, 9, 14]);
        assert_eq!(hundred.len(), 21);
        let (k, orders) = sparse(720, 1.0, 80.0);
        assert_eq!((k, orders.len()), (100, 8));
        assert_eq!(sparse(3, 1.0, 500.0).1, vec![0]);
        assert!(sparse(0, 1.0, 500.0).1.is_empty());
    }

    #[test]
    fn log_axes_start_at_one_half_and_tick_at_powers_of_ten() {
        let axis = LogAxis::new(1_000_000.0);
        assert_eq!(axis.fraction(0.0), 0.0);
        assert_eq!(axis.fraction(0.5), 0.0);
        assert!(axis.fraction(1.0) > 0.0);
        assert_eq!(axis.fraction(1e7), 1.0);
        let ticks = axis.ticks();
        assert_eq!(ticks.len(), 8);
        assert_eq!(ticks[6].1, "1,000,000");
        // Many decades: every other power.
        let wide = LogAxis::new(1e12).ticks();
        assert_eq!(wide[1].1, "100");
        assert_eq!(LogAxis::new(0.0).ticks().len(), 2);
    }

    #[test]
    fn legends_wrap_into_rows() {
        let entries = |n| {
            (0..n)
                .map(|i| (Swatch::Fill(INK), format!("entry {i}")))
                .collect()
        };
        assert_eq!(Legend::new(entries(2), 700).height(), LEGEND_ROW);
        assert!(Legend::new(entries(12), 300).height() > 2 * LEGEND_ROW);
        assert_eq!(Legend::new(Vec::new(), 300).height(), 0);
    }
}
