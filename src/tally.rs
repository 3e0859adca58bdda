//! Tallies: what came out of many shuffles or samples, as plain counts that add across
//! threads, chunks and machines.
//!
//! `lehmer` numbers the orders of a deck (and ordered selections), `structure` reads a
//! permutation's fixed points and cycles, and `permutation` is the accumulator the
//! simulator writes shuffled decks into. For samplers, `combinadic` numbers the subsets
//! and `subsets` is the accumulator. `stream` tallies endless item streams (frequencies,
//! runs, gaps, positions in a bag's cycle).
//!
//! What one deal alone cannot show: `rising` counts a deal's rising sequences (what
//! riffles leave behind), `relative` writes a deal in terms of the one before (what a
//! dealer who carries the deck does to it), and `repeats` counts deals identical to an
//! earlier one in bounded memory (how many different decks a program can deal).

pub mod combinadic;
mod cycles_wide;
mod direct;
pub mod guessing;
pub mod item_game;
pub mod lehmer;
pub mod order_summary;
mod permutation;
pub mod relative;
pub mod repeats;
pub mod rising;
pub mod shapes;
pub mod stream;
pub mod structure;
pub mod subsets;

/// The largest deck any command takes: the position matrix is `n²` counters per
/// thread. Here, under every module that checks a deck's size, rather than in
/// [`crate::run`], so that `exact` and `seeds` need not reach up for it.
pub const MAX_N: usize = 2_000;

pub use order_summary::OrderSummary;
pub use permutation::{PermutationRecorder, PermutationTally, TallyOptions};
pub use permutation::{RepeatTally, SequenceRecorder};
pub use subsets::{SelectionRecorder, SelectionTally};
