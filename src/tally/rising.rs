//! Rising sequences: the statistic that sees riffle shuffles.
//!
//! A deck is written as in the rest of the crate: `deck[i]` is the card (a 0-based label,
//! the card's position in the fresh deck) at position `i`, position 0 being the top. A
//! *rising sequence* is a maximal run of consecutive card values `v, v+1, …, v+k` that lie
//! in increasing positions: reading the deck from the top and picking out `v`, then
//! `v+1`, and so on, without ever going back. A fresh deck is one rising sequence; the
//! reversed deck has `n`. Equivalently
//!
//! `r = 1 + #{v : position(v + 1) < position(v)}`,
//!
//! which is the number of descents of the inverse permutation plus one.
//!
//! Why this matters: one riffle (cut, then interleave the two packets) can only produce
//! decks with at most two rising sequences, `K` riffles at most `2^K`, and under the
//! Gilbert–Shannon–Reeds model the probability of a deck depends on nothing but `r`
//! (Bayer & Diaconis 1992). A test of the law of `r` against the law under a fair shuffle
//! ([`crate::stats::eulerian`]) is therefore the most powerful simple test against a
//! dealer who riffles too few times, and it works at any deck size, where the
//! permutation test needs `n!` cells.
//!
//! Counting needs each card's position, so [`RisingSequences`] keeps a buffer of `n`
//! positions that is reused from deal to deal: `O(n)` time, no allocation per deal.

/// Counts the rising sequences of decks, reusing one buffer of positions.
#[derive(Clone, Debug, Default)]
pub struct RisingSequences {
    positions: Vec<u32>,
}

impl RisingSequences {
    /// A counter with an empty buffer (it grows to the deck size on first use).
    pub fn new() -> Self {
        Self::default()
    }

    /// The number of rising sequences of `deck`, a permutation of `0..deck.len()`:
    /// 1 for the fresh deck, `n` for the reversed one, 0 for an empty deck.
    ///
    /// # Panics
    ///
    /// If `deck` holds a card `>= deck.len()` (it is not a permutation of `0..n`).
    pub fn count(&mut self, deck: &[u16]) -> usize {
        let n = deck.len();
        if n == 0 {
            return 0;
        }
        self.positions.clear();
        self.positions.resize(n, 0);
        for (position, &card) in deck.iter().enumerate() {
            self.positions[usize::from(card)] = position as u32;
        }
        1 + self
            .positions
            .windows(2)
            .map(|pair| usize::from(pair[1] < pair[0]))
            .sum::<usize>()
    }
}

/// The number of rising sequences of `deck` (see [`RisingSequences::count`]), with a
/// buffer of its own: for one-off use; loops should keep a [`RisingSequences`].
pub fn rising_sequences(deck: &[u16]) -> usize {
    RisingSequences::new().count(deck)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tally::lehmer::{factorial, unrank};

    /// Rising sequences by their definition: start at card 0, walk down the deck picking
    /// up the next value whenever it appears, and start a new sequence when a value can
    /// only be found above the current position.
    fn by_definition(deck: &[u16]) -> usize {
        let n = deck.len();
        let mut sequences = 0;
        let mut next_value = 0u16;
        while usize::from(next_value) < n {
            sequences += 1;
            for &card in deck {
                if card == next_value {
                    next_value += 1;
                }
            }
        }
        sequences
    }

    #[test]
    fn matches_the_definition_on_every_order_of_up_to_seven_cards() {
        let mut counter = RisingSequences::new();
        for n in 0..=7usize {
            let mut deck = vec![0u16; n];
            for rank in 0..factorial(n).unwrap() as usize {
                unrank(rank, &mut deck);
                assert_eq!(counter.count(&deck), by_definition(&deck), "{deck:?}");
            }
        }
    }

    #[test]
    fn known_decks() {
        let fresh: Vec<u16> = (0..52).collect();
        let reversed: Vec<u16> = (0..52).rev().collect();
        assert_eq!(rising_sequences(&fresh), 1);
        assert_eq!(rising_sequences(&reversed), 52);
        assert_eq!(rising_sequences(&[]), 0);
        assert_eq!(rising_sequences(&[0]), 1);
        // A perfect interleaving of two packets (0..4 and 4..8) is two rising sequences.
        assert_eq!(rising_sequences(&[0, 4, 1, 5, 2, 6, 3, 7]), 2);
        // Cutting the deck (moving the top 3 cards under the rest) makes two as well.
        assert_eq!(rising_sequences(&[3, 4, 5, 6, 0, 1, 2]), 2);
        // Bayer and Diaconis's example: 7 1 2 8 3 9 4 5 10 6 (1-based) has two.
        let example: Vec<u16> = [7, 1, 2, 8, 3, 9, 4, 5, 10, 6].iter().map(|c| c - 1).collect();
        assert_eq!(rising_sequences(&example), 2);
    }

    #[test]
    fn the_buffer_adapts_to_every_deck_size() {
        let mut counter = RisingSequences::new();
        assert_eq!(counter.count(&[4, 3, 2, 1, 0]), 5);
        assert_eq!(counter.count(&[1, 0]), 2);
        assert_eq!(counter.count(&[0, 1, 2]), 1);
    }
}
