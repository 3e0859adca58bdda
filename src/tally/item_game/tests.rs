use super::*;
use crate::randomness::{Randomness, SimulationSource};

/// Every law's chances sum to 1 at every step of a sequence it could deal.
#[test]
fn the_chances_of_the_next_item_sum_to_one_at_every_step() {
    let check = |law: &FairLaw, sequence: &[u16]| {
        let mut state = law.start();
        for (step, &item) in sequence.iter().enumerate() {
            let total: f64 = (0..law.items()).map(|i| state.probability(i)).sum();
            assert!((total - 1.0).abs() < 1e-9, "{law:?} step {step}: {total}");
            let (likeliest, chance) = state.likeliest();
            assert!(chance > 0.0 && (0..law.items()).all(|i| state.probability(i) <= chance + 1e-15));
            assert_eq!(state.probability(likeliest), chance);
            if let Some(fixed) = state.fixed() {
                for i in (0..law.items()).filter(|&i| state.probability(i) > 0.0) {
                    assert_eq!(state.probability(i), fixed, "{law:?} step {step}");
                }
            }
            assert!(
                state.probability(usize::from(item)) > 0.0,
                "{law:?} deals {item} at {step}"
            );
            state.observe(usize::from(item));
        }
    };
    check(&FairLaw::OrderedSelection { n: 6 }, &[4, 0, 5, 2]);
    check(&FairLaw::SortedSelection { n: 9, k: 4 }, &[1, 2, 6, 8]);
    check(&FairLaw::SortedSelection { n: 9, k: 4 }, &[5, 6, 7, 8]);
    check(
        &FairLaw::Iid {
            probabilities: vec![0.5, 0.25, 0.25, 0.0],
        },
        &[0, 0, 2, 1, 0],
    );
    // Two cycles of a bag of 2 A, 1 B, 1 C; then a bag dealing half of its doubled bag.
    check(
        &FairLaw::Bag {
            copies: vec![2, 1, 1],
            slots: 4,
        },
        &[0, 2, 0, 1, 1, 0, 0, 2],
    );
    check(
        &FairLaw::Bag {
            copies: vec![2, 2],
            slots: 2,
        },
        &[0, 0, 1, 0, 1, 1],
    );
}

#[test]
fn the_best_fair_value_of_a_sorted_sample_is_the_brute_force_one() {
    // Enumerate every k-subset of n, sum the likeliest chance at every step.
    for (n, k) in [(5, 2), (6, 3), (8, 1), (8, 7), (9, 4)] {
        let law = FairLaw::SortedSelection { n, k };
        let mut total = 0.0;
        let mut subsets = 0u64;
        for mask in 0u32..(1 << n) {
            if mask.count_ones() as usize != k {
                continue;
            }
            subsets += 1;
            let mut state = law.start();
            for item in (0..n).filter(|&i| mask & (1 << i) != 0) {
                total += state.likeliest().1;
                state.observe(item);
            }
        }
        let brute = total / subsets as f64;
        let formula = FairLaw::sorted_fair_value(n, k);
        assert!(
            (brute - formula).abs() < 1e-12,
            "n {n} k {k}: {brute} vs {formula}"
        );
    }
}

#[test]
fn the_split_is_a_rule_on_window_numbers() {
    assert_eq!(WindowSplit::of(199, 8_192).windows(), 0);
    assert_eq!(
        WindowSplit::of(200, 8_192),
        WindowSplit {
            training: 100,
            played: 100
        }
    );
    assert_eq!(
        WindowSplit::of(1_000_000, 8_192),
        WindowSplit {
            training: 8_192,
            played: 8_192
        }
    );
    assert_eq!(
        WindowSplit::of(301, 8_192),
        WindowSplit {
            training: 150,
            played: 151
        }
    );
}

/// `count` uniform ordered selections of `k` of `n` (partial Fisher–Yates).
fn ordered_samples(n: usize, k: usize, count: usize, seed: u64) -> Vec<u16> {
    let mut source = SimulationSource::from_seed(seed);
    let mut out = Vec::with_capacity(n * count);
    for _ in 0..count {
        let mut deck: Vec<u16> = (0..n as u16).collect();
        for i in 0..k {
            let j = i + source.below((n - i) as u64) as usize;
            deck.swap(i, j);
            out.push(deck[i]);
        }
    }
    out
}

fn play_samples(law: &FairLaw, samples: &[u16], k: usize) -> ItemGameTally {
    let units: Vec<(&[u16], u64)> = samples.chunks_exact(k).map(|s| (s, 1)).collect();
    let split = WindowSplit::of(units.len() as u64, 8_192);
    play_item_game(law, &units, k, split, false, "samples").unwrap()
}

#[test]
fn a_sampler_that_always_picks_the_same_items_is_guessed_completely() {
    let samples: Vec<u16> = [3u16, 1, 2].repeat(400);
    let tally = play_samples(&FairLaw::OrderedSelection { n: 6 }, &samples, 3);
    assert_eq!((tally.windows, tally.correct), (200, 600));
    assert_eq!(tally.by_position, vec![200, 200, 200]);
    // Unseen items are equally likely whatever came before: chances 1/6, 1/5, 1/4.
    assert_eq!(tally.exact, Some(vec![1.0 / 6.0, 1.0 / 5.0, 1.0 / 4.0]));
    assert!((tally.fair_best / 200.0 - (1.0 / 6.0 + 1.0 / 5.0 + 1.0 / 4.0)).abs() < 1e-12);
    // Sorted, the chances depend on the history: no exact law, every guess kept.
    let mut sorted = samples.clone();
    for sample in sorted.chunks_exact_mut(3) {
        sample.sort_unstable();
    }
    let tally = play_samples(&FairLaw::SortedSelection { n: 6, k: 3 }, &sorted, 3);
    assert_eq!(tally.correct, 600);
    assert!(tally.exact.is_none());
    assert_eq!(tally.guesses.len(), 600);
    assert!(
        tally
            .guesses
            .iter()
            .all(|&(chance, right)| right && chance > 0.0 && chance < 1.0)
    );
}

#[test]
fn a_fair_sampler_gives_the_fair_value_whatever_the_strategy() {
    // 8,192 played samples of 4 of 10: each guess right with 1/10, 1/9, 1/8, 1/7, about
    // 0.504 per sample, sd about 0.65 per sample, so the mean's sd is 0.0072: a margin of
    // 0.05 is about 7 sd, which a fair sampler does not reach at this fixed seed.
    let samples = ordered_samples(10, 4, 16_384, 5);
    let tally = play_samples(&FairLaw::OrderedSelection { n: 10 }, &samples, 4);
    let mean = tally.correct as f64 / tally.windows as f64;
    let fair = 0.1 + 1.0 / 9.0 + 0.125 + 1.0 / 7.0;
    assert!(
        (mean - fair).abs() < 0.05,
        "{mean} vs {fair} ({:?})",
        tally.strategy
    );
    assert!((tally.null_expected / tally.windows as f64 - fair).abs() < 1e-9);
}

#[test]
fn a_bag_with_a_favourite_item_is_caught_by_the_most_likely_guess() {
    // Stated: one A, one B, one C per cycle of 3. Dealt: A first twice as often as a fair
    // bag deals it. The player learns "A at the first place" and names it about 2/3 of the
    // time where a fair bag gives 1/3.
    let law = FairLaw::Bag {
        copies: vec![1, 1, 1],
        slots: 3,
    };
    let mut source = SimulationSource::from_seed(3);
    let mut draws = Vec::new();
    for _ in 0..2_000 {
        let cycle: [u16; 3] = match source.below(6) {
            0..=3 => [0, 1, 2],
            4 => [1, 0, 2],
            _ => [2, 1, 0],
        };
        draws.extend(cycle);
    }
    let split = WindowSplit::of(2_000, 1_000);
    let tally = play_item_game(&law, &[(&draws, 2_000)], 3, split, true, "draws").unwrap();
    assert_eq!(tally.strategy, ItemStrategy::Position);
    assert!(tally.exact.is_some(), "one of each: the chances are 1/3, 1/2, 1");
    assert!(tally.correct as f64 > 1.3 * tally.null_expected);
}
