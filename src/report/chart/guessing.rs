//! The card-guessing game along the deck: how many cards a player has named after each
//! card turned up, on average per deal, for the strategy learned from the studied deals
//! (a solid line) against what any strategy names from a fair shuffle (grey:
//! `1/n + 1/(n−1) + …`, the last card always named). Where the solid line climbs
//! away from the grey one, the flaw is worth something to a player.

use super::Titles;
use super::canvas::{
    AXIS_FONT, CENTER_TOP, Canvas, Drawn, Header, Legend, PLOT_CHART_WIDTH, Swatch, plot_under_legend,
};
use super::style::{MARGIN, OUTSIDE, SOFT_INK, tick_number};

/// The game's two curves.
#[derive(Clone, Debug, PartialEq)]
pub struct GuessingCurves {
    pub titles: Titles,
    /// Mean right guesses per deal after each card, for the strategy played.
    pub learned: Vec<f64>,
    /// The same for a fair shuffle.
    pub fair: Vec<f64>,
    /// What the learned line is (`strategy carried-rising-sequence, 8,192 deals`).
    pub learned_label: String,
}

impl GuessingCurves {
    /// The curves of `by_position` right guesses over `deals` deals of `n` cards.
    pub fn new(titles: Titles, by_position: &[u64], deals: u64, learned_label: String) -> Self {
        let n = by_position.len();
        let cumulative = |values: &mut dyn Iterator<Item = f64>| -> Vec<f64> {
            values
                .scan(0.0, |sum, value| {
                    *sum += value;
                    Some(*sum)
                })
                .collect()
        };
        Self {
            titles,
            learned: cumulative(&mut by_position.iter().map(|&hits| hits as f64 / deals.max(1) as f64)),
            fair: cumulative(&mut (0..n).map(|place| 1.0 / (n - place) as f64)),
            learned_label,
        }
    }
}

/// The chart, as SVG.
pub fn guessing_chart(curves: &GuessingCurves) -> String {
    let header = Header::new(&curves.titles, PLOT_CHART_WIDTH);
    let legend = Legend::new(
        vec![
            (Swatch::Line(OUTSIDE), curves.learned_label.clone()),
            (
                Swatch::Line(SOFT_INK),
                "a fair shuffle, whatever the strategy".to_string(),
            ),
        ],
        PLOT_CHART_WIDTH - 2 * MARGIN,
    );
    plot_under_legend(&header, &legend, |canvas, plot, height| {
        draw(canvas, curves, plot, height)
    })
}

/// A round step that cuts `0..top` into at most about eight parts.
fn step(top: f64) -> f64 {
    let raw = (top / 8.0).max(1e-9);
    let power = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * power)
        .find(|&s| s >= raw)
        .unwrap_or(10.0 * power)
}

/// A tick's value as short as it writes exactly: `0`, `0.5`, `0.6` (not the
/// `0.6000000000000001` that `3 × 0.2` makes).
fn tick_label(value: f64, step: f64) -> String {
    let text = tick_number(value, step);
    match text.contains('.') {
        true => text.trim_end_matches('0').trim_end_matches('.').to_string(),
        false => text,
    }
}

fn draw(canvas: &Canvas<'_>, curves: &GuessingCurves, plot: super::canvas::Area, height: i32) -> Drawn {
    let n = curves.fair.len().max(1);
    let highest = curves
        .learned
        .iter()
        .chain(&curves.fair)
        .copied()
        .fold(1.0f64, f64::max);
    let y_step = step(highest);
    let top = (highest / y_step).ceil() * y_step;
    let y = |value: f64| plot.bottom() - (value / top * f64::from(plot.height)).round() as i32;
    let x =
        |place: usize| plot.left + ((place as f64 + 0.5) / n as f64 * f64::from(plot.width)).round() as i32;
    let y_ticks: Vec<(i32, String)> = (0..=((top / y_step).round() as i32))
        .map(|tick| {
            let value = f64::from(tick) * y_step;
            (y(value), tick_label(value, y_step))
        })
        .collect();
    canvas.y_ticks(plot, &y_ticks)?;
    let line = |values: &[f64]| -> Vec<(i32, i32)> {
        values
            .iter()
            .enumerate()
            .map(|(place, &v)| (x(place), y(v)))
            .collect()
    };
    canvas.line(line(&curves.fair), SOFT_INK, 2)?;
    canvas.line(line(&curves.learned), OUTSIDE, 3)?;
    canvas.axes(plot)?;
    let x_step = step(n as f64).max(1.0) as usize;
    let x_ticks: Vec<(i32, String)> = (1..=n)
        .filter(|&card| card == 1 || card % x_step == 0)
        .map(|card| (x(card - 1), card.to_string()))
        .collect();
    canvas.x_ticks(plot, &x_ticks)?;
    let centre = (plot.left + plot.right()) / 2;
    canvas.text(
        "cards turned up",
        (centre, height - MARGIN - 16),
        AXIS_FONT,
        CENTER_TOP,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_written_without_rounding_noise() {
        // 2 cards: a fair player names 1.5 cards, so the axis runs to 1.6 in steps of
        // 0.2, and 3 × 0.2 is 0.6000000000000001 in floating point.
        let curves = GuessingCurves::new(
            Titles {
                title: "naive-swap · 2 cards".to_string(),
                subtitle: "cards named".to_string(),
            },
            &[500, 1000],
            1000,
            "strategy position".to_string(),
        );
        let svg = guessing_chart(&curves);
        assert!(svg.contains("\n0.6\n") && svg.contains("\n1.2\n"), "{svg}");
        assert!(!svg.contains("0000000"), "{svg}");
        assert_eq!(tick_label(0.0, 0.5), "0");
        assert_eq!(tick_label(1.5, 0.5), "1.5");
        assert_eq!(tick_label(20.0, 5.0), "20");
    }
}
