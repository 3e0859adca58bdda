//! The `shuffle-audit` command line: parse arguments, call the library, print, and exit
//! with 0 (every verdict is the one it should be), 1 (one is not: a fair algorithm that
//! does not pass, a biased one that is not caught, samples not shown fair, a result that
//! is `inconclusive` or `suspicious`, a `check` case not as expected), or 2 (usage or
//! input error, with a one-line message); 130, 143 and 129 after SIGINT, SIGTERM and
//! SIGHUP.
//!
//! The exit status is decided by the verdicts alone: a reader of standard output that
//! leaves (`| head`) stops the printing, never the verdict, and nothing printed to
//! standard error can panic.
//!
//! Everything testable lives in the library; this file only knows about clap, the
//! terminal (progress bar, standard streams, signals) and exit codes.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

use shuffle_audit::catalogue::generators::{GeneratorSpec, StreamScenario};
use shuffle_audit::catalogue::items::Items;
use shuffle_audit::catalogue::{AlgorithmSpec, Graded};
use shuffle_audit::check::{self, CheckSettings};
use shuffle_audit::files::{Destination, Plan, remove_pending_temporaries};
use shuffle_audit::format::{compact, escaped_for_terminals, group_thousands};
use shuffle_audit::merge::{MergeSettings, merge};
use shuffle_audit::output::csv::{run as csv, stream as stream_csv};
use shuffle_audit::output::json::{
    check as check_json, crack as crack_json, exact as exact_json, run as json, stream as stream_json,
};
use shuffle_audit::output::text::{
    check as check_text, crack as crack_text, exact as exact_text, run as text, stream as stream_text,
};
use shuffle_audit::parse::parse_count;
use shuffle_audit::randomness::{ClockStep, SourceKind};
use shuffle_audit::report::{self, Document};
use shuffle_audit::run::{RunReport, RunSettings, run};
use shuffle_audit::seeds::crack::{CrackSettings, crack};
use shuffle_audit::seeds::deal::Dealer;
use shuffle_audit::seeds::reach::parse_seed_range;
use shuffle_audit::seeds::seen::Seen;
use shuffle_audit::seeds::window::{SeedWindow, parse_seed};
use shuffle_audit::simulate::{Progress, Shard};
use shuffle_audit::stream::{StreamReport, StreamSettings, run_streams};
use shuffle_audit::{Error, Result};

/// Writes a line to standard error. Unlike `eprintln!`, it never panics: a standard error
/// that is closed or whose reader has gone (`2>&1 | head -c 1`) must not turn a verdict
/// into a crash.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

/// Finds out whether a shuffle is fair: runs it millions of times, tallies every outcome,
/// tests the tallies, and says how large any bias is and where.
#[derive(Parser)]
#[command(name = "shuffle-audit", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Shuffle a deck (or pick k of n items) many times with catalogue algorithms and test
    /// the results.
    Run(RunArgs),
    /// Draw endless item streams (i.i.d. picks, shuffle bags) and test what they deal.
    Stream(StreamArgs),
    /// Enumerate every random path of catalogue algorithms on a small deck: each order's
    /// exact probability.
    Exact(ExactArgs),
    /// Read samples written by another program, one per line (`python3 my_shuffle.py |
    /// shuffle-audit ingest -`), and test them as `run` tests an algorithm. Exit status 0:
    /// fair; 1: not shown fair (fail, suspicious, or too few samples); 2: bad input.
    Ingest(IngestArgs),
    /// List the catalogue of algorithms and stream generators, and the sources of randomness
    /// under them with their exact definitions.
    List(ListArgs),
    /// Add the JSON of every shard of a run (`run ... --shard I/K --json FILE`) into the
    /// whole run's report, every statistic recomputed.
    Merge(MergeArgs),
    /// Run a suite of cases (the whole catalogue by default, or `--config FILE`) and exit
    /// 0 only when every case gets the verdict it expects: a CI gate.
    Check(CheckArgs),
    /// What a source's seeds allow: how many decks they can deal (`seeds reach`), and
    /// which seed dealt the cards a player saw (`seeds crack`).
    Seeds(SeedsArgs),
    /// Regenerate the teaching report: the source texts' claims, run with fixed seeds and
    /// written as HTML, Markdown and SVG charts (the same bytes every time).
    Report(ReportArgs),
}

#[derive(Args)]
struct RunArgs {
    /// Algorithms to run, e.g. `naive-swap fisher-yates naive-repeated:3` (see `list`).
    #[arg(required = true, value_name = "ALGORITHM")]
    algorithms: Vec<String>,
    /// Cards in the deck, or items to pick from (2 to 2000).
    #[arg(long, short = 'n', value_name = "N", allow_negative_numbers = true)]
    n: usize,
    /// Items each sampler picks (1 to n-1); samplers only, e.g. `run bag-pick --n 10 --k 3`.
    #[arg(long, short = 'k', value_name = "K", allow_negative_numbers = true)]
    k: Option<usize>,
    /// Shuffles per algorithm: 600000, 600_000 or 6e5.
    #[arg(long, short = 't', value_name = "T", default_value = "600000", value_parser = parse_count, allow_negative_numbers = true)]
    trials: u64,
    /// Run only shard I of K of the run (e.g. 2/4; needs --seed); `merge` adds the
    /// shards' JSON into exactly the whole run.
    #[arg(long, value_name = "I/K", value_parser = Shard::parse, allow_hyphen_values = true)]
    shard: Option<Shard>,
    #[command(flatten)]
    common: CommonArgs,
}

#[derive(Args)]
struct SeedsArgs {
    #[command(subcommand)]
    command: SeedsCommand,
}

#[derive(Subcommand)]
enum SeedsCommand {
    /// Shuffle from every seed of a range and count the distinct orders reached, against n!.
    Reach(ReachArgs),
    /// Search a window of seeds for the deals consistent with the cards a player saw, and
    /// print the whole deck each implies. Exit status 0: a seed matches; 1: none does.
    Crack(CrackArgs),
    /// Print the deck one seed deals (labels 1..n in dealing order), as `crack` deals it.
    Deal(DealArgs),
}

#[derive(Args)]
struct ReachArgs {
    /// Cards in the deck (2 to 2000). Up to 12 cards the count is exact (a bit for every
    /// order); beyond, it is an estimate from a sample of the distinct orders, said so.
    #[arg(long, short = 'n', value_name = "N", allow_negative_numbers = true)]
    n: usize,
    /// The shuffle that deals from each seed (see `list`; samplers do not deal decks).
    #[arg(long, short = 'a', value_name = "ALGORITHM", default_value = "fisher-yates")]
    algorithm: String,
    /// Enumerate the seeds 0..2^B: at most 32 for the 32-bit sources, 26 for clock-reseed
    /// (its clock reads at most 86,399,999 ms), 40 for xoshiro.
    #[arg(long, value_name = "B", conflicts_with = "seed_range")]
    seed_bits: Option<u32>,
    /// Enumerate the seeds A to B-1 (e.g. 0..86400000); repeat it for several windows.
    /// Default: the source's whole seed space, every 32-bit state for msvc-rand-mod and
    /// delphi, a day of milliseconds (0..86400000) for clock-reseed; xoshiro's seeds are
    /// 64-bit and need --seed-bits or --seed-range. At most 2^40 seeds in all.
    #[arg(long, value_name = "A..B", value_parser = parse_seed_range)]
    seed_range: Vec<std::ops::Range<u64>>,
    #[command(flatten)]
    source: SourceArgs,
    /// Worker threads (default: all cores). The result does not depend on it.
    #[arg(long, short = 'j', value_name = "J", allow_negative_numbers = true)]
    threads: Option<usize>,
    /// Write the result as JSON to FILE (`-` for standard output).
    #[arg(long, value_name = "FILE")]
    json: Option<String>,
    /// Replace a read-only output file, or a report directory that holds files the report
    /// did not write. Inputs are never replaced, forced or not.
    #[arg(long)]
    force: bool,
}

#[derive(Args)]
struct CrackArgs {
    /// The seeds to search: START..END (END left out) or START..=END, as seeds
    /// (0..86400000) or times of day (13:59:00..14:01:00 is 120,000 ms).
    #[arg(long, value_name = "START..END")]
    window: String,
    /// The top of the deck as seen, in dealing order: cards labelled 1..n by their places
    /// in the unshuffled deck, e.g. "17 40 3".
    #[arg(long, value_name = "CARDS", allow_hyphen_values = true)]
    seen: Option<String>,
    /// Cards seen elsewhere: POS:CARD,... with positions from 1 in dealing order, e.g.
    /// 6:23,12:5 (card 23 at position 6, card 5 at position 12).
    #[arg(long, value_name = "POS:CARD,...", allow_hyphen_values = true)]
    seen_at: Option<String>,
    #[command(flatten)]
    dealer: DealerArgs,
    /// Worker threads (default: all cores). The answer does not depend on it.
    #[arg(long, short = 'j', value_name = "J", allow_negative_numbers = true)]
    threads: Option<usize>,
    /// Write the matching seeds and their decks as JSON to FILE (`-` for standard output).
    #[arg(long, value_name = "FILE")]
    json: Option<String>,
    /// Replace a read-only output file, or a report directory that holds files the report
    /// did not write. Inputs are never replaced, forced or not.
    #[arg(long)]
    force: bool,
}

#[derive(Args)]
struct DealArgs {
    /// The seed: a number, or a time of day such as 14:00:12.345 (ms since midnight).
    #[arg(long, short = 's', value_name = "S", allow_hyphen_values = true)]
    seed: String,
    #[command(flatten)]
    dealer: DealerArgs,
}

/// The program whose deals `seeds deal` and `seeds crack` reproduce.
#[derive(Args)]
struct DealerArgs {
    /// The shuffle the dealer runs, e.g. asf-poker (see `list`).
    #[arg(long, value_name = "ALGORITHM")]
    algorithm: String,
    /// Cards in the deck.
    #[arg(
        long,
        short = 'n',
        value_name = "N",
        default_value = "52",
        allow_negative_numbers = true
    )]
    n: usize,
    #[command(flatten)]
    source: SourceArgs,
}

impl DealerArgs {
    fn dealer(&self) -> Result<Dealer> {
        Dealer::new(
            self.source.kind()?,
            &AlgorithmSpec::parse(&self.algorithm)?,
            self.n,
        )
    }
}

#[derive(Args)]
struct MergeArgs {
    /// The JSON of every shard of one run, in any order.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Significance level for `fail` (default: the shards' own).
    #[arg(long, value_name = "A", value_parser = parse_alpha, allow_negative_numbers = true)]
    alpha: Option<f64>,
    /// Worker threads for the simulator check (default: all cores).
    #[arg(long, short = 'j', value_name = "J", allow_negative_numbers = true)]
    threads: Option<usize>,
    #[command(flatten)]
    exports: ExportArgs,
}

#[derive(Args)]
struct StreamArgs {
    /// Generators to run, e.g. `iid refill-list shuffle-bag shuffle-bag-csharp` (see `list`).
    #[arg(required = true, value_name = "GENERATOR")]
    generators: Vec<String>,
    /// The items: a count of equal items (`7`), weights (`A:50,B:25,C:20,D:5`) or `boggle`.
    #[arg(long, value_name = "SPEC")]
    items: String,
    /// Draws per stream: 10000, 10_000 or 1e4.
    #[arg(long, short = 'l', value_name = "L", default_value = "10000", value_parser = parse_count, allow_negative_numbers = true)]
    length: u64,
    /// Independent streams per generator, run in parallel.
    #[arg(long, value_name = "S", default_value = "1000", value_parser = parse_count, allow_negative_numbers = true)]
    streams: u64,
    /// Scenario for the bags with a cursor: after every M draws, add one more copy of
    /// every item by weight (text 000's add in mid-sequence, which resets the cursor).
    #[arg(long, value_name = "M", value_parser = parse_count, allow_negative_numbers = true)]
    add_every: Option<u64>,
    #[command(flatten)]
    common: CommonArgs,
}

/// The options `run` and `stream` share.
#[derive(Args)]
struct CommonArgs {
    /// Seed (a 64-bit integer). Without it one is taken from the OS and printed.
    #[arg(long, short = 's', value_name = "S", allow_negative_numbers = true)]
    seed: Option<u64>,
    #[command(flatten)]
    source: SourceArgs,
    #[command(flatten)]
    analysis: AnalysisArgs,
}

/// The randomness under the algorithms (`run`, `stream`, `exact`, `check`, `seeds`).
#[derive(Args)]
struct SourceArgs {
    /// The randomness under the algorithms: xoshiro (default, fair), msvc-rand-mod (C's
    /// rand() % n), delphi (Delphi's Random), clock-reseed (Delphi's Random re-seeded from
    /// a clock before every shuffle, sample or stream item). `list` gives each one's exact
    /// definition.
    #[arg(long, value_name = "NAME", default_value = "xoshiro")]
    source: String,
    /// How far the modelled clock of `--source clock-reseed` advances per shuffle (per
    /// sample, per stream item), in milliseconds (default 0.001: a thousand shuffles per
    /// tick of a millisecond clock).
    #[arg(long, value_name = "MS", value_parser = parse_clock_step, allow_negative_numbers = true)]
    clock_step: Option<ClockStep>,
}

impl SourceArgs {
    fn kind(&self) -> Result<SourceKind> {
        SourceKind::parse(&self.source, self.clock_step)
    }
}

fn parse_clock_step(text: &str) -> std::result::Result<ClockStep, String> {
    text.parse().map_err(|error: shuffle_audit::Error| {
        let message = error.to_string();
        message
            .strip_prefix("--clock-step ")
            .unwrap_or(&message)
            .to_string()
    })
}

/// The options of every command that tests tallies and exports them (`run`, `stream`,
/// `ingest`).
#[derive(Args)]
struct AnalysisArgs {
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long, short = 'j', value_name = "J", allow_negative_numbers = true)]
    threads: Option<usize>,
    /// Significance level for `fail`; `suspicious` is below 1e-3.
    #[arg(long, value_name = "A", default_value = "1e-6", value_parser = parse_alpha, allow_negative_numbers = true)]
    alpha: f64,
    #[command(flatten)]
    exports: ExportArgs,
}

/// Where the results of `run`, `stream` and `merge` go besides the terminal.
#[derive(Args)]
struct ExportArgs {
    /// Write the full results as JSON to FILE (`-` for standard output).
    #[arg(long, value_name = "FILE")]
    json: Option<String>,
    /// Write every tally as CSV to FILE (`-` for standard output).
    #[arg(long, value_name = "FILE")]
    csv: Option<String>,
    /// Write an HTML report with SVG charts (and its Markdown twin) to the directory DIR,
    /// replacing an earlier report there.
    #[arg(long, value_name = "DIR")]
    report: Option<PathBuf>,
    /// Replace a read-only output file, or a report directory that holds files the report
    /// did not write. Inputs are never replaced, forced or not.
    #[arg(long)]
    force: bool,
}

#[derive(Args)]
struct IngestArgs {
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

#[derive(Args)]
struct ExactArgs {
    /// Algorithms to enumerate, e.g. `naive-swap fisher-yates` (see `list`).
    #[arg(required = true, value_name = "ALGORITHM")]
    algorithms: Vec<String>,
    /// Cards in the deck, or items to pick from (2 to 10 for whole orders).
    #[arg(
        long,
        short = 'n',
        value_name = "N",
        allow_negative_numbers = true,
        required_unless_present = "items"
    )]
    n: Option<usize>,
    /// Items each sampler picks (samplers only).
    #[arg(long, short = 'k', value_name = "K", allow_negative_numbers = true)]
    k: Option<usize>,
    /// List outcomes most likely first (default: in lexicographic order). Laws of over 252
    /// outcomes always list their 10 most and 10 least likely, most likely first.
    #[arg(long)]
    sort: bool,
    /// The exact card x position matrix instead (decks of up to 2000 cards).
    #[arg(long)]
    positions: bool,
    /// Enumerate the first cycle of bag generators (e.g. `shuffle-bag`) dealing one copy
    /// of each of this many items (`--items 4`), instead of shuffles; --n is not needed.
    #[arg(long, value_name = "SPEC", conflicts_with_all = ["positions", "k", "n"])]
    items: Option<String>,
    /// Significance level the samples-needed figure is for.
    #[arg(long, value_name = "A", default_value = "1e-6", value_parser = parse_alpha, allow_negative_numbers = true)]
    alpha: f64,
    /// Worker threads (default: all cores). The result does not depend on it.
    #[arg(long, short = 'j', value_name = "J", allow_negative_numbers = true)]
    threads: Option<usize>,
    #[command(flatten)]
    source: SourceArgs,
    /// Write every outcome's exact probability as JSON to FILE (`-` for standard output).
    #[arg(long, value_name = "FILE")]
    json: Option<String>,
    /// Write an HTML report with SVG charts (and its Markdown twin) to the directory DIR.
    #[arg(long, value_name = "DIR")]
    report: Option<PathBuf>,
    /// Replace a read-only output file, or a report directory that holds files the report
    /// did not write. Inputs are never replaced, forced or not.
    #[arg(long)]
    force: bool,
}

#[derive(Args)]
struct ReportArgs {
    /// The directory to write (replaced as a whole if it holds an earlier report).
    #[arg(long, value_name = "DIR", default_value = "reports")]
    out: PathBuf,
    /// Worker threads (default: all cores). The report does not depend on it.
    #[arg(long, short = 'j', value_name = "J", allow_negative_numbers = true)]
    threads: Option<usize>,
    /// Replace a read-only output file, or a report directory that holds files the report
    /// did not write. Inputs are never replaced, forced or not.
    #[arg(long)]
    force: bool,
}

#[derive(Args)]
#[command(mut_arg("source", |arg| arg.help(
    "The randomness under every algorithm and generator case that names no `source` of its \
     own (see `list`); each case must still get the verdict it expects. Command cases bring \
     their own randomness: no source applies to them"
)))]
struct CheckArgs {
    /// The suite as TOML, one `[[case]]` table per case (default: the catalogue suite).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Write the results as JUnit XML to FILE (`-` for standard output).
    #[arg(long, value_name = "FILE")]
    junit: Option<String>,
    /// Write every case's runs and p-values as JSON to FILE (`-` for standard output).
    #[arg(long, value_name = "FILE")]
    json: Option<String>,
    /// Worker threads (default: all cores). The verdicts do not depend on it.
    #[arg(long, short = 'j', value_name = "J", allow_negative_numbers = true)]
    threads: Option<usize>,
    /// Significance level for `fail`; `suspicious` (below 1e-3) is re-run before it counts.
    #[arg(long, value_name = "A", default_value = "1e-6", value_parser = parse_alpha, allow_negative_numbers = true)]
    alpha: f64,
    #[command(flatten)]
    source: SourceArgs,
    /// Replace a read-only output file, or a report directory that holds files the report
    /// did not write. Inputs are never replaced, forced or not.
    #[arg(long)]
    force: bool,
}

#[derive(Args)]
struct ListArgs {
    /// Print the catalogue as JSON.
    #[arg(long)]
    json: bool,
}

/// The exit status of a gate (`check`, `ingest`) whose verdict is not the one wanted, and
/// of `seeds crack` when no seed matches (as grep's when no line does). Kept apart from 2
/// (usage or input error) so that CI can tell "biased" from "broken".
const VERDICT_NOT_AS_WANTED: u8 = 1;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) if error.use_stderr() => {
            say!("shuffle-audit: {}", one_line(&error));
            return ExitCode::from(2);
        }
        // --help and --version go to standard output with status 0.
        Err(error) => error.exit(),
    };
    handle_signals();
    let outcome = match cli.command {
        Command::Run(args) => run_command(args),
        Command::Stream(args) => stream_command(args),
        Command::Exact(args) => exact_command(&args),
        Command::Merge(args) => merge_command(args),
        Command::Ingest(args) => ingest_command(args),
        Command::List(args) => list_command(&args).map(|()| ExitCode::SUCCESS),
        Command::Report(args) => report_command(&args),
        Command::Check(args) => check_command(&args),
        Command::Seeds(args) => match args.command {
            SeedsCommand::Reach(args) => seeds_reach_command(&args).map(|()| ExitCode::SUCCESS),
            SeedsCommand::Crack(args) => seeds_crack_command(&args),
            SeedsCommand::Deal(args) => seeds_deal_command(&args).map(|()| ExitCode::SUCCESS),
        },
    };
    match outcome {
        Ok(code) => code,
        Err(error) => {
            // Messages quote what the user gave (names, paths, config strings): no byte of
            // it may drive the terminal.
            say!(
                "shuffle-audit: error: {}",
                escaped_for_terminals(&error.to_string())
            );
            ExitCode::from(2)
        }
    }
}

/// SIGINT, SIGTERM and SIGHUP end the process at once, as they would without a handler,
/// but first remove the temporary files and directories being written (so the targets
/// keep their old contents and nothing is left beside them) and kill the programs a
/// `check` case started. The exit status is the shell's convention, 128 + the signal:
/// 130, 143, 129.
fn handle_signals() {
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        // A signal ignored when the program started stays ignored: `nohup` ignores SIGHUP
        // and a script's `cmd &` ignores SIGINT, and both mean "do not stop for it".
        let handled: Vec<i32> = [SIGINT, SIGTERM, SIGHUP]
            .into_iter()
            .filter(|&signal| !ignored_at_start(signal))
            .collect();
        let Ok(mut signals) = signal_hook::iterator::Signals::new(handled) else {
            return;
        };
        std::thread::spawn(move || {
            if let Some(signal) = signals.forever().next() {
                // Held until the process exits: no writer renames anything into place after this.
                let _cleaned = remove_pending_temporaries();
                let what = match signal {
                    SIGINT => "interrupted",
                    SIGTERM => "terminated",
                    _ => "hung up",
                };
                say!("\nshuffle-audit: {what}; no output was left half written");
                std::process::exit(128 + signal);
            }
        });
    }
    #[cfg(not(unix))]
    {
        let _ = ctrlc::set_handler(|| {
            let _cleaned = remove_pending_temporaries();
            say!("\nshuffle-audit: interrupted; no output was left half written");
            std::process::exit(130);
        });
    }
}

/// Whether `signal`'s disposition is "ignore" (as inherited from the parent).
#[cfg(unix)]
fn ignored_at_start(signal: i32) -> bool {
    // SAFETY: sigaction with a null new action only reads the current one into `current`.
    unsafe {
        let mut current: libc::sigaction = std::mem::zeroed();
        libc::sigaction(signal, std::ptr::null(), &mut current) == 0 && current.sa_sigaction == libc::SIG_IGN
    }
}

/// The exit status of a command whose results each have a verdict they should get: 0 when
/// every one does, 1 when one does not, with a line on standard error naming each (a CI
/// log must say why a step failed). `against` says where the expectation comes from.
fn verdict_status(graded: &[Graded], against: &str) -> ExitCode {
    let wrong: Vec<String> = graded
        .iter()
        .filter(|graded| !graded.as_expected())
        .map(|graded| {
            format!(
                "{} is {} where {against} says {}",
                graded.name, graded.verdict, graded.expected
            )
        })
        .collect();
    if wrong.is_empty() {
        ExitCode::SUCCESS
    } else {
        say!(
            "shuffle-audit: not as expected: {} (exit status 1)",
            wrong.join("; ")
        );
        ExitCode::from(VERDICT_NOT_AS_WANTED)
    }
}

/// A parser error as one line: its first paragraph, without the usage block and tips.
fn one_line(error: &clap::Error) -> String {
    let text = error.to_string();
    let first_paragraph: Vec<&str> = text
        .lines()
        .take_while(|line| !line.trim().is_empty())
        .map(str::trim)
        .collect();
    format!("{} (see --help)", first_paragraph.join(" "))
}

fn run_command(args: RunArgs) -> Result<ExitCode> {
    let specs = args
        .algorithms
        .iter()
        .map(|name| AlgorithmSpec::parse(name))
        .collect::<Result<Vec<_>>>()?;
    let settings = RunSettings {
        source: args.common.source.kind()?,
        n: args.n,
        k: args.k,
        trials: args.trials,
        seed: args.common.seed,
        threads: args.common.analysis.threads.unwrap_or_else(default_threads),
        alpha: args.common.analysis.alpha,
        shard: args.shard,
    };
    settings.validate(&specs)?;
    refuse_repeats(
        "algorithm",
        specs.iter().map(|spec| spec.display_name(settings.n)),
    )?;
    let exports = args
        .common
        .analysis
        .exports
        .checked(Plan::new(args.common.analysis.exports.force))?;
    for note in settings.notes(&specs) {
        say!("shuffle-audit: note: {note}");
    }
    let unit = if settings.k.is_some() {
        "samples"
    } else {
        "shuffles"
    };
    let mut progress = TerminalProgress::new(
        Some(settings.tallied_trials().saturating_mul(specs.len() as u64)),
        unit,
    );
    let report = run(&specs, &settings, &progress)?;
    progress.finish();
    let os_seed = settings
        .seed
        .is_none()
        .then(|| (report.seed, text::reproduce_command(&report)));
    deliver_run(exports, os_seed, &report)?;
    Ok(verdict_status(&report.graded(), "the catalogue"))
}

/// Prints a run's report (or a merged one) and writes its exports and report directory.
fn deliver_run(exports: Exports, os_seed: Option<(u64, String)>, report: &RunReport) -> Result<()> {
    deliver(
        exports,
        os_seed,
        || text::render(report),
        |out| json::write(report, out),
        |out| csv::write(report, out),
        || report::run_document(report),
    )
}

fn seeds_reach_command(args: &ReachArgs) -> Result<()> {
    use shuffle_audit::output::json::reach as reach_json;
    use shuffle_audit::output::text::reach as reach_text;
    use shuffle_audit::seeds::reach::{DEFAULT_SAMPLE_CAPACITY, ReachSettings, SeedSpace, reach};
    let source = args.source.kind()?;
    let settings = ReachSettings {
        source,
        algorithm: AlgorithmSpec::parse(&args.algorithm)?,
        n: args.n,
        seeds: SeedSpace::resolve(source, args.seed_bits, &args.seed_range)?,
        threads: args.threads.unwrap_or_else(default_threads),
        sample_capacity: DEFAULT_SAMPLE_CAPACITY,
    };
    settings.validate()?;
    let json_to = json_only(args.json.as_deref(), args.force)?;
    let mut progress = TerminalProgress::new(Some(settings.seeds.count()), "seeds");
    let report = reach(&settings, &progress)?;
    progress.finish();
    deliver_text_and_json(
        json_to,
        || reach_text::render(&report),
        |out| reach_json::write(&report, out),
    )
}

/// The `--json` destination of a command that writes nothing else, checked before any
/// work starts.
fn json_only(json: Option<&str>, force: bool) -> Result<Option<Destination>> {
    let json_to = json.map(|text| Destination::parse(text).forced(force));
    Plan::new(force)
        .writes("--json", json_to.as_ref())
        .check(report::earlier_report)?;
    Ok(json_to)
}

/// Prints a `seeds` report and writes its JSON: these commands have no CSV and no report
/// directory.
fn deliver_text_and_json(
    json_to: Option<Destination>,
    text: impl FnOnce() -> String,
    json: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>,
) -> Result<()> {
    deliver(
        Exports {
            json_to,
            csv_to: None,
            report_to: None,
            force: false,
        },
        None,
        text,
        json,
        |_| Ok(()),
        // No report directory is asked for (report_to is None): never called.
        || unreachable!("the seeds commands write no report directory"),
    )
}

fn seeds_crack_command(args: &CrackArgs) -> Result<ExitCode> {
    let dealer = args.dealer.dealer()?;
    let window = SeedWindow::parse(&args.window, dealer.source())?;
    let seen = Seen::parse(args.seen.as_deref(), args.seen_at.as_deref(), dealer.n())?;
    let threads = args.threads.unwrap_or_else(default_threads);
    shuffle_audit::simulate::check_thread_count(threads)?;
    let json_to = json_only(args.json.as_deref(), args.force)?;
    let settings = CrackSettings {
        dealer,
        window,
        seen,
        threads,
    };
    let mut progress = TerminalProgress::new(Some(window.len()), "seeds");
    let report = crack(&settings, &progress)?;
    progress.finish();
    deliver_text_and_json(
        json_to,
        || crack_text::render(&report),
        |out| crack_json::write(&report, out),
    )?;
    if report.matches == 0 {
        say!(
            "shuffle-audit: no seed of {} deals what was seen",
            window.describe()
        );
        return Ok(ExitCode::from(VERDICT_NOT_AS_WANTED));
    }
    Ok(ExitCode::SUCCESS)
}

/// `seeds deal`: the deck one seed deals, labels 1..n in dealing order on one line.
fn seeds_deal_command(args: &DealArgs) -> Result<()> {
    let dealer = args.dealer.dealer()?;
    let seed = parse_seed(&args.seed, dealer.source(), "--seed")?;
    let deck: Vec<String> = dealer.deal(seed)?.iter().map(u16::to_string).collect();
    Destination::Stdout.write(&format!("{}\n", deck.join(" ")))
}

fn merge_command(args: MergeArgs) -> Result<ExitCode> {
    let plan = args
        .files
        .iter()
        .fold(Plan::new(args.exports.force), |plan, file| plan.reads(file));
    let exports = args.exports.checked(plan)?;
    let settings = MergeSettings {
        alpha: args.alpha,
        threads: args.threads.unwrap_or_else(default_threads),
    };
    let merged = merge(&args.files, &settings)?;
    let unit = if merged.report.settings.k.is_some() {
        "samples"
    } else {
        "shuffles"
    };
    say!(
        "shuffle-audit: merged {} shard{} of a run of {} {unit} per algorithm",
        merged.shards,
        if merged.shards == 1 { "" } else { "s" },
        group_thousands(merged.report.settings.trials)
    );
    deliver_run(exports, None, &merged.report)?;
    Ok(verdict_status(&merged.report.graded(), "the catalogue"))
}

impl ExportArgs {
    /// The exports asked for, checked before any work starts against each other and
    /// against the inputs `plan` holds ([`Plan::check`]).
    fn checked(&self, plan: Plan) -> Result<Exports> {
        let destination = |text: &Option<String>| {
            text.as_deref()
                .map(|text| Destination::parse(text).forced(self.force))
        };
        let (json_to, csv_to) = (destination(&self.json), destination(&self.csv));
        let report_to = plan
            .writes("--json", json_to.as_ref())
            .writes("--csv", csv_to.as_ref())
            .replaces("--report", self.report.as_deref())
            .check(report::earlier_report)?
            .and(self.report.clone());
        Ok(Exports {
            json_to,
            csv_to,
            report_to,
            force: self.force,
        })
    }
}

/// Writes the report (when one was asked for) and says where it went.
fn write_report_to(dir: Option<&Path>, force: bool, document: impl FnOnce() -> Document) -> Result<()> {
    if let Some(dir) = dir {
        report::write_report(dir, &document(), force)?;
        say!(
            "shuffle-audit: report written to {}",
            dir.join(report::INDEX).display()
        );
    }
    Ok(())
}

fn stream_command(args: StreamArgs) -> Result<ExitCode> {
    let specs = args
        .generators
        .iter()
        .map(|name| GeneratorSpec::parse(name))
        .collect::<Result<Vec<_>>>()?;
    let settings = StreamSettings {
        source: args.common.source.kind()?,
        items: Items::parse(&args.items)?,
        length: args.length,
        streams: args.streams,
        seed: args.common.seed,
        threads: args.common.analysis.threads.unwrap_or_else(default_threads),
        alpha: args.common.analysis.alpha,
        scenario: StreamScenario {
            add_every: args.add_every,
        },
    };
    settings.validate(&specs)?;
    refuse_repeats("generator", specs.iter().map(GeneratorSpec::display_name))?;
    let exports = args
        .common
        .analysis
        .exports
        .checked(Plan::new(args.common.analysis.exports.force))?;
    let total = settings
        .length
        .saturating_mul(settings.streams)
        .saturating_mul(specs.len() as u64);
    let mut progress = TerminalProgress::new(Some(total), "draws");
    let report = run_streams(&specs, &settings, &progress)?;
    progress.finish();

    deliver_stream(
        exports,
        settings
            .seed
            .is_none()
            .then(|| (report.seed, stream_text::reproduce_command(&report))),
        &report,
    )?;
    Ok(verdict_status(&report.graded(), "the catalogue"))
}

/// Prints a stream report (generated, or read by `ingest`) and writes its exports and
/// report directory.
fn deliver_stream(exports: Exports, os_seed: Option<(u64, String)>, report: &StreamReport) -> Result<()> {
    deliver(
        exports,
        os_seed,
        || stream_text::render(report),
        |out| stream_json::write(report, out),
        |out| stream_csv::write(report, out),
        || report::stream_document(report),
    )
}

fn ingest_command(args: IngestArgs) -> Result<ExitCode> {
    use shuffle_audit::ingest::{
        IngestReport, IngestSettings, Input, SampleKind, ingest, parse_deck, parse_weights,
    };
    use shuffle_audit::stats::Verdict;
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
    // The library names the source for people; the command names it as typed.
    ingested.input_mut().command = settings.command(&args.file);
    for note in ingested.notes() {
        say!("shuffle-audit: note: {note}");
    }
    match &ingested {
        IngestReport::Samples(report) => deliver_run(exports, None, report)?,
        IngestReport::Stream(report) => deliver_stream(exports, None, report)?,
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
    Ok(match not_as_wanted {
        None => ExitCode::SUCCESS,
        Some(message) => {
            say!("shuffle-audit: {message}");
            ExitCode::from(VERDICT_NOT_AS_WANTED)
        }
    })
}

fn exact_command(args: &ExactArgs) -> Result<ExitCode> {
    if let Some(items) = &args.items {
        return exact_bags_command(args, items);
    }
    let specs = args
        .algorithms
        .iter()
        .map(|name| AlgorithmSpec::parse(name))
        .collect::<Result<Vec<_>>>()?;
    let settings = shuffle_audit::exact::ExactSettings {
        n: args.n.expect("clap requires --n without --items"),
        k: args.k,
        threads: args.threads.unwrap_or_else(default_threads),
        positions: args.positions,
        alpha: args.alpha,
        items: None,
        source: args.source.kind()?,
    };
    refuse_repeats(
        "algorithm",
        specs.iter().map(|spec| spec.display_name(settings.n)),
    )?;
    let exports = args.exports()?;
    let total = specs
        .iter()
        .map(|spec| {
            spec.algorithm
                .as_permutation()
                .and_then(|algorithm| shuffle_audit::exact::enumerate::known_paths(algorithm, settings.n))
        })
        .sum::<Option<u64>>()
        .filter(|_| !settings.positions);
    let mut progress = TerminalProgress::new(total, "paths");
    let report = shuffle_audit::exact::exact(&specs, &settings, &progress)?;
    progress.finish();
    deliver_exact(args, &report, exports)
}

impl ExactArgs {
    /// `--json` and `--report`, checked before any work starts.
    fn exports(&self) -> Result<Exports> {
        let json_to = self
            .json
            .as_deref()
            .map(|text| Destination::parse(text).forced(self.force));
        let report_to = Plan::new(self.force)
            .writes("--json", json_to.as_ref())
            .replaces("--report", self.report.as_deref())
            .check(report::earlier_report)?
            .and(self.report.clone());
        Ok(Exports {
            json_to,
            csv_to: None,
            report_to,
            force: self.force,
        })
    }
}

/// Prints an exact report, writes its exports and its report directory, and gives the
/// exit status of its verdicts.
fn deliver_exact(
    args: &ExactArgs,
    report: &shuffle_audit::exact::ExactReport,
    exports: Exports,
) -> Result<ExitCode> {
    let order = if args.sort {
        exact_text::Order::ByProbability
    } else {
        exact_text::Order::Natural
    };
    deliver(
        exports,
        None,
        || exact_text::render(report, order),
        |out| exact_json::write(report, out),
        |_| Ok(()),
        || report::exact_document(report, exact_text::reproduce_command(report)),
    )?;
    Ok(verdict_status(&report.graded(), "the catalogue"))
}

/// `exact BAG... --items M`: the first cycle of each bag, enumerated.
fn exact_bags_command(args: &ExactArgs, items: &str) -> Result<ExitCode> {
    let generators = args
        .algorithms
        .iter()
        .map(|name| GeneratorSpec::parse(name))
        .collect::<Result<Vec<_>>>()?;
    let items = Items::parse(items)?;
    refuse_repeats("generator", generators.iter().map(GeneratorSpec::display_name))?;
    let settings = shuffle_audit::exact::ExactSettings {
        n: items.len(),
        k: None,
        threads: args.threads.unwrap_or_else(default_threads),
        positions: false,
        alpha: args.alpha,
        items: None,
        source: args.source.kind()?,
    };
    let exports = args.exports()?;
    let mut progress = TerminalProgress::new(None, "paths");
    let report = shuffle_audit::exact::exact_bags(&generators, &items, &settings, &progress)?;
    progress.finish();
    deliver_exact(args, &report, exports)
}

fn report_command(args: &ReportArgs) -> Result<ExitCode> {
    let threads = args.threads.unwrap_or_else(default_threads);
    shuffle_audit::simulate::check_thread_count(threads)?;
    Plan::new(args.force)
        .replaces("--out", Some(&args.out))
        .check(report::earlier_report)?;
    let mut progress = TerminalProgress::new(Some(report::teaching::total_work()), "shuffles and draws");
    let document = report::teaching::teaching_document(threads, &progress)?;
    progress.finish();
    let graded = document.graded();
    Destination::Stdout.write(&shuffle_audit::output::text::teaching::render(&graded))?;
    write_report_to(Some(&args.out), args.force, || document)?;
    Ok(verdict_status(&graded, "the catalogue"))
}

fn check_command(args: &CheckArgs) -> Result<ExitCode> {
    let settings = CheckSettings {
        threads: args.threads.unwrap_or_else(default_threads),
        alpha: args.alpha,
        source: args.source.kind()?,
    };
    shuffle_audit::simulate::check_thread_count(settings.threads)?;
    let junit_to = args
        .junit
        .as_deref()
        .map(|text| Destination::parse(text).forced(args.force));
    let json_to = args
        .json
        .as_deref()
        .map(|text| Destination::parse(text).forced(args.force));
    let plan = match &args.config {
        Some(config) => Plan::new(args.force).reads(config),
        None => Plan::new(args.force),
    };
    plan.writes("--junit", junit_to.as_ref())
        .writes("--json", json_to.as_ref())
        .check(report::earlier_report)?;
    let cases = match &args.config {
        Some(path) => check::config::load(path, &settings)?,
        None => check::suite::default_suite(),
    };
    let total = cases.iter().map(|case| case.kind.work()).sum();
    let mut progress = TerminalProgress::new(Some(total), "trials and draws");
    let report = check::run_check(&cases, &settings, &progress)?;
    progress.finish();

    let stdout_taken = junit_to == Some(Destination::Stdout) || json_to == Some(Destination::Stdout);
    let table = check_text::render(&report);
    if stdout_taken {
        // The export has standard output; the gate's answer still belongs in the log.
        let closing: Vec<&str> = table.lines().rev().take(2).collect();
        say!("shuffle-audit: {}; {}", closing[1], closing[0]);
    } else {
        Destination::Stdout.write(&table)?;
    }
    if let Some(destination) = &junit_to {
        destination.write(&shuffle_audit::output::junit::check::render(&report))?;
    }
    if let Some(destination) = &json_to {
        destination.write_with(|out| check_json::write(&report, out))?;
    }
    Ok(if report.all_as_expected() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(VERDICT_NOT_AS_WANTED)
    })
}

/// Where the exports of a command go.
struct Exports {
    json_to: Option<Destination>,
    csv_to: Option<Destination>,
    /// The report directory, checked before the run ([`ExportArgs::checked`]).
    report_to: Option<PathBuf>,
    /// Whether the report directory may be replaced though it holds files the report did
    /// not write.
    force: bool,
}

/// Refuses a name given twice: with the same seed it would only repeat the tallies.
fn refuse_repeats(what: &str, names: impl Iterator<Item = String>) -> Result<()> {
    let mut seen = std::collections::HashSet::new();
    for name in names {
        if !seen.insert(name.clone()) {
            return Err(Error::Usage(format!(
                "{what} '{name}' is given twice (with the same seed it would give the same tallies)"
            )));
        }
    }
    Ok(())
}

/// Prints the text report, unless an export takes standard output (then only the seed
/// taken from the OS, with its reproduce line, goes to standard error, since the text
/// that would have named it is left out), and writes the exports and the report. The
/// report is written even when an export failed; its own failure is said first. A reader
/// of standard output who leaves ends the printing, not the command
/// ([`Destination::Stdout`] says so by succeeding).
fn deliver(
    exports: Exports,
    os_seed: Option<(u64, String)>,
    render_text: impl FnOnce() -> String,
    write_json: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>,
    write_csv: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>,
    document: impl FnOnce() -> Document,
) -> Result<()> {
    let Exports {
        json_to,
        csv_to,
        report_to,
        force,
    } = exports;
    let stdout_taken = json_to == Some(Destination::Stdout) || csv_to == Some(Destination::Stdout);
    if stdout_taken {
        if let Some((seed, reproduce)) = os_seed {
            say!("shuffle-audit: seed {seed} (from the OS); reproduce with: {reproduce}");
        }
    } else {
        Destination::Stdout.write(&render_text())?;
    }
    let exported = json_to
        .map_or(Ok(()), |destination| destination.write_with(write_json))
        .and_then(|()| csv_to.map_or(Ok(()), |destination| destination.write_with(write_csv)));
    write_report_to(report_to.as_deref(), force, document)?;
    exported
}

/// `--alpha`, refused with the user's own text when it is not a usable probability.
fn parse_alpha(text: &str) -> std::result::Result<f64, String> {
    let alpha: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a number"))?;
    if alpha > 0.0 && alpha < 1.0 {
        Ok(alpha)
    } else if alpha == 0.0 && text.chars().any(|c| c.is_ascii_digit() && c != '0') {
        Err(format!(
            "'{text}' is too small to represent (the smallest is about 1e-308)"
        ))
    } else {
        Err(format!(
            "'{text}' is not a probability between 0 and 1 (exclusive)"
        ))
    }
}

fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

fn list_command(args: &ListArgs) -> Result<()> {
    let out = if args.json {
        shuffle_audit::output::json::catalogue::render()
    } else {
        shuffle_audit::output::text::catalogue::render()
    };
    Destination::Stdout.write(&out)
}

/// A progress bar on standard error that appears only when the run has lasted a second
/// and standard error is a terminal, so quick runs and pipelines stay quiet. A timer
/// shows it, not the trials, so that a run whose first shuffles are slow shows it too,
/// ticking.
struct TerminalProgress {
    bar: ProgressBar,
    finished: Option<std::sync::mpsc::Sender<()>>,
}

impl TerminalProgress {
    const DELAY: Duration = Duration::from_secs(1);

    /// A bar for `total` trials, counted in `unit` (`shuffles` or `samples`); without a
    /// total (random paths whose number is not known in advance) a counter.
    fn new(total: Option<u64>, unit: &str) -> Self {
        let bar = ProgressBar::with_draw_target(total, ProgressDrawTarget::hidden());
        let template = match total {
            Some(_) => format!(
                "{{spinner}} [{{elapsed_precise}}] {{wide_bar}} {{human_pos}}/{{human_len}} {unit} ({{rate}}, {{eta}} left)"
            ),
            None => format!("{{spinner}} [{{elapsed_precise}}] {{human_pos}} {unit} ({{rate}})"),
        };
        bar.set_style(
            ProgressStyle::with_template(&template)
                .expect("the template is valid")
                .with_key("rate", |state: &ProgressState, out: &mut dyn std::fmt::Write| {
                    let _ = write!(out, "{}/s", compact(state.per_sec()));
                }),
        );
        let (finished, wait) = std::sync::mpsc::channel::<()>();
        if std::io::stderr().is_terminal() {
            let shown = bar.clone();
            std::thread::spawn(move || {
                if wait.recv_timeout(Self::DELAY) == Err(std::sync::mpsc::RecvTimeoutError::Timeout) {
                    shown.set_draw_target(ProgressDrawTarget::stderr_with_hz(10));
                    shown.enable_steady_tick(Duration::from_millis(200));
                }
            });
        }
        Self {
            bar,
            finished: Some(finished),
        }
    }

    fn finish(&mut self) {
        drop(self.finished.take());
        self.bar.finish_and_clear();
    }
}

impl Progress for TerminalProgress {
    fn advance(&self, trials: u64) {
        self.bar.inc(trials);
    }
}
