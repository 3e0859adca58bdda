//! The CSV export of a `stream` run: every tally as one long table with the same columns
//! as `run`'s, `generator,table,row,column,count,expected` (documented in README.md).
//!
//! Tables: `frequency` (row = item), `run_length` and `gap` (row = length, column = item,
//! or empty for all items together, with the law's expected count where one is known;
//! the last law row holds that value or more; no item has an empty name), and
//! `cycle_position` (row = the first and last position of a bin, `0-13`, column = item).
//! Each generator ends with its `verdict` row (row = the verdict, column = the verdict it
//! should get). Quoting and spreadsheet safety are `long_table.rs`'s.

use std::io::Write;

use super::long_table::LongTable;
use crate::stream::StreamReport;
use crate::tally::stream::Histogram;

/// The header line.
pub const HEADER: &str = "generator,table,row,column,count,expected";

/// Streams every tally of the run as CSV, header first, to `out`.
pub fn write(report: &StreamReport, out: &mut dyn Write) -> std::io::Result<()> {
    let mut out = out;
    let mut table = LongTable::new(&mut out, "generator")?;
    let items = &report.settings.items;
    let names = &items.names;
    let probabilities = items.probabilities();
    for (result, graded) in report.results.iter().zip(report.graded()) {
        let tally = &result.tally;
        let generator = result.name.as_str();
        let draws = tally.draws() as f64;
        for item in 0..items.len() {
            table.row(
                generator,
                "frequency",
                &names[item],
                "",
                Some(tally.frequencies[item]),
                Some(probabilities[item] * draws),
            )?;
        }
        for (kind, histograms, law) in [
            ("run_length", &tally.runs, &result.analysis.run_law),
            ("gap", &tally.gaps, &result.analysis.gap_law),
        ] {
            let mut all = Histogram::default();
            for (item, histogram) in histograms.iter().enumerate() {
                all.merge(histogram);
                for (value, count) in histogram.iter() {
                    table.row(generator, kind, value, &names[item], Some(count), None)?;
                }
            }
            match law {
                Some(law) => {
                    let total = all.total() as f64;
                    for (value, count) in all.folded(law.len()).iter().enumerate() {
                        table.row(
                            generator,
                            kind,
                            value + 1,
                            "",
                            Some(*count),
                            Some(law[value] * total),
                        )?;
                    }
                }
                None => {
                    for (value, count) in all.iter() {
                        table.row(generator, kind, value, "", Some(count), None)?;
                    }
                }
            }
        }
        if let (Some(positions), Some(cycle)) = (&tally.cycle_positions, &tally.cycle) {
            for (bin, counts) in positions.chunks(items.len()).enumerate() {
                let rows: u64 = counts.iter().sum();
                let row = format!("{}-{}", cycle.bounds[bin], cycle.bounds[bin + 1] - 1);
                for (item, &count) in counts.iter().enumerate() {
                    let column_total: u64 = positions.iter().skip(item).step_by(items.len()).sum();
                    let total: u64 = positions.iter().sum();
                    let expected = rows as f64 * column_total as f64 / total.max(1) as f64;
                    table.row(
                        generator,
                        "cycle_position",
                        &row,
                        &names[item],
                        Some(count),
                        Some(expected),
                    )?;
                }
            }
        }
        table.verdict(&graded)?;
    }
    table.finish()
}
