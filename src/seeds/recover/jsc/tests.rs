//! JavaScriptCore's generator against `jsc` 2.50's own numbers and deals (seeds forced
//! with `--forceWeakRandomSeed=true --forcedWeakRandomSeed=N`, the dealer
//! `scripts/engines/deal.js`), the fast filter against the replay, and searches that
//! find real deals' seeds in a window.

use super::*;
use crate::seeds::recover::seeded::{Seeded, deals};
use crate::seeds::recover::tests::{fixture, searched_in};
use crate::seeds::recover::{Observed, Recovery};

#[test]
fn math_random_is_jscs_for_a_forced_seed() {
    // `print(Math.random())` three times under `jsc --forcedWeakRandomSeed=12345`.
    let mut random = JscRandom::new(12_345);
    let got: Vec<f64> = (0..3).map(|_| random.next_double()).collect();
    assert_eq!(
        got,
        [0.000011497266441784504, 0.4453240027932128, 0.8906365085986102]
    );
}

/// The first draw of `seed` on a deck of `cards` (the same bound for both shuffles).
fn first_draw(seed: u32, cards: u32) -> Vec<Draw> {
    vec![Draw {
        bound: cards,
        value: JscRandom::new(seed).below(cards),
    }]
}

#[test]
fn the_fast_filter_passes_exactly_the_seeds_whose_first_draw_matches() {
    for (seed, cards) in [(40_000u32, 52), (0, 52), (4_294_900_000, 10), (7, 2)] {
        let draws = first_draw(seed, cards);
        let window = u64::from(seed).saturating_sub(1 << 15)..(u64::from(seed) + (1 << 15)).min(1 << 32);
        let replayed: Vec<u64> = window
            .clone()
            .filter(|&candidate| deals(Jsc.generator(0, candidate), &draws))
            .collect();
        let mut fast = Vec::new();
        Jsc.filter(0, &draws, window.clone(), &mut fast);
        assert_eq!(fast, replayed, "seed {seed}, {cards} cards");
        assert!(fast.contains(&u64::from(seed)));
        let mut portable = Vec::new();
        lanes::filter_portable(&draws, window, &mut portable);
        assert_eq!(portable, fast);
    }
}

fn searched(observed: &Observed, around: u64) -> Recovery {
    searched_in(
        &Seeded(Jsc),
        observed,
        around.saturating_sub(1 << 19)..(around + (1 << 19)).min(1 << 32),
        3,
    )
}

#[test]
fn one_real_deal_names_its_seed_its_shuffle_and_the_next_deals() {
    for (name, seed, shuffle) in [
        ("jsc-fisher-yates-seed123456789-52.txt", 123_456_789u64, 0),
        ("jsc-lodash-seed4000000000-52.txt", 4_000_000_000, 1),
    ] {
        let all = fixture(name);
        let recovery = searched(&all.first(1), seed);
        assert!(recovery.pinned(), "{name}");
        let found = &recovery.candidates[0];
        assert_eq!(found.seed.as_ref().unwrap().value, seed as i64);
        assert_eq!(found.shuffle.name, ABOUT.shuffles[shuffle].name);
        let later = &all.deals[1..];
        assert_eq!(recovery.predicted[..later.len()], *later, "{name}");
    }
}

#[test]
fn small_decks_name_the_seed_after_enough_deals() {
    // Three deals of 10 cards carry 65 bits, against the 32 of the seed.
    let all = fixture("jsc-fisher-yates-seed77-10.txt");
    let recovery = searched(&all.first(3), 77);
    assert!(recovery.pinned());
    assert_eq!(recovery.candidates[0].seed.as_ref().unwrap().value, 77);
    let later = &all.deals[3..];
    assert_eq!(recovery.predicted[..3], later[..3]);
}

#[test]
fn an_edited_deal_has_no_seed() {
    let mut edited = fixture("jsc-fisher-yates-seed123456789-52.txt").first(1);
    edited.deals[0].swap(3, 40);
    let recovery = searched(&edited, 123_456_789);
    assert!(recovery.complete && recovery.candidates.is_empty());
}
