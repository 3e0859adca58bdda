//! A catalogue run that can be watched: the engine run in growing steps, the tallies
//! added after each, so that the page sees the run as it goes.
//!
//! Why steps and not a progress callback: the engine's tallies are per worker and only
//! added at the end of a call. Each step runs the next chunks of the *same* run
//! ([`Engine::skip_chunks_before`]): chunk `c` is seeded by `(seed, c)` whatever step
//! runs it, so after the step that ends at `T` trials the tally is exactly that of
//! `run --trials T` with the same seed, and the last step ends at the trials asked for.
//!
//! Steps grow until one takes about [`STEP_TARGET`]: short enough for 5–20 updates a
//! second, long enough that the moment between steps (one worker idle while another
//! finishes its last chunk, the tallies added) costs a few percent of the run.

use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::analysis::analyse_permutations;
use crate::run::{About, AlgorithmResult, RunReport, RunSettings, shuffle_result, tally_options};
use crate::simulate::{CHUNK_TRIALS, Engine, NoProgress, record_permutations};
use crate::tally::PermutationRecorder;

use super::request::LiveRunSpec;

/// How long a step should take once the engine's pace is known.
pub const STEP_TARGET: Duration = Duration::from_millis(100);

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

/// The state after the last step.
#[derive(Clone, Debug, Default)]
pub struct Progress {
    /// The tallies of every trial so far (`None` before the first step ends), not yet
    /// finished: finishing them is left to whoever wants the tables ([`LiveRun::tally`]).
    pub recorder: Option<Arc<PermutationRecorder>>,
    /// Trials tallied so far.
    pub trials: u64,
    /// Time spent simulating.
    pub elapsed: Duration,
    /// Threads the engine used.
    pub threads: usize,
    /// Why the run failed, when it did.
    pub error: Option<String>,
    /// Counts steps, so that a watcher knows when there is something new.
    pub version: u64,
}

/// One live run, shared by the thread that runs it and the requests that watch it.
pub struct LiveRun {
    pub request: LiveRunSpec,
    phase: AtomicU8,
    stop: AtomicBool,
    watched: AtomicBool,
    progress: Mutex<Progress>,
    changed: tokio::sync::watch::Sender<u64>,
}

impl LiveRun {
    /// A run not started yet.
    pub fn new(request: LiveRunSpec) -> Arc<Self> {
        Arc::new(Self {
            request,
            phase: AtomicU8::new(0),
            stop: AtomicBool::new(false),
            watched: AtomicBool::new(false),
            progress: Mutex::new(Progress::default()),
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

    /// Asks the run to stop after the step under way.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Release);
    }

    /// Says a page is watching (its stream is open).
    pub fn watch(&self) -> tokio::sync::watch::Receiver<u64> {
        self.watched.store(true, Ordering::Release);
        self.changed.subscribe()
    }

    /// The state after the last step.
    pub fn progress(&self) -> Progress {
        self.progress
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
            .clone()
    }

    /// The report `run --trials T` writes for the `T` trials so far, or `None` before
    /// the first step. With `simulator_check` it is exactly `run`'s (the check enumerates
    /// the exact law, which is worth doing once, for the download); without, it is what
    /// the page shows as the run goes.
    pub fn report(&self, simulator_check: bool) -> Option<RunReport> {
        let progress = self.progress();
        let tally = Arc::unwrap_or_clone(progress.recorder?).finish();
        let LiveRunSpec {
            spec,
            settings,
            seed_origin,
        } = &self.request;
        let settings = RunSettings {
            trials: tally.trials,
            threads: progress.threads.max(1),
            ..settings.clone()
        };
        let thresholds = settings.validate(std::slice::from_ref(spec)).ok()?;
        let result = if simulator_check {
            let engine = Engine::new(1).ok()?.with_source(settings.source);
            shuffle_result(&engine, spec, tally, &thresholds)
        } else {
            AlgorithmResult {
                name: spec.display_name(settings.n),
                about: About::of(spec.entry),
                expected: spec.entry.expected_at(settings.n),
                analysis: analyse_permutations(&tally, &thresholds),
                tally,
                simulator_check: None,
                elapsed: Duration::ZERO,
            }
        };
        Some(RunReport {
            seed: settings.seed.unwrap_or(0),
            seed_origin: *seed_origin,
            threads: progress.threads,
            elapsed: progress.elapsed,
            results: vec![AlgorithmResult {
                elapsed: progress.elapsed,
                ..result
            }],
            sampler_results: Vec::new(),
            notes: settings.notes(std::slice::from_ref(spec)),
            input: None,
            settings,
        })
    }

    /// Runs the whole run on this thread, step by step, until it ends or is stopped.
    pub fn run(&self) {
        let LiveRunSpec { spec, settings, .. } = &self.request;
        let algorithm = spec.algorithm.as_permutation().expect("requests hold shuffles");
        let (n, trials, seed) = (settings.n, settings.trials, settings.seed.unwrap_or(0));
        let mut engine = match Engine::new(settings.threads_used()) {
            Ok(engine) => engine.with_source(settings.source),
            Err(error) => {
                self.update(|progress| progress.error = Some(error.to_string()));
                return self.set_phase(Phase::Failed);
            }
        };
        let threads = engine.threads() as u64;
        let options = tally_options(algorithm, n, settings.source);
        let chunks = trials.div_ceil(CHUNK_TRIALS);
        let created = Instant::now();
        let (mut done, mut step, mut elapsed) = (0u64, threads, Duration::ZERO);
        let mut tally: Option<PermutationRecorder> = None;
        let mut previous_end = None;
        let mut last_step = (0, Duration::ZERO);
        while done < chunks {
            if self.stop.load(Ordering::Acquire)
                || (!self.watched.load(Ordering::Acquire) && created.elapsed() > UNWATCHED_LIMIT)
            {
                return self.set_phase(Phase::Stopped);
            }
            let end = (done + step).min(chunks);
            engine.skip_chunks_before(done);
            let started = Instant::now();
            let overhead = previous_end.map_or(Duration::ZERO, |end: Instant| started - end);
            let part = record_permutations(
                &engine,
                algorithm,
                n,
                (end * CHUNK_TRIALS).min(trials),
                seed,
                options,
                &NoProgress,
            );
            let took = started.elapsed();
            elapsed += took;
            match &mut tally {
                Some(tally) => tally.merge(&part),
                None => tally = Some(part),
            }
            // What a step costs besides its chunks (a large deck's tables derived from its
            // order counts, the tallies added and copied for the page) must stay a few
            // percent of the step: steps of 10-card decks take seconds, not 100 ms.
            let fixed = fixed_cost(last_step, (end - done, took));
            last_step = (end - done, took);
            let target = STEP_TARGET.max((overhead + fixed) * 30);
            step = next_step(end - done, took, threads, target);
            done = end;
            let snapshot = Arc::new(tally.clone().expect("a step ran"));
            self.update(|progress| {
                progress.recorder = Some(snapshot);
                progress.trials = (end * CHUNK_TRIALS).min(trials);
                progress.elapsed = elapsed;
                progress.threads = threads as usize;
            });
            previous_end = Some(started + took);
        }
        self.set_phase(Phase::Done);
    }

    fn update(&self, change: impl FnOnce(&mut Progress)) {
        {
            let mut progress = self.progress.lock().unwrap_or_else(|poison| poison.into_inner());
            change(&mut progress);
            progress.version += 1;
        }
        self.changed.send_modify(|version| *version += 1);
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
