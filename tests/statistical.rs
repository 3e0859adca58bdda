//! Fixed-seed statistical tests: every biased algorithm in the catalogue (shuffles and
//! samplers) is shown to fail and every fair one to pass, and the simulator's frequencies
//! are checked against laws derived by hand.
//!
//! Why these cannot flake: every run has a fixed seed, so its tallies, and with them its
//! verdict, are the same on every machine and at every thread count (another test checks
//! that). The sizes are chosen so that the outcome would also hold for almost any other
//! seed, and the margins are worked out next to each case:
//! - a biased case fails when the smallest Holm-adjusted p-value is below α = 1e-6; for
//!   each we give the noncentrality λ = N·Σ(p-u)²/u of its permutation test, computed from
//!   the exact law. The statistic is then about λ + df with standard deviation
//!   √(2df + 4λ), and the p-value at λ minus five standard deviations is still far below α;
//! - a fair case passes when no adjusted p-value is below 1e-3. Holm's method keeps the
//!   chance of that happening for a fair shuffle under 1e-3 for any seed, and the seeds
//!   below are the first ones tried, not picked among many. Should a change to the engine
//!   ever move the random streams, a fair case turns red with probability under 0.1%, and
//!   it shows as `suspicious` with a p-value near 1e-3, not as a wild failure.

mod common;

use common::run_settings;

use shuffle_audit::analysis::TestOutcome;
use shuffle_audit::catalogue::{AlgorithmSpec, Expectation, SamplerAlgorithm};
use shuffle_audit::run::{AlgorithmResult, SamplerResult, run};
use shuffle_audit::simulate::{Engine, NoProgress, simulate_selections};
use shuffle_audit::stats::chi_square::{inclusion_fit, law_fit};
use shuffle_audit::stats::{Fit, Verdict};
use shuffle_audit::tally::lehmer::rank;

fn run_one(algorithm: &str, n: usize, trials: u64, seed: u64) -> AlgorithmResult {
    let spec = AlgorithmSpec::parse(algorithm).expect("a catalogue name");
    let settings = run_settings(n, None, trials, seed);
    run(&[spec], &settings, &NoProgress)
        .expect("valid settings")
        .results
        .remove(0)
}

fn summary(result: &AlgorithmResult) -> String {
    common::summary(&result.analysis.tests)
}

fn assert_verdict(algorithm: &str, n: usize, trials: u64, seed: u64, expected: Verdict) {
    let result = run_one(algorithm, n, trials, seed);
    assert_eq!(
        result.analysis.verdict,
        expected,
        "{algorithm} on {n} cards, {trials} shuffles, seed {seed}: {}",
        summary(&result)
    );
    let known = if expected == Verdict::Fail {
        Expectation::Biased
    } else {
        Expectation::Fair
    };
    assert_eq!(
        result.expected, known,
        "{algorithm}: the catalogue's expectation disagrees"
    );
}

#[test]
fn text_004_naive_swap_on_three_cards_fails() {
    // Exact law: 4/27 or 5/27 for each order, Σ(p-u)²/u = 1/81, λ = 7,407 at 600,000
    // shuffles; the statistic is about 7,400 ± 170 against a critical value near 35.
    assert_verdict("naive-swap", 3, 600_000, 1, Verdict::Fail);
}

#[test]
fn text_004_fisher_yates_on_three_cards_passes() {
    assert_verdict("fisher-yates", 3, 600_000, 1, Verdict::Pass);
}

#[test]
fn biased_shuffles_fail() {
    let cases = [
        // Naive swap on 4 and 6 cards (text 004): Σ(p-u)²/u = 0.0298 and 0.0709 (exact
        // enumeration), λ = 5,957 and 14,180 against critical values near 60 and 900.
        ("naive-swap", 4, 200_000),
        ("naive-swap", 6, 200_000),
        // Only (n-1)! of the n! orders can occur: 96 of 120 cells are empty, λ = 4N.
        ("sattolo", 5, 100_000),
        ("roguelike-shuffle", 5, 100_000),
        // Probabilities 1/4 and 1/8 on 3 cards: Σ(p-u)²/u = 1/8, λ = 12,500.
        ("sort-comparator-insertion", 3, 100_000),
        // Total variation 0.17 on 4 cards: λ = 12,500.
        ("sort-comparator-merge", 4, 100_000),
        // A riffle with its cut fixed at 2 reaches only the C(5,2) = 10 interleavings of
        // its halves, of the 120 orders of 5 cards.
        ("riffle", 5, 100_000),
        // Ties among 8-bit keys keep the original order: Σ(p-u)²/u = 4.58e-5 on 3 cards
        // (computed over all 256³ keys), λ = 458, statistic 463 ± 43 against about 38.
        ("sort-random-key-u8", 3, 10_000_000),
        // Two naive passes on 3 cards: Σ(p-u)²/u = 1.69e-5 (all 729 paths), λ = 339,
        // statistic 344 ± 37 against about 38.
        ("naive-repeated:2", 3, 20_000_000),
    ];
    for (seed, (algorithm, n, trials)) in cases.into_iter().enumerate() {
        assert_verdict(algorithm, n, trials, seed as u64 + 1, Verdict::Fail);
    }
}

#[test]
fn fair_shuffles_pass() {
    let cases = [
        ("fisher-yates", 4, 1_000_000),
        ("fisher-yates", 8, 1_000_000),
        ("fisher-yates", 12, 500_000),
        ("fisher-yates", 52, 300_000),
        ("fisher-yates-forward", 5, 1_000_000),
        ("fisher-yates-forward", 30, 300_000),
        ("sort-random-key", 6, 1_000_000),
        ("sort-random-key", 20, 200_000),
        ("insert-with-retry", 4, 1_000_000),
        ("insert-with-retry", 7, 1_000_000),
        ("insert-with-retry", 25, 200_000),
    ];
    for (seed, (algorithm, n, trials)) in cases.into_iter().enumerate() {
        assert_verdict(algorithm, n, trials, seed as u64 + 1, Verdict::Pass);
    }
}

#[test]
fn the_naive_bias_shows_on_a_52_card_deck() {
    // At 1,000,000 shuffles the position statistic is about 660,000 on 2,601 degrees of
    // freedom; at 200,000 it is still about 130,000, against a critical value near 2,900.
    let trials = 200_000;
    let result = run_one("naive-swap", 52, trials, 3);
    assert_eq!(result.analysis.verdict, Verdict::Fail, "{}", summary(&result));
    // Where it shows: the top position holds card 2 1.352 times as often as chance and
    // card 52 0.743 times (exact, from the Markov chain of one card's position). At
    // 200,000 shuffles these cells' ratios have standard deviations of 0.0185 and 0.0138,
    // so both bounds below are more than seven standard deviations inside.
    let positions = result.tally.position_counts.as_ref().unwrap();
    let ratio =
        |card: usize, position: usize| positions[card * 52 + position] as f64 / (trials as f64 / 52.0);
    assert!(ratio(1, 0) > 1.22, "card 2 on top: ratio {}", ratio(1, 0));
    assert!(ratio(51, 0) < 0.85, "card 52 on top: ratio {}", ratio(51, 0));
}

#[test]
fn sattolo_never_leaves_a_card_in_place() {
    // Structural, not statistical: every Sattolo shuffle is a single n-cycle.
    for n in [2, 3, 5, 8, 10, 13, 40] {
        let result = run_one("sattolo", n, 50_000, 9);
        let fixed = result.tally.fixed_point_counts.as_ref().unwrap();
        let cycles = result.tally.cycle_counts.as_ref().unwrap();
        assert_eq!(fixed[0], 50_000, "sattolo on {n} cards left a card in place");
        assert_eq!(cycles[1], 50_000, "sattolo on {n} cards made more than one cycle");
    }
}

/// The simulated frequencies fit the exact law (a goodness-of-fit test that must pass):
/// this is what shows the simulator itself is right, not merely that it finds bias.
fn assert_fits(algorithm: &str, n: usize, law: &[(&[u16], f64)], trials: u64, seed: u64) {
    let result = run_one(algorithm, n, trials, seed);
    let counts = result.tally.permutation_counts.as_ref().unwrap();
    let mut probabilities = vec![0.0; counts.len()];
    for (permutation, probability) in law {
        probabilities[rank(permutation)] = *probability;
    }
    assert!(
        (probabilities.iter().sum::<f64>() - 1.0).abs() < 1e-12,
        "the law must sum to 1"
    );
    match law_fit(counts, &probabilities, trials) {
        // A correct simulator fails this at 1e-3 with probability 1e-3; the seed is fixed.
        Fit::Computed { p, .. } => assert!(
            !p.is_below(1e-3),
            "{algorithm} does not fit its exact law: p = {p}"
        ),
        Fit::TooFewTrials { needed } => panic!("needs {needed} trials"),
    }
    for (rank_index, &probability) in probabilities.iter().enumerate() {
        if probability == 0.0 {
            assert_eq!(counts[rank_index], 0, "{algorithm} produced an impossible order");
        }
    }
}

#[test]
fn naive_swap_on_three_cards_matches_its_27_paths() {
    // Text 004: of the 27 paths, 5 lead to each of 1 3 2, 2 1 3, 2 3 1 and 4 to the others.
    let four = 4.0 / 27.0;
    let five = 5.0 / 27.0;
    let law: [(&[u16], f64); 6] = [
        (&[0, 1, 2], four),
        (&[0, 2, 1], five),
        (&[1, 0, 2], five),
        (&[1, 2, 0], five),
        (&[2, 0, 1], four),
        (&[2, 1, 0], four),
    ];
    assert_fits("naive-swap", 3, &law, 2_000_000, 21);
}

#[test]
fn comparator_insertion_sort_on_three_cards_matches_its_coin_flips() {
    // Card 2 stays put with probability 1/2, moves one left with 1/4, two with 1/4;
    // cards 0 and 1 swap with probability 1/2.
    let law: [(&[u16], f64); 6] = [
        (&[0, 1, 2], 0.25),
        (&[1, 0, 2], 0.25),
        (&[0, 2, 1], 0.125),
        (&[1, 2, 0], 0.125),
        (&[2, 0, 1], 0.125),
        (&[2, 1, 0], 0.125),
    ];
    assert_fits("sort-comparator-insertion", 3, &law, 2_000_000, 22);
}

#[test]
fn riffle_on_three_cards_matches_its_merges() {
    // Halves [0] and [1, 2]: card 0 goes first (1/2), second (1/4) or last (1/4).
    let law: [(&[u16], f64); 3] = [(&[0, 1, 2], 0.5), (&[1, 0, 2], 0.25), (&[1, 2, 0], 0.25)];
    assert_fits("riffle", 3, &law, 2_000_000, 23);
}

#[test]
fn sattolo_on_four_cards_is_uniform_over_the_six_four_cycles() {
    let sixth = 1.0 / 6.0;
    let law: [(&[u16], f64); 6] = [
        (&[1, 2, 3, 0], sixth),
        (&[1, 3, 0, 2], sixth),
        (&[2, 0, 3, 1], sixth),
        (&[2, 3, 1, 0], sixth),
        (&[3, 0, 1, 2], sixth),
        (&[3, 2, 0, 1], sixth),
    ];
    assert_fits("sattolo", 4, &law, 1_200_000, 24);
    assert_fits("roguelike-shuffle", 4, &law, 1_200_000, 25);
}

// Samplers: pick k of n items.
//
// The same reasoning keeps these from flaking. A fair sampler passes when no Holm-adjusted
// p-value is below 1e-3, which for any seed happens with probability under 1e-3, and the
// seeds below are the first ones tried (one run each, not picked among many). The biased
// case does not depend on the draws at all: text 002's C code writes {k, …, 1} whatever
// it draws, so every sample lands in one of the C(n, k) subset cells and the subset
// statistic is exactly T·(C(n, k) - 1), e.g. 7.6 million on 19 degrees of freedom.

fn run_samplers(algorithms: &[&str], n: usize, k: usize, trials: u64, seed: u64) -> Vec<SamplerResult> {
    let specs: Vec<AlgorithmSpec> = algorithms
        .iter()
        .map(|name| AlgorithmSpec::parse(name).expect("a catalogue name"))
        .collect();
    let settings = run_settings(n, Some(k), trials, seed);
    let report = run(&specs, &settings, &NoProgress).expect("valid settings");
    assert!(report.results.is_empty(), "a sampler run has no shuffle results");
    report.sampler_results
}

fn sampler_summary(result: &SamplerResult) -> String {
    common::summary(&result.analysis.tests)
}

fn test_outcome<'a>(result: &'a SamplerResult, name: &str) -> &'a TestOutcome {
    &result
        .analysis
        .tests
        .iter()
        .find(|test| test.name == name)
        .unwrap()
        .outcome
}

#[test]
fn fair_samplers_pass_and_text_002s_c_code_fails() {
    let fair = ["bag-pick", "partial-fisher-yates", "reservoir"];
    for (seed, algorithm) in fair.into_iter().enumerate() {
        let result = run_samplers(&[algorithm], 6, 3, 400_000, seed as u64 + 1).remove(0);
        assert_eq!(
            result.analysis.verdict,
            Verdict::Pass,
            "{algorithm}: {}",
            sampler_summary(&result)
        );
        assert_eq!(result.expected, Expectation::Fair, "{algorithm}");
    }

    let result = run_samplers(&["bag-pick-c"], 6, 3, 400_000, 4).remove(0);
    assert_eq!(
        result.analysis.verdict,
        Verdict::Fail,
        "{}",
        sampler_summary(&result)
    );
    assert_eq!(result.expected, Expectation::Biased);
    match test_outcome(&result, "subsets") {
        TestOutcome::Fit(Fit::Computed { statistic, df, .. }) => {
            assert!((statistic - 400_000.0 * 19.0).abs() < 1e-3, "{statistic}");
            assert_eq!(*df, 19);
        }
        other => panic!("{other:?}"),
    }
    // Items 1, 2 and 3 (from 0) in every sample; 0, 4 and 5 never.
    assert_eq!(result.analysis.items_never_chosen, vec![0, 4, 5]);
    assert_eq!(
        result.tally.inclusion_counts,
        vec![0, 400_000, 400_000, 400_000, 0, 0]
    );
    assert_eq!(result.analysis.subsets_never_seen, Some(19));
}

#[test]
fn fair_samplers_pass_at_other_sizes() {
    let cases = [
        // k = 1: a single uniform pick.
        ("bag-pick", 10, 1, 200_000),
        ("reservoir", 10, 1, 200_000),
        // k = n - 1: the subset is fixed by the one item left out.
        ("partial-fisher-yates", 8, 7, 1_000_000),
        // 4,845 subsets, each expecting 62.
        ("bag-pick", 20, 4, 300_000),
        ("reservoir", 20, 16, 300_000),
        // C(200, 50) subsets are far too many: only the inclusion test runs.
        ("bag-pick", 200, 50, 100_000),
        ("partial-fisher-yates", 200, 50, 100_000),
        ("reservoir", 200, 150, 100_000),
    ];
    for (seed, (algorithm, n, k, trials)) in cases.into_iter().enumerate() {
        let result = run_samplers(&[algorithm], n, k, trials, seed as u64 + 11).remove(0);
        assert_eq!(
            result.analysis.verdict,
            Verdict::Pass,
            "{algorithm}, {k} of {n}: {}",
            sampler_summary(&result)
        );
    }
}

#[test]
fn bag_pick_c_fails_at_every_k() {
    // Structural: one subset whatever the draws, so even 2,000 samples fail by far.
    for (n, k) in [(2, 1), (5, 1), (5, 4), (10, 5), (52, 5)] {
        let result = run_samplers(&["bag-pick-c"], n, k, 2_000, 7).remove(0);
        assert_eq!(result.analysis.verdict, Verdict::Fail, "{k} of {n}");
        let never: Vec<usize> = std::iter::once(0).chain(k + 1..n).collect();
        assert_eq!(result.analysis.items_never_chosen, never, "{k} of {n}");
    }
}

#[test]
fn partial_fisher_yates_orders_are_uniform_and_reservoir_order_is_not_tested() {
    // The ordered test runs over the 120 ordered selections of 3 of 6 items, each
    // expecting 3,333 of 400,000 samples; it is part of the verdict checked above, and
    // here its own raw p-value must not be below 1e-3 (same seed as above, so the same
    // tally; the seed was not chosen for this).
    let result = run_samplers(&["partial-fisher-yates"], 6, 3, 400_000, 2).remove(0);
    match test_outcome(&result, "ordered") {
        TestOutcome::Fit(Fit::Computed { df, p, .. }) => {
            assert_eq!(*df, 119);
            assert!(!p.is_below(1e-3), "ordered selections not uniform: p = {p}");
        }
        other => panic!("{other:?}"),
    }
    let ordered = result.tally.ordered_counts.as_ref().unwrap();
    assert_eq!(ordered.len(), 120);
    assert_eq!(ordered.iter().sum::<u64>(), 400_000);

    // Reservoir's order is known not to be uniform (an item that stays keeps its slot):
    // it is neither tallied nor tested, and does not count in Holm's correction. What
    // runs: the two tests of its subsets and the guessing game, played on the sorted picks.
    let result = run_samplers(&["reservoir"], 6, 3, 400_000, 3).remove(0);
    assert!(result.tally.ordered_counts.is_none());
    assert!(matches!(
        test_outcome(&result, "ordered"),
        TestOutcome::NotApplicable(_)
    ));
    let ran = result
        .analysis
        .tests
        .iter()
        .filter(|test| test.p_adjusted.is_some())
        .count();
    assert_eq!(ran, 3);
}

#[test]
fn the_scaled_inclusion_statistic_has_the_mean_of_its_chi_square() {
    // For a fair sampler each item count is Binomial(T, k/n), so Pearson's X over the n
    // items has mean exactly n - k, and the scaled statistic X·(n-1)/(n-k) has mean
    // exactly n - 1 = df, at any T. Here n = 10, k = 5: df = 9, while the unscaled X has
    // mean 5. Over 200 independent runs (seeds 1..=200, the first tried) the statistic's
    // standard deviation is about √(2·9) = 4.24, so the mean's is 0.30: the ±1.5 margin
    // is five standard deviations (a fair sampler lands outside it with probability
    // about 6e-7), and the unscaled mean would sit thirteen standard deviations away.
    let engine = Engine::new(2).unwrap();
    let (n, k, runs) = (10, 5, 200);
    let statistics: Vec<f64> = (1..=runs)
        .map(|seed| {
            let tally = simulate_selections(
                &engine,
                SamplerAlgorithm::BagPick,
                n,
                k,
                10_000,
                seed,
                &NoProgress,
            );
            match inclusion_fit(&tally.inclusion_counts, k, tally.trials) {
                Fit::Computed { statistic, df, .. } => {
                    assert_eq!(df, 9);
                    statistic
                }
                Fit::TooFewTrials { needed } => panic!("needs {needed} trials"),
            }
        })
        .collect();
    let mean = statistics.iter().sum::<f64>() / runs as f64;
    assert!((mean - 9.0).abs() < 1.5, "mean of the scaled statistic: {mean}");
}

/// The simulator proved against exact analysis: every catalogue shuffle whose law can be
/// enumerated quickly, simulated at 4 and 5 cards, matches its exact law. The check is a
/// χ² goodness of fit that a correct simulator passes with probability 1 − 1e-6 each; with
/// fixed seeds the outcome is fixed, so this cannot flake, and a wrong path, rank or tally
/// would fail it by hundreds of orders of magnitude at 600,000 shuffles.
#[test]
fn every_enumerable_shuffle_matches_its_exact_law() {
    use shuffle_audit::catalogue::SHUFFLES;
    for n in [4, 5] {
        let specs: Vec<AlgorithmSpec> = SHUFFLES
            .iter()
            .map(|entry| AlgorithmSpec::parse(entry.name).unwrap())
            .collect();
        let settings = run_settings(n, None, 600_000, 77);
        let report = run(&specs, &settings, &NoProgress).unwrap();
        let mut unchecked = Vec::new();
        for result in &report.results {
            match &result.simulator_check {
                Some(check) => assert!(check.passes(1e-6), "{} on {n} cards: {check:?}", result.name),
                None => unchecked.push(result.name.as_str()),
            }
        }
        // Float keys and unbounded retries cannot be enumerated; 8-bit keys (256^n paths),
        // n naive passes (n^(n·n) paths) and seven GSR riffles (over 380^7 paths) have too
        // many paths for a quick check (riffles are checked against their closed form in
        // `exact::riffles`); a dealer's deals follow on from each other, so no enumerated
        // single-deal law is theirs; the 10-shelf machine walks 20^n paths a pass, which
        // the simulator check takes for one pass of 4 cards (160,000) but not of 5 (3.2 M).
        let repeated = format!("naive-repeated:{n}");
        let mut expected = vec![
            repeated.as_str(),
            "sort-random-key",
            "sort-random-key-u8",
            "insert-with-retry",
            "riffles:7",
            "dealer-riffles:3",
        ];
        if n > 4 {
            expected.push("shelf:10");
        }
        expected.push("shelf-passes:10,2");
        assert_eq!(unchecked, expected, "on {n} cards");
    }
}
