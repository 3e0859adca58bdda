//! The deterministic parallel engine: many trials on all cores, with results that do not
//! depend on how many cores there were.
//!
//! A run of `T` trials is cut into chunks of [`CHUNK_TRIALS`]; chunk `k` draws from the
//! stream [`SimulationSource::for_chunk`]`(seed, k)` and nothing else. Each worker thread
//! takes the next chunk number from a shared counter and tallies into its own
//! accumulator; at the end the accumulators are added. Because every chunk's draws are
//! fixed by `(seed, k)` and tallies are sums of counts, the result is the same for
//! `--threads 1`, `2` or `8`, and whatever order the chunks finish in.
//!
//! The chunk size is part of what a seed means: changing it changes every result, so it
//! is a constant, not a tuning knob.
//!
//! A run may also be cut into shards ([`Shard`]) that run on different machines: an
//! engine made [`Engine::for_shard`] runs only its shard's share of the chunks, each
//! seeded exactly as in the whole run, so the shards' tallies add up to the whole run's.
//! Under a job scheduler the shard can be read from the task's environment
//! ([`scheduler`], `--shard auto`).

use std::sync::atomic::{AtomicU64, Ordering};

mod audit_rng;
mod game;
mod item_game;
mod paths;
mod permutations;
pub mod scheduler;
mod selections;
mod shard;
mod user;

pub use audit_rng::AuditRng;
pub use game::{first_deals, play_catalogue_game};
pub use item_game::{play_sampler_game, play_stream_game, sampler_game, stream_split, stream_window};
pub use permutations::{record_permutations, simulate_permutations};
pub use scheduler::ShardRequest;
pub use selections::simulate_selections;
pub use shard::Shard;
pub use user::{BrokenShuffle, simulate_user_shuffle};

use crate::error::{Error, Result};
use crate::randomness::{SimulationSource, SourceKind};

/// Trials per chunk. Small enough that two threads share even a short run and that a
/// progress bar moves smoothly; large enough that seeding a stream (a few nanoseconds)
/// is lost in the work of the chunk.
pub const CHUNK_TRIALS: u64 = 16_384;

/// Whether repeated decks among one chunk's deals can be tested on `n`-card decks: a
/// fair shuffle of fewer cards repeats decks by chance too often for the Poisson law
/// (the permutation test covers those decks; see [`crate::stats::repeats`]). Beside
/// [`CHUNK_TRIALS`], since repeats are counted within a chunk.
pub(crate) fn repeats_can_show(n: usize) -> bool {
    use crate::stats::repeats::{MAX_APPROXIMATION_ERROR, ln_deck_count, poisson_approximation_error};
    poisson_approximation_error(CHUNK_TRIALS, ln_deck_count(n)) <= MAX_APPROXIMATION_ERROR
}

/// Told how many trials have finished, from any worker thread; and asked whether the work
/// is still wanted.
///
/// Cancelling: when [`Progress::cancelled`] says so, the engine hands out no more chunks,
/// each worker ends its chunk at the next batch of deals, a deal that takes seconds by
/// itself (`naive-repeated:K`, `overhand:K`) ends part way, and the call returns early.
/// What it returns then is partial (a tally of some deals, a deck left part shuffled):
/// the caller, who cancelled, throws it away. The checks sit where progress is already
/// counted (a batch, a block of a stream), never in a loop over cards, so that a run
/// nobody cancels costs and draws exactly what it did without them.
pub trait Progress: Sync {
    /// `trials` more trials are done.
    fn advance(&self, trials: u64);

    /// Whether whoever asked for the work no longer wants it (the live page's Stop). Once
    /// it says so it must keep saying so: the engine reads it again to know that what it
    /// was making is partial.
    fn cancelled(&self) -> bool {
        false
    }
}

/// Progress that goes nowhere (tests, library callers that do not care).
#[derive(Clone, Copy, Debug, Default)]
pub struct NoProgress;

impl Progress for NoProgress {
    fn advance(&self, _trials: u64) {}
}

/// Lets a chunk report trials it has finished before it ends, for decks so large or
/// algorithms so slow that a chunk takes seconds. The engine adds whatever a chunk did
/// not report when it ends, so reporting is optional and never counts a trial twice.
pub struct ChunkProgress<'a> {
    progress: &'a dyn Progress,
    reported: std::cell::Cell<u64>,
    /// The chunk's number in the whole run (the unit's number outside `run_chunks`).
    chunk: std::cell::Cell<u64>,
}

impl ChunkProgress<'_> {
    /// The number of the chunk being run, in the whole run ([`Engine::run_chunks`]; the
    /// unit's number for [`Engine::for_each_unit`] and the streams of
    /// [`Engine::run_streams`]).
    pub fn chunk(&self) -> u64 {
        self.chunk.get()
    }

    /// `trials` more trials of this chunk are done.
    pub fn done(&self, trials: u64) {
        self.reported.set(self.reported.get() + trials);
        self.progress.advance(trials);
    }

    /// Whether the run is cancelled ([`Progress::cancelled`]): the chunk should end now.
    pub fn cancelled(&self) -> bool {
        self.progress.cancelled()
    }
}

/// The most worker threads a run may ask for. More threads than cores never helps, and
/// every thread holds its own tallies (32 MB each for a 2,000-card position matrix).
pub const MAX_THREADS: usize = 256;

/// Refuses a thread count outside `1..=MAX_THREADS`.
pub fn check_thread_count(threads: usize) -> Result<()> {
    if (1..=MAX_THREADS).contains(&threads) {
        Ok(())
    } else {
        Err(Error::BadOption {
            option: "--threads",
            problem: format!("must be between 1 and {MAX_THREADS} (got {threads})"),
        })
    }
}

/// A pool of worker threads that runs chunked simulations: all of a run's chunks, or
/// one shard's share of them.
pub struct Engine {
    pool: rayon::ThreadPool,
    shard: Shard,
    source: SourceKind,
    /// Chunks of a run before this one are left out ([`Engine::skip_chunks_before`]).
    first_chunk: u64,
}

impl Engine {
    /// An engine with `threads` workers (1 to [`MAX_THREADS`]).
    pub fn new(threads: usize) -> Result<Self> {
        check_thread_count(threads)?;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("shuffle-audit-{i}"))
            .build()
            .map_err(|error| Error::ThreadPool {
                threads,
                reason: error.to_string(),
            })?;
        Ok(Self {
            pool,
            shard: Shard::WHOLE,
            source: SourceKind::Xoshiro,
            first_chunk: 0,
        })
    }

    /// The same engine running only `shard`'s share of the chunks of every run of trials
    /// it is given ([`Engine::run_chunks`]; streams are not sharded). The shards' tallies
    /// add up to exactly the whole run's.
    pub fn for_shard(self, shard: Shard) -> Self {
        Self { shard, ..self }
    }

    /// The same engine drawing from `source` instead of the default Xoshiro256++ (see
    /// [`SimulationSource::for_unit`] for how each chunk's stream is started).
    pub fn with_source(self, source: SourceKind) -> Self {
        Self { source, ..self }
    }

    /// From now on, leave out the chunks of a run numbered below `chunk`: a run of `T`
    /// trials then tallies only its chunks `chunk..`, each seeded as in the whole run. A
    /// run grown in steps (`T₁ < T₂ < …`, each step skipping the chunks the earlier steps
    /// ran) adds up to exactly the run of the last step's trials, which is how the live
    /// page (`serve`) shows a run as it goes and still ends with `run`'s tallies. Every
    /// step but the last must end on a chunk boundary ([`CHUNK_TRIALS`]).
    pub fn skip_chunks_before(&mut self, chunk: u64) {
        self.first_chunk = chunk;
    }

    /// The first chunk (or stream) the engine runs: 0 unless told to skip some.
    pub fn first_chunk(&self) -> u64 {
        self.first_chunk
    }

    /// The randomness the engine's runs draw from.
    pub fn source(&self) -> SourceKind {
        self.source
    }

    /// The share of each run of trials this engine runs ([`Shard::WHOLE`] unless
    /// [`Engine::for_shard`] said otherwise).
    pub fn shard(&self) -> Shard {
        self.shard
    }

    /// The number of worker threads.
    pub fn threads(&self) -> usize {
        self.pool.current_num_threads()
    }

    /// Runs `work` inside the pool, so that its parallel iterators use these workers.
    pub fn install<R: Send>(&self, work: impl FnOnce() -> R + Send) -> R {
        self.pool.install(work)
    }

    /// Runs `trials` trials in chunks on every worker (only the engine's shard's chunks,
    /// each seeded as in the whole run) and returns one accumulator per worker. `work(accumulator, source, count, progress)` must run `count` trials
    /// drawing only from `source`, and may report finished trials as it goes; the caller
    /// adds the accumulators up, which gives the same total whatever the number of
    /// workers.
    pub fn run_chunks<A, Make, Work>(
        &self,
        trials: u64,
        seed: u64,
        progress: &dyn Progress,
        make: Make,
        work: Work,
    ) -> Vec<A>
    where
        A: Send,
        Make: Fn() -> A + Sync,
        Work: Fn(&mut A, &mut SimulationSource, u64, &ChunkProgress) + Sync,
    {
        let (shard, kind) = (self.shard, self.source);
        // The shard's first unit at or after the first chunk not skipped.
        let skipped = self
            .first_chunk
            .saturating_sub(shard.index - 1)
            .div_ceil(shard.count);
        self.for_each_unit(
            shard.chunk_count(trials).saturating_sub(skipped),
            progress,
            make,
            |accumulator, unit, chunk_progress| {
                let chunk = shard.chunk(skipped + unit);
                chunk_progress.chunk.set(chunk);
                let count = CHUNK_TRIALS.min(trials - chunk * CHUNK_TRIALS);
                let mut source = SimulationSource::for_unit(kind, seed, chunk, chunk * CHUNK_TRIALS);
                work(accumulator, &mut source, count, chunk_progress);
                count
            },
        )
    }

    /// Runs `streams` independent streams of `length` draws on every worker and returns
    /// one accumulator per worker. Stream `s` draws from
    /// [`SimulationSource::for_chunk`]`(seed, s)` and nothing else, so, as with chunks of
    /// trials, the accumulators add up to the same total whatever the number of workers.
    /// `work(accumulator, source, progress)` runs one stream; progress counts draws.
    /// Streams numbered below the first not skipped ([`Engine::skip_chunks_before`]) are
    /// left out, as chunks are.
    pub fn run_streams<A, Make, Work>(
        &self,
        streams: u64,
        length: u64,
        seed: u64,
        progress: &dyn Progress,
        make: Make,
        work: Work,
    ) -> Vec<A>
    where
        A: Send,
        Make: Fn() -> A + Sync,
        Work: Fn(&mut A, &mut SimulationSource, &ChunkProgress) + Sync,
    {
        let (kind, first) = (self.source, self.first_chunk.min(streams));
        self.for_each_unit(
            streams - first,
            progress,
            make,
            |accumulator, unit, stream_progress| {
                let stream = first + unit;
                let mut source =
                    SimulationSource::for_unit(kind, seed, stream, stream.saturating_mul(length));
                work(accumulator, &mut source, stream_progress);
                length
            },
        )
    }

    /// Hands out unit numbers `0..units` to the workers, each of which runs
    /// `work(accumulator, unit, progress)` (returning the unit's size in progress steps)
    /// into an accumulator of its own, and returns one accumulator per worker. What a
    /// unit is belongs to the caller (a chunk of trials, a stream, a range of seeds for
    /// `seeds reach`); results that add up or combine by union across the accumulators
    /// do not depend on the number of workers. Once `progress` is cancelled no unit is
    /// started ([`Progress::cancelled`]).
    pub fn for_each_unit<A, Make, Work>(
        &self,
        units: u64,
        progress: &dyn Progress,
        make: Make,
        work: Work,
    ) -> Vec<A>
    where
        A: Send,
        Make: Fn() -> A + Sync,
        Work: Fn(&mut A, u64, &ChunkProgress) -> u64 + Sync,
    {
        let next_unit = AtomicU64::new(0);
        self.pool.broadcast(|_| {
            let mut accumulator = make();
            loop {
                let unit = next_unit.fetch_add(1, Ordering::Relaxed);
                if unit >= units || progress.cancelled() {
                    break;
                }
                let unit_progress = ChunkProgress {
                    progress,
                    reported: std::cell::Cell::new(0),
                    chunk: std::cell::Cell::new(unit),
                };
                let size = work(&mut accumulator, unit, &unit_progress);
                progress.advance(size.saturating_sub(unit_progress.reported.get()));
            }
            accumulator
        })
    }
}

#[cfg(test)]
pub(crate) mod tests;
