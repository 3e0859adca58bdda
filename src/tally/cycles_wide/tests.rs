use super::*;
use crate::tally::structure::cycle_count;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The permutes' counts equal the walk's, deck by deck, on every size from 1 to 64 (one
/// round to six), on uniform decks, on decks of few long cycles (a single cycle, a
/// random rotation) and of many short ones (the identity, adjacent swaps).
#[test]
fn the_permutes_count_the_cycles_the_walk_counts() {
    if !available() {
        // Nothing to compare: `count_cycles` declines, and the walk counts.
        assert!(!count_cycles(&mut [0; 3], &[0, 1], 2));
        return;
    }
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(15);
    let mut visited = Vec::new();
    for n in 1..=64usize {
        let mut decks: Vec<Vec<u16>> = Vec::new();
        let identity: Vec<u16> = (0..n as u16).collect();
        decks.push(identity.clone());
        // One cycle through every card, and a random rotation.
        decks.push((0..n as u16).map(|i| (i + 1) % n as u16).collect());
        let shift = rng.random_range(0..n as u16);
        decks.push((0..n as u16).map(|i| (i + shift) % n as u16).collect());
        let mut swaps = identity.clone();
        for pair in swaps.chunks_exact_mut(2) {
            pair.swap(0, 1);
        }
        decks.push(swaps);
        for _ in 0..200 {
            let mut deck = identity.clone();
            deck.shuffle(&mut rng);
            decks.push(deck);
        }
        let mut expected = vec![0u64; n + 1];
        for deck in &decks {
            expected[cycle_count(deck, &mut visited)] += 1;
        }
        let mut counts = vec![0u64; n + 1];
        assert!(count_cycles(&mut counts, &decks.concat(), n));
        assert_eq!(counts, expected, "{n} cards");
        // Deck by deck too: a count in the wrong deck's counter would show.
        for deck in &decks {
            let mut one = vec![0u64; n + 1];
            assert!(count_cycles(&mut one, deck, n));
            assert_eq!(one[cycle_count(deck, &mut visited)], 1, "{deck:?}");
        }
    }
    // Beyond 64 cards it declines and counts nothing.
    let mut counts = vec![0u64; 66];
    assert!(!count_cycles(&mut counts, &(0..65).collect::<Vec<u16>>(), 65));
    assert!(counts.iter().all(|&count| count == 0));
}
