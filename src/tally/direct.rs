//! The tables of decks too large to tally every order (more than ten cards): the card ×
//! position matrix, fixed points, cycles and rising sequences, counted deck by deck.
//!
//! Two ways in, with the same counts (a test in `simulate` compares them, bit for bit,
//! on every catalogue shuffle at several sizes):
//! - [`DirectTables::record_times`], one deck at a time, written plainly: the reference,
//!   and the way in for callers that see decks one by one (ingest, the relative
//!   permutations of consecutive deals);
//! - [`DirectTables::record_decks`], a batch of decks, the simulator's hot loop (issue 15).
//!   It runs one tight loop per table over the batch instead of every table per deck,
//!   counts positions in 16-bit cells (a quarter of the cache the 64-bit totals take; a
//!   52-card matrix and a batch of decks then fit the L1 cache together), added into the
//!   totals before they can overflow, and walks the cycles of [`LANES`] decks side by
//!   side ([`cycle_counts_side_by_side`]) instead of chasing one deck's cards at a time.

use super::rising::RisingSequences;
use super::structure::{
    LANES, cycle_count, cycle_counts_side_by_side, cycle_counts_side_by_side_wide, fixed_points,
};

/// Decks counted in the 16-bit cells before they are added into the totals: one more
/// and a cell that every deck hit would overflow.
const PENDING_DECKS: u32 = u16::MAX as u32;

/// The tables of `n`-card decks, each only if asked for.
#[derive(Clone, Debug)]
pub(super) struct DirectTables {
    n: usize,
    /// `n × n` totals, entry `card * n + position`.
    pub(super) positions: Option<Vec<u64>>,
    /// Counts not yet in `positions`, laid out the same way (empty without positions).
    pending: Vec<u16>,
    /// Decks counted in `pending`.
    pending_decks: u32,
    pub(super) fixed_points: Option<Vec<u64>>,
    pub(super) cycles: Option<Vec<u64>>,
    pub(super) rising: Option<Vec<u64>>,
    visited: Vec<bool>,
    rising_counter: RisingSequences,
    /// Each card's position in the deck being counted (rising sequences).
    inverse: Vec<u16>,
}

impl DirectTables {
    /// Empty tables for `n`-card decks.
    pub(super) fn new(n: usize, positions: bool, cycle_structure: bool, rising_sequences: bool) -> Self {
        let wanted = |wanted: bool, len: usize| wanted.then(|| vec![0u64; len]);
        Self {
            n,
            positions: wanted(positions, n * n),
            pending: if positions { vec![0; n * n] } else { Vec::new() },
            pending_decks: 0,
            fixed_points: wanted(cycle_structure, n + 1),
            cycles: wanted(cycle_structure, n + 1),
            rising: wanted(rising_sequences, n + 1),
            visited: Vec::new(),
            rising_counter: RisingSequences::new(),
            inverse: vec![0; n],
        }
    }

    /// Records `times` shuffles that all gave the deck `permutation`, plainly.
    #[inline]
    pub(super) fn record_times(&mut self, permutation: &[u16], times: u64) {
        if let Some(rising) = &mut self.rising {
            rising[self.rising_counter.count(permutation)] += times;
        }
        if let Some(positions) = &mut self.positions {
            for (position, &card) in permutation.iter().enumerate() {
                positions[usize::from(card) * self.n + position] += times;
            }
        }
        if let Some(fixed) = &mut self.fixed_points {
            fixed[fixed_points(permutation)] += times;
        }
        if let Some(cycles) = &mut self.cycles {
            cycles[cycle_count(permutation, &mut self.visited)] += times;
        }
    }

    /// Records the decks of `n` cards each laid end to end in `cards`, in any order
    /// (every table is a sum over decks).
    pub(super) fn record_decks(&mut self, cards: &[u16]) {
        let n = self.n;
        if n == 0 {
            return;
        }
        assert_eq!(cards.len() % n, 0, "whole decks of {n} cards");
        if self.positions.is_some() {
            // Each group of decks fits in the 16-bit cells' room.
            let mut rest = cards;
            while !rest.is_empty() {
                let room = (PENDING_DECKS - self.pending_decks) as usize;
                let (now, later) = rest.split_at(rest.len().min(room * n));
                self.count_cards(now);
                self.pending_decks += (now.len() / n) as u32;
                if self.pending_decks == PENDING_DECKS {
                    self.flush();
                }
                rest = later;
            }
        } else if self.fixed_points.is_some() || self.rising.is_some() {
            self.count_cards(cards);
        }
        if let Some(cycles) = &mut self.cycles {
            count_cycles(cycles, cards, n, &mut self.visited);
        }
    }

    /// Adds the 16-bit cells into the totals and empties them.
    fn flush(&mut self) {
        if let Some(positions) = &mut self.positions {
            for (total, pending) in positions.iter_mut().zip(&mut self.pending) {
                *total += u64::from(*pending);
                *pending = 0;
            }
        }
        self.pending_decks = 0;
    }

    /// Adds another worker's tables (its uncounted cells too).
    pub(super) fn merge(&mut self, other: &Self) {
        add_optional_counts(&mut self.positions, &other.positions);
        if let Some(positions) = &mut self.positions {
            for (total, &pending) in positions.iter_mut().zip(&other.pending) {
                *total += u64::from(pending);
            }
        }
        add_optional_counts(&mut self.fixed_points, &other.fixed_points);
        add_optional_counts(&mut self.cycles, &other.cycles);
        add_optional_counts(&mut self.rising, &other.rising);
    }

    /// The finished tables: positions, fixed points, cycles, rising sequences.
    pub(super) fn finish(mut self) -> [Option<Vec<u64>>; 4] {
        self.flush();
        [self.positions, self.fixed_points, self.cycles, self.rising]
    }
}

impl DirectTables {
    /// Counts each deck's (card, position) pairs into the 16-bit cells, its fixed points
    /// and its rising sequences, in one pass over its cards, each table if kept.
    #[inline(never)]
    fn count_cards(&mut self, cards: &[u16]) {
        let n = self.n;
        let pending = &mut self.pending[..];
        let inverse = &mut self.inverse[..n];
        let both = !pending.is_empty() && self.rising.is_some();
        for deck in cards.chunks_exact(n) {
            // Branches on the tables kept are the same for every deck: predicted. With
            // both tables, one pass reads each card once for the two.
            if both {
                for (position, &card) in deck.iter().enumerate() {
                    let card = usize::from(card);
                    pending[card * n + position] += 1;
                    inverse[card] = position as u16;
                }
            } else if !pending.is_empty() {
                for (position, &card) in deck.iter().enumerate() {
                    pending[usize::from(card) * n + position] += 1;
                }
            }
            if let Some(fixed) = &mut self.fixed_points {
                fixed[fixed_points_u16(deck)] += 1;
            }
            if let Some(rising) = &mut self.rising {
                if !both {
                    for (position, &card) in deck.iter().enumerate() {
                        inverse[usize::from(card)] = position as u16;
                    }
                }
                rising[1 + descents(inverse)] += 1;
            }
        }
    }
}

/// [`fixed_points`] in 16-bit arithmetic, which the compiler vectorises 8 cards wide.
#[inline]
fn fixed_points_u16(deck: &[u16]) -> usize {
    let fixed: u16 = deck
        .iter()
        .zip(0u16..)
        .map(|(&card, position)| u16::from(card == position))
        .fold(0, u16::wrapping_add);
    usize::from(fixed)
}

/// How many entries of `values` are smaller than the one before (16-bit arithmetic,
/// vectorised like [`fixed_points_u16`]).
#[inline]
fn descents(values: &[u16]) -> usize {
    let Some(rest) = values.get(1..) else {
        return 0;
    };
    let count: u16 = rest
        .iter()
        .zip(values)
        .map(|(next, before)| u16::from(next < before))
        .fold(0, u16::wrapping_add);
    usize::from(count)
}

/// Counts each deck's cycles: by byte permutes where the processor has them and decks
/// have at most 64 cards (`cycles_wide`), else [`LANES`] decks walked side by side (with
/// a word of visited bits up to 64 cards, a byte per position beyond), and the batch's
/// last few decks one at a time.
#[inline(never)]
fn count_cycles(counts: &mut [u64], cards: &[u16], n: usize, visited: &mut Vec<bool>) {
    // Where the processor has 64-byte byte permutes, no walk at all (`cycles_wide`).
    if super::cycles_wide::count_cycles(counts, cards, n) {
        return;
    }
    let mut rest = cards;
    if n > 0 {
        let mut groups = cards.chunks_exact(LANES * n);
        let mut visited_bytes = Vec::new();
        for group in &mut groups {
            let cycles = if n <= 64 {
                cycle_counts_side_by_side(group, n)
            } else {
                cycle_counts_side_by_side_wide(group, n, &mut visited_bytes)
            };
            for count in cycles {
                counts[count as usize] += 1;
            }
        }
        rest = groups.remainder();
    }
    for deck in rest.chunks_exact(n) {
        counts[cycle_count(deck, visited)] += 1;
    }
}

pub(super) fn add_counts(into: &mut [u64], from: &[u64]) {
    assert_eq!(into.len(), from.len(), "merging tables of different shapes");
    for (total, &count) in into.iter_mut().zip(from) {
        *total += count;
    }
}

pub(super) fn add_optional_counts(into: &mut Option<Vec<u64>>, from: &Option<Vec<u64>>) {
    match (into, from) {
        (Some(into), Some(from)) => add_counts(into, from),
        (None, None) => {}
        _ => panic!("merging a tally that kept a table with one that did not"),
    }
}
