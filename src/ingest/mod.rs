//! `ingest`: samples produced by another program, read, tallied and tested exactly as
//! `run` tests a catalogue algorithm.
//!
//! The input holds one sample per line, its items separated by white space and/or
//! commas (`0 1 2`, `A,B,C`, `♠K ♥3`); blank lines and lines starting with `#` are
//! skipped. For `permutations` the first line fixes the deck (its order numbers the
//! cards) and every line must hold the same items in some order; for `selections` each
//! line holds `k` distinct items of the deck given with `--deck`.
//!
//! Reading is streamed: blocks of whole lines ([`lines`]) are parsed and tallied in
//! parallel, a few at a time, so memory does not grow with the input; tallies are sums, so
//! they do not depend on which thread took which block, and blocks are merged in file order
//! so that an error names the input's first bad line ([`samples`]). The tallies then go
//! through the same analysis as `run`'s, and the report is a [`RunReport`] whose cards are
//! named by their tokens, so that every renderer (text, JSON, CSV, the HTML report) shows
//! the input's own names.

pub mod deck;
pub mod lines;
pub mod samples;

use std::borrow::Cow;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use rayon::prelude::*;

use crate::analysis::{TestReport, analyse_permutations, analyse_selections_with_order};
use crate::catalogue::Expectation;
use crate::error::{Error, Result};
use crate::run::{
    About, AlgorithmResult, MAX_N, MAX_TALLY_BYTES, RunReport, RunSettings, SampleInput, SamplerResult,
    SeedOrigin, SkippedLines,
};
use crate::simulate::{Engine, Progress};
use crate::stats::{Fit, PValue, Thresholds, Verdict};
use crate::tally::lehmer::MAX_RANKED_N;
use crate::tally::subsets::{is_tallied, ordered_cells, subset_cells};
use crate::tally::{PermutationRecorder, SelectionRecorder, TallyOptions};

use deck::Deck;
use lines::{Block, BlockReader, is_skipped, line_count};
use samples::{BlockOutcome, Problem, REASONS, parse_block};

/// Blocks parsed at once, per worker thread: enough to keep every worker busy while the
/// slowest block of a batch finishes, few enough that memory stays a few blocks deep.
const BLOCKS_PER_THREAD: usize = 2;

/// What each line holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SampleKind {
    /// A whole deck in some order (the first line's items).
    Permutations,
    /// `k` distinct items of a deck (`--deck`), a sampler's pick.
    Selections,
}

/// What the user asked for.
#[derive(Clone, Debug, PartialEq)]
pub struct IngestSettings {
    /// What each line holds.
    pub kind: SampleKind,
    /// Items per selection; `None` takes the first line's count.
    pub k: Option<usize>,
    /// The deck's names in card order (`--deck`); for permutations `None` takes the first
    /// line, for selections it is required.
    pub deck: Option<Vec<String>>,
    /// Selections whose order is promised to be random, and tested.
    pub ordered: bool,
    /// Count and skip malformed lines instead of stopping at the first.
    pub skip_invalid: bool,
    /// Worker threads.
    pub threads: usize,
    /// Significance level for `fail`.
    pub alpha: f64,
}

impl IngestSettings {
    /// The command that reads `source` the same way.
    pub fn command(&self, source: &str) -> String {
        let mut command = format!("shuffle-audit ingest {}", shell_word(source));
        if self.kind == SampleKind::Selections {
            command.push_str(" --kind selections");
        }
        if let Some(k) = self.k {
            command.push_str(&format!(" --k {k}"));
        }
        if let Some(deck) = &self.deck {
            command.push_str(&format!(" --deck {}", shell_word(&deck.join(" "))));
        }
        if self.ordered {
            command.push_str(" --ordered");
        }
        if self.skip_invalid {
            command.push_str(" --skip-invalid");
        }
        if self.alpha != crate::stats::verdict::DEFAULT_ALPHA {
            command.push_str(&format!(
                " --alpha {}",
                crate::output::text::format_probability(self.alpha)
            ));
        }
        command
    }

    fn validate(&self) -> Result<Thresholds> {
        crate::simulate::check_thread_count(self.threads)?;
        if let Some(deck) = &self.deck
            && deck.len() < 2
        {
            return Err(Error::BadOption {
                option: "--deck",
                problem: format!(
                    "must name at least 2 items (got {}): fewer leave nothing to choose between",
                    deck.len()
                ),
            });
        }
        if self.kind == SampleKind::Permutations {
            let refused = |option| {
                Err(Error::BadOption {
                    option,
                    problem: "applies to --kind selections".to_string(),
                })
            };
            if self.k.is_some() {
                return refused("--k");
            }
            if self.ordered {
                return refused("--ordered");
            }
        } else if self.deck.is_none() {
            return Err(Error::Usage(
                "--kind selections needs --deck (the items a sample picks from, e.g. --deck \"A B C D E\"): \
                 an item that is never picked would not show up in the samples"
                    .to_string(),
            ));
        }
        Thresholds::new(self.alpha)
    }
}

/// `--deck "A B C"` as its names, split as a line of samples is.
pub fn parse_deck(text: &str) -> Result<Vec<String>> {
    let names: Vec<String> = lines::tokens(text.as_bytes())
        .map(|token| String::from_utf8_lossy(token).into_owned())
        .collect();
    let tokens: Vec<&[u8]> = names.iter().map(|name| name.as_bytes()).collect();
    Deck::new(&tokens, "--deck".to_string()).map_err(|problem| Error::BadOption {
        option: "--deck",
        problem,
    })?;
    Ok(names)
}

/// A finished ingest: the report every renderer takes, and the figures a gate reads.
#[derive(Clone, Debug)]
pub struct IngestReport {
    /// The tallies and findings, shaped as a `run`'s (one result, named after the input).
    pub run: RunReport,
}

impl IngestReport {
    /// The graded verdict.
    pub fn verdict(&self) -> Verdict {
        match (self.run.results.first(), self.run.sampler_results.first()) {
            (Some(result), _) => result.analysis.verdict,
            (None, Some(result)) => result.analysis.verdict,
            (None, None) => unreachable!("an ingest report holds one result"),
        }
    }

    /// The smallest Holm-adjusted p-value, the one the verdict is read from.
    pub fn smallest_p_adjusted(&self) -> Option<PValue> {
        match (self.run.results.first(), self.run.sampler_results.first()) {
            (Some(result), _) => result.analysis.smallest_p_adjusted(),
            (None, Some(result)) => result.analysis.smallest_p_adjusted(),
            (None, None) => None,
        }
    }

    /// Every test that was run or skipped, with its p-values.
    pub fn tests(&self) -> &[TestReport] {
        match (self.run.results.first(), self.run.sampler_results.first()) {
            (Some(result), _) => &result.analysis.tests,
            (None, Some(result)) => &result.analysis.tests,
            (None, None) => &[],
        }
    }

    /// Samples read and tallied.
    pub fn samples(&self) -> u64 {
        self.run.settings.trials
    }

    /// Malformed lines skipped (`--skip-invalid`).
    pub fn skipped(&self) -> u64 {
        self.run.input.as_ref().map_or(0, SampleInput::skipped_total)
    }

    /// The samples the tests that could not run would need, when some could not
    /// (an inconclusive verdict): the largest of their needs.
    pub fn samples_needed(&self) -> Option<u64> {
        self.tests()
            .iter()
            .filter_map(|test| match test.outcome {
                crate::analysis::TestOutcome::Fit(Fit::TooFewTrials { needed }) => Some(needed),
                _ => None,
            })
            .max()
    }
}

/// The tally a worker writes into.
enum Recorder {
    Permutations(PermutationRecorder),
    Selections(SelectionRecorder),
}

impl Recorder {
    fn record(&mut self, cards: &[u16]) {
        match self {
            Recorder::Permutations(recorder) => recorder.record(cards),
            Recorder::Selections(recorder) => recorder.record(cards),
        }
    }

    fn footprint(kind: SampleKind, n: usize, k: usize, ordered: bool) -> u64 {
        match kind {
            SampleKind::Permutations => PermutationRecorder::footprint(n, TallyOptions::default()),
            SampleKind::Selections => SelectionRecorder::footprint(n, k, ordered),
        }
    }
}

/// Reads every sample of `input` (named `source_name` in reports and messages), tallies
/// and tests them. `progress` is told the bytes read.
pub fn ingest(
    input: impl std::io::Read + Send,
    source_name: &str,
    settings: &IngestSettings,
    progress: &dyn Progress,
) -> Result<IngestReport> {
    let thresholds = settings.validate()?;
    let started = Instant::now();
    let read_error = |error: std::io::Error| Error::Input(format!("cannot read {source_name}: {error}"));
    let mut reader = BlockReader::new(input);
    let mut lines_read = 0u64;
    let (deck, k, first_blocks) =
        find_deck(&mut reader, settings, &mut lines_read).map_err(|error| match error {
            DeckError::Read(error) => read_error(error),
            DeckError::Input(message) => Error::Input(message),
        })?;
    let deck = match deck {
        Some(deck) => deck,
        None => {
            return Err(Error::Input(format!(
                "no samples in {source_name}: every line is blank or a comment"
            )));
        }
    };
    let n = deck.len();
    // Every worker holds its own tally: fewer workers for decks whose tallies are large.
    let footprint = Recorder::footprint(settings.kind, n, k, settings.ordered).max(1);
    let threads = settings
        .threads
        .min(usize::try_from(MAX_TALLY_BYTES / footprint).unwrap_or(usize::MAX))
        .max(1);
    let engine = Engine::new(threads)?;
    let recorders: Vec<Mutex<Recorder>> = (0..engine.threads())
        .map(|_| {
            Mutex::new(match settings.kind {
                SampleKind::Permutations => {
                    Recorder::Permutations(PermutationRecorder::new(n, TallyOptions::default()))
                }
                SampleKind::Selections => {
                    Recorder::Selections(SelectionRecorder::new(n, k, settings.ordered))
                }
            })
        })
        .collect();

    let mut samples = 0u64;
    let mut skipped = [(0u64, 0u64); REASONS.len()];
    let mut pending = first_blocks;
    let batch_size = engine.threads() * BLOCKS_PER_THREAD;
    loop {
        while pending.len() < batch_size
            && !pending
                .last()
                .is_some_and(|block: &Block| block.long_line_follows)
        {
            match reader.next_block().map_err(read_error)? {
                Some(block) => pending.push(block),
                None => break,
            }
        }
        if pending.is_empty() {
            break;
        }
        let batch = std::mem::take(&mut pending);
        let outcomes: Vec<BlockOutcome> = engine.install(|| {
            batch
                .par_iter()
                .map(|block| {
                    let worker = rayon::current_thread_index().unwrap_or(0) % recorders.len();
                    let mut recorder = recorders[worker].lock().expect("a worker does not panic");
                    let outcome = parse_block(&block.bytes, &deck, k, settings.skip_invalid, |cards| {
                        recorder.record(cards)
                    });
                    progress.advance(block.bytes.len() as u64);
                    outcome
                })
                .collect()
        });
        for (block, outcome) in batch.iter().zip(&outcomes) {
            if let Some((line, problem)) = &outcome.stop {
                return Err(line_error(lines_read + line, problem, &deck));
            }
            for (total, &(count, first)) in skipped.iter_mut().zip(&outcome.skipped) {
                if count > 0 && total.0 == 0 {
                    total.1 = lines_read + first;
                }
                total.0 += count;
            }
            samples += outcome.samples;
            lines_read += outcome.lines;
            if block.long_line_follows {
                return Err(line_error(lines_read + 1, &Problem::TooLong, &deck));
            }
        }
    }

    let skipped: Vec<SkippedLines> = REASONS
        .iter()
        .zip(skipped)
        .filter(|(_, (count, _))| *count > 0)
        .map(|(&reason, (count, first_line))| SkippedLines {
            reason,
            count,
            first_line,
        })
        .collect();
    if samples == 0 {
        let total: u64 = skipped.iter().map(|skipped| skipped.count).sum();
        return Err(Error::Input(format!(
            "no samples in {source_name}: all {total} lines with items were malformed and skipped (the first \
             at line {})",
            skipped
                .iter()
                .map(|skipped| skipped.first_line)
                .min()
                .unwrap_or(0)
        )));
    }

    let labels: Arc<[String]> = deck.names().into();
    let about = |summary: String| About {
        summary: Cow::Owned(summary),
        origin: Cow::Owned(source_name.to_string()),
        labels: Some(labels.clone()),
    };
    let mut recorders = recorders
        .into_iter()
        .map(|recorder| recorder.into_inner().expect("a worker does not panic"));
    let first = recorders.next().expect("an engine has at least one worker");
    let (results, sampler_results, notes) = match first {
        Recorder::Permutations(mut tally) => {
            for other in recorders {
                if let Recorder::Permutations(other) = other {
                    tally.merge(&other);
                }
            }
            let tally = tally.finish();
            let analysis = engine.install(|| analyse_permutations(&tally, &thresholds));
            let result = AlgorithmResult {
                name: source_name.to_string(),
                about: about(format!(
                    "{n}-card orders read from another program, tested against a fair shuffle"
                )),
                expected: Expectation::Fair,
                tally,
                analysis,
                simulator_check: None,
                elapsed: started.elapsed(),
            };
            let notes = if n > MAX_RANKED_N {
                vec![format!(
                    "n = {n} > {MAX_RANKED_N}: the permutation test is skipped ({n}! orders are too many to \
                     tally); the position, fixed-point and cycle tests run"
                )]
            } else {
                Vec::new()
            };
            (vec![result], Vec::new(), notes)
        }
        Recorder::Selections(mut tally) => {
            for other in recorders {
                if let Recorder::Selections(other) = other {
                    tally.merge(&other);
                }
            }
            let tally = tally.finish();
            let order =
                (!settings.ordered).then_some("without --ordered the order of the picks is not promised");
            let analysis = analyse_selections_with_order(&tally, order, &thresholds);
            let result = SamplerResult {
                name: source_name.to_string(),
                about: about(format!(
                    "samples of {k} of {n} items read from another program, tested against a fair sampler"
                )),
                sampler: None,
                expected: Expectation::Fair,
                tally,
                analysis,
                elapsed: started.elapsed(),
            };
            let mut notes = Vec::new();
            if !is_tallied(subset_cells(n, k)) {
                notes.push(format!(
                    "C({n}, {k}) subsets are more than 10! = 3,628,800: the subsets test is skipped (too many \
                     to tally); the inclusion test runs"
                ));
            }
            if settings.ordered && !is_tallied(ordered_cells(n, k)) {
                notes.push(format!(
                    "{n}!/{}! ordered selections are more than 10! = 3,628,800: the ordered test is skipped \
                     (too many to tally)",
                    n - k
                ));
            }
            (Vec::new(), vec![result], notes)
        }
    };
    let settings_used = RunSettings {
        n,
        k: (settings.kind == SampleKind::Selections).then_some(k),
        trials: samples,
        seed: None,
        threads: engine.threads(),
        alpha: settings.alpha,
        shard: None,
    };
    Ok(IngestReport {
        run: RunReport {
            settings: settings_used,
            seed: 0,
            seed_origin: SeedOrigin::Given,
            threads: engine.threads(),
            elapsed: started.elapsed(),
            results,
            sampler_results,
            notes,
            input: Some(SampleInput {
                source: source_name.to_string(),
                lines: lines_read,
                skipped,
                command: settings.command(source_name),
                deck_from: if settings.deck.is_some() {
                    "--deck"
                } else {
                    "the first line"
                },
            }),
        },
    })
}

/// `line N: problem`.
fn line_error(line: u64, problem: &Problem, deck: &Deck) -> Error {
    Error::Input(format!("line {line}: {}", problem.message(deck)))
}

enum DeckError {
    Read(std::io::Error),
    Input(String),
}

/// The deck and the number of items per sample, with the blocks read to find them
/// (`None` when the input holds no sample). `lines_read` counts the lines of blocks
/// that held no sample, which are dropped.
fn find_deck(
    reader: &mut BlockReader<impl std::io::Read>,
    settings: &IngestSettings,
    lines_read: &mut u64,
) -> Result<(Option<Deck>, usize, Vec<Block>), DeckError> {
    let mut from_option = match &settings.deck {
        Some(names) => {
            let tokens: Vec<&[u8]> = names.iter().map(|name| name.as_bytes()).collect();
            Some(
                Deck::new(&tokens, "--deck".to_string())
                    .map_err(|problem| DeckError::Input(format!("--deck {problem}")))?,
            )
        }
        None => None,
    };
    loop {
        let Some(block) = reader.next_block().map_err(DeckError::Read)? else {
            return Ok((None, 0, Vec::new()));
        };
        let first = lines::lines(&block.bytes)
            .enumerate()
            .find(|(_, line)| line.len() > lines::MAX_LINE_BYTES || !is_skipped(line));
        let Some((index, line)) = first else {
            *lines_read += line_count(&block.bytes);
            if block.long_line_follows {
                return Err(DeckError::Input(format!(
                    "line {}: {}",
                    *lines_read + 1,
                    long_line_message()
                )));
            }
            continue;
        };
        let number = *lines_read + index as u64 + 1;
        let at = |problem: String| DeckError::Input(format!("line {number}: {problem}"));
        if line.len() > lines::MAX_LINE_BYTES {
            return Err(at(long_line_message()));
        }
        let tokens: Vec<&[u8]> = lines::tokens(line).collect();
        let deck = match from_option.take() {
            Some(deck) => deck,
            None => Deck::new(&tokens, format!("line {number}")).map_err(at)?,
        };
        let n = deck.len();
        let k = match settings.kind {
            SampleKind::Permutations => n,
            SampleKind::Selections => settings.k.unwrap_or(tokens.len()),
        };
        check_size(settings.kind, n, k, settings.deck.is_some()).map_err(at)?;
        return Ok((Some(deck), k, vec![block]));
    }
}

fn long_line_message() -> String {
    Problem::TooLong.message(&Deck::new(&[b"-"], String::new()).expect("a one-card deck"))
}

/// Refuses a deck larger than `run` supports, and a `k` outside `1..n`.
fn check_size(kind: SampleKind, n: usize, k: usize, deck_given: bool) -> Result<(), String> {
    let deck = if deck_given { "--deck" } else { "the deck" };
    if n > MAX_N {
        return Err(format!("{deck} has {n} items; at most {MAX_N} are supported"));
    }
    match kind {
        SampleKind::Permutations if n < 2 => Err(format!(
            "{deck} has {n} item: a deck of fewer than 2 cards has only one order"
        )),
        SampleKind::Selections if !(1..n).contains(&k) => Err(format!(
            "a sample of {k} of {n} items: k must be between 1 and n-1 (picking none or all has only one subset)"
        )),
        _ => Ok(()),
    }
}

/// `text` as one shell word: as it is when it holds only safe characters, single-quoted
/// otherwise.
fn shell_word(text: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "-_./:=@%+".contains(c);
    if !text.is_empty() && text.chars().all(safe) {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}
