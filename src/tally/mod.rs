//! Tallies: what came out of many shuffles, as plain counts that add across threads,
//! chunks and machines.
//!
//! `lehmer` numbers the orders of a deck, `structure` reads a permutation's fixed points
//! and cycles, and `permutation` is the accumulator the simulator writes into. `stream`
//! tallies endless item streams (frequencies, runs, gaps, positions in a bag's cycle).

pub mod lehmer;
mod permutation;
pub mod stream;
pub mod structure;

pub use permutation::{PermutationRecorder, PermutationTally, TallyOptions};
