//! Counting deals identical to an earlier deal, exactly, in at most 16 bytes per deal.
//!
//! The birthday test ([`crate::stats::repeats`]) needs the number of repeated decks among
//! tens of millions of deals. Keeping every 52-card deck (104 bytes as `u16`s) would take
//! 2 GB for 20 million deals; a hash per deal alone would be small but not exact (two
//! different decks can share a hash). So:
//!
//! - **Record**: each deal becomes one 16-byte entry `(key, deal index)`. For decks of up
//!   to 20 cards the key is the deck's Lehmer rank (`20! < 2^63`), which *is* the deck:
//!   equal keys are equal decks. Beyond 20 cards the key is a 64-bit hash of the deck, and
//!   the deal index is what lets the deck be found again.
//! - **Merge**: counters of different chunks, threads or shards are concatenated. The
//!   result depends only on the set of entries, never on how they were split: the caller
//!   gives every deal its index in the whole run (chunk `k`, deal `j` is
//!   `k · CHUNK_TRIALS + j`), and [`RepeatCounter::finish`] sorts.
//! - **Finish**: the entries are sorted (in parallel) by `(key, deal)`. Runs of equal keys
//!   are the candidate repeats. With ranks, a run of `m` deals is `m − 1` repeats. With
//!   hashes, the decks of the candidates are fetched back through a caller-supplied
//!   [`DealLookup`] (the engine deals them again from their chunk's seed; a file can be
//!   read again), in increasing deal order so that the caller can regenerate them in one
//!   sweep, and compared card by card with the distinct decks seen so far in their run.
//!   A hash collision between different decks then counts as two distinct decks, as it
//!   must. The run's first deck is kept (as bytes when the deck has at most 256 cards)
//!   until its run is done; should those kept decks need more than
//!   [`VERIFY_MEMORY_BYTES`], the runs are verified in several passes over the
//!   candidates, each keeping only its share. The candidates themselves are rewritten in
//!   place in the entries' memory, so the whole count stays within 16 bytes per deal plus
//!   that verification budget.
//!
//! Measured (`cargo run --release --example repeat_counter`, 2 threads): 20,000,000 deals
//! of 52 cards from a 32-bit seed space, 46,620 repeats (46,494 expected), every one
//! verified by dealing both decks again: 2.2 s to deal and record, 0.8 s to sort and
//! verify, 315 MB peak resident memory for the whole process (16.5 bytes per deal). The
//! example merges its chunks into one counter reserved for all deals up front
//! ([`RepeatCounter::with_capacity`]); merging per-thread counters with
//! [`RepeatCounter::merge_all`] instead holds them and the merged copy at once for a
//! moment, twice that.

use rayon::prelude::*;

use crate::error::{Error, Result};

/// Decks up to this size are keyed by their Lehmer rank, exactly (`20! < 2^63`).
pub const MAX_RANKED_CARDS: usize = 20;

/// The most memory the kept decks of one verification pass may take.
pub const VERIFY_MEMORY_BYTES: usize = 256 << 20;

/// How many of the most repeated decks a count lists.
pub const MOST_REPEATED_LISTED: usize = 5;

/// Gives back deals by their index in the run, for the exact comparison of decks whose
/// hashes are equal.
pub trait DealLookup {
    /// Calls `visit(deal, deck)` once for every index of `deals` (strictly increasing), in
    /// that order, with the deck that deal had.
    fn visit_deals(&mut self, deals: &[u64], visit: &mut dyn FnMut(u64, &[u16])) -> Result<()>;
}

/// A [`DealLookup`] from a function that writes deal `i`'s deck into a buffer.
pub struct LookupFn<F>(pub F);

impl<F: FnMut(u64, &mut Vec<u16>) -> Result<()>> DealLookup for LookupFn<F> {
    fn visit_deals(&mut self, deals: &[u64], visit: &mut dyn FnMut(u64, &[u16])) -> Result<()> {
        let mut deck = Vec::new();
        for &deal in deals {
            deck.clear();
            (self.0)(deal, &mut deck)?;
            visit(deal, &deck);
        }
        Ok(())
    }
}

/// The deals of a run kept in memory (tests, small inputs): deal `i` is `decks[i]`.
pub struct DealsInMemory<'a>(pub &'a [Vec<u16>]);

impl DealLookup for DealsInMemory<'_> {
    fn visit_deals(&mut self, deals: &[u64], visit: &mut dyn FnMut(u64, &[u16])) -> Result<()> {
        for &deal in deals {
            let deck = usize::try_from(deal)
                .ok()
                .and_then(|i| self.0.get(i))
                .ok_or_else(|| Error::Input(format!("deal {deal} is not among the {} kept", self.0.len())))?;
            visit(deal, deck);
        }
        Ok(())
    }
}

/// One deal recorded: its key (rank or hash) and its index in the run. 16 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Entry {
    key: u64,
    deal: u64,
}

/// Counts repeated deals of `n`-card decks (see the module docs).
#[derive(Clone, Debug)]
pub struct RepeatCounter {
    n: usize,
    entries: Vec<Entry>,
}

/// A deck dealt more than once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RepeatedDeck {
    /// The deck.
    pub deck: Vec<u16>,
    /// How many times it was dealt.
    pub times: u64,
    /// The index of the deal that first dealt it.
    pub first_deal: u64,
}

/// The repeats among a run of deals.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RepeatCount {
    /// Deals counted.
    pub deals: u64,
    /// Different decks among them.
    pub distinct: u64,
    /// Deals identical to an earlier deal: `deals − distinct`.
    pub repeats: u64,
    /// Different decks that shared a 64-bit hash (told apart by comparing the decks;
    /// informational, 0 in all but astronomically rare runs).
    pub hash_collisions: u64,
    /// The most repeated decks, most times first (ties: earliest first deal), at most
    /// [`MOST_REPEATED_LISTED`].
    pub most_repeated: Vec<RepeatedDeck>,
}

impl RepeatCounter {
    /// A counter for decks of `n` cards.
    pub fn new(n: usize) -> Self {
        Self {
            n,
            entries: Vec::new(),
        }
    }

    /// A counter with room for `deals` deals reserved at once (16 bytes each), so that
    /// recording never reallocates and peak memory stays at what is needed.
    pub fn with_capacity(n: usize, deals: usize) -> Self {
        Self {
            n,
            entries: Vec::with_capacity(deals),
        }
    }

    /// Whether decks are keyed exactly by rank (at most [`MAX_RANKED_CARDS`] cards).
    pub fn keys_are_exact(&self) -> bool {
        self.n <= MAX_RANKED_CARDS
    }

    /// Deals recorded.
    pub fn deals(&self) -> u64 {
        self.entries.len() as u64
    }

    /// Records deal number `deal` (its index in the whole run), whose deck is `deck`.
    ///
    /// # Panics
    ///
    /// If `deck` does not have the counter's `n` cards.
    #[inline]
    pub fn record(&mut self, deal: u64, deck: &[u16]) {
        assert_eq!(deck.len(), self.n, "a counter for {}-card decks", self.n);
        let key = if self.keys_are_exact() {
            rank_u64(deck)
        } else {
            hash_deck(deck)
        };
        self.entries.push(Entry { key, deal });
    }

    /// Adds another counter's deals (of the same deck size).
    pub fn merge(&mut self, mut other: RepeatCounter) {
        assert_eq!(self.n, other.n, "counters of different deck sizes");
        self.entries.append(&mut other.entries);
    }

    /// Adds another counter whose deals were numbered from 0 within a part of the run
    /// that starts at deal `offset` (a block of `ingest`'s input, numbered before the
    /// blocks before it were counted).
    pub fn merge_shifted(&mut self, other: RepeatCounter, offset: u64) {
        assert_eq!(self.n, other.n, "counters of different deck sizes");
        self.entries.extend(other.entries.into_iter().map(|entry| Entry {
            key: entry.key,
            deal: entry.deal + offset,
        }));
    }

    /// Reserves room for `deals` more deals at once.
    pub fn reserve(&mut self, deals: usize) {
        self.entries.reserve_exact(deals);
    }

    /// Adds up counters (of chunks, threads or shards) into one, reserving the total once.
    ///
    /// # Panics
    ///
    /// If `counters` is empty or mixes deck sizes.
    pub fn merge_all(counters: Vec<RepeatCounter>) -> RepeatCounter {
        let total: usize = counters.iter().map(|counter| counter.entries.len()).sum();
        let mut counters = counters.into_iter();
        let mut merged = counters.next().expect("at least one counter");
        merged.entries.reserve_exact(total - merged.entries.len());
        for counter in counters {
            merged.merge(counter);
        }
        merged
    }

    /// The repeats, exactly: decks of up to 20 cards by their ranks, larger ones by
    /// comparing the decks of equal hashes, fetched through `lookup` (which is not called
    /// at all when no two hashes are equal).
    pub fn finish(self, lookup: &mut dyn DealLookup) -> Result<RepeatCount> {
        self.finish_within(lookup, VERIFY_MEMORY_BYTES)
    }

    /// [`RepeatCounter::finish`] keeping at most `verify_bytes` of decks per pass.
    fn finish_within(self, lookup: &mut dyn DealLookup, verify_bytes: usize) -> Result<RepeatCount> {
        let RepeatCounter { n, mut entries } = self;
        let deals = entries.len() as u64;
        entries.par_sort_unstable();
        if n <= MAX_RANKED_CARDS {
            return Ok(count_ranked(n, deals, &entries));
        }
        verify_hashed(n, deals, entries, lookup, verify_bytes)
    }
}

/// Repeats of ranked decks: runs of equal ranks.
fn count_ranked(n: usize, deals: u64, entries: &[Entry]) -> RepeatCount {
    let mut distinct = 0u64;
    let mut repeated: Vec<(u64, u64, u64)> = Vec::new(); // (times, first deal, rank)
    for run in entries.chunk_by(|a, b| a.key == b.key) {
        distinct += 1;
        if run.len() > 1 {
            note_repeated(&mut repeated, (run.len() as u64, run[0].deal, run[0].key));
        }
    }
    let most_repeated = repeated
        .into_iter()
        .map(|(times, first_deal, rank)| RepeatedDeck {
            deck: unrank_u64(rank, n),
            times,
            first_deal,
        })
        .collect();
    RepeatCount {
        deals,
        distinct,
        repeats: deals - distinct,
        hash_collisions: 0,
        most_repeated,
    }
}

/// Keeps the [`MOST_REPEATED_LISTED`] largest `(times, first deal, …)`, most times first,
/// then earliest first deal.
fn note_repeated<T>(kept: &mut Vec<(u64, u64, T)>, candidate: (u64, u64, T)) {
    let position = kept
        .iter()
        .position(|&(times, first, _)| {
            (candidate.0, std::cmp::Reverse(candidate.1)) > (times, std::cmp::Reverse(first))
        })
        .unwrap_or(kept.len());
    if position < MOST_REPEATED_LISTED {
        kept.insert(position, candidate);
        kept.truncate(MOST_REPEATED_LISTED);
    }
}

/// Repeats of hashed decks: every run of equal hashes verified by comparing decks.
fn verify_hashed(
    n: usize,
    deals: u64,
    mut entries: Vec<Entry>,
    lookup: &mut dyn DealLookup,
    verify_bytes: usize,
) -> Result<RepeatCount> {
    // Number the runs of two or more, and rewrite each of their entries in place as a
    // candidate, `key` = its deal and `deal` = its run's number; single deals are
    // distinct decks and dropped. No second table: 16 bytes per deal throughout.
    let mut singles = 0u64;
    let mut runs = 0u64;
    let mut kept = 0usize;
    let mut start = 0usize;
    while start < entries.len() {
        let key = entries[start].key;
        let end = start
            + entries[start..]
                .iter()
                .take_while(|entry| entry.key == key)
                .count();
        if end - start == 1 {
            singles += 1;
        } else {
            for i in start..end {
                entries[kept] = Entry {
                    key: entries[i].deal,
                    deal: runs,
                };
                kept += 1;
            }
            runs += 1;
        }
        start = end;
    }
    entries.truncate(kept);
    entries.shrink_to_fit();
    let mut candidates = entries;
    candidates.par_sort_unstable_by_key(|candidate| candidate.key);
    let deal_of = |candidate: &Entry| candidate.key;
    let run_of = |candidate: &Entry| candidate.deal;

    // Each run keeps its distinct decks (almost always one) until verified; runs are
    // verified in passes so that the kept decks stay within the budget.
    let deck_bytes = if n <= 256 { n } else { 2 * n };
    let runs_per_pass = (verify_bytes / (deck_bytes + 64)).max(1) as u64;
    let mut distinct_in_runs = 0u64;
    let mut hash_collisions = 0u64;
    let mut repeated: Vec<(u64, u64, Vec<u16>)> = Vec::new();
    let mut pass_start = 0u64;
    let mut indices: Vec<u64> = Vec::new();
    while pass_start < runs {
        let pass_end = (pass_start + runs_per_pass).min(runs);
        let in_pass = |candidate: &&Entry| (pass_start..pass_end).contains(&run_of(candidate));
        indices.clear();
        indices.extend(candidates.iter().filter(in_pass).map(deal_of));
        let mut runs_of_pass = candidates.iter().filter(in_pass).map(run_of);
        // Per run of the pass: its distinct decks, each with (times, first deal).
        let mut seen: Vec<Vec<KeptDeck>> = vec![Vec::new(); (pass_end - pass_start) as usize];
        let mut visited = 0usize;
        let mut wrong_size = None;
        lookup.visit_deals(&indices, &mut |deal, deck| {
            visited += 1;
            if deck.len() != n {
                wrong_size.get_or_insert((deal, deck.len()));
                return;
            }
            let Some(run) = runs_of_pass.next() else {
                return;
            };
            let decks = &mut seen[(run - pass_start) as usize];
            match decks.iter_mut().find(|kept| kept.is(deck)) {
                Some(kept) => kept.times += 1,
                None => decks.push(KeptDeck::new(deck, deal)),
            }
        })?;
        if let Some((deal, size)) = wrong_size {
            return Err(Error::Input(format!(
                "deal {deal} came back with {size} cards instead of {n} when its repeats were checked"
            )));
        }
        if visited != indices.len() {
            return Err(Error::Input(format!(
                "{visited} of the {} deals asked for came back when their repeats were checked",
                indices.len()
            )));
        }
        for decks in seen {
            distinct_in_runs += decks.len() as u64;
            hash_collisions += decks.len().saturating_sub(1) as u64;
            for kept in decks.into_iter().filter(|kept| kept.times > 1) {
                note_repeated(&mut repeated, (kept.times, kept.first_deal, kept.deck()));
            }
        }
        pass_start = pass_end;
    }
    let distinct = singles + distinct_in_runs;
    Ok(RepeatCount {
        deals,
        distinct,
        repeats: deals - distinct,
        hash_collisions,
        most_repeated: repeated
            .into_iter()
            .map(|(times, first_deal, deck)| RepeatedDeck {
                deck,
                times,
                first_deal,
            })
            .collect(),
    })
}

/// A deck kept while its run is verified, as bytes when every card fits in one.
#[derive(Clone)]
struct KeptDeck {
    cards: KeptCards,
    times: u64,
    first_deal: u64,
}

#[derive(Clone)]
enum KeptCards {
    Bytes(Box<[u8]>),
    Wide(Box<[u16]>),
}

impl KeptDeck {
    fn new(deck: &[u16], deal: u64) -> Self {
        let cards = if deck.iter().all(|&card| card <= u16::from(u8::MAX)) {
            KeptCards::Bytes(deck.iter().map(|&card| card as u8).collect())
        } else {
            KeptCards::Wide(deck.into())
        };
        Self {
            cards,
            times: 1,
            first_deal: deal,
        }
    }

    fn is(&self, deck: &[u16]) -> bool {
        match &self.cards {
            KeptCards::Bytes(bytes) => {
                bytes.len() == deck.len() && bytes.iter().zip(deck).all(|(&a, &b)| u16::from(a) == b)
            }
            KeptCards::Wide(cards) => cards.as_ref() == deck,
        }
    }

    fn deck(&self) -> Vec<u16> {
        match &self.cards {
            KeptCards::Bytes(bytes) => bytes.iter().map(|&card| u16::from(card)).collect(),
            KeptCards::Wide(cards) => cards.to_vec(),
        }
    }
}

/// The Lehmer rank of a deck of at most 20 cards, in a `u64` (lexicographic, as
/// [`super::lehmer::rank`]).
pub(crate) fn rank_u64(deck: &[u16]) -> u64 {
    let n = deck.len();
    let mut rank = 0u64;
    for i in 0..n {
        let smaller_to_the_right = deck[i + 1..].iter().filter(|&&later| later < deck[i]).count();
        rank = rank * (n - i) as u64 + smaller_to_the_right as u64;
    }
    rank
}

/// The deck of `n <= 20` cards whose [`rank_u64`] is `rank`.
fn unrank_u64(mut rank: u64, n: usize) -> Vec<u16> {
    let mut digits = vec![0u64; n];
    for (i, digit) in digits.iter_mut().enumerate().rev() {
        let radix = (n - i) as u64;
        *digit = rank % radix;
        rank /= radix;
    }
    let mut remaining: Vec<u16> = (0..n as u16).collect();
    digits
        .into_iter()
        .map(|digit| remaining.remove(digit as usize))
        .collect()
}

/// A 64-bit hash of a deck: four cards per 64-bit word, each word folded in by a 128-bit
/// multiply whose halves are xored (the mixing step of wyhash), then the length. Fixed
/// constants, so that the same deck hashes the same in every run, thread and shard.
/// Equal hashes are only candidates: decks are compared before they count as repeats.
pub(crate) fn hash_deck(deck: &[u16]) -> u64 {
    const MULTIPLIER: u64 = 0x9E37_79B9_7F4A_7C15;
    const OFFSET: u64 = 0xA076_1D64_78BD_642F;
    #[inline(always)]
    fn fold(a: u64, b: u64) -> u64 {
        let product = u128::from(a) * u128::from(b);
        (product as u64) ^ ((product >> 64) as u64)
    }
    let mut hash = OFFSET;
    let mut words = deck.chunks_exact(4);
    for word in &mut words {
        let packed = u64::from(word[0])
            | u64::from(word[1]) << 16
            | u64::from(word[2]) << 32
            | u64::from(word[3]) << 48;
        hash = fold(hash ^ packed ^ OFFSET, MULTIPLIER);
    }
    let mut last = 0u64;
    for (i, &card) in words.remainder().iter().enumerate() {
        last |= u64::from(card) << (16 * i);
    }
    hash = fold(hash ^ last ^ OFFSET, MULTIPLIER);
    fold(hash ^ deck.len() as u64, OFFSET ^ MULTIPLIER)
}

#[cfg(test)]
mod tests;
