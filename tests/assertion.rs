//! The assertion for other crates' tests, used as they would use it: shuffles written
//! here against rand's traits, audited through the public API only.
//!
//! Why these cannot flake: every audit has a fixed seed (the default one, or one given),
//! and its result depends on nothing else, not even the thread count (a test below checks
//! that). The margins, so that the outcomes would hold for almost any seed as well:
//! - a fair shuffle fails only if its first run is `suspicious` (adjusted p below 1e-3,
//!   at most one seed in a thousand under Holm's correction) and its confirmation is too,
//!   or if a run fails outright (below 1e-6): about one audit in a million;
//! - each biased shuffle is caught with a margin of 68 times or more in trials (the
//!   shuffles needed for 99 % power at α = 1e-6, from `shuffle-audit exact --n 6` and,
//!   for the shuffles outside the catalogue, from the exact law computed in a test here),
//!   and its p-values are hundreds of orders of magnitude below α.

use std::panic::{AssertUnwindSafe, catch_unwind};

use rand::RngExt;
use rand::seq::SliceRandom;
use shuffle_audit::assertion::{DEFAULT_N, DEFAULT_TRIALS};
use shuffle_audit::stats::power::{permutation_noncentrality, position_noncentrality, trials_needed};
use shuffle_audit::tally::lehmer::{factorial, unrank};
use shuffle_audit::{AuditRng, FairShuffleAudit, Verdict, assert_fair_shuffle};

/// Fisher-Yates and the naive swap, exactly as the example shows them.
#[path = "../examples/audit_my_shuffle/shuffles.rs"]
mod shuffles;

use shuffles::{fisher_yates, naive_swap};

/// Fisher-Yates with the exclusive bound by mistake (`0..i`, not `0..=i`): Sattolo's
/// algorithm, which only ever makes one long cycle.
fn off_by_one<T>(items: &mut [T], rng: &mut impl rand::Rng) {
    for i in (1..items.len()).rev() {
        items.swap(i, rng.random_range(0..i));
    }
}

/// The 1999 online-poker shuffle: each card swapped with one at `random(n-1)`, which is
/// never the last position, so the last card can never stay last.
fn never_the_last_card<T>(items: &mut [T], rng: &mut impl rand::Rng) {
    let n = items.len();
    for i in 0..n {
        items.swap(i, rng.random_range(0..n - 1));
    }
}

/// How often [`sticky_top_card`] puts card 0 back on top: one shuffle in 33.
const STICKY_ONE_IN: u32 = 33;

/// A subtle bias: a fair shuffle, after which, one time in [`STICKY_ONE_IN`], card 0 is
/// swapped back to the top (as if a dealer's habit).
fn sticky_top_card(items: &mut [usize], rng: &mut impl rand::Rng) {
    fisher_yates(items, rng);
    if rng.random_range(0..STICKY_ONE_IN) == 0 {
        let top = items
            .iter()
            .position(|&card| card == 0)
            .expect("card 0 is in the deck");
        items.swap(0, top);
    }
}

/// The message `assert` panics with, or `None` if it did not panic.
fn panic_message(audit: impl FnOnce()) -> Option<String> {
    let payload = catch_unwind(AssertUnwindSafe(audit)).err()?;
    Some(
        payload
            .downcast_ref::<String>()
            .cloned()
            .expect("assert panics with a formatted message"),
    )
}

#[test]
fn a_hand_written_fisher_yates_passes_the_default_assertion() {
    assert_fair_shuffle(fisher_yates);
}

#[test]
fn rands_own_slice_shuffle_passes_the_default_assertion() {
    assert_fair_shuffle(|deck, rng| deck.shuffle(rng));
}

#[test]
fn fair_shuffles_pass_at_other_sizes_and_seeds() {
    for (n, seed) in [(3, 1), (5, 2), (8, 3), (12, 4)] {
        FairShuffleAudit::new()
            .n(n)
            .trials(400_000)
            .seed(seed)
            .assert(fisher_yates);
    }
}

#[test]
fn the_naive_swap_panics_with_a_readable_report() {
    let message = panic_message(|| assert_fair_shuffle(naive_swap)).expect("the naive swap must fail");
    // `shuffle-audit exact naive-swap --n 6`: 4,399 shuffles give 99 % power at α = 1e-6;
    // the default runs 300,000 (68 times more).
    assert!(
        message.starts_with("shuffle-audit: FAIL: the shuffle is biased"),
        "{message}"
    );
    for line in [
        "tested against: a fair shuffle (each of the 6! orders of 6 cards equally likely)",
        "run: 300,000 shuffles, seed 24301: FAIL",
        // The name column is as wide as the longest name, serial-rising-sequences.
        "  test                         statistic        df    p-value   adjusted",
        "reproduce: FairShuffleAudit::new().n(6).trials(300_000).seed(24301).assert(your_shuffle)",
    ] {
        assert!(message.contains(line), "no line {line:?} in:\n{message}");
    }
    for test in ["permutations", "positions", "fixed-points", "cycles"] {
        let row = message
            .lines()
            .find(|row| row.trim_start().starts_with(test))
            .unwrap_or_else(|| panic!("no row for {test} in:\n{message}"));
        // name, statistic (thousands grouped, as the counts are: `22,293.68`), df, then
        // the p-value and the adjusted one (here `< 1e-300`).
        let fields: Vec<&str> = row.split_whitespace().collect();
        assert!(
            fields[1].replace(',', "").parse::<f64>().is_ok() && fields[2].parse::<u64>().is_ok(),
            "{row}"
        );
        assert!(row.ends_with("< 1e-300   < 1e-300"), "{row}");
    }
    assert!(message.contains("< 1e-300"), "{message}");
    assert!(
        message.contains("\n  caught by "),
        "the test that caught it, in words:\n{message}"
    );
    assert!(message.contains("most frequent orders: "), "{message}");
    assert!(message.contains("least frequent orders: "), "{message}");
}

#[test]
#[should_panic(expected = "FAIL: the shuffle is biased")]
fn the_off_by_one_bound_fails() {
    // `exact sattolo --n 6`: 63 shuffles suffice; it never leaves a card in place.
    assert_fair_shuffle(off_by_one);
}

#[test]
#[should_panic(expected = "FAIL: the shuffle is biased")]
fn never_leaving_the_last_card_last_fails() {
    // Every order with the last card last (a sixth of the 720) is empty: the permutation
    // test's noncentrality is T/6 = 50,000 on 719 df, where 1e-6 needs about 900.
    assert_fair_shuffle(never_the_last_card);
}

#[test]
#[should_panic(expected = "FAIL: the shuffle is biased")]
fn a_top_card_that_sticks_one_time_in_33_fails() {
    assert_fair_shuffle(sticky_top_card);
}

#[test]
fn the_default_catches_the_sticky_top_card_with_a_wide_margin() {
    // The exact law of `sticky_top_card` on DEFAULT_N cards: with probability ε card 0 is
    // swapped to the top of a uniform order. An order with card 0 on top is reached from
    // itself and from the n-1 orders that differ from it by that swap.
    let n = DEFAULT_N;
    let epsilon = 1.0 / f64::from(STICKY_ONE_IN);
    let orders = factorial(n).unwrap() as usize;
    let uniform = 1.0 / orders as f64;
    let mut law = Vec::with_capacity(orders);
    let mut positions = vec![0.0; n * n];
    let mut order = vec![0u16; n];
    for rank in 0..orders {
        unrank(rank, &mut order);
        let p = if order[0] == 0 {
            uniform * (1.0 + epsilon * (n as f64 - 1.0))
        } else {
            uniform * (1.0 - epsilon)
        };
        law.push(p);
        for (position, &card) in order.iter().enumerate() {
            positions[usize::from(card) * n + position] += p;
        }
    }
    assert!((law.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    // Holm's correction multiplies the smallest of the four p-values by at most 4.
    let alpha = 1e-6 / 4.0;
    let needed = [
        trials_needed(permutation_noncentrality(&law), (orders - 1) as f64, alpha, 0.99),
        trials_needed(
            position_noncentrality(&positions, n),
            ((n - 1) * (n - 1)) as f64,
            alpha,
            0.99,
        ),
    ]
    .into_iter()
    .flatten()
    .min()
    .unwrap();
    // 21,172 shuffles (the position test): the default runs 14 times more.
    assert!(
        needed * 10 < DEFAULT_TRIALS,
        "{needed} shuffles needed for 99 % power, the default runs {DEFAULT_TRIALS}"
    );
}

#[test]
fn a_shuffle_that_loses_a_card_is_reported_as_broken() {
    let message = panic_message(|| {
        assert_fair_shuffle(|deck, rng| {
            fisher_yates(deck, rng);
            deck[1] = deck[0];
        })
    })
    .expect("a broken shuffle must panic");
    assert!(
        message
            .starts_with("shuffle-audit: the shuffle is broken: trial 0 (seed 24301) gave back the deck ["),
        "{message}"
    );
    assert!(message.contains("more than once"), "{message}");
    assert!(message.contains(" lost"), "{message}");

    // Through `run`, the same is an error naming the first broken trial, here trial 2.
    let calls = std::sync::atomic::AtomicU64::new(0);
    let error = FairShuffleAudit::new()
        .n(4)
        .trials(1000)
        .threads(1)
        .run(|deck, _| {
            if calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed) == 2 {
                deck[3] = 9;
            }
        })
        .unwrap_err()
        .to_string();
    assert!(
        error.starts_with(
            "the shuffle is broken: trial 2 (seed 24301) gave back the deck [0, 1, 2, 9]: \
             card 9 not among the cards 0..4 it was given; card 3 lost"
        ),
        "{error}"
    );
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    let audit = |threads| {
        FairShuffleAudit::new()
            .n(5)
            .trials(100_003)
            .seed(11)
            .threads(threads)
            .run(naive_swap)
            .unwrap()
    };
    let one = audit(1);
    assert_eq!(one.runs.first.outcome.tally.trials, 100_003);
    for threads in [2, 3, 8] {
        let other = audit(threads);
        assert_eq!(other.runs.first.outcome.tally, one.runs.first.outcome.tally);
        assert_eq!(other.report(), one.report());
    }
}

#[test]
fn a_suspicious_fair_result_is_confirmed_before_it_counts() {
    // Seed 3040 is the first of 0, 1, 2, ... at which this Fisher-Yates on 4 cards and
    // 20,000 shuffles lands in the suspicious band (adjusted p-value 5.6e-5, between
    // 1e-6 and 1e-3), which a fair shuffle does about once in a few thousand seeds (Holm
    // over its ten tests, deals and their order). Its confirmation (another seed, 80,000
    // shuffles) passes, and so does the assertion.
    let settings = FairShuffleAudit::new().n(4).trials(20_000).seed(3040);
    let audit = settings.run(fisher_yates).unwrap();
    assert_eq!(audit.runs.first.verdict, Verdict::Suspicious);
    let confirmation = audit.runs.confirmation.as_ref().expect("a confirmation run");
    assert_eq!(confirmation.trials, 80_000);
    assert_ne!(confirmation.seed, 3040);
    assert_eq!(audit.verdict(), Verdict::Pass);
    assert!(audit.passed());
    settings.assert(fisher_yates);
}

#[test]
fn a_suspicious_biased_result_is_confirmed_as_a_failure() {
    // A top card that sticks one time in 50, on 4 cards and 20,000 shuffles: borderline
    // (seed 0 lands in the suspicious band). At four times the trials its noncentrality is
    // four times larger, and the confirmation fails it.
    let sticky_one_in_50 = |deck: &mut [usize], rng: &mut AuditRng| {
        fisher_yates(deck, rng);
        if rng.random_range(0..50) == 0 {
            let top = deck.iter().position(|&card| card == 0).unwrap();
            deck.swap(0, top);
        }
    };
    let settings = FairShuffleAudit::new().n(4).trials(20_000).seed(0);
    let audit = settings.run(sticky_one_in_50).unwrap();
    assert_eq!(audit.runs.first.verdict, Verdict::Suspicious);
    assert_eq!(audit.verdict(), Verdict::Fail);
    let message = panic_message(|| settings.assert(sticky_one_in_50)).expect("it must fail");
    for line in [
        "shuffle-audit: FAIL: the shuffle is biased",
        "first run: 20,000 shuffles, seed 0: SUSPICIOUS",
        "the first run was suspicious, so it was run again with an independent seed and 4 times the shuffles",
        "confirmation run: 80,000 shuffles, seed ",
    ] {
        assert!(message.contains(line), "no line {line:?} in:\n{message}");
    }
}

#[test]
fn too_few_trials_never_pass() {
    // 2 shuffles: no test can run at all.
    let message = panic_message(|| FairShuffleAudit::new().trials(2).assert(fisher_yates))
        .expect("an audit without a test must not pass");
    assert!(
        message.starts_with("shuffle-audit: INCONCLUSIVE: too few shuffles"),
        "{message}"
    );

    // 1,000 shuffles of 6 cards: the position test runs, but the 720 orders would need
    // 3,600 for the permutation test. A partial audit does not pass either.
    let audit = FairShuffleAudit::new().trials(1_000).run(fisher_yates).unwrap();
    assert_eq!(audit.too_few_trials(), Some(("permutations", 3_600)));
    assert!(!audit.passed());
    assert!(
        audit
            .report()
            .starts_with("shuffle-audit: INCONCLUSIVE: the other tests pass, but the permutations test needs at least 3,600 shuffles"),
        "{audit}"
    );
}

#[test]
fn settings_out_of_range_are_one_line_errors() {
    let default = FairShuffleAudit::new();
    for (settings, error) in [
        (
            default.n(1),
            "n() must be at least 2 (got 1): a deck of fewer cards has only one order",
        ),
        (default.n(2001), "n() must be at most 2000 (got 2001)"),
        (default.trials(0), "trials() must be at least 1"),
        (default.threads(0), "threads() must be between 1 and 256 (got 0)"),
        (
            default.alpha(1.5),
            "alpha() must be a probability between 0 and 1 (exclusive), not 1.5",
        ),
    ] {
        assert_eq!(settings.run(|_, _| {}).unwrap_err().to_string(), error);
    }
    let message = panic_message(|| FairShuffleAudit::new().n(0).assert(|_, _| {})).unwrap();
    assert!(
        message.starts_with("shuffle-audit: n() must be at least 2"),
        "{message}"
    );
}
