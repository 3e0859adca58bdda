//! Colours, fonts, sizes and number formats shared by every chart.
//!
//! One place decides how the charts look, so that a report's pages read as one piece:
//! the same calm blue for results within their band, the same strong red for results
//! outside it, the same fonts and the same way of writing `111,030` or `×1.35`.
//!
//! The bar colours are public because they are part of the charts' contract: every bar
//! of [`bars`](super::bars) is a `<rect>` filled with [`BAR_FILL`] or [`OUTSIDE_FILL`], and
//! nothing else in any chart uses those two fills (legend swatches use a shade one step
//! away), so [`count_bars`] can count the bars by a plain string scan.
//!
//! Text widths are estimated here rather than measured: the charts are laid out without
//! reading any font, so that they come out byte for byte the same on every machine. The
//! estimates are generous (close to DejaVu Sans, the widest common sans-serif), so that
//! labels spaced by them do not touch in any browser.

use plotters::style::RGBColor;

/// The fill of a bar within its 99.9 % band (steel blue), as plotters writes it.
pub const BAR_FILL: &str = "#4682B4";
/// The fill of a bar outside its 99.9 % band (a strong red), as plotters writes it.
pub const OUTSIDE_FILL: &str = "#C0392B";

/// The fill of every point of a curve (a deep blue no other mark uses).
pub const POINT_FILL: &str = "#1F4E79";

pub(super) const BAR: RGBColor = rgb(BAR_FILL);
pub(super) const POINT: RGBColor = rgb(POINT_FILL);
pub(super) const OUTSIDE: RGBColor = rgb(OUTSIDE_FILL);
/// Legend swatches of the two bar colours: one step away, so that they are not counted
/// as bars, and indistinguishable to the eye.
pub(super) const BAR_SWATCH: RGBColor = rgb("#4682B5");
pub(super) const OUTSIDE_SWATCH: RGBColor = rgb("#C0392C");

pub(super) const WHITE: RGBColor = rgb("#FFFFFF");
/// Titles, labels and the expected line.
pub(super) const INK: RGBColor = rgb("#222222");
/// Subtitles, axis descriptions and notes.
pub(super) const SOFT_INK: RGBColor = rgb("#555555");
/// Tick labels.
pub(super) const TICK_INK: RGBColor = rgb("#444444");
/// Axis lines and tick marks.
pub(super) const AXIS: RGBColor = rgb("#888888");
/// Grid lines: visible, never louder than the data.
pub(super) const GRID: RGBColor = rgb("#E6E6E6");
/// The 99.9 % band, laid translucently over the bars so that it shows on both.
pub(super) const BAND: RGBColor = rgb("#000000");
pub(super) const BAND_OPACITY: f64 = 0.16;
/// The band as it looks over white, for its legend swatch.
pub(super) const BAND_SWATCH: RGBColor = rgb("#D6D6D6");

/// Heat-map cells within their band: a light grey that no ratio colour takes.
pub(super) const MUTED: RGBColor = rgb("#E4E4E4");
/// The diverging scale of the heat map, from far below expectation to far above it
/// (ColorBrewer RdBu, readable by most colour-blind readers): blue, white, red.
pub(super) const DIVERGING: [RGBColor; 5] = [
    rgb("#2166AC"),
    rgb("#92C5DE"),
    rgb("#F7F7F7"),
    rgb("#F4A582"),
    rgb("#B2182B"),
];

/// Verdict colours (Dark2-like, distinct in lightness as well as hue).
pub(super) const PASS: RGBColor = rgb("#1B9E77");
pub(super) const SUSPICIOUS: RGBColor = rgb("#E6AB02");
pub(super) const FAIL: RGBColor = rgb("#B2182B");
pub(super) const INCONCLUSIVE: RGBColor = rgb("#999999");
/// The `suspicious` threshold line and label: the amber of the bars is too light for a
/// thin line on white.
pub(super) const SUSPICIOUS_LINE: RGBColor = rgb("#A6761D");

/// Font sizes in SVG pixels. Each is a value whose round trip through plotters' 1.24
/// factor prints exactly (13 and 15 would print as 13.000000000000002).
pub(super) const TITLE_SIZE: f64 = 17.0;
pub(super) const SUBTITLE_SIZE: f64 = 14.0;
pub(super) const AXIS_TITLE_SIZE: f64 = 12.5;
pub(super) const LEGEND_SIZE: f64 = 12.0;
pub(super) const TICK_SIZE: f64 = 11.5;
pub(super) const CELL_SIZE: f64 = 11.0;

/// Outer margin of every chart, in pixels.
pub(super) const MARGIN: i32 = 16;

/// A colour written as plotters writes it: `#RRGGBB`, uppercase.
const fn rgb(hex: &str) -> RGBColor {
    let b = hex.as_bytes();
    assert!(b.len() == 7 && b[0] == b'#', "a colour is #RRGGBB");
    RGBColor(
        nibble(b[1]) * 16 + nibble(b[2]),
        nibble(b[3]) * 16 + nibble(b[4]),
        nibble(b[5]) * 16 + nibble(b[6]),
    )
}

const fn nibble(c: u8) -> u8 {
    match c {
        b'0'..=b'9' => c - b'0',
        b'A'..=b'F' => c - b'A' + 10,
        _ => panic!("colours are written in uppercase hex, as plotters writes them"),
    }
}

/// Whether text on `color` should be white rather than dark.
pub(super) fn dark(color: RGBColor) -> bool {
    let luminance = 0.299 * f64::from(color.0) + 0.587 * f64::from(color.1) + 0.114 * f64::from(color.2);
    luminance < 140.0
}

/// The estimated width in pixels of `text` at font size `size`.
pub(super) fn text_width(text: &str, size: f64) -> f64 {
    let ems: f64 = text
        .chars()
        .map(|c| match c {
            ' ' | '.' | ',' | ':' | ';' | '\'' | '|' | '!' | 'i' | 'j' | 'l' | 'I' => 0.34,
            'f' | 't' | 'r' | '(' | ')' | '[' | ']' | '{' | '}' | '-' | '/' => 0.45,
            'm' | 'w' | 'M' | 'W' | '%' | '@' => 0.95,
            'A'..='Z' => 0.72,
            _ => 0.64,
        })
        .sum();
    ems * size
}

/// `1234567` as `1,234,567`.
pub(super) fn thousands(value: u64) -> String {
    crate::format::group_thousands(value)
}

/// A tick value on an axis whose ticks are `step` apart: `120,000`, `2.5`, `0.05`.
pub(super) fn tick_number(value: f64, step: f64) -> String {
    let decimals = decimals_of(step);
    let text = format!("{:.*}", decimals, value.abs());
    let (whole, fraction) = text.split_once('.').unwrap_or((&text, ""));
    let whole = whole.parse::<u64>().map_or_else(|_| whole.to_string(), thousands);
    let sign = if value < 0.0 && text.bytes().any(|b| b.is_ascii_digit() && b != b'0') {
        "−"
    } else {
        ""
    };
    match fraction {
        "" => format!("{sign}{whole}"),
        _ => format!("{sign}{whole}.{fraction}"),
    }
}

/// The fewest decimals (up to 6) that write every multiple of `step` exactly.
fn decimals_of(step: f64) -> usize {
    (0..6)
        .find(|&d| {
            let scaled = step * 10f64.powi(d as i32);
            (scaled - scaled.round()).abs() < 1e-6 * scaled.max(1.0)
        })
        .unwrap_or(6)
}

/// A ratio of observed to expected: `×1.35`, `×0.74`, `×1`, `×12`.
pub(super) fn ratio(value: f64) -> String {
    if !value.is_finite() {
        return "×∞".to_string();
    }
    let text = if value >= 9.995 {
        format!("{value:.0}")
    } else if value >= 0.0995 || value == 0.0 {
        format!("{value:.2}")
    } else {
        format!("{value:.3}")
    };
    let text = match text.contains('.') {
        true => text.trim_end_matches('0').trim_end_matches('.'),
        false => &text,
    };
    format!("×{text}")
}

/// `1 bar`, `2 bars`.
pub(super) fn counted(count: usize, noun: &str) -> String {
    match count {
        1 => format!("1 {noun}"),
        _ => format!("{} {}", thousands(count as u64), plural(noun)),
    }
}

/// A noun's plural, for the words axes are named with (`card`, `position`, `order`).
pub(super) fn plural(noun: &str) -> String {
    if noun.ends_with('s') || noun.ends_with('x') || noun.ends_with("ch") {
        format!("{noun}es")
    } else if noun.ends_with('y') && !noun.ends_with("ay") && !noun.ends_with("ey") {
        format!("{}ies", &noun[..noun.len() - 1])
    } else {
        format!("{noun}s")
    }
}

/// A round step that cuts `span` into about `target` pieces: 1, 2, 2.5 or 5 × 10^k.
pub(super) fn nice_step(span: f64, target: usize) -> f64 {
    let raw = (span / target.max(1) as f64).max(f64::MIN_POSITIVE);
    let magnitude = 10f64.powi(raw.log10().floor() as i32);
    let norm = raw / magnitude;
    let nice = match norm {
        n if n <= 1.0 => 1.0,
        n if n <= 2.0 => 2.0,
        n if n <= 2.5 => 2.5,
        n if n <= 5.0 => 5.0,
        _ => 10.0,
    };
    nice * magnitude
}

/// The multiples of `step` from `low` to `high`, both included when they are multiples.
pub(super) fn ticks(low: f64, high: f64, step: f64) -> Vec<f64> {
    let first = (low / step - 1e-9).ceil() as i64;
    let last = (high / step + 1e-9).floor() as i64;
    (first..=last).map(|i| i as f64 * step).collect()
}

/// The number of bars in an SVG drawn by [`bars`](super::bars) (or of bins in one drawn by
/// [`ratio_histogram`](super::ratio_histogram)): the `<rect>` elements filled with
/// [`BAR_FILL`] or [`OUTSIDE_FILL`]. For tests and checks.
///
/// A plain string scan is enough: plotters writes each rectangle as one `<rect …/>` tag
/// with a `fill="#RRGGBB"` attribute, and text can never forge one, since `<` in text is
/// written `&lt;`.
pub fn count_bars(svg: &str) -> usize {
    let inside = format!("fill=\"{BAR_FILL}\"");
    let outside = format!("fill=\"{OUTSIDE_FILL}\"");
    rect_tags(svg)
        .filter(|tag| tag.contains(&inside) || tag.contains(&outside))
        .count()
}

/// The attributes of every `<rect>` tag in `svg`.
pub(super) fn rect_tags(svg: &str) -> impl Iterator<Item = &str> {
    svg.split("<rect ")
        .skip(1)
        .map(|rest| &rest[..rest.find('>').unwrap_or(rest.len())])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_read_back_as_plotters_writes_them() {
        let hex = |c: RGBColor| format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2);
        assert_eq!(hex(BAR), BAR_FILL);
        assert_eq!(hex(OUTSIDE), OUTSIDE_FILL);
        assert_ne!(hex(BAR_SWATCH), BAR_FILL);
        assert_ne!(hex(OUTSIDE_SWATCH), OUTSIDE_FILL);
        assert_eq!(hex(rgb("#0A1B2C")), "#0A1B2C");
    }

    #[test]
    fn numbers_are_written_for_people() {
        assert_eq!(tick_number(120_000.0, 20_000.0), "120,000");
        assert_eq!(tick_number(2.5, 2.5), "2.5");
        assert_eq!(tick_number(0.05, 0.05), "0.05");
        assert_eq!(tick_number(-4.0, 2.0), "−4");
        assert_eq!(tick_number(1_500.5, 0.5), "1,500.5");
        assert_eq!(ratio(1.352), "×1.35");
        assert_eq!(ratio(0.743), "×0.74");
        assert_eq!(ratio(1.0), "×1");
        assert_eq!(ratio(1.5), "×1.5");
        assert_eq!(ratio(12.4), "×12");
        assert_eq!(ratio(0.0), "×0");
        assert_eq!(ratio(0.05), "×0.05");
        assert_eq!(counted(1, "bar"), "1 bar");
        assert_eq!(counted(1200, "order"), "1,200 orders");
        assert_eq!(plural("subset"), "subsets");
        assert_eq!(plural("box"), "boxes");
        assert_eq!(plural("entry"), "entries");
    }

    #[test]
    fn ticks_are_round_and_cover_the_range() {
        assert_eq!(nice_step(120_000.0, 6), 20_000.0);
        assert!((nice_step(1.0, 4) - 0.25).abs() < 1e-12);
        assert_eq!(nice_step(7.0, 7), 1.0);
        assert_eq!(ticks(0.0, 120_000.0, 20_000.0).len(), 7);
        assert_eq!(ticks(0.3, 1.9, 0.5), vec![0.5, 1.0, 1.5]);
    }

    #[test]
    fn wider_text_is_estimated_wider() {
        assert!(text_width("111,030", 12.0) > text_width("1", 12.0) * 5.0);
        assert!(text_width("WWW", 12.0) > text_width("iii", 12.0));
        assert_eq!(text_width("", 12.0), 0.0);
    }

    #[test]
    fn count_bars_counts_only_bar_fills_on_rects() {
        let svg = format!(
            "<svg><rect x=\"0\" fill=\"{BAR_FILL}\" stroke=\"none\"/>\n\
             <rect x=\"1\" fill=\"{OUTSIDE_FILL}\"/>\n<rect x=\"2\" fill=\"#4682B5\"/>\n\
             <polygon fill=\"{BAR_FILL}\"/>\n<text>&lt;rect fill=\"{BAR_FILL}\"</text></svg>"
        );
        assert_eq!(count_bars(&svg), 2);
        assert_eq!(rect_tags(&svg).count(), 3);
    }
}
