//! The CSV export: every tally of a run as one long table, for spreadsheets and data
//! frames (columns documented in README.md, "CSV output"). Samples read by `ingest` name
//! their cards and items by their tokens in the `row` column instead of numbers.
//!
//! One row per cell: `algorithm,table,row,column,count,expected`, where `table` is
//! `permutation` (row = the order, cards from 0 separated by spaces), `position`
//! (row = card, column = position), `fixed_points` or `cycles` (row = k); for samplers
//! `subset` (row = the items, sorted), `ordered` (row = the items in the order picked,
//! for samplers that promise a random order) and `inclusion` (row = item). Long format
//! keeps every table in one file with one header, and `expected` beside each count makes
//! a ratio or residual one formula away.

use std::io::Write;

use crate::run::{About, RunReport, SamplerResult};
use crate::stats::laws::{cycle_count_law, fixed_point_law};
use crate::tally::combinadic::next_subset;
use crate::tally::lehmer::{next_permutation, partial_unrank};

/// The header line.
pub const HEADER: &str = "algorithm,table,row,column,count,expected";

/// Streams every tally of the run as CSV, header first, to `out`.
pub fn write(report: &RunReport, out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(out, "{HEADER}")?;
    for result in &report.results {
        let tally = &result.tally;
        let n = tally.n;
        let trials = tally.trials as f64;
        let name = field(&result.name);
        let mut row =
            |table: &str,
             row: &dyn std::fmt::Display,
             column: &dyn std::fmt::Display,
             count: u64,
             expected: f64| { writeln!(out, "{name},{table},{row},{column},{count},{expected}") };
        if let Some(counts) = &tally.permutation_counts {
            let expected = trials / counts.len() as f64;
            let mut permutation: Vec<u16> = (0..n as u16).collect();
            for &count in counts {
                row(
                    "permutation",
                    &cells(&result.about, &permutation),
                    &"",
                    count,
                    expected,
                )?;
                next_permutation(&mut permutation);
            }
        }
        if let Some(matrix) = &tally.position_counts {
            let expected = trials / n as f64;
            for (cell, &count) in matrix.iter().enumerate() {
                row(
                    "position",
                    &cells(&result.about, &[(cell / n) as u16]),
                    &(cell % n),
                    count,
                    expected,
                )?;
            }
        }
        for (table, counts, law) in [
            (
                "fixed_points",
                &tally.fixed_point_counts,
                fixed_point_law as fn(usize) -> Vec<f64>,
            ),
            ("cycles", &tally.cycle_counts, cycle_count_law),
        ] {
            if let Some(counts) = counts {
                for (k, (&count, probability)) in counts.iter().zip(law(n)).enumerate() {
                    row(table, &k, &"", count, probability * trials)?;
                }
            }
        }
    }
    for result in &report.sampler_results {
        write_sampler(result, out)?;
    }
    Ok(())
}

/// Cards or items from 0, separated by spaces: their numbers from 0, or for ingested
/// samples their names (tokens), quoted as a CSV field when they need it.
fn cells(about: &About, cards: &[u16]) -> String {
    match about.labels {
        None => cards.iter().map(u16::to_string).collect::<Vec<_>>().join(" "),
        Some(_) => field(&about.labels_of(cards)).into_owned(),
    }
}

/// `text` as one CSV field (RFC 4180): quoted, inner quotes doubled, when it holds a
/// comma, a quote or a line break; as it is otherwise.
pub(crate) fn field(text: &str) -> std::borrow::Cow<'_, str> {
    if text.contains([',', '"', '\n', '\r']) {
        std::borrow::Cow::Owned(format!("\"{}\"", text.replace('"', "\"\"")))
    } else {
        std::borrow::Cow::Borrowed(text)
    }
}

/// A sampler's tables: `subset`, `ordered` (when tallied) and `inclusion`.
fn write_sampler(result: &SamplerResult, out: &mut dyn Write) -> std::io::Result<()> {
    let tally = &result.tally;
    let (n, k, trials) = (tally.n, tally.k, tally.trials as f64);
    let name = field(&result.name);
    let mut row = |table: &str, row: &dyn std::fmt::Display, count: u64, expected: f64| {
        writeln!(out, "{name},{table},{row},,{count},{expected}")
    };
    let items = |items: &[u16]| cells(&result.about, items);
    if let Some(counts) = &tally.subset_counts {
        let expected = trials / counts.len() as f64;
        let mut subset: Vec<u16> = (0..k as u16).collect();
        for &count in counts {
            row("subset", &items(&subset), count, expected)?;
            next_subset(&mut subset, n);
        }
    }
    if let Some(counts) = &tally.ordered_counts {
        let expected = trials / counts.len() as f64;
        let mut selection = vec![0u16; k];
        for (rank, &count) in counts.iter().enumerate() {
            partial_unrank(rank, n, &mut selection);
            row("ordered", &items(&selection), count, expected)?;
        }
    }
    let expected = trials * k as f64 / n as f64;
    for (item, &count) in tally.inclusion_counts.iter().enumerate() {
        row("inclusion", &items(&[item as u16]), count, expected)?;
    }
    Ok(())
}
