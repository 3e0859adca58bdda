//! The sections of a `stream` run: per generator, its item frequencies against the
//! weights, the run-length and gap distributions against theory where theory is known
//! (on a logarithmic axis: the claims of text 000 are about the tails), and for bags the
//! table of items by position within the cycle.
//!
//! Items whose every cycle count is zero (a truncated Boggle letter) are left out of the
//! cycle table: with no draws there is no ratio to colour, and the frequency chart
//! already shows them missing.

use crate::format::{format_probability, group_thousands};
use crate::output::text::result::INDEPENDENT_DRAWS;
use crate::output::text::stream::{render_findings, reproduce_command};
use crate::stream::{StreamReport, StreamResult};

use super::super::chart::{self, HeatMap, Titles};
use super::super::document::{ChartFile, Part, ResultSection};
use super::{chart_file, findings, law_bars, numbered, per_cell_bars, test_rows, titled};

/// The part of a report that one `stream` run makes, results numbered from `first`.
pub fn stream_part(report: &StreamReport, heading: &str, prose: &[String], first: usize) -> Part {
    let results = report.results.iter().map(|result| stream_section(report, result));
    Part {
        heading: heading.to_string(),
        prose: prose.to_vec(),
        settings: stream_settings_line(report),
        label: format!("{}{}", items_label(report), source_words(report)),
        command: reproduce_command(report),
        results: numbered(results, first),
    }
}

/// The items in a few words, for the summary: `7 items`, `4 weighted items`, `Boggle
/// letters`.
fn items_label(report: &StreamReport) -> String {
    let items = &report.settings.items;
    if items.spec == "boggle" {
        "Boggle letters".to_string()
    } else if items.units.iter().all(|&units| units == items.units[0]) {
        format!("{} items", items.len())
    } else {
        format!("{} weighted items", items.len())
    }
}

/// `1,000 streams × 10,000 draws per generator, items 7, seed 1, alpha 1e-6`; for a
/// stream read by `ingest`, `a stream of 1,000,000 items, items A B C, read from FILE,
/// alpha 1e-6`.
pub fn stream_settings_line(report: &StreamReport) -> String {
    let settings = &report.settings;
    if let Some(input) = &report.input {
        return format!(
            "a stream of {} items, items {}, read from {}, alpha {}",
            group_thousands(settings.length),
            settings.items.spec,
            input.source,
            format_probability(settings.alpha)
        );
    }
    format!(
        "{} streams × {} draws per generator, items {}, seed {}{}, alpha {}",
        group_thousands(settings.streams),
        group_thousands(settings.length),
        settings.items.spec,
        report.seed,
        source_words(report),
        format_probability(settings.alpha)
    )
}

/// `, source NAME` for generated streams under a flawed source; nothing otherwise.
fn source_words(report: &StreamReport) -> String {
    let source = report.settings.source;
    if source.is_default() || report.input.is_some() {
        String::new()
    } else {
        format!(", source {source}")
    }
}

fn stream_section(report: &StreamReport, result: &StreamResult) -> ResultSection {
    let settings = &report.settings;
    let names = &settings.items.names;
    let tally = &result.tally;
    let analysis = &result.analysis;
    let title = match &report.input {
        None => format!(
            "{} · {} items · {} streams × {} draws · seed\u{a0}{}{}",
            result.name,
            names.len(),
            group_thousands(settings.streams),
            group_thousands(settings.length),
            report.seed,
            source_words(report)
        ),
        Some(input) => format!(
            "{} · {} items · a stream of {} draws · read\u{a0}from\u{a0}{}",
            result.name,
            names.len(),
            group_thousands(settings.length),
            input.source
        ),
    };
    let titles = titled(title);
    let probabilities = settings.items.probabilities();
    let mut charts = vec![chart_file(
        "frequencies",
        "How often each item came out, against its weight".to_string(),
        chart::bars(&per_cell_bars(
            titles("draws of each item, against its weight"),
            names.clone(),
            &tally.frequencies,
            tally.draws(),
            |item| probabilities[item],
            ("item", "draws"),
        )),
    )];
    if let Some(law) = &analysis.run_law {
        let runs = tally.all_runs();
        charts.push(chart_file(
            "runs",
            "Lengths of runs of one item, against the exact law of independent draws".to_string(),
            chart::bars(&law_bars(
                titles("run lengths, against theory"),
                1,
                &runs.folded(law.len()),
                law,
                runs.total(),
                ("run length (draws of the same item in a row)", "runs"),
                true,
            )),
        ));
    }
    if let Some(law) = &analysis.gap_law {
        let gaps = tally.all_gaps();
        charts.push(chart_file(
            "gaps",
            format!(
                "Gaps between two draws of the same item, against theory: {}",
                analysis.theory.describe()
            ),
            chart::bars(&law_bars(
                titles("gaps between copies of an item, against theory"),
                1,
                &gaps.folded(law.len()),
                law,
                gaps.total(),
                ("gap (draws from one copy of an item to the next)", "gaps"),
                true,
            )),
        ));
    }
    charts.extend(cycle_chart(
        result,
        names,
        titles("items by position within the cycle: observed / expected"),
    ));
    ResultSection {
        name: result.name.clone(),
        id: String::new(),
        verdict: analysis.verdict,
        expected: result.expected,
        tested_against: report.input.is_some().then_some(INDEPENDENT_DRAWS),
        summary: result.about.summary.to_string(),
        origin: result.about.origin.to_string(),
        notes: Vec::new(),
        tests: test_rows(&analysis.tests, settings.alpha, "draws"),
        smallest_p: analysis.smallest_p_adjusted(),
        total_variation: None,
        findings: findings(|out| render_findings(out, report, result)),
        charts,
    }
}

/// The bag's items × cycle-position table, each cell against what its item's share and
/// its bin's width promise.
fn cycle_chart(result: &StreamResult, names: &[String], titles: Titles) -> Option<ChartFile> {
    let tally = &result.tally;
    let (table, layout, shape) = (
        tally.cycle_positions.as_ref()?,
        tally.cycle.as_ref()?,
        result.shape.as_ref()?,
    );
    let bins = layout.bins();
    let items = names.len();
    let bin_totals: Vec<u64> = table.chunks(items).map(|row| row.iter().sum()).collect();
    let item_totals: Vec<u64> = (0..items)
        .map(|item| table.iter().skip(item).step_by(items).sum())
        .collect();
    let total: u64 = bin_totals.iter().sum();
    let drawn: Vec<usize> = (0..items).filter(|&item| item_totals[item] > 0).collect();
    if total == 0 || bins < 2 || drawn.len() < 2 {
        return None;
    }
    // The bag-position test's variance is larger than Poisson's by slots / (slots - 1).
    let slots = shape.source_slots.max(2) as f64;
    let inflation = slots / (slots - 1.0);
    let mut observed = Vec::with_capacity(drawn.len() * bins);
    let mut expected = Vec::with_capacity(drawn.len() * bins);
    for &item in &drawn {
        for bin in 0..bins {
            observed.push(table[bin * items + item]);
            expected.push(bin_totals[bin] as f64 * item_totals[item] as f64 / total as f64);
        }
    }
    let standard_deviation = expected.iter().map(|&e: &f64| (e * inflation).sqrt()).collect();
    let columns = (0..bins)
        .map(|bin| {
            let (from, to) = (layout.bounds[bin] + 1, layout.bounds[bin + 1]);
            if from == to {
                from.to_string()
            } else {
                format!("{from}–{to}")
            }
        })
        .collect();
    Some(chart_file(
        "cycle-positions",
        format!(
            "Where in each cycle of {} draws each item came out: a fair bag puts every item everywhere alike",
            group_thousands(layout.slots)
        ),
        chart::heat_map(&HeatMap {
            titles,
            rows: drawn.iter().map(|&item| names[item].clone()).collect(),
            columns,
            row_axis: "item".to_string(),
            column_axis: "position within the cycle".to_string(),
            observed,
            expected,
            standard_deviation,
        }),
    ))
}
