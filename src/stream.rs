//! `stream`: run endless item generators (i.i.d. picks, shuffle bags) as many independent
//! streams in parallel, tally what they deal, and test it.
//!
//! This is the library behind `shuffle-audit stream`. As with `run`, the settings are
//! validated first (so the command line fails only with one-line errors), the seed is
//! fixed (from the OS if none was given), and each generator runs on the same engine with
//! the same seed: stream `s` of every generator draws from the same source stream, so
//! results depend on the seed and never on the thread count.

pub mod analysis;
/// The items a stream draws from, defined beside the generators that deal them
/// ([`crate::catalogue::items`]) and found here too, where a stream's user looks.
pub use crate::catalogue::items;

use std::borrow::Cow;
use std::time::{Duration, Instant};

use crate::catalogue::generators::{
    BagShape, Generator, GeneratorKind, GeneratorSpec, MAX_BAG_SLOTS, StreamScenario,
};
use crate::catalogue::{Expectation, Graded};
use crate::error::{Error, Result};
use crate::format::group_thousands;
use crate::randomness::SimulationSource;
use crate::run::MAX_TALLY_BYTES;
use crate::run::{About, SampleInput, SeedOrigin};
use crate::simulate::{ChunkProgress, Engine, Progress, check_thread_count, play_stream_game};
use crate::stats::Thresholds;
use crate::stats::pooling::MIN_EXPECTED;
use crate::tally::item_game::FairLaw;
use crate::tally::stream::{CycleLayout, Deal, StreamLayout, StreamRecorder, StreamTally};

use crate::catalogue::items::Items;
use analysis::{StreamAnalysis, Theory, analyse_stream};

/// The most bins the cycle-position table groups a bag's positions into.
pub const MAX_CYCLE_BINS: u64 = 100;

/// Draws between two progress reports inside one stream.
const PROGRESS_EVERY: u64 = 1 << 20;

/// What the user asked for.
#[derive(Clone, Debug, PartialEq)]
pub struct StreamSettings {
    /// The items and their intended weights.
    pub items: Items,
    /// Draws per stream.
    pub length: u64,
    /// Independent streams per generator.
    pub streams: u64,
    /// The seed; `None` takes one from the operating system.
    pub seed: Option<u64>,
    /// Worker threads.
    pub threads: usize,
    /// Significance level for `fail`.
    pub alpha: f64,
    /// Mid-sequence additions, for the bags with a cursor.
    pub scenario: StreamScenario,
    /// The randomness under the generators (`--source`).
    pub source: crate::randomness::SourceKind,
}

impl StreamSettings {
    /// Checks every setting against every generator, so that a run never starts with a
    /// value it cannot honour.
    pub fn validate(&self, generators: &[GeneratorSpec]) -> Result<Thresholds> {
        let bad = |option, problem: String| Err(Error::BadOption { option, problem });
        if self.length < 2 {
            return bad(
                "--length",
                format!("must be at least 2 draws (got {})", self.length),
            );
        }
        if self.streams == 0 {
            return bad("--streams", "must be at least 1".to_string());
        }
        if self.length.checked_mul(self.streams).is_none() {
            return bad(
                "--streams",
                format!(
                    "{} streams of {} draws exceed 2^64 draws",
                    self.streams, self.length
                ),
            );
        }
        check_thread_count(self.threads)?;
        if self.scenario.add_every == Some(0) {
            return bad("--add-every", "must be at least 1 draw".to_string());
        }
        if self.scenario.add_every.is_some() && !generators.iter().any(GeneratorSpec::takes_additions) {
            return bad(
                "--add-every",
                "applies to the bags with a cursor (shuffle-bag, shuffle-bag-csharp, boggle-truncated, boggle-rounded), and none is being run".to_string(),
            );
        }
        let threads = self.threads_used() as u64;
        for generator in generators {
            let largest = generator.largest_bag(&self.items, &self.effective_scenario(), self.length)?;
            if largest > MAX_BAG_SLOTS {
                return Err(Error::BadGenerator {
                    spec: generator.display_name(),
                    problem: format!(
                        "its bag would grow to {} slots over {} draws (at most {}); add less often or draw fewer",
                        group_thousands(largest),
                        group_thousands(self.length),
                        group_thousands(MAX_BAG_SLOTS)
                    ),
                });
            }
            let per_thread = self.footprint(largest);
            if threads.saturating_mul(per_thread) > MAX_TALLY_BYTES {
                return bad(
                    "--threads",
                    format!(
                        "{threads} would hold {:.1} GB for {} ({:.0} MB per thread); use at most {}",
                        (threads * per_thread) as f64 / 1e9,
                        generator.display_name(),
                        per_thread as f64 / 1e6,
                        (MAX_TALLY_BYTES / per_thread).max(1)
                    ),
                );
            }
        }
        Thresholds::new(self.alpha)
    }

    /// The scenario as it plays out: additions every M draws happen only if a stream is
    /// longer than M.
    pub fn effective_scenario(&self) -> StreamScenario {
        StreamScenario {
            add_every: self.scenario.add_every.filter(|&every| every < self.length),
        }
    }

    /// An upper bound on the memory one worker holds for a generator whose bag reaches
    /// `bag_slots` slots: the bag and its refill copy (2 bytes a slot each), the previous
    /// cycle and the position lookup (6 bytes a slot), and each item's dense run and gap
    /// histograms.
    fn footprint(&self, bag_slots: u64) -> u64 {
        let histograms = self.items.len() as u64 * 2 * 4096 * 8;
        bag_slots.saturating_mul(4 + 6).saturating_add(histograms).max(1)
    }

    /// The worker threads the run will start: more than one per stream would idle.
    pub fn threads_used(&self) -> usize {
        self.threads
            .min(usize::try_from(self.streams).unwrap_or(usize::MAX))
    }
}

/// One generator's tally and findings.
#[derive(Clone, Debug)]
pub struct StreamResult {
    /// Its name as it ran (`unrandomness:1`), or the input it was read from.
    pub name: String,
    /// What it is and where it comes from: its catalogue entry's summary and origin, or
    /// for a stream read by `ingest` the input's.
    pub about: About,
    /// The verdict it is known to get on these items.
    pub expected: Expectation,
    /// How it deals, for bag generators (cycles aligned with the stream start).
    pub shape: Option<BagShape>,
    /// Whether `--add-every` applied to it.
    pub additions: bool,
    /// What came out.
    pub tally: StreamTally,
    /// What the statistics say.
    pub analysis: StreamAnalysis,
    /// Wall-clock time of its streams.
    pub elapsed: Duration,
}

/// A finished `stream` run.
#[derive(Clone, Debug)]
pub struct StreamReport {
    /// The settings, seed fixed.
    pub settings: StreamSettings,
    /// The seed every generator ran with.
    pub seed: u64,
    /// Where it came from.
    pub seed_origin: SeedOrigin,
    /// Threads actually used.
    pub threads: usize,
    /// Wall-clock time of the whole run.
    pub elapsed: Duration,
    /// One per generator, in the order given.
    pub results: Vec<StreamResult>,
    /// For a stream read by `ingest` rather than generated: what was read (the seed is
    /// then meaningless).
    pub input: Option<SampleInput>,
    /// Notes on what the findings can and cannot show (printed, and kept in the exports).
    pub notes: Vec<String>,
}

impl StreamReport {
    /// Every generator's verdict beside the one it should get, in order.
    pub fn graded(&self) -> Vec<Graded> {
        self.results
            .iter()
            .map(|result| Graded {
                name: result.name.clone(),
                expected: result.expected,
                verdict: result.analysis.verdict,
            })
            .collect()
    }

    /// Whether every verdict is the one it should be.
    pub fn all_as_expected(&self) -> bool {
        self.graded().iter().all(Graded::as_expected)
    }

    /// Draws per second over the whole run.
    pub fn draws_per_second(&self) -> f64 {
        let total = self.settings.length as f64 * self.settings.streams as f64 * self.results.len() as f64;
        total / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// Runs every generator with `settings`.
pub fn run_streams(
    generators: &[GeneratorSpec],
    settings: &StreamSettings,
    progress: &dyn Progress,
) -> Result<StreamReport> {
    let thresholds = settings.validate(generators)?;
    let (seed, seed_origin) = SeedOrigin::fix(settings.seed)?;
    let engine = Engine::new(settings.threads_used())?.with_source(settings.source);
    let started = Instant::now();
    let mut results = Vec::with_capacity(generators.len());
    for spec in generators {
        let generator_started = Instant::now();
        let run = GeneratorRun::new(spec, settings)?;
        let tally = run.tally(&engine, settings.streams, seed, progress);
        results.push(run.result(tally, &thresholds, generator_started.elapsed()));
    }
    Ok(StreamReport {
        settings: StreamSettings {
            seed: Some(seed),
            ..settings.clone()
        },
        seed,
        seed_origin,
        threads: engine.threads(),
        elapsed: started.elapsed(),
        results,
        input: None,
        notes: Vec::new(),
    })
}

/// One generator's run, made ready: the shape of its bag, the law it should follow and
/// the tables its streams are tallied into. [`run_streams`] tallies all its streams at
/// once; the live page (`serve`) tallies them a few at a time
/// ([`Engine::skip_chunks_before`] skips the streams already tallied) and adds the
/// tallies, which gives exactly the same tally, since tallies are counts that add.
pub struct GeneratorRun<'a> {
    spec: &'a GeneratorSpec,
    settings: &'a StreamSettings,
    scenario: StreamScenario,
    shape: Option<BagShape>,
    probabilities: Vec<f64>,
    theory: Theory,
    layout: StreamLayout,
    game_law: Option<FairLaw>,
}

impl<'a> GeneratorRun<'a> {
    /// Prepares `spec`'s run with `settings` (validated already).
    pub fn new(spec: &'a GeneratorSpec, settings: &'a StreamSettings) -> Result<Self> {
        let items = &settings.items;
        let scenario = settings.effective_scenario();
        let shape = spec.shape(items, &scenario)?;
        let probabilities = items.probabilities();
        let bag_slots = spec.bag_copies(items)?.map(|copies| copies.iter().sum());
        let theory = Theory::for_generator(spec.kind, shape.as_ref(), &probabilities);
        let mut layout = layout(settings, shape.as_ref(), bag_slots);
        layout.cycle_gaps = matches!(theory, Theory::OneOfEach(_));
        let game_law = game_law(spec, items, shape.as_ref(), &probabilities)?;
        Ok(Self {
            spec,
            settings,
            scenario,
            shape,
            probabilities,
            theory,
            layout,
            game_law,
        })
    }

    /// Tallies the streams before `end` that `engine` runs (all of them, or those from
    /// the first it does not skip).
    pub fn tally(&self, engine: &Engine, end: u64, seed: u64, progress: &dyn Progress) -> StreamTally {
        let (spec, items, scenario) = (self.spec, &self.settings.items, &self.scenario);
        let recorders = engine.run_streams(
            end.min(self.settings.streams),
            self.settings.length,
            seed,
            progress,
            || StreamRecorder::new(&self.layout),
            |recorder, source, stream_progress| {
                let mut dealer = Dealer {
                    generator: spec.build(items, scenario),
                    source,
                    progress: stream_progress,
                };
                recorder.record_stream(&mut dealer);
            },
        );
        let mut recorders = recorders.into_iter().map(StreamRecorder::finish);
        let mut tally = recorders.next().expect("an engine has at least one worker");
        // A cancelled run's recorders are thrown away by the caller: not added.
        for other in recorders.filter(|_| !progress.cancelled()) {
            tally.merge(&other);
        }
        // The game plays the first streams: a part of the run that starts at the first
        // stream plays it, the same for all.
        if let Some(law) = self
            .game_law
            .as_ref()
            .filter(|_| engine.first_chunk() == 0 && !progress.cancelled())
        {
            tally.guessing = play_stream_game(
                engine,
                spec,
                items,
                scenario,
                law,
                self.settings.streams,
                self.settings.length,
                seed,
            )
            .map(Box::new);
        }
        tally
    }

    /// The tally with what the statistics say about it.
    pub fn result(&self, tally: StreamTally, thresholds: &Thresholds, elapsed: Duration) -> StreamResult {
        let analysis = analyse_stream(
            &tally,
            &self.probabilities,
            self.shape.as_ref(),
            self.theory.clone(),
            thresholds,
        );
        StreamResult {
            name: self.spec.display_name(),
            about: About {
                summary: Cow::Borrowed(self.spec.entry.summary),
                origin: Cow::Borrowed(self.spec.entry.origin),
                labels: None,
            },
            expected: self.spec.expected(&self.settings.items),
            additions: self.scenario.add_every.is_some() && self.spec.takes_additions(),
            shape: self.shape.clone(),
            tally,
            analysis,
            elapsed,
        }
    }
}

/// The law the guessing game scores a generator's draws against, from the stated weights:
/// independent draws for the generators that promise them, the bag a correct generator of
/// its kind deals from for the bags. `None` where no law of the order is promised
/// (`unrandomness:U` moves its weights on purpose) or the cycles do not line up (cursor
/// bags with `--add-every`).
fn game_law(
    spec: &GeneratorSpec,
    items: &Items,
    shape: Option<&BagShape>,
    probabilities: &[f64],
) -> Result<Option<FairLaw>> {
    Ok(match (spec.kind, shape) {
        (GeneratorKind::Iid | GeneratorKind::IfElse | GeneratorKind::Unrandomness { step: 0.0 }, _) => {
            Some(FairLaw::Iid {
                probabilities: probabilities.to_vec(),
            })
        }
        (GeneratorKind::Unrandomness { .. }, _) | (_, None) => None,
        (_, Some(shape)) => spec.stated_copies(items)?.map(|copies| {
            let factor = shape.source_slots / shape.slots.max(1);
            let copies: Vec<u64> = copies.iter().map(|&c| c * factor).collect();
            let slots = copies.iter().sum::<u64>() / factor.max(1);
            FairLaw::Bag { copies, slots }
        }),
    })
}

/// What a generator's streams are tallied into: cycle positions binned so that every
/// cell of the table can expect [`MIN_EXPECTED`] draws, and windows of one bag length
/// (the bag as first filled, for bags that grow; for generators without a bag, the total
/// weight when it is whole, so that an i.i.d. pick compares with the bag it imitates).
fn layout(settings: &StreamSettings, shape: Option<&BagShape>, bag_slots: Option<u64>) -> StreamLayout {
    let cycle = shape.filter(|shape| shape.slots >= 2).map(|shape| {
        let cycles = (settings.length / shape.slots).saturating_mul(settings.streams);
        // Expected draws of item i in a bin of g positions: cycles · g · c_i / S.
        let rarest = shape
            .source_copies
            .iter()
            .filter(|&&c| c > 0)
            .map(|&c| c as f64 * shape.slots as f64 / shape.source_slots as f64)
            .fold(f64::INFINITY, f64::min);
        let mut bins = shape.slots.min(MAX_CYCLE_BINS);
        while bins > 1 {
            let narrowest = (shape.slots / bins) as f64;
            if cycles as f64 * narrowest * rarest / shape.slots as f64 >= MIN_EXPECTED {
                break;
            }
            bins -= 1;
        }
        CycleLayout::new(shape.slots, bins.max(2), shape.exact)
    });
    let window_length = match (shape, bag_slots) {
        (Some(shape), _) => Some(shape.slots),
        (None, Some(slots)) => Some(slots),
        (None, None) => iid_window(&settings.items),
    };
    StreamLayout {
        items: settings.items.len(),
        length: settings.length,
        cycle,
        cycle_gaps: false,
        window: window_length
            .filter(|&length| length >= 1 && length <= settings.length)
            .map(|length| (length, settings.items.units.clone())),
    }
}

/// The window an i.i.d. pick is compared in: the total weight when every weight is whole,
/// so that it compares with the bag it imitates.
pub fn iid_window(items: &Items) -> Option<u64> {
    items.whole_weights().map(|weights| weights.iter().sum::<u64>())
}

/// Deals one stream from a generator, reporting progress every [`PROGRESS_EVERY`] draws,
/// and ending the stream there, short, once the run is cancelled (its tally is then thrown
/// away: see [`crate::simulate::Progress::cancelled`]).
struct Dealer<'a, 'p> {
    generator: Generator,
    source: &'a mut SimulationSource,
    progress: &'a ChunkProgress<'p>,
}

impl Deal for Dealer<'_, '_> {
    fn deal(&mut self, count: u64, sink: &mut impl FnMut(u16)) {
        let mut left = count;
        while left > 0 {
            let block = left.min(PROGRESS_EVERY);
            crate::with_source!(&mut *self.source, |source| self
                .generator
                .draw_each(source, block, sink));
            self.progress.done(block);
            left -= block;
            if self.progress.cancelled() {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests;
