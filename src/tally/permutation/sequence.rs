//! What a run of consecutive deals shows that no single deal does: the relative
//! permutations of consecutive deals (a dealer who carries the deck, a generator re-seeded
//! from a clock) and the deals that repeat an earlier one (a program that can only deal
//! a few decks).
//!
//! A part of the [`PermutationRecorder`] that owns it (which tallies the relative
//! permutations with a recorder of its own): a [`SequenceRecorder`] sees the deals of one
//! chunk in order. Pairs and repeats are
//! counted within a chunk only: chunks are independent streams, handed to threads in any
//! order and split across shards, so anything counted across two chunks would depend on
//! the thread count and the shard layout. Within a chunk the order is the dealing order,
//! whatever thread deals it. Every count adds across chunks, threads and machines.
//!
//! Repeats are counted exactly, in bounded memory: each deal of the chunk keeps a 64-bit
//! key (its Lehmer rank for decks of up to 20 cards, which *is* the deck; a hash beyond)
//! and, for hashed decks, the deck itself until the chunk ends, when equal keys are
//! compared card by card. A chunk holds at most 16,384 deals, so that is at most
//! `16,384 × 2n` bytes per thread (1.7 MB for 52 cards).

use super::super::order_summary::OrderSummary;
use super::super::relative::RelativePermutation;
use super::super::repeats::{MAX_RANKED_CARDS, hash_deck, rank_u64};
use super::{PermutationRecorder, PermutationTally, TallyOptions};

/// Repeated deals counted in groups of consecutive deals (the chunks of a run, or the
/// whole input of `ingest`). The groups are kept by size, so that a fair shuffle's
/// expected number of repeats follows ([`crate::stats::repeats`]); everything adds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RepeatTally {
    /// `(deals in a group, how many groups of that size)`, sorted by size.
    pub groups: Vec<(u64, u64)>,
    /// Deals identical to an earlier deal of the same group.
    pub repeats: u64,
}

impl RepeatTally {
    /// Counts a group of `deals` deals with `repeats` repeats among them.
    pub fn add_group(&mut self, deals: u64, repeats: u64) {
        if deals == 0 {
            return;
        }
        self.repeats += repeats;
        match self.groups.binary_search_by_key(&deals, |&(size, _)| size) {
            Ok(at) => self.groups[at].1 += 1,
            Err(at) => self.groups.insert(at, (deals, 1)),
        }
    }

    /// Adds another tally (of other chunks, threads or shards).
    pub fn add(&mut self, other: &RepeatTally) {
        self.repeats += other.repeats;
        for &(size, count) in &other.groups {
            match self.groups.binary_search_by_key(&size, |&(s, _)| s) {
                Ok(at) => self.groups[at].1 += count,
                Err(at) => self.groups.insert(at, (size, count)),
            }
        }
    }

    /// Deals counted in all.
    pub fn deals(&self) -> u64 {
        self.groups.iter().map(|&(size, count)| size * count).sum()
    }
}

/// The repeats within one chunk, counted when it ends.
#[derive(Clone, Debug)]
struct ChunkRepeats {
    n: usize,
    /// `(key, deal in chunk)` of every deal so far.
    keys: Vec<(u64, u32)>,
    /// The chunk's decks, one after another, for decks that are hashed.
    decks: Vec<u16>,
    tally: RepeatTally,
}

impl ChunkRepeats {
    fn new(n: usize) -> Self {
        Self {
            n,
            keys: Vec::new(),
            decks: Vec::new(),
            tally: RepeatTally::default(),
        }
    }

    fn exact_keys(&self) -> bool {
        self.n <= MAX_RANKED_CARDS
    }

    #[inline]
    fn record(&mut self, deck: &[u16]) {
        let deal = self.keys.len() as u32;
        if self.exact_keys() {
            self.keys.push((rank_u64(deck), deal));
        } else {
            self.keys.push((hash_deck(deck), deal));
            self.decks.extend_from_slice(deck);
        }
    }

    /// Counts the chunk's repeats and forgets its deals.
    fn end_chunk(&mut self) {
        let deals = self.keys.len() as u64;
        self.keys.sort_unstable();
        let mut repeats = 0u64;
        let n = self.n;
        let deck = |deal: u32| &self.decks[deal as usize * n..(deal as usize + 1) * n];
        for run in self.keys.chunk_by(|a, b| a.0 == b.0) {
            if run.len() < 2 {
                continue;
            }
            if self.exact_keys() {
                repeats += run.len() as u64 - 1;
                continue;
            }
            // Equal hashes: count the distinct decks among them, card by card.
            let mut distinct: Vec<u32> = Vec::new();
            for &(_, deal) in run {
                if !distinct.iter().any(|&other| deck(other) == deck(deal)) {
                    distinct.push(deal);
                }
            }
            repeats += (run.len() - distinct.len()) as u64;
        }
        self.tally.add_group(deals, repeats);
        self.keys.clear();
        self.decks.clear();
    }
}

/// The sequence tallies of a worker: relative permutations of consecutive deals, and
/// repeats, both within chunks ([`SequenceRecorder::start_chunk`]).
#[derive(Clone, Debug)]
pub struct SequenceRecorder {
    n: usize,
    serial: PermutationRecorder,
    previous: Vec<u16>,
    has_previous: bool,
    relative: Vec<u16>,
    calculator: RelativePermutation,
    /// A batch's relative permutations ([`SequenceRecorder::record_decks`]).
    relatives: Vec<u16>,
    repeats: Option<ChunkRepeats>,
}

impl SequenceRecorder {
    /// Sequence tallies for `n`-card decks; `repeats` says whether to count repeated deals
    /// (worth it only where a fair shuffle almost never repeats a deck in a chunk).
    pub fn new(n: usize, options: TallyOptions, repeats: bool) -> Self {
        Self {
            n,
            serial: PermutationRecorder::new(n, options),
            previous: vec![0; n],
            has_previous: false,
            relative: vec![0; n],
            calculator: RelativePermutation::new(),
            relatives: Vec::new(),
            repeats: repeats.then(|| ChunkRepeats::new(n)),
        }
    }

    /// About how many bytes it holds for `n`-card decks (the serial tally, and a chunk's
    /// keys and hashed decks).
    pub fn footprint(n: usize, options: TallyOptions, repeats: bool, chunk_deals: u64) -> u64 {
        let kept = if repeats {
            let deck = if n <= MAX_RANKED_CARDS { 0 } else { 2 * n as u64 };
            chunk_deals * (16 + deck)
        } else {
            0
        };
        PermutationRecorder::footprint(n, options) + kept
    }

    /// A new run of consecutive deals starts: no pair reaches back before it.
    pub fn start_chunk(&mut self) {
        self.has_previous = false;
    }

    /// The run of consecutive deals ends: its repeats are counted.
    pub fn end_chunk(&mut self) {
        if let Some(repeats) = &mut self.repeats {
            repeats.end_chunk();
        }
    }

    /// Records the next deal of the chunk.
    #[inline]
    pub fn record(&mut self, deck: &[u16]) {
        debug_assert_eq!(deck.len(), self.n);
        if self.has_previous {
            self.calculator.compute(&self.previous, deck, &mut self.relative);
            self.serial.record(&self.relative);
        }
        self.previous.copy_from_slice(deck);
        self.has_previous = true;
        if let Some(repeats) = &mut self.repeats {
            repeats.record(deck);
        }
    }

    /// Records the next deals of the chunk, laid end to end in `cards` (whole decks), in
    /// dealing order: the tallies of [`SequenceRecorder::record`] on each in turn, bit
    /// for bit. The batch's relative permutations are computed into one buffer and
    /// recorded a batch at a time ([`PermutationRecorder::record_decks`]), not one by one.
    pub fn record_decks(&mut self, cards: &[u16]) {
        let n = self.n;
        if n == 0 || cards.is_empty() {
            return;
        }
        assert_eq!(cards.len() % n, 0, "whole decks of {n} cards");
        self.relatives.clear();
        self.relatives.resize(cards.len(), 0);
        let mut relatives = &mut self.relatives[..];
        let mut decks = cards.chunks_exact(n);
        if !self.has_previous {
            // The chunk's first deal pairs with nothing.
            let first = decks.next().expect("a whole deck");
            relatives = &mut relatives[..cards.len() - n];
            self.calculator.compute_positions(first);
        } else {
            self.calculator.compute_positions(&self.previous);
        }
        for (deck, relative) in decks.zip(relatives.chunks_exact_mut(n)) {
            // Each deal's positions serve the next pair.
            self.calculator.relabel_and_advance(deck, relative);
        }
        let paired = relatives.len();
        self.serial.record_decks(&self.relatives[..paired]);
        self.previous.copy_from_slice(&cards[cards.len() - n..]);
        self.has_previous = true;
        if let Some(repeats) = &mut self.repeats {
            for deck in cards.chunks_exact(n) {
                repeats.record(deck);
            }
        }
    }

    /// Adds another worker's tallies.
    pub fn merge(&mut self, other: &Self) {
        self.serial.merge(&other.serial);
        self.add_repeats(other);
    }

    /// Puts the ranks of listed relative permutations in order (see
    /// [`PermutationRecorder::sort_listed`]).
    pub fn sort_listed(&mut self) {
        self.serial.sort_listed();
    }

    /// Whether its relative permutations can be summarised as they are added.
    pub fn summarisable(&self) -> bool {
        self.serial.summarisable()
    }

    /// [`SequenceRecorder::merge`], keeping `summary` the summary of the relative
    /// permutations' counts (see [`PermutationRecorder::merge_summarised`]).
    pub fn merge_summarised(&mut self, other: &Self, summary: &mut OrderSummary) -> bool {
        let kept = self.serial.merge_summarised(&other.serial, summary);
        self.add_repeats(other);
        kept
    }

    /// The relative permutations' tally made from `summary`, without reading the counts.
    pub fn summary_tally(&self, summary: &OrderSummary) -> PermutationTally {
        self.serial.summary_tally(summary)
    }

    /// The repeats counted so far, when they are counted.
    pub fn repeat_tally(&self) -> Option<RepeatTally> {
        self.repeats.as_ref().map(|repeats| repeats.tally.clone())
    }

    fn add_repeats(&mut self, other: &Self) {
        match (&mut self.repeats, &other.repeats) {
            (Some(mine), Some(theirs)) => mine.tally.add(&theirs.tally),
            (None, None) => {}
            _ => unreachable!("workers of one run count the same things"),
        }
    }

    /// The finished tallies: the relative permutations' tally and the repeats.
    pub fn finish(self) -> (PermutationTally, Option<RepeatTally>) {
        (self.serial.finish(), self.repeats.map(|repeats| repeats.tally))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn recorder(n: usize) -> SequenceRecorder {
        SequenceRecorder::new(n, TallyOptions::default(), true)
    }

    #[test]
    fn pairs_and_repeats_stay_within_their_chunk() {
        let mut sequence = recorder(3);
        sequence.start_chunk();
        for deck in [[0, 1, 2], [1, 2, 0], [0, 1, 2]] {
            sequence.record(&deck);
        }
        sequence.end_chunk();
        sequence.start_chunk();
        // The same deck as the last of the chunk before: not a pair, not a repeat.
        sequence.record(&[0, 1, 2]);
        sequence.end_chunk();
        let (serial, repeats) = sequence.finish();
        assert_eq!(serial.trials, 2, "two pairs in the first chunk, none across");
        let repeats = repeats.unwrap();
        assert_eq!(repeats.repeats, 1);
        assert_eq!(repeats.groups, vec![(1, 1), (3, 1)]);
        assert_eq!(repeats.deals(), 4);
    }

    #[test]
    fn deals_recorded_a_batch_at_a_time_tally_as_one_at_a_time() {
        // 25-card decks (hashed repeats, tables counted directly), batches of uneven sizes
        // across two chunks, some deals repeated: every tally equal to dealing one by one.
        let mut source = crate::randomness::SimulationSource::from_seed(17);
        let mut decks: Vec<Vec<u16>> = Vec::new();
        for deal in 0..300 {
            let mut deck: Vec<u16> = (0..25).collect();
            if deal % 7 != 3 {
                crate::randomness::fisher_yates_for_tests(&mut deck, &mut source);
            }
            decks.push(deck);
        }
        let (mut one, mut batched) = (recorder(25), recorder(25));
        for chunk in decks.chunks(150) {
            one.start_chunk();
            batched.start_chunk();
            for deck in chunk {
                one.record(deck);
            }
            let mut rest = chunk;
            for size in [1, 2, 64, 1].into_iter().cycle() {
                if rest.is_empty() {
                    break;
                }
                let (now, later) = rest.split_at(size.min(rest.len()));
                batched.record_decks(&now.concat());
                rest = later;
            }
            one.end_chunk();
            batched.end_chunk();
        }
        let (one, batched) = (one.finish(), batched.finish());
        assert_eq!(one.0.trials, 298);
        assert_eq!(
            one.1.as_ref().unwrap().repeats,
            41,
            "the fresh deck dealt 43 times, 2 chunks"
        );
        assert_eq!(one, batched);
    }

    #[test]
    fn hashed_decks_are_compared_card_by_card() {
        // 25 cards: keyed by hash. Two equal decks and one other.
        let fresh: Vec<u16> = (0..25).collect();
        let mut reversed = fresh.clone();
        reversed.reverse();
        let mut sequence = recorder(25);
        sequence.start_chunk();
        for deck in [&fresh, &reversed, &fresh, &fresh] {
            sequence.record(deck);
        }
        sequence.end_chunk();
        let (serial, repeats) = sequence.finish();
        assert_eq!(repeats.unwrap().repeats, 2);
        assert_eq!(serial.trials, 3);
    }

    #[test]
    fn repeat_tallies_add_by_group_size() {
        let mut a = RepeatTally::default();
        a.add_group(16_384, 2);
        a.add_group(100, 0);
        let mut b = RepeatTally::default();
        b.add_group(16_384, 1);
        a.add(&b);
        assert_eq!(a.groups, vec![(100, 1), (16_384, 2)]);
        assert_eq!(a.repeats, 3);
    }
}
