//! `run`: simulate catalogue algorithms, tally, test, and collect the findings.
//!
//! This is the library behind `shuffle-audit run`. It validates the settings (so that
//! the command line can only fail with a one-line error), fixes the seed (from the OS if
//! none was given, recorded so that the run can be repeated), and runs each algorithm on
//! the same engine with the same seed, one after the other.
//!
//! A run holds either shuffles (decks of `n` cards) or samplers (`k` of `n` items, with
//! `--k`), never both: their outcomes, tallies and tests differ, and a report that mixed
//! them would compare orders with subsets. Shuffle results and sampler results are kept in
//! two lists for the same reason, so that the shuffle path is untouched by samplers.

use std::borrow::Cow;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::analysis::{PermutationAnalysis, SelectionAnalysis, analyse_permutations, analyse_selections};
use crate::catalogue::{
    AlgorithmSpec, CatalogueEntry, Expectation, Graded, Kind, PermutationAlgorithm, SAMPLERS,
    SamplerAlgorithm,
};
use crate::error::{Error, Result};
use crate::exact::check::{SimulatorCheck, check_simulation};
use crate::format::group_thousands;
use crate::randomness::{SourceKind, seed_from_os};
use crate::simulate::{
    CHUNK_TRIALS, Engine, Progress, Shard, check_thread_count, simulate_permutations, simulate_selections,
};
use crate::stats::Thresholds;
use crate::tally::lehmer::MAX_RANKED_N;
use crate::tally::subsets::{is_tallied, ordered_cells, subset_cells};
use crate::tally::{PermutationRecorder, PermutationTally, SelectionRecorder, SelectionTally, TallyOptions};

mod identity;
mod predictability;
pub use identity::RunIdentity;
pub use predictability::{GeneratorCheck, Outcome, Predictability, Predictable, Reseeded, Verdict};

/// The largest deck `run` accepts ([`crate::tally::MAX_N`]).
pub use crate::tally::MAX_N;

/// The most memory the workers' tallies may take together (each thread has its own).
pub const MAX_TALLY_BYTES: u64 = 4 << 30;

/// What the user asked for.
#[derive(Clone, Debug, PartialEq)]
pub struct RunSettings {
    /// Cards in the deck, or items to pick from.
    pub n: usize,
    /// Items each sampler picks (`--k`); `None` for shuffles, required for samplers.
    pub k: Option<usize>,
    /// Shuffles (or samples) per algorithm.
    pub trials: u64,
    /// The seed; `None` takes one from the operating system.
    pub seed: Option<u64>,
    /// Worker threads.
    pub threads: usize,
    /// Significance level for `fail`.
    pub alpha: f64,
    /// Run only this shard of the run (`--shard I/K`); `None` runs it whole. A shard
    /// needs a seed: every shard must draw from the same one.
    pub shard: Option<Shard>,
    /// The randomness under the algorithms (`--source`).
    pub source: SourceKind,
}

impl RunSettings {
    /// Checks every setting against the algorithms to run, so that a run never starts with
    /// a value it cannot honour.
    pub fn validate(&self, algorithms: &[AlgorithmSpec]) -> Result<Thresholds> {
        let bad = |option, problem: String| Err(Error::BadOption { option, problem });
        if self.n < 2 {
            return bad(
                "--n",
                format!(
                    "must be at least 2 (got {}): {}",
                    self.n,
                    if self.k.is_some() {
                        "fewer items leave nothing to choose between"
                    } else {
                        "a deck of fewer cards has only one order"
                    }
                ),
            );
        }
        if self.n > MAX_N {
            return bad("--n", format!("must be at most {MAX_N} (got {})", self.n));
        }
        if self.trials == 0 {
            return bad("--trials", "must be at least 1".to_string());
        }
        self.check_shard()?;
        check_thread_count(self.threads)?;
        check_families(algorithms, self.k)?;
        if let Some(k) = self.k
            && !(1..self.n).contains(&k)
        {
            let why = if k == 0 {
                "picking no item has only one subset"
            } else if k == self.n {
                "picking all n items has only one subset"
            } else {
                "a sample cannot pick more items than there are"
            };
            return bad(
                "--k",
                format!("must be between 1 and n-1 (got {k} with --n {}): {why}", self.n),
            );
        }
        let (per_thread, size) = match self.k {
            None => (
                algorithms
                    .iter()
                    .filter_map(|spec| spec.algorithm.as_permutation())
                    .map(|algorithm| {
                        PermutationRecorder::footprint(self.n, tally_options(algorithm, self.n, self.source))
                    })
                    .max()
                    .unwrap_or(0),
                format!("n = {}", self.n),
            ),
            Some(k) => (
                samplers(algorithms)
                    .map(|sampler| SelectionRecorder::footprint(self.n, k, sampler.promises_order()))
                    .max()
                    .unwrap_or(0),
                format!("n = {}, k = {k}", self.n),
            ),
        };
        let threads = self.threads_used() as u64;
        if threads * per_thread > MAX_TALLY_BYTES {
            return bad(
                "--threads",
                format!(
                    "{threads} would hold {:.1} GB of tallies for {size} ({:.1} MB per thread); use at most {}",
                    (threads * per_thread) as f64 / 1e9,
                    per_thread as f64 / 1e6,
                    MAX_TALLY_BYTES / per_thread
                ),
            );
        }
        Thresholds::new(self.alpha)
    }

    /// A shard needs a seed and at least one chunk of its own.
    fn check_shard(&self) -> Result<()> {
        let Some(shard) = self.shard else {
            return Ok(());
        };
        if self.seed.is_none() {
            return Err(Error::BadOption {
                option: "--shard",
                problem: format!("{shard} needs --seed: every shard of a run must draw from the same seed"),
            });
        }
        let chunks = self.trials.div_ceil(CHUNK_TRIALS);
        // Every shard of the split must get a chunk, not only this one: a split with more
        // shards than chunks could never be completed (its last shards are refused).
        if shard.count > chunks {
            let (plural, advice) = if chunks == 1 {
                ("", "run it whole".to_string())
            } else {
                ("s", format!("cut the run into at most {chunks} shards"))
            };
            return Err(Error::BadOption {
                option: "--shard",
                problem: format!(
                    "{shard}: {} trials make only {chunks} chunk{plural} of {}, so shard {} would run \
                     nothing; {advice}",
                    group_thousands(self.trials),
                    group_thousands(CHUNK_TRIALS),
                    if shard.chunk_count(self.trials) == 0 {
                        shard.index
                    } else {
                        shard.count
                    }
                ),
            });
        }
        Ok(())
    }

    /// The shard this run is: the one given, or the whole run.
    pub fn shard_or_whole(&self) -> Shard {
        self.shard.unwrap_or(Shard::WHOLE)
    }

    /// The trials per algorithm this run tallies: all of them, or its shard's share.
    pub fn tallied_trials(&self) -> u64 {
        self.shard_or_whole().trials(self.trials)
    }

    /// The worker threads the run will start: more than one per chunk would idle.
    pub fn threads_used(&self) -> usize {
        let chunks = self.shard_or_whole().chunk_count(self.trials).max(1);
        self.threads.min(usize::try_from(chunks).unwrap_or(usize::MAX))
    }

    /// Things the user should know before the run of `algorithms` starts (each one line).
    pub fn notes(&self, algorithms: &[AlgorithmSpec]) -> Vec<String> {
        let mut notes = Vec::new();
        if let Some(k) = self.k {
            let n = self.n;
            if !is_tallied(subset_cells(n, k)) {
                notes.push(format!(
                    "C({n}, {k}) subsets are more than 10! = 3,628,800: the subsets test is skipped \
                     (too many to tally); the inclusion test runs"
                ));
            }
            let ordered: Vec<&str> = algorithms
                .iter()
                .filter(|spec| spec.algorithm.as_sampler().is_some_and(|s| s.promises_order()))
                .map(|spec| spec.entry.name)
                .collect();
            if !ordered.is_empty() && !is_tallied(ordered_cells(n, k)) {
                notes.push(format!(
                    "{n}!/{}! ordered selections are more than 10! = 3,628,800: the ordered test of {} \
                     is skipped (too many to tally)",
                    n - k,
                    ordered.join(", ")
                ));
            }
            return notes;
        }
        if self.n > MAX_RANKED_N {
            notes.push(format!(
                "n = {} > {MAX_RANKED_N}: the permutation test is skipped ({}! orders are too many to tally); \
                 the position, fixed-point, cycle and rising-sequence tests run",
                self.n, self.n
            ));
        }
        notes
    }
}

/// Where the seed came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeedOrigin {
    /// `--seed` was given.
    Given,
    /// Taken from the operating system for this run.
    OperatingSystem,
}

impl SeedOrigin {
    /// The seed a run uses: the one given, or a fresh one from the operating system.
    pub fn fix(seed: Option<u64>) -> Result<(u64, SeedOrigin)> {
        match seed {
            Some(seed) => Ok((seed, SeedOrigin::Given)),
            None => Ok((seed_from_os()?, SeedOrigin::OperatingSystem)),
        }
    }
}

/// What a result is about: a summary and an origin for its heading, and the names of its
/// cards (or items). Catalogue algorithms number their cards 1..n; samples read by
/// `ingest` name them by the tokens of the input, which every output then shows.
#[derive(Clone, Debug, PartialEq)]
pub struct About {
    /// One line saying what it is.
    pub summary: Cow<'static, str>,
    /// Where it comes from (a source text, or the input that was read).
    pub origin: Cow<'static, str>,
    /// The name of each card or item, from card 0; `None` numbers them from 1.
    pub labels: Option<Arc<[String]>>,
}

impl About {
    /// A catalogue entry's summary and origin, cards numbered from 1.
    pub fn of(entry: &'static CatalogueEntry) -> Self {
        Self {
            summary: Cow::Borrowed(entry.summary),
            origin: Cow::Borrowed(entry.origin),
            labels: None,
        }
    }

    /// Nothing to say, cards numbered: for a user's shuffle, and for tables whose rows are
    /// places rather than cards (each deal in terms of the one before).
    pub fn numbered() -> Self {
        Self {
            summary: Cow::Borrowed(""),
            origin: Cow::Borrowed(""),
            labels: None,
        }
    }

    /// The name of card (or item) `index` (from 0): its token, or `index + 1`.
    pub fn label(&self, index: usize) -> String {
        match &self.labels {
            Some(labels) => labels[index].clone(),
            None => (index + 1).to_string(),
        }
    }

    /// Cards from 0 (an order or a subset), each by [`About::label`], separated by spaces.
    pub fn labels_of(&self, cards: &[u16]) -> String {
        cards
            .iter()
            .map(|&card| self.label(usize::from(card)))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// One algorithm's tally and findings.
#[derive(Clone, Debug)]
pub struct AlgorithmResult {
    /// Its name as it ran, parameters included (`naive-repeated:3`).
    pub name: String,
    /// What it is, where it comes from, and what its cards are called.
    pub about: About,
    /// The verdict it is known to get at this deck size.
    pub expected: Expectation,
    /// What came out.
    pub tally: PermutationTally,
    /// What the statistics say.
    pub analysis: PermutationAnalysis,
    /// The tally against the algorithm's exact law, where that law is quick to
    /// enumerate: a check of the simulator, not part of the verdict.
    pub simulator_check: Option<SimulatorCheck>,
    /// Wall-clock time of its simulation.
    pub elapsed: Duration,
}

/// One sampler's tally and findings.
#[derive(Clone, Debug)]
pub struct SamplerResult {
    /// Its name.
    pub name: String,
    /// What it is, where it comes from, and what its items are called.
    pub about: About,
    /// What ran; `None` for samples read from elsewhere (`ingest`).
    pub sampler: Option<SamplerAlgorithm>,
    /// The verdict it is known to get at this size.
    pub expected: Expectation,
    /// What came out.
    pub tally: SelectionTally,
    /// What the statistics say.
    pub analysis: SelectionAnalysis,
    /// Wall-clock time of its simulation.
    pub elapsed: Duration,
}

/// A finished run.
#[derive(Clone, Debug)]
pub struct RunReport {
    /// The settings, seed fixed.
    pub settings: RunSettings,
    /// The seed every algorithm ran with.
    pub seed: u64,
    /// Where it came from.
    pub seed_origin: SeedOrigin,
    /// Threads actually used.
    pub threads: usize,
    /// Wall-clock time of the whole run.
    pub elapsed: Duration,
    /// One per shuffle, in the order given (empty in a sampler run).
    pub results: Vec<AlgorithmResult>,
    /// One per sampler, in the order given (empty in a shuffle run).
    pub sampler_results: Vec<SamplerResult>,
    /// The notes printed before the run ([`RunSettings::notes`]).
    pub notes: Vec<String>,
    /// For samples read from another program (`ingest`), where they came from; `None`
    /// for a simulation, whose `seed` is then the one it ran with. An ingested report's
    /// `seed` means nothing and no output shows it.
    pub input: Option<SampleInput>,
}

/// Where the samples of an ingested report came from, and what was read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SampleInput {
    /// The file name, or `standard input`.
    pub source: String,
    /// Lines read, blank lines and comments included.
    pub lines: u64,
    /// Lines skipped as malformed (`--skip-invalid`), by reason.
    pub skipped: Vec<SkippedLines>,
    /// The command that reads the same input the same way.
    pub command: String,
    /// How the deck was fixed (`the first line`, `--deck`).
    pub deck_from: &'static str,
    /// Whether the deals give away the generator that dealt them (decks of any size
    /// cards; `None` for smaller decks, selections and streams).
    pub predictability: Option<Predictability>,
}

impl SampleInput {
    /// The generator recovered from the deals, when they are predictable.
    pub fn predictable(&self) -> Option<&Predictable> {
        self.predictability.as_ref()?.found.as_ref()
    }
}

impl SampleInput {
    /// Lines skipped as malformed, all reasons together.
    pub fn skipped_total(&self) -> u64 {
        self.skipped.iter().map(|skipped| skipped.count).sum()
    }
}

/// Malformed lines of one kind, skipped (`--skip-invalid`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkippedLines {
    /// Why: `wrong number of items`, `unknown item`, `item repeated`, `invalid token`.
    pub reason: &'static str,
    /// How many lines.
    pub count: u64,
    /// The first of them (from 1, counting every line).
    pub first_line: u64,
}

impl RunReport {
    /// Shuffles (or samples) per second over the whole run, all algorithms together.
    pub fn trials_per_second(&self) -> f64 {
        let total = self.settings.tallied_trials() as f64 * self.algorithm_count() as f64;
        total / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// How many algorithms ran.
    pub fn algorithm_count(&self) -> usize {
        self.results.len() + self.sampler_results.len()
    }

    /// Every result's verdict beside the one it should get, in order.
    pub fn graded(&self) -> Vec<Graded> {
        self.results
            .iter()
            .map(|result| (&result.name, result.expected, result.analysis.verdict))
            .chain(
                self.sampler_results
                    .iter()
                    .map(|result| (&result.name, result.expected, result.analysis.verdict)),
            )
            .map(|(name, expected, verdict)| Graded {
                name: name.clone(),
                expected,
                verdict,
            })
            .collect()
    }

    /// Whether every verdict is the one it should be.
    pub fn all_as_expected(&self) -> bool {
        self.graded().iter().all(Graded::as_expected)
    }

    /// The names of the algorithms that ran, in order.
    pub fn names(&self) -> Vec<&str> {
        self.results
            .iter()
            .map(|result| result.name.as_str())
            .chain(self.sampler_results.iter().map(|result| result.name.as_str()))
            .collect()
    }
}

/// The samplers among `algorithms`.
fn samplers(algorithms: &[AlgorithmSpec]) -> impl Iterator<Item = SamplerAlgorithm> + '_ {
    algorithms.iter().filter_map(|spec| spec.algorithm.as_sampler())
}

/// One run holds one family, and `--k` goes with samplers only.
fn check_families(algorithms: &[AlgorithmSpec], k: Option<usize>) -> Result<()> {
    let first = |kind| {
        algorithms
            .iter()
            .find(|spec| spec.kind() == kind)
            .map(|spec| spec.entry.name)
    };
    match (first(Kind::Shuffle), first(Kind::Sampler), k) {
        (Some(shuffle), Some(sampler), _) => Err(Error::Usage(format!(
            "one run holds shuffles or samplers, not both: {shuffle} is a shuffle and {sampler} a sampler; \
             run them separately"
        ))),
        (None, Some(sampler), None) => Err(Error::Usage(format!(
            "{sampler} is a sampler: give --k (how many of the n items it picks)"
        ))),
        (Some(shuffle), None, Some(_)) => {
            let names: Vec<&str> = SAMPLERS.iter().map(|entry| entry.name).collect();
            Err(Error::BadOption {
                option: "--k",
                problem: format!(
                    "applies to samplers ({}); {shuffle} is a shuffle",
                    names.join(", ")
                ),
            })
        }
        _ => Ok(()),
    }
}

/// A shuffle's tally with everything the statistics say about it, as every report of a
/// run shows it (`run` and `merge` both come here); `elapsed` is left at zero for the
/// caller to fill in.
///
/// # Panics
/// If `spec` is not a shuffle.
pub(crate) fn shuffle_result(
    engine: &Engine,
    spec: &AlgorithmSpec,
    tally: PermutationTally,
    thresholds: &Thresholds,
) -> AlgorithmResult {
    let algorithm = spec.algorithm.as_permutation().expect("a shuffle");
    let n = tally.n;
    let analysis = analyse_permutations(&tally, thresholds);
    // The check compares the tally with the law under fair draws: a flawed source is meant
    // to break that law, so there is nothing to check the simulator against.
    let simulator_check = engine
        .source()
        .is_default()
        .then(|| engine.install(|| check_simulation(algorithm, &tally)))
        .flatten();
    AlgorithmResult {
        name: spec.display_name(n),
        about: About::of(spec.entry),
        expected: spec.expected_at(n),
        tally,
        analysis,
        simulator_check,
        elapsed: Duration::ZERO,
    }
}

/// A sampler's tally with everything the statistics say about it, as every report of a
/// run shows it; `elapsed` is left at zero for the caller to fill in.
///
/// # Panics
/// If `spec` is not a sampler.
pub(crate) fn sampler_result(
    spec: &AlgorithmSpec,
    tally: SelectionTally,
    thresholds: &Thresholds,
) -> SamplerResult {
    let sampler = spec.algorithm.as_sampler().expect("a sampler");
    let n = tally.n;
    SamplerResult {
        name: spec.display_name(n),
        about: About::of(spec.entry),
        sampler: Some(sampler),
        expected: spec.expected_at(n),
        analysis: analyse_selections(&tally, sampler, thresholds),
        tally,
        elapsed: Duration::ZERO,
    }
}

/// The tables a run tallies for `algorithm` on `n` cards drawing from `source`.
///
/// Every run tallies the deals themselves (orders up to 10 cards, positions, fixed points,
/// cycles, rising sequences). Deals are also tallied in order (the relative permutations
/// of consecutive deals, and repeated decks where a fair shuffle almost never repeats
/// one in a chunk) unless they are independent by construction: a shuffle that starts
/// every deal from the fresh deck (it carries nothing from one deal to the next) drawing
/// from xoshiro, whose streams are independent. A dealer who carries the deck, and every
/// flawed source (an LCG's consecutive draws, a clock read before every deal), are tested.
pub fn tally_options(algorithm: PermutationAlgorithm, n: usize, source: SourceKind) -> TallyOptions {
    let independent = !algorithm.carries_deck_between_deals() && source.is_default();
    TallyOptions {
        serial: !independent,
        repeats: !independent && crate::simulate::repeats_can_show(n),
        ..TallyOptions::default()
    }
}

/// Runs every algorithm in `algorithms` with `settings`.
pub fn run(
    algorithms: &[AlgorithmSpec],
    settings: &RunSettings,
    progress: &dyn Progress,
) -> Result<RunReport> {
    let thresholds = settings.validate(algorithms)?;
    let (seed, seed_origin) = SeedOrigin::fix(settings.seed)?;
    let engine = Engine::new(settings.threads_used())?
        .for_shard(settings.shard_or_whole())
        .with_source(settings.source);
    let started = Instant::now();
    let results = algorithms
        .iter()
        .filter_map(|spec| Some((spec, spec.algorithm.as_permutation()?)))
        .map(|(spec, algorithm)| {
            let algorithm_started = Instant::now();
            let tally = simulate_permutations(
                &engine,
                algorithm,
                settings.n,
                settings.trials,
                seed,
                tally_options(algorithm, settings.n, settings.source),
                progress,
            );
            let result = shuffle_result(&engine, spec, tally, &thresholds);
            AlgorithmResult {
                elapsed: algorithm_started.elapsed(),
                ..result
            }
        })
        .collect();
    let sampler_results = match settings.k {
        None => Vec::new(),
        Some(k) => algorithms
            .iter()
            .filter_map(|spec| Some((spec, spec.algorithm.as_sampler()?)))
            .map(|(spec, sampler)| {
                let algorithm_started = Instant::now();
                let tally =
                    simulate_selections(&engine, sampler, settings.n, k, settings.trials, seed, progress);
                let result = sampler_result(spec, tally, &thresholds);
                SamplerResult {
                    elapsed: algorithm_started.elapsed(),
                    ..result
                }
            })
            .collect(),
    };
    Ok(RunReport {
        settings: RunSettings {
            seed: Some(seed),
            ..settings.clone()
        },
        seed,
        seed_origin,
        threads: engine.threads(),
        elapsed: started.elapsed(),
        results,
        sampler_results,
        notes: settings.notes(algorithms),
        input: None,
    })
}

#[cfg(test)]
mod tests;
