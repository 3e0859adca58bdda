//! From a stream tally to findings: which tests apply to which generator, what they say
//! after correction, and the verdict.
//!
//! Every generator's item frequencies are tested against the intended weights. Where
//! theory knows the run and gap laws (i.i.d. draws; bags of one of each item) the
//! observed histograms are tested against them. Bags also get the order tests (position
//! within the cycle, repeats of the previous cycle) and hard bounds that no correct bag
//! can break (a bag of `c` copies never runs longer than `2c`): a broken bound fails the
//! result outright, whatever the p-values say.

use crate::analysis::{
    ItemGuessingFinding, TestOutcome, TestReport, adjust_and_grade, report, smallest_p_adjusted,
};
use crate::catalogue::generators::{BagShape, GeneratorKind};
use crate::format::group_thousands;
use crate::stats::bag_fits::{
    MOST_GAP_ITEMS, cycle_pairs_needed, cycle_position_fit, cycle_repeat_fit, gap_pairs_needed,
    one_of_each_gap_fit,
};
use crate::stats::chi_square::{LowerTail, law_fit, sequence_law_fit};
use crate::stats::stream_laws::{iid_gap_law, iid_run_law, one_of_each_gap_law};
use crate::stats::{Fit, PMethod, PValue, Thresholds, Verdict};
use crate::tally::stream::StreamTally;

/// Which law the runs and gaps are compared with.
#[derive(Clone, Debug, PartialEq)]
pub enum Theory {
    /// Independent draws with these probabilities.
    Iid(Vec<f64>),
    /// A bag dealing one of each of this many items per cycle.
    OneOfEach(u64),
    /// No law is known for this generator.
    Unknown,
}

impl Theory {
    /// The theory that applies to a generator of this kind and shape.
    pub fn for_generator(kind: GeneratorKind, shape: Option<&BagShape>, probabilities: &[f64]) -> Self {
        match (kind, shape) {
            (GeneratorKind::Iid | GeneratorKind::IfElse, _)
            | (GeneratorKind::Unrandomness { step: 0.0 }, _) => Theory::Iid(probabilities.to_vec()),
            (_, Some(shape)) if shape.exact && shape.source_copies.iter().all(|&c| c <= 1) => {
                Theory::OneOfEach(shape.source_copies.iter().sum())
            }
            _ => Theory::Unknown,
        }
    }

    /// A few words for the report.
    pub fn describe(&self) -> &'static str {
        match self {
            Theory::Iid(_) => "geometric (independent draws), exact for the stream length",
            Theory::OneOfEach(_) => "one-of-each bag: P(d) = (m - |d - m|) / m^2",
            Theory::Unknown => "no exact law known for this generator",
        }
    }
}

/// A bound no correct generator of this shape can break.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invariant {
    /// Short name, as in JSON.
    pub name: &'static str,
    /// The largest value allowed.
    pub bound: u64,
    /// The largest value seen.
    pub observed: u64,
    /// The item that reached it (its number), if any.
    pub item: Option<usize>,
}

impl Invariant {
    /// Whether the bound held.
    pub fn holds(&self) -> bool {
        self.observed <= self.bound
    }

    /// What must hold, in words, with the item named.
    pub fn describe(&self, names: &[String]) -> String {
        let item = self
            .item
            .map_or("any item".to_string(), |item| format!("'{}'", names[item]));
        match self.name {
            "longest-run" => format!(
                "no run of {item} over {}: twice the copies one cycle deals",
                group_thousands(self.bound)
            ),
            "longest-gap" => format!(
                "no gap between copies of {item} over {}: 2 x (slots - copies) + 1",
                group_thousands(self.bound)
            ),
            _ => "items of weight 0 are never drawn".to_string(),
        }
    }
}

/// Everything the statistics say about one stream tally.
#[derive(Clone, Debug, PartialEq)]
pub struct StreamAnalysis {
    /// The tests that apply, in a fixed order.
    pub tests: Vec<TestReport>,
    /// The hard bounds that apply.
    pub invariants: Vec<Invariant>,
    /// The graded verdict.
    pub verdict: Verdict,
    /// The law runs and gaps were compared with.
    pub theory: Theory,
    /// The run-length law (entry `v-1` for length `v`, the last also for longer runs).
    pub run_law: Option<Vec<f64>>,
    /// The gap law, likewise.
    pub gap_law: Option<Vec<f64>>,
    /// Items with positive weight that never came out.
    pub never_drawn: Vec<usize>,
    /// The guessing game on the first draws, when it was played.
    pub guessing: Option<ItemGuessingFinding>,
}

/// The frequency test: the items' counts against their weights. For a stream meant to be
/// independent draws both tails count (counts too close to the weights are as wrong as
/// counts too far: a shuffle bag passed off as independent draws is too even); a bag is
/// even by design, and only its upper tail counts.
fn frequency_fit(frequencies: &[u64], probabilities: &[f64], draws: u64, theory: &Theory) -> Fit {
    let fit = law_fit(frequencies, probabilities, draws);
    match theory {
        Theory::Iid(_) => fit.with_lower_tail(),
        Theory::OneOfEach(_) | Theory::Unknown => fit,
    }
}

/// Runs every applicable test on `tally` and grades the result.
pub fn analyse_stream(
    tally: &StreamTally,
    probabilities: &[f64],
    shape: Option<&BagShape>,
    theory: Theory,
    thresholds: &Thresholds,
) -> StreamAnalysis {
    let draws = tally.draws();
    let single = probabilities.iter().filter(|&&p| p > 0.0).count() < 2;
    let only_one_item =
        || TestOutcome::NotTallied("only one item has positive weight: every draw is that item".to_string());
    let mut tests = vec![report(
        "frequencies",
        "each item as often as its weight says",
        if single {
            only_one_item()
        } else {
            TestOutcome::Fit(frequency_fit(&tally.frequencies, probabilities, draws, &theory))
        },
    )];
    let (run_law, gap_law) = match &theory {
        Theory::Iid(p) => (iid_run_law(p, tally.length), iid_gap_law(p, tally.length)),
        Theory::OneOfEach(m) => (None, one_of_each_gap_law(*m, tally.length)),
        Theory::Unknown => (None, None),
    };
    let law_test = |name, description, law: &Option<Vec<f64>>, histogram: crate::tally::stream::Histogram| {
        let outcome = match law {
            _ if single => only_one_item(),
            // Only i.i.d. streams have a run law: both tails, as for their frequencies.
            Some(law) => TestOutcome::Fit(
                sequence_law_fit(&histogram.folded(law.len()), law, histogram.total()).with_lower_tail(),
            ),
            None => TestOutcome::NotTallied(
                "no law for this stream length (too short, or weights too uneven to compute it)".to_string(),
            ),
        };
        report(name, description, outcome)
    };
    if matches!(theory, Theory::Iid(_)) {
        tests.push(law_test(
            "run-lengths",
            "complete runs follow the geometric law",
            &run_law,
            tally.all_runs(),
        ));
        let outcome = if single {
            only_one_item()
        } else if let Theory::Iid(p) = &theory {
            iid_gaps_by_item(tally, p)
        } else {
            unreachable!("inside the i.i.d. branch")
        };
        tests.push(report(
            "gaps",
            "each item's gaps follow its geometric law (worst item, Bonferroni over items)",
            outcome,
        ));
    }
    if let Theory::OneOfEach(m) = theory {
        let pairs = tally.repeats.as_ref().map_or(0, |repeats| repeats.cycle_pairs);
        let outcome = match (&tally.cycle_gaps, gap_pairs_needed(m)) {
            (_, None) => TestOutcome::NotTallied(format!(
                "more than {MOST_GAP_ITEMS} items: the exact covariance of their gaps is not computed"
            )),
            (Some(histogram), Some(needed)) if pairs >= needed => {
                TestOutcome::Fit(one_of_each_gap_fit(histogram, pairs, m))
            }
            (_, Some(needed)) => TestOutcome::NotTallied(format!(
                "needs {} pairs of consecutive complete cycles ({} here): more or longer streams",
                group_thousands(needed),
                group_thousands(pairs)
            )),
        };
        tests.push(report(
            "gaps",
            "gaps between cycles follow the one-of-each bag law (Wald, exact covariance)",
            outcome,
        ));
    }
    if let (Some(table), Some(cycle), Some(shape)) = (&tally.cycle_positions, &tally.cycle, shape) {
        let outcome = if shape.source_copies.iter().filter(|&&c| c > 0).count() < 2 {
            one_item_bag()
        } else if tally.length < shape.slots {
            short_streams(shape.slots, 1)
        } else {
            // The covariance scale is that of the bag a cycle is drawn from: S/(S-1) for a
            // whole bag, 2S/(2S-1) for a half of a doubled one.
            TestOutcome::Fit(cycle_position_fit(
                table,
                cycle.bins(),
                tally.frequencies.len(),
                shape.source_slots,
            ))
        };
        tests.push(report(
            "cycle-positions",
            "each item equally likely at every position of the bag's cycle",
            outcome,
        ));
    }
    if let (Some(repeats), Some(shape)) = (&tally.repeats, shape) {
        let outcome = match cycle_pairs_needed(&shape.source_copies) {
            None => one_item_bag(),
            Some(_) if tally.length < 2 * shape.slots => short_streams(shape.slots, 2),
            Some(needed) if repeats.cycle_pairs < needed => TestOutcome::NotTallied(format!(
                "needs {} pairs of consecutive complete cycles for a near-normal count ({} here): more or longer streams",
                group_thousands(needed),
                group_thousands(repeats.cycle_pairs)
            )),
            Some(_) => TestOutcome::Fit(cycle_repeat_fit(
                repeats.matches,
                repeats.cycle_pairs,
                &shape.source_copies,
            )),
        };
        tests.push(report(
            "cycle-repeats",
            "a cycle repeats the item of the cycle before as often as chance",
            outcome,
        ));
    }
    let guessing = tally.guessing.as_deref().map(ItemGuessingFinding::of);
    tests.extend(guessing.as_ref().map(ItemGuessingFinding::test_report));
    let mut verdict = adjust_and_grade(&mut tests, thresholds);
    let invariants = invariants(tally, probabilities, shape);
    if invariants.iter().any(|invariant| !invariant.holds()) {
        verdict = Verdict::Fail;
    }
    StreamAnalysis {
        tests,
        invariants,
        verdict,
        theory,
        run_law,
        gap_law,
        never_drawn: (0..probabilities.len())
            .filter(|&item| probabilities[item] > 0.0 && tally.frequencies[item] == 0)
            .collect(),
        guessing,
    }
}

/// Each item's gaps against its own exact law, the worst item reported with its p-value
/// multiplied by the number of items tested (Bonferroni).
///
/// Gaps of different items are not independent (with two items, A's gaps are one more
/// than B's runs), and pooling them into one histogram makes a χ² that rejects a fair
/// stream several times too often when one item is rare. Each item's own gaps form a
/// renewal sequence, for which the χ² against the law conditioned on their number holds,
/// and Bonferroni's bound holds whatever the dependence between items.
fn iid_gaps_by_item(tally: &StreamTally, probabilities: &[f64]) -> TestOutcome {
    let mut fits = Vec::new();
    let mut draws_needed = u64::MAX;
    for (item, &p) in probabilities.iter().enumerate() {
        let Some(law) = iid_gap_law(&[p], tally.length) else {
            continue;
        };
        let gaps = &tally.gaps[item];
        match sequence_law_fit(&gaps.folded(law.len()), &law, gaps.total()) {
            Fit::Computed {
                statistic,
                df,
                cells,
                p: p_value,
                ..
            } => fits.push((p_value, statistic, df, cells)),
            // `needed` counts gaps of this item; about one per 1/p draws.
            Fit::TooFewTrials { needed } => {
                draws_needed = draws_needed.min((needed as f64 / p).ceil().min(u64::MAX as f64) as u64);
            }
        }
    }
    let Some(&(worst, statistic, df, cells)) = fits.iter().min_by(|a, b| a.0.log10().total_cmp(&b.0.log10()))
    else {
        return TestOutcome::Fit(Fit::TooFewTrials { needed: draws_needed });
    };
    let bonferroni = PValue::from_log10((worst.log10() + (fits.len() as f64).log10()).min(0.0));
    TestOutcome::Fit(Fit::with_tails(
        statistic,
        df,
        cells,
        bonferroni,
        PMethod::ChiSquare,
        LowerTail::ChiSquare,
    ))
}

/// A cycle test of a bag whose order cannot vary.
fn one_item_bag() -> TestOutcome {
    TestOutcome::NotTallied("the bag holds a single item: its order cannot vary".to_string())
}

/// A cycle test that streams of this length cannot feed: only complete cycles count.
fn short_streams(slots: u64, cycles: u64) -> TestOutcome {
    TestOutcome::NotTallied(format!(
        "streams are shorter than {} complete cycle{} of {} draws: use --length {} or more",
        cycles,
        if cycles == 1 { "" } else { "s" },
        group_thousands(slots),
        cycles * slots
    ))
}

fn invariants(tally: &StreamTally, probabilities: &[f64], shape: Option<&BagShape>) -> Vec<Invariant> {
    let mut invariants = Vec::new();
    if let Some(shape) = shape {
        // A run crosses at most one cycle boundary unless a whole cycle is one item, so
        // an item dealt at most c times per cycle never runs longer than 2c. Each item
        // has its own bound; the one closest to (or furthest past) it is reported.
        let worst = (0..shape.most_per_cycle.len())
            .filter(|&item| shape.most_per_cycle[item] > 0 && shape.most_per_cycle[item] < shape.slots)
            .map(|item| {
                let bound = 2 * shape.most_per_cycle[item];
                (tally.longest_run[item] as i128 - bound as i128, item, bound)
            })
            .max();
        if let Some((_, item, bound)) = worst {
            invariants.push(Invariant {
                name: "longest-run",
                bound,
                observed: tally.longest_run[item],
                item: Some(item),
            });
        }
        if shape.exact {
            // Consecutive copies of an item are at most 2(S - c) + 1 apart in whole bags.
            let worst = (0..shape.source_copies.len())
                .filter(|&item| shape.source_copies[item] > 0)
                .map(|item| {
                    let bound = 2 * (shape.slots - shape.source_copies[item]) + 1;
                    (tally.gaps[item].max() as i128 - bound as i128, item, bound)
                })
                .max();
            if let Some((_, item, bound)) = worst {
                invariants.push(Invariant {
                    name: "longest-gap",
                    bound,
                    observed: tally.gaps[item].max(),
                    item: Some(item),
                });
            }
        }
    }
    let weightless: Vec<usize> = (0..probabilities.len())
        .filter(|&item| probabilities[item] == 0.0)
        .collect();
    if !weightless.is_empty() {
        let (observed, item) = weightless
            .iter()
            .map(|&item| (tally.frequencies[item], item))
            .max()
            .expect("not empty");
        invariants.push(Invariant {
            name: "weightless-items",
            bound: 0,
            observed,
            item: Some(item),
        });
    }
    invariants
}

impl StreamAnalysis {
    /// The smallest Holm-adjusted p-value.
    pub fn smallest_p_adjusted(&self) -> Option<PValue> {
        smallest_p_adjusted(&self.tests)
    }

    /// Whether any test could not run for lack of draws.
    pub fn needs_more_draws(&self) -> bool {
        self.tests
            .iter()
            .any(|test| matches!(test.outcome, TestOutcome::Fit(Fit::TooFewTrials { .. })))
    }
}
