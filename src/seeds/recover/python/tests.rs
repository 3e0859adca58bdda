//! `python` against CPython's own deals (the fixtures, dealt by CPython 3.11.7 through
//! `scripts/seeded/python_deal.py`), the lane filter against the replay of every seed,
//! and the search on windows of 2^20 seeds around the fixtures' seeds.

use super::*;
use crate::seeds::recover::draws::Direction;
use crate::seeds::recover::seeded::{Seeded, deals};
use crate::seeds::recover::tests::{dealt_by, observed, searched_in};
use crate::seeds::recover::{Observed, Recovery};

const SEED_DEADBEEF: &str = include_str!("../../../../tests/fixtures/recover/python-seed3735928559-52.txt");
const SEED_0: &str = include_str!("../../../../tests/fixtures/recover/python-seed0-13.txt");

/// `count` deals of `n` cards from `random.seed(seed)`, fresh lists, by the model.
fn modelled(seed: u32, n: usize, count: usize) -> Observed {
    let mut random = PythonRandom::new(seed);
    dealt_by(n, count, |bound| random.randbelow(bound))
}

#[test]
fn the_model_deals_what_cpython_dealt() {
    for (seed, text) in [(3_735_928_559u32, SEED_DEADBEEF), (0, SEED_0)] {
        let real = observed(text);
        assert_eq!(
            modelled(seed, real.n(), real.deals.len()),
            real,
            "random.seed({seed})"
        );
    }
    // CPython seeds 0 with the key [0]: not the same generator as 1.
    assert_ne!(modelled(1, 13, 1).deals[0], observed(SEED_0).deals[0]);
}

#[test]
fn randbelow_rejects_past_the_bound_and_a_power_of_two_takes_one_bit_more() {
    // CPython 3.11.7: r = random.Random(5); [r.getrandbits(3) for _ in range(14)],
    // then [r._randbelow(4) for _ in range(5)] and [r._randbelow(52) ...] afresh.
    // _randbelow(4) draws 3 bits (4.bit_length() == 3) and rejects 4..8.
    assert_eq!((bit_length(4), bit_length(52)), (3, 6));
    let mut random = PythonRandom::new(5);
    let bits: Vec<u32> = (0..14).map(|_| random.getrandbits(3)).collect();
    assert_eq!(bits, [4, 2, 5, 2, 6, 5, 7, 6, 5, 5, 7, 4, 0, 6]);
    let mut random = PythonRandom::new(5);
    let below4: Vec<u32> = (0..5).map(|_| random.randbelow(4)).collect();
    assert_eq!(below4, [2, 2, 0, 3, 1]);
    let mut random = PythonRandom::new(5);
    let below52: Vec<u32> = (0..5).map(|_| random.randbelow(52)).collect();
    assert_eq!(below52, [39, 16, 47, 22, 50]);
}

/// The seeds of `seeds` that the replay of every seed passes.
fn replayed(draws: &[Draw], seeds: Range<u64>) -> Vec<u64> {
    seeds
        .filter(|&seed| deals(Python.generator(0, seed), draws))
        .collect()
}

#[test]
fn the_lane_filter_passes_exactly_the_seeds_the_replay_does() {
    let deadbeef = observed(SEED_DEADBEEF);
    let cases: Vec<(Vec<Draw>, Range<u64>)> = vec![
        // A real deal, its seed inside (near the top of the space).
        (
            deadbeef.draws(Direction::Descending, 1),
            3_735_928_559 - 40_000..3_735_928_559 + 25_000,
        ),
        // Seed 0 and its neighbours, 13 cards.
        (observed(SEED_0).draws(Direction::Descending, 2), 0..1 << 16),
        // Three cards (bounds 3 and 2, both rejecting a quarter and a half of the
        // outputs): thousands of seeds pass; a range not a multiple of the lanes.
        (
            modelled(77, 3, 1).draws(Direction::Descending, 1),
            5..(1 << 16) + 3,
        ),
        // Four cards twice: bound 4 draws 3 bits, rejecting half.
        (
            modelled(9_999, 4, 2).draws(Direction::Descending, 2),
            (1 << 32) - (1 << 16)..1 << 32,
        ),
    ];
    for (draws, seeds) in cases {
        let replay = replayed(&draws, seeds.clone());
        assert!(!replay.is_empty(), "{seeds:?}");
        let mut fast = Vec::new();
        Python.filter(0, &draws, seeds.clone(), &mut fast);
        assert_eq!(fast, replay, "{seeds:?}");
        // The portable lanes and the narrowest, whatever this machine has.
        let mut portable = Vec::new();
        lanes::filter_lanes::<8>(&draws, seeds.clone(), &mut portable);
        assert_eq!(portable, replay, "{seeds:?}");
    }
}

fn searched(observed: &Observed, window: Range<u64>, predict: usize) -> Recovery {
    searched_in(&Seeded(Python), observed, window, predict)
}

#[test]
fn one_real_deal_gives_its_seed_and_the_next_deals() {
    let all = observed(SEED_DEADBEEF);
    let seed = 3_735_928_559u64;
    let recovery = searched(&all.first(1), seed - 600_000..seed + 448_576, 3);
    assert!(recovery.pinned());
    let found = recovery.candidates[0].seed.as_ref().unwrap();
    assert_eq!(
        (found.value, found.usage.as_str()),
        (seed as i64, "random.seed(3735928559)")
    );
    assert_eq!(recovery.predicted, all.deals[1..]);
    // 13 cards carry 32.5 bits: two deals name seed 0.
    let all = observed(SEED_0);
    let recovery = searched(&all.first(2), 0..1 << 20, 4);
    assert!(recovery.pinned());
    assert_eq!(recovery.candidates[0].seed.as_ref().unwrap().value, 0);
    assert_eq!(recovery.predicted, all.deals[2..]);
}

#[test]
fn an_edited_deal_has_no_seed() {
    let mut edited = observed(SEED_DEADBEEF);
    edited.deals[1].swap(3, 40);
    let seed = 3_735_928_559u64;
    let recovery = searched(&edited, seed - (1 << 19)..seed + (1 << 19), 1);
    assert!(recovery.complete && recovery.candidates.is_empty());
    assert!(recovery.predicted.is_empty());
}
