//! From a sampler's tally to findings: the tests a sample of `k` of `n` items gets, their
//! verdict, and how large any bias is and where.
//!
//! Three tests, complementary as the permutation tests are (and the guessing game, which
//! says what a flaw is worth: [`ItemGuessingFinding`]):
//! - `subsets`: all `C(n, k)` subsets equally likely, the complete test of a sampler's
//!   promise, as long as the subsets can be tallied one by one;
//! - `ordered`: all `n!/(n-k)!` ordered selections equally likely, only for samplers that
//!   promise a random order; for the others the order is known not to be uniform (sorted
//!   output, reservoir slots), and testing it would only fail what is not promised;
//! - `inclusion`: each item picked with probability `k/n`, calibrated for the fact that
//!   each sample picks exactly `k` items ([`inclusion_fit`]); it runs at any size.
//!
//! Beside the verdict: the total variation over subsets, the most and least frequent
//! subsets, and the items never picked, named one by one, because "item 1 is never
//! chosen" is the bug report a sampler like text 002's C code calls for.

use super::{
    ItemGuessingFinding, TestOutcome, TestReport, extremes, grade_every_test, report, smallest_p_adjusted,
};
use crate::catalogue::SamplerAlgorithm;
use crate::stats::chi_square::{inclusion_fit, law_fit, uniform_fit};
use crate::stats::effect::{Deviation, TotalVariation, total_variation_from_uniform};
use crate::stats::laws::overlap_law;
use crate::stats::{PValue, Thresholds, Verdict};
use crate::tally::SelectionTally;

/// Which table the listed outcomes come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SelectionOutcomes {
    /// Cells are colex ranks of subsets.
    Subsets,
    /// Cells are items (when the subsets are too many to tally).
    Items,
}

/// Everything the statistics say about one sampler's tally.
#[derive(Clone, Debug, PartialEq)]
pub struct SelectionAnalysis {
    /// `subsets`, `ordered`, `inclusion`, in this order.
    pub tests: Vec<TestReport>,
    /// The graded verdict.
    pub verdict: Verdict,
    /// Distance of the subset frequencies from uniform (when the subsets were tallied).
    pub total_variation: Option<TotalVariation>,
    /// How many of the `C(n, k)` subsets never came out (when tallied).
    pub subsets_never_seen: Option<usize>,
    /// The items (from 0) that were never picked.
    pub items_never_chosen: Vec<usize>,
    /// Where the listed outcomes come from.
    pub outcome_table: SelectionOutcomes,
    /// Up to three outcomes that came out more often than expected, most first.
    pub over_represented: Vec<Deviation>,
    /// Up to three outcomes that came out less often than expected, fewest first.
    pub under_represented: Vec<Deviation>,
    /// The guessing game on the first samples, when it was played.
    pub guessing: Option<ItemGuessingFinding>,
}

impl SelectionAnalysis {
    /// The smallest Holm-adjusted p-value, the one the verdict is read from.
    pub fn smallest_p_adjusted(&self) -> Option<PValue> {
        smallest_p_adjusted(&self.tests)
    }
}

/// Runs every applicable test on the tally of `sampler` and grades the result.
///
/// # Panics
///
/// If the tally's `k` is 0 or `n` (see [`inclusion_fit`]); `run` refuses such a `k`.
pub fn analyse_selections(
    tally: &SelectionTally,
    sampler: SamplerAlgorithm,
    thresholds: &Thresholds,
) -> SelectionAnalysis {
    analyse_selections_with_order(tally, sampler.order_not_random(), thresholds)
}

/// [`analyse_selections`] for samples that come with no catalogue sampler (`ingest`):
/// `order_not_random` is `None` when the order of the picks is promised to be random (and
/// is tested), or why it is not.
///
/// # Panics
///
/// As [`analyse_selections`].
pub fn analyse_selections_with_order(
    tally: &SelectionTally,
    order_not_random: Option<&str>,
    thresholds: &Thresholds,
) -> SelectionAnalysis {
    let (n, k, trials) = (tally.n, tally.k, tally.trials);
    let too_many = |what: String| {
        TestOutcome::NotTallied(format!(
            "skipped: the {what} are more than 10! = 3,628,800, too many to tally one by one"
        ))
    };
    let subsets = match &tally.subset_counts {
        Some(counts) => TestOutcome::Fit(uniform_fit(counts, trials).with_lower_tail()),
        None => too_many(format!("C({n}, {k}) subsets")),
    };
    let ordered = match (order_not_random, &tally.ordered_counts) {
        (Some(reason), _) => TestOutcome::NotApplicable(format!("not tested: {reason}")),
        (None, Some(counts)) => TestOutcome::Fit(uniform_fit(counts, trials).with_lower_tail()),
        (None, None) => too_many(format!("{n}!/{}! ordered selections", n - k)),
    };
    let inclusion = TestOutcome::Fit(inclusion_fit(&tally.inclusion_counts, k, trials).with_lower_tail());
    let mut tests = vec![
        report("subsets", "all C(n,k) subsets equally likely", subsets),
        report(
            "ordered",
            "all n!/(n-k)! ordered selections equally likely",
            ordered,
        ),
        report("inclusion", "each item picked with probability k/n", inclusion),
    ];
    if let Some(overlaps) = &tally.overlap_counts {
        let pairs = overlaps.iter().sum();
        tests.push(report(
            "serial-overlap",
            "consecutive selections share items as independent ones do (hypergeometric)",
            TestOutcome::Fit(law_fit(overlaps, &overlap_law(n, k), pairs).with_lower_tail()),
        ));
    }
    let guessing = tally.guessing.as_deref().map(ItemGuessingFinding::of);
    tests.extend(guessing.as_ref().map(ItemGuessingFinding::test_report));
    let verdict = grade_every_test(&mut tests, thresholds);

    let (outcome_table, cells, expected) = match &tally.subset_counts {
        Some(counts) => (
            SelectionOutcomes::Subsets,
            counts.as_slice(),
            trials as f64 / counts.len() as f64,
        ),
        None => (
            SelectionOutcomes::Items,
            tally.inclusion_counts.as_slice(),
            trials as f64 * k as f64 / n as f64,
        ),
    };
    let (over_represented, under_represented) = extremes(cells, expected, trials);
    SelectionAnalysis {
        tests,
        verdict,
        total_variation: tally
            .subset_counts
            .as_ref()
            .map(|counts| total_variation_from_uniform(counts, trials)),
        subsets_never_seen: tally
            .subset_counts
            .as_ref()
            .map(|counts| counts.iter().filter(|&&count| count == 0).count()),
        items_never_chosen: (0..n).filter(|&item| tally.inclusion_counts[item] == 0).collect(),
        outcome_table,
        over_represented,
        under_represented,
        guessing,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::Fit;
    use crate::tally::SelectionRecorder;
    use crate::tally::combinadic::next_subset;

    fn tally_of(n: usize, k: usize, selections: &[Vec<u16>], repeat: usize, ordered: bool) -> SelectionTally {
        let mut recorder = SelectionRecorder::new(n, k, ordered);
        for _ in 0..repeat {
            for selection in selections {
                recorder.record(selection);
            }
        }
        recorder.finish()
    }

    fn every_subset(n: usize, k: usize) -> Vec<Vec<u16>> {
        let mut subset: Vec<u16> = (0..k as u16).collect();
        let mut all = vec![subset.clone()];
        while next_subset(&mut subset, n) {
            all.push(subset.clone());
        }
        all
    }

    fn outcome<'a>(analysis: &'a SelectionAnalysis, name: &str) -> &'a TestOutcome {
        &analysis.tests.iter().find(|t| t.name == name).unwrap().outcome
    }

    #[test]
    fn a_perfectly_even_tally_is_too_even_to_be_random() {
        // Every subset exactly 50 times: a program cycling through the subsets, not
        // drawing them. Its counts are closer to their expectations than chance allows.
        let tally = tally_of(6, 3, &every_subset(6, 3), 50, false);
        let analysis = analyse_selections(&tally, SamplerAlgorithm::BagPick, &Thresholds::default());
        assert_eq!(analysis.verdict, Verdict::Fail);
        assert!(matches!(outcome(&analysis, "subsets"), TestOutcome::Fit(fit) if fit.too_even()));
        assert!(analysis.total_variation.unwrap().distance < 1e-12);
        assert_eq!(analysis.subsets_never_seen, Some(0));
        assert!(analysis.items_never_chosen.is_empty());
        assert!(analysis.over_represented.is_empty() && analysis.under_represented.is_empty());
        assert!(matches!(
            outcome(&analysis, "ordered"),
            TestOutcome::NotApplicable(reason) if reason.contains("increasing order")
        ));
        let ran = analysis.tests.iter().filter(|t| t.p_adjusted.is_some()).count();
        assert_eq!(ran, 2, "Holm runs over subsets and inclusion only");
    }

    #[test]
    fn a_single_subset_fails_and_names_the_items_never_chosen() {
        // What text 002's C code does on 6 items with k = 3: {3, 2, 1}, every time.
        let tally = tally_of(6, 3, &[vec![3, 2, 1]], 1000, false);
        let analysis = analyse_selections(&tally, SamplerAlgorithm::BagPickC, &Thresholds::default());
        assert_eq!(analysis.verdict, Verdict::Fail);
        assert_eq!(analysis.items_never_chosen, vec![0, 4, 5]);
        assert_eq!(analysis.subsets_never_seen, Some(19));
        assert_eq!(analysis.outcome_table, SelectionOutcomes::Subsets);
        assert_eq!(analysis.over_represented.len(), 1);
        assert_eq!(analysis.over_represented[0].count, 1000);
        assert_eq!(analysis.under_represented[0].count, 0);
        // Every sample in one cell of 20: X = T·(cells - 1).
        match outcome(&analysis, "subsets") {
            TestOutcome::Fit(Fit::Computed { statistic, df, .. }) => {
                assert!((statistic - 19_000.0).abs() < 1e-6);
                assert_eq!(*df, 19);
            }
            other => panic!("{other:?}"),
        }
        assert!((analysis.total_variation.unwrap().distance - 0.95).abs() < 1e-12);
    }

    #[test]
    fn ordered_selections_are_tested_when_promised_and_tallied() {
        // Every ordered pair of 4 items once: uniform in order and as subsets.
        let mut pairs = Vec::new();
        for a in 0..4u16 {
            for b in (0..4u16).filter(|&b| b != a) {
                pairs.push(vec![a, b]);
            }
        }
        let tally = tally_of(4, 2, &pairs, 10, true);
        let analysis = analyse_selections(
            &tally,
            SamplerAlgorithm::PartialFisherYates,
            &Thresholds::default(),
        );
        assert!(matches!(
            outcome(&analysis, "ordered"),
            TestOutcome::Fit(fit @ Fit::Computed { df: 11, .. }) if fit.too_even()
        ));
        // Sorted pairs only: the subsets are uniform but half the orders never come out.
        let sorted: Vec<Vec<u16>> = pairs.into_iter().filter(|p| p[0] < p[1]).collect();
        let tally = tally_of(4, 2, &sorted, 20, true);
        let analysis = analyse_selections(
            &tally,
            SamplerAlgorithm::PartialFisherYates,
            &Thresholds::default(),
        );
        assert_eq!(analysis.verdict, Verdict::Fail);
        assert!(matches!(outcome(&analysis, "ordered"), TestOutcome::Fit(fit) if !fit.too_even()));
    }

    #[test]
    fn past_the_cap_only_inclusion_runs_and_items_are_listed() {
        // C(30, 15) subsets are not tallied; one sample of the even items, 5 times over,
        // is too few for the inclusion test (each item must expect 5 picks: 10 samples).
        let evens: Vec<u16> = (0..30).step_by(2).collect();
        let tally = tally_of(30, 15, &[evens], 5, true);
        let analysis = analyse_selections(
            &tally,
            SamplerAlgorithm::PartialFisherYates,
            &Thresholds::default(),
        );
        assert!(matches!(
            outcome(&analysis, "subsets"),
            TestOutcome::NotTallied(reason) if reason.contains("C(30, 15) subsets are more than 10!")
        ));
        assert!(matches!(
            outcome(&analysis, "ordered"),
            TestOutcome::NotTallied(reason) if reason.contains("30!/15! ordered selections")
        ));
        assert_eq!(
            outcome(&analysis, "inclusion"),
            &TestOutcome::Fit(Fit::TooFewTrials { needed: 10 })
        );
        assert_eq!(analysis.verdict, Verdict::Inconclusive);
        assert_eq!(analysis.outcome_table, SelectionOutcomes::Items);
        assert_eq!(
            analysis.items_never_chosen,
            (1..30).step_by(2).collect::<Vec<_>>()
        );
        assert_eq!(analysis.over_represented[0].cell, 0);
        assert_eq!(analysis.under_represented[0].cell, 1);
        assert!(analysis.total_variation.is_none() && analysis.subsets_never_seen.is_none());
    }
}
