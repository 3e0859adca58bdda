//! Tallies: what came out of many shuffles or samples, as plain counts that add across
//! threads, chunks and machines.
//!
//! `lehmer` numbers the orders of a deck (and ordered selections), `structure` reads a
//! permutation's fixed points and cycles, and `permutation` is the accumulator the
//! simulator writes shuffled decks into. For samplers, `combinadic` numbers the subsets
//! and `subsets` is the accumulator. `stream` tallies endless item streams (frequencies,
//! runs, gaps, positions in a bag's cycle).

pub mod combinadic;
pub mod lehmer;
mod permutation;
pub mod stream;
pub mod structure;
pub mod subsets;

pub use permutation::{PermutationRecorder, PermutationTally, TallyOptions};
pub use subsets::{SelectionRecorder, SelectionTally};
