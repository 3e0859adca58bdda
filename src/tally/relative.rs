//! The relative permutation of two consecutive deals: what was done to the previous deck
//! to get the next one.
//!
//! Every test of a single deal asks whether each deal, taken alone, is uniform. A dealer
//! who riffles the previous deal's deck three times deals decks that are each close to
//! uniform (after a few deals the deck is well mixed) but depend strongly on the deal
//! before. Writing each deal in terms of the previous one removes the common part and
//! leaves the shuffle itself, which the ordinary tests (permutation χ², positions, rising
//! sequences) then see.
//!
//! # The convention
//!
//! Decks are written as everywhere in the crate: `deck[i]` is the card at position `i`
//! (position 0 on top). For consecutive deals `previous` (σₜ) and `next` (σₜ₊₁) the
//! relative permutation ρ is
//!
//! `ρ[i] = position in previous of the card next[i]`,  so that  `next[i] = previous[ρ[i]]`:
//!
//! ρ is the deck of deal `t+1` written in terms of deal `t` (each card relabelled by where
//! it lay in deal `t`). Read as a deck of the fresh cards `0..n`, ρ is exactly what the
//! shuffle would have dealt from a fresh deck: if the next deal was produced by applying a
//! shuffle to the previous deck, ρ is that shuffle's outcome. In composition notation, with
//! a deal σ read as the map "position ↦ card", `ρ = σₜ⁻¹ ∘ σₜ₊₁` (right to left: first
//! the card at position `i` in deal `t+1`, then that card's position in deal `t`); the
//! issue's `σₜ₊₁ ∘ σₜ⁻¹` is the same map with composition read left to right.
//!
//! Two facts make the test exact (both proved by the tests below):
//! - if the deals are independent and each uniform, ρ is uniform (for each previous deck,
//!   `next ↦ ρ` is a bijection of the `n!` orders), and independent of the previous deal;
//! - equal deals give the identity, so a deal repeated verbatim shows as the fresh deck.
//!
//! Pairs are formed within a run of consecutive deals only: the engine's chunks start
//! independent streams, so a pair that straddled two chunks would compare unrelated deals.

/// Computes relative permutations of consecutive deals, reusing one buffer of positions.
#[derive(Clone, Debug, Default)]
pub struct RelativePermutation {
    positions: Vec<u32>,
}

impl RelativePermutation {
    /// A calculator with an empty buffer (it grows to the deck size on first use).
    pub fn new() -> Self {
        Self::default()
    }

    /// Writes into `relative` the deck of `next` in terms of `previous`:
    /// `relative[i]` is the position in `previous` of the card `next[i]` (see the module
    /// docs), so that `next[i] == previous[relative[i]]`. `O(n)`.
    ///
    /// # Panics
    ///
    /// If the three slices differ in length, or `previous` is not a permutation of
    /// `0..n` (a card `>= n`).
    pub fn compute(&mut self, previous: &[u16], next: &[u16], relative: &mut [u16]) {
        let n = previous.len();
        assert!(
            next.len() == n && relative.len() == n,
            "consecutive deals and their relative permutation must have the same size"
        );
        self.positions.clear();
        self.positions.resize(n, 0);
        for (position, &card) in previous.iter().enumerate() {
            self.positions[usize::from(card)] = position as u32;
        }
        for (slot, &card) in relative.iter_mut().zip(next) {
            *slot = self.positions[usize::from(card)] as u16;
        }
    }
}

impl RelativePermutation {
    /// Remembers where each card of `previous` lies, for
    /// [`RelativePermutation::relabel_and_advance`].
    pub fn compute_positions(&mut self, previous: &[u16]) {
        self.positions.clear();
        self.positions.resize(previous.len(), 0);
        for (position, &card) in previous.iter().enumerate() {
            self.positions[usize::from(card)] = position as u32;
        }
    }

    /// [`RelativePermutation::compute`] of the deal last given (to
    /// [`RelativePermutation::compute_positions`] or here) and `next`, then remembers
    /// `next`'s positions for the pair after: a run of deals costs one pass over each.
    /// `next` must be a permutation of `0..n` for the deal after to be paired rightly.
    #[inline]
    pub fn relabel_and_advance(&mut self, next: &[u16], relative: &mut [u16]) {
        let n = self.positions.len();
        assert!(
            next.len() == n && relative.len() == n,
            "consecutive deals and their relative permutation must have the same size"
        );
        for (slot, &card) in relative.iter_mut().zip(next) {
            *slot = self.positions[usize::from(card)] as u16;
        }
        for (position, &card) in next.iter().enumerate() {
            self.positions[usize::from(card)] = position as u32;
        }
    }
}

/// [`RelativePermutation::compute`] into a new vector, with a buffer of its own: for
/// one-off use; loops should keep a [`RelativePermutation`].
pub fn relative_permutation(previous: &[u16], next: &[u16]) -> Vec<u16> {
    let mut relative = vec![0u16; previous.len()];
    RelativePermutation::new().compute(previous, next, &mut relative);
    relative
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tally::lehmer::{factorial, rank, unrank};

    fn all_orders(n: usize) -> Vec<Vec<u16>> {
        (0..factorial(n).unwrap() as usize)
            .map(|r| {
                let mut deck = vec![0u16; n];
                unrank(r, &mut deck);
                deck
            })
            .collect()
    }

    #[test]
    fn applying_the_relative_permutation_to_the_previous_deal_gives_the_next() {
        let orders = all_orders(4);
        for previous in &orders {
            for next in &orders {
                let relative = relative_permutation(previous, next);
                let rebuilt: Vec<u16> = relative.iter().map(|&i| previous[usize::from(i)]).collect();
                assert_eq!(&rebuilt, next);
            }
        }
        // From the fresh deck, the relative permutation is the next deal itself.
        let fresh: Vec<u16> = (0..6).collect();
        assert_eq!(
            relative_permutation(&fresh, &[3, 1, 5, 0, 2, 4]),
            vec![3, 1, 5, 0, 2, 4]
        );
    }

    #[test]
    fn equal_deals_give_the_identity() {
        let mut calculator = RelativePermutation::new();
        for deck in all_orders(5) {
            let mut relative = vec![9u16; 5];
            calculator.compute(&deck, &deck, &mut relative);
            assert_eq!(relative, vec![0, 1, 2, 3, 4]);
        }
    }

    /// Exact counting over every pair of orders: for uniform independent deals each
    /// relative permutation arises from exactly `n!` of the `(n!)²` pairs, and it does so
    /// for every previous deal (so it is also independent of the previous deal).
    #[test]
    fn independent_uniform_deals_give_a_uniform_relative_permutation() {
        let mut calculator = RelativePermutation::new();
        for n in 1..=5usize {
            let orders = all_orders(n);
            let cells = orders.len();
            let mut counts = vec![0u64; cells];
            let mut relative = vec![0u16; n];
            for previous in &orders {
                let mut per_previous = vec![0u64; cells];
                for next in &orders {
                    calculator.compute(previous, next, &mut relative);
                    per_previous[rank(&relative)] += 1;
                }
                assert!(per_previous.iter().all(|&count| count == 1), "n = {n}");
                for (total, count) in counts.iter_mut().zip(per_previous) {
                    *total += count;
                }
            }
            assert!(counts.iter().all(|&count| count == cells as u64), "n = {n}");
        }
    }

    #[test]
    #[should_panic(expected = "same size")]
    fn deals_of_different_sizes_are_refused() {
        RelativePermutation::new().compute(&[0, 1], &[0, 1, 2], &mut [0, 0, 0]);
    }
}
