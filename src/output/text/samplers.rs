//! The terminal report of one sampler: its verdict beside what it is known to be
//! (or, for samples read with `ingest`, what it was tested against), the tests,
//! the total variation over subsets, the most and least frequent subsets, the items never
//! chosen, and for up to [`FULL_TABLE_UP_TO_SUBSETS`] subsets the whole table.
//!
//! Subsets print as `{2 5 7}` and items by number, both from 1 like the cards.

use std::fmt::Write;

use crate::stats::pooling::MIN_EXPECTED;

use super::result;
use crate::analysis::SelectionOutcomes;
use crate::format::{format_expected, group_thousands};
use crate::run::{About, SamplerResult};
use crate::stats::effect::Deviation;
use crate::tally::combinadic::{next_subset, unrank};

/// Samplers with at most this many subsets get their full table printed (6 choose 3).
pub const FULL_TABLE_UP_TO_SUBSETS: usize = 20;

pub(super) fn render_result(out: &mut String, result: &SamplerResult, benchmark: result::Benchmark) {
    let analysis = &result.analysis;
    result::render_heading(
        out,
        &result.name,
        analysis.verdict,
        benchmark,
        &result.about.summary,
        &result.about.origin,
    );
    result::render_tests(out, &analysis.tests, analysis.verdict, |test| {
        if test.name == "inclusion" {
            "picks"
        } else {
            "samples"
        }
    });
    render_findings(out, result);
}

/// Everything below the tests table (see [`super::render_findings`]).
pub(crate) fn render_findings(out: &mut String, result: &SamplerResult) {
    let analysis = &result.analysis;
    let tally = &result.tally;
    let (n, k, trials) = (tally.n, tally.k, tally.trials);
    if let Some(game) = &analysis.guessing {
        writeln!(out, "  {}", game.line()).unwrap();
    }
    result::render_total_variation(
        out,
        analysis.total_variation,
        &format!("the C({n}, {k}) subsets are not tallied"),
    );
    // As for orders: only worth saying where every subset should have come out several
    // times.
    if let (Some(never), Some(counts)) = (analysis.subsets_never_seen, &tally.subset_counts)
        && never > 0
        && trials as f64 / counts.len() as f64 >= MIN_EXPECTED
    {
        writeln!(
            out,
            "  subsets never seen: {} of {} (each should come out {} times on average)",
            group_thousands(never as u64),
            group_thousands(counts.len() as u64),
            format_expected(trials as f64 / counts.len() as f64)
        )
        .unwrap();
    }
    // As for subsets: only worth saying where each item should have been chosen several
    // times; with fewer samples, unchosen items are expected.
    if !analysis.items_never_chosen.is_empty() && trials as f64 * k as f64 / n as f64 >= MIN_EXPECTED {
        let never = match &result.about.labels {
            Some(_) => result.about.labels_of(
                &analysis
                    .items_never_chosen
                    .iter()
                    .map(|&item| item as u16)
                    .collect::<Vec<_>>(),
            ),
            None => item_list(&analysis.items_never_chosen),
        };
        writeln!(
            out,
            "  items never chosen: {never} (each should be chosen {} times on average)",
            format_expected(trials as f64 * k as f64 / n as f64)
        )
        .unwrap();
    }
    let label = |deviation: &Deviation| match analysis.outcome_table {
        SelectionOutcomes::Subsets => subset_label(deviation.cell as u64, k, &result.about),
        SelectionOutcomes::Items => format!("item {}", result.about.label(deviation.cell)),
    };
    let list = |deviations: &[Deviation]| result::deviation_list(deviations, label);
    let (most, least) = match analysis.outcome_table {
        SelectionOutcomes::Subsets => ("most frequent subsets", "least frequent subsets"),
        SelectionOutcomes::Items => ("most chosen items", "least chosen items"),
    };
    if !analysis.over_represented.is_empty() {
        writeln!(out, "  {most}: {}", list(&analysis.over_represented)).unwrap();
    }
    if !analysis.under_represented.is_empty() {
        writeln!(out, "  {least}: {}", list(&analysis.under_represented)).unwrap();
    }
    if let Some(counts) = &tally.subset_counts
        && counts.len() <= FULL_TABLE_UP_TO_SUBSETS
    {
        render_subset_table(out, counts, trials, n, k, &result.about);
    }
}

fn render_subset_table(out: &mut String, counts: &[u64], trials: u64, n: usize, k: usize, about: &About) {
    let expected = trials as f64 / counts.len() as f64;
    let mut subset: Vec<u16> = (0..k as u16).collect();
    let mut labels = Vec::with_capacity(counts.len());
    for _ in counts {
        labels.push(items(&subset, about));
        next_subset(&mut subset, n);
    }
    let width = result::label_width(&labels);
    writeln!(
        out,
        "  {:<width$} {:>12} {:>12} {:>8}",
        "subset", "count", "expected", "ratio"
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

/// Items from 0 (increasing) as `1, 5, 6` from 1, with runs of three or more written as
/// ranges (`1, 1002-2000`), so that a sampler that never picks half of 2,000 items still
/// fits on a line. JSON lists every item.
fn item_list(items: &[usize]) -> String {
    let mut parts = Vec::new();
    let mut start = 0;
    while start < items.len() {
        let mut end = start;
        while end + 1 < items.len() && items[end + 1] == items[end] + 1 {
            end += 1;
        }
        if end - start >= 2 {
            parts.push(format!("{}-{}", items[start] + 1, items[end] + 1));
        } else {
            parts.extend(items[start..=end].iter().map(|item| (item + 1).to_string()));
        }
        start = end + 1;
    }
    parts.join(", ")
}

/// The subset of colex rank `rank`, as `{2 5 7}` (or by the items' names).
pub(crate) fn subset_label(rank: u64, k: usize, about: &About) -> String {
    let mut subset = vec![0u16; k];
    unrank(rank, &mut subset);
    items(&subset, about)
}

/// Sorted items from 0, as `{1 2 3}` from 1 (or by the items' names).
fn items(subset: &[u16], about: &About) -> String {
    format!("{{{}}}", about.labels_of(subset))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subsets_are_labelled_from_1_in_braces() {
        let numbered = About::of(&crate::catalogue::SAMPLERS[0]);
        assert_eq!(items(&[0, 4, 6], &numbered), "{1 5 7}");
        // Colex rank 3 of the 3-subsets is {1, 2, 3} from 0.
        assert_eq!(subset_label(3, 3, &numbered), "{2 3 4}");
        assert_eq!(subset_label(0, 1, &numbered), "{1}");
        let named = About {
            labels: Some(["A", "B", "C", "D"].map(String::from).into()),
            ..numbered
        };
        assert_eq!(subset_label(3, 3, &named), "{B C D}");
    }

    #[test]
    fn long_runs_of_items_are_written_as_ranges() {
        assert_eq!(item_list(&[0, 4, 5]), "1, 5, 6");
        assert_eq!(item_list(&[0, 2, 3, 4, 9]), "1, 3-5, 10");
        let half: Vec<usize> = std::iter::once(0).chain(1001..2000).collect();
        assert_eq!(item_list(&half), "1, 1002-2000");
        assert_eq!(item_list(&[]), "");
    }
}
