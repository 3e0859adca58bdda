//! SVG charts drawn with plotters: bars against an expected count, a histogram of
//! count/expected ratios, a diverging heat map, an exact curve and the summary of verdicts.
//!
//! Charts take plain numbers and labels, not tallies, so that every kind of result
//! (shuffles, samplers, streams, and later exact laws and ingested samples) draws with
//! the same few functions, and so that the tests can feed them anything. Each function
//! returns the SVG document as a string; nothing here touches the file system.
//!
//! Text from outside the tool (labels, names) is escaped by plotters' SVG backend.
//! Plotters is built without font features, so text is laid out with fixed estimates
//! of glyph widths: the output depends on nothing but the input, byte for byte.
//!
//! Each chart has its own file, whose documentation says why it is drawn the way it
//! is; `style` holds the colours, fonts and number formats they share, and `canvas`
//! the drawing surface, header, legend and axes.
//!
//! The charts can be checked by counting: data marks (bars, histogram bins, heat-map
//! cells, summary bars) are the only `<rect>` elements of a chart. The bars of [`bars`]
//! are filled with [`BAR_FILL`] or [`OUTSIDE_FILL`], which nothing else uses, so
//! [`count_bars`] counts them (one per outcome, zero counts included); [`count_cells`]
//! counts a heat map's cells.

use crate::stats::Verdict;

mod bars;
mod canvas;
mod curve;
mod guessing;
mod heat_map;
mod ratios;
mod style;
mod summary;

pub use bars::bars;
pub use curve::{count_points, curve};
pub use guessing::{GuessingCurves, guessing_chart};
pub use heat_map::{count_cells, heat_map};
pub use ratios::ratio_histogram;
pub use style::{BAR_FILL, OUTSIDE_FILL, POINT_FILL, count_bars};
pub use summary::summary;

/// The two lines at the top of every chart.
#[derive(Clone, Debug, PartialEq)]
pub struct Titles {
    /// What was run, so that a chart copied alone still makes sense:
    /// `naive-swap · 3 cards · 600,000 shuffles · seed 1`.
    pub title: String,
    /// What the chart shows: `how often each order came out`.
    pub subtitle: String,
}

/// Observed counts against expected counts, one bar per outcome.
#[derive(Clone, Debug, PartialEq)]
pub struct Bars {
    pub titles: Titles,
    /// One label per bar (`1 2 3`, `{1, 4}`, `7`).
    pub labels: Vec<String>,
    /// The count each bar shows.
    pub observed: Vec<u64>,
    /// The count each bar should show.
    pub expected: Vec<f64>,
    /// The 99.9 % band of each bar (low, high): a bar outside it stands out.
    pub band: Vec<(f64, f64)>,
    /// What the bars are (`order`, `run length`).
    pub x_axis: String,
    /// What they count (`shuffles`).
    pub y_axis: String,
    /// A logarithmic count axis, for laws whose tails matter (runs, gaps).
    pub log_scale: bool,
    /// What the expected counts are, for the legend, when they are not simply "expected"
    /// (or, for an exact law, "the equal share"): `the Eulerian law of a fair deck`.
    pub reference: Option<String>,
}

/// An exact quantity between 0 and 1 at each of a few steps, joined by a line.
#[derive(Clone, Debug, PartialEq)]
pub struct Curve {
    pub titles: Titles,
    /// One label per step (`1`, `2`, … riffles).
    pub labels: Vec<String>,
    /// The value at each step, in `[0, 1]`.
    pub values: Vec<f64>,
    /// What the steps are.
    pub x_axis: String,
    /// What the values are (in the legend).
    pub y_axis: String,
    /// A level to mark with a dashed line, and what it is.
    pub reference: Option<(f64, String)>,
}

/// How many cells fell at each ratio of observed to expected, for tables too large for
/// one bar per cell.
#[derive(Clone, Debug, PartialEq)]
pub struct Ratios {
    pub titles: Titles,
    /// Each cell's observed count divided by its expected count.
    pub ratios: Vec<f64>,
    /// The 99.9 % band of a single cell's ratio (low, high).
    pub band: (f64, f64),
    /// What a cell is (`order`, `subset`).
    pub cell: String,
}

/// A table of observed against expected counts, coloured by their ratio.
#[derive(Clone, Debug, PartialEq)]
pub struct HeatMap {
    pub titles: Titles,
    /// One label per row (items).
    pub rows: Vec<String>,
    /// One label per column (positions).
    pub columns: Vec<String>,
    /// What rows and columns are (`card`, `position`).
    pub row_axis: String,
    pub column_axis: String,
    /// Row-major counts, `rows.len() × columns.len()`.
    pub observed: Vec<u64>,
    /// Row-major expected counts.
    pub expected: Vec<f64>,
    /// Row-major standard deviations of the counts under the expected law: a cell less
    /// than 3.29 of them from its expectation (inside the 99.9 % band) is muted.
    pub standard_deviation: Vec<f64>,
}

impl HeatMap {
    /// The card × position map of `matrix` (`row * n + column` counts of `trials` deals,
    /// `n = labels.len()`), each cell expecting an equal share: rows are `labels`, and
    /// so are columns (positions are numbered like the cards).
    pub fn of_positions(
        titles: Titles,
        labels: &[String],
        matrix: &[u64],
        trials: u64,
        (row_axis, column_axis): (&str, &str),
    ) -> Self {
        let n = labels.len();
        let expected = trials as f64 / n as f64;
        let deviation = (trials as f64 * (1.0 / n as f64) * (1.0 - 1.0 / n as f64)).sqrt();
        Self {
            titles,
            rows: labels.to_vec(),
            columns: labels.to_vec(),
            row_axis: row_axis.to_string(),
            column_axis: column_axis.to_string(),
            observed: matrix.to_vec(),
            expected: vec![expected; n * n],
            standard_deviation: vec![deviation; n * n],
        }
    }
}

/// One result in the summary chart.
#[derive(Clone, Debug, PartialEq)]
pub struct SummaryRow {
    /// The result's name.
    pub name: String,
    /// Its verdict, which sets the bar's colour.
    pub verdict: Verdict,
    /// −log10 of its smallest adjusted p-value (`None` when no test ran).
    pub minus_log10_p: Option<f64>,
}

/// The summary of a report: one bar per result.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    pub titles: Titles,
    pub rows: Vec<SummaryRow>,
    /// The significance level of `fail`.
    pub alpha: f64,
}

/// The two-sided 99.9 % normal quantile: a fair cell lands outside its band once in a
/// thousand.
pub const BAND_Z: f64 = 3.290_526_731_491_926;

/// The 99.9 % band of a count of `trials` events each of `probability`: the expected
/// count ± [`BAND_Z`] binomial standard deviations, clamped to `[0, trials]`.
pub fn binomial_band(trials: u64, probability: f64) -> (f64, f64) {
    let trials = trials as f64;
    let expected = trials * probability;
    let half_width = BAND_Z * (trials * probability * (1.0 - probability)).max(0.0).sqrt();
    (
        (expected - half_width).max(0.0),
        (expected + half_width).min(trials),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomial_band_is_expected_plus_minus_z_deviations() {
        // 600,000 shuffles of 3 cards: 100,000 each, deviation sqrt(600,000 · 1/6 · 5/6).
        let (low, high) = binomial_band(600_000, 1.0 / 6.0);
        let half = BAND_Z * (600_000.0_f64 / 6.0 * 5.0 / 6.0).sqrt();
        assert!((low - (100_000.0 - half)).abs() < 1e-6, "{low}");
        assert!((high - (100_000.0 + half)).abs() < 1e-6, "{high}");
        assert!((high - low - 1_899.8).abs() < 0.1, "{}", high - low);
        // Small expectations clamp at zero, certain events at the trial count.
        assert_eq!(binomial_band(10, 0.01).0, 0.0);
        assert_eq!(binomial_band(10, 1.0), (10.0, 10.0));
        assert_eq!(binomial_band(0, 0.5), (0.0, 0.0));
    }
}
