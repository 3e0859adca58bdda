//! The terminal report of `shuffle-audit stream`.
//!
//! Per generator: the verdict beside what it is known to be (or what
//! samples read with `ingest` were tested against), the bag it deals from, each
//! test with its p-values, the hard bounds and whether they held, a table of items
//! (weight, expected and observed draws, longest run, longest gap), the run-length and
//! gap distributions against theory where theory is known, and how far windows of one bag
//! length strayed. A closing summary gives each generator's longest run and longest gap,
//! which is what text 000's claim ("up to 100 times in a row") is about.

use std::fmt::Write;

use super::result::{Benchmark, INDEPENDENT_DRAWS, render_heading, render_input_details, render_tests};
use crate::format::{compact, format_expected_column, format_probability, group_thousands, shell_word};
use crate::run::SeedOrigin;
use crate::stats::PValue;
use crate::stats::verdict::DEFAULT_ALPHA;
use crate::stream::{StreamReport, StreamResult};
use crate::tally::stream::Histogram;

/// Rows of a distribution table before the rest is summed into one.
const DISTRIBUTION_ROWS: usize = 14;

/// The whole report.
pub fn render(report: &StreamReport) -> String {
    let mut out = String::new();
    let settings = &report.settings;
    let seed_note = match report.seed_origin {
        SeedOrigin::Given => "",
        SeedOrigin::OperatingSystem => " (from the OS)",
    };
    match &report.input {
        None => writeln!(
            out,
            "shuffle-audit {} stream: {} x {} per generator, seed {}{seed_note}, {} thread{}, alpha {}",
            env!("CARGO_PKG_VERSION"),
            plural(settings.streams, "stream"),
            plural(settings.length, "draw"),
            report.seed,
            report.threads,
            if report.threads == 1 { "" } else { "s" },
            format_probability(settings.alpha),
        ),
        Some(input) => writeln!(
            out,
            "shuffle-audit {} ingest: a stream of {} read from {} ({}), {} thread{}, alpha {}",
            env!("CARGO_PKG_VERSION"),
            plural(settings.length, "item"),
            input.source,
            plural(input.lines, "line"),
            report.threads,
            if report.threads == 1 { "" } else { "s" },
            format_probability(settings.alpha),
        ),
    }
    .unwrap();
    let items = &settings.items;
    let weights: Vec<String> = (0..items.len())
        .map(|i| format!("{}:{}", items.names[i], items.weight_text(i)))
        .collect();
    writeln!(out, "items: {}", abbreviated(&weights, 30)).unwrap();
    if let Some(line) = report
        .input
        .is_none()
        .then(|| settings.source.report_line())
        .flatten()
    {
        writeln!(out, "{line}").unwrap();
    }
    if let Some(input) = &report.input {
        render_input_details(&mut out, input, "items", &report.notes);
    }
    if let Some(every) = settings.scenario.add_every {
        writeln!(
            out,
            "scenario: bags with a cursor get one more copy of every item by weight after every {}",
            plural(every, "draw")
        )
        .unwrap();
    }
    for result in &report.results {
        out.push('\n');
        render_result(&mut out, report, result);
    }
    out.push('\n');
    render_summary(&mut out, report);
    let draws = settings.length * settings.streams * report.results.len() as u64;
    let (unit, done) = match report.input {
        None => ("draws", "in"),
        Some(_) => ("items", "read and tested in"),
    };
    writeln!(
        out,
        "\n{} {unit} {done} {:.2} s ({}/s)",
        group_thousands(draws),
        report.elapsed.as_secs_f64(),
        compact(report.draws_per_second()),
    )
    .unwrap();
    writeln!(out, "reproduce: {}", reproduce_command(report)).unwrap();
    out
}

fn render_result(out: &mut String, report: &StreamReport, result: &StreamResult) {
    let names = &report.settings.items.names;
    let analysis = &result.analysis;
    let benchmark = Benchmark::of(result.expected, report.input.is_some(), INDEPENDENT_DRAWS);
    render_heading(
        out,
        &result.name,
        analysis.verdict,
        benchmark,
        &result.about.summary,
        &result.about.origin,
    );
    if let Some(shape) = &result.shape {
        let copies: Vec<String> = shape
            .source_copies
            .iter()
            .enumerate()
            .map(|(i, &c)| format!("{}:{}", names[i], group_thousands(c)))
            .collect();
        writeln!(
            out,
            "  bag: {} slots ({}); cycles of {} draws{}",
            group_thousands(shape.source_slots),
            abbreviated(&copies, 12),
            group_thousands(shape.slots),
            if shape.exact { "" } else { ", half of the bag each" }
        )
        .unwrap();
    }
    if result.additions {
        writeln!(
            out,
            "  additions in mid-sequence reset the cursor: cycles no longer line up, so only frequencies, runs, gaps and windows are measured"
        )
        .unwrap();
    }
    render_tests(out, &analysis.tests, analysis.verdict, |_| "draws");
    render_findings(out, report, result);
}

/// Everything below the tests table: the bounds, the items never drawn, the table of
/// items, the run and gap distributions and the windows. The HTML report shows these
/// lines as they are, below its own table of the tests.
pub(crate) fn render_findings(out: &mut String, report: &StreamReport, result: &StreamResult) {
    let names = &report.settings.items.names;
    let analysis = &result.analysis;
    let tally = &result.tally;
    if let Some(game) = &analysis.guessing {
        writeln!(out, "  {}", game.line()).unwrap();
    }
    for invariant in &analysis.invariants {
        writeln!(
            out,
            "  {:<13} {} (seen: {}): {}",
            invariant.name,
            invariant.describe(names),
            group_thousands(invariant.observed),
            if invariant.holds() { "holds" } else { "BROKEN" }
        )
        .unwrap();
    }
    if !analysis.never_drawn.is_empty() {
        let missing: Vec<String> = analysis.never_drawn.iter().map(|&i| names[i].clone()).collect();
        writeln!(
            out,
            "  never drawn, although their weight is positive: {}",
            missing.join(", ")
        )
        .unwrap();
    }
    render_items(out, report, result);
    let runs = tally.all_runs();
    let gaps = tally.all_gaps();
    writeln!(
        out,
        "  runs: mean {}, longest {}; gaps: mean {}, longest {}",
        mean_text(&runs),
        longest_text(&tally.longest_run, names),
        mean_text(&gaps),
        longest_text(&per_item_max(&tally.gaps), names),
    )
    .unwrap();
    if let Some(law) = &analysis.run_law {
        render_distribution(out, "run length", &runs, Some(law));
    }
    if let Some(law) = &analysis.gap_law {
        render_distribution(out, "gap", &gaps, Some(law));
    } else if result.shape.is_some() {
        render_distribution(out, "gap", &gaps, None);
    }
    if let Some(windows) = &tally.windows
        && windows.windows > 0
    {
        let deviations: Vec<f64> = (0..names.len()).map(|i| windows.largest_deviation(i)).collect();
        let worst = (0..names.len())
            .max_by(|&a, &b| deviations[a].total_cmp(&deviations[b]))
            .expect("at least two items");
        let mean_deviation: f64 = (0..names.len()).map(|i| windows.mean_absolute_deviation(i)).sum();
        let verdict = if deviations[worst] == 0.0 {
            "every window held exactly the counts the weights promise".to_string()
        } else {
            format!(
                "counts off the weights by {mean_deviation:.2} draws per window in all; at worst '{}' off by {}",
                names[worst],
                trim_number(deviations[worst])
            )
        };
        writeln!(
            out,
            "  windows of {} ({}): {verdict}",
            plural(windows.length, "draw"),
            group_thousands(windows.windows),
        )
        .unwrap();
    }
}

fn render_items(out: &mut String, report: &StreamReport, result: &StreamResult) {
    let items = &report.settings.items;
    let tally = &result.tally;
    let draws = tally.draws() as f64;
    let probabilities = items.probabilities();
    let width = items
        .names
        .iter()
        .map(|name| name.chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    writeln!(
        out,
        "  {:<width$} {:>8} {:>14} {:>14} {:>7} {:>8} {:>8} {:>9}",
        "item", "weight", "expected", "observed", "ratio", "run max", "gap max", "gap mean"
    )
    .unwrap();
    let expected_texts =
        format_expected_column(&probabilities.iter().map(|p| p * draws).collect::<Vec<f64>>());
    for (item, &probability) in probabilities.iter().enumerate() {
        let expected = probability * draws;
        let observed = tally.frequencies[item];
        writeln!(
            out,
            "  {:<width$} {:>8} {:>14} {:>14} {:>7} {:>8} {:>8} {:>9}",
            items.names[item],
            items.weight_text(item),
            expected_texts[item],
            group_thousands(observed),
            if expected > 0.0 {
                format!("{:.4}", observed as f64 / expected)
            } else {
                "-".to_string()
            },
            group_thousands(tally.longest_run[item]),
            group_thousands(tally.gaps[item].max()),
            tally.gaps[item]
                .mean()
                .map_or_else(|| "-".to_string(), |mean| format!("{mean:.2}")),
        )
        .unwrap();
    }
}

/// A distribution as `value observed expected ratio` rows, the tail summed into one.
fn render_distribution(out: &mut String, what: &str, histogram: &Histogram, law: Option<&Vec<f64>>) {
    let total = histogram.total();
    if total == 0 {
        return;
    }
    let largest = histogram.max() as usize;
    let cells = match law {
        Some(law) => law
            .len()
            .clamp(1, DISTRIBUTION_ROWS)
            .max(largest.min(DISTRIBUTION_ROWS)),
        None => largest.min(DISTRIBUTION_ROWS),
    };
    let observed = histogram.folded(cells);
    let expected: Option<Vec<f64>> = law.map(|law| {
        let mut folded = vec![0.0; cells];
        for (i, &p) in law.iter().enumerate() {
            folded[i.min(cells - 1)] += p * total as f64;
        }
        folded
    });
    let header = match law {
        Some(_) => format!(
            "  {:<12} {:>14} {:>14} {:>7}",
            what, "observed", "expected", "ratio"
        ),
        None => format!("  {:<12} {:>14} {:>8}", what, "observed", "share"),
    };
    writeln!(out, "{header}").unwrap();
    let expected_texts = expected.as_deref().map(format_expected_column);
    for cell in 0..cells {
        let label = if cell + 1 == cells && (largest > cells || law.is_some_and(|law| law.len() > cells)) {
            format!("{}+", cell + 1)
        } else {
            (cell + 1).to_string()
        };
        match (&expected, &expected_texts) {
            (Some(expected), Some(texts)) => writeln!(
                out,
                "  {:<12} {:>14} {:>14} {:>7}",
                label,
                group_thousands(observed[cell]),
                texts[cell],
                if expected[cell] > 0.0 {
                    format!("{:.4}", observed[cell] as f64 / expected[cell])
                } else {
                    "-".to_string()
                }
            ),
            _ => writeln!(
                out,
                "  {:<12} {:>14} {:>8.4}",
                label,
                group_thousands(observed[cell]),
                observed[cell] as f64 / total as f64
            ),
        }
        .unwrap();
    }
}

fn render_summary(out: &mut String, report: &StreamReport) {
    let names = &report.settings.items.names;
    writeln!(out, "summary").unwrap();
    let width = report
        .results
        .iter()
        .map(|r| r.name.len())
        .max()
        .unwrap_or(9)
        .max(9);
    // A stream read by `ingest` was tested against independent draws: nothing is known
    // of it.
    let (column, benchmark) = match report.input {
        None => ("known to be", None),
        Some(_) => ("tested against", Some(INDEPENDENT_DRAWS)),
    };
    let benchmark_width = benchmark.map_or(11, str::len).max(column.len());
    writeln!(
        out,
        "  {:<width$} {:>benchmark_width$} {:>13} {:>14}  {:<16} longest gap",
        "generator", column, "verdict", "smallest adj.", "longest run"
    )
    .unwrap();
    for result in &report.results {
        let smallest = result.analysis.smallest_p_adjusted();
        writeln!(
            out,
            "  {:<width$} {:>benchmark_width$} {:>13} {:>14}  {:<16} {}",
            result.name,
            benchmark.map_or_else(|| result.expected.to_string(), str::to_string),
            result.analysis.verdict.to_string(),
            smallest.map_or_else(|| "-".to_string(), |p: PValue| p.to_string()),
            longest_text(&result.tally.longest_run, names),
            longest_text(&per_item_max(&result.tally.gaps), names),
        )
        .unwrap();
    }
}

fn per_item_max(histograms: &[Histogram]) -> Vec<u64> {
    histograms.iter().map(Histogram::max).collect()
}

/// `1 draw`, `7 draws`, `10,000 draws`.
fn plural(count: u64, noun: &str) -> String {
    match count {
        1 => format!("1 {noun}"),
        _ => format!("{} {noun}s", group_thousands(count)),
    }
}

/// `23 (A)`: the largest value and the item that reached it first.
fn longest_text(values: &[u64], names: &[String]) -> String {
    let (item, value) =
        values.iter().enumerate().fold(
            (0, 0),
            |best, (item, &value)| if value > best.1 { (item, value) } else { best },
        );
    if value == 0 {
        "-".to_string()
    } else {
        format!("{} ({})", group_thousands(value), names[item])
    }
}

fn mean_text(histogram: &Histogram) -> String {
    histogram
        .mean()
        .map_or_else(|| "-".to_string(), |mean| format!("{mean:.3}"))
}

fn trim_number(value: f64) -> String {
    if value.fract() == 0.0 {
        group_thousands(value as u64)
    } else {
        format!("{value:.2}")
    }
}

/// The first `keep` entries joined, and how many more there are.
fn abbreviated(entries: &[String], keep: usize) -> String {
    if entries.len() <= keep {
        entries.join(", ")
    } else {
        format!("{}, ... ({} in all)", entries[..keep].join(", "), entries.len())
    }
}

/// The command that repeats a stream run exactly. Threads are left out: they do not
/// change it.
pub fn reproduce_command(report: &StreamReport) -> String {
    if let Some(input) = &report.input {
        return input.command.clone();
    }
    let settings = &report.settings;
    let names: Vec<&str> = report.results.iter().map(|result| result.name.as_str()).collect();
    let mut command = format!(
        "shuffle-audit stream {} --items {} --length {} --streams {} --seed {}",
        names.join(" "),
        shell_word(&settings.items.spec),
        settings.length,
        settings.streams,
        report.seed
    );
    command.push_str(&settings.source.command_flags());
    if let Some(every) = settings.scenario.add_every {
        command.push_str(&format!(" --add-every {every}"));
    }
    if settings.alpha != DEFAULT_ALPHA {
        command.push_str(&format!(" --alpha {}", format_probability(settings.alpha)));
    }
    command
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn item_specs_are_quoted_for_the_shell_when_needed() {
        assert_eq!(shell_word("A:50,B:25"), "A:50,B:25");
        assert_eq!(shell_word("x:1, y:2"), "'x:1, y:2'");
        assert_eq!(shell_word("it's:1,b:1"), "'it'\\''s:1,b:1'");
    }

    #[test]
    fn longest_values_name_their_item() {
        let names = vec!["A".to_string(), "B".to_string()];
        assert_eq!(longest_text(&[3, 7], &names), "7 (B)");
        assert_eq!(longest_text(&[0, 0], &names), "-");
        assert_eq!(abbreviated(&names, 1), "A, ... (2 in all)");
        assert_eq!(trim_number(3.0), "3");
        assert_eq!(trim_number(2.5), "2.50");
    }
}
