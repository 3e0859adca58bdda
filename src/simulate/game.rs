//! The deals the card-guessing game looks at, dealt again.
//!
//! The game ([`crate::tally::guessing`]) studies a run's first deals and plays the next
//! ones, in dealing order. Those deals are all in the run's first chunk, whose draws are
//! fixed by the seed alone, so any part of a run (a thread, a shard on another machine, a
//! step of the live page, `merge` adding the shards) deals them again itself, with the
//! loop the engine uses for every deck, and plays exactly the same game. The tallies' hot
//! loops are left as they were: the game costs one chunk dealt again, whatever the
//! number of trials.

use super::{CHUNK_TRIALS, Engine};
use crate::catalogue::{PermutationAlgorithm, Workspace};
use crate::randomness::SimulationSource;
use crate::tally::guessing::{GameSplit, GuessingTally, play_guessing_game};

/// The first `count` deals of a run of `algorithm` (already resolved for `n` cards) with
/// `seed`, drawing from the engine's source, laid end to end: the first deals of chunk 0,
/// dealt as the engine deals them deck by deck.
pub fn first_deals(
    engine: &Engine,
    algorithm: PermutationAlgorithm,
    n: usize,
    count: u64,
    seed: u64,
) -> Vec<u16> {
    assert!(count <= CHUNK_TRIALS, "the game's deals are in the first chunk");
    let count = count as usize;
    let start: Vec<u16> = (0..n as u16).collect();
    let mut cards = start.repeat(count);
    let mut source = SimulationSource::for_unit(engine.source(), seed, 0, 0);
    let mut workspace = Workspace::default();
    workspace.start_dealing();
    crate::with_source!(&mut source, |source| algorithm.shuffle_each(
        cards.chunks_exact_mut(n.max(1)),
        source,
        &mut workspace
    ));
    cards
}

/// The guessing game on the first deals of a run of `trials` deals of `algorithm`
/// (resolved for `n` cards); with `in_order`, the strategies of a dealer who carries the
/// deck join. `None` when the run is too short to study and play.
pub fn play_catalogue_game(
    engine: &Engine,
    algorithm: PermutationAlgorithm,
    n: usize,
    trials: u64,
    seed: u64,
    in_order: bool,
) -> Option<GuessingTally> {
    let split = GameSplit::of(trials);
    if n < 2 || split.training == 0 || split.played == 0 {
        return None;
    }
    let decks = first_deals(engine, algorithm, n, split.deals(), seed);
    play_guessing_game(n, &decks, trials, in_order)
}
