//! What consecutive deals show together, in a result's section: the serial charts (the
//! repeated decks are a sentence, [`crate::output::text::run::repeats_sentence`]).
//!
//! Deals tallied in order ([`crate::tally::PermutationTally::serial`]) are also tallied
//! as relative permutations: each deal written in terms of the one before, which is the
//! shuffle a dealer applied to the previous deck. Its card × position map shows how each
//! card moves from its place in the previous deal to its place in this one (a dealer who
//! riffles three times leaves a red band along the diagonal: cards stay near their old
//! places), and its rising sequences sit far left of the Eulerian hump. Repeated decks
//! are one number, told in a sentence with what a fair shuffle gives and, when decks did
//! repeat, how many different decks the program seems able to deal.

use crate::tally::PermutationTally;

use super::super::chart::{self, HeatMap, Titles};
use super::super::document::ChartFile;
use super::chart_file;
use super::rising::rising_chart;

/// The charts of the deals in terms of the ones before: the card × position map and the
/// rising sequences.
pub(crate) fn serial_charts(titles: &impl Fn(&str) -> Titles, serial: &PermutationTally) -> Vec<ChartFile> {
    let (n, pairs) = (serial.n, serial.trials);
    let mut charts = Vec::new();
    if let Some(matrix) = &serial.position_counts {
        // Rows are places in the previous deal, not cards: numbered, whatever the cards' names.
        let places: Vec<String> = (1..=n).map(|place| place.to_string()).collect();
        charts.push(chart_file(
            "serial-positions",
            "How each card moved from its place in the deal before to its place in this one: red \
             cells are moves made more often than chance, blue less"
                .to_string(),
            chart::heat_map(&HeatMap::of_positions(
                titles(
                    "each deal in terms of the one before: place before × place after, observed / \
                     expected (grey: within the 99.9 % band)",
                ),
                &places,
                matrix,
                pairs,
                ("place in the deal before", "place in this deal"),
            )),
        ));
    }
    if let Some(counts) = &serial.rising_sequence_counts {
        charts.push(rising_chart(titles, counts, n, pairs, true));
    }
    charts
}
