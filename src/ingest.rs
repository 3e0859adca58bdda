//! `ingest`: samples produced by another program, read, tallied and tested exactly as
//! `run` tests a catalogue algorithm.
//!
//! The input holds one sample per line, its items separated by white space and/or
//! commas (`0 1 2`, `A,B,C`, `♠K ♥3`), or written as a list as programs print one
//! (`['C', 'A', 'B']`, `[3 1 2]`: [`list`]); blank lines and lines starting with `#` are
//! skipped. For `permutations` the first line fixes the deck (its order numbers the
//! cards) and every line must hold the same items in some order; for `selections` each
//! line holds `k` distinct items of the deck given with `--deck` (or, without it, of the
//! items seen in the whole input, found by a first pass: [`input`]); for `stream` the
//! whole input is one sequence of items, one or many per line, tested as `stream` tests
//! an i.i.d. generator (`stream` in this module).
//!
//! Reading is streamed: blocks of whole lines ([`lines`]) are parsed and tallied in
//! parallel, a few at a time, so memory does not grow with the input; tallies are sums, so
//! they do not depend on which thread took which block, and blocks are merged in file order
//! so that an error names the input's first bad line ([`samples`]). The tallies then go
//! through the same analysis as `run`'s, and the report is a [`RunReport`] whose cards are
//! named by their tokens, so that every renderer (text, JSON, CSV, the HTML report) shows
//! the input's own names; a stream's report is a [`StreamReport`] of one stream.

pub mod deck;
pub mod feed;
pub mod input;
pub mod lines;
pub mod list;
pub mod predictability;
pub mod recovery;
mod report;
pub mod samples;
mod seen;
mod sequence;
mod settings;
mod stream;

use std::borrow::Cow;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use rayon::prelude::*;

use crate::analysis::{
    TestReport, analyse_permutations_read_against, analyse_selections_with_order, smallest_p_adjusted,
};
use crate::catalogue::Expectation;
use crate::catalogue::items::{Items, MAX_ITEMS};
use crate::error::{Error, Result};
use crate::run::{
    About, AlgorithmResult, MAX_N, MAX_TALLY_BYTES, RunReport, RunSettings, SampleInput, SamplerResult,
    SeedOrigin, SkippedLines,
};
use crate::simulate::sampler_game;
use crate::simulate::{Engine, Progress};
use crate::stats::{Fit, PValue, Thresholds, Verdict};
use crate::stream::StreamReport;
use crate::tally::guessing::{GameSplit, play_trained_game, train_guessing_player};
use crate::tally::lehmer::MAX_RANKED_N;
use crate::tally::repeats::MAX_RANKED_CARDS;
use crate::tally::subsets::{is_tallied, ordered_cells, subset_cells};
use crate::tally::{PermutationRecorder, RepeatTally, SelectionRecorder, TallyOptions};

use deck::Deck;
pub use input::Input;
use lines::{Block, BlockReader, is_skipped, line_count};
pub use predictability::SeedSearch;
use predictability::{IngestedDeals, check_predictability};
pub use report::IngestReport;
use samples::{BlockOutcome, Problem, REASONS, parse_block};
use seen::SeenTokens;
use sequence::{BlockDeals, InputSequence, Reread};
use settings::seen_items_note;
pub use settings::{IngestSettings, SampleKind, SeedSearchStop, parse_deck, parse_weights};

/// Blocks parsed at once, per worker thread: enough to keep every worker busy while the
/// slowest block of a batch finishes, few enough that memory stays a few blocks deep.
const BLOCKS_PER_THREAD: usize = 2;

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

    /// Records the line that fixed the deck (see
    /// [`PermutationRecorder::record_reference`]); only permutations are read against one.
    fn record_reference(&mut self, cards: &[u16]) {
        match self {
            Recorder::Permutations(recorder) => recorder.record_reference(cards),
            Recorder::Selections(recorder) => recorder.record(cards),
        }
    }

    /// A new run of consecutive samples (a block of lines) starts.
    fn start_chunk(&mut self) {
        match self {
            Recorder::Permutations(recorder) => recorder.start_chunk(),
            Recorder::Selections(recorder) => recorder.start_chunk(),
        }
    }

    /// The block ends.
    fn end_chunk(&mut self) {
        if let Recorder::Permutations(recorder) = self {
            recorder.end_chunk();
        }
    }

    fn footprint(kind: SampleKind, n: usize, k: usize, ordered: bool) -> u64 {
        match kind {
            SampleKind::Selections => SelectionRecorder::footprint(n, k, ordered),
            _ => PermutationRecorder::footprint(
                n,
                TallyOptions {
                    serial: true,
                    ..TallyOptions::default()
                },
            ),
        }
    }
}

/// Reads every sample of `input` (named `source_name` in reports and messages), tallies
/// and tests them. `progress` is told the bytes read (twice over when the items are the
/// tokens seen: [`IngestSettings::items_from_input`]).
pub fn ingest(
    input: Input,
    source_name: &str,
    settings: &IngestSettings,
    progress: &dyn Progress,
) -> Result<IngestReport> {
    let thresholds = settings.validate()?;
    let started = Instant::now();
    let read_error = |error: std::io::Error| Error::Input(format!("cannot read {source_name}: {error}"));
    let (input, seen) = if settings.items_from_input() {
        let selections = settings.kind == SampleKind::Selections;
        let most = if selections { MAX_N } else { MAX_ITEMS };
        let mut pass = SeenTokens::new(selections, settings.k, settings.skip_invalid, most);
        let file = input.read_twice(read_error, |block| {
            progress.advance(block.bytes.len() as u64);
            if progress.cancelled() {
                return Err(Error::Cancelled);
            }
            pass.read(block).map_err(Error::Input)
        })?;
        (Input::File(file), Some(pass))
    } else {
        (input, None)
    };
    let seen_items = seen.as_ref().map(|seen| seen.names.len());
    let notes: Vec<String> = seen_items
        .map(|count| seen_items_note(count, settings.kind))
        .into_iter()
        .collect();
    if settings.kind == SampleKind::Stream {
        let items = match (&settings.weights, &settings.deck, &seen) {
            (Some(weights), _, _) => (weights.clone(), "--weights"),
            (None, Some(deck), _) => (equal_items(deck, "--deck")?, "--deck"),
            (None, None, Some(seen)) => (
                equal_items(&seen.names, "the input").map_err(|_| {
                    Error::Input(match seen.names.as_slice() {
                        [] => format!("no items in {source_name}: every line is blank or a comment"),
                        [only] => format!(
                            "{source_name} holds only one distinct item ('{only}'): name the others with \
                             --deck or --weights"
                        ),
                        _ => unreachable!("two or more valid names make items"),
                    })
                })?,
                "first appearance in the input",
            ),
            (None, None, None) => unreachable!("items come from the options or the input"),
        };
        let report = stream::ingest_stream(input, source_name, settings, items, &thresholds, progress)?;
        return Ok(IngestReport::Stream(StreamReport { notes, ..report }));
    }
    let mut samples_settings = settings.clone();
    if let Some(seen) = &seen {
        samples_settings.deck = Some(in_sorted_order(seen.names.clone()));
        samples_settings.k = seen.k;
    }
    let settings_used = &samples_settings;
    // Decks of more than 20 cards that share a hash are read again to be compared: a copy
    // of standard input is kept while it is read, until the deck size says it is not needed.
    let permutations = settings.kind == SampleKind::Permutations;
    let block_bytes = input.block_bytes();
    let expected_samples = input.expected_samples().filter(|_| permutations);
    let (input, mut again) = input.rereadable(permutations).map_err(read_error)?;
    let mut reader = BlockReader::with_block_bytes(input, block_bytes);
    let mut lines_before = 0u64;
    let (deck, k, first_blocks) = find_deck(
        &mut reader,
        settings_used,
        &mut lines_before,
        settings.deck.is_some(),
    )
    .map_err(|error| match error {
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
    // Without --deck the first line fixes the deck: read against itself it is the deck in
    // order, so it is the reference the orders are read against, not one of them.
    let reads_against_first_line = permutations && settings.deck.is_none();
    // Repeats are counted for decks of more than 10 cards (the order table sees everything
    // below); ranks key decks of up to 20 cards exactly, so only larger ones need a copy.
    let count_repeats = permutations && n > MAX_RANKED_N;
    if !(count_repeats && n > MAX_RANKED_CARDS) {
        reader.get_mut().stop();
    }
    let options = TallyOptions {
        serial: true,
        ..TallyOptions::default()
    };
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
                SampleKind::Selections => {
                    Recorder::Selections(SelectionRecorder::new(n, k, settings.ordered).with_overlaps())
                }
                _ => Recorder::Permutations(PermutationRecorder::new(n, options)),
            })
        })
        .collect();

    let mut sequence = InputSequence::new(
        n,
        options,
        count_repeats,
        0,
        (settings.kind == SampleKind::Selections).then_some(k),
    );
    // When the number of deals to come is known (deals made in this process), the guessing
    // game studies its first half on another thread as soon as those deals are in, while
    // the rest are still being dealt and read.
    let split = expected_samples.map(GameSplit::of);
    let (read, trained) = std::thread::scope(|scope| {
        let mut studying = None;
        let read = read_blocks(
            &mut reader,
            first_blocks,
            lines_before,
            &engine,
            progress,
            source_name,
            &deck,
            |block, holds_first_sample| {
                let worker = rayon::current_thread_index().unwrap_or(0) % recorders.len();
                let mut recorder = recorders[worker].lock().expect("a worker does not panic");
                // A block is a run of consecutive deals: its worker pairs them, and the pairs
                // across blocks are added in input order below.
                recorder.start_chunk();
                // The first deals or samples, for the guessing game.
                let mut deals = BlockDeals::new(n, count_repeats).keeping_game_deals(
                    if settings.kind == SampleKind::Selections {
                        k
                    } else {
                        n
                    },
                );
                let mut last: Vec<u16> = Vec::new();
                // The input's first sample, when it fixed the deck, is the reference.
                let mut reference = holds_first_sample && reads_against_first_line;
                let outcome = parse_block(block, &deck, k, settings.skip_invalid, |cards| {
                    if std::mem::take(&mut reference) {
                        recorder.record_reference(cards);
                    } else {
                        recorder.record(cards);
                    }
                    deals.record(cards);
                    last.clear();
                    last.extend_from_slice(cards);
                });
                recorder.end_chunk();
                deals.finish((!last.is_empty()).then_some(last.as_slice()));
                (outcome, deals)
            },
            |deals| {
                sequence.take(deals);
                if let (None, Some(split), Some(expected)) = (&studying, split, expected_samples) {
                    let cards = split.training as usize * n;
                    if split.training > 0 && sequence.game_so_far().len() >= cards {
                        let decks = sequence.game_so_far()[..cards].to_vec();
                        let engine = &engine;
                        studying = Some(scope.spawn(move || {
                            engine.install(|| train_guessing_player(n, &decks, expected, true))
                        }));
                    }
                }
            },
        );
        let trained = studying.and_then(|study| study.join().ok()).flatten();
        (read, trained)
    });
    let read = read?;
    let samples = read.tallied;
    let lines_read = read.lines;
    let skipped = read.skipped;
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
    let mut predictability = None;
    let mut recorders = recorders
        .into_iter()
        .map(|recorder| recorder.into_inner().expect("a worker does not panic"));
    let first = recorders.next().expect("an engine has at least one worker");
    let (results, sampler_results, size_notes) = match first {
        Recorder::Permutations(mut tally) => {
            for other in recorders {
                if let Recorder::Permutations(other) = other {
                    tally.merge(&other);
                }
            }
            let mut tally = tally.finish();
            let copy = reader.get_mut().take_copy();
            let mut reread = Reread {
                file: again.take().or(copy),
                deck: &deck,
                k,
                skip_invalid: settings.skip_invalid,
                source_name,
            };
            // The guessing game on the input's first deals (the lines are the deals in
            // order: a program's dealer may carry the deck).
            let game = sequence.take_game();
            tally.guessing = engine
                .install(|| play_trained_game(n, &game, samples, true, trained))
                .map(Box::new);
            // Whatever the tests say: do the first deals give the generator away?
            let seed_search = settings.seed_search_runtimes()?;
            predictability = engine.install(|| {
                check_predictability(
                    &IngestedDeals {
                        first: &game,
                        n,
                        labels: deck.names(),
                        deck_given: settings.deck.is_some(),
                        deals: samples,
                    },
                    settings.predictability_budget,
                    &seed_search,
                    settings.seed_search_stop.map(|stop| stop.0),
                    progress,
                )
            });
            if progress.cancelled() {
                return Err(Error::Cancelled);
            }
            let (boundary, repeats) = engine.install(|| sequence.finish(&mut reread))?;
            if let Some(serial) = &mut tally.serial {
                serial.add(&boundary);
            }
            tally.repeats = repeats.map(|count| {
                let mut repeats = RepeatTally::default();
                repeats.add_group(count.deals, count.repeats);
                repeats
            });
            let reference_deals = u64::from(reads_against_first_line);
            let analysis =
                engine.install(|| analyse_permutations_read_against(&tally, &thresholds, reference_deals));
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
            let mut tally = tally.finish();
            if let (Some(overlaps), Some(boundary)) =
                (&mut tally.overlap_counts, sequence.boundary_overlaps())
            {
                for (count, &more) in overlaps.iter_mut().zip(boundary) {
                    *count += more;
                }
            }
            // The guessing game on the input's first samples, in their order with --ordered.
            let mut game = sequence.take_game();
            tally.guessing = sampler_game(n, k, &mut game, samples, settings.ordered).map(Box::new);
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
    let run_settings = RunSettings {
        source: Default::default(),
        n,
        k: (settings.kind == SampleKind::Selections).then_some(k),
        trials: samples,
        seed: None,
        threads: engine.threads(),
        alpha: settings.alpha,
        shard: None,
    };
    Ok(IngestReport::Samples(RunReport {
        settings: run_settings,
        seed: 0,
        seed_origin: SeedOrigin::Given,
        threads: engine.threads(),
        elapsed: started.elapsed(),
        results,
        sampler_results,
        notes: notes.into_iter().chain(size_notes).collect(),
        input: Some(SampleInput {
            source: source_name.to_string(),
            lines: lines_read,
            skipped,
            command: settings.command(source_name),
            deck_from: match (&settings.deck, &seen) {
                (Some(_), _) => "--deck",
                (None, Some(_)) => "the items seen in the samples, sorted",
                (None, None) => "the first line, the deck the other deals are read against",
            },
            predictability,
        }),
    }))
}

/// The items seen in a selections input, in a fixed order: numbers by value when every
/// token is an integer, other tokens as text. Not in order of first appearance: numbered
/// so, the first sample would always be items `0..k`, one subset every input holds once,
/// and the next samples would lean to low numbers, which the subset and inclusion tests
/// would count against a fair sampler when the samples are few. Sorted, every sample is
/// read as it was drawn.
fn in_sorted_order(mut names: Vec<String>) -> Vec<String> {
    if names.iter().all(|name| name.parse::<i128>().is_ok()) {
        names.sort_by_cached_key(|name| name.parse::<i128>().expect("checked above"));
    } else {
        names.sort();
    }
    names
}

/// Equal weights for `names`, a failure blamed on `from`.
fn equal_items(names: &[String], from: &'static str) -> Result<Items> {
    Items::equal(names).map_err(|problem| Error::Input(format!("{from} {problem}")))
}

/// What [`read_blocks`] read.
struct BlocksRead {
    /// Lines read, blank lines and comments included (the lines before it too).
    lines: u64,
    /// Samples (or for a stream, lines with items) tallied.
    tallied: u64,
    /// Lines skipped as malformed, by reason.
    skipped: Vec<SkippedLines>,
}

/// Reads the blocks of `reader` after `first` (which follow `lines_before` lines), a batch
/// at a time: `parse` reads each block of a batch in parallel (told whether it is the
/// block that holds the input's first sample), then `take` is handed each
/// block's result in input order. Stops at the input's first bad line (one that is not
/// skipped), named by its number.
#[allow(clippy::too_many_arguments)]
fn read_blocks<T: Send>(
    reader: &mut BlockReader<impl std::io::Read>,
    first: Vec<Block>,
    lines_before: u64,
    engine: &Engine,
    progress: &dyn Progress,
    source_name: &str,
    deck: &Deck,
    parse: impl Fn(&[u8], bool) -> (BlockOutcome, T) + Sync,
    mut take: impl FnMut(T),
) -> Result<BlocksRead> {
    let read_error = |error: std::io::Error| Error::Input(format!("cannot read {source_name}: {error}"));
    let mut lines_read = lines_before;
    let mut tallied = 0u64;
    let mut skipped = [(0u64, 0u64); REASONS.len()];
    let mut pending = first;
    let mut at_start = true;
    let batch_size = engine.threads() * BLOCKS_PER_THREAD;
    loop {
        // The live page's reader went away: nobody wants the answer.
        if progress.cancelled() {
            return Err(Error::Cancelled);
        }
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
        // `first` starts with the block that holds the input's first sample.
        let first_batch = std::mem::take(&mut at_start);
        let outcomes: Vec<(BlockOutcome, T)> = engine.install(|| {
            batch
                .par_iter()
                .enumerate()
                .map(|(index, block)| {
                    let parsed = parse(&block.bytes, first_batch && index == 0);
                    progress.advance(block.bytes.len() as u64);
                    parsed
                })
                .collect()
        });
        for (block, (outcome, parsed)) in batch.iter().zip(outcomes) {
            if let Some((line, problem)) = &outcome.stop {
                return Err(line_error(lines_read + line, problem, deck));
            }
            for (total, &(count, first)) in skipped.iter_mut().zip(&outcome.skipped) {
                if count > 0 && total.0 == 0 {
                    total.1 = lines_read + first;
                }
                total.0 += count;
            }
            tallied += outcome.samples;
            lines_read += outcome.lines;
            take(parsed);
            if block.long_line_follows {
                return Err(line_error(lines_read + 1, &Problem::TooLong, deck));
            }
        }
    }
    Ok(BlocksRead {
        lines: lines_read,
        tallied,
        skipped: REASONS
            .iter()
            .zip(skipped)
            .filter(|(_, (count, _))| *count > 0)
            .map(|(&reason, (count, first_line))| SkippedLines {
                reason,
                count,
                first_line,
            })
            .collect(),
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
/// that held no sample, which are dropped. `settings.deck` is `--deck` when
/// `deck_given`, otherwise the tokens seen in the samples.
fn find_deck(
    reader: &mut BlockReader<impl std::io::Read>,
    settings: &IngestSettings,
    lines_read: &mut u64,
    deck_given: bool,
) -> Result<(Option<Deck>, usize, Vec<Block>), DeckError> {
    let from = if deck_given { "--deck" } else { "the samples" };
    let mut from_option = match &settings.deck {
        Some(names) => {
            let tokens: Vec<&[u8]> = names.iter().map(|name| name.as_bytes()).collect();
            Some(
                Deck::new(&tokens, from.to_string())
                    .map_err(|problem| DeckError::Input(format!("{from} {problem}")))?,
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
        let tokens: Vec<&[u8]> = lines::tokens(line)
            .map_err(|problem| {
                at(if settings.skip_invalid {
                    format!(
                        "{problem} (--skip-invalid cannot skip the line that fixes the deck; give --deck)"
                    )
                } else {
                    problem
                })
            })?
            .collect();
        let deck = match from_option.take() {
            Some(deck) => deck,
            // Not even --skip-invalid can pass over this line: it is what the others are
            // read against. Say how to name the deck instead.
            None => Deck::new(&tokens, format!("line {number}")).map_err(|problem| {
                at(if settings.skip_invalid {
                    format!(
                        "{problem} (--skip-invalid cannot skip the line that fixes the deck; give --deck)"
                    )
                } else {
                    problem
                })
            })?,
        };
        let n = deck.len();
        let k = match settings.kind {
            SampleKind::Selections => settings.k.unwrap_or(tokens.len()),
            _ => n,
        };
        check_size(settings.kind, n, k, deck_given).map_err(at)?;
        return Ok((Some(deck), k, vec![block]));
    }
}

fn long_line_message() -> String {
    Problem::TooLong.message_with(String::new)
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
