//! `c-rand` against glibc's own numbers and deals (glibc 2.36, Debian 12: the fixtures,
//! dealt through `scripts/seeded/c_rand.c`), Microsoft's against the catalogue's model of
//! it, the lane filters against the replay of every seed, and the search on windows of
//! 2^20 seeds.

use super::*;
use crate::seeds::recover::draws::Direction;
use crate::seeds::recover::seeded::{Seeded, deals};
use crate::seeds::recover::tests::{dealt_by, observed, searched_in};
use crate::seeds::recover::{Observed, Recovery};

const SEED_3E9: &str = include_str!("../../../../tests/fixtures/recover/c-rand-seed3000000000-52.txt");
const SEED_0: &str = include_str!("../../../../tests/fixtures/recover/c-rand-seed0-13.txt");

/// `count` deals of `n` cards from `srand(seed)` under `shuffle`, fresh arrays, by the model.
fn modelled(shuffle: usize, seed: u32, n: usize, count: usize) -> Observed {
    let mut random = CRand.generator(shuffle, u64::from(seed));
    dealt_by(n, count, |bound| random.below(bound))
}

#[test]
fn glibc_rand_is_glibcs_for_seeds_zero_and_past_2_to_the_31() {
    // srand(s); rand() x 5, in C against glibc 2.36 (Debian 12).
    let real: [(u32, [u32; 5]); 5] = [
        (
            0,
            [
                1_804_289_383,
                846_930_886,
                1_681_692_777,
                1_714_636_915,
                1_957_747_793,
            ],
        ),
        (
            1,
            [
                1_804_289_383,
                846_930_886,
                1_681_692_777,
                1_714_636_915,
                1_957_747_793,
            ],
        ),
        (
            2_147_483_647,
            [
                1_065_668_062,
                2_142_264_300,
                1_066_566_375,
                1_064_012_770,
                2_141_034_222,
            ],
        ),
        (
            2_147_483_648,
            [
                1_336_741_213,
                1_210_407_648,
                1_447_044_896,
                337_392_383,
                82_502_902,
            ],
        ),
        (
            4_294_967_295,
            [254_925_627, 1_205_188_300, 366_127_624, 1_401_405_153, 76_053_476],
        ),
    ];
    for (seed, outputs) in real {
        let mut random = GlibcRand::new(seed);
        let ours: Vec<u32> = (0..5).map(|_| random.rand()).collect();
        assert_eq!(ours, outputs, "srand({seed})");
    }
}

#[test]
fn the_model_deals_what_glibc_dealt() {
    for (seed, text) in [(3_000_000_000u32, SEED_3E9), (0, SEED_0)] {
        let real = observed(text);
        assert_eq!(
            modelled(GLIBC, seed, real.n(), real.deals.len()),
            real,
            "srand({seed})"
        );
    }
}

#[test]
fn microsofts_rand_is_the_catalogues_msvc_rand() {
    // srand(1): 41 18467 6334 26500 19169 (Microsoft's CRT, held by MsvcRand's tests).
    let mut random = CRand.generator(MICROSOFT, 1);
    let ours: Vec<u32> = (0..5).map(|_| random.below(1 << 15)).collect();
    assert_eq!(ours, [41, 18_467, 6_334, 26_500, 19_169]);
}

/// The seeds of `seeds` that the replay of every seed passes.
fn replayed(shuffle: usize, draws: &[Draw], seeds: Range<u64>) -> Vec<u64> {
    seeds
        .filter(|&seed| deals(CRand.generator(shuffle, seed), draws))
        .collect()
}

#[test]
fn the_lane_filters_pass_exactly_the_seeds_the_replay_does() {
    let real = observed(SEED_3E9);
    for shuffle in [GLIBC, MICROSOFT] {
        let cases: Vec<(Vec<Draw>, Range<u64>)> = vec![
            (
                real.draws(Direction::Descending, 1),
                3_000_000_000 - 30_000..3_000_000_000 + 35_536,
            ),
            // Seed 0 (srand(0) is glibc's srand(1)) and the seeds after it.
            (
                modelled(shuffle, 1, 13, 1).draws(Direction::Descending, 1),
                0..1 << 16,
            ),
            // Three cards: a third of the seeds pass; a range not a multiple of the lanes.
            (
                modelled(shuffle, 7, 3, 1).draws(Direction::Descending, 1),
                5..(1 << 16) + 3,
            ),
            // Twenty deals of four cards: past the 16 draws the filter checks.
            (
                modelled(shuffle, 4_294_967_000, 4, 20).draws(Direction::Descending, 20),
                (1 << 32) - (1 << 16)..1 << 32,
            ),
            // Around 2^31 - 1, whose seeded words are all zero after the first.
            (
                modelled(shuffle, 2_147_483_647, 8, 2).draws(Direction::Descending, 2),
                (1 << 31) - (1 << 15)..(1 << 31) + (1 << 15),
            ),
        ];
        for (draws, seeds) in cases {
            let replay = replayed(shuffle, &draws, seeds.clone());
            let mut fast = Vec::new();
            CRand.filter(shuffle, &draws, seeds.clone(), &mut fast);
            // The filter may pass seeds that the draws after its 16th refute.
            fast.retain(|&seed| deals(CRand.generator(shuffle, seed), &draws));
            assert_eq!(fast, replay, "shuffle {shuffle}, {seeds:?}");
            let mut portable = Vec::new();
            lanes::filter_lanes::<8>(shuffle, &draws, seeds.clone(), &mut portable);
            portable.retain(|&seed| deals(CRand.generator(shuffle, seed), &draws));
            assert_eq!(portable, replay, "shuffle {shuffle}, {seeds:?}");
        }
    }
}

fn searched(observed: &Observed, window: Range<u64>, predict: usize) -> Recovery {
    searched_in(&Seeded(CRand), observed, window, predict)
}

fn seeds_found(recovery: &Recovery) -> Vec<(&'static str, i64)> {
    recovery
        .candidates
        .iter()
        .map(|candidate| (candidate.shuffle.name, candidate.seed.as_ref().unwrap().value))
        .collect()
}

#[test]
fn one_real_glibc_deal_gives_its_seed_and_the_next_deals() {
    let all = observed(SEED_3E9);
    let recovery = searched(&all.first(1), 3_000_000_000 - 500_000..3_000_000_000 + 548_576, 3);
    assert!(recovery.pinned());
    assert_eq!(
        seeds_found(&recovery),
        [("glibc rand() % (i + 1)", 3_000_000_000)]
    );
    assert_eq!(
        recovery.candidates[0].seed.as_ref().unwrap().usage,
        "srand(3000000000)"
    );
    assert_eq!(recovery.predicted, all.deals[1..]);
    // srand(0) is srand(1): both seeds deal, and the same next deals.
    let all = observed(SEED_0);
    let recovery = searched(&all.first(2), 0..1 << 20, 3);
    assert_eq!(
        seeds_found(&recovery),
        [("glibc rand() % (i + 1)", 0), ("glibc rand() % (i + 1)", 1)]
    );
    assert!(recovery.predictable() && !recovery.pinned());
    assert_eq!(recovery.predicted, all.deals[2..]);
}

#[test]
fn a_microsoft_deal_is_dealt_by_both_seeds_2_to_the_31_apart() {
    // Bit 31 of the state never reaches an output: either seed's window names it (the
    // whole space lists both, with the same next deals).
    let seed = 123_456_789u32;
    let all = modelled(MICROSOFT, seed, 52, 3);
    let low = u64::from(seed) - 300_000;
    for window in [low..low + (1 << 20), low + (1 << 31)..low + (1 << 31) + (1 << 20)] {
        let recovery = searched(&all.first(1), window.clone(), 2);
        assert!(recovery.pinned(), "{window:?}");
        assert_eq!(recovery.predicted, all.deals[1..]);
    }
}

#[test]
fn an_edited_deal_has_no_seed() {
    let mut edited = observed(SEED_3E9);
    edited.deals[1].swap(3, 40);
    let recovery = searched(&edited, 3_000_000_000 - (1 << 19)..3_000_000_000 + (1 << 19), 1);
    assert!(recovery.complete && recovery.candidates.is_empty());
}
