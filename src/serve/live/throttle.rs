//! A run dealt at a chosen speed (deals a second), so that a class can watch the counts
//! of a 3-card run move instead of seeing it end before anyone looks.
//!
//! The promise of [`super`] holds at any speed: the tally the page sees after `T` deals is
//! that of `run --trials T` with the same seed. A run of `T` deals is chunks `0..T/C` whole
//! (`C` = [`CHUNK_TRIALS`]) and the first `T mod C` deals of the next, each chunk seeded by
//! `(seed, chunk)` whatever its length ([`crate::simulate::Engine::run_chunks`] runs a short
//! last chunk from the same stream, so its deals are the first ones of the whole chunk).
//! So a slow step keeps the tallies of the whole chunks dealt (`committed`) and deals the
//! chunk under way again from its start up to `T`: the page gets `committed` plus that
//! part, which is exactly what `run --trials T` tallies, repeats within a chunk and
//! consecutive pairs included (a part dealt on its own from the middle of a chunk would
//! miss the pairs across its start). What that costs: at most one chunk (16,384 deals)
//! dealt again per step, a few milliseconds on small decks; at a speed at which the
//! engine cannot keep up the run simply goes as fast as it can. A generator's streams are
//! not cut: a slow run adds whole streams as the speed allows.
//!
//! The speed may change while the run runs (the page's slider): the pace restarts from
//! the deals shown at the new speed, and "full" hands the run back to the engine's own
//! steps, from the last whole chunk. Changing it during the run is what a teacher does
//! (start slow, let the class see the first deals, then let it run to the verdict); a
//! speed fixed at the start would mean a new run, with new counts, to go faster.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use crate::simulate::{Engine, Progress as EngineProgress};

use super::super::request::Speed;
use super::{LiveRun, Phase, Progress, UNWATCHED_LIMIT};

/// The time between two slow steps: each step gives the page a new view, as often as
/// the page asks for one (`events::UPDATE_INTERVAL`).
pub const SLOW_STEP: Duration = Duration::from_millis(100);

/// How often a waiting run looks at Stop and at the speed.
const GLANCE: Duration = Duration::from_millis(5);

/// The deals a run at `speed` may have dealt by a time: those shown when the speed was
/// set, and `speed` a second since.
#[derive(Clone, Copy, Debug)]
struct Pace {
    speed: u64,
    from: u64,
    since: Instant,
}

impl Pace {
    fn allowed(&self, now: Instant) -> u64 {
        // A float to integer cast saturates: no overflow at any speed.
        let more = (self.speed as f64 * now.saturating_duration_since(self.since).as_secs_f64()) as u64;
        self.from.saturating_add(more)
    }

    /// When the next deal is allowed after `dealt`.
    fn next_at(&self, dealt: u64) -> Instant {
        let deals = dealt.saturating_sub(self.from).saturating_add(1);
        self.since + Duration::from_secs_f64(deals as f64 / self.speed as f64)
    }
}

/// What a run steps over: `total` deals (samples, draws) in units (chunks, or streams)
/// of `unit` deals, the last one possibly short; with `partial`, a step may end inside a
/// unit (a run's chunks), without, only on a unit's end (a generator's streams).
#[derive(Clone, Copy, Debug)]
pub(super) struct Units {
    pub(super) total: u64,
    pub(super) unit: u64,
    pub(super) partial: bool,
}

impl Units {
    pub(super) fn count(&self) -> u64 {
        self.total.div_ceil(self.unit)
    }

    /// The deals of units `0..end`.
    pub(super) fn done_at(&self, end: u64) -> u64 {
        end.saturating_mul(self.unit).min(self.total)
    }
}

/// A slow step's progress: it counts nothing (the pace sets the count the page sees) and
/// is cancelled when the run is to stop, so that Stop ends a throttled step inside a deal
/// that takes seconds as it ends one at full speed.
struct Cancellable<'a>(&'a LiveRun);

impl EngineProgress for Cancellable<'_> {
    fn advance(&self, _trials: u64) {}

    fn cancelled(&self) -> bool {
        self.0.should_stop()
    }
}

/// How a slow stretch of a run ended.
pub(super) enum Slow {
    /// The run ended (every deal dealt, or stopped).
    Ended(Phase),
    /// The speed was set to full: the engine's own steps go on from the last whole unit
    /// ([`Stepped::committed`] says what to add their tallies to).
    Full,
}

/// Where a run's steps are, handed from the engine's steps to the slow ones and back.
pub(super) struct Stepped {
    /// Units (chunks, streams) tallied whole.
    pub(super) done: u64,
    /// Time spent dealing.
    pub(super) elapsed: Duration,
    /// With `Some`, the page shows more than the whole units (a chunk's first deals), and
    /// these are the tallies of the whole units alone, which the next step's must be added
    /// to instead of the progress's.
    pub(super) committed: Option<Progress>,
}

impl LiveRun {
    /// The speed the run deals at.
    pub fn speed(&self) -> Speed {
        Speed::from_bits(self.speed.load(Ordering::Acquire))
    }

    /// Sets the speed, which the run follows from its next step (within [`SLOW_STEP`]).
    pub fn set_speed(&self, speed: Speed) {
        self.speed.store(speed.to_bits(), Ordering::Release);
    }

    /// Whether the run should stop: Stop, or no page watching it for [`UNWATCHED_LIMIT`]
    /// since it was asked for (which then counts as Stop, for good). The engine asks it
    /// too, inside a step ([`EngineProgress::cancelled`]), at any speed.
    pub fn should_stop(&self) -> bool {
        if !self.stop.load(Ordering::Acquire)
            && !self.watched.load(Ordering::Acquire)
            && self.started.elapsed() > UNWATCHED_LIMIT
        {
            self.stop();
        }
        self.stop.load(Ordering::Acquire)
    }

    /// Runs the run at the speed set, a step every [`SLOW_STEP`], until it ends, is
    /// stopped, or the speed is set to full, from where `at` says (its whole units
    /// counted in `self.counter`). `step` is [`LiveRun::stepped`]'s; it is handed a
    /// progress that counts nothing (the pace sets the count) but is cancelled by Stop, and
    /// a step cut short is thrown away.
    pub(super) fn slow_steps<Add, Apply>(
        &self,
        engine: &mut Engine,
        units: Units,
        at: &mut Stepped,
        step: &mut impl FnMut(&Engine, u64, &dyn EngineProgress) -> Add,
    ) -> Slow
    where
        Add: FnOnce() -> Apply + Send,
        Apply: FnOnce(&mut Progress),
    {
        let threads = engine.threads();
        let mut shown = self.lock().trials;
        let (done, elapsed) = (&mut at.done, &mut at.elapsed);
        let mut committed = at.committed.take().unwrap_or_else(|| {
            let progress = self.lock();
            Progress {
                tally: progress.tally.clone(),
                orders: progress.orders.clone(),
                ..Progress::default()
            }
        });
        let mut paced: Option<Pace> = None;
        loop {
            if self.should_stop() {
                return Slow::Ended(Phase::Stopped);
            }
            let speed = match self.speed() {
                Speed::Full => {
                    let beyond = shown > units.done_at(*done);
                    self.counter.0.store(units.done_at(*done), Ordering::Relaxed);
                    at.committed = beyond.then_some(committed);
                    return Slow::Full;
                }
                Speed::PerSecond(speed) => speed.get(),
            };
            let now = Instant::now();
            let pace = match paced {
                Some(pace) if pace.speed == speed => pace,
                _ => *paced.insert(Pace {
                    speed,
                    from: shown,
                    since: now,
                }),
            };
            let mut target = pace.allowed(now).min(units.total);
            let whole = (target / units.unit).min(units.count());
            if !units.partial {
                target = units.done_at(whole);
            }
            if target > shown {
                let started = Instant::now();
                if whole > *done {
                    engine.skip_chunks_before(*done);
                    let add = step(engine, units.done_at(whole), &Cancellable(self));
                    if self.should_stop() {
                        return Slow::Ended(Phase::Stopped);
                    }
                    add()(&mut committed);
                    *done = whole;
                }
                let mut view = Progress {
                    tally: committed.tally.clone(),
                    orders: committed.orders.clone(),
                    ..Progress::default()
                };
                if target > units.done_at(*done) {
                    engine.skip_chunks_before(*done);
                    let add = step(engine, target, &Cancellable(self));
                    if self.should_stop() {
                        return Slow::Ended(Phase::Stopped);
                    }
                    add()(&mut view);
                }
                *elapsed += started.elapsed();
                shown = target;
                self.counter.0.store(target, Ordering::Relaxed);
                let (elapsed, units_touched) = (*elapsed, target.div_ceil(units.unit));
                self.update(|progress| {
                    progress.tally = view.tally;
                    progress.orders = view.orders;
                    progress.trials = target;
                    progress.units = units_touched;
                    progress.threads = threads;
                    progress.elapsed = elapsed;
                });
                if target >= units.total {
                    return Slow::Ended(Phase::Done);
                }
            }
            // Until the next step is due (at once when this one took longer) and a deal
            // is allowed by then, looking at Stop and the speed meanwhile.
            let wake = (now + SLOW_STEP).max(pace.next_at(shown));
            while Instant::now() < wake {
                if self.should_stop() || self.speed().to_bits() != pace.speed {
                    break;
                }
                std::thread::sleep(GLANCE.min(wake.saturating_duration_since(Instant::now())));
            }
        }
    }
}

#[cfg(test)]
mod tests;
