//! From a tally to findings: which tests apply, what they say after correction, the
//! verdict, and how large the bias is and where.
//!
//! This is the one place that knows which tests a permutation tally gets. The tests are
//! complementary: the full order table catches everything on small decks, the position
//! matrix scales to large decks, and fixed points and cycles catch structural biases
//! (the Sattolo family's single cycles, a random cut's rotations) directly, on decks of
//! any size. Sampler tallies get theirs in [`selections`], graded by the same rules
//! (Holm's correction over the tests that ran, then [`Thresholds::verdict`]).

mod caught;
mod guessing;
mod item_guessing;
pub mod power;
mod repeats;
mod selections;

pub use caught::{caught_by, what_it_shows};
pub use guessing::GuessingFinding;
pub use item_guessing::{ItemGuessingFinding, ItemNull};
pub use repeats::RepeatsFinding;
pub use selections::{
    SelectionAnalysis, SelectionOutcomes, analyse_selections, analyse_selections_with_order,
};

use crate::stats::chi_square::{law_fit, position_fit, uniform_fit, uniform_fit_from_squares};
use crate::stats::effect::{Deviation, TotalVariation, extreme_cells, total_variation_from_uniform};
use crate::stats::eulerian::rising_sequence_law;
use crate::stats::holm::holm_adjust;
use crate::stats::laws::{cycle_count_law, fixed_point_law};
use crate::stats::{Fit, PMethod, PValue, Thresholds, Verdict};
use crate::tally::lehmer::MAX_RANKED_N;
use crate::tally::{OrderSummary, PermutationTally};

/// How many over- and under-represented outcomes a result lists.
pub const WORST_LISTED: usize = 3;

/// What became of one test.
#[derive(Clone, Debug, PartialEq)]
pub enum TestOutcome {
    /// It ran, or it needed more trials.
    Fit(Fit),
    /// Its table was not tallied (decks over ten cards have no order table).
    NotTallied(String),
    /// The test does not apply to this algorithm (a sampler that does not promise a
    /// random order gets no test of its order), with the reason.
    NotApplicable(String),
    /// It ran on one count against its expectation (the repeated decks).
    Count {
        /// What was counted.
        observed: u64,
        /// What a fair shuffle gives on average.
        expected: f64,
        /// The p-value of so many or more.
        p: PValue,
        /// How it was computed.
        method: PMethod,
    },
}

/// One test of one result.
#[derive(Clone, Debug, PartialEq)]
pub struct TestReport {
    /// Short name, as in JSON: `permutations`, `positions`, `fixed-points`, `cycles`; for
    /// samplers `subsets`, `ordered`, `inclusion`.
    pub name: &'static str,
    /// What it checks, in a few words.
    pub description: &'static str,
    /// Its outcome.
    pub outcome: TestOutcome,
    /// Holm-adjusted p-value, for tests that ran.
    pub p_adjusted: Option<PValue>,
}

impl TestReport {
    /// The raw p-value, for tests that ran.
    pub fn p_value(&self) -> Option<PValue> {
        match self.outcome {
            TestOutcome::Fit(Fit::Computed { p, .. }) | TestOutcome::Count { p, .. } => Some(p),
            _ => None,
        }
    }

    /// How its p-value was computed, for tests that ran.
    pub fn p_method(&self) -> Option<PMethod> {
        match &self.outcome {
            TestOutcome::Fit(fit) => fit.p_method(),
            TestOutcome::Count { method, .. } => Some(*method),
            _ => None,
        }
    }

    /// Whether its p-value comes from counts too even to be random (a lower tail).
    pub fn too_even(&self) -> bool {
        matches!(&self.outcome, TestOutcome::Fit(fit) if fit.too_even())
    }
}

/// Which table the listed outcomes come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutcomeTable {
    /// Cells are Lehmer ranks of whole orders.
    Permutations,
    /// Cells are `item * n + position`.
    Positions,
}

/// Everything the statistics say about one tally.
#[derive(Clone, Debug, PartialEq)]
pub struct PermutationAnalysis {
    /// Every test, in a fixed order.
    pub tests: Vec<TestReport>,
    /// The graded verdict.
    pub verdict: Verdict,
    /// Distance of the order frequencies from uniform (`n <= 10`).
    pub total_variation: Option<TotalVariation>,
    /// How many of the `n!` orders never came out (`n <= 10`).
    pub orders_never_seen: Option<usize>,
    /// Where the listed outcomes come from.
    pub outcome_table: OutcomeTable,
    /// Up to three outcomes that came out more often than expected, most first.
    pub over_represented: Vec<Deviation>,
    /// Up to three outcomes that came out less often than expected, fewest first.
    pub under_represented: Vec<Deviation>,
    /// The repeated decks, when they were counted.
    pub repeats: Option<RepeatsFinding>,
    /// The card-guessing game, when it was played.
    pub guessing: Option<GuessingFinding>,
}

/// The names and descriptions of the tests of one table of deals: the deals themselves,
/// or their relative permutations (each deal written in terms of the one before).
struct DealTestNames {
    permutations: (&'static str, &'static str),
    positions: (&'static str, &'static str),
    fixed_points: (&'static str, &'static str),
    cycles: (&'static str, &'static str),
    rising_sequences: (&'static str, &'static str),
}

const DEAL_TESTS: DealTestNames = DealTestNames {
    permutations: ("permutations", "all n! orders equally likely"),
    positions: ("positions", "each card equally likely at each position"),
    fixed_points: ("fixed-points", "cards left in place follow the rencontres law"),
    cycles: ("cycles", "number of cycles follows the Stirling law"),
    rising_sequences: ("rising-sequences", "rising sequences follow the Eulerian law"),
};

const SERIAL_TESTS: DealTestNames = DealTestNames {
    permutations: (
        "serial-permutations",
        "each deal in terms of the one before: all n! orders equally likely",
    ),
    positions: (
        "serial-positions",
        "each card moves from its place in the deal before to any place equally often",
    ),
    fixed_points: (
        "serial-fixed-points",
        "cards left where the deal before had them follow the rencontres law",
    ),
    cycles: (
        "serial-cycles",
        "each deal in terms of the one before: cycles follow the Stirling law",
    ),
    rising_sequences: (
        "serial-rising-sequences",
        "each deal in terms of the one before: rising sequences follow the Eulerian law",
    ),
};

/// The tests of one table of deals, each with both tails.
fn deal_tests(
    tally: &PermutationTally,
    orders: Option<&OrderSummary>,
    names: &DealTestNames,
) -> Vec<TestReport> {
    let n = tally.n;
    let trials = tally.trials;
    let not_tallied = || TestOutcome::NotTallied("not tallied in this run".to_string());
    let permutations = match (&tally.permutation_counts, orders) {
        (Some(counts), _) => TestOutcome::Fit(uniform_fit(counts, trials).with_lower_tail()),
        (None, Some(orders)) => TestOutcome::Fit(
            uniform_fit_from_squares(orders.sum_of_squares, orders.orders(), trials).with_lower_tail(),
        ),
        (None, None) if n > MAX_RANKED_N => TestOutcome::NotTallied(format!(
            "skipped: n = {n} > {MAX_RANKED_N}, the {n}! orders are not tallied one by one"
        )),
        (None, None) => not_tallied(),
    };
    let law_test = |counts: &Option<Vec<u64>>, law: fn(usize) -> Vec<f64>| {
        counts.as_ref().map_or_else(not_tallied, |counts| {
            TestOutcome::Fit(law_fit(counts, &law(n), trials).with_lower_tail())
        })
    };
    let positions = tally.position_counts.as_ref().map_or_else(not_tallied, |matrix| {
        TestOutcome::Fit(position_fit(matrix, n, trials).with_lower_tail())
    });
    let entry =
        |(name, description): (&'static str, &'static str), outcome| report(name, description, outcome);
    let mut tests = vec![
        entry(names.permutations, permutations),
        entry(names.positions, positions),
        entry(
            names.fixed_points,
            law_test(&tally.fixed_point_counts, fixed_point_law),
        ),
        entry(names.cycles, law_test(&tally.cycle_counts, cycle_count_law)),
    ];
    if tally.rising_sequence_counts.is_some() {
        tests.push(entry(
            names.rising_sequences,
            law_test(&tally.rising_sequence_counts, rising_sequence_law),
        ));
    }
    tests
}

/// Runs every applicable test on `tally` and grades the result.
pub fn analyse_permutations(tally: &PermutationTally, thresholds: &Thresholds) -> PermutationAnalysis {
    analyse(tally, None, thresholds, 0)
}

/// [`analyse_permutations`] of deals read against one of them: `ingest`'s first line fixes
/// the deck, so that line is the deck in order by construction and is not tallied as an
/// order (it would add the same order, `n` fixed points and one rising sequence to every
/// input); it still counts in the sequence (serial pairs, repeats). A test that needs `m`
/// orders then needs `m + reference_deals` deals, and says so in deals, as the headline
/// does.
pub fn analyse_permutations_read_against(
    tally: &PermutationTally,
    thresholds: &Thresholds,
    reference_deals: u64,
) -> PermutationAnalysis {
    analyse(tally, None, thresholds, reference_deals)
}

/// [`analyse_permutations`] of a tally whose order counts are known only by their
/// [`OrderSummary`] (the live page's view of a run as it goes): the same tests, the
/// permutation test's statistic from the summary's sum of squares (equal to the counts'
/// to the last few bits), the orders never seen from its count of those seen; the total
/// variation and the most and least frequent orders need every count, and are left out
/// (the extremes come from the position matrix instead).
pub fn analyse_permutation_summary(
    tally: &PermutationTally,
    orders: &OrderSummary,
    thresholds: &Thresholds,
) -> PermutationAnalysis {
    let mut analysis = analyse(tally, Some(orders), thresholds, 0);
    analysis.orders_never_seen = Some((orders.orders() - orders.seen) as usize);
    analysis
}

fn analyse(
    tally: &PermutationTally,
    orders: Option<&OrderSummary>,
    thresholds: &Thresholds,
    reference_deals: u64,
) -> PermutationAnalysis {
    let n = tally.n;
    let trials = tally.trials;
    let mut tests = deal_tests(tally, orders, &DEAL_TESTS);
    for test in &mut tests {
        if let TestOutcome::Fit(Fit::TooFewTrials { needed }) = &mut test.outcome {
            *needed += reference_deals;
        }
    }
    match &tally.serial {
        // The serial tally counts pairs of consecutive deals: a test that needs `m` pairs
        // needs `m + 1` deals, and says so in deals, as the headline does.
        Some(serial) => tests.extend(
            deal_tests(
                serial,
                orders.and_then(|orders| orders.serial.as_deref()),
                &SERIAL_TESTS,
            )
            .into_iter()
            .map(|mut test| {
                if let TestOutcome::Fit(Fit::TooFewTrials { needed }) = &mut test.outcome {
                    *needed += 1;
                }
                test
            }),
        ),
        // `run` leaves the deals out of order only where they cannot depend on each other.
        None => tests.push(report(
            "serial",
            "each deal in terms of the one before",
            TestOutcome::NotApplicable(
                "skipped: every deal starts from the fresh deck and draws from its own xoshiro stream, \
                 so consecutive deals are independent by construction"
                    .to_string(),
            ),
        )),
    }
    let repeats = tally.repeats.as_ref().map(|counts| RepeatsFinding::of(counts, n));
    if let Some(finding) = &repeats {
        tests.push(report(
            "repeats",
            "no more decks dealt twice than chance allows",
            finding.outcome(),
        ));
    }
    let guessing = tally.guessing.as_deref().map(GuessingFinding::of);
    tests.extend(guessing.as_ref().map(GuessingFinding::test_report));
    let verdict = grade_every_test(&mut tests, thresholds);

    let (outcome_table, cells, expected) = match (&tally.permutation_counts, &tally.position_counts) {
        (Some(counts), _) => (
            OutcomeTable::Permutations,
            counts.as_slice(),
            trials as f64 / counts.len() as f64,
        ),
        (None, Some(matrix)) => (
            OutcomeTable::Positions,
            matrix.as_slice(),
            trials as f64 / n as f64,
        ),
        (None, None) => (OutcomeTable::Positions, &[][..], 0.0),
    };
    let (over_represented, under_represented) = extremes(cells, expected, trials);
    PermutationAnalysis {
        tests,
        verdict,
        // No orders tallied (a single deal read against itself): no distance to give.
        total_variation: tally
            .permutation_counts
            .as_ref()
            .filter(|_| trials > 0)
            .map(|counts| total_variation_from_uniform(counts, trials)),
        orders_never_seen: tally
            .permutation_counts
            .as_ref()
            .map(|counts| counts.iter().filter(|&&count| count == 0).count()),
        outcome_table,
        over_represented,
        under_represented,
        repeats,
        guessing,
    }
}

impl PermutationAnalysis {
    /// The smallest Holm-adjusted p-value, the one the verdict is read from.
    pub fn smallest_p_adjusted(&self) -> Option<PValue> {
        smallest_p_adjusted(&self.tests)
    }
}

/// Fills in the Holm-adjusted p-values of the tests that ran and grades them.
pub(crate) fn adjust_and_grade(tests: &mut [TestReport], thresholds: &Thresholds) -> Verdict {
    let ran: Vec<usize> = (0..tests.len())
        .filter(|&i| tests[i].p_value().is_some())
        .collect();
    let raw: Vec<PValue> = ran.iter().filter_map(|&i| tests[i].p_value()).collect();
    for (&i, adjusted) in ran.iter().zip(holm_adjust(&raw)) {
        tests[i].p_adjusted = Some(adjusted);
    }
    thresholds.verdict(tests.iter().filter_map(|test| test.p_adjusted))
}

/// [`adjust_and_grade`], for shuffles and samples: `pass` only when every test had the
/// trials it needs. A pass on the tests that could run while one was left out for too few
/// trials (say, 1,000 shuffles of 6 cards leave the permutation test, which needs 3,600,
/// out) proved nothing about what that test looks at: it is `inconclusive`. Tests left out
/// by design (orders of more than 10 cards) do not count against a pass.
///
/// This is the one place that decides it, so that the headline, JSON, CSV, JUnit, the
/// HTML badge and the exit status all render the same verdict. (A stream's tests of rare
/// items are often left out by design, and its verdict stands: see `stream::analysis`.)
pub(crate) fn grade_every_test(tests: &mut [TestReport], thresholds: &Thresholds) -> Verdict {
    let verdict = adjust_and_grade(tests, thresholds);
    let one_lacked_trials = tests
        .iter()
        .any(|test| matches!(test.outcome, TestOutcome::Fit(Fit::TooFewTrials { .. })));
    if verdict == Verdict::Pass && one_lacked_trials {
        Verdict::Inconclusive
    } else {
        verdict
    }
}

/// The smallest Holm-adjusted p-value among `tests`.
pub fn smallest_p_adjusted(tests: &[TestReport]) -> Option<PValue> {
    tests
        .iter()
        .filter_map(|test| test.p_adjusted)
        .min_by(|a, b| a.log10().total_cmp(&b.log10()))
}

/// The most over- and under-represented of `cells` (each expecting `expected`), each list
/// keeping only cells on its side of the expectation: with two cells, or counts near
/// expectation, the two lists would otherwise overlap.
fn extremes(cells: &[u64], expected: f64, trials: u64) -> (Vec<Deviation>, Vec<Deviation>) {
    let (mut over_represented, mut under_represented) = if trials > 0 {
        extreme_cells(cells, expected, WORST_LISTED)
    } else {
        (Vec::new(), Vec::new())
    };
    over_represented.retain(|cell| cell.ratio > 1.0);
    under_represented.retain(|cell| cell.ratio < 1.0);
    (over_represented, under_represented)
}

/// A test not yet adjusted.
pub(crate) fn report(name: &'static str, description: &'static str, outcome: TestOutcome) -> TestReport {
    TestReport {
        name,
        description,
        outcome,
        p_adjusted: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tally::{PermutationRecorder, TallyOptions};

    fn tally_of(decks: &[&[u16]], repeat: usize) -> PermutationTally {
        let mut recorder = PermutationRecorder::new(decks[0].len(), TallyOptions::default());
        for _ in 0..repeat {
            for deck in decks {
                recorder.record(deck);
            }
        }
        recorder.finish()
    }

    #[test]
    fn a_perfectly_even_tally_is_too_even_to_be_random() {
        // Every order exactly 10,000 times: what a program that deals the 6 orders in turn
        // gives. Each deal alone looks fair; together they are more even than chance: the
        // chance of counts exactly at their expectations is the multinomial's,
        // 10^-11.6 here (the χ² law's lower tail, 0, would overstate it), and the lower
        // tails say so.
        let all: [&[u16]; 6] = [
            &[0, 1, 2],
            &[0, 2, 1],
            &[1, 0, 2],
            &[1, 2, 0],
            &[2, 0, 1],
            &[2, 1, 0],
        ];
        let analysis = analyse_permutations(&tally_of(&all, 10_000), &Thresholds::default());
        assert_eq!(analysis.verdict, Verdict::Fail);
        let permutations = analysis.tests.iter().find(|t| t.name == "permutations").unwrap();
        let TestOutcome::Fit(fit) = permutations.outcome else {
            panic!("the permutation test ran")
        };
        assert!(fit.too_even());
        // Both tails and the Holm step multiply 10^-11.6 by at most 10: a real probability.
        let p = permutations.p_adjusted.unwrap();
        assert!(p.is_below(1e-9) && !p.is_below(1e-14), "{p}");
        assert_eq!(
            analysis.tests.iter().filter(|t| t.p_adjusted.is_some()).count(),
            5,
            "orders, positions, fixed points, cycles, rising sequences"
        );
        assert!(analysis.total_variation.unwrap().distance < 1e-12);
        // Every order exactly as often as expected: none is over- or under-represented.
        assert!(analysis.over_represented.is_empty() && analysis.under_represented.is_empty());
    }

    #[test]
    fn a_random_cut_fails_structure_and_its_exact_positions_are_too_even() {
        // The three rotations of 3 cards, equally often: every card is at every position
        // exactly a third of the time, but only 3 of the 6 orders ever come out. Positions
        // that even are themselves a sign (lower tail), though not the main one.
        let rotations: [&[u16]; 3] = [&[0, 1, 2], &[1, 2, 0], &[2, 0, 1]];
        let analysis = analyse_permutations(&tally_of(&rotations, 500), &Thresholds::default());
        assert_eq!(analysis.verdict, Verdict::Fail);
        let p = |name| {
            analysis
                .tests
                .iter()
                .find(|t| t.name == name)
                .unwrap()
                .p_value()
                .unwrap()
        };
        // Positions exactly uniform: too even. Their p is the chance of one row's counts
        // being exactly even (10^-3.26, doubled for the two tails), an upper bound on the
        // whole matrix's: small, though not the main sign.
        let positions = p("positions");
        assert!(
            positions.is_below(0.01) && !positions.is_below(1e-5),
            "positions exactly uniform: too even ({positions})"
        );
        assert!(p("fixed-points").is_below(1e-100));
        assert!(p("cycles").is_below(1e-100));
        assert!(p("permutations").is_below(1e-100));
        assert_eq!(analysis.outcome_table, OutcomeTable::Permutations);
        assert_eq!(analysis.orders_never_seen, Some(3));
        assert_eq!(analysis.over_represented[0].count, 500);
        assert_eq!(analysis.under_represented[0].count, 0);
    }

    #[test]
    fn too_few_trials_make_an_inconclusive_verdict() {
        let analysis = analyse_permutations(&tally_of(&[&[0, 1, 2, 3]], 3), &Thresholds::default());
        assert_eq!(analysis.verdict, Verdict::Inconclusive);
        // Every test of the deals lacks trials; the serial row says why it did not run.
        assert!(
            analysis
                .tests
                .iter()
                .filter(|t| t.name != "serial")
                .all(|t| matches!(t.outcome, TestOutcome::Fit(Fit::TooFewTrials { .. })))
        );
    }

    /// A run that tallies its deals in order (a flawed source, a carried deck) keeps its
    /// summary as listed steps are added, the relative permutations' summary and the repeats
    /// with it: the summary's tally has the tables the finished tally derives from all the
    /// counts, and every test (the serial ones included) reads the same from either.
    #[test]
    fn a_summary_of_deals_in_order_matches_the_finished_tally() {
        let n = 9;
        let options = TallyOptions {
            serial: true,
            repeats: true,
            ..TallyOptions::default()
        };
        let step_options = TallyOptions {
            listed: true,
            ..options
        };
        // A carried deck: each deal is the last one with two cards swapped, so consecutive
        // deals depend on each other (and some decks repeat within a chunk).
        let mut state = 5u64;
        let mut draw = |modulus: u64| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 33) % modulus) as usize
        };
        let mut deck: Vec<u16> = (0..n as u16).collect();
        let mut total = PermutationRecorder::new(n, options);
        let mut plain = PermutationRecorder::new(n, options);
        let mut summary = total.empty_summary();
        for step in 0..3 {
            let mut part = PermutationRecorder::new(n, step_options);
            for _chunk in 0..=step {
                part.start_chunk();
                for _ in 0..2_000 {
                    let (a, b) = (draw(n as u64), draw(n as u64));
                    deck.swap(a, b);
                    part.record(&deck);
                }
                part.end_chunk();
            }
            part.sort_listed();
            assert!(part.summarisable());
            assert!(total.merge_summarised(&part, &mut summary));
            plain.merge(&part);
        }
        let summarised = total.summary_tally(&summary);
        let finished = plain.finish();
        let tables = |tally: &PermutationTally| {
            (
                tally.trials,
                tally.position_counts.clone(),
                tally.fixed_point_counts.clone(),
                tally.cycle_counts.clone(),
                tally.rising_sequence_counts.clone(),
            )
        };
        assert_eq!(tables(&summarised), tables(&finished));
        let (serial, finished_serial) = (
            summarised.serial.as_deref().unwrap(),
            finished.serial.as_deref().unwrap(),
        );
        assert_eq!(serial.trials, 12_000 - 6, "one pair fewer than deals per chunk");
        assert_eq!(tables(serial), tables(finished_serial));
        assert_eq!(summarised.repeats, finished.repeats);
        assert!(summarised.repeats.as_ref().unwrap().repeats > 0);
        let thresholds = Thresholds::new(1e-6).unwrap();
        let from_summary = analyse_permutation_summary(&summarised, &summary, &thresholds);
        let from_counts = analyse_permutations(&finished, &thresholds);
        let outcomes = |analysis: &PermutationAnalysis| {
            analysis
                .tests
                .iter()
                .map(|test| (test.name, format!("{:?}", test.outcome)))
                .collect::<Vec<_>>()
        };
        assert_eq!(outcomes(&from_summary), outcomes(&from_counts));
        assert!(
            outcomes(&from_summary)
                .iter()
                .any(|(name, outcome)| name.starts_with("serial") && outcome.starts_with("Fit")),
            "{:?}",
            outcomes(&from_summary)
        );
    }
}
