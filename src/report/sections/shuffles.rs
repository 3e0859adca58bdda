//! The section of one shuffle: its tests and the charts that show where its bias lies.
//!
//! - Orders: one bar per order up to 6 cards (720 bars); 7 to 10 cards have too many
//!   orders for bars, so a histogram of their count/expected ratios takes their place.
//! - The card × position heat map, for every deck size.
//! - From 7 cards, the two slices of that map a reader asks about first: where card 1
//!   ends up (text 004's "histogram the position of the first card") and which card
//!   lands on top. They can disagree: under the naive swap card 1 lands everywhere
//!   equally often, while the top position favours card 2.
//! - Fixed points and cycles against their exact laws, which catch the single-cycle
//!   shuffles (Sattolo) that a position map cannot, and rising sequences against the
//!   Eulerian law, which catch riffles that leave runs of cards in order.
//! - When deals were tallied in order: the same map and rising sequences for each deal
//!   written in terms of the one before ([`super::serial`]); the repeated decks are a row
//!   of the tests and, when decks repeated, a sentence of the findings.

use crate::format::group_thousands;
use crate::output::text::result::FAIR_SHUFFLE;
use crate::output::text::run::render_findings;
use crate::run::{About, AlgorithmResult, Predictability, RunReport};
use crate::stats::laws::{cycle_count_law, fixed_point_law};
use crate::tally::lehmer::unrank;

use super::super::chart::{self, HeatMap};
use super::super::document::ResultSection;
use super::rising::rising_chart;
use super::serial::serial_charts;
use super::{
    TABLE_BARS_UP_TO, UniformTable, chart_file, findings, law_bars, test_rows, titled, uniform_bars,
    uniform_table_chart,
};

/// Decks from this size get the card-1 and top-position charts: their orders are too
/// many for bars (7! > [`TABLE_BARS_UP_TO`](super::TABLE_BARS_UP_TO)).
pub const SLICES_FROM_N: usize = 7;

/// The section of `result`, a shuffle of `report`.
pub fn shuffle_section(report: &RunReport, result: &AlgorithmResult) -> ResultSection {
    section(report, result, true)
}

/// The section of `result` with only the charts a glance needs, each drawn as in the
/// report: a bar per order up to 6 cards, the card × position heat map and the
/// fixed-point and cycle bars (the live page redraws them several times a second; the
/// orders chart of a 10-card deck alone takes most of a second).
pub fn glance_section(report: &RunReport, result: &AlgorithmResult) -> ResultSection {
    section(report, result, false)
}

/// The section, with every chart (`everything`) or only the glance's.
fn section(report: &RunReport, result: &AlgorithmResult, everything: bool) -> ResultSection {
    let tally = &result.tally;
    let (n, trials) = (tally.n, tally.trials);
    let title = format!(
        "{} · {n} cards · {} shuffles · {}",
        result.name,
        group_thousands(trials),
        super::seed_or_source(report, "\u{a0}")
    );
    let titles = titled(title);
    let mut charts = Vec::new();
    if let Some(counts) = &tally.permutation_counts
        && (everything || counts.len() <= TABLE_BARS_UP_TO)
    {
        let table = UniformTable {
            noun: "order",
            described: format!("the {n}! orders"),
            subtitle: "how often each order came out (cards 1..n from the top)",
            unit: "shuffles",
        };
        charts.push(uniform_table_chart(&table, &titles, counts, trials, |rank| {
            order_label(rank, n, &result.about)
        }));
    }
    if let Some(matrix) = &tally.position_counts {
        let labels: Vec<String> = (0..n).map(|card| result.about.label(card)).collect();
        charts.push(chart_file(
            "positions",
            "Where each card ended up: red cells hold their card more often than chance, blue less"
                .to_string(),
            chart::heat_map(&HeatMap::of_positions(
                titles("card × position: observed / expected (grey: within the 99.9 % band)"),
                &labels,
                matrix,
                trials,
                ("card (starting position)", "position after the shuffle"),
            )),
        ));
        if everything && n >= SLICES_FROM_N {
            let card_one: Vec<u64> = matrix[..n].to_vec();
            let top: Vec<u64> = (0..n).map(|card| matrix[card * n]).collect();
            charts.push(chart_file(
                "card-1",
                "Where card 1 ended up: one bar per position".to_string(),
                chart::bars(&uniform_bars(
                    titles("where card 1 (the top card before the shuffle) ended up"),
                    labels.clone(),
                    &card_one,
                    trials,
                    ("position after the shuffle", "shuffles"),
                )),
            ));
            charts.push(chart_file(
                "top-card",
                "Which card landed on top: one bar per card".to_string(),
                chart::bars(&uniform_bars(
                    titles("which card ended on top (position 1)"),
                    labels,
                    &top,
                    trials,
                    ("card (starting position)", "shuffles"),
                )),
            ));
        }
    }
    if let Some(counts) = &tally.fixed_point_counts {
        charts.push(chart_file(
            "fixed-points",
            "Cards left where they started, against the exact law of a uniform shuffle".to_string(),
            chart::bars(&law_bars(
                titles("cards left in place, against the exact (rencontres) law"),
                0,
                counts,
                &fixed_point_law(n),
                trials,
                ("cards left in place", "shuffles"),
                false,
            )),
        ));
    }
    if let Some(counts) = &tally.cycle_counts {
        charts.push(chart_file(
            "cycles",
            "The number of cycles of each shuffled deck, against the exact law of a uniform shuffle"
                .to_string(),
            chart::bars(&law_bars(
                titles("number of cycles, against the exact (Stirling) law"),
                1,
                &counts[1..],
                &cycle_count_law(n)[1..],
                trials,
                ("cycles", "shuffles"),
                false,
            )),
        ));
    }
    if everything && let Some(counts) = &tally.rising_sequence_counts {
        charts.push(rising_chart(&titles, counts, n, trials, false));
    }
    if everything && let Some(serial) = &tally.serial {
        charts.extend(serial_charts(&titles, serial));
    }
    if everything && let Some(game) = &result.analysis.guessing {
        charts.push(chart_file(
            "guessing",
            format!(
                "The card-guessing game: {}. The red line climbs away from the grey one where the flaw \
                 is worth something to a player",
                game.sentence()
            ),
            chart::guessing_chart(&chart::GuessingCurves::new(
                titles("right guesses so far, per deal, as the cards are turned up"),
                &game.by_position,
                game.deals,
                format!(
                    "strategy {}, learned on {} deals, played on {}",
                    game.strategy.name(),
                    group_thousands(game.training_deals),
                    group_thousands(game.deals)
                ),
            )),
        ));
    }
    ResultSection {
        name: result.name.clone(),
        id: String::new(),
        verdict: result.analysis.verdict,
        expected: result.expected,
        tested_against: report.input.is_some().then_some(FAIR_SHUFFLE),
        summary: result.about.summary.to_string(),
        origin: result.about.origin.to_string(),
        // The repeats are a row of the tests, and a sentence in the findings when decks
        // repeated. Whether ingested deals give their generator away is no test's: it
        // leads the section.
        notes: report
            .input
            .as_ref()
            .and_then(|input| input.predictability.as_ref())
            .map(predictability_notes)
            .unwrap_or_default(),
        tests: test_rows(&result.analysis.tests, report.settings.alpha, "shuffles"),
        smallest_p: result.analysis.smallest_p_adjusted(),
        total_variation: result.analysis.total_variation.map(|tv| tv.distance),
        findings: findings(|out| render_findings(out, result)),
        charts,
    }
}

/// What the recoveries of `ingest` found: the finding with its evidence, when one is
/// predictable, then what was tried.
fn predictability_notes(predictability: &Predictability) -> Vec<String> {
    let mut notes: Vec<String> = predictability
        .found
        .iter()
        .map(|found| {
            let sentence = found.sentence();
            let sentence = sentence.strip_prefix("predictable").unwrap_or(&sentence);
            format!("PREDICTABLE{sentence}. {}", found.evidence())
        })
        .collect();
    notes.extend(
        predictability
            .lines()
            .into_iter()
            .map(|line| line.trim_start().to_string()),
    );
    notes
}

/// The order of Lehmer rank `rank`, cards from 1 (or by their names): `1 3 2`.
fn order_label(rank: usize, n: usize, about: &About) -> String {
    let mut order = vec![0u16; n];
    unrank(rank, &mut order);
    about.labels_of(&order)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_are_labelled_from_1_in_lexicographic_order() {
        let numbered = About::of(&crate::catalogue::SHUFFLES[0]);
        assert_eq!(order_label(0, 3, &numbered), "1 2 3");
        assert_eq!(order_label(5, 3, &numbered), "3 2 1");
        assert_eq!(order_label(1, 4, &numbered), "1 2 4 3");
    }
}
