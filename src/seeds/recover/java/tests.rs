//! The model against numbers real Java printed (OpenJDK 17, `java.util.Random`), and the
//! search against deals whose state is known.

use std::sync::atomic::AtomicBool;

use rand::SeedableRng;
use rand::seq::SliceRandom;

use super::*;
use crate::seeds::recover::draws::{Direction, Observed};

/// `new Random(42)` then `nextInt` of 52, 51, 32, 7, 2, 1000000, 2^30 and 3, as
/// OpenJDK 17.0.15 prints them.
#[test]
fn next_int_is_javas_for_every_kind_of_bound() {
    let mut random = JavaRandom::new(42);
    let bounds = [52, 51, 32, 7, 2, 1_000_000, 1 << 30, 3];
    let drawn: Vec<u32> = bounds.iter().map(|&bound| random.next_int(bound)).collect();
    assert_eq!(drawn, [26, 45, 21, 3, 0, 87525, 297510752, 2]);
}

/// A seed whose first number is 2^31 − 1: `nextInt(52)` rejects it and draws again. Java
/// printed `0 19`, and `Collections.shuffle` of 1..12 from the same seed (its first
/// `nextInt(12)` rejects too) printed the deal below.
const REDRAWING_SEED: i64 = 162_683_525_171_787;

#[test]
fn the_rejection_loop_draws_again_as_java_does() {
    let mut random = JavaRandom::new(REDRAWING_SEED);
    assert_eq!((random.next_int(52), random.next_int(51)), (0, 19));
    let mut deck: Vec<u16> = (1..=12).collect();
    let mut random = JavaRandom::new(REDRAWING_SEED);
    Direction::Descending.deal(&mut deck, |bound| random.next_int(bound));
    assert_eq!(deck, [2, 5, 12, 7, 6, 8, 10, 1, 4, 11, 3, 9]);
}

/// The first deal of `Collections.shuffle(deck, new Random(42))` on 1..52, as Java dealt it.
const SEED_42_DEAL: [u16; 52] = [
    16, 40, 35, 36, 33, 2, 22, 5, 48, 26, 4, 18, 17, 28, 14, 3, 34, 23, 15, 11, 42, 50, 12, 29, 41, 13, 1, 8,
    20, 38, 9, 30, 47, 24, 51, 25, 10, 52, 7, 37, 31, 43, 45, 44, 39, 6, 21, 19, 32, 49, 46, 27,
];

fn observed(deals: Vec<Vec<u16>>) -> Observed {
    Observed {
        deals: deals
            .into_iter()
            .map(|deal| deal.into_iter().map(|card| card - 1).collect())
            .collect(),
        carried: false,
    }
}

fn found(observed: &Observed, deals: usize) -> Found {
    let draws = observed.draws(Direction::Descending, deals);
    let all = observed.draws(Direction::Descending, observed.deals.len());
    search(&draws, &all, &AtomicBool::new(false), &|_| {})
}

#[test]
fn one_deal_of_52_gives_the_seed_of_new_random() {
    let found = found(&observed(vec![SEED_42_DEAL.to_vec()]), 1);
    assert_eq!(found.states.len(), 1, "{found:?}");
    assert_eq!(seed_for(found.states[0]), 42);
    assert!(!found.stopped);
}

/// `count` fair deals of `n` cards (xoshiro256++ from `seed`), numbered 1..n.
fn fair_deals(seed: u64, n: u16, count: usize) -> Vec<Vec<u16>> {
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
    (0..count)
        .map(|_| {
            let mut deck: Vec<u16> = (1..=n).collect();
            deck.shuffle(&mut rng);
            deck
        })
        .collect()
}

/// Deals of `n` cards from `random`, numbered 1..n.
fn java_deals(random: &mut JavaRandom, n: u16, count: usize) -> Vec<Vec<u16>> {
    (0..count)
        .map(|_| {
            let mut deck: Vec<u16> = (1..=n).collect();
            Direction::Descending.deal(&mut deck, |bound| random.next_int(bound));
            deck
        })
        .collect()
}

#[test]
fn a_redrawn_number_in_mid_deal_is_found_by_the_second_look() {
    // The state before the 11th number is set so that the 11th is 2^31 − 1: nextInt(42)
    // rejects it (2^31 mod 42 = 32 values at the top are rejected).
    let eleventh = ((1u64 << 31) - 1) << HIDDEN | 0x1_2345;
    let start = Jump::steps(11).inverse().apply(eleventh);
    let mut random = JavaRandom::with_state(start);
    let deals = java_deals(&mut random, 52, 1);
    // 51 draws, one number redrawn: 52 steps.
    assert_eq!(random.state(), Jump::steps(52).apply(start));
    let found = found(&observed(deals), 1);
    assert_eq!(found.states, [start]);
}

#[test]
fn small_decks_need_more_deals_and_still_give_one_state() {
    let mut random = JavaRandom::new(7);
    let start = random.state();
    let deals = observed(java_deals(&mut random, 8, 24));
    let found = found(&deals, 24);
    assert_eq!(found.states, [start]);
}

#[test]
fn fair_deals_and_an_edited_java_deal_have_no_state() {
    let fair_found = found(&observed(fair_deals(1, 52, 2)), 1);
    assert_eq!(fair_found.states, Vec::<u64>::new());
    // On 52 cards the searches for a redrawn number are cheap, and ran.
    assert_eq!(fair_found.rejection_unsearched, None);
    let mut edited = SEED_42_DEAL.to_vec();
    edited.swap(10, 20);
    assert_eq!(found(&observed(vec![edited]), 1).states, Vec::<u64>::new());
}

/// Small decks: the search takes more of the deals given while they cut its work, and
/// leaves out the costly searches for a redrawn number, saying how unlikely one was.
#[test]
fn small_decks_use_the_deals_that_cut_the_work_and_say_what_they_left_out() {
    let mut random = JavaRandom::new(5);
    let deals = observed(java_deals(&mut random, 10, 12));
    let fewest = (1..=12).find(|&count| enough(10, count)).unwrap();
    let used = Java::deals_to_use(&deals).unwrap();
    assert!(used > fewest, "{used} deals used, {fewest} pin the state");
    assert!(
        estimated_work(&bounds_of(10, used)) * 4.0 < estimated_work(&bounds_of(10, fewest)),
        "the deals added cut the work"
    );
    let fair_found = found(&observed(fair_deals(2, 10, 12)), used);
    assert!(fair_found.states.is_empty());
    // 2^31 mod bound of 2^31 per draw, bounds 3, 5, 6, 7, 9 and 10: about 1 in 10^7.
    let chance = fair_found.rejection_unsearched.expect("left out on 10 cards");
    assert!(chance > 1e-8 && chance < 1e-6, "{chance}");
}

#[test]
fn a_second_deal_that_does_not_follow_rules_the_state_out() {
    let mut random = JavaRandom::new(42);
    let mut deals = java_deals(&mut random, 52, 2);
    deals[1].swap(0, 1);
    let deals = observed(deals);
    assert_eq!(found(&deals, 1).states, Vec::<u64>::new());
}

#[test]
fn jumps_compose_and_invert() {
    let state = 0x1234_5678_9abc;
    let mut random = JavaRandom::with_state(state);
    for _ in 0..1000 {
        random.next31();
    }
    assert_eq!(Jump::steps(1000).apply(state), random.state());
    assert_eq!(Jump::steps(1000).inverse().apply(random.state()), state);
}
