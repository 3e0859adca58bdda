//! Charts of rising sequences against the Eulerian law: of each deal, of each deal written
//! in terms of the one before (the serial tally), and of `K` riffles' exact law.
//!
//! A rising sequence is a maximal run of cards `c, c+1, c+2, …` that lie in that order in
//! the deck, not necessarily next to each other: a riffle of a fresh deck has at most 2,
//! `K` riffles at most `2^K`, and a uniform deck of 52 about 26.5 (Eulerian law,
//! [`crate::stats::eulerian`]). So the histogram shows at a glance what riffling did: its
//! bars sit to the left of the law's hump.
//!
//! The values run from 1 to `n`, but on a large deck the law's mass lies in a narrow hump
//! (52 cards: 15 to 38 hold all but a few parts in a million), while a biased shuffle may
//! pile its counts far to the left of it. So a chart shows the range holding the mass of
//! either side: from the first value that was seen or is expected at least half a time
//! to the last, the thin tails beyond folded into its end bars (labelled `≤15`, `38+`),
//! and on decks so large that the range is wider than [`MOST_RISING_BARS`], neighbouring
//! values summed into one bar (`41–43`).

use crate::stats::eulerian::rising_sequence_law;

use super::super::chart::{self, Bars, Titles};
use super::super::document::ChartFile;
use super::{chart_file, per_cell_bars};

/// The most bars a rising-sequence chart gets (52 cards never need more than 52).
pub const MOST_RISING_BARS: usize = 60;

/// What the line of every rising-sequence chart is, in its legend.
pub const EULERIAN_REFERENCE: &str = "a fair deck's (Eulerian) law";

/// A count against a law, cut to the range that holds the mass of either.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Window {
    /// One label per bar: `7`, `41–43`, `≤15`, `38+`.
    pub labels: Vec<String>,
    /// The count of each bar.
    pub observed: Vec<u64>,
    /// The law's probability of each bar.
    pub probabilities: Vec<f64>,
}

/// `observed[v]` against `law[v]` for the values `v` from `from` up (the index is the
/// value; values below `from` cannot occur), out of `total`: the range from the first
/// value seen or expected at least half a time (`law[v] · total >= 0.5`) to the last,
/// whatever lies outside folded into the end bars, in at most `most` bars (neighbouring
/// values summed when the range is wider).
pub(crate) fn mass_window(observed: &[u64], law: &[f64], from: usize, total: f64, most: usize) -> Window {
    let len = observed.len().max(law.len()).max(from + 1);
    let count = |v: usize| observed.get(v).copied().unwrap_or(0);
    let probability = |v: usize| law.get(v).copied().unwrap_or(0.0);
    let shows = |v: &usize| count(*v) > 0 || probability(*v) * total >= 0.5;
    let low = (from..len).find(shows).unwrap_or(from);
    let high = (from..len).rev().find(shows).unwrap_or(low).max(low);
    let width = (high - low + 1).div_ceil(most.max(1));
    let bins: Vec<(usize, usize)> = (low..=high)
        .step_by(width)
        .map(|first| (first, (first + width - 1).min(high)))
        .collect();
    let (below, above) = (low > from, high + 1 < len);
    let last = bins.len() - 1;
    let mut window = Window {
        labels: Vec::with_capacity(bins.len()),
        observed: Vec::with_capacity(bins.len()),
        probabilities: Vec::with_capacity(bins.len()),
    };
    for (i, &(first, end)) in bins.iter().enumerate() {
        // The end bars take the tails: values from `from` up to the first bin, and from
        // the last bin to the end.
        let start = if i == 0 { from } else { first };
        let stop = if i == last { len - 1 } else { end };
        window.observed.push((start..=stop).map(count).sum());
        window.probabilities.push((start..=stop).map(probability).sum());
        window.labels.push(match (i == 0 && below, i == last && above) {
            (true, true) => format!("{from}–{stop}"),
            (true, false) => format!("≤{end}"),
            (false, true) => format!("{first}+"),
            (false, false) if first == end => first.to_string(),
            (false, false) => format!("{first}–{end}"),
        });
    }
    window
}

/// The bars of `counts` (indexed by the number of rising sequences, `0..=n`) out of
/// `trials` deals against the Eulerian law of `n` cards.
pub(crate) fn rising_bars(titles: Titles, counts: &[u64], n: usize, trials: u64) -> Bars {
    let law = rising_sequence_law(n);
    let window = mass_window(counts, &law, 1, trials as f64, MOST_RISING_BARS);
    let mut bars = per_cell_bars(
        titles,
        window.labels,
        &window.observed,
        trials,
        |i| window.probabilities[i],
        ("rising sequences", "deals"),
    );
    bars.reference = Some(EULERIAN_REFERENCE.to_string());
    bars
}

/// The rising-sequence chart of a run's deals (`serial`: of each deal in terms of the one
/// before).
pub(crate) fn rising_chart(
    titles: &impl Fn(&str) -> Titles,
    counts: &[u64],
    n: usize,
    trials: u64,
    serial: bool,
) -> ChartFile {
    let (name, subtitle, caption) = if serial {
        (
            "serial-rising-sequences",
            "rising sequences of each deal in terms of the deal before, against the Eulerian law",
            "The rising sequences of each deal written in terms of the deal before (what was done \
             to the previous deck), against the law of a fair deck: a dealer who riffles the last \
             hand piles them far to the left",
        )
    } else {
        (
            "rising-sequences",
            "number of rising sequences of each deal, against the exact (Eulerian) law",
            "The rising sequences of each deal (runs of cards c, c+1, … in order), against the law \
             of a fair deck",
        )
    };
    chart_file(
        name,
        caption.to_string(),
        chart::bars(&rising_bars(titles(subtitle), counts, n, trials)),
    )
}

/// How many deals per this many an exact law's bars show.
pub const EXACT_DEALS: f64 = 1e6;

/// The bars of an exact law of rising sequences (`law[r]`, `r` in `0..=n`) against the
/// Eulerian law, as deals per million: no noise, so no band.
pub(crate) fn exact_rising_bars(titles: Titles, law: &[f64], n: usize) -> Bars {
    let eulerian = rising_sequence_law(n);
    let per_million: Vec<u64> = law.iter().map(|&p| (p * EXACT_DEALS).round() as u64).collect();
    let window = mass_window(&per_million, &eulerian, 1, EXACT_DEALS, MOST_RISING_BARS);
    let expected: Vec<f64> = window.probabilities.iter().map(|p| p * EXACT_DEALS).collect();
    Bars {
        titles,
        labels: window.labels,
        observed: window.observed,
        band: expected.iter().map(|&e| (e, e)).collect(),
        expected,
        x_axis: "rising sequences".to_string(),
        y_axis: "deals per million".to_string(),
        log_scale: false,
        reference: Some(EULERIAN_REFERENCE.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_holds_the_mass_and_folds_the_tails() {
        // Values 0..=9 (0 impossible); the law lives on 3..=6, one count was seen at 1.
        let law = [0.0, 1e-9, 1e-6, 0.2, 0.3, 0.3, 0.2, 1e-6, 1e-9, 1e-12];
        let mut observed = [0, 1, 0, 20, 30, 30, 19, 0, 0, 0];
        let window = mass_window(&observed, &law, 1, 100.0, 60);
        assert_eq!(window.labels, ["1", "2", "3", "4", "5", "6+"]);
        assert_eq!(window.observed, [1, 0, 20, 30, 30, 19]);
        // The last bar holds the upper tail's probability too.
        assert!((window.probabilities[5] - (0.2 + 1e-6 + 1e-9 + 1e-12)).abs() < 1e-15);
        // Nothing seen below the hump: the lower tail folds into "≤3".
        observed[1] = 0;
        let window = mass_window(&observed, &law, 1, 100.0, 60);
        assert_eq!(window.labels, ["≤3", "4", "5", "6+"]);
        assert!((window.probabilities[0] - (1e-9 + 1e-6 + 0.2)).abs() < 1e-15);
        assert_eq!(window.observed.iter().sum::<u64>(), 99);
        // Too wide for the bars allowed: neighbours are summed, two to a bar.
        let window = mass_window(&observed, &law, 1, 100.0, 2);
        assert_eq!(window.labels, ["≤4", "5+"]);
        assert_eq!(window.observed, [50, 49]);
        let total: f64 = window.probabilities.iter().sum();
        assert!((total - law.iter().sum::<f64>()).abs() < 1e-15, "no mass is lost");
    }

    #[test]
    fn rising_bars_of_a_riffled_deck_sit_left_of_the_hump() {
        // 1,000 deals of 52 cards, every one with 2 rising sequences (one riffle): the
        // chart runs from 2 (the impossible-for-a-fair-deck 1, never seen, folded into its
        // first bar) to the end of the law's hump, and the one full bar is red.
        let mut counts = vec![0u64; 53];
        counts[2] = 1_000;
        let bars = rising_bars(
            Titles {
                title: "t".to_string(),
                subtitle: "s".to_string(),
            },
            &counts,
            52,
            1_000,
        );
        assert_eq!(bars.labels[0], "≤2");
        assert_eq!(bars.labels[1], "3");
        assert_eq!(bars.observed[0], 1_000);
        assert!(bars.observed[0] as f64 > bars.band[0].1, "far outside its band");
        // The law's hump (about 26.5 rising sequences) is inside the window.
        let hump = bars.labels.iter().position(|label| label == "26").unwrap();
        assert!(bars.expected[hump] > 50.0, "{}", bars.expected[hump]);
        assert!(bars.labels.last().unwrap().ends_with('+'));
        assert_eq!(bars.reference.as_deref(), Some(EULERIAN_REFERENCE));
    }
}
