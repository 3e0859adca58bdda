//! The deals the card-guessing game looks at, dealt again.
//!
//! The game ([`crate::tally::guessing`]) studies a run's first deals and plays the next
//! ones, in dealing order. Those deals are all in the run's first chunk, whose draws are
//! fixed by the seed alone, so any part of a run (a thread, a shard on another machine, a
//! step of the live page, `merge` adding the shards) deals them again itself, with the
//! loop the engine uses for every deck, and plays exactly the same game.
//!
//! A part of the run that deals chunk 0 itself does not deal it twice: on decks of more
//! than ten cards ([`ChunkZeroGame`]) the worker that deals chunk 0 keeps the game's deals
//! as it makes them and plays the game when the chunk ends, while the other workers go on
//! with their chunks (issue 15: dealing the chunk again, on one thread after the run,
//! took a 52-card `naive-repeated` run of 20,000 deals from 0.9 to 0.5 of the plain
//! loop's speed). They are the same deals (the same stream, the same loop, the same
//! dealer's workspace), so the game is the same; a test compares the two.

use std::sync::OnceLock;

use super::{CHUNK_TRIALS, Engine, NoProgress, Progress};
use crate::catalogue::{PermutationAlgorithm, Workspace};
use crate::randomness::SimulationSource;
use crate::tally::guessing::{GameSplit, GuessingTally, play_guessing_game};

/// The game played from chunk 0's own deals by the worker that deals them.
pub(super) struct ChunkZeroGame {
    n: usize,
    trials: u64,
    in_order: bool,
    /// Cards of the deals the game looks at: the first of chunk 0.
    cards: usize,
    /// What the game gave, once played.
    played: OnceLock<Option<GuessingTally>>,
}

impl ChunkZeroGame {
    /// The game of a run of `trials` deals of `n` cards (`in_order` as for
    /// [`play_catalogue_game`]), or `None` when the run is too short to play it.
    pub(super) fn new(n: usize, trials: u64, in_order: bool) -> Option<Self> {
        let split = GameSplit::of(trials);
        (n >= 2 && split.training > 0 && split.played > 0).then(|| Self {
            n,
            trials,
            in_order,
            cards: split.deals() as usize * n,
            played: OnceLock::new(),
        })
    }

    /// How many of chunk 0's first cards the game needs.
    pub(super) fn cards(&self) -> usize {
        self.cards
    }

    /// Plays the game on chunk 0's first deals (at least [`ChunkZeroGame::cards`] cards).
    pub(super) fn play(&self, cards: &[u16]) {
        let tally = play_guessing_game(self.n, &cards[..self.cards], self.trials, self.in_order);
        // Only the worker that deals chunk 0 plays, once.
        let _ = self.played.set(tally);
    }

    /// What the game gave, if the run dealt chunk 0 and played it.
    pub(super) fn into_played(self) -> Option<Option<GuessingTally>> {
        self.played.into_inner()
    }
}

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
    first_deals_until(engine, algorithm, n, count, seed, &NoProgress)
}

/// [`first_deals`], its long deals given up part way once `progress` is cancelled (the
/// deals are then the caller's to throw away).
fn first_deals_until(
    engine: &Engine,
    algorithm: PermutationAlgorithm,
    n: usize,
    count: u64,
    seed: u64,
    progress: &dyn Progress,
) -> Vec<u16> {
    assert!(count <= CHUNK_TRIALS, "the game's deals are in the first chunk");
    let count = count as usize;
    let start: Vec<u16> = (0..n as u16).collect();
    let mut cards = start.repeat(count);
    let mut source = SimulationSource::for_unit(engine.source(), seed, 0, 0);
    let mut workspace = Workspace::default();
    workspace.start_dealing();
    crate::with_source!(&mut source, |source| algorithm.shuffle_each_until(
        cards.chunks_exact_mut(n.max(1)),
        source,
        &mut workspace,
        || progress.cancelled()
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
    play_game_until(engine, algorithm, n, trials, seed, in_order, &NoProgress)
}

/// [`play_catalogue_game`], given up (`None`) once `progress` is cancelled: 16,384 deals
/// of `naive-repeated:100000` take minutes.
pub(super) fn play_game_until(
    engine: &Engine,
    algorithm: PermutationAlgorithm,
    n: usize,
    trials: u64,
    seed: u64,
    in_order: bool,
    progress: &dyn Progress,
) -> Option<GuessingTally> {
    let split = GameSplit::of(trials);
    if n < 2 || split.training == 0 || split.played == 0 {
        return None;
    }
    let decks = first_deals_until(engine, algorithm, n, split.deals(), seed, progress);
    if progress.cancelled() {
        return None;
    }
    play_guessing_game(n, &decks, trials, in_order)
}
