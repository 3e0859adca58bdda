//! Fixed-seed statistical tests: every biased algorithm in the catalogue is shown to fail
//! and every fair one to pass, and the simulator's frequencies are checked against laws
//! derived by hand.
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

use shuffle_audit::analysis::TestOutcome;
use shuffle_audit::catalogue::{AlgorithmSpec, Expectation};
use shuffle_audit::run::{AlgorithmResult, RunSettings, run};
use shuffle_audit::simulate::NoProgress;
use shuffle_audit::stats::chi_square::law_fit;
use shuffle_audit::stats::{Fit, Verdict};
use shuffle_audit::tally::lehmer::rank;

fn run_one(algorithm: &str, n: usize, trials: u64, seed: u64) -> AlgorithmResult {
    let spec = AlgorithmSpec::parse(algorithm).expect("a catalogue name");
    let settings = RunSettings {
        n,
        trials,
        seed: Some(seed),
        threads: 2,
        alpha: 1e-6,
    };
    run(&[spec], &settings, &NoProgress)
        .expect("valid settings")
        .results
        .remove(0)
}

fn summary(result: &AlgorithmResult) -> String {
    result
        .analysis
        .tests
        .iter()
        .map(|test| match (&test.outcome, test.p_adjusted) {
            (TestOutcome::Fit(Fit::Computed { statistic, df, .. }), Some(p)) => {
                format!("{}: X = {statistic:.1}, df = {df}, adjusted p = {p}", test.name)
            }
            (outcome, _) => format!("{}: {outcome:?}", test.name),
        })
        .collect::<Vec<_>>()
        .join("; ")
}

fn assert_verdict(algorithm: &str, n: usize, trials: u64, seed: u64, expected: Verdict) {
    let result = run_one(algorithm, n, trials, seed);
    assert_eq!(
        result.analysis.verdict,
        expected,
        "{algorithm} on {n} cards, {trials} shuffles, seed {seed}: {}",
        summary(&result)
    );
    let deserved = if expected == Verdict::Fail {
        Expectation::Biased
    } else {
        Expectation::Fair
    };
    assert_eq!(
        result.expected, deserved,
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
