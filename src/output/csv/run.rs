//! The CSV export: every tally of a run as one long table, for spreadsheets and data
//! frames (columns documented in README.md, "CSV output"). Samples read by `ingest` name
//! their cards and items by their tokens in the `row` column instead of numbers.
//!
//! One row per cell: `algorithm,table,row,column,count,expected`, where `table` is
//! `permutation` (row = the order, cards from 0 separated by spaces), `position`
//! (row = card, column = position), `fixed_points`, `cycles` or `rising_sequences`
//! (row = k); the same five prefixed `serial_` for each deal in terms of the one before,
//! where deals were tallied in order, `repeats` (the count of decks dealt before), and
//! `guessing` (row = position from 1, column = the strategy played: right guesses of the
//! card-guessing game there, against a fair shuffle's);
//! for samplers `subset` (row = the items, sorted), `ordered` (row = the items in the
//! order picked, for samplers that promise a random order), `serial_overlap` (row = items
//! shared by consecutive selections) and `inclusion` (row = item). Long format
//! keeps every table in one file with one header, and `expected` beside each count makes
//! a ratio or residual one formula away. Each result ends with its `verdict` row (row =
//! the verdict, column = the verdict it should get), the same verdict as everywhere else.
//! The shape, quoting and spreadsheet safety are `long_table.rs`'s.

use std::io::Write;

use super::long_table::LongTable;
use crate::run::{About, RunReport, SamplerResult};
use crate::stats::eulerian::rising_sequence_law;
use crate::stats::laws::{cycle_count_law, fixed_point_law, overlap_law};
use crate::tally::PermutationTally;
use crate::tally::combinadic::next_subset;
use crate::tally::lehmer::{next_permutation, partial_unrank};

/// The header line.
pub const HEADER: &str = "algorithm,table,row,column,count,expected";

/// Streams every tally of the run as CSV, header first, to `out`.
pub fn write(report: &RunReport, out: &mut dyn Write) -> std::io::Result<()> {
    let mut out = out;
    let mut table = LongTable::new(&mut out, "algorithm")?;
    let graded = report.graded();
    for (result, graded) in report.results.iter().zip(&graded) {
        let name = result.name.as_str();
        write_deals(&mut table, name, &result.about, &result.tally, "")?;
        if let Some(serial) = &result.tally.serial {
            // Each deal in terms of the one before: rows are places, not cards, so they are
            // numbered whatever the cards' names.
            write_deals(&mut table, name, &About::numbered(), serial, "serial_")?;
        }
        if let Some(repeats) = &result.analysis.repeats {
            table.row(
                name,
                "repeats",
                "",
                "",
                Some(repeats.test.repeats),
                Some(repeats.test.expected),
            )?;
        }
        if let Some(game) = &result.analysis.guessing {
            // The guessing game: right guesses at each position of the played deals,
            // against a fair shuffle's `deals / (n − position)`; column = the strategy.
            for (place, &hits) in game.by_position.iter().enumerate() {
                table.row(
                    name,
                    "guessing",
                    place + 1,
                    game.strategy.name(),
                    Some(hits),
                    Some(game.deals as f64 / (game.n - place) as f64),
                )?;
            }
        }
        table.verdict(graded)?;
    }
    for (result, graded) in report.sampler_results.iter().zip(&graded[report.results.len()..]) {
        write_sampler(result, &mut table)?;
        table.verdict(graded)?;
    }
    table.finish()
}

/// The tables of one tally of deals, each table's name after `prefix` (`serial_` for the
/// deals in terms of the ones before): `permutation`, `position`, `fixed_points`,
/// `cycles`, `rising_sequences`.
fn write_deals(
    table: &mut LongTable,
    name: &str,
    about: &About,
    tally: &PermutationTally,
    prefix: &str,
) -> std::io::Result<()> {
    let n = tally.n;
    let trials = tally.trials as f64;
    let kind = |table: &str| format!("{prefix}{table}");
    if let Some(counts) = &tally.permutation_counts {
        let expected = trials / counts.len() as f64;
        let mut permutation: Vec<u16> = (0..n as u16).collect();
        for &count in counts {
            table.row(
                name,
                &kind("permutation"),
                cells(about, &permutation),
                "",
                Some(count),
                Some(expected),
            )?;
            next_permutation(&mut permutation);
        }
    }
    if let Some(matrix) = &tally.position_counts {
        let expected = trials / n as f64;
        for (cell, &count) in matrix.iter().enumerate() {
            table.row(
                name,
                &kind("position"),
                cells(about, &[(cell / n) as u16]),
                cell % n,
                Some(count),
                Some(expected),
            )?;
        }
    }
    for (table_name, counts, law) in [
        (
            "fixed_points",
            &tally.fixed_point_counts,
            fixed_point_law as fn(usize) -> Vec<f64>,
        ),
        ("cycles", &tally.cycle_counts, cycle_count_law),
        (
            "rising_sequences",
            &tally.rising_sequence_counts,
            rising_sequence_law,
        ),
    ] {
        if let Some(counts) = counts {
            for (k, (&count, probability)) in counts.iter().zip(law(n)).enumerate() {
                table.row(
                    name,
                    &kind(table_name),
                    k,
                    "",
                    Some(count),
                    Some(probability * trials),
                )?;
            }
        }
    }
    Ok(())
}

/// Cards or items from 0, separated by spaces: their numbers from 0, or for ingested
/// samples their names (tokens).
fn cells(about: &About, cards: &[u16]) -> String {
    match about.labels {
        None => cards.iter().map(u16::to_string).collect::<Vec<_>>().join(" "),
        Some(_) => about.labels_of(cards),
    }
}

/// A sampler's tables: `subset`, `ordered` (when tallied) and `inclusion`.
fn write_sampler(result: &SamplerResult, table: &mut LongTable) -> std::io::Result<()> {
    let tally = &result.tally;
    let (n, k, trials) = (tally.n, tally.k, tally.trials as f64);
    let name = result.name.as_str();
    let items = |items: &[u16]| cells(&result.about, items);
    if let Some(counts) = &tally.subset_counts {
        let expected = trials / counts.len() as f64;
        let mut subset: Vec<u16> = (0..k as u16).collect();
        for &count in counts {
            table.row(name, "subset", items(&subset), "", Some(count), Some(expected))?;
            next_subset(&mut subset, n);
        }
    }
    if let Some(counts) = &tally.ordered_counts {
        let expected = trials / counts.len() as f64;
        let mut selection = vec![0u16; k];
        for (rank, &count) in counts.iter().enumerate() {
            partial_unrank(rank, n, &mut selection);
            table.row(
                name,
                "ordered",
                items(&selection),
                "",
                Some(count),
                Some(expected),
            )?;
        }
    }
    if let Some(counts) = &tally.overlap_counts {
        // Pairs of consecutive selections, by how many items they share.
        let pairs = counts.iter().sum::<u64>() as f64;
        for (shared, (&count, probability)) in counts.iter().zip(overlap_law(n, k)).enumerate() {
            table.row(
                name,
                "serial_overlap",
                shared,
                "",
                Some(count),
                Some(probability * pairs),
            )?;
        }
    }
    let expected = trials * k as f64 / n as f64;
    for (item, &count) in tally.inclusion_counts.iter().enumerate() {
        table.row(
            name,
            "inclusion",
            items(&[item as u16]),
            "",
            Some(count),
            Some(expected),
        )?;
    }
    Ok(())
}
