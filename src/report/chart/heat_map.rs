//! A table of observed against expected counts (item × position), coloured by ratio.
//!
//! The colour is log(observed / expected) on a diverging scale: white at ×1, blue below,
//! red above, so that ×0.74 and ×1.35 look equally strong, as they are. The scale is
//! symmetric in log space and fitted to the data: it reaches the largest deviation among
//! significant cells, at most ×8, so that a 35 % bias fills it and a 0.1 % one fills it
//! too (`rand() % n` under a 52-card Fisher–Yates moves cells by about 0.1 %, which a
//! hundred million shuffles make significant). Cells within 3.29 standard deviations of
//! their expectation are grey whatever their ratio: noise is not painted as bias, and the
//! colours that remain are the findings. Its floor follows the noise rather than a fixed
//! ×1.05: twice a typical cell's band, so that a cell just outside its band (one in a
//! thousand of a fair run's are) shows at half strength and only what lies well beyond
//! the noise fills the scale; and never below ×1.0001, which keeps a bias far too small
//! to matter (Delphi's few parts in 10^9, in an exact matrix) from being painted as
//! strongly as one that matters; the colour bar's labels say how far the scale reaches, with two decimals as
//! before from ×1.05 up and as many as it takes below (×1.014, ×1.0013). A map with no
//! significant cell is all grey and keeps the old ×1.05 bar, which colours nothing.
//!
//! The map is readable from 3 × 3 (large cells, each with its ratio printed) to 100 ×
//! 100 (small cells, every 5th or 10th label). Larger tables are summed into blocks
//! (observed, expected and variances, treating cells as independent) so that at most
//! 100 × 100 cells are drawn, and the subtitle says how many each cell sums.
//!
//! Cells are the map's only `<rect>` elements (the colour bar and swatches are
//! polygons), which is how [`count_cells`] counts them.

use super::canvas::{
    AXIS_FONT, Anchor, Area, CENTER_MIDDLE, CENTER_TOP, Canvas, Drawn, Font, Header, LEFT_MIDDLE, LEFT_TOP,
    LEGEND_FONT, RIGHT_MIDDLE, TICK_FONT, render, sparse,
};
use super::style::{
    AXIS, CELL_SIZE, DIVERGING, INK, LEGEND_SIZE, MARGIN, MUTED, SOFT_INK, WHITE, counted, dark, ratio,
    rect_tags,
};
use super::{BAND_Z, HeatMap, Titles};
use plotters::style::RGBColor;
use plotters::style::text_anchor::{HPos, VPos};

/// At most this many cells are drawn across and down.
const MAX_CELLS: usize = 100;
/// The map's longer side in pixels, at most.
const MAP_SIDE: i32 = 560;
/// The largest cell side.
const CELL_MAX: i32 = 88;
/// The colour scale reaches at least ×1.0001 and at most ×8 (÷8 below).
const SCALE_MIN: f64 = 0.000_099_995_000_333_297; // ln 1.0001
/// The scale a map without any significant cell shows: it colours nothing, so its bar
/// only needs readable labels.
const SCALE_WHEN_ALL_GREY: f64 = 0.048_790_164_169_432; // ln 1.05
const SCALE_MAX: f64 = 2.079_441_541_679_836; // ln 8
const BAR_WIDTH: i32 = 16;

/// The heat map of `map`. Missing entries (vectors shorter than `rows × columns`) are
/// drawn grey as cells without data.
pub fn heat_map(map: &HeatMap) -> String {
    let chart = Chart::new(map);
    render(chart.width, chart.height, |canvas| chart.draw(canvas))
}

/// The number of cells in an SVG drawn by [`heat_map`]: its `<rect>` elements, since
/// nothing else in a heat map is drawn as one. For tests and checks.
pub fn count_cells(svg: &str) -> usize {
    rect_tags(svg).count()
}

/// The table as drawn: blocks of `block.0` rows × `block.1` columns summed.
struct Table {
    rows: Vec<String>,
    columns: Vec<String>,
    block: (usize, usize),
    observed: Vec<f64>,
    expected: Vec<f64>,
    variance: Vec<f64>,
}

impl Table {
    fn new(map: &HeatMap) -> Self {
        let (r, c) = (map.rows.len(), map.columns.len());
        let block = (r.div_ceil(MAX_CELLS).max(1), c.div_ceil(MAX_CELLS).max(1));
        let (br, bc) = (r.div_ceil(block.0), c.div_ceil(block.1));
        let mut table = Table {
            rows: block_labels(&map.rows, block.0),
            columns: block_labels(&map.columns, block.1),
            block,
            observed: vec![0.0; br * bc],
            expected: vec![0.0; br * bc],
            variance: vec![0.0; br * bc],
        };
        for i in 0..r {
            for j in 0..c {
                let k = i * c + j;
                let at = (i / block.0) * bc + j / block.1;
                table.observed[at] += map.observed.get(k).map_or(f64::NAN, |&o| o as f64);
                table.expected[at] += map.expected.get(k).copied().unwrap_or(f64::NAN);
                let sd = map.standard_deviation.get(k).copied().unwrap_or(f64::NAN);
                table.variance[at] += sd * sd;
            }
        }
        table
    }

    fn aggregated(&self) -> bool {
        self.block != (1, 1)
    }

    /// Observed / expected of cell `k` (∞ for counts where none were expected; NaN for
    /// no data).
    fn ratio(&self, k: usize) -> f64 {
        let (o, e) = (self.observed[k], self.expected[k]);
        if o.is_nan() || e.is_nan() || e < 0.0 {
            f64::NAN
        } else if e > 0.0 {
            o / e
        } else if o == 0.0 {
            1.0
        } else {
            f64::INFINITY
        }
    }

    /// The least reach of the colour scale that noise allows: the log of ×(1 + twice the
    /// band's half-width) of a typical cell (the median over cells), so that a cell just
    /// outside its band, as about one in a thousand are by chance alone, is painted at
    /// half strength, and only deviations well beyond the noise fill the scale. For an
    /// exact matrix (no noise) it is 0.
    fn noise_floor(&self) -> f64 {
        let mut widths: Vec<f64> = (0..self.expected.len())
            .filter(|&k| self.expected[k] > 0.0)
            .map(|k| BAND_Z * self.variance[k].sqrt() / self.expected[k])
            .filter(|width| width.is_finite())
            .collect();
        if widths.is_empty() {
            return 0.0;
        }
        let middle = widths.len() / 2;
        let (_, median, _) = widths.select_nth_unstable_by(middle, f64::total_cmp);
        (2.0 * *median).ln_1p()
    }

    /// Whether cell `k` lies outside its 99.9 % band.
    fn significant(&self, k: usize) -> bool {
        let (o, e, sd) = (self.observed[k], self.expected[k], self.variance[k].sqrt());
        if !(o.is_finite() && e.is_finite() && sd.is_finite()) {
            return false;
        }
        match sd > 0.0 {
            true => (o - e).abs() > BAND_Z * sd,
            false => (o - e).abs() > 1e-9 * e.max(1.0),
        }
    }
}

/// The labels of blocks of `size`: the label itself, or `first–last`.
fn block_labels(labels: &[String], size: usize) -> Vec<String> {
    labels
        .chunks(size)
        .map(|chunk| match chunk {
            [one] => one.clone(),
            [first, .., last] => format!("{first}–{last}"),
            [] => String::new(),
        })
        .collect()
}

/// A ratio with `decimals` decimals, so that ratios printed together line up: `×1.35`,
/// `×1.00`, `×1.0013`; `×12` and `×0.005` beyond.
fn fixed_decimals(r: f64, decimals: usize) -> String {
    match r {
        r if r.is_nan() => "–".to_string(),
        r if (0.01..9.995).contains(&r) => format!("×{r:.decimals$}"),
        r => ratio(r),
    }
}

/// The decimals of the ratios on a map whose scale reaches `reach` (a natural log): 2
/// from ×1.05 up, where the bar's ticks (×1.05, ×1.02) still differ at two decimals;
/// below, as many as show two significant digits of the distance from ×1 (×1.014 and
/// ×1.007, ×1.0013, ×1.00010 at the floor).
fn decimals_for(reach: f64) -> usize {
    match reach >= SCALE_WHEN_ALL_GREY {
        true => 2,
        false => crate::format::ratio_decimals(reach.exp_m1(), 2),
    }
}

/// The diverging colour of `t` in `[-1, 1]`: blue, white at 0, red.
fn diverging(t: f64) -> RGBColor {
    let t = if t.is_nan() { 0.0 } else { t.clamp(-1.0, 1.0) };
    let at = (t + 1.0) * 2.0; // 0..4 across the five stops
    let i = (at.floor() as usize).min(3);
    let f = at - i as f64;
    let (a, b) = (DIVERGING[i], DIVERGING[i + 1]);
    let mix = |x: u8, y: u8| (f64::from(x) + (f64::from(y) - f64::from(x)) * f).round() as u8;
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

struct Chart {
    width: i32,
    height: i32,
    header: Header,
    table: Table,
    map: Area,
    cell: (i32, i32),
    /// The scale's reach: ln of the largest ratio it tells apart.
    reach: f64,
    /// Whether some cells lie beyond the scale (below, above).
    beyond: (bool, bool),
    row_labels: Vec<(usize, String)>,
    column_labels: Vec<(usize, String)>,
    row_title: String,
    column_title: String,
    /// The colour bar's area.
    bar: Area,
    legend_left: i32,
    /// Whether the map is exact (no cell has any noise), which changes what grey means.
    exact: bool,
}

impl Chart {
    fn new(input: &HeatMap) -> Self {
        let table = Table::new(input);
        let (r, c) = (table.rows.len(), table.columns.len());
        // Square cells as large as fit, except that a table with few rows or columns
        // gets cells up to three times longer that way rather than a thin strip.
        let across = (MAP_SIDE / c.max(1) as i32).clamp(3, CELL_MAX);
        let down = (MAP_SIDE / r.max(1) as i32).clamp(3, CELL_MAX);
        let side = across.min(down);
        let cell = (across.min(3 * side), down.min(3 * side));

        let logs: Vec<f64> = (0..r * c)
            .filter(|&k| table.significant(k))
            .map(|k| table.ratio(k).ln().abs())
            .collect();
        let largest = logs.iter().copied().filter(|l| l.is_finite()).fold(0.0, f64::max);
        // Only infinite deviations (counts where none were expected, or none where
        // some were): the widest scale.
        let reach = if logs.is_empty() {
            SCALE_WHEN_ALL_GREY
        } else if largest == 0.0 && logs.iter().any(|l| l.is_infinite()) {
            SCALE_MAX
        } else {
            // The floor is capped too: with a few deals of many cards a typical cell's band
            // is wider than ×8, and the scale then stops at ×8 like any other. (`clamp`
            // between two constants in order cannot panic; between the floor and ×8 it
            // panics once the floor passes ×8 or is NaN, hence `max` and `min`.)
            let floor = table.noise_floor().clamp(SCALE_MIN, SCALE_MAX);
            largest.max(floor).min(SCALE_MAX)
        };
        let all: Vec<f64> = (0..r * c)
            .map(|k| table.ratio(k).ln())
            .filter(|l| !l.is_nan())
            .collect();
        let beyond = (
            all.iter().any(|&l| l < -reach * (1.0 + 1e-9)),
            all.iter().any(|&l| l > reach * (1.0 + 1e-9)),
        );

        let row_texts: Vec<String> = table.rows.iter().map(|l| TICK_FONT.fit(l, 140.0)).collect();
        let row_labels: Vec<(usize, String)> = sparse(r, f64::from(cell.1), TICK_FONT.size + 3.0)
            .1
            .into_iter()
            .map(|i| (i, row_texts[i].clone()))
            .collect();
        let row_width = row_labels
            .iter()
            .map(|(_, t)| TICK_FONT.width(t))
            .fold(0.0, f64::max)
            .ceil() as i32;
        let column_texts: Vec<String> = table.columns.iter().map(|l| TICK_FONT.fit(l, 120.0)).collect();
        let widest = column_texts
            .iter()
            .map(|t| TICK_FONT.width(t))
            .fold(0.0, f64::max);
        let column_labels: Vec<(usize, String)> = sparse(c, f64::from(cell.0), widest + 8.0)
            .1
            .into_iter()
            .map(|i| (i, column_texts[i].clone()))
            .collect();

        let left = MARGIN + 18 + 10 + row_width + 8;
        let map_width = cell.0 * c as i32;
        let map_height = cell.1 * r as i32;
        // Clear of the last column's label, which may be wider than its column.
        let overhang = column_labels
            .last()
            .map_or(0.0, |(_, t)| TICK_FONT.width(t) / 2.0 - f64::from(cell.0) / 2.0);
        let legend_left = left + map_width + 32 + overhang.max(0.0).ceil() as i32;
        let legend_width = 160;
        let width = (legend_left + legend_width + MARGIN).max(560);

        let mut titles: Titles = input.titles.clone();
        if table.aggregated() {
            titles.subtitle.push_str(&format!(
                " · each cell sums a block of {} × {}",
                counted(table.block.0, "row"),
                counted(table.block.1, "column")
            ));
        }
        let header = Header::new(&titles, width);
        let top = header.height() + 8;
        let map = Area {
            left,
            top,
            width: map_width,
            height: map_height,
        };
        let bar_height = map_height.clamp(120, 240);
        let bar = Area {
            left: legend_left,
            top: top + 22,
            width: BAR_WIDTH,
            height: bar_height,
        };
        let legend_bottom = bar.bottom() + 16 + 3 * 16;
        let height = (map.bottom() + 4 + 18 + 22).max(legend_bottom) + MARGIN;
        Chart {
            width,
            height,
            header,
            table,
            map,
            cell,
            reach,
            beyond,
            row_labels,
            column_labels,
            row_title: AXIS_FONT.fit(&input.row_axis, f64::from(map_height.max(120))),
            column_title: AXIS_FONT.fit(&input.column_axis, f64::from(map_width.max(200))),
            bar,
            legend_left,
            exact: input
                .standard_deviation
                .iter()
                .zip(&input.expected)
                .all(|(&sd, &e)| sd <= e * 1e-6),
        }
    }

    /// The colour of cell `k`.
    fn color(&self, k: usize) -> RGBColor {
        match self.table.significant(k) {
            true => diverging(self.table.ratio(k).ln() / self.reach),
            false => MUTED,
        }
    }

    fn draw(&self, canvas: &Canvas<'_>) -> Drawn {
        self.header.draw(canvas)?;
        let (r, c) = (self.table.rows.len(), self.table.columns.len());
        let (w, h) = self.cell;
        // Large cells are parted by a white line; small ones touch.
        let gap = i32::from(w >= 8 && h >= 8);
        let text = w >= 44 && h >= 20;
        for i in 0..r {
            for j in 0..c {
                let k = i * c + j;
                let (x, y) = (self.map.left + j as i32 * w, self.map.top + i as i32 * h);
                let color = self.color(k);
                canvas.mark(x, y, x + w - gap, y + h - gap, color)?;
                if text {
                    let ratio = self.table.ratio(k);
                    let label = fixed_decimals(ratio, decimals_for(self.reach));
                    let ink = match (self.table.significant(k), dark(color)) {
                        (false, _) => SOFT_INK,
                        (true, true) => WHITE,
                        (true, false) => INK,
                    };
                    let size = if w >= 60 && h >= 30 {
                        LEGEND_SIZE + 0.5
                    } else {
                        CELL_SIZE
                    };
                    let font = Font::new(size, ink);
                    canvas.text(
                        &label,
                        (x + (w - gap) / 2, y + (h - gap) / 2),
                        font,
                        CENTER_MIDDLE,
                    )?;
                }
            }
        }
        for (i, label) in &self.row_labels {
            let y = self.map.top + *i as i32 * h + h / 2;
            canvas.text(label, (self.map.left - 6, y), TICK_FONT, RIGHT_MIDDLE)?;
        }
        for (j, label) in &self.column_labels {
            let x = self.map.left + *j as i32 * w + w / 2;
            canvas.line(vec![(x, self.map.bottom()), (x, self.map.bottom() + 3)], AXIS, 1)?;
            canvas.text(label, (x, self.map.bottom() + 6), TICK_FONT, CENTER_TOP)?;
        }
        let centre_x = self.map.left + self.map.width / 2;
        canvas.text(
            &self.column_title,
            (centre_x, self.map.bottom() + 26),
            AXIS_FONT,
            CENTER_TOP,
        )?;
        let centre_y = self.map.top + self.map.height / 2;
        let middle = Anchor(HPos::Center, VPos::Center);
        canvas.text_up(&self.row_title, (MARGIN + 8, centre_y), AXIS_FONT, middle)?;
        self.draw_legend(canvas)
    }

    /// The colour bar with ratio labels, its caption and what grey means.
    fn draw_legend(&self, canvas: &Canvas<'_>) -> Drawn {
        let bar = self.bar;
        canvas.text(
            "observed / expected",
            (self.legend_left, bar.top - 20),
            LEGEND_FONT.bold(),
            LEFT_TOP,
        )?;
        // Strips from red at the top to blue at the bottom.
        let strip = 2;
        let mut y = bar.top;
        while y < bar.bottom() {
            let bottom = (y + strip).min(bar.bottom());
            let middle = f64::from(y + bottom) / 2.0 - f64::from(bar.top);
            let t = 1.0 - 2.0 * middle / f64::from(bar.height);
            canvas.panel(
                Area {
                    left: bar.left,
                    top: y,
                    width: bar.width,
                    height: bottom - y,
                },
                diverging(t),
                1.0,
            )?;
            y = bottom;
        }
        for t in [1.0, 0.5, 0.0, -0.5, -1.0] {
            let y = bar.top + ((1.0 - t) / 2.0 * f64::from(bar.height)).round() as i32;
            let mut label = fixed_decimals((t * self.reach).exp(), decimals_for(self.reach));
            if t == 1.0 && self.beyond.1 {
                label = format!("≥ {label}");
            }
            if t == -1.0 && self.beyond.0 {
                label = format!("≤ {label}");
            }
            if t == 0.0 {
                label = "×1 as expected".to_string();
            }
            canvas.line(vec![(bar.right(), y), (bar.right() + 4, y)], AXIS, 1)?;
            canvas.text(&label, (bar.right() + 7, y), TICK_FONT, LEFT_MIDDLE)?;
        }
        let y = bar.bottom() + 16;
        let swatch = Area {
            left: bar.left,
            top: y,
            width: bar.width,
            height: 14,
        };
        canvas.panel(swatch, MUTED, 1.0)?;
        let note = LEGEND_FONT.color(SOFT_INK);
        // An exact matrix has no noise: grey means exactly as expected.
        let lines = if self.exact {
            ["grey: exactly as", "expected (an exact", "matrix has no noise)"]
        } else {
            ["grey: within the", "99.9 % band, not", "significant"]
        };
        canvas.text(lines[0], (bar.right() + 7, y + 7), note, LEFT_MIDDLE)?;
        canvas.text(lines[1], (bar.right() + 7, y + 23), note, LEFT_MIDDLE)?;
        canvas.text(lines[2], (bar.right() + 7, y + 39), note, LEFT_MIDDLE)
    }
}

#[cfg(test)]
mod tests;
