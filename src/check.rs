//! `check`: a suite of cases, each with the verdict it should get, run as a CI gate.
//!
//! A case is a catalogue shuffle or sampler ([`CaseKind::Algorithm`], run through
//! [`crate::run::run`]), a stream generator ([`CaseKind::Generator`], run through
//! [`crate::stream::run_streams`]) or an outside program whose output is audited
//! ([`CaseKind::Command`]). Each runs with its own fixed seed, so a suite gives the same
//! verdicts on every machine and whatever the thread count.
//!
//! Algorithm and generator cases draw from a source ([`SourceKind`]): the case's own
//! (`source` in a config), or else the suite's (`check --source`, default xoshiro). The
//! gate then asks whether every case still gets the verdict it expects with that
//! randomness under it: an expectation is a statement about the algorithm (the
//! catalogue's, or the config's), and a fair algorithm that fails under a flawed source
//! shows that the source is not good enough for it. Command cases bring their own
//! randomness; no source applies to them.
//!
//! The decision rule is [`crate::stats::confirm::confirm`], the one the false-alarm rate of
//! `scripts/calibrate.sh` is measured for: a `suspicious` first run is re-run once with an
//! independent seed and four times the trials, and the second verdict counts. A case is
//! *as expected* when its final verdict is `pass` for a case expected fair, or `fail` for a
//! case expected biased; `suspicious` after confirmation, `inconclusive` or an error never
//! is. The gate passes when every case is as expected.
//!
//! A `pass` on too few samples proves nothing: when the run that counts had fewer samples
//! than its whole-sample test needs to catch a total variation of 0.05 at 99 % power
//! ([`crate::analysis::power`]), the case is *underpowered* and its verdict is
//! `inconclusive`, unless the suite (`--allow-underpowered`) or the case
//! (`allow_underpowered = true`) accepts it. A `fail` stands on any number of samples: the
//! bias was caught.

pub mod command;
pub mod config;
pub mod suite;
pub mod watchdog;

use std::time::{Duration, Instant};

use crate::analysis::TestReport;
use crate::analysis::power::{Power, power_to_catch};
use crate::catalogue::generators::{GeneratorSpec, StreamScenario};
use crate::catalogue::items::Items;
use crate::catalogue::{AlgorithmSpec, Expectation};
use crate::error::Result;
use crate::randomness::SourceKind;
use crate::run::{RunSettings, run};
use crate::simulate::Progress;
use crate::stats::confirm::{Attempt, Confirmed, confirm};
use crate::stats::{PMethod, PValue, Verdict};
use crate::stream::{StreamSettings, run_streams};

use command::CommandCase;

/// One case of a suite.
#[derive(Clone, Debug)]
pub struct Case {
    /// Its name in the table and the JUnit report (unique within a suite).
    pub name: String,
    /// What it runs.
    pub kind: CaseKind,
    /// The seed of its first run.
    pub seed: u64,
    /// The verdict it should get.
    pub expect: Expectation,
    /// Its own source (`source` in a config); `None` draws from the suite's source. Always
    /// `None` for a command, which brings its own randomness.
    pub source: Option<SourceKind>,
    /// A pass on fewer samples than the case's test needs stands (`allow_underpowered` in
    /// a config); otherwise it is `inconclusive`.
    pub allow_underpowered: bool,
}

impl Case {
    /// The source its runs draw from under `settings`: its own, or else the suite's;
    /// `None` for a command case, which brings its own randomness.
    pub fn source_under(&self, settings: &CheckSettings) -> Option<SourceKind> {
        match self.kind {
            CaseKind::Command(_) => None,
            _ => Some(self.source.unwrap_or(settings.source)),
        }
    }
}

/// What a case runs.
#[derive(Clone, Debug)]
pub enum CaseKind {
    /// A catalogue shuffle (`k: None`) or sampler on `n` items, `trials` times.
    Algorithm {
        /// The algorithm.
        spec: AlgorithmSpec,
        /// Cards in the deck, or items to pick from.
        n: usize,
        /// Items a sampler picks.
        k: Option<usize>,
        /// Shuffles (or samples) of the first run.
        trials: u64,
    },
    /// A stream generator dealing `streams` streams of `length` draws of `items`.
    Generator {
        /// The generator.
        spec: GeneratorSpec,
        /// The items and their weights.
        items: Items,
        /// Draws per stream.
        length: u64,
        /// Streams of the first run (the confirmation deals four times as many).
        streams: u64,
    },
    /// An outside program whose standard output is audited.
    Command(CommandCase),
}

impl CaseKind {
    /// `algorithm`, `generator` or `command`, as in the JSON export.
    pub fn label(&self) -> &'static str {
        match self {
            CaseKind::Algorithm { .. } => "algorithm",
            CaseKind::Generator { .. } => "generator",
            CaseKind::Command(_) => "command",
        }
    }

    /// What the first run's "trials" count: shuffles or samples for an algorithm, streams
    /// for a generator, the `{trials}` placeholder for a command (0 without one).
    pub fn trials(&self) -> u64 {
        match self {
            CaseKind::Algorithm { trials, .. } => *trials,
            CaseKind::Generator { streams, .. } => *streams,
            CaseKind::Command(command) => command.trials.unwrap_or(0),
        }
    }

    /// The units of work of the first run, for a progress bar (0 for a command).
    pub fn work(&self) -> u64 {
        match self {
            CaseKind::Algorithm { trials, .. } => *trials,
            CaseKind::Generator { length, streams, .. } => length.saturating_mul(*streams),
            CaseKind::Command(_) => 0,
        }
    }
}

/// How the whole suite runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CheckSettings {
    /// Worker threads (the verdicts do not depend on it).
    pub threads: usize,
    /// Significance level for `fail`.
    pub alpha: f64,
    /// The source of every algorithm and generator case that names none of its own
    /// (`--source`).
    pub source: SourceKind,
    /// A pass on fewer samples than its test needs stands for every case
    /// (`--allow-underpowered`).
    pub allow_underpowered: bool,
}

/// One test of one run: its name and p-values.
#[derive(Clone, Debug, PartialEq)]
pub struct TestP {
    /// The test's short name (`permutations`, `positions`, `frequencies`, ...).
    pub name: String,
    /// Its raw p-value, when it ran.
    pub p: Option<PValue>,
    /// Its Holm-adjusted p-value, when it ran.
    pub p_adjusted: Option<PValue>,
    /// How its p-value was computed, when it ran.
    pub method: Option<PMethod>,
}

/// What one run of a case found.
#[derive(Clone, Debug, PartialEq)]
pub struct Findings {
    /// The verdict.
    pub verdict: Verdict,
    /// Every test, in the order the analysis lists them.
    pub tests: Vec<TestP>,
    /// For a command, the samples (or stream items) its output held: a program may print
    /// more or fewer than the `{trials}` it was asked for, or take no `{trials}` at all.
    pub samples_read: Option<u64>,
    /// For a verdict of fail or suspicious, the test that decided it and what that means
    /// ([`crate::analysis::caught_by`]).
    pub caught: Option<String>,
    /// What the whole-sample test needed to catch a bias of total variation 0.05, and the
    /// samples it had; `None` when no such test ran.
    pub power: Option<Power>,
    /// For a command's decks, the generator its deals give away:
    /// `predictable: these deals are java.util.Random's (…): the next deal will be …`.
    pub predictable: Option<String>,
}

impl Findings {
    /// From an analysis' verdict and tests, on `samples` samples (deals, selections, a
    /// stream's draws) graded at `alpha`.
    pub fn from_tests(verdict: Verdict, tests: &[TestReport], samples: u64, alpha: f64) -> Self {
        Self {
            samples_read: None,
            predictable: None,
            power: power_to_catch(tests, samples, alpha),
            caught: matches!(verdict, Verdict::Fail | Verdict::Suspicious)
                .then(|| crate::analysis::caught_by(tests))
                .flatten(),
            verdict,
            tests: tests
                .iter()
                .map(|test| TestP {
                    name: test.name.to_string(),
                    p: test.p_value(),
                    p_adjusted: test.p_adjusted,
                    method: test.p_method(),
                })
                .collect(),
        }
    }

    /// The smallest Holm-adjusted p-value: the one the verdict is read from.
    pub fn smallest_p_adjusted(&self) -> Option<PValue> {
        self.tests
            .iter()
            .filter_map(|test| test.p_adjusted)
            .min_by(|a, b| a.log10().total_cmp(&b.log10()))
    }
}

/// One run of a case: its findings, or why the case could not give any (a program that
/// exited with an error). Errors that stop the whole suite are `Err` one level up.
pub type RunOutcome = std::result::Result<Findings, String>;

/// A finished case.
#[derive(Clone, Debug)]
pub struct CaseResult {
    /// The case as it was asked.
    pub case: Case,
    /// Its first run and, when that was suspicious, the confirmation.
    pub runs: Confirmed<RunOutcome>,
    /// Why a suspicious first run was not confirmed, when it could not be.
    pub unconfirmed_because: Option<String>,
    /// Wall-clock time of the case, confirmation included.
    pub elapsed: Duration,
    /// Whether a pass on too few samples stands (the case's or the suite's choice).
    pub underpowered_allowed: bool,
}

impl CaseResult {
    /// The verdict that counts (`None` when the run that counts ended in an error): the
    /// last run's, except that an underpowered pass not allowed is `inconclusive`.
    pub fn verdict(&self) -> Option<Verdict> {
        let verdict = self.runs.last().outcome.as_ref().ok()?.verdict;
        Some(if self.underpowered().is_some() && !self.underpowered_allowed {
            Verdict::Inconclusive
        } else {
            verdict
        })
    }

    /// What the whole-sample test of the run that counts needed, and had.
    pub fn power(&self) -> Option<&Power> {
        self.runs.last().outcome.as_ref().ok()?.power.as_ref()
    }

    /// The power of a run that counts that passed on fewer samples than its test needs
    /// (whether or not that is allowed); `None` otherwise.
    pub fn underpowered(&self) -> Option<&Power> {
        let findings = self.runs.last().outcome.as_ref().ok()?;
        (findings.verdict == Verdict::Pass)
            .then_some(findings.power.as_ref())
            .flatten()
            .filter(|power| power.short())
    }

    /// `underpowered: 700 samples, but its permutations test needs 17,234 to catch a total
    /// variation of 0.05 with 99 % power`, and what follows, for an underpowered case.
    pub fn underpowered_note(&self) -> Option<String> {
        let power = self.underpowered()?;
        Some(format!(
            "underpowered: {}: {}",
            power.shortfall(),
            if self.underpowered_allowed {
                "the pass stands (allowed)"
            } else {
                "inconclusive (give it more trials, or allow it with --allow-underpowered)"
            }
        ))
    }

    /// The error of the run that counts, if it ended in one.
    pub fn error(&self) -> Option<&str> {
        self.runs.last().outcome.as_ref().err().map(String::as_str)
    }

    /// Whether the verdict that counts is the one the case expects (and, for a case that
    /// wants its deals `unpredictable`, no generator was recovered from them).
    pub fn as_expected(&self) -> bool {
        self.verdict()
            .is_some_and(|verdict| self.case.expect.is_met_by(verdict))
            && !(self.wants_unpredictable() && self.predictable().is_some())
    }

    /// The generator the deals of the run that counts give away, in one sentence.
    pub fn predictable(&self) -> Option<&str> {
        self.runs.last().outcome.as_ref().ok()?.predictable.as_deref()
    }

    /// A command case with `unpredictable = true`: predictable deals fail it.
    pub fn wants_unpredictable(&self) -> bool {
        matches!(&self.case.kind, CaseKind::Command(command) if command.ingest.unpredictable)
    }

    /// The smallest adjusted p-value of the run that counts.
    pub fn p(&self) -> Option<PValue> {
        self.runs
            .last()
            .outcome
            .as_ref()
            .ok()
            .and_then(Findings::smallest_p_adjusted)
    }

    /// The test that decided the last run's fail or suspicious verdict, in words.
    pub fn caught(&self) -> Option<&str> {
        self.runs.last().outcome.as_ref().ok()?.caught.as_deref()
    }
}

/// A finished suite.
#[derive(Clone, Debug)]
pub struct CheckReport {
    /// How it ran.
    pub settings: CheckSettings,
    /// Every case, in the order given.
    pub results: Vec<CaseResult>,
    /// Wall-clock time of the whole suite.
    pub elapsed: Duration,
}

impl CheckReport {
    /// Whether every case got the verdict it expects: the gate's answer.
    pub fn all_as_expected(&self) -> bool {
        self.results.iter().all(CaseResult::as_expected)
    }

    /// The cases that did not.
    pub fn not_as_expected(&self) -> impl Iterator<Item = &CaseResult> {
        self.results.iter().filter(|result| !result.as_expected())
    }
}

/// Runs every case, in order, with the confirmation rule.
pub fn run_check(cases: &[Case], settings: &CheckSettings, progress: &dyn Progress) -> Result<CheckReport> {
    let started = Instant::now();
    let results = cases
        .iter()
        .map(|case| run_case(case, settings, progress))
        .collect::<Result<Vec<_>>>()?;
    Ok(CheckReport {
        settings: *settings,
        results,
        elapsed: started.elapsed(),
    })
}

/// Runs one case: its first run and, when that is suspicious, its confirmation.
pub fn run_case(case: &Case, settings: &CheckSettings, progress: &dyn Progress) -> Result<CaseResult> {
    let started = Instant::now();
    let verdict_of = |outcome: &RunOutcome| outcome.as_ref().map_or(Verdict::Inconclusive, |f| f.verdict);
    // The confirmation draws from the same source as the first run: it re-asks the same
    // question with an independent seed and more trials.
    let run_once = |seed: u64, trials: u64| run_kind(case, seed, trials, settings, progress);
    let (runs, unconfirmed_because) = match &case.kind {
        CaseKind::Command(command) if !command.takes_seed() => {
            // Without `{seed}` a re-run would read the same samples again: nothing to confirm.
            let outcome = run_once(case.seed, case.kind.trials())?;
            let verdict = verdict_of(&outcome);
            let first = Attempt {
                seed: case.seed,
                trials: case.kind.trials(),
                verdict,
                outcome,
            };
            let because = (verdict == Verdict::Suspicious).then(|| {
                "not confirmed: the command has no {seed} placeholder, so a re-run could not draw \
                 independent samples"
                    .to_string()
            });
            (
                Confirmed {
                    first,
                    confirmation: None,
                },
                because,
            )
        }
        _ => (
            confirm(case.seed, case.kind.trials(), run_once, verdict_of)?,
            None,
        ),
    };
    Ok(CaseResult {
        case: case.clone(),
        runs,
        unconfirmed_because,
        elapsed: started.elapsed(),
        underpowered_allowed: case.allow_underpowered || settings.allow_underpowered,
    })
}

/// One run of a case with this seed and these trials.
fn run_kind(
    case: &Case,
    seed: u64,
    trials: u64,
    settings: &CheckSettings,
    progress: &dyn Progress,
) -> Result<RunOutcome> {
    let source = case.source_under(settings).unwrap_or_default();
    match &case.kind {
        CaseKind::Algorithm { spec, n, k, .. } => {
            let run_settings = algorithm_settings(*n, *k, trials, seed, source, settings);
            let report = run(std::slice::from_ref(spec), &run_settings, progress)?;
            let findings = match (report.results.first(), report.sampler_results.first()) {
                (Some(shuffle), _) => Findings::from_tests(
                    shuffle.analysis.verdict,
                    &shuffle.analysis.tests,
                    trials,
                    settings.alpha,
                ),
                (None, Some(sampler)) => Findings::from_tests(
                    sampler.analysis.verdict,
                    &sampler.analysis.tests,
                    trials,
                    settings.alpha,
                ),
                (None, None) => unreachable!("run gives one result per algorithm"),
            };
            Ok(Ok(findings))
        }
        CaseKind::Generator {
            spec, items, length, ..
        } => {
            let stream_settings = generator_settings(items, *length, trials, seed, source, settings);
            let report = run_streams(std::slice::from_ref(spec), &stream_settings, progress)?;
            let result = &report.results[0];
            Ok(Ok(Findings::from_tests(
                result.analysis.verdict,
                &result.analysis.tests,
                length.saturating_mul(trials),
                settings.alpha,
            )))
        }
        CaseKind::Command(command) => command.run(&case.name, seed, trials),
    }
}

/// The `run` settings of an algorithm case drawing from `source`.
pub fn algorithm_settings(
    n: usize,
    k: Option<usize>,
    trials: u64,
    seed: u64,
    source: SourceKind,
    settings: &CheckSettings,
) -> RunSettings {
    RunSettings {
        source,
        n,
        k,
        trials,
        seed: Some(seed),
        threads: settings.threads,
        alpha: settings.alpha,
        shard: None,
    }
}

/// The `stream` settings of a generator case (`streams` streams of `length` draws from
/// `source`).
pub fn generator_settings(
    items: &Items,
    length: u64,
    streams: u64,
    seed: u64,
    source: SourceKind,
    settings: &CheckSettings,
) -> StreamSettings {
    StreamSettings {
        source,
        items: items.clone(),
        length,
        streams,
        seed: Some(seed),
        threads: settings.threads,
        alpha: settings.alpha,
        scenario: StreamScenario { add_every: None },
    }
}
