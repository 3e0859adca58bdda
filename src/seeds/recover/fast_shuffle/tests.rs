//! fast-shuffle's PCG32 against real Node's deals (fast-shuffle 6.2.1, Node 20.20, dealt
//! by `scripts/seeded/fast_shuffle.mjs`), the fast filter against the replay on 2^16
//! seeds (redraws included), `createShuffle`'s seed found in a window, and `shuffle()`'s
//! per-deal seeds handed to V8's recovery, which deals the next deals.

use super::*;
use crate::seeds::recover::Recovery;
use crate::seeds::recover::seeded::deals;
use crate::seeds::recover::tests::{fixture, parse_deal, searched_in};

/// `count` deals of `cards` cards from `generator`.
fn dealt(generator: &mut dyn Draws, cards: usize, count: usize) -> Vec<Vec<u16>> {
    (0..count)
        .map(|_| {
            let mut deck: Vec<u16> = (0..cards as u16).collect();
            Direction::DescendingReversed.deal(&mut deck, |bound| generator.below(bound));
            deck
        })
        .collect()
}

#[test]
fn create_shuffle_deals_what_node_dealt() {
    // `node scripts/seeded/fast_shuffle.mjs 5 4 seeded 12345` (the README's example,
    // whose printed decks are those of an older version).
    let expected: Vec<Vec<u16>> = ["3 2 5 4 1", "3 5 2 4 1", "3 2 1 4 5", "3 1 2 5 4"]
        .into_iter()
        .map(parse_deal)
        .collect();
    assert_eq!(dealt(&mut Pcg32::new(12_345), 5, 4), expected);
    let negative = fixture("fast-shuffle-seed-1234567-52.txt");
    assert_eq!(
        dealt(&mut Pcg32::new(-1_234_567i32 as u32), 52, 4),
        negative.deals
    );
}

/// The seeds `shuffle()` drew for the deals of `fast-shuffle-shuffle-node-seed11-52.txt`
/// (`FAST_SHUFFLE_SEEDS=1 node --random-seed=11 scripts/seeded/fast_shuffle.mjs 52 10`).
const NODE_11_SEEDS: [i32; 10] = [
    -1944147832,
    1302644569,
    -1860117855,
    932179414,
    942086461,
    -2038841581,
    1275361252,
    1916802928,
    -412392526,
    208187186,
];

#[test]
fn each_shuffle_deals_from_its_own_seed_as_node_did() {
    let all = fixture("fast-shuffle-shuffle-node-seed11-52.txt");
    for (deal, &seed) in all.deals.iter().zip(&NODE_11_SEEDS) {
        assert_eq!(&dealt(&mut Pcg32::new(seed as u32), 52, 1)[0], deal);
    }
}

#[test]
fn the_fast_filter_passes_every_seed_the_replay_passes_and_few_others() {
    let seeds = 0..1u64 << 16;
    let drawn = |seed: u32, bounds: &[u32]| -> Vec<Draw> {
        let mut pcg = Pcg32::new(seed);
        bounds
            .iter()
            .map(|&bound| Draw {
                bound,
                value: pcg.below(bound),
            })
            .collect()
    };
    let deal: Vec<u32> = (2..=52).rev().collect();
    let cases = [
        drawn(12_345, &deal),
        drawn(0, &deal),
        drawn(65_535, &deal),
        // Bounds of 3·2^30 redraw a quarter of the numbers: those seeds go to the replay.
        drawn(999, &[3 << 30, 3 << 30, 3 << 30]),
        drawn(4_000, &[2, 3, 4]),
    ];
    for draws in cases {
        let replayed: Vec<u64> = seeds
            .clone()
            .filter(|&seed| deals(Box::new(Pcg32::new(seed as u32)), &draws))
            .collect();
        let mut fast = Vec::new();
        PcgSeeds { per_deal: false }.filter(0, &draws, seeds.clone(), &mut fast);
        assert!(!replayed.is_empty());
        let mut kept = fast.clone();
        kept.retain(|&seed| deals(Box::new(Pcg32::new(seed as u32)), &draws));
        assert_eq!(kept, replayed, "{draws:?}");
        assert!(fast.windows(2).all(|pair| pair[0] < pair[1]));
        if draws[0].bound <= 52 {
            assert!(fast.len() <= replayed.len() + 16, "{} passed", fast.len());
        }
    }
}

fn searched(observed: &Observed, window: Range<u64>, predict: usize) -> Recovery {
    searched_in(&FastShuffle, observed, window, predict)
}

/// A window of 2^20 seeds around `seed`'s 32 bits.
fn around(seed: i32) -> Range<u64> {
    let bits = u64::from(seed as u32);
    bits - (1 << 19)..bits + (1 << 19)
}

#[test]
fn two_create_shuffle_deals_name_the_seed_and_the_next_deals() {
    let all = fixture("fast-shuffle-seed-1234567-52.txt");
    let recovery = searched(&all.first(2), around(-1_234_567), 2);
    assert!(recovery.pinned());
    let found = &recovery.candidates[0];
    assert_eq!(found.shuffle.name, "createShuffle(seed)");
    assert_eq!(found.seed.as_ref().unwrap().value, -1_234_567);
    assert_eq!(recovery.predicted, all.deals[2..]);
}

#[test]
fn one_deal_gives_its_seed_but_not_the_next_deal() {
    // createShuffle(seed) would deal on from the seed; shuffle() from a Math.random not
    // seen: the two disagree, and nothing is predicted.
    let all = fixture("fast-shuffle-seed-1234567-52.txt");
    let recovery = searched(&all.first(1), around(-1_234_567), 1);
    let seeds: Vec<(&str, i64)> = recovery
        .candidates
        .iter()
        .map(|c| (c.shuffle.name, c.seed.as_ref().unwrap().value))
        .collect();
    assert_eq!(
        seeds,
        [("createShuffle(seed)", -1_234_567), ("shuffle", -1_234_567)]
    );
    assert!(!recovery.predictable() && recovery.predicted.is_empty());
}

#[test]
fn an_edited_deal_has_no_seed() {
    let mut edited = fixture("fast-shuffle-seed-1234567-52.txt").first(2);
    edited.deals[1].swap(0, 51);
    let recovery = searched(&edited, around(-1_234_567), 1);
    assert!(recovery.complete && recovery.candidates.is_empty());
}

#[test]
fn six_deals_seeds_give_math_random_and_the_deals_after_them() {
    let seeds: Vec<u32> = NODE_11_SEEDS.iter().map(|&seed| seed as u32).collect();
    let all = fixture("fast-shuffle-shuffle-node-seed11-52.txt");
    let (states, settled) = math_random_from_seeds(&seeds[..3]);
    assert!(states.is_empty() && !settled, "3 seeds are 96 bits of V8's 128");
    let (states, _) = math_random_from_seeds(&seeds[..5]);
    assert!(states.len() > 1000, "5 seeds leave {} states", states.len());
    let (states, _) = math_random_from_seeds(&seeds[..6]);
    assert_eq!(states.len(), 1, "6 seeds and V8's own seeding");
    assert_eq!(v8::v8_seed(states[0].state), Some((11, 0)));
    let mut per_deal = PerDeal::new(Vec::new(), Some(states[0].random()), 0, 52);
    assert_eq!(dealt(&mut per_deal, 52, 10), all.deals);
    // The deals after the six searched are checked by replay; an edited one fails.
    assert!(deals_the_rest(&states[0], &all, 6));
    let mut edited = all.clone();
    edited.deals[8].swap(0, 1);
    assert!(!deals_the_rest(&states[0], &edited, 6));
}

#[test]
fn the_portable_filter_passes_what_the_wide_one_passes() {
    let mut pcg = Pcg32::new(30_000);
    let draws: Vec<Draw> = (2..=52)
        .rev()
        .map(|bound| Draw {
            bound,
            value: pcg.below(bound),
        })
        .collect();
    let (mut portable, mut wide) = (Vec::new(), Vec::new());
    filter_body(&draws, false, 0..1 << 16, &mut portable);
    PcgSeeds { per_deal: true }.filter(0, &draws, 0..1 << 16, &mut wide);
    assert_eq!(portable, wide);
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        let mut avx2 = Vec::new();
        // SAFETY: the processor has AVX2 (checked above).
        unsafe { filter_avx2(&draws, false, 0..1 << 16, &mut avx2) };
        assert_eq!(avx2, wide);
    }
    assert!(portable.contains(&30_000));
}

#[test]
fn a_positive_seed_above_2_31_is_named_as_the_program_gave_it() {
    // `node scripts/seeded/fast_shuffle.mjs 3000000000 52 4`: createShuffle(3000000000),
    // not the PCG32 of its 32 bits signed (-1294967296).
    let all = fixture("fast-shuffle-seed3000000000-52.txt");
    assert_eq!(dealt(&mut Pcg32::unsigned(3_000_000_000), 52, 4), all.deals);
    let recovery = searched(
        &all.first(2),
        3_000_000_000 - (1 << 19)..3_000_000_000 + (1 << 19),
        2,
    );
    assert!(recovery.pinned());
    let found = &recovery.candidates[0];
    assert_eq!(found.seed.as_ref().unwrap().value, 3_000_000_000);
    assert_eq!(found.seed.as_ref().unwrap().usage, "createShuffle(3000000000)");
    assert_eq!(recovery.predicted, all.deals[2..]);
}
