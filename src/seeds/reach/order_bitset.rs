//! One bit for every order of a deck of up to 12 cards, set by any thread: the exact
//! set of orders a seed space reaches.
//!
//! Orders are numbered by their Lehmer rank ([`crate::tally::lehmer`]), so the bitset
//! is `n!` bits (12! bits = 57 MiB) shared by every worker as atomic words. A bit is
//! set with `fetch_or` only after a plain load shows it clear: most deals of a long run
//! land on orders already reached, and a load costs far less than a locked
//! read-modify-write. Setting bits commutes, so the final set does not depend on the
//! number of threads or the order in which they ran.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::tally::lehmer::{factorial, rank, unrank};

/// The largest deck with a bit per order: 12! bits are 57 MiB, 13! would be 742 MiB.
pub const MAX_BITSET_N: usize = 12;

/// A set of orders of `n` cards, by Lehmer rank.
pub struct OrderBitset {
    n: usize,
    orders: u64,
    words: Vec<AtomicU64>,
}

impl OrderBitset {
    /// The empty set of orders of `n <= 12` cards.
    ///
    /// # Panics
    /// If `n` exceeds [`MAX_BITSET_N`] (the caller chooses the bitset by the deck size).
    pub fn new(n: usize) -> Self {
        assert!(n <= MAX_BITSET_N, "a bitset over {n}! orders is too large");
        let orders = factorial(n).expect("12! fits in a u64");
        Self {
            n,
            orders,
            words: (0..orders.div_ceil(64)).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    /// Adds `order`, a permutation of `0..n`.
    pub fn insert(&self, order: &[u16]) {
        debug_assert_eq!(order.len(), self.n);
        let rank = rank(order);
        self.insert_rank(rank, self.word_of(rank));
    }

    /// The word that holds the bit of rank `rank`, as it reads now.
    #[inline]
    pub fn word_of(&self, rank: usize) -> u64 {
        self.words[rank / 64].load(Ordering::Relaxed)
    }

    /// Adds the order of rank `rank`, whose word read `word` a moment ago: a bit seen set
    /// stays set, so only a clear one needs the locked `fetch_or`.
    #[inline]
    pub fn insert_rank(&self, rank: usize, word: u64) {
        let bit = 1u64 << (rank % 64);
        if word & bit == 0 {
            self.words[rank / 64].fetch_or(bit, Ordering::Relaxed);
        }
    }

    /// How many orders are in the set.
    pub fn count(&self) -> u64 {
        self.words
            .iter()
            .map(|word| u64::from(word.load(Ordering::Relaxed).count_ones()))
            .sum()
    }

    /// Whether the order of rank `rank` is in the set.
    pub fn contains_rank(&self, rank: u64) -> bool {
        self.words[(rank / 64) as usize].load(Ordering::Relaxed) & 1 << (rank % 64) != 0
    }

    /// The smallest rank at or after `from` that is not in the set.
    fn first_missing_from(&self, from: u64) -> Option<u64> {
        let mut rank = from;
        while rank < self.orders {
            let word = self.words[(rank / 64) as usize].load(Ordering::Relaxed);
            // Bits below `rank` in this word are treated as present.
            let missing = !word & (u64::MAX << (rank % 64));
            if missing != 0 {
                let found = rank / 64 * 64 + u64::from(missing.trailing_zeros());
                return (found < self.orders).then_some(found);
            }
            rank = (rank / 64 + 1) * 64;
        }
        None
    }

    /// Up to `first` orders missing from the set in lexicographic order from the
    /// identity, then one missing order from each of `spread` evenly spaced places in
    /// the lexicographic order (the first missing at or after rank `k · n!/(spread + 1)`),
    /// none twice. Each as `(rank, order)`.
    pub fn missing_examples(&self, first: usize, spread: u64) -> Vec<(u64, Vec<u16>)> {
        let mut ranks: Vec<u64> = Vec::new();
        let mut from = 0;
        while ranks.len() < first {
            let Some(rank) = self.first_missing_from(from) else {
                break;
            };
            ranks.push(rank);
            from = rank + 1;
        }
        for k in 1..=spread {
            let start = (u128::from(self.orders) * u128::from(k) / u128::from(spread + 1)) as u64;
            if let Some(rank) = self.first_missing_from(start)
                && !ranks.contains(&rank)
            {
                ranks.push(rank);
            }
        }
        ranks
            .into_iter()
            .map(|rank| {
                let mut order = vec![0u16; self.n];
                unrank(rank as usize, &mut order);
                (rank, order)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_missing_orders_follow_the_ranks() {
        let set = OrderBitset::new(4);
        assert_eq!(set.count(), 0);
        // Every order but ranks 0, 1, 5, 13 and 23 (the last, 4 3 2 1).
        let mut order = [0u16; 4];
        for rank in (0..24).filter(|rank| ![0, 1, 5, 13, 23].contains(rank)) {
            unrank(rank, &mut order);
            set.insert(&order);
            set.insert(&order);
        }
        assert_eq!(set.count(), 19);
        assert!(set.contains_rank(2) && !set.contains_rank(5));
        let examples = set.missing_examples(2, 3);
        let ranks: Vec<u64> = examples.iter().map(|(rank, _)| *rank).collect();
        // First two: 0 and 1; then the first missing at or after 6, 12 and 18.
        assert_eq!(ranks, [0, 1, 13, 23]);
        assert_eq!(examples[0].1, [0, 1, 2, 3]);
        assert_eq!(examples[3].1, [3, 2, 1, 0]);
    }

    #[test]
    fn a_full_set_has_nothing_missing_even_past_the_last_word() {
        // 5! = 120 orders: the second word has 56 bits past the last order.
        let set = OrderBitset::new(5);
        let mut order = [0u16; 5];
        for rank in 0..120 {
            unrank(rank, &mut order);
            set.insert(&order);
        }
        assert_eq!(set.count(), 120);
        assert!(set.missing_examples(3, 3).is_empty());
    }
}
