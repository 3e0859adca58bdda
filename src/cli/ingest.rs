//! `shuffle-audit ingest`: read samples written by another program (whole decks,
//! selections, or the items of one long stream), test them as `run` tests an algorithm,
//! and exit 0 only when they are shown fair.

use std::path::Path;
use std::process::ExitCode;

use clap::Args;

use shuffle_audit::files::Plan;
use shuffle_audit::format::shell_word;
use shuffle_audit::{Error, Result};

use super::deliver::{deliver_run, deliver_stream};
use super::flags::{AnalysisArgs, default_threads};
use super::progress::TerminalProgress;
use super::status::VERDICT_NOT_AS_WANTED;

/// `--seed-search`'s help, naming the seeded runtimes of the registry.
/// `--unpredictable`'s help, naming the runtimes of the registry that every ingest tries.
fn unpredictable_help() -> String {
    format!(
        "Exit with 1 when the deals give away the generator that dealt them ({}; with --seed-search, \
         that runtime too), whatever the tests say: for card-game servers",
        shuffle_audit::seeds::recover::state_runtime_names().join(", ")
    )
}

fn seed_search_help() -> String {
    format!(
        "Also search every seed of a runtime started from a small seed ({}) for the first deals; \
         `NAME:A..B` searches the seeds A to B-1 only (a range of time stamps, say). Repeat it for several \
         runtimes. A whole search takes a minute or more; what it finds is reported as --unpredictable reads it",
        shuffle_audit::seeds::recover::seeded_runtime_names().join(", ")
    )
}

#[derive(Args)]
pub struct IngestArgs {
    /// The file of samples, one per line; `-` (the default) reads standard input.
    #[arg(value_name = "FILE", default_value = "-")]
    file: String,
    /// What each line holds: a whole deck in some order (`permutations`; the first line
    /// fixes the deck), k items of a deck (`selections`, best with --deck), or items of
    /// one long sequence, one or many per line (`stream`, best with --weights or --deck).
    #[arg(long, value_enum, default_value = "permutations")]
    kind: KindArg,
    /// Items per sample, for --kind selections (default: the first line's count).
    #[arg(long, short = 'k', value_name = "K", allow_negative_numbers = true)]
    k: Option<usize>,
    /// The deck, in card order, e.g. `--deck "A B C D E"`; for a stream, its items, all
    /// equally likely. Without it selections and streams take the tokens seen.
    #[arg(long, value_name = "ITEMS")]
    deck: Option<String>,
    /// A stream's items and their intended weights, as `stream --items`:
    /// `A:50,B:25,C:20,D:5`, a count of equal items `7` (named 1 to 7), or `boggle`.
    #[arg(long, value_name = "SPEC", conflicts_with = "deck")]
    weights: Option<String>,
    /// Selections whose order is promised to be random: test the order too.
    #[arg(long)]
    ordered: bool,
    /// Count and skip malformed lines instead of stopping at the first one.
    #[arg(long)]
    skip_invalid: bool,
    /// Exit with 0, not 1, when the verdict is `suspicious`.
    #[arg(long)]
    allow_suspicious: bool,
    /// Exit with 1 when the deals give away the generator that dealt them (the help lists
    /// the runtimes), whatever the tests say: for card-game servers.
    #[arg(long, help = unpredictable_help())]
    unpredictable: bool,
    /// Also search every seed of a runtime started from a small seed (the help lists them).
    #[arg(long, value_name = "NAME[:A..B]", help = seed_search_help())]
    seed_search: Vec<String>,
    /// A pass on fewer samples than the whole-sample test needs to catch a total variation
    /// of 0.05 with 99 % power is `inconclusive` (exit 1), as `check` rules: for callers
    /// that gate on the verdict (the Python and JavaScript assertions pass it).
    #[arg(long)]
    powered: bool,
    /// Print the deals a deck of N cards needs for --powered (at --alpha), and exit: what
    /// a caller that deals in-process deals by default. Reads no input.
    #[arg(long, value_name = "N", conflicts_with_all = ["file", "kind", "k", "deck", "weights", "ordered", "skip_invalid", "allow_suspicious", "unpredictable", "seed_search", "powered"])]
    deals_needed: Option<usize>,
    #[command(flatten)]
    analysis: AnalysisArgs,
}

/// `--kind`.
#[derive(Clone, Copy, clap::ValueEnum)]
enum KindArg {
    Permutations,
    Selections,
    Stream,
}

/// Reads and tests the samples, delivers the report, and exits 0 only when they are shown
/// fair (or merely suspicious, with `--allow-suspicious`).
pub fn execute(args: IngestArgs) -> Result<ExitCode> {
    use shuffle_audit::ingest::{
        IngestReport, IngestSettings, Input, SampleKind, ingest, parse_deck, parse_weights,
    };
    use shuffle_audit::stats::Verdict;
    if let Some(n) = args.deals_needed {
        return print_deals_needed(n, args.analysis.alpha);
    }
    let weights = args.weights.as_deref().map(parse_weights).transpose()?;
    let settings = IngestSettings {
        kind: match args.kind {
            KindArg::Permutations => SampleKind::Permutations,
            KindArg::Selections => SampleKind::Selections,
            KindArg::Stream => SampleKind::Stream,
        },
        k: args.k,
        deck: args.deck.as_deref().map(parse_deck).transpose()?,
        weights,
        ordered: args.ordered,
        skip_invalid: args.skip_invalid,
        unpredictable: args.unpredictable,
        predictability_budget: shuffle_audit::ingest::predictability::budget(args.unpredictable),
        seed_search: args.seed_search.clone(),
        // The first Ctrl-C stops a seed search, which then says how to resume it.
        seed_search_stop: (!args.seed_search.is_empty()).then_some(shuffle_audit::ingest::SeedSearchStop(
            super::signals::interrupt_stops_search,
        )),
        threads: args.analysis.threads.unwrap_or_else(default_threads),
        alpha: args.analysis.alpha,
    };
    let plan = Plan::new(args.analysis.exports.force);
    let plan = if args.file == "-" {
        plan.reads_stdin()
    } else {
        plan.reads(Path::new(&args.file))
    };
    let exports = args.analysis.exports.checked(plan)?;
    let (input, source, size) = if args.file == "-" {
        (
            Input::reader(std::io::stdin()),
            "standard input".to_string(),
            None,
        )
    } else {
        let file = std::fs::File::open(&args.file)
            .map_err(|error| Error::Input(format!("cannot open {}: {error}", args.file)))?;
        let size = file.metadata().ok().map(|metadata| metadata.len());
        (Input::File(file), args.file.clone(), size)
    };
    // The tokens seen are found by a first pass over the whole input: the bar counts both.
    let passes = if settings.items_from_input() { 2 } else { 1 };
    let mut progress = TerminalProgress::new(size.map(|size| size * passes), "bytes");
    let mut ingested = ingest(input, &source, &settings, &progress)?;
    progress.finish();
    let underpowered = if args.powered {
        ingested.require_power()
    } else {
        None
    };
    // The library names the source for people; the command names it as typed.
    ingested.input_mut().command = settings.command(&args.file);
    for note in ingested.notes() {
        say!("shuffle-audit: note: {note}");
    }
    match &ingested {
        IngestReport::Samples(report) => deliver_run(exports, None, report)?,
        IngestReport::Stream(report) => deliver_stream(exports, None, report)?,
    }
    // Ctrl-C stopped a seed search: the report is written, and says how far it got. The
    // window that resumes each runtime is its smallest (fresh decks are searched first).
    let mut resume: Vec<(&str, u64, &str)> = Vec::new();
    for check in ingested
        .input()
        .predictability
        .iter()
        .flat_map(|found| &found.checks)
    {
        let interrupted = check.outcome == shuffle_audit::run::Outcome::Stopped
            && check
                .detail
                .as_deref()
                .is_some_and(|detail| detail.starts_with("interrupted"));
        let Some(how) = check.how.as_deref().filter(|_| interrupted) else {
            continue;
        };
        let start = how
            .rsplit_once(':')
            .and_then(|(_, window)| window.split_once(".."))
            .and_then(|(start, _)| start.parse().ok())
            .unwrap_or(0);
        match resume
            .iter_mut()
            .find(|(runtime, _, _)| *runtime == check.runtime)
        {
            Some(known) if start < known.1 => *known = (check.runtime, start, how),
            Some(_) => {}
            None => resume.push((check.runtime, start, how)),
        }
    }
    if !resume.is_empty() {
        let windows: Vec<&str> = resume.iter().map(|(_, _, how)| *how).collect();
        say!(
            "shuffle-audit: interrupted: the seed search was stopped; resume it with {}",
            windows.join(" ")
        );
        return Ok(ExitCode::from(130));
    }
    let verdict = ingested.verdict();
    let smallest = ingested
        .smallest_p_adjusted()
        .map_or_else(String::new, |p| format!(" (smallest adjusted p-value {p})"));
    let not_as_wanted = match verdict {
        Verdict::Pass => None,
        Verdict::Suspicious if args.allow_suspicious => {
            // Accepted, but said, so that a CI log shows what was let through.
            say!("shuffle-audit: suspicious{smallest}: accepted (--allow-suspicious)");
            None
        }
        Verdict::Suspicious => Some(format!(
            "suspicious{smallest}: not proven biased, but not shown fair either; read more samples, \
             or pass --allow-suspicious"
        )),
        Verdict::Fail => Some(match settings.kind {
            SampleKind::Stream => format!(
                "fail{smallest}: the stream does not behave as independent draws with the items' weights"
            ),
            _ => match shuffle_audit::analysis::caught_by(ingested.tests()) {
                Some(caught) => format!("fail: {caught}"),
                None => format!("fail{smallest}: the samples are not uniformly distributed"),
            },
        }),
        Verdict::Inconclusive if underpowered.is_some() => Some(format!(
            "inconclusive: underpowered (--powered): {}",
            underpowered
                .as_ref()
                .map(|power| power.shortfall())
                .unwrap_or_default()
        )),
        Verdict::Inconclusive => Some(format!(
            "inconclusive: too few {} ({}) for every test to run; they need at least {}",
            if settings.kind == SampleKind::Stream {
                "items"
            } else {
                "samples"
            },
            ingested.samples(),
            ingested.samples_needed().unwrap_or(0)
        )),
    };
    // A generator that gives itself away is not wanted by a card-game server, however
    // fair its deals count out.
    let predictable = ingested.input().predictable().map(|found| found.sentence());
    if let Some(sentence) = &predictable {
        say!("shuffle-audit: {sentence}");
    } else if ingested.repeated_decks() && args.seed_search.is_empty() {
        // Far too many repeats: a program started from a small seed deals only so many
        // decks, and one deal names its seed.
        say!(
            "shuffle-audit: the repeated decks are those of a program started from a small seed; find its seed \
             and its next deals with: shuffle-audit seeds recover --runtime NAME {} --predict 1 (NAME: {}), or \
             ingest --seed-search NAME",
            if args.file == "-" {
                "DEALS".to_string()
            } else {
                shell_word(&args.file)
            },
            shuffle_audit::seeds::recover::seeded_runtime_names().join(", ")
        );
    }
    let not_as_wanted = match (not_as_wanted, predictable) {
        (None, Some(sentence)) if args.unpredictable => Some(format!("{sentence} (--unpredictable)")),
        (not_as_wanted, _) => not_as_wanted,
    };
    Ok(match not_as_wanted {
        None => ExitCode::SUCCESS,
        Some(message) => {
            say!("shuffle-audit: {message}");
            ExitCode::from(VERDICT_NOT_AS_WANTED)
        }
    })
}

/// `--deals-needed N`: one line, the number.
fn print_deals_needed(n: usize, alpha: f64) -> Result<ExitCode> {
    use shuffle_audit::analysis::power::deals_to_catch;
    use shuffle_audit::tally::MAX_N;
    if !(2..=MAX_N).contains(&n) {
        return Err(Error::Usage(format!(
            "--deals-needed {n}: a deck has 2 to {MAX_N} cards"
        )));
    }
    shuffle_audit::stats::Thresholds::new(alpha)?;
    let deals = deals_to_catch(n, alpha).ok_or_else(|| {
        Error::Usage(format!(
            "--deals-needed {n}: no number of deals reaches 99 % power at alpha {alpha}"
        ))
    })?;
    let mut out = std::io::stdout().lock();
    let _ = std::io::Write::write_all(&mut out, format!("{deals}\n").as_bytes());
    Ok(ExitCode::SUCCESS)
}
