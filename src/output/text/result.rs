//! The parts of one result that every text report shares, so that a test, a verdict or
//! an outcome reads the same after `run`, `stream`, `ingest` and a failing
//! `assert_fair_shuffle`: the heading (the verdict beside what it is known to be or was tested against), the table of
//! tests with the test that decided a failure, the total variation line, lists of over-
//! and under-represented outcomes, and what an ingested input held.

use std::fmt::Write;

use crate::analysis::{TestOutcome, TestReport, caught_by};
use crate::catalogue::Expectation;
use crate::format::{format_expected, format_expected_count, format_statistic, group_thousands};
use crate::run::SampleInput;
use crate::stats::effect::{Deviation, TotalVariation};
use crate::stats::verdict::SUSPICIOUS_BELOW;
use crate::stats::{Fit, PMethod, Verdict};

/// How an ingested input's cards or items were named, the malformed lines skipped, and
/// the notes on what the findings cannot show.
pub(crate) fn render_input_details(out: &mut String, input: &SampleInput, noun: &str, notes: &[String]) {
    writeln!(
        out,
        "{noun} are named by their tokens, in the order of {}",
        input.deck_from
    )
    .unwrap();
    if let Some(predictability) = &input.predictability {
        if let Some(found) = &predictability.found {
            writeln!(out, "{}", found.sentence()).unwrap();
            writeln!(out, "  {}", found.evidence()).unwrap();
        }
        for line in predictability.lines() {
            writeln!(out, "{line}").unwrap();
        }
    }
    if !input.skipped.is_empty() {
        let reasons: Vec<String> = input
            .skipped
            .iter()
            .map(|skipped| {
                format!(
                    "{} {} (first: line {})",
                    group_thousands(skipped.count),
                    skipped.reason,
                    skipped.first_line
                )
            })
            .collect();
        writeln!(
            out,
            "skipped {} malformed line{}: {}",
            group_thousands(input.skipped_total()),
            if input.skipped_total() == 1 { "" } else { "s" },
            reasons.join("; ")
        )
        .unwrap();
    }
    for note in notes {
        writeln!(out, "note: {note}").unwrap();
    }
}

/// What a verdict is set beside in a result's heading.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Benchmark {
    /// A catalogue algorithm: what it is known to be at this size, from its source text and
    /// the exact law (`known to be: biased`), which the verdict should agree with.
    Known(Expectation),
    /// Samples from elsewhere (`ingest`): nothing is known of them, only what they were
    /// tested against (`tested against: a fair shuffle`).
    TestedAgainst(&'static str),
}

/// What samples read by `ingest` are tested against, by kind: every report (terminal,
/// HTML, Markdown) says these words.
pub const FAIR_SHUFFLE: &str = "a fair shuffle";
pub const FAIR_SAMPLER: &str = "a fair sampler";
pub const INDEPENDENT_DRAWS: &str = "independent draws";

impl Benchmark {
    /// A catalogue result's expectation, or, for samples from elsewhere (`from_input`),
    /// the `law` they were tested against.
    pub(crate) fn of(expected: Expectation, from_input: bool, law: &'static str) -> Self {
        match from_input {
            false => Benchmark::Known(expected),
            true => Benchmark::TestedAgainst(law),
        }
    }

    /// What the benchmark is, without its words (`biased`, `a fair shuffle`), for a
    /// table whose column says which.
    pub(crate) fn value(&self) -> String {
        match self {
            Benchmark::Known(expected) => expected.to_string(),
            Benchmark::TestedAgainst(law) => law.to_string(),
        }
    }
}

impl std::fmt::Display for Benchmark {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Benchmark::Known(expected) => write!(f, "known to be: {expected}"),
            Benchmark::TestedAgainst(law) => write!(f, "tested against: {law}"),
        }
    }
}

/// A result's first lines: its verdict beside what it is known to be or was tested
/// against ([`Benchmark`]), and what it is and where it comes from.
pub(crate) fn render_heading(
    out: &mut String,
    name: &str,
    verdict: Verdict,
    benchmark: Benchmark,
    summary: &str,
    origin: &str,
) {
    writeln!(out, "{name}: {} ({benchmark})", verdict.headline()).unwrap();
    writeln!(out, "  {summary}; from {origin}").unwrap();
}

/// A tests table, its name column as wide as its longest name, then for a verdict of
/// fail or suspicious the test that decided it, in words ([`caught_by`]); `unit` names
/// what a test's trials are (`shuffles`, `draws`, `picks`).
pub(crate) fn render_tests(
    out: &mut String,
    tests: &[TestReport],
    verdict: Verdict,
    unit: impl Fn(&TestReport) -> &'static str,
) {
    let width = tests
        .iter()
        .map(|test| test.name.len())
        .max()
        .unwrap_or(0)
        .max(13);
    writeln!(
        out,
        "  {:<width$} {:>14} {:>9} {:>10} {:>10}",
        "test", "statistic", "df", "p-value", "adjusted"
    )
    .unwrap();
    for test in tests {
        render_test(out, test, width, unit(test));
    }
    render_methods_legend(out, tests);
    if matches!(verdict, Verdict::Fail | Verdict::Suspicious)
        && let Some(line) = caught_by(tests)
    {
        writeln!(out, "  {line}").unwrap();
    }
}

/// The total variation distance beside the level noise alone would reach, or why it was
/// not measured (`why_not`, e.g. "the 11! orders are not tallied").
pub(crate) fn render_total_variation(
    out: &mut String,
    total_variation: Option<TotalVariation>,
    why_not: &str,
) {
    match total_variation {
        Some(tv) => writeln!(
            out,
            "  total variation from uniform: {:.4} (noise alone would give about {:.4})",
            tv.distance, tv.noise_floor
        ),
        None => writeln!(out, "  total variation: not measured ({why_not})"),
    }
    .unwrap();
}

/// Outcomes as `label x1.110 (111,042 vs 100,000)`, separated by semicolons.
pub(crate) fn deviation_list(deviations: &[Deviation], label: impl Fn(&Deviation) -> String) -> String {
    deviations
        .iter()
        .map(|d| {
            format!(
                "{} x{:.3} ({} vs {})",
                label(d),
                d.ratio,
                group_thousands(d.count),
                format_expected(d.expected)
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// How a test's p-value was computed, when not from the χ² law: the word its line ends
/// with (`exact`, `simulated`, `bound`).
fn method_mark(test: &TestReport) -> Option<PMethod> {
    match &test.outcome {
        TestOutcome::Fit(fit) => fit.p_method().filter(|method| *method != PMethod::ChiSquare),
        TestOutcome::Count { method, .. } => Some(*method).filter(|method| *method != PMethod::ChiSquare),
        _ => None,
    }
}

/// Under a table whose lines carry a method's word, what the words mean.
fn render_methods_legend(out: &mut String, tests: &[TestReport]) {
    let mut said: Vec<&str> = Vec::new();
    for mark in tests.iter().filter_map(method_mark) {
        let words = match mark {
            PMethod::Exact => "exact = the exact law of the counts",
            PMethod::Simulated { .. } => {
                "simulated = a seeded simulation of a fair source (up to 99,999 draws)"
            }
            PMethod::Bound => "bound = an upper bound on the p-value",
            PMethod::ChiSquare => continue,
        };
        if !said.contains(&words) {
            said.push(words);
        }
    }
    if !said.is_empty() {
        writeln!(out, "  p-values: {}; unmarked = the χ² law", said.join("; ")).unwrap();
    }
}

/// One line of a tests table; `unit` names what the trials are (`shuffles`, `draws`).
/// A test whose counts are too even says so after its adjusted p-value, when that is
/// small enough to matter (below 1e-3).
fn render_test(out: &mut String, test: &TestReport, width: usize, unit: &str) {
    let adjusted = test.p_adjusted.map_or_else(String::new, |p| p.to_string());
    let too_even = if test.too_even() && test.p_adjusted.is_some_and(|p| p.is_below(SUSPICIOUS_BELOW)) {
        "  too even"
    } else {
        ""
    };
    match &test.outcome {
        TestOutcome::Fit(Fit::Computed { statistic, df, p, .. }) => writeln!(
            out,
            "  {:<width$} {:>14} {:>9} {:>10} {:>10}{}{too_even}",
            test.name,
            format_statistic(*statistic),
            group_thousands(*df),
            p.to_string(),
            adjusted,
            method_mark(test).map_or(String::new(), |method| format!("  {}", method.short())),
        ),
        TestOutcome::Count {
            observed,
            expected,
            p,
            ..
        } => writeln!(
            out,
            "  {:<width$} {:>14} {:>9} {:>10} {:>10}{}  (expected {})",
            test.name,
            group_thousands(*observed),
            "",
            p.to_string(),
            adjusted,
            method_mark(test).map_or(String::new(), |method| format!("  {}", method.short())),
            format_expected_count(*expected),
        ),
        TestOutcome::Fit(Fit::TooFewTrials { needed }) => writeln!(
            out,
            "  {:<width$} too few trials: every cell must expect 5 {unit}, which needs at least {}",
            test.name,
            group_thousands(*needed)
        ),
        TestOutcome::NotTallied(reason) | TestOutcome::NotApplicable(reason) => {
            writeln!(out, "  {:<width$} {reason}", test.name)
        }
    }
    .unwrap();
}

/// The width of a table's first column: its widest label (tokens read by `ingest` may be
/// wider than the numbers 1..n), and at least 10.
pub(crate) fn label_width(labels: &[String]) -> usize {
    labels
        .iter()
        .map(|label| label.chars().count())
        .max()
        .unwrap_or(0)
        .max(10)
}
