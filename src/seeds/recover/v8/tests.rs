//! The model against what real Node.js printed (Node 20.20, V8 11.3, started with
//! `--random-seed`, so that its state is known), and the search against those deals.

use super::*;
use crate::seeds::recover::draws::Observed;

fn fixture(name: &str) -> Observed {
    let text = match name {
        "fy7" => include_str!("../../../../tests/fixtures/recover/node-fisher-yates-seed7-52.txt"),
        "lodash9" => include_str!("../../../../tests/fixtures/recover/node-lodash-seed9-52.txt"),
        "fy-5" => include_str!("../../../../tests/fixtures/recover/node-fisher-yates-seed-5-10.txt"),
        _ => unreachable!(),
    };
    crate::seeds::recover::tests::observed(text)
}

/// `node --random-seed=1 -e 'console.log(Math.random(), …)'` printed these three.
#[test]
fn seeded_math_random_is_nodes() {
    let mut random = MathRandom::seeded(1, Conversion::Mantissa52);
    let values: Vec<f64> = (0..3).map(|_| random.next_double()).collect();
    assert_eq!(
        values,
        [0.147205063401058, 0.2741339589710077, 0.8875431421705096]
    );
}

/// The deals in the fixtures are what the model deals from the same seed: Node calls no
/// `Math.random` of its own before the program's.
#[test]
fn seeded_deals_are_nodes() {
    for (name, seed, shuffle) in [
        ("fy7", 7, JsShuffle::FisherYates),
        ("lodash9", 9, JsShuffle::Lodash),
        ("fy-5", -5, JsShuffle::FisherYates),
    ] {
        let observed = fixture(name);
        let mut random = MathRandom::seeded(seed, Conversion::Mantissa52);
        let n = observed.n() as u16;
        let dealt: Vec<Vec<u16>> = (0..observed.deals.len())
            .map(|_| {
                let mut deck: Vec<u16> = (0..n).collect();
                shuffle.direction().deal(&mut deck, |bound| random.below(bound));
                deck
            })
            .collect();
        assert_eq!(dealt, observed.deals, "{name}");
    }
}

fn search_first(observed: &Observed, shuffle: JsShuffle, deals: usize) -> Found {
    let draws = observed.draws(shuffle.direction(), deals);
    let all = observed.draws(shuffle.direction(), observed.deals.len());
    search(&draws, &all)
}

#[test]
fn two_deals_of_52_give_the_state_and_the_third_deal() {
    for (name, seed, shuffle) in [
        ("fy7", 7, JsShuffle::FisherYates),
        ("lodash9", 9, JsShuffle::Lodash),
    ] {
        let observed = fixture(name);
        let first_two = observed.first(2);
        let found = search_first(&first_two, shuffle, 2);
        assert_eq!(found.states.len(), 1, "{name}: {found:?}");
        let state = &found.states[0];
        // Node started at the seeded state, and its first value was the last of the cache.
        let seeded = MathRandom::seeded(seed, Conversion::Mantissa52);
        assert_eq!(state.first, CACHE - 1, "{name}");
        // Both ways of making doubles deal these deals: they differ in a double's last bit.
        assert!(state.conversions.contains(&Conversion::Mantissa52), "{name}");
        let mut random = state.random();
        let mut replay = seeded.clone();
        for _ in 0..200 {
            assert_eq!(random.next_double(), replay.next_double());
        }
        // The deals after the first two: the third as Node dealt it.
        let mut random = state.random();
        for _ in 0..2 * shuffle.direction().draws_per_deal(52) {
            random.next_double();
        }
        let predicted = first_two.predict(shuffle.direction(), 1, |bound| random.below(bound));
        assert_eq!(predicted[0], observed.deals[2], "{name}");
    }
}

#[test]
fn one_deal_inside_one_cache_leaves_several_places() {
    // A deal of 52 draws 51 values of one cache: where the cache starts is not known, so
    // several places deal it, and they disagree on the next deals.
    let observed = fixture("fy7");
    let found = search_first(&observed.first(1), JsShuffle::FisherYates, 1);
    assert!(found.states.len() > 1, "{found:?}");
}

#[test]
fn small_decks_are_recovered_from_more_deals() {
    let observed = fixture("fy-5");
    let found = search_first(&observed, JsShuffle::FisherYates, observed.deals.len());
    assert_eq!(found.states.len(), 1, "{found:?}");
    assert_eq!(
        found.states[0].state,
        MathRandom::seeded(-5, Conversion::Mantissa52).state_before_refill()
    );
}

#[test]
fn the_wrong_shuffle_and_an_edited_deal_have_no_state() {
    let observed = fixture("fy7");
    assert!(search_first(&observed, JsShuffle::Lodash, 3).states.is_empty());
    let mut edited = observed.clone();
    edited.deals[1].swap(3, 4);
    assert!(search_first(&edited, JsShuffle::FisherYates, 3).states.is_empty());
}

/// The bits a draw pins hold for every `state0` that makes it: 200,000 states from a fixed
/// seed, through both conversions, for bounds from 2 to 2^32 − 1 (where the multiplication
/// rounds). Deterministic: a failure is a wrong bit, not bad luck.
#[test]
fn the_bits_a_draw_pins_hold_for_every_state_that_draws_it() {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(31);
    for round in 0..200_000u32 {
        let state0: u64 = rng.random();
        let bound = match round % 4 {
            0 => rng.random_range(2..=64),
            1 => 1 << rng.random_range(1..32),
            2 => rng.random_range(2..=u32::MAX),
            _ => u32::MAX,
        };
        for conversion in Conversion::ALL {
            let value = (conversion.to_double((state0, 0)) * f64::from(bound)).floor() as u32;
            let (known, bits) = known_top_bits(Draw { bound, value });
            let mask = if known == 0 { 0 } else { u64::MAX << (64 - known) };
            assert_eq!(
                state0 & mask,
                bits & mask,
                "state0 {state0:#x}, bound {bound}, value {value}, {conversion:?}"
            );
        }
    }
}

/// Ranges that begin or end on a round fraction give all their bits: a deal of 4 cards
/// (bounds 4, 3 and 2) tells about three and a half bits, so about 40 deals settle the
/// 128-bit state.
#[test]
fn round_fractions_give_all_their_bits() {
    for (bound, value, known, top) in [
        (2, 0, 1, 0b0),
        (2, 1, 1, 0b1),
        (4, 0, 2, 0b00),
        (4, 2, 2, 0b10),
        (4, 3, 2, 0b11),
        (8, 5, 3, 0b101),
        (3, 0, 1, 0b0),
        (3, 1, 0, 0),
        (3, 2, 1, 0b1),
    ] {
        let (found, bits) = known_top_bits(Draw { bound, value });
        assert_eq!(found, known, "{value} of {bound}");
        if known > 0 {
            assert_eq!(bits >> (64 - known), top, "{value} of {bound}");
        }
    }
}
