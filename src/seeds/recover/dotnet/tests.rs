//! .NET's generator against Mono 6.8's deals (`scripts/engines/deal.cs`), the fast
//! filter against the replay, and searches that find real deals' seeds in a window.

use super::*;
use crate::seeds::recover::seeded::{Seeded, deals};
use crate::seeds::recover::tests::{fixture, parse_deal, searched_in};
use crate::seeds::recover::{Observed, Recovery};

/// Deals of `new Random(seed)` by Mono 6.8: 13 cards, two deals each (`mono deal.exe
/// SEED 13 2`): a seed above Knuth's constant (whose seeding goes negative), and seeds
/// that deal alike: `-s` as `s`, `int.MaxValue` and `int.MinValue` as 0.
#[test]
fn the_generator_deals_what_mono_dealt() {
    let cases: [(i32, &str); 5] = [
        (
            161_803_399,
            "9 11 10 2 7 8 13 1 5 3 12 6 4\n12 10 11 7 6 3 9 4 2 13 1 5 8",
        ),
        (42, "13 8 5 7 1 4 10 3 11 6 12 2 9\n10 9 13 8 2 12 6 1 11 3 5 4 7"),
        (
            -42,
            "13 8 5 7 1 4 10 3 11 6 12 2 9\n10 9 13 8 2 12 6 1 11 3 5 4 7",
        ),
        (
            i32::MAX,
            "4 12 1 11 8 3 7 5 2 6 9 13 10\n12 10 3 4 7 2 5 13 8 1 11 6 9",
        ),
        (
            i32::MIN,
            "4 12 1 11 8 3 7 5 2 6 9 13 10\n12 10 3 4 7 2 5 13 8 1 11 6 9",
        ),
    ];
    for (seed, dealt) in cases {
        let mut random = DotnetRandom::new(seed);
        for line in dealt.lines() {
            let mut deck: Vec<u16> = (0..13).collect();
            super::super::draws::Direction::Descending.deal(&mut deck, |bound| random.next_below(bound));
            assert_eq!(deck, parse_deal(line), "seed {seed}");
        }
    }
}

/// The first `count` draws of the descending loop over `cards` from `seed`.
fn drawn(seed: i32, cards: u32, count: usize) -> Vec<Draw> {
    let mut random = DotnetRandom::new(seed);
    (0..count)
        .map(|k| {
            let bound = cards - k as u32;
            Draw {
                bound,
                value: random.next_below(bound),
            }
        })
        .collect()
}

#[test]
fn the_fast_filter_passes_exactly_the_seeds_whose_first_draw_matches() {
    for (seed, cards) in [(40_000, 52), (161_803_500, 52), (2_147_000_000, 10), (7, 2)] {
        let draws = drawn(seed, cards, 1);
        let window = (seed as u64).saturating_sub(1 << 15)..(seed as u64 + (1 << 15)).min(MBIG as u64);
        let replayed: Vec<u64> = window
            .clone()
            .filter(|&candidate| deals(Dotnet.generator(0, candidate), &draws))
            .collect();
        let mut fast = Vec::new();
        Dotnet.filter(0, &draws, window.clone(), &mut fast);
        assert_eq!(fast, replayed, "seed {seed}, {cards} cards");
        assert!(fast.contains(&(seed as u64)));
        let mut portable = Vec::new();
        lanes::filter_portable(&draws, window, &mut portable);
        assert_eq!(portable, fast);
    }
}

fn searched(observed: &Observed, around: u64) -> Recovery {
    searched_in(
        &Seeded(Dotnet),
        observed,
        around.saturating_sub(1 << 19)..(around + (1 << 19)).min(MBIG as u64),
        3,
    )
}

#[test]
fn one_real_deal_names_its_seed_and_the_next_deals_in_a_window() {
    for (name, seed) in [
        ("dotnet-seed1000000-52.txt", 1_000_000u64),
        ("dotnet-seed-123456789-52.txt", 123_456_789),
        ("dotnet-seed2147483647-52.txt", 0),
    ] {
        let all = fixture(name);
        let recovery = searched(&all.first(1), seed);
        assert!(recovery.pinned(), "{name}");
        assert_eq!(recovery.candidates[0].seed.as_ref().unwrap().value, seed as i64);
        let later = &all.deals[1..];
        assert_eq!(recovery.predicted[..later.len()], *later, "{name}");
    }
}

#[test]
fn small_decks_name_the_seed_after_enough_deals() {
    // Three deals of 10 cards carry 65 bits, against the 31 of the seed.
    let all = fixture("dotnet-seed1234567-10.txt");
    let recovery = searched(&all.first(3), 1_234_567);
    assert!(recovery.pinned());
    assert_eq!(recovery.candidates[0].seed.as_ref().unwrap().value, 1_234_567);
}

#[test]
fn an_edited_deal_has_no_seed() {
    let mut edited = fixture("dotnet-seed1000000-52.txt").first(1);
    edited.deals[0].swap(3, 40);
    let recovery = searched(&edited, 1_000_000);
    assert!(recovery.complete && recovery.candidates.is_empty());
}
