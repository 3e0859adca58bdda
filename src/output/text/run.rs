//! The terminal report: what a person reads after `shuffle-audit run`.
//!
//! Per algorithm: the verdict beside what it is known to be (or what
//! samples read with `ingest` were tested against), each test with its p-value
//! and Holm-adjusted p-value (or why it could not run), the total variation distance
//! with the level noise alone would reach, the most over- and under-represented
//! outcomes, and for decks of up to four cards the whole table of orders, as in text 004.
//! Cards are labelled 1..n here, as in the source texts; JSON and CSV count from 0.
//! Samplers get the same shape, with subsets and items in place of orders and cards
//! ([`super::samplers`]).

use std::fmt::Write;

use crate::analysis::{OutcomeTable, PermutationAnalysis, RepeatsFinding};
use crate::catalogue::Expectation;
use crate::exact::check::SimulatorCheck;
use crate::format::{
    compact, counted, format_expected, format_expected_count, format_probability, format_statistic,
    group_thousands,
};
use crate::run::{About, AlgorithmResult, RunReport, RunSettings, SeedOrigin};
use crate::stats::effect::{Deviation, TotalVariation};
use crate::stats::pooling::MIN_EXPECTED;
use crate::stats::verdict::DEFAULT_ALPHA;
use crate::stats::{Fit, PValue, Verdict};
use crate::tally::PermutationTally;
use crate::tally::lehmer::{next_permutation, unrank};

use super::result::{
    Benchmark, FAIR_SAMPLER, FAIR_SHUFFLE, deviation_list, label_width, render_heading, render_input_details,
    render_tests, render_total_variation,
};
use super::samplers;

/// Decks up to this size get their full table of orders printed.
pub const FULL_TABLE_UP_TO_N: usize = 4;

/// The whole report.
pub fn render(report: &RunReport) -> String {
    let mut out = String::new();
    let settings = &report.settings;
    let seed_note = match report.seed_origin {
        SeedOrigin::Given => String::new(),
        SeedOrigin::OperatingSystem => " (from the OS)".to_string(),
    };
    let (size, unit) = match settings.k {
        None => (format!("{} cards", settings.n), "shuffle"),
        Some(k) => (format!("{k} of {} items", settings.n), "sample"),
    };
    if let Some(input) = &report.input {
        render_input_heading(&mut out, report, input, &size);
    } else {
        render_run_heading(&mut out, report, &size, unit, &seed_note);
    }
    for result in &report.results {
        out.push('\n');
        let benchmark = Benchmark::of(result.expected, report.input.is_some(), FAIR_SHUFFLE);
        render_result(&mut out, result, benchmark);
    }
    for result in &report.sampler_results {
        out.push('\n');
        let benchmark = Benchmark::of(result.expected, report.input.is_some(), FAIR_SAMPLER);
        samplers::render_result(&mut out, result, benchmark);
    }
    if report.algorithm_count() > 1 {
        out.push('\n');
        render_summary(&mut out, report);
    }
    let (unit, done) = match report.input {
        Some(_) => ("sample", "read and tested in"),
        None => (unit, "in"),
    };
    writeln!(
        out,
        "\n{} {done} {:.2} s ({}/s)",
        counted(settings.tallied_trials() * report.algorithm_count() as u64, unit),
        report.elapsed.as_secs_f64(),
        compact(report.trials_per_second()),
    )
    .unwrap();
    writeln!(out, "reproduce: {}", reproduce_command(report)).unwrap();
    out
}

/// The first lines of an ingested report: what was read, from where, and what was skipped.
fn render_input_heading(out: &mut String, report: &RunReport, input: &crate::run::SampleInput, size: &str) {
    writeln!(
        out,
        "shuffle-audit {}: {size}, {} read from {} ({} line{}), {} thread{}, alpha {}",
        env!("CARGO_PKG_VERSION"),
        counted(report.settings.trials, "sample"),
        input.source,
        group_thousands(input.lines),
        if input.lines == 1 { "" } else { "s" },
        report.threads,
        if report.threads == 1 { "" } else { "s" },
        format_probability(report.settings.alpha),
    )
    .unwrap();
    let noun = if report.settings.k.is_some() {
        "items"
    } else {
        "cards"
    };
    render_input_details(out, input, noun, &report.notes);
}

/// The first lines of a simulation's report: the settings and the seed.
fn render_run_heading(out: &mut String, report: &RunReport, size: &str, unit: &str, seed_note: &str) {
    let settings = &report.settings;
    writeln!(
        out,
        "shuffle-audit {}: {size}, {} per algorithm, seed {}{seed_note}, {} thread{}, alpha {}",
        env!("CARGO_PKG_VERSION"),
        counted(settings.tallied_trials(), unit),
        report.seed,
        report.threads,
        if report.threads == 1 { "" } else { "s" },
        format_probability(settings.alpha),
    )
    .unwrap();
    if let Some(line) = settings.source.report_line() {
        writeln!(out, "{line}").unwrap();
    }
    if let Some(shard) = shard_description(settings, unit) {
        writeln!(
            out,
            "{shard}; `shuffle-audit merge` adds the shards' JSON into the whole run"
        )
        .unwrap();
    }
    match settings.k {
        None => writeln!(
            out,
            "cards are labelled 1..{} in their starting order",
            settings.n
        ),
        Some(k) => writeln!(
            out,
            "items are labelled 1..{}; each sample picks {k} of them",
            settings.n
        ),
    }
    .unwrap();
}

fn render_result(out: &mut String, result: &AlgorithmResult, benchmark: Benchmark) {
    let analysis = &result.analysis;
    render_heading(
        out,
        &result.name,
        analysis.verdict,
        benchmark,
        &result.about.summary,
        &result.about.origin,
    );
    render_tests(out, &analysis.tests, analysis.verdict, |_| "shuffles");
    render_findings(out, result);
}

/// The simulator check's line, first of the findings (it is not one of the tests).
/// The simulator check's line; `unit` is what a trial is (`shuffle`), `units` its plural.
fn render_simulator_check(out: &mut String, check: Option<&SimulatorCheck>, unit: &str, units: &str) {
    let Some(check) = check else {
        return;
    };
    let law = format!(
        "the tally against the exact law of its {} random paths",
        group_thousands(check.paths)
    );
    let line = if check.impossible_seen > 0 {
        format!(
            "SIMULATOR ERROR: {} {} gave orders the exact law says are impossible",
            group_thousands(check.impossible_seen),
            if check.impossible_seen == 1 { unit } else { units }
        )
    } else {
        match check.fit {
            Fit::Computed { statistic, df, p, .. } => format!(
                "{law}: statistic {} on {} df, p = {p} (a correct simulator passes; not part of the verdict)",
                format_statistic(statistic),
                group_thousands(df)
            ),
            Fit::TooFewTrials { .. } => {
                format!("{law}: too few {units} to test, and every {unit} gave a possible order")
            }
        }
    };
    writeln!(out, "  simulator     {line}").unwrap();
}

/// What a result's tests table leaves out: the total variation, the orders never seen,
/// the most and least frequent outcomes and, for small decks, the table of orders. The
/// HTML report shows these lines as they are, below its own table of the tests.
pub(crate) fn render_findings(out: &mut String, result: &AlgorithmResult) {
    render_simulator_check(out, result.simulator_check.as_ref(), "shuffle", "shuffles");
    render_tally_findings(out, &result.tally, &result.analysis, &result.about);
}

/// The findings of any permutation tally, catalogue algorithm or not (the assertion's
/// report of a user's shuffle shows them too).
pub(crate) fn render_tally_findings(
    out: &mut String,
    tally: &PermutationTally,
    analysis: &PermutationAnalysis,
    about: &About,
) {
    let n = tally.n;
    if let Some(game) = &analysis.guessing {
        writeln!(
            out,
            "  {}: 95 % interval {:.2} to {:.2}, strategy {}",
            game.sentence(),
            game.interval.0,
            game.interval.1,
            game.strategy.name()
        )
        .unwrap();
    }
    if let Some(repeats) = &analysis.repeats
        && repeats.test.repeats > 0
    {
        writeln!(out, "  {}", repeats_sentence(repeats, n)).unwrap();
    }
    let why_not = if tally.trials == 0 {
        "no order was tallied: the one deal read is the deck the others would be read against".to_string()
    } else {
        format!("the {n}! orders are not tallied")
    };
    render_total_variation(out, analysis.total_variation, &why_not);
    // Only worth saying where every order should have come out several times; with fewer
    // shuffles than orders, most are unseen by chance.
    if let (Some(never), Some(counts)) = (analysis.orders_never_seen, &tally.permutation_counts)
        && never > 0
        && tally.trials as f64 / counts.len() as f64 >= MIN_EXPECTED
    {
        writeln!(
            out,
            "  orders never seen: {} of {} (each should come out {} times on average)",
            group_thousands(never as u64),
            group_thousands(counts.len() as u64),
            format_expected(tally.trials as f64 / counts.len() as f64)
        )
        .unwrap();
    }
    let label = |deviation: &Deviation| outcome_label(deviation, analysis.outcome_table, n, about);
    let list = |deviations: &[Deviation]| deviation_list(deviations, label);
    let what = match analysis.outcome_table {
        OutcomeTable::Permutations => "orders",
        OutcomeTable::Positions => "card positions",
    };
    if !analysis.over_represented.is_empty() {
        writeln!(
            out,
            "  most frequent {what}: {}",
            list(&analysis.over_represented)
        )
        .unwrap();
        writeln!(
            out,
            "  least frequent {what}: {}",
            list(&analysis.under_represented)
        )
        .unwrap();
    }
    // No table of nothing: a lone deal read as the deck tallies no order.
    if n <= FULL_TABLE_UP_TO_N
        && tally.trials > 0
        && let Some(counts) = &tally.permutation_counts
    {
        render_order_table(out, counts, tally.trials, n, about);
    }
}

/// The repeated decks in a sentence: `Repeated decks: 11 of the 300,000 deals …`.
pub(crate) fn repeats_sentence(finding: &RepeatsFinding, n: usize) -> String {
    let test = &finding.test;
    let groups = &finding.tally.groups;
    let within = match groups.as_slice() {
        [(_, 1)] => String::new(),
        _ => format!(
            " (counted within each run of up to {} consecutive deals)",
            group_thousands(groups.iter().map(|&(size, _)| size).max().unwrap_or(0))
        ),
    };
    let mut note = format!(
        "Repeated decks: {} of the {} were dealt before{within}; a fair shuffle of {n} cards repeats {} \
         on average.",
        group_thousands(test.repeats),
        counted(test.deals, "deal"),
        format_expected_count(test.expected),
    );
    if let Some(estimate) = &finding.estimate {
        note.push_str(&format!(
            " As many repeats come from a program that deals {estimate}."
        ));
    }
    note
}

fn render_order_table(out: &mut String, counts: &[u64], trials: u64, n: usize, about: &About) {
    let expected = trials as f64 / counts.len() as f64;
    let mut permutation: Vec<u16> = (0..n as u16).collect();
    let mut labels = Vec::with_capacity(counts.len());
    for _ in counts {
        labels.push(about.labels_of(&permutation));
        next_permutation(&mut permutation);
    }
    let width = label_width(&labels);
    writeln!(
        out,
        "  {:<width$} {:>12} {:>12} {:>8}",
        "order", "count", "expected", "ratio"
    )
    .unwrap();
    for (label, &count) in labels.iter().zip(counts) {
        writeln!(
            out,
            "  {:<width$} {:>12} {:>12} {:>8.4}",
            label,
            group_thousands(count),
            format_expected(expected),
            count as f64 / expected
        )
        .unwrap();
    }
}

/// One line of the summary table, for a shuffle or a sampler.
struct SummaryRow<'a> {
    name: &'a str,
    expected: Expectation,
    verdict: Verdict,
    smallest: Option<PValue>,
    total_variation: Option<TotalVariation>,
}

fn render_summary(out: &mut String, report: &RunReport) {
    writeln!(out, "summary").unwrap();
    let rows: Vec<SummaryRow> = report
        .results
        .iter()
        .map(|r| SummaryRow {
            name: &r.name,
            expected: r.expected,
            verdict: r.analysis.verdict,
            smallest: r.analysis.smallest_p_adjusted(),
            total_variation: r.analysis.total_variation,
        })
        .chain(report.sampler_results.iter().map(|r| SummaryRow {
            name: &r.name,
            expected: r.expected,
            verdict: r.analysis.verdict,
            smallest: r.analysis.smallest_p_adjusted(),
            total_variation: r.analysis.total_variation,
        }))
        .collect();
    let width = rows.iter().map(|row| row.name.len()).max().unwrap_or(9).max(9);
    writeln!(
        out,
        "  {:<width$} {:>11} {:>13} {:>14} {:>10}",
        "algorithm", "known to be", "verdict", "smallest adj.", "total var."
    )
    .unwrap();
    for row in rows {
        writeln!(
            out,
            "  {:<width$} {:>11} {:>13} {:>14} {:>10}",
            row.name,
            row.expected.to_string(),
            row.verdict.to_string(),
            row.smallest.map_or_else(|| "-".to_string(), |p| p.to_string()),
            row.total_variation
                .map_or_else(|| "-".to_string(), |tv| format!("{:.4}", tv.distance)),
        )
        .unwrap();
    }
}

fn outcome_label(deviation: &Deviation, table: OutcomeTable, n: usize, about: &About) -> String {
    match table {
        OutcomeTable::Permutations => {
            let mut permutation = vec![0u16; n];
            unrank(deviation.cell, &mut permutation);
            about.labels_of(&permutation)
        }
        OutcomeTable::Positions => format!(
            "card {} at position {}",
            about.label(deviation.cell / n),
            deviation.cell % n + 1
        ),
    }
}

/// `shard 2 of 3 of a run of 50,000 shuffles per algorithm`, for a shard's reports.
pub(crate) fn shard_description(settings: &RunSettings, unit: &str) -> Option<String> {
    settings.shard.map(|shard| {
        format!(
            "shard {} of {} of a run of {} per algorithm",
            shard.index,
            shard.count,
            counted(settings.trials, unit)
        )
    })
}

/// The command that repeats a run (or a shard) exactly. Threads are left out: they do not
/// change it.
pub fn reproduce_command(report: &RunReport) -> String {
    if let Some(input) = &report.input {
        return input.command.clone();
    }
    let settings = &report.settings;
    let k = settings.k.map_or_else(String::new, |k| format!(" --k {k}"));
    let mut command = format!(
        "shuffle-audit run {} --n {}{k} --trials {} --seed {}",
        report.names().join(" "),
        settings.n,
        settings.trials,
        report.seed
    );
    if settings.alpha != DEFAULT_ALPHA {
        command.push_str(&format!(" --alpha {}", format_probability(settings.alpha)));
    }
    if let Some(shard) = settings.shard {
        command.push_str(&format!(" --shard {shard}"));
    }
    command.push_str(&settings.source.command_flags());
    command
}

#[cfg(test)]
mod tests {

    #[test]
    fn the_repeats_sentence_gives_the_count_the_expectation_and_the_deck_space() {
        use crate::tally::RepeatTally;
        // 300,000 deals in one group, 11 repeats: about 2^32 decks.
        let tally = RepeatTally {
            groups: vec![(300_000, 1)],
            repeats: 11,
        };
        let sentence = repeats_sentence(&RepeatsFinding::of(&tally, 52), 52);
        assert!(
            sentence.starts_with(
                "Repeated decks: 11 of the 300,000 deals were dealt before; a fair shuffle of 52 cards"
            ),
            "{sentence}"
        );
        // 11 repeats in 300,000 deals: N²/(2·11) ≈ 2^31.9 decks, the interval holding 2^32.
        assert!(
            sentence.contains("about 2^31.9 different decks (95 % interval 2^31.1 to 2^32.9)"),
            "{sentence}"
        );
        // None repeated, in chunks: no estimate, and the chunks are said.
        let tally = RepeatTally {
            groups: vec![(3_616, 1), (16_384, 12)],
            repeats: 0,
        };
        let sentence = repeats_sentence(&RepeatsFinding::of(&tally, 52), 52);
        assert!(sentence.contains("0 of the 200,224 deals"), "{sentence}");
        assert!(
            sentence.contains("within each run of up to 16,384 consecutive deals"),
            "{sentence}"
        );
        assert!(!sentence.contains("different decks"), "{sentence}");
    }
    use super::*;

    #[test]
    fn cards_are_labelled_from_one() {
        assert_eq!(
            crate::run::About::of(&crate::catalogue::SHUFFLES[0]).labels_of(&[2, 0, 1]),
            "3 1 2"
        );
    }
}
