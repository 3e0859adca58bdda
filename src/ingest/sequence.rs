//! The samples of `ingest` in order: consecutive lines paired, and decks dealt twice.
//!
//! The order of the lines is the order of the deals. Blocks of lines are parsed on any
//! thread, so each block pairs its own consecutive deals (its worker's recorder treats
//! the block as a chunk) and reports its first and last deal; [`InputSequence`] then sees
//! the blocks in input order and pairs each block's first deal with the last deal before
//! it. Every one of the `N − 1` pairs is counted once, whatever the thread count.
//!
//! Repeats are counted over the whole input (not per block): each block numbers its
//! deals from 0 in a [`RepeatCounter`], and the blocks are shifted to their place in the
//! input as they are taken. Decks of more than 20 cards are keyed by a hash; when two
//! hashes meet, their decks are read again from the input ([`Reread`]: the file itself,
//! or the copy of standard input kept while it was read) and compared card by card.

use std::io::{Seek, SeekFrom};

use super::deck::Deck;
use super::lines::BlockReader;
use super::samples::parse_block;
use crate::error::{Error, Result};
use crate::tally::guessing::GAME_DEALS;
use crate::tally::relative::RelativePermutation;
use crate::tally::repeats::{DealLookup, RepeatCount, RepeatCounter};
use crate::tally::{PermutationRecorder, PermutationTally, TallyOptions};

/// What one block of lines dealt, for the sequence across blocks.
#[derive(Debug, Default)]
pub(super) struct BlockDeals {
    /// Its first and last deal.
    pub first: Option<Vec<u16>>,
    pub last: Option<Vec<u16>>,
    /// Deals in it.
    pub samples: u64,
    /// Its deals' keys, numbered from 0, when repeats are counted.
    pub repeats: Option<RepeatCounter>,
    /// Its first deals laid end to end, at most `game_cards` cards, for the guessing game
    /// (the input's first deals: see [`InputSequence::take_game`]).
    pub game: Vec<u16>,
    game_cards: usize,
}

impl BlockDeals {
    /// A block's deals, counting repeats of `n`-card decks when `repeats`.
    pub fn new(n: usize, repeats: bool) -> Self {
        Self {
            repeats: repeats.then(|| RepeatCounter::new(n)),
            ..Self::default()
        }
    }

    /// The same, keeping its first deals of `n` cards for the guessing game.
    pub fn keeping_game_deals(self, n: usize) -> Self {
        Self {
            game_cards: n * GAME_DEALS as usize,
            ..self
        }
    }

    /// The block's next deal.
    pub fn record(&mut self, deck: &[u16]) {
        if self.first.is_none() {
            self.first = Some(deck.to_vec());
        }
        if let Some(repeats) = &mut self.repeats {
            repeats.record(self.samples, deck);
        }
        if self.game.len() < self.game_cards {
            self.game.extend_from_slice(deck);
        }
        self.samples += 1;
    }

    /// Done with the block: its last deal is kept.
    pub fn finish(&mut self, last: Option<&[u16]>) {
        self.last = last.map(<[u16]>::to_vec);
    }
}

/// The sequence of the whole input, built from its blocks in input order.
pub(super) struct InputSequence {
    /// The pairs of whole decks across block boundaries.
    boundary: PermutationRecorder,
    /// For selections: the overlaps of the pairs across block boundaries (`k + 1` counts).
    boundary_overlaps: Option<Vec<u64>>,
    previous: Option<Vec<u16>>,
    relative: Vec<u16>,
    calculator: RelativePermutation,
    repeats: Option<RepeatCounter>,
    samples: u64,
    /// The input's first deals laid end to end (up to [`GAME_DEALS`]), for the game.
    game: Vec<u16>,
}

impl InputSequence {
    /// For `n`-card decks, tallied with `options` (the tables of the serial tally);
    /// counting repeats when `repeats`, with room for about `expected_samples` deals.
    /// For selections of `k` items, `selections` is `Some(k)`: their pairs across blocks
    /// are counted by the items they share.
    pub fn new(
        n: usize,
        options: TallyOptions,
        repeats: bool,
        expected_samples: u64,
        selections: Option<usize>,
    ) -> Self {
        let tables = TallyOptions {
            serial: false,
            repeats: false,
            ..options
        };
        Self {
            boundary: PermutationRecorder::new(if selections.is_some() { 0 } else { n }, tables),
            boundary_overlaps: selections.map(|k| vec![0; k + 1]),
            previous: None,
            relative: vec![0; n],
            calculator: RelativePermutation::new(),
            repeats: repeats.then(|| {
                let mut counter = RepeatCounter::new(n);
                counter.reserve(usize::try_from(expected_samples).unwrap_or(0));
                counter
            }),
            samples: 0,
            game: Vec::new(),
        }
    }

    /// The input's first deals (up to [`GAME_DEALS`] of them), laid end to end: the
    /// blocks' first deals in input order. A block keeps its first `GAME_DEALS` deals, so
    /// the blocks before the one that fills the buffer gave all of theirs.
    pub fn take_game(&mut self) -> Vec<u16> {
        std::mem::take(&mut self.game)
    }

    /// The input's first deals seen so far, laid end to end (what [`Self::take_game`]
    /// will return, once every block is in).
    pub fn game_so_far(&self) -> &[u16] {
        &self.game
    }

    /// The next block, in input order.
    pub fn take(&mut self, block: BlockDeals) {
        if let (Some(previous), Some(first)) = (&self.previous, &block.first) {
            match &mut self.boundary_overlaps {
                Some(overlaps) => {
                    let shared = first.iter().filter(|item| previous.contains(item)).count();
                    overlaps[shared] += 1;
                }
                None => {
                    self.calculator.compute(previous, first, &mut self.relative);
                    self.boundary.record(&self.relative);
                }
            }
        }
        if block.last.is_some() {
            self.previous = block.last;
        }
        if let (Some(all), Some(block_repeats)) = (&mut self.repeats, block.repeats) {
            all.merge_shifted(block_repeats, self.samples);
        }
        self.samples += block.samples;
        let room = (block.game_cards).saturating_sub(self.game.len());
        self.game
            .extend_from_slice(&block.game[..room.min(block.game.len())]);
    }

    /// The pairs across block boundaries (to add to the blocks' own pairs), and the
    /// repeats of the whole input, their hashed decks read again through `lookup`.
    pub fn finish(self, lookup: &mut dyn DealLookup) -> Result<(PermutationTally, Option<RepeatCount>)> {
        let repeats = self.repeats.map(|counter| counter.finish(lookup)).transpose()?;
        Ok((self.boundary.finish(), repeats))
    }

    /// For selections: the overlaps of the pairs across block boundaries.
    pub fn boundary_overlaps(&self) -> Option<&[u64]> {
        self.boundary_overlaps.as_deref()
    }
}

/// Reads deals of the input again by their number among the samples, for the exact
/// comparison of decks that share a hash: the whole input is parsed again from its start,
/// line by line as the first time.
pub(super) struct Reread<'a> {
    pub file: Option<std::fs::File>,
    pub deck: &'a Deck,
    pub k: usize,
    pub skip_invalid: bool,
    pub source_name: &'a str,
}

impl DealLookup for Reread<'_> {
    fn visit_deals(&mut self, deals: &[u64], visit: &mut dyn FnMut(u64, &[u16])) -> Result<()> {
        let read_error =
            |error: std::io::Error| Error::Input(format!("cannot read {} again: {error}", self.source_name));
        let Some(file) = &mut self.file else {
            return Err(Error::Input(format!(
                "{} cannot be read again to compare two decks that share a hash",
                self.source_name
            )));
        };
        file.seek(SeekFrom::Start(0)).map_err(read_error)?;
        let mut reader = BlockReader::new(&mut *file);
        let mut next = 0usize;
        let mut sample = 0u64;
        while next < deals.len() {
            let Some(block) = reader.next_block().map_err(read_error)? else {
                break;
            };
            parse_block(&block.bytes, self.deck, self.k, self.skip_invalid, |cards| {
                if next < deals.len() && deals[next] == sample {
                    visit(sample, cards);
                    next += 1;
                }
                sample += 1;
            });
        }
        if next < deals.len() {
            return Err(Error::Input(format!(
                "{} changed while it was read: deal {} is not there the second time",
                self.source_name, deals[next]
            )));
        }
        Ok(())
    }
}
