//! Where a deck is shuffled and tallied, top to bottom: [`simulate_permutations`] hands
//! the run to [`Simulation::run`], which picks the loop by the deck's size. Decks of up
//! to ten cards run a loop compiled for their exact size: tallied by random path when
//! the shuffle's draws have a fixed schedule of few paths ([`super::paths`]), deck by
//! deck otherwise ([`tally_fixed_size`]); larger decks run one loop for any size
//! ([`tally_any_size`]). All of them give exactly the same tally for the same seed: they
//! draw the same numbers through the same shuffle code, chunk by chunk
//! ([`Engine::run_chunks`]).
//!
//! Deck by deck, a batch of decks is shuffled into a buffer, then recorded. The two
//! phases are kept apart on purpose. Recording a deck right after shuffling it makes
//! every shuffle one long chain from random draw to store to reload to counter, and the
//! processor can overlap only a few such chains; shuffling 256 decks first and recording
//! them afterwards lets it overlap freely (on 3-card decks this alone nearly doubled the
//! throughput).
//!
//! Each chunk's work is a function of its own, not inlined into the engine's closure, so
//! that its `&mut` arguments carry the no-alias guarantee and the compiler can keep the
//! generator state in registers.

use super::game::{self, ChunkZeroGame};
use super::paths::{self, tally_by_path};
use super::{ChunkProgress, Engine, Progress};
use crate::catalogue::{PermutationAlgorithm, Workspace};
use crate::randomness::SimulationSource;
use crate::tally::{PermutationRecorder, PermutationTally, TallyOptions};

/// Shuffles a deck of `n` cards (`0..n` in order before every shuffle) `trials` times
/// with `algorithm` and tallies the results.
///
/// Small decks (up to ten cards) run a loop compiled for their exact size; among them,
/// algorithms with a fixed draw schedule and few random paths are tallied by path
/// ([`paths`]), the others deck by deck ([`decks`]). Both give exactly the same tally
/// for the same seed: they draw the same numbers through the same algorithm code.
pub fn simulate_permutations(
    engine: &Engine,
    algorithm: PermutationAlgorithm,
    n: usize,
    trials: u64,
    seed: u64,
    options: TallyOptions,
    progress: &dyn Progress,
) -> PermutationTally {
    record_permutations(engine, algorithm, n, trials, seed, options, progress).finish()
}

/// [`simulate_permutations`]' tallies before the tables derived from them are made: a
/// recorder that more steps of the same run can be merged into
/// ([`PermutationRecorder::merge`]) and that is finished once, when the tables are wanted.
/// (Deriving the tables of a 10-card deck walks its 10! orders: the live page would pay
/// that at every step.)
pub fn record_permutations(
    engine: &Engine,
    algorithm: PermutationAlgorithm,
    n: usize,
    trials: u64,
    seed: u64,
    options: TallyOptions,
    progress: &dyn Progress,
) -> PermutationRecorder {
    let algorithm = algorithm.resolve(n);
    // The game plays the run's first deals: a part of the run that starts at chunk 0
    // (every shard, the live page's first step) plays it, the same for all. Where this
    // part deals chunk 0 itself, the worker dealing it plays the game from its deals.
    let game = (engine.first_chunk() == 0)
        .then(|| ChunkZeroGame::new(n, trials, options.serial))
        .flatten();
    let mut recorder = Simulation {
        engine,
        algorithm,
        trials,
        seed,
        options,
        progress,
        game: game.as_ref(),
    }
    .run(n);
    if engine.first_chunk() == 0 {
        let guessing = match game.and_then(ChunkZeroGame::into_played) {
            Some(played) => played,
            None if progress.cancelled() => None,
            None => game::play_game_until(engine, algorithm, n, trials, seed, options.serial, progress),
        };
        recorder.set_guessing(guessing);
    }
    recorder
}

/// Shuffles per batch. A constant, so that the draws a chunk makes never depend on it.
const BATCH_DECKS: usize = 256;
/// For large decks the batch is capped in cards, so the buffer stays in the L1/L2 cache.
const BATCH_CARDS: usize = 16_384;

/// One simulation's parameters, shared by the loop shapes.
pub(super) struct Simulation<'a> {
    pub(super) engine: &'a Engine,
    pub(super) algorithm: PermutationAlgorithm,
    pub(super) trials: u64,
    pub(super) seed: u64,
    pub(super) options: TallyOptions,
    pub(super) progress: &'a dyn Progress,
    /// The guessing game, played by the worker that deals chunk 0 from its deals (decks
    /// of more than ten cards; the caller deals them again otherwise).
    pub(super) game: Option<&'a ChunkZeroGame>,
}

impl Simulation<'_> {
    pub(super) fn run(&self, n: usize) -> PermutationRecorder {
        assert!(n <= usize::from(u16::MAX), "decks are limited to 65,535 cards");
        match n {
            0 => self.small::<0>(),
            1 => self.small::<1>(),
            2 => self.small::<2>(),
            3 => self.small::<3>(),
            4 => self.small::<4>(),
            5 => self.small::<5>(),
            6 => self.small::<6>(),
            7 => self.small::<7>(),
            8 => self.small::<8>(),
            9 => self.small::<9>(),
            10 => self.small::<10>(),
            _ => merged(self.any_size(n), self.progress),
        }
    }

    fn small<const N: usize>(&self) -> PermutationRecorder {
        // A path describes one shuffle of a fresh deck, in no order: a dealer's deal also
        // depends on the deals before it, and consecutive deals tallied in order need
        // every deal in turn, so neither is tallied by path.
        let by_path = !self.algorithm.carries_deck_between_deals() && !self.options.serial;
        match self.algorithm.draw_schedule(N).filter(|_| by_path) {
            Some(schedule) if paths::path_count(&schedule) <= paths::MAX_PATHS => tally_by_path::<N>(
                self.engine,
                self.algorithm,
                self.trials,
                self.seed,
                self.options,
                self.progress,
                &schedule,
            ),
            _ => merged(self.fixed_size::<N>(), self.progress),
        }
    }

    /// The loop for decks of exactly `N` cards. With the size known at compile time the
    /// deck is a small array, the shuffle and the ranking unroll, and resetting a deck is
    /// a register copy instead of a `memcpy`.
    pub(super) fn fixed_size<const N: usize>(&self) -> Vec<PermutationRecorder> {
        let start: [u16; N] = std::array::from_fn(|i| i as u16);
        let algorithm = self.algorithm;
        self.per_worker(
            N,
            || vec![start; BATCH_DECKS],
            |recorder, workspace, decks, source, count, progress| {
                tally_fixed_size(
                    algorithm, start, count, source, recorder, workspace, decks, progress,
                );
            },
        )
    }

    /// The loop for decks of any size, batched the same way.
    pub(super) fn any_size(&self, n: usize) -> Vec<PermutationRecorder> {
        let start: Vec<u16> = (0..n as u16).collect();
        let decks_per_batch = (BATCH_CARDS / n.max(1)).clamp(1, BATCH_DECKS);
        // A whole batch of fresh decks, copied over the batch in one go: a copy per deck
        // was a call to `memcpy` per deck, 3% of a 20-card run.
        let fresh = start.repeat(decks_per_batch);
        let algorithm = self.algorithm;
        self.per_worker(
            n,
            || fresh.clone(),
            |recorder, workspace, cards, source, count, progress| {
                let game = self.game.filter(|_| progress.chunk() == 0);
                let mut kept = Vec::new();
                let keep = game.map(|game| (&mut kept, game.cards()));
                tally_any_size(
                    algorithm, &fresh, n, count, source, recorder, workspace, cards, progress, keep,
                );
                // A cancelled chunk may have stopped before the game's deals were kept.
                if let Some(game) = game.filter(|_| !progress.cancelled()) {
                    game.play(&kept);
                }
            },
        )
    }

    /// Runs the chunks, each worker with its own recorder, workspace and deck buffer (made
    /// by `buffer`), and returns the workers' recorders.
    fn per_worker<B: Send>(
        &self,
        n: usize,
        buffer: impl Fn() -> B + Sync,
        work: impl Fn(
            &mut PermutationRecorder,
            &mut Workspace<u16>,
            &mut B,
            &mut SimulationSource,
            u64,
            &ChunkProgress,
        ) + Sync,
    ) -> Vec<PermutationRecorder> {
        self.engine
            .run_chunks(
                self.trials,
                self.seed,
                self.progress,
                || {
                    (
                        PermutationRecorder::new(n, self.options),
                        Workspace::default(),
                        buffer(),
                    )
                },
                |(recorder, workspace, buffer), source, count, progress| {
                    // Consecutive deals are paired, and repeats counted, within a chunk.
                    recorder.start_chunk();
                    work(recorder, workspace, buffer, source, count, progress);
                    recorder.end_chunk();
                },
            )
            .into_iter()
            .map(|(recorder, _, _)| recorder)
            .collect()
    }
}

/// Adds up the workers' recorders; of a cancelled run, returns the first as it is (the
/// caller throws it away: adding 2,000-card tables takes tens of milliseconds).
pub(super) fn merged(recorders: Vec<PermutationRecorder>, progress: &dyn Progress) -> PermutationRecorder {
    let mut recorders = recorders.into_iter();
    let mut total = recorders.next().expect("an engine has at least one worker");
    if progress.cancelled() {
        return total;
    }
    for recorder in recorders {
        total.merge(&recorder);
    }
    total
}

/// One chunk of `count` shuffles of `N`-card decks, in batches of `decks.len()`; a
/// cancelled run ([`ChunkProgress::cancelled`]) ends it at the next batch, or inside a
/// deal that takes seconds.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn tally_fixed_size<const N: usize>(
    algorithm: PermutationAlgorithm,
    start: [u16; N],
    count: u64,
    source: &mut SimulationSource,
    recorder: &mut PermutationRecorder,
    workspace: &mut Workspace<u16>,
    decks: &mut [[u16; N]],
    progress: &ChunkProgress,
) {
    // A dealer who carries the deck starts each chunk from the fresh deck (see
    // `Workspace::start_dealing`): the chunk's deals then depend on (seed, chunk) alone.
    workspace.start_dealing();
    for batch in batches(count, decks.len()) {
        let decks = &mut decks[..batch];
        decks.fill(start);
        crate::with_source!(&mut *source, |source| algorithm.shuffle_each_until(
            decks.iter_mut(),
            source,
            workspace,
            || progress.cancelled()
        ));
        recorder.record_batch(decks);
        if progress.cancelled() {
            return;
        }
    }
}

/// One chunk of `count` shuffles of `n`-card decks, in batches that fill `cards`, each
/// deck fresh from `fresh` (as many fresh decks as `cards` holds, laid end to end),
/// reporting each batch: with large decks or slow algorithms a chunk can take minutes (a
/// cancelled run ends it at the next batch, or inside a deal that takes seconds).
/// With `keep`, the chunk's first cards, as many as asked, are kept (for the game).
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn tally_any_size(
    algorithm: PermutationAlgorithm,
    fresh: &[u16],
    n: usize,
    count: u64,
    source: &mut SimulationSource,
    recorder: &mut PermutationRecorder,
    workspace: &mut Workspace<u16>,
    cards: &mut [u16],
    progress: &ChunkProgress,
    mut keep: Option<(&mut Vec<u16>, usize)>,
) {
    workspace.start_dealing();
    for batch in batches(count, cards.len() / n) {
        let cards = &mut cards[..batch * n];
        cards.copy_from_slice(&fresh[..batch * n]);
        crate::with_source!(&mut *source, |source| {
            // A copy of the generator on this function's stack, whose address no one else
            // knows: its state can then live in registers through the whole batch. Drawing
            // through `source` itself sent the state to memory and back at every draw (a
            // bounds check's panic, a call, might read it), one store-to-load round trip
            // of latency per draw. The copy draws exactly what `source` would have.
            // (Compiled for every kind of source: the flawed ones are `Copy`, Xoshiro is not.)
            #[allow(clippy::clone_on_copy)]
            let mut local = source.clone();
            algorithm.shuffle_each_until(cards.chunks_exact_mut(n), &mut local, workspace, || {
                progress.cancelled()
            });
            *source = local;
        });
        // The guessing game's deals, the first of chunk 0, kept as they are dealt.
        if let Some((kept, wanted)) = &mut keep {
            let more = *wanted - kept.len();
            kept.extend_from_slice(&cards[..more.min(cards.len())]);
        }
        recorder.record_decks(cards);
        progress.done(batch as u64);
        if progress.cancelled() {
            return;
        }
    }
}

/// Splits `count` trials into batches of at most `size`.
fn batches(count: u64, size: usize) -> impl Iterator<Item = usize> {
    let count = usize::try_from(count).expect("a chunk fits in memory");
    (0..count).step_by(size).map(move |done| size.min(count - done))
}

#[cfg(test)]
mod tests {
    use super::super::NoProgress;
    use super::*;
    use crate::catalogue::{AlgorithmSpec, SHUFFLES};
    use crate::simulate::CHUNK_TRIALS;

    /// The plain tally the engine's loops must match: each chunk's decks shuffled one at
    /// a time and recorded one at a time, with nothing batched.
    fn plain_tally(
        engine: &Engine,
        algorithm: PermutationAlgorithm,
        n: usize,
        trials: u64,
        seed: u64,
        options: TallyOptions,
    ) -> PermutationTally {
        let recorders = engine.run_chunks(
            trials,
            seed,
            &NoProgress,
            || (PermutationRecorder::new(n, options), Workspace::default()),
            |(recorder, workspace), source, count, _| {
                recorder.start_chunk();
                workspace.start_dealing();
                for _ in 0..count {
                    let mut deck: Vec<u16> = (0..n as u16).collect();
                    crate::with_source!(&mut *source, |source| algorithm
                        .shuffle(&mut deck, source, workspace));
                    recorder.record(&deck);
                }
                recorder.end_chunk();
            },
        );
        merged(
            recorders.into_iter().map(|(recorder, _)| recorder).collect(),
            &NoProgress,
        )
        .finish()
    }

    /// The loop for large decks (decks shuffled a batch at a time, tallies a table at a
    /// time over a batch, positions in 16-bit cells, cycles walked side by side) gives,
    /// bit for bit, the tally of shuffling and recording each deck plainly, for every catalogue shuffle, at sizes on both sides
    /// of the 64-card word the cycle walk uses, with and without the tallies of
    /// consecutive deals, over two chunks of which the last is partial.
    #[test]
    fn batched_tallies_equal_deck_by_deck_tallies_for_every_shuffle() {
        let engine = Engine::new(2).unwrap();
        for entry in SHUFFLES {
            let algorithm = AlgorithmSpec::parse(entry.name)
                .unwrap()
                .algorithm
                .as_permutation()
                .expect("SHUFFLES lists shuffles");
            for (n, trials) in [
                (11, CHUNK_TRIALS + 77),
                (52, CHUNK_TRIALS + 77),
                (64, 3_000),
                (65, 3_000),
                (200, 1_000),
                (2_000, 40),
            ] {
                let serial = algorithm.carries_deck_between_deals();
                for options in [
                    TallyOptions::default(),
                    TallyOptions {
                        serial,
                        repeats: serial,
                        ..TallyOptions::default()
                    },
                    TallyOptions {
                        positions: false,
                        rising_sequences: false,
                        ..TallyOptions::default()
                    },
                ] {
                    let simulation = Simulation {
                        engine: &engine,
                        algorithm: algorithm.resolve(n),
                        trials,
                        seed: 23,
                        options,
                        progress: &NoProgress,
                        game: None,
                    };
                    let batched = merged(simulation.any_size(n), &NoProgress).finish();
                    assert_eq!(batched.trials, trials);
                    assert_eq!(
                        batched,
                        plain_tally(&engine, algorithm.resolve(n), n, trials, 23, options),
                        "{} on {n} cards, {options:?}",
                        entry.name
                    );
                }
            }
        }
    }
}
