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

use std::sync::atomic::{AtomicU64, Ordering};

mod audit_rng;
mod decks;
mod paths;
mod selections;
mod shard;
mod user;

pub use audit_rng::AuditRng;
pub use selections::simulate_selections;
pub use shard::Shard;
pub use user::{BrokenShuffle, simulate_user_shuffle};

use crate::catalogue::PermutationAlgorithm;
use crate::error::{Error, Result};
use crate::randomness::{SimulationSource, SourceKind};
use crate::tally::{PermutationRecorder, PermutationTally, TallyOptions};

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

/// Told how many trials have finished, from any worker thread.
pub trait Progress: Sync {
    /// `trials` more trials are done.
    fn advance(&self, trials: u64);
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
}

impl ChunkProgress<'_> {
    /// `trials` more trials of this chunk are done.
    pub fn done(&self, trials: u64) {
        self.reported.set(self.reported.get() + trials);
        self.progress.advance(trials);
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
        let kind = self.source;
        self.for_each_unit(streams, progress, make, |accumulator, stream, stream_progress| {
            let mut source = SimulationSource::for_unit(kind, seed, stream, stream.saturating_mul(length));
            work(accumulator, &mut source, stream_progress);
            length
        })
    }

    /// Hands out unit numbers `0..units` to the workers, each of which runs
    /// `work(accumulator, unit, progress)` (returning the unit's size in progress steps)
    /// into an accumulator of its own, and returns one accumulator per worker. What a
    /// unit is belongs to the caller (a chunk of trials, a stream, a range of seeds for
    /// `seeds reach`); results that add up or combine by union across the accumulators
    /// do not depend on the number of workers.
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
                if unit >= units {
                    break;
                }
                let unit_progress = ChunkProgress {
                    progress,
                    reported: std::cell::Cell::new(0),
                };
                let size = work(&mut accumulator, unit, &unit_progress);
                progress.advance(size.saturating_sub(unit_progress.reported.get()));
            }
            accumulator
        })
    }
}

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
    Simulation {
        engine,
        algorithm: algorithm.resolve(n),
        trials,
        seed,
        options,
        progress,
        by_path: true,
    }
    .run(n)
}

/// One simulation's parameters, shared by the loop shapes.
struct Simulation<'a> {
    engine: &'a Engine,
    algorithm: PermutationAlgorithm,
    trials: u64,
    seed: u64,
    options: TallyOptions,
    progress: &'a dyn Progress,
    /// Whether tallying by random path is allowed (tests turn it off to compare).
    by_path: bool,
}

impl Simulation<'_> {
    fn run(&self, n: usize) -> PermutationRecorder {
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
            _ => merged(self.any_size(n)),
        }
    }

    fn small<const N: usize>(&self) -> PermutationRecorder {
        // A path describes one shuffle of a fresh deck, in no order: a dealer's deal also
        // depends on the deals before it, and consecutive deals tallied in order need
        // every deal in turn, so neither is tallied by path.
        let by_path = self.by_path && !self.algorithm.carries_deck_between_deals() && !self.options.serial;
        match self.algorithm.draw_schedule(N).filter(|_| by_path) {
            Some(schedule) if paths::path_count(&schedule) <= paths::MAX_PATHS => {
                self.by_path::<N>(&schedule)
            }
            _ => merged(self.fixed_size::<N>()),
        }
    }
}

/// Adds up the workers' recorders.
fn merged(recorders: Vec<PermutationRecorder>) -> PermutationRecorder {
    let mut recorders = recorders.into_iter();
    let mut total = recorders.next().expect("an engine has at least one worker");
    for recorder in recorders {
        total.merge(&recorder);
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_trial_runs_exactly_once() {
        let engine = Engine::new(3).unwrap();
        let trials = 5 * CHUNK_TRIALS + 17;
        let counts = engine.run_chunks(
            trials,
            1,
            &NoProgress,
            || 0u64,
            |total, _, count, _| *total += count,
        );
        assert_eq!(counts.len(), 3);
        assert_eq!(counts.iter().sum::<u64>(), trials);
    }

    #[test]
    fn a_run_grown_in_steps_adds_up_to_the_whole_run() {
        let whole = {
            let engine = Engine::new(2).unwrap();
            simulate_permutations(
                &engine,
                PermutationAlgorithm::NaiveSwap,
                5,
                7 * CHUNK_TRIALS + 3,
                42,
                TallyOptions::default(),
                &NoProgress,
            )
        };
        let mut engine = Engine::new(2).unwrap();
        let mut total: Option<PermutationTally> = None;
        for (first, end) in [
            (0, CHUNK_TRIALS),
            (1, 4 * CHUNK_TRIALS),
            (4, 7 * CHUNK_TRIALS + 3),
        ] {
            engine.skip_chunks_before(first);
            let step = simulate_permutations(
                &engine,
                PermutationAlgorithm::NaiveSwap,
                5,
                end,
                42,
                TallyOptions::default(),
                &NoProgress,
            );
            match &mut total {
                Some(total) => total.add(&step),
                None => total = Some(step),
            }
        }
        assert_eq!(total.unwrap(), whole);
    }

    #[test]
    fn tallies_do_not_depend_on_the_thread_count() {
        let run = |threads| {
            let engine = Engine::new(threads).unwrap();
            simulate_permutations(
                &engine,
                PermutationAlgorithm::NaiveSwap,
                4,
                3 * CHUNK_TRIALS + 5,
                99,
                TallyOptions::default(),
                &NoProgress,
            )
        };
        let one = run(1);
        assert_eq!(one.trials, 3 * CHUNK_TRIALS + 5);
        assert_eq!(one, run(2));
        assert_eq!(one, run(8));
    }

    #[test]
    fn tallying_by_path_gives_exactly_the_deck_by_deck_tally() {
        let engine = Engine::new(2).unwrap();
        let mut compared = 0;
        for entry in crate::catalogue::SHUFFLES {
            for n in 2..=10 {
                let Some(schedule) = entry_algorithm(entry).resolve(n).draw_schedule(n) else {
                    continue;
                };
                if paths::path_count(&schedule) > paths::MAX_PATHS {
                    continue;
                }
                let simulation = |by_path| {
                    Simulation {
                        engine: &engine,
                        algorithm: entry_algorithm(entry).resolve(n),
                        trials: 2 * CHUNK_TRIALS + 99,
                        seed: 17,
                        options: TallyOptions::default(),
                        progress: &NoProgress,
                        by_path,
                    }
                    .run(n)
                    .finish()
                };
                let by_path = simulation(true);
                assert_eq!(by_path, simulation(false), "{} on {n} cards", entry.name);
                assert_eq!(by_path.trials, 2 * CHUNK_TRIALS + 99);
                compared += 1;
            }
        }
        // fisher-yates (both) 2..=8, sattolo and roguelike 2..=9, naive 2..=6, naive-repeated:n
        // 2..=3, asf-poker 2..=6 ((n-1)^n paths), overhand:1 2..=10 (2^(n-1) paths).
        assert_eq!(compared, 7 + 7 + 8 + 8 + 5 + 2 + 5 + 9);
    }

    fn entry_algorithm(entry: &crate::catalogue::CatalogueEntry) -> PermutationAlgorithm {
        crate::catalogue::AlgorithmSpec::parse(entry.name)
            .unwrap()
            .algorithm
            .as_permutation()
            .expect("SHUFFLES lists shuffles")
    }

    #[test]
    fn the_shards_of_a_run_add_up_to_the_whole_run() {
        // 5 chunks, the last one partial; tallied by path (4 cards), deck by deck in a
        // loop compiled for the size (7 cards) and for any size (12 cards).
        let trials = 4 * CHUNK_TRIALS + 3;
        for n in [4, 7, 12] {
            let simulate = |engine: &Engine| {
                simulate_permutations(
                    engine,
                    PermutationAlgorithm::NaiveSwap,
                    n,
                    trials,
                    5,
                    TallyOptions::default(),
                    &NoProgress,
                )
            };
            let whole = simulate(&Engine::new(2).unwrap());
            for count in [2, 5] {
                let mut added = simulate(&Engine::new(1).unwrap().for_shard(Shard::new(1, count).unwrap()));
                for index in 2..=count {
                    let engine = Engine::new(2)
                        .unwrap()
                        .for_shard(Shard::new(index, count).unwrap());
                    added.add(&simulate(&engine));
                }
                assert_eq!(added, whole, "{count} shards of {n} cards");
            }
        }
    }

    /// The new shuffles of issue 14 (riffles, a dealer who carries the deck, overhand) give
    /// the same tallies for 1 and 3 threads and for a run cut into shards, on a deck
    /// tallied by a loop compiled for its size (5 cards) and one of any size (12 cards),
    /// over chunks of which the last is partial.
    #[test]
    fn riffles_dealers_and_overhands_do_not_depend_on_threads_or_shards() {
        let trials = 3 * CHUNK_TRIALS + 11;
        for algorithm in [
            PermutationAlgorithm::Riffles { times: 2 },
            PermutationAlgorithm::DealerRiffles { times: 1 },
            PermutationAlgorithm::Overhand { times: 3 },
        ] {
            for n in [5, 12] {
                let simulate = |engine: &Engine| {
                    simulate_permutations(
                        engine,
                        algorithm,
                        n,
                        trials,
                        31,
                        TallyOptions::default(),
                        &NoProgress,
                    )
                };
                let one = simulate(&Engine::new(1).unwrap());
                assert_eq!(one.trials, trials);
                assert_eq!(
                    one,
                    simulate(&Engine::new(3).unwrap()),
                    "{algorithm:?} on {n} cards"
                );
                let mut shards = simulate(&Engine::new(2).unwrap().for_shard(Shard::new(1, 3).unwrap()));
                for index in 2..=3 {
                    shards.add(&simulate(
                        &Engine::new(1).unwrap().for_shard(Shard::new(index, 3).unwrap()),
                    ));
                }
                assert_eq!(one, shards, "{algorithm:?} on {n} cards, 3 shards");
            }
        }
    }

    /// The engine's dealer is exactly one dealer per chunk, each starting from the fresh
    /// deck with the chunk's own stream: the tally equals the one rebuilt chunk by chunk
    /// by hand. Without the reset at each chunk start a worker would carry its deck from
    /// one chunk into the next, and this would differ (and depend on the thread count).
    #[test]
    fn a_dealer_starts_every_chunk_from_the_fresh_deck() {
        use crate::catalogue::Workspace;
        use crate::tally::PermutationRecorder;
        let algorithm = PermutationAlgorithm::DealerRiffles { times: 1 };
        let (n, seed, trials) = (6usize, 5u64, 2 * CHUNK_TRIALS + 100);
        let engine = Engine::new(2).unwrap();
        let tally = simulate_permutations(
            &engine,
            algorithm,
            n,
            trials,
            seed,
            TallyOptions::default(),
            &NoProgress,
        );

        let mut by_hand = PermutationRecorder::new(n, TallyOptions::default());
        let mut workspace = Workspace::default();
        let mut first_deals_riffled_once = 0;
        for chunk in 0..3u64 {
            let mut source = SimulationSource::for_chunk(seed, chunk);
            workspace.start_dealing();
            let count = CHUNK_TRIALS.min(trials - chunk * CHUNK_TRIALS);
            for deal in 0..count {
                let mut deck: Vec<u16> = (0..n as u16).collect();
                algorithm.shuffle(&mut deck, &mut source, &mut workspace);
                if deal == 0 && crate::tally::rising::rising_sequences(&deck) <= 2 {
                    first_deals_riffled_once += 1;
                }
                by_hand.record(&deck);
            }
        }
        assert_eq!(
            first_deals_riffled_once, 3,
            "each chunk's first deal is one riffle of the fresh deck"
        );
        assert_eq!(tally, by_hand.finish());

        // The deck really is carried: one riffle alone never deals more than two rising
        // sequences, the dealer's later deals often do.
        let riffled_once = simulate_permutations(
            &engine,
            PermutationAlgorithm::Riffles { times: 1 },
            n,
            trials,
            seed,
            TallyOptions::default(),
            &NoProgress,
        );
        assert_ne!(tally, riffled_once);
    }

    #[test]
    fn thread_counts_outside_the_range_are_errors() {
        assert!(Engine::new(0).is_err());
        assert!(Engine::new(MAX_THREADS + 1).is_err());
        assert_eq!(Engine::new(3).unwrap().threads(), 3);
    }

    #[test]
    fn progress_counts_every_trial_once_whether_chunks_report_or_not() {
        struct Count(std::sync::atomic::AtomicU64);
        impl Progress for Count {
            fn advance(&self, trials: u64) {
                self.0.fetch_add(trials, std::sync::atomic::Ordering::Relaxed);
            }
        }
        let engine = Engine::new(2).unwrap();
        let trials = 3 * CHUNK_TRIALS + 7;
        for report_partially in [false, true] {
            let count = Count(std::sync::atomic::AtomicU64::new(0));
            engine.run_chunks(
                trials,
                1,
                &count,
                || (),
                |_, _, chunk, progress| {
                    if report_partially {
                        progress.done(chunk / 2);
                    }
                },
            );
            assert_eq!(count.0.into_inner(), trials);
        }
    }
}
