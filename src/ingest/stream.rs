//! `ingest --kind stream`: the whole input as one sequence of items, tested as `stream`
//! tests an i.i.d. generator (frequencies against the weights, runs and gaps against
//! their exact laws for a stream of this length, windows of one bag length).
//!
//! Blocks are parsed in parallel into item numbers, then handed to one tally in input
//! order: runs and gaps cross line and block boundaries as if the input were one line,
//! and the result cannot depend on how blocks were shared among threads. The tally needs
//! no length up front ([`StreamRecorder::open`]); the stream's length is the number of
//! items read, and the laws are computed for it at the end.
//!
//! A line with an item outside the given items stops the input, or with
//! `--skip-invalid` is skipped whole: its items are treated as absent, so runs and gaps
//! continue across it (the report says how many lines were skipped).

use std::time::Instant;

use super::deck::Deck;
use super::lines::{MAX_LINE_BYTES, is_skipped, lines, tokens};
use super::samples::{BlockOutcome, Problem};
use super::{IngestSettings, read_blocks};
use crate::catalogue::Expectation;
use crate::catalogue::generators::StreamScenario;
use crate::catalogue::items::Items;
use crate::error::{Error, Result};
use crate::run::{About, SampleInput, SeedOrigin};
use crate::simulate::{Engine, Progress};
use crate::simulate::{stream_split, stream_window};
use crate::stats::Thresholds;
use crate::stream::analysis::{Theory, analyse_stream};
use crate::stream::{StreamReport, StreamResult, StreamSettings, iid_window};
use crate::tally::item_game::{FairLaw, STREAM_GAME_DRAWS, play_item_game};
use crate::tally::stream::{StreamLayout, StreamRecorder};

/// Reads the stream of `items` from `input` and tests it. `items_from` says where the
/// items came from (`--weights`, `--deck`, the input).
pub(super) fn ingest_stream(
    input: impl std::io::Read + Send,
    source_name: &str,
    settings: &IngestSettings,
    (items, items_from): (Items, &'static str),
    thresholds: &Thresholds,
    progress: &dyn Progress,
) -> Result<StreamReport> {
    let started = Instant::now();
    let tokens: Vec<&[u8]> = items.names.iter().map(|name| name.as_bytes()).collect();
    let deck = Deck::new(&tokens, items_from.to_string())
        .map_err(|problem| Error::Input(format!("{items_from} {problem}")))?
        .as_items();
    let engine = Engine::new(settings.threads)?;
    let mut recorder = StreamRecorder::open(&StreamLayout {
        items: items.len(),
        length: 0,
        cycle: None,
        cycle_gaps: false,
        window: iid_window(&items).map(|length| (length, items.units.clone())),
    });
    let mut reader = super::lines::BlockReader::new(input);
    let mut first: Vec<u16> = Vec::new();
    let read = read_blocks(
        &mut reader,
        Vec::new(),
        0,
        &engine,
        progress,
        source_name,
        &deck,
        |block, _| parse_stream_block(block, &deck, settings.skip_invalid),
        |draws| {
            recorder.extend(&draws);
            let room = (2 * STREAM_GAME_DRAWS as usize).saturating_sub(first.len());
            first.extend_from_slice(&draws[..room.min(draws.len())]);
        },
    )?;
    let mut tally = recorder.finish_open_stream();
    if tally.length < 2 {
        let skipped: u64 = read.skipped.iter().map(|skipped| skipped.count).sum();
        let why = if skipped > 0 {
            format!(" ({skipped} malformed lines were skipped)")
        } else {
            String::new()
        };
        return Err(Error::Input(format!(
            "{} item{} in {source_name}{why}: a stream needs at least 2 to test",
            tally.length,
            if tally.length == 1 { "" } else { "s" }
        )));
    }
    let probabilities = items.probabilities();
    // The guessing game on the first draws, against independent draws by weight.
    let law = FairLaw::Iid {
        probabilities: probabilities.clone(),
    };
    let split = stream_split(&law, 1, tally.length);
    let window = stream_window(&law, tally.length);
    tally.guessing =
        play_item_game(&law, &[(&first, split.windows())], window, split, true, "draws").map(Box::new);
    let analysis = engine.install(|| {
        analyse_stream(
            &tally,
            &probabilities,
            None,
            Theory::Iid(probabilities.clone()),
            thresholds,
        )
    });
    let length = tally.length;
    let result = StreamResult {
        name: source_name.to_string(),
        about: About {
            summary: "a stream of items read from another program, tested against independent draws with \
                      the items' weights"
                .into(),
            origin: source_name.to_string().into(),
            labels: None,
        },
        expected: Expectation::Fair,
        shape: None,
        additions: false,
        tally,
        analysis,
        elapsed: started.elapsed(),
    };
    Ok(StreamReport {
        settings: StreamSettings {
            source: Default::default(),
            items,
            length,
            streams: 1,
            seed: None,
            threads: engine.threads(),
            alpha: settings.alpha,
            scenario: StreamScenario { add_every: None },
        },
        seed: 0,
        seed_origin: SeedOrigin::Given,
        threads: engine.threads(),
        elapsed: started.elapsed(),
        results: vec![result],
        input: Some(SampleInput {
            source: source_name.to_string(),
            lines: read.lines,
            skipped: read.skipped,
            command: settings.command(source_name),
            deck_from: items_from,
            predictability: None,
        }),
        notes: Vec::new(),
    })
}

/// The items of each line of `block`, in order, as item numbers; a line with an item
/// outside `deck` stops the block, or is left out whole when `skip_invalid`.
fn parse_stream_block(block: &[u8], deck: &Deck, skip_invalid: bool) -> (BlockOutcome, Vec<u16>) {
    let mut outcome = BlockOutcome::default();
    let mut draws = Vec::with_capacity(block.len() / 2);
    for (index, line) in lines(block).enumerate() {
        let number = index as u64 + 1;
        outcome.lines = number;
        if line.len() > MAX_LINE_BYTES {
            outcome.stop = Some((number, Problem::TooLong));
            break;
        }
        if is_skipped(line) {
            continue;
        }
        let line_start = draws.len();
        let problem = match tokens(line) {
            Ok(mut tokens) => tokens.find_map(|token| match deck.card(token) {
                Some(item) => {
                    draws.push(item);
                    None
                }
                None if std::str::from_utf8(token).is_err() => Some(Problem::NotUtf8),
                None => Some(Problem::Unknown(super::deck::shown(token))),
            }),
            Err(problem) => Some(Problem::List(problem)),
        };
        let Some(problem) = problem else {
            outcome.samples += 1;
            continue;
        };
        draws.truncate(line_start);
        match problem.reason() {
            Some(reason) if skip_invalid => {
                let (count, first) = &mut outcome.skipped[reason];
                if *count == 0 {
                    *first = number;
                }
                *count += 1;
            }
            _ => {
                outcome.stop = Some((number, problem));
                break;
            }
        }
    }
    (outcome, draws)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn items() -> Deck {
        Deck::new(&[b"A", b"B", b"C"], "--deck".to_string())
            .unwrap()
            .as_items()
    }

    #[test]
    fn lines_of_one_or_many_items_give_the_same_sequence() {
        let (one, one_draws) = parse_stream_block(b"A\nB\n\nC\n# note\nA\n", &items(), false);
        let (many, many_draws) = parse_stream_block(b"A B,C\n A\n", &items(), false);
        assert_eq!(one_draws, [0, 1, 2, 0]);
        assert_eq!(many_draws, one_draws);
        assert_eq!((one.lines, one.samples, many.samples), (6, 4, 2));
    }

    #[test]
    fn a_line_with_an_unknown_item_stops_or_is_skipped_whole() {
        let (outcome, _) = parse_stream_block(b"A B\nA Z B\n", &items(), false);
        let (line, problem) = outcome.stop.unwrap();
        assert_eq!(line, 2);
        assert_eq!(
            problem.message(&items()),
            "unknown item 'Z' (the items from --deck are A B C)"
        );
        let (outcome, draws) = parse_stream_block(b"A B\nC Z B\nC\n", &items(), true);
        assert_eq!(draws, [0, 1, 2], "the skipped line leaves none of its items");
        assert_eq!(outcome.skipped[1], (1, 2));
    }
}
