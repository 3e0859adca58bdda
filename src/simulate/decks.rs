//! Tallying deck by deck: shuffle a batch of decks into a buffer, then record the batch.
//!
//! The two phases are kept apart on purpose. Recording a deck right after shuffling it
//! makes every shuffle one long chain from random draw to store to reload to counter,
//! and the processor can overlap only a few such chains; shuffling 256 decks first and
//! recording them afterwards lets it overlap freely (on 3-card decks this alone nearly
//! doubled the throughput).
//!
//! Each chunk's work is a function of its own, not inlined into the engine's closure, so
//! that its `&mut` arguments carry the no-alias guarantee and the compiler can keep the
//! generator state in registers.

use super::{ChunkProgress, Simulation};
use crate::catalogue::{PermutationAlgorithm, Workspace};
use crate::randomness::SimulationSource;
use crate::tally::PermutationRecorder;

/// Shuffles per batch. A constant, so that the draws a chunk makes never depend on it.
const BATCH_DECKS: usize = 256;
/// For large decks the batch is capped in cards, so the buffer stays in the L1/L2 cache.
const BATCH_CARDS: usize = 16_384;

impl Simulation<'_> {
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
        let (algorithm, batched) = (self.algorithm, self.batched);
        self.per_worker(
            n,
            || fresh.clone(),
            |recorder, workspace, cards, source, count, progress| {
                let game = self.game.filter(|_| progress.chunk() == 0);
                let mut kept = Vec::new();
                let keep = game.map(|game| (&mut kept, game.cards()));
                tally_any_size(
                    algorithm, &fresh, n, count, source, recorder, workspace, cards, progress, batched, keep,
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
    batched: bool,
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
        if batched {
            recorder.record_decks(cards);
        } else {
            for deck in cards.chunks_exact(n) {
                recorder.record(deck);
            }
        }
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
    use super::super::{Engine, NoProgress};
    use super::*;
    use crate::catalogue::{AlgorithmSpec, SHUFFLES};
    use crate::simulate::CHUNK_TRIALS;
    use crate::tally::TallyOptions;

    /// The fast path for large decks (tallies a table at a time over a batch, positions
    /// in 16-bit cells, cycles walked side by side) gives, bit for bit, the tally of
    /// recording each deck plainly, for every catalogue shuffle, at sizes on both sides
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
                    let simulation = |batched| {
                        let simulation = Simulation {
                            engine: &engine,
                            algorithm: algorithm.resolve(n),
                            trials,
                            seed: 23,
                            options,
                            progress: &NoProgress,
                            by_path: false,
                            batched,
                            game: None,
                        };
                        super::super::merged(simulation.any_size(n), &NoProgress).finish()
                    };
                    let batched = simulation(true);
                    assert_eq!(batched.trials, trials);
                    assert_eq!(
                        batched,
                        simulation(false),
                        "{} on {n} cards, {options:?}",
                        entry.name
                    );
                }
            }
        }
    }
}
