//! Tallies of shuffled decks: how often each order, each (card, position) pair, each
//! number of fixed points and each number of cycles came out.
//!
//! For decks of up to [`MAX_RANKED_N`] cards the full table of `n!` order counts is a
//! sufficient statistic: the position matrix, fixed points and cycles follow from it
//! exactly. So the hot loop only ranks the deck and bumps one counter, and the rest is
//! derived once at the end ([`PermutationRecorder::finish`]). Larger decks are tallied
//! directly, each table only if asked for ([`TallyOptions`]).
//!
//! Every table is plain counts, so tallies from different threads, chunks or machines add
//! up to exactly the tally of a single run.

use super::direct::{DirectTables, add_counts, add_optional_counts};
use super::guessing::GuessingTally;
use super::lehmer::{MAX_RANKED_N, factorial, next_permutation, rank};
use super::order_summary::OrderSummary;
use super::shapes::{Derived, shapes};

mod sequence;
pub use sequence::{RepeatTally, SequenceRecorder};

/// Which tables to keep for decks too large to tally every order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TallyOptions {
    /// The item × position matrix.
    pub positions: bool,
    /// The fixed-point and cycle-count distributions.
    pub cycle_structure: bool,
    /// The distribution of rising sequences.
    pub rising_sequences: bool,
    /// The relative permutations of consecutive deals (within chunks): deals must then be
    /// recorded one at a time, in dealing order.
    pub serial: bool,
    /// With `serial`: the deals identical to an earlier deal of their chunk.
    pub repeats: bool,
    /// For decks of [`MIN_LISTED_N`] to 10 cards not tallied in order: write down each
    /// deal's rank instead of counting it, for a short part of a run that is added to a
    /// total at once (a step of the live page's run, see [`OrderSummary`]). Counting
    /// needs a table of `n!` counters per worker, zeroed before and read whole after; a
    /// list costs what was dealt.
    pub listed: bool,
}

impl Default for TallyOptions {
    fn default() -> Self {
        Self {
            positions: true,
            cycle_structure: true,
            rising_sequences: true,
            serial: false,
            repeats: false,
            listed: false,
        }
    }
}

/// The smallest deck whose orders [`TallyOptions::listed`] lists: below it the table of
/// `n!` counters (40,320 for 8 cards) is small enough to zero and add at every step.
pub const MIN_LISTED_N: usize = 9;

/// The most deals of one chunk (the engine's `CHUNK_TRIALS`), for memory estimates.
const CHUNK_DEALS: u64 = 16_384;

/// Decks up to this size are counted by a base-4 code of their cards (`4^n` counters)
/// rather than by Lehmer rank: the code is a few shifts, the rank a dozen comparisons,
/// and on tiny decks the tally would otherwise cost as much as the shuffle.
pub const MAX_CODED_N: usize = 4;

/// How a recorder counts, chosen once from the deck size.
#[derive(Clone, Debug)]
enum Counts {
    /// `n <= MAX_CODED_N`: counters indexed by [`base4_code`]; folded into ranks at the end.
    Coded(Vec<u64>),
    /// `n <= MAX_RANKED_N`: counters indexed by Lehmer rank.
    Ranked(Vec<u64>),
    /// `MIN_LISTED_N <= n <= MAX_RANKED_N`, when asked for: each deal's Lehmer rank.
    Listed(Vec<u32>),
    /// Larger decks: the tables themselves, each only if asked for.
    Direct(Box<DirectTables>),
}

/// The accumulator a simulation thread writes each shuffled deck into.
#[derive(Clone, Debug)]
pub struct PermutationRecorder {
    n: usize,
    trials: u64,
    counts: Counts,
    /// The deals in order, when their dependence is to be tested.
    sequence: Option<Box<SequenceRecorder>>,
    /// The guessing game played on the run's first deals, once attached.
    guessing: Option<Box<GuessingTally>>,
}

impl PermutationRecorder {
    /// An empty tally for decks of `n` cards.
    pub fn new(n: usize, options: TallyOptions) -> Self {
        let counts = if n <= MAX_CODED_N {
            Counts::Coded(vec![0; 1 << (2 * n)])
        } else if options.listed && (MIN_LISTED_N..=MAX_RANKED_N).contains(&n) {
            Counts::Listed(Vec::new())
        } else if n <= MAX_RANKED_N {
            Counts::Ranked(vec![0; factorial(n).expect("n <= 10") as usize])
        } else {
            Counts::Direct(Box::new(DirectTables::new(
                n,
                options.positions,
                options.cycle_structure,
                options.rising_sequences,
            )))
        };
        // The relative permutations get the same tables, and no sequence of their own.
        let sequence = options.serial.then(|| {
            let tables = TallyOptions {
                serial: false,
                repeats: false,
                ..options
            };
            Box::new(SequenceRecorder::new(n, tables, options.repeats))
        });
        Self {
            n,
            trials: 0,
            counts,
            sequence,
            guessing: None,
        }
    }

    /// Attaches the guessing game played on the run's first deals (see
    /// [`crate::tally::guessing`]): not a count, but a property of the whole run, which
    /// every part of it computes alike and adding keeps once.
    pub fn set_guessing(&mut self, game: Option<GuessingTally>) {
        self.guessing = game.map(Box::new);
    }

    /// Whether deals are tallied in order too.
    pub fn tallies_sequence(&self) -> bool {
        self.sequence.is_some()
    }

    /// A new chunk of consecutive deals starts.
    #[inline]
    pub fn start_chunk(&mut self) {
        if let Some(sequence) = &mut self.sequence {
            sequence.start_chunk();
        }
    }

    /// The chunk ends.
    #[inline]
    pub fn end_chunk(&mut self) {
        if let Some(sequence) = &mut self.sequence {
            sequence.end_chunk();
        }
    }

    /// About how many bytes of counters one recorder for `n`-card decks holds.
    pub fn footprint(n: usize, options: TallyOptions) -> u64 {
        let counters = if n <= MAX_CODED_N {
            1u64 << (2 * n)
        } else if n <= MAX_RANKED_N {
            factorial(n).expect("n <= 10")
        } else {
            let positions = if options.positions { (n * n) as u64 } else { 0 };
            let structure = if options.cycle_structure {
                2 * (n as u64 + 1)
            } else {
                0
            };
            let rising = if options.rising_sequences { n as u64 + 1 } else { 0 };
            positions + structure + rising
        };
        let sequence = if options.serial {
            let tables = TallyOptions {
                serial: false,
                repeats: false,
                ..options
            };
            SequenceRecorder::footprint(n, tables, options.repeats, CHUNK_DEALS)
        } else {
            0
        };
        counters * std::mem::size_of::<u64>() as u64 + sequence
    }

    /// Records one shuffled deck, a permutation of `0..n`.
    #[inline]
    pub fn record(&mut self, permutation: &[u16]) {
        self.record_times(permutation, 1);
    }

    /// Records the deal the others are read against (`ingest`'s first line, which fixes
    /// the deck): the deck in order by construction, so not an order drawn at random. It
    /// takes its place in the sequence (the serial pair with the next deal, the repeats),
    /// and is left out of the order tables and of `trials`.
    pub fn record_reference(&mut self, deck: &[u16]) {
        debug_assert_eq!(deck.len(), self.n);
        if let Some(sequence) = &mut self.sequence {
            sequence.record(deck);
        }
    }

    /// Records `times` shuffles that all gave the deck `permutation`.
    #[inline]
    pub fn record_times(&mut self, permutation: &[u16], times: u64) {
        debug_assert_eq!(permutation.len(), self.n);
        if let Some(sequence) = &mut self.sequence {
            assert_eq!(times, 1, "deals tallied in order are recorded one at a time");
            sequence.record(permutation);
        }
        self.trials += times;
        match &mut self.counts {
            Counts::Coded(counts) => counts[base4_code(permutation)] += times,
            Counts::Ranked(counts) => counts[rank(permutation)] += times,
            Counts::Listed(ranks) => {
                let order = rank(permutation) as u32;
                ranks.extend(std::iter::repeat_n(order, times as usize));
            }
            Counts::Direct(tables) => tables.record_times(permutation, times),
        }
    }

    /// Records the decks laid end to end in `cards` (whole decks of `n` cards), in
    /// dealing order: the simulator's loop for decks of any size. The tallies are those of
    /// [`PermutationRecorder::record`] on each deck in turn, bit for bit; decks too large
    /// to rank are counted a table at a time over the whole batch (see `direct`).
    pub fn record_decks(&mut self, cards: &[u16]) {
        let n = self.n.max(1);
        match &mut self.counts {
            Counts::Direct(tables) => {
                if let Some(sequence) = &mut self.sequence {
                    sequence.record_decks(cards);
                }
                tables.record_decks(cards);
                self.trials += (cards.len() / n) as u64;
            }
            _ => {
                for deck in cards.chunks_exact(n) {
                    self.record(deck);
                }
            }
        }
    }

    /// Records a batch of decks of exactly `N` cards.
    ///
    /// The simulator's hot loop for small decks: it shuffles a batch into a buffer and
    /// then tallies the buffer here. Keeping the two phases apart lets the processor
    /// overlap many shuffles instead of waiting on each deck's path from random draw to
    /// counter, and the fixed size lets the compiler unroll the ranking.
    #[inline]
    pub fn record_batch<const N: usize>(&mut self, decks: &[[u16; N]]) {
        assert_eq!(N, self.n, "deck size does not match the tally");
        if let Some(sequence) = &mut self.sequence {
            for deck in decks {
                sequence.record(deck);
            }
        }
        match &mut self.counts {
            Counts::Coded(counts) => {
                for deck in decks {
                    counts[base4_code(deck)] += 1;
                }
            }
            Counts::Ranked(counts) => {
                for deck in decks {
                    counts[rank(deck)] += 1;
                }
            }
            Counts::Listed(ranks) => ranks.extend(decks.iter().map(|deck| rank(deck) as u32)),
            Counts::Direct(tables) => tables.record_decks(decks.as_flattened()),
        }
        self.trials += decks.len() as u64;
    }

    /// Adds another recorder's counts to this one.
    pub fn merge(&mut self, other: &Self) {
        assert_eq!(self.n, other.n, "merging tallies of different deck sizes");
        self.trials += other.trials;
        match (&mut self.counts, &other.counts) {
            (Counts::Coded(into), Counts::Coded(from)) | (Counts::Ranked(into), Counts::Ranked(from)) => {
                add_counts(into, from)
            }
            (Counts::Listed(into), Counts::Listed(from)) => into.extend_from_slice(from),
            (Counts::Ranked(into), Counts::Listed(from)) => {
                for &order in from {
                    into[order as usize] += 1;
                }
            }
            (Counts::Direct(into), Counts::Direct(from)) => into.merge(from),
            _ => unreachable!(
                "recorders of the same deck size count the same way (a listed one is added to a ranked one)"
            ),
        }
        match (&mut self.sequence, &other.sequence) {
            (Some(mine), Some(theirs)) => mine.merge(theirs),
            (None, None) => {}
            _ => unreachable!("recorders of one run tally the same things"),
        }
        if self.guessing.is_none() {
            self.guessing.clone_from(&other.guessing);
        }
    }

    /// Puts the ranks a listed recorder wrote down in order, which makes adding them
    /// ([`PermutationRecorder::merge_summarised`]) read the total's counters front to
    /// back; does nothing to a recorder that counts.
    pub fn sort_listed(&mut self) {
        if let Counts::Listed(ranks) = &mut self.counts {
            *ranks = super::order_summary::sorted(ranks);
        }
        if let Some(sequence) = &mut self.sequence {
            sequence.sort_listed();
        }
    }

    /// Whether [`PermutationRecorder::merge_summarised`] can keep an [`OrderSummary`] of
    /// this recorder: its decks are ranked (5 to 10 cards), and so are the relative
    /// permutations of consecutive deals when it tallies them (a flawed source, a carried
    /// deck), which the summary's [`OrderSummary::serial`] then summarises too.
    pub fn summarisable(&self) -> bool {
        matches!(self.counts, Counts::Ranked(_) | Counts::Listed(_))
            && self
                .sequence
                .as_ref()
                .is_none_or(|sequence| sequence.summarisable())
    }

    /// The summary of no deals, shaped for this recorder: with a summary of the relative
    /// permutations when it tallies deals in order.
    pub fn empty_summary(&self) -> OrderSummary {
        OrderSummary {
            serial: self
                .sequence
                .is_some()
                .then(|| Box::new(OrderSummary::new(self.n))),
            ..OrderSummary::new(self.n)
        }
    }

    /// [`PermutationRecorder::merge`], keeping `summary` the summary of this recorder's
    /// order counts (see [`OrderSummary`]) in the same pass, and its `serial` summary that
    /// of the relative permutations. Merges plainly and returns `false`, leaving `summary`
    /// alone, when either recorder is not [`summarisable`](PermutationRecorder::summarisable)
    /// or `summary` is not shaped for them ([`PermutationRecorder::empty_summary`]).
    pub fn merge_summarised(&mut self, other: &Self, summary: &mut OrderSummary) -> bool {
        let shaped = summary.n == self.n
            && summary.serial.is_some() == self.sequence.is_some()
            && self.summarisable()
            && other.summarisable()
            && other.sequence.is_some() == self.sequence.is_some();
        let Counts::Ranked(into) = &mut self.counts else {
            self.merge(other);
            return false;
        };
        match &other.counts {
            _ if !shaped => {
                self.merge(other);
                return false;
            }
            Counts::Ranked(from) => summary.add(into, from),
            Counts::Listed(ranks) => summary.add_ranks(into, ranks),
            _ => unreachable!("summarisable recorders count by rank"),
        }
        if let (Some(mine), Some(theirs), Some(serial)) =
            (&mut self.sequence, &other.sequence, summary.serial.as_deref_mut())
        {
            // Both ranked and shaped alike (checked above): the summary is kept.
            let kept = mine.merge_summarised(theirs, serial);
            debug_assert!(kept, "a summarisable sequence merges summarised");
        }
        self.trials += other.trials;
        if self.guessing.is_none() {
            self.guessing.clone_from(&other.guessing);
        }
        true
    }

    /// The tally of what `summary` summarises (this recorder's counts, kept by
    /// [`PermutationRecorder::merge_summarised`]): every table but the order counts (and
    /// the relative permutations' the same way), the repeats, and this recorder's
    /// guessing game. Made without reading the counts.
    pub fn summary_tally(&self, summary: &OrderSummary) -> PermutationTally {
        let (serial, repeats) = match (&self.sequence, &summary.serial) {
            (Some(sequence), Some(serial)) => (
                Some(Box::new(sequence.summary_tally(serial))),
                sequence.repeat_tally(),
            ),
            _ => (None, None),
        };
        PermutationTally {
            n: summary.n,
            trials: summary.trials,
            permutation_counts: None,
            position_counts: Some(summary.positions.clone()),
            fixed_point_counts: Some(summary.fixed_points.clone()),
            cycle_counts: Some(summary.cycles.clone()),
            rising_sequence_counts: Some(summary.rising_sequences.clone()),
            serial,
            repeats,
            guessing: self.guessing.clone(),
        }
    }

    /// The finished tally, with every table that can be derived filled in.
    pub fn finish(self) -> PermutationTally {
        let n = self.n;
        let (serial, repeats) = match self.sequence {
            Some(sequence) => {
                let (serial, repeats) = sequence.finish();
                (Some(Box::new(serial)), repeats)
            }
            None => (None, None),
        };
        let counts = match self.counts {
            Counts::Direct(tables) => {
                let [positions, fixed_points, cycles, rising] = tables.finish();
                return PermutationTally {
                    n,
                    trials: self.trials,
                    permutation_counts: None,
                    position_counts: positions,
                    fixed_point_counts: fixed_points,
                    cycle_counts: cycles,
                    rising_sequence_counts: rising,
                    serial,
                    repeats,
                    guessing: self.guessing,
                };
            }
            Counts::Ranked(counts) => counts,
            Counts::Listed(ranks) => {
                let mut counts = vec![0u64; factorial(n).expect("n <= 10") as usize];
                for order in ranks {
                    counts[order as usize] += 1;
                }
                counts
            }
            Counts::Coded(coded) => ranks_from_codes(n, &coded),
        };
        assert_eq!(
            counts.iter().sum::<u64>(),
            self.trials,
            "every recorded deck must be a permutation of 0..n"
        );
        PermutationTally {
            serial,
            repeats,
            guessing: self.guessing,
            ..PermutationTally::from_order_counts(n, counts)
        }
    }
}

impl PermutationTally {
    /// The tally whose order counts (by Lehmer rank, `n!` of them, `n <= MAX_RANKED_N`)
    /// are `counts`, with every other table derived from them. The counts must add up
    /// within a `u64`.
    pub fn from_order_counts(n: usize, counts: Vec<u64>) -> Self {
        assert_eq!(Some(counts.len() as u64), factorial(n), "one count per order");
        let mut positions = vec![0u64; n * n];
        let mut fixed = vec![0u64; n + 1];
        let mut cycles = vec![0u64; n + 1];
        let mut rising = vec![0u64; n + 1];
        let mut derived = Derived {
            positions: &mut positions,
            fixed: &mut fixed,
            cycles: &mut cycles,
            rising: &mut rising,
        };
        for (&count, &shape) in counts.iter().zip(shapes(n)) {
            if count > 0 {
                derived.add(n, shape, count);
            }
        }
        PermutationTally {
            n,
            trials: counts.iter().sum(),
            permutation_counts: Some(counts),
            position_counts: Some(positions),
            fixed_point_counts: Some(fixed),
            cycle_counts: Some(cycles),
            rising_sequence_counts: Some(rising),
            serial: None,
            repeats: None,
            guessing: None,
        }
    }

    /// Adds another tally of the same deck size, holding the same tables (a shard's, say).
    ///
    /// # Panics
    /// If the two differ in size or in the tables they hold.
    pub fn add(&mut self, other: &Self) {
        assert_eq!(self.n, other.n, "adding tallies of different deck sizes");
        self.trials += other.trials;
        add_optional_counts(&mut self.permutation_counts, &other.permutation_counts);
        add_optional_counts(&mut self.position_counts, &other.position_counts);
        add_optional_counts(&mut self.fixed_point_counts, &other.fixed_point_counts);
        add_optional_counts(&mut self.cycle_counts, &other.cycle_counts);
        add_optional_counts(&mut self.rising_sequence_counts, &other.rising_sequence_counts);
        match (&mut self.serial, &other.serial) {
            (Some(mine), Some(theirs)) => mine.add(theirs),
            (None, None) => {}
            _ => panic!("adding a tally of consecutive deals to one without"),
        }
        match (&mut self.repeats, &other.repeats) {
            (Some(mine), Some(theirs)) => mine.add(theirs),
            (None, None) => {}
            _ => panic!("adding a tally of repeats to one without"),
        }
        // The game is the run's, computed alike by every part: kept once.
        if self.guessing.is_none() {
            self.guessing.clone_from(&other.guessing);
        }
    }
}

/// `Σ card_i · 4^i`: a unique code for each deck of up to four cards.
#[inline]
fn base4_code(deck: &[u16]) -> usize {
    deck.iter()
        .rev()
        .fold(0, |code, &card| code << 2 | usize::from(card))
}

/// Folds counts by base-4 code into counts by Lehmer rank. Codes that are not
/// permutations stay out, and the caller's total check catches them.
fn ranks_from_codes(n: usize, coded: &[u64]) -> Vec<u64> {
    let mut counts = vec![0u64; factorial(n).expect("n <= 4") as usize];
    let mut permutation: Vec<u16> = (0..n as u16).collect();
    for count in &mut counts {
        *count = coded[base4_code(&permutation)];
        next_permutation(&mut permutation);
    }
    counts
}

/// The tally of a finished run. Tables that were not kept are `None`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PermutationTally {
    /// Cards in the deck.
    pub n: usize,
    /// Shuffles tallied.
    pub trials: u64,
    /// Count of each of the `n!` orders, by lexicographic rank (`n <= 10` only).
    pub permutation_counts: Option<Vec<u64>>,
    /// `n × n` counts, row-major: entry `item * n + position` counts how often card `item`
    /// ended at `position`.
    pub position_counts: Option<Vec<u64>>,
    /// Entry `k` counts shuffles that left exactly `k` cards in place (`n + 1` entries).
    pub fixed_point_counts: Option<Vec<u64>>,
    /// Entry `k` counts shuffles whose permutation has exactly `k` cycles (`n + 1` entries).
    pub cycle_counts: Option<Vec<u64>>,
    /// Entry `r` counts shuffles whose deck has exactly `r` rising sequences (`n + 1`
    /// entries; entry 0 stays 0).
    pub rising_sequence_counts: Option<Vec<u64>>,
    /// The tally of the relative permutations of consecutive deals (each deal written in
    /// terms of the one before it, within chunks), when deals were tallied in order.
    pub serial: Option<Box<PermutationTally>>,
    /// Deals identical to an earlier deal of their chunk, when counted.
    pub repeats: Option<RepeatTally>,
    /// The card-guessing game played on the run's first deals, where it was played.
    pub guessing: Option<Box<GuessingTally>>,
}

#[cfg(test)]
mod tests;
