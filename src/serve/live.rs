//! A catalogue run that can be watched: the engine run in growing steps, the tallies
//! added after each, so that the page sees the run as it goes.
//!
//! Why steps and not a progress callback: the engine's tallies are per worker and only
//! added at the end of a call. Each step runs the next chunks of the *same* run
//! ([`Engine::skip_chunks_before`]): chunk `c` is seeded by `(seed, c)` whatever step
//! runs it, so after the step that ends at `T` trials the tally is exactly that of
//! `run --trials T` with the same seed, and the last step ends at the trials asked for.
//! A generator's run steps the same way over its streams (stream `s` seeded by
//! `(seed, s)`), and ends with `stream`'s tally.
//!
//! Steps grow until one takes about [`STEP_TARGET`], longer when what a step costs
//! besides its chunks (a 10-card deck's 10! order counts allocated and added) would
//! otherwise be more than a few percent of it. The count of deals is not tied to the
//! steps: the engine reports each chunk as it ends ([`LiveRun::counted`]), so the page
//! gets a fresh count several times a second whatever the step length.
//!
//! A run may also be dealt at a chosen speed, slower than the engine goes ([`throttle`]),
//! and keeps the same promise.

use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::report::sections::TABLE_BARS_UP_TO;
use crate::run::tally_options;
use crate::simulate::{
    CHUNK_TRIALS, Engine, Progress as EngineProgress, record_permutations, simulate_selections,
};
use crate::stream::GeneratorRun;
use crate::tally::lehmer::factorial;
use crate::tally::stream::StreamTally;
use crate::tally::{OrderSummary, PermutationRecorder, SelectionTally, TallyOptions};

use super::request::{LiveRequest, LiveRunSpec, LiveStreamSpec, Speed};
pub use reports::LiveReport;
use reports::Summarised;
pub use throttle::SLOW_STEP;
use throttle::{Slow, Stepped, Units};

mod reports;
mod throttle;

/// How long a step should take once the engine's pace is known.
pub const STEP_TARGET: Duration = Duration::from_millis(100);

/// The longest a step may take, whatever it costs besides its chunks: each step gives
/// the page a new view (charts, tests, verdict), and it must get several a second.
pub const MAX_STEP: Duration = Duration::from_millis(100);

/// A run with no page watching it after this long is stopped: a page that asked for a
/// run and never opened its stream (or was closed at once) must not hold a slot.
pub const UNWATCHED_LIMIT: Duration = Duration::from_secs(10);

/// Where a run is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    Running,
    /// Every trial asked for ran.
    Done,
    /// Stopped before the end (Stop, a closed tab, or the server stopping).
    Stopped,
    /// The engine could not start (threads); the message says why.
    Failed,
}

/// The tallies of every step so far, not yet finished: finishing a shuffle's tally is
/// left to whoever wants its tables ([`LiveRun::report`]).
#[derive(Clone, Debug)]
pub enum Tallied {
    Shuffle(PermutationRecorder),
    Sampler(SelectionTally),
    Stream(StreamTally),
}

/// The state after the last step.
#[derive(Clone, Debug, Default)]
pub struct Progress {
    /// The tallies so far (`None` before the first step ends).
    pub tally: Option<Tallied>,
    /// Deals (samples, draws) tallied so far.
    pub trials: u64,
    /// Chunks (streams) tallied so far.
    pub units: u64,
    /// Time spent simulating.
    pub elapsed: Duration,
    /// Threads the engine used.
    pub threads: usize,
    /// Why the run failed, when it did.
    pub error: Option<String>,
    /// Counts steps, so that a watcher knows when there is something new.
    pub version: u64,
    /// The summary of a shuffle's order counts, kept as steps add them, when its recorder
    /// counts orders by rank (5 to 10 cards, deals not tallied in order): what the page's
    /// views are made from while the run runs ([`LiveRun::summary_report`]).
    pub orders: Option<OrderSummary>,
}

/// Counts what the engine finishes, chunk by chunk, across every step.
#[derive(Default)]
struct Counter(AtomicU64);

/// The engine's progress at full speed: the count, and the run's stop, which the engine
/// asks for between batches and inside deals that take seconds, so that Stop ends a step
/// within milliseconds rather than when its chunks are done.
impl EngineProgress for LiveRun {
    fn advance(&self, trials: u64) {
        self.counter.0.fetch_add(trials, Ordering::Relaxed);
    }

    fn cancelled(&self) -> bool {
        self.should_stop()
    }
}

/// One live run, shared by the thread that runs it and the requests that watch it.
pub struct LiveRun {
    pub request: LiveRequest,
    /// When the run was asked for.
    pub started: Instant,
    phase: AtomicU8,
    stop: AtomicBool,
    watched: AtomicBool,
    counter: Counter,
    /// The deals of the last step ([`Progress::trials`]), read without the lock.
    tallied: AtomicU64,
    /// The speed, as [`Speed::to_bits`] stores it: the page may change it at any time.
    speed: AtomicU64,
    progress: Mutex<Progress>,
    /// What the page's views of a summarised shuffle are made from, copied out of the
    /// progress after each step: a view never waits for a step's counts to be added.
    summarised: Mutex<Option<Summarised>>,
    changed: tokio::sync::watch::Sender<u64>,
}

impl LiveRun {
    /// A run not started yet.
    pub fn new(request: LiveRequest) -> Arc<Self> {
        Arc::new(Self {
            speed: AtomicU64::new(request.speed().to_bits()),
            tallied: AtomicU64::new(0),
            request,
            started: Instant::now(),
            phase: AtomicU8::new(0),
            stop: AtomicBool::new(false),
            watched: AtomicBool::new(false),
            counter: Counter::default(),
            progress: Mutex::new(Progress::default()),
            summarised: Mutex::new(None),
            changed: tokio::sync::watch::channel(0).0,
        })
    }

    pub fn phase(&self) -> Phase {
        match self.phase.load(Ordering::Acquire) {
            0 => Phase::Running,
            1 => Phase::Done,
            2 => Phase::Stopped,
            _ => Phase::Failed,
        }
    }

    fn set_phase(&self, phase: Phase) {
        self.phase.store(phase as u8, Ordering::Release);
        self.changed.send_modify(|version| *version += 1);
    }

    /// Asks the run to stop: the step under way ends within milliseconds (the engine is
    /// told, and asks between batches and inside long deals: see
    /// [`EngineProgress::cancelled`]), its partial tally is thrown away, and the run ends
    /// with the tallies of the steps before.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Release);
    }

    /// Says a page is watching (its stream is open).
    pub fn watch(&self) -> tokio::sync::watch::Receiver<u64> {
        self.watched.store(true, Ordering::Release);
        self.changed.subscribe()
    }

    /// Deals (samples, draws) the engine has finished, those of the step under way
    /// included: at least [`Progress::trials`], ahead of it during a step.
    pub fn counted(&self) -> u64 {
        let counted = self.counter.0.load(Ordering::Relaxed);
        counted.max(self.tallied.load(Ordering::Relaxed))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Progress> {
        self.progress.lock().unwrap_or_else(|poison| poison.into_inner())
    }

    /// The step counter of the last step (cheap: nothing is copied).
    pub fn version(&self) -> u64 {
        self.lock().version
    }

    /// Deals tallied by the last step and why the run failed, if it did (cheap: the
    /// tallies are not copied).
    pub fn tallied(&self) -> (u64, Option<String>) {
        let progress = self.lock();
        (progress.trials, progress.error.clone())
    }

    /// The state after the last step.
    pub fn progress(&self) -> Progress {
        self.lock().clone()
    }

    /// Runs the whole run on this thread, step by step, until it ends or is stopped.
    pub fn run(&self) {
        let threads = match &self.request {
            LiveRequest::Run(request) => request.settings.threads_used(),
            LiveRequest::Stream(request) => request.settings.threads_used(),
        };
        let source = match &self.request {
            LiveRequest::Run(request) => request.settings.source,
            LiveRequest::Stream(request) => request.settings.source,
        };
        let mut engine = match Engine::new(threads) {
            Ok(engine) => engine.with_source(source),
            Err(error) => {
                self.update(|progress| progress.error = Some(error.to_string()));
                return self.set_phase(Phase::Failed);
            }
        };
        let seed = self.request.seed();
        let phase = match &self.request {
            LiveRequest::Run(LiveRunSpec { spec, settings, .. }) => {
                let n = settings.n;
                // A step may end inside a chunk: a run of `T` deals ends with a short chunk.
                let units = Units {
                    total: settings.trials,
                    unit: CHUNK_TRIALS,
                    partial: true,
                };
                if let Some(algorithm) = spec.algorithm.as_permutation() {
                    // Each step's deals are written down, not counted, where a table of
                    // counters would be large (see `TallyOptions::listed`); the run's total
                    // counts them.
                    let options = tally_options(algorithm, n, settings.source);
                    let step_options = TallyOptions {
                        listed: true,
                        ..options
                    };
                    self.stepped(&mut engine, units, |engine, trials, counter| {
                        let part =
                            record_permutations(engine, algorithm, n, trials, seed, step_options, counter);
                        move || {
                            let mut part = part;
                            part.sort_listed();
                            move |progress: &mut Progress| add_shuffle(progress, part, n, options)
                        }
                    })
                } else {
                    let sampler = spec.algorithm.as_sampler().expect("a shuffle or a sampler");
                    let k = settings.k.expect("a sampler's request has k");
                    self.stepped(&mut engine, units, |engine, trials, counter| {
                        let part = simulate_selections(engine, sampler, n, k, trials, seed, counter);
                        move || {
                            move |progress: &mut Progress| match &mut progress.tally {
                                Some(Tallied::Sampler(tally)) => tally.add(&part),
                                _ => progress.tally = Some(Tallied::Sampler(part)),
                            }
                        }
                    })
                }
            }
            LiveRequest::Stream(LiveStreamSpec { spec, settings, .. }) => {
                match GeneratorRun::new(spec, settings) {
                    Ok(generator) => {
                        let length = settings.length;
                        // Whole streams only: a stream's first draws are not a stream.
                        let units = Units {
                            total: length.saturating_mul(settings.streams),
                            unit: length,
                            partial: false,
                        };
                        self.stepped(&mut engine, units, |engine, draws, counter| {
                            let part = generator.tally(engine, draws / length, seed, counter);
                            move || {
                                move |progress: &mut Progress| match &mut progress.tally {
                                    Some(Tallied::Stream(tally)) => tally.merge(&part),
                                    _ => progress.tally = Some(Tallied::Stream(part)),
                                }
                            }
                        })
                    }
                    Err(error) => {
                        self.update(|progress| progress.error = Some(error.to_string()));
                        Phase::Failed
                    }
                }
            }
        };
        self.set_phase(phase);
    }

    /// Runs units (chunks, or streams) `0..units` in steps: `step(engine, end, counter)`
    /// runs the units from the first the engine does not skip up to `end` deals (draws),
    /// telling `counter` what it deals, and says how to add its tally to the others.
    /// Returns how the run ended. At a speed below full, the steps are [`throttle`]'s.
    ///
    /// A step's tally is added while the next step runs (on a thread of its own, one
    /// addition at a time, in order), in two parts: `add()` prepares it (a 10-card step's
    /// ranks are sorted), then what it returns adds it to the progress, under the lock
    /// that the page's views take too. The engine's workers wait for neither.
    fn stepped<Add, Apply>(
        &self,
        engine: &mut Engine,
        units: Units,
        mut step: impl FnMut(&Engine, u64, &dyn EngineProgress) -> Add,
    ) -> Phase
    where
        Add: FnOnce() -> Apply + Send,
        Apply: FnOnce(&mut Progress),
    {
        let threads = engine.threads() as u64;
        let (mut done, mut size, mut elapsed) = (0u64, threads, Duration::ZERO);
        let mut previous_end = None;
        let mut last_step = (0, Duration::ZERO);
        // The tallies of the whole units, when a slow stretch showed more (see `Slow`).
        let mut committed: Option<Progress> = None;
        std::thread::scope(|scope| {
            let mut adding: Option<std::thread::ScopedJoinHandle<'_, ()>> = None;
            let mut phase = Phase::Done;
            while done < units.count() {
                if self.should_stop() {
                    phase = Phase::Stopped;
                    break;
                }
                if self.speed() != Speed::Full {
                    if let Some(previous) = adding.take() {
                        let _ = previous.join();
                    }
                    let mut at = Stepped {
                        done,
                        elapsed,
                        committed: committed.take(),
                    };
                    let slow = self.slow_steps(engine, units, &mut at, &mut step);
                    (done, elapsed, committed) = (at.done, at.elapsed, at.committed);
                    match slow {
                        Slow::Ended(ended) => {
                            phase = ended;
                            break;
                        }
                        Slow::Full => {
                            (size, previous_end, last_step) = (threads, None, (0, Duration::ZERO));
                            continue;
                        }
                    }
                }
                let end = (done + size).min(units.count());
                engine.skip_chunks_before(done);
                let started = Instant::now();
                let overhead = previous_end.map_or(Duration::ZERO, |end: Instant| started - end);
                let add = step(engine, units.done_at(end), self);
                // A step cut short by Stop tallied only part of its chunks: thrown away.
                if self.should_stop() {
                    phase = Phase::Stopped;
                    break;
                }
                let took = started.elapsed();
                elapsed += took;
                let trials = units.done_at(end);
                if let Some(previous) = adding.take() {
                    let _ = previous.join();
                }
                let base = committed.take();
                adding = Some(scope.spawn(move || {
                    let apply = add();
                    self.update(|progress| {
                        if let Some(base) = base {
                            progress.tally = base.tally;
                            progress.orders = base.orders;
                        }
                        apply(progress);
                        progress.trials = trials;
                        progress.units = end;
                        progress.threads = threads as usize;
                        progress.elapsed = elapsed;
                    })
                }));
                // What a step costs besides its chunks (a large deck's order counts
                // allocated and added up) must stay a few percent of the step, but the page
                // must get a new view several times a second: steps last from STEP_TARGET
                // to MAX_STEP.
                let fixed = fixed_cost(last_step, (end - done, took));
                last_step = (end - done, took);
                let target = STEP_TARGET.max((overhead + fixed) * 30).min(MAX_STEP);
                size = next_step(end - done, took, threads, target);
                done = end;
                previous_end = Some(Instant::now());
            }
            if let Some(last) = adding.take() {
                let _ = last.join();
            }
            phase
        })
    }

    fn update(&self, change: impl FnOnce(&mut Progress)) {
        {
            let mut progress = self.lock();
            change(&mut progress);
            progress.version += 1;
            self.tallied.store(progress.trials, Ordering::Relaxed);
            if let (Some(orders), Some(Tallied::Shuffle(recorder))) = (&progress.orders, &progress.tally) {
                let summarised = Summarised {
                    tally: recorder.summary_tally(orders),
                    orders: orders.clone(),
                    base: progress.base(),
                };
                *self
                    .summarised
                    .lock()
                    .unwrap_or_else(|poison| poison.into_inner()) = Some(summarised);
            } else {
                *self
                    .summarised
                    .lock()
                    .unwrap_or_else(|poison| poison.into_inner()) = None;
            }
        }
        self.changed.send_modify(|version| *version += 1);
    }
}

/// Adds a step's shuffles to the run's, keeping the summary of the order counts where
/// there is one: the first step's recorder, when it is summarisable, is added to an empty
/// one so that the summary covers it too. Decks whose orders the page draws a bar each
/// (up to 6 cards, 720 orders) are not summarised: their views read the counts, which
/// costs less than a chart.
fn add_shuffle(progress: &mut Progress, part: PermutationRecorder, n: usize, options: TallyOptions) {
    let summarise = factorial(n).is_none_or(|orders| orders > TABLE_BARS_UP_TO as u64) && part.summarisable();
    match (&mut progress.tally, &mut progress.orders) {
        (Some(Tallied::Shuffle(tally)), Some(orders)) => {
            if !tally.merge_summarised(&part, orders) {
                progress.orders = None;
            }
        }
        (Some(Tallied::Shuffle(tally)), None) => tally.merge(&part),
        _ if summarise => {
            let mut total = PermutationRecorder::new(n, options);
            let mut orders = total.empty_summary();
            total.merge_summarised(&part, &mut orders);
            progress.orders = Some(orders);
            progress.tally = Some(Tallied::Shuffle(total));
        }
        _ => progress.tally = Some(Tallied::Shuffle(part)),
    }
}

/// The time a step takes whatever its chunks, estimated from two steps of different
/// sizes (`(chunks, took)` each) as the intercept of the line through them.
fn fixed_cost((chunks_a, took_a): (u64, Duration), (chunks_b, took_b): (u64, Duration)) -> Duration {
    if chunks_a == 0 || chunks_a == chunks_b {
        return Duration::ZERO;
    }
    let per_chunk = (took_b.as_secs_f64() - took_a.as_secs_f64()) / (chunks_b as f64 - chunks_a as f64);
    let fixed = took_b.as_secs_f64() - per_chunk.max(0.0) * chunks_b as f64;
    Duration::from_secs_f64(fixed.clamp(0.0, 60.0))
}

/// The chunks of the next step: as many as fit in `target` at the pace of the last one
/// (`chunks` took `took`), growing at most fourfold, a multiple of the threads.
fn next_step(chunks: u64, took: Duration, threads: u64, target: Duration) -> u64 {
    let per_chunk = took.as_secs_f64() / chunks as f64;
    let fit = if per_chunk > 0.0 {
        (target.as_secs_f64() / per_chunk) as u64
    } else {
        u64::MAX
    };
    let step = fit.min(chunks.saturating_mul(4)).clamp(threads, 1 << 24);
    step.div_ceil(threads) * threads
}
