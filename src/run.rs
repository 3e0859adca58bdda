//! `run`: simulate catalogue algorithms, tally, test, and collect the findings.
//!
//! This is the library behind `shuffle-audit run`. It validates the settings (so that
//! the command line can only fail with a one-line error), fixes the seed (from the OS if
//! none was given, recorded so that the run can be repeated), and runs each algorithm on
//! the same engine with the same seed, one after the other.

use std::time::{Duration, Instant};

use crate::analysis::{PermutationAnalysis, analyse_permutations};
use crate::catalogue::{AlgorithmSpec, CatalogueEntry, Expectation};
use crate::error::{Error, Result};
use crate::randomness::seed_from_os;
use crate::simulate::{CHUNK_TRIALS, Engine, MAX_THREADS, Progress, simulate_permutations};
use crate::stats::Thresholds;
use crate::tally::lehmer::MAX_RANKED_N;
use crate::tally::{PermutationRecorder, PermutationTally, TallyOptions};

/// The largest deck `run` accepts: its position matrix is `n²` counters per thread.
pub const MAX_N: usize = 2_000;

/// The most memory the workers' tallies may take together (each thread has its own).
pub const MAX_TALLY_BYTES: u64 = 4 << 30;

/// What the user asked for.
#[derive(Clone, Debug, PartialEq)]
pub struct RunSettings {
    /// Cards in the deck.
    pub n: usize,
    /// Shuffles per algorithm.
    pub trials: u64,
    /// The seed; `None` takes one from the operating system.
    pub seed: Option<u64>,
    /// Worker threads.
    pub threads: usize,
    /// Significance level for `fail`.
    pub alpha: f64,
}

impl RunSettings {
    /// Checks every setting, so that a run never starts with a value it cannot honour.
    pub fn validate(&self) -> Result<Thresholds> {
        let bad = |option, problem: String| Err(Error::BadOption { option, problem });
        if self.n < 2 {
            return bad(
                "--n",
                format!(
                    "must be at least 2 (got {}): a deck of fewer cards has only one order",
                    self.n
                ),
            );
        }
        if self.n > MAX_N {
            return bad("--n", format!("must be at most {MAX_N} (got {})", self.n));
        }
        if self.trials == 0 {
            return bad("--trials", "must be at least 1".to_string());
        }
        if !(1..=MAX_THREADS).contains(&self.threads) {
            return bad(
                "--threads",
                format!("must be between 1 and {MAX_THREADS} (got {})", self.threads),
            );
        }
        let per_thread = PermutationRecorder::footprint(self.n, TallyOptions::default());
        let threads = self.threads_used() as u64;
        if threads * per_thread > MAX_TALLY_BYTES {
            return bad(
                "--threads",
                format!(
                    "{threads} would hold {:.1} GB of tallies for n = {} ({:.1} MB per thread); use at most {}",
                    (threads * per_thread) as f64 / 1e9,
                    self.n,
                    per_thread as f64 / 1e6,
                    MAX_TALLY_BYTES / per_thread
                ),
            );
        }
        Thresholds::new(self.alpha)
    }

    /// The worker threads the run will start: more than one per chunk would idle.
    pub fn threads_used(&self) -> usize {
        let chunks = self.trials.div_ceil(CHUNK_TRIALS).max(1);
        self.threads.min(usize::try_from(chunks).unwrap_or(usize::MAX))
    }

    /// Things the user should know before the run starts (each one line).
    pub fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        if self.n > MAX_RANKED_N {
            notes.push(format!(
                "n = {} > {MAX_RANKED_N}: the permutation test is skipped ({}! orders are too many to tally); \
                 the position, fixed-point and cycle tests run",
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

/// One algorithm's tally and findings.
#[derive(Clone, Debug)]
pub struct AlgorithmResult {
    /// Its name as it ran, parameters included (`naive-repeated:3`).
    pub name: String,
    /// Its catalogue entry.
    pub entry: &'static CatalogueEntry,
    /// The verdict it deserves at this deck size.
    pub expected: Expectation,
    /// What came out.
    pub tally: PermutationTally,
    /// What the statistics say.
    pub analysis: PermutationAnalysis,
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
    /// One per algorithm, in the order given.
    pub results: Vec<AlgorithmResult>,
}

impl RunReport {
    /// Shuffles per second over the whole run, all algorithms together.
    pub fn trials_per_second(&self) -> f64 {
        let total = self.settings.trials as f64 * self.results.len() as f64;
        total / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// Runs every algorithm in `algorithms` with `settings`.
pub fn run(
    algorithms: &[AlgorithmSpec],
    settings: &RunSettings,
    progress: &dyn Progress,
) -> Result<RunReport> {
    let thresholds = settings.validate()?;
    let (seed, seed_origin) = match settings.seed {
        Some(seed) => (seed, SeedOrigin::Given),
        None => (seed_from_os()?, SeedOrigin::OperatingSystem),
    };
    let engine = Engine::new(settings.threads_used())?;
    // Samplers are in the catalogue but cannot run yet.
    if let Some(spec) = algorithms
        .iter()
        .find(|spec| spec.algorithm.as_permutation().is_none())
    {
        return Err(Error::Usage(format!(
            "{} is a sampler, and samplers cannot run yet",
            spec.entry.name
        )));
    }
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
                TallyOptions::default(),
                progress,
            );
            let analysis = analyse_permutations(&tally, &thresholds);
            AlgorithmResult {
                name: spec.display_name(settings.n),
                entry: spec.entry,
                expected: spec.entry.expected_at(settings.n),
                tally,
                analysis,
                elapsed: algorithm_started.elapsed(),
            }
        })
        .collect();
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
    })
}
