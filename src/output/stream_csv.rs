//! The CSV export of a `stream` run: every tally as one long table with the same columns
//! as `run`'s, `generator,table,row,column,count,expected` (documented in README.md).
//!
//! Tables: `frequency` (row = item), `run_length` and `gap` (row = length, column = item,
//! or empty for all items together, with the law's expected count where one is known;
//! the last law row holds that value or more; no item has an empty name), and
//! `cycle_position` (row = the first and last position of a bin, `0-13`, column = item).
//! Item names cannot hold commas or white space (`--items` refuses them); a name with a
//! quote is quoted.

use std::io::Write;

use crate::stream::StreamReport;
use crate::tally::stream::Histogram;

/// The header line.
pub const HEADER: &str = "generator,table,row,column,count,expected";

/// Streams every tally of the run as CSV, header first, to `out`.
pub fn write(report: &StreamReport, out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(out, "{HEADER}")?;
    let items = &report.settings.items;
    let names: Vec<String> = items.names.iter().map(|name| field(name)).collect();
    let probabilities = items.probabilities();
    for result in &report.results {
        let tally = &result.tally;
        let generator = field(&result.name);
        let draws = tally.draws() as f64;
        for item in 0..items.len() {
            writeln!(
                out,
                "{generator},frequency,{},,{},{}",
                names[item],
                tally.frequencies[item],
                probabilities[item] * draws
            )?;
        }
        for (table, histograms, law) in [
            ("run_length", &tally.runs, &result.analysis.run_law),
            ("gap", &tally.gaps, &result.analysis.gap_law),
        ] {
            let mut all = Histogram::default();
            for (item, histogram) in histograms.iter().enumerate() {
                all.merge(histogram);
                for (value, count) in histogram.iter() {
                    writeln!(out, "{generator},{table},{value},{},{count},", names[item])?;
                }
            }
            match law {
                Some(law) => {
                    let total = all.total() as f64;
                    for (value, count) in all.folded(law.len()).iter().enumerate() {
                        writeln!(
                            out,
                            "{generator},{table},{},,{count},{}",
                            value + 1,
                            law[value] * total
                        )?;
                    }
                }
                None => {
                    for (value, count) in all.iter() {
                        writeln!(out, "{generator},{table},{value},,{count},")?;
                    }
                }
            }
        }
        if let (Some(table), Some(cycle)) = (&tally.cycle_positions, &tally.cycle) {
            for (bin, counts) in table.chunks(items.len()).enumerate() {
                let rows: u64 = counts.iter().sum();
                let row = format!("{}-{}", cycle.bounds[bin], cycle.bounds[bin + 1] - 1);
                for (item, &count) in counts.iter().enumerate() {
                    let column_total: u64 = table.iter().skip(item).step_by(items.len()).sum();
                    let total: u64 = table.iter().sum();
                    let expected = rows as f64 * column_total as f64 / total.max(1) as f64;
                    writeln!(
                        out,
                        "{generator},cycle_position,{row},{},{count},{expected}",
                        names[item]
                    )?;
                }
            }
        }
    }
    Ok(())
}

/// A CSV field, quoted when it holds a quote, a comma or a line break (as `run`'s CSV).
fn field(text: &str) -> String {
    super::csv::field(text).into_owned()
}
