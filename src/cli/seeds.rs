//! `shuffle-audit seeds`: what a source's seeds allow. `reach` counts the decks a seed
//! space can deal, `crack` finds the seeds that deal the cards a player saw, and `deal`
//! prints the deck one seed deals (as `crack` deals it).

use std::process::ExitCode;

use clap::{Args, Subcommand};

use std::path::Path;

use shuffle_audit::catalogue::AlgorithmSpec;
use shuffle_audit::files::Destination;
use shuffle_audit::files::Plan;
use shuffle_audit::format::{group_thousands, shell_word};
use shuffle_audit::ingest::parse_deck;
use shuffle_audit::output::json::crack as crack_json;
use shuffle_audit::output::text::crack as crack_text;
use shuffle_audit::report;
use shuffle_audit::seeds::crack::{CrackSettings, crack};
use shuffle_audit::seeds::deal::Dealer;
use shuffle_audit::seeds::reach::parse_seed_range;
use shuffle_audit::seeds::seen::Seen;
use shuffle_audit::seeds::window::{SeedWindow, parse_seed};
use shuffle_audit::{Error, Result};

use super::deliver::{deliver_text_and_json, json_only};
use super::flags::{SourceArgs, default_threads};
use super::progress::TerminalProgress;
use super::status::VERDICT_NOT_AS_WANTED;

#[derive(Args)]
pub struct SeedsArgs {
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
    /// Recover a runtime's generator state or seed (`list` names the runtimes) from the
    /// deals it dealt, and predict the next deals. Exit status 0: one state deals every
    /// deal; 1: none does, or several do and --predict was asked; 2: bad input.
    Recover(RecoverArgs),
}

/// `--runtime`'s help, drawn from the runtime registry.
fn runtime_help() -> String {
    format!(
        "The runtime that dealt: {}; `list` shows the code each models",
        shuffle_audit::seeds::recover::runtimes_help()
    )
}

/// `--window`'s help, naming the seeded runtimes of the registry.
fn window_help() -> String {
    format!(
        "Search only the seeds A to B-1 of a seeded runtime ({}), e.g. a range of time stamps; default: \
         every seed it has. An interrupted search prints the window that resumes it",
        shuffle_audit::seeds::recover::seeded_runtime_names().join(", ")
    )
}

#[derive(Args)]
struct RecoverArgs {
    /// The runtime that dealt (the help lists them from the registry).
    #[arg(long, value_name = "NAME", help = runtime_help())]
    runtime: String,
    /// The deals, one whole deck per line in the order dealt, as `ingest` reads them
    /// (plain, or printed as a Python or JSON list); `-` reads standard input.
    #[arg(value_name = "DEALS")]
    deals: String,
    /// The deck before any shuffle, in its order, e.g. "2C 3C 4C". Without it the cards
    /// must all be numbers, taken in ascending order.
    #[arg(long, value_name = "ITEMS", allow_hyphen_values = true)]
    deck: Option<String>,
    /// Each deal shuffled the deck the previous deal left, not a fresh deck in the
    /// unshuffled order (`Collections.shuffle(list)` called again on the same list).
    #[arg(long)]
    carried: bool,
    /// Print the next K deals, in the input's labels.
    #[arg(long, value_name = "K", default_value = "0")]
    predict: usize,
    /// Search only the seeds A to B-1 of a seeded runtime (the help lists them).
    #[arg(long, value_name = "A..B", value_parser = parse_seed_range, help = window_help())]
    window: Option<std::ops::Range<u64>>,
    /// Write the answer as JSON to FILE (`-` for standard output).
    #[arg(long, value_name = "FILE")]
    json: Option<String>,
    /// Replace a read-only output file. Inputs are never replaced, forced or not.
    #[arg(long)]
    force: bool,
    /// Worker threads (default: all cores). The answer does not depend on it.
    #[arg(long, short = 'j', value_name = "J", allow_negative_numbers = true)]
    threads: Option<usize>,
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

/// The most deals `seeds recover --predict` prints.
const MOST_PREDICTED: usize = 10_000;

/// `seeds recover`: the generator behind the deals, and the next deals.
fn seeds_recover_command(args: &RecoverArgs) -> Result<ExitCode> {
    use shuffle_audit::ingest::recovery::{RecoverReport, read_deals};
    use shuffle_audit::output::json::recover as recover_json;
    use shuffle_audit::output::text::recover as recover_text;
    use shuffle_audit::seeds::recover::{
        Control, check_window, recover, runtime_named, seeded_runtime_names,
    };
    let runtime = runtime_named(&args.runtime).map_err(|problem| Error::BadOption {
        option: "--runtime",
        problem,
    })?;
    if args.predict > MOST_PREDICTED {
        return Err(Error::BadOption {
            option: "--predict",
            problem: format!(
                "at most {MOST_PREDICTED} deals are predicted (got {})",
                args.predict
            ),
        });
    }
    match (&args.window, runtime.seed_space()) {
        (Some(_), None) => {
            return Err(Error::BadOption {
                option: "--window",
                problem: format!(
                    "{} is not started from a small seed: its state is recovered from the deals whole, \
                     without a window (--window is for {})",
                    runtime.about().generator,
                    seeded_runtime_names().join(", ")
                ),
            });
        }
        (Some(window), Some(space)) => {
            check_window(runtime.about().name, window, &space).map_err(|problem| Error::BadOption {
                option: "--window",
                problem,
            })?;
        }
        (None, _) => {}
    }
    let threads = args.threads.unwrap_or_else(default_threads);
    shuffle_audit::simulate::check_thread_count(threads)?;
    let deck = args.deck.as_deref().map(parse_deck).transpose()?;
    let plan = Plan::new(args.force);
    let plan = if args.deals == "-" {
        plan.reads_stdin()
    } else {
        plan.reads(Path::new(&args.deals))
    };
    let json_to = args
        .json
        .as_deref()
        .map(|text| Destination::parse(text).forced(args.force));
    plan.writes("--json", json_to.as_ref())
        .check(report::earlier_report)?;
    let (deals, source) = if args.deals == "-" {
        (
            read_deals(
                std::io::stdin().lock(),
                "standard input",
                deck.as_deref(),
                args.carried,
            )?,
            "standard input".to_string(),
        )
    } else {
        let file = std::fs::File::open(&args.deals)
            .map_err(|error| Error::Input(format!("cannot open {}: {error}", args.deals)))?;
        (
            read_deals(
                std::io::BufReader::new(file),
                &args.deals,
                deck.as_deref(),
                args.carried,
            )?,
            args.deals.clone(),
        )
    };
    let engine = shuffle_audit::simulate::Engine::new(threads)?;
    // A search of a few seconds or more shows a bar; a quick one shows nothing.
    let mut progress = match &args.window {
        Some(window) => {
            let seeds = (window.end - window.start) * runtime.about().shuffles.len() as u64;
            TerminalProgress::new((seeds > 1 << 24).then_some(seeds), "seeds")
        }
        None if runtime.seed_space().is_some() => {
            let seeds = runtime.work(&deals.observed);
            TerminalProgress::new((seeds > 1 << 24).then_some(seeds), "seeds")
        }
        // A search over eras that takes seconds counts the parts of its searches.
        None if runtime.takes_seconds() || runtime.tries_others() => {
            TerminalProgress::new(Some(runtime.work(&deals.observed)), "parts")
        }
        None => {
            let work = runtime.work(&deals.observed);
            TerminalProgress::new((work > 1 << 28).then_some(work), "states")
        }
    };
    // Ctrl-C stops a seed search, or a search that takes seconds, where it is, so that it
    // can say how far it got (and a seed search the window that resumes it); a second
    // Ctrl-C ends the process at once.
    let stop = if runtime.seed_space().is_some() || runtime.takes_seconds() || runtime.tries_others() {
        super::signals::interrupt_stops_search()
    } else {
        Box::leak(Box::new(std::sync::atomic::AtomicBool::new(false)))
    };
    let control = Control {
        stop,
        progress: &progress,
        window: args.window.clone(),
        quick_only: false,
    };
    let recovery = engine.install(|| recover(runtime, &deals.observed, args.predict, &control))?;
    progress.finish();
    // A Ctrl-C that came after the search had ended changes nothing.
    let interrupted = stop.load(std::sync::atomic::Ordering::Relaxed) && !recovery.complete;
    let report = RecoverReport {
        recovery,
        labels: deals.labels,
        source,
        command: recover_command(args),
    };
    deliver_text_and_json(
        json_to,
        || recover_text::render(&report),
        |out| recover_json::write(&report, out),
    )?;
    let recovery = &report.recovery;
    let generator = recovery.runtime.generator;
    let deals = recovery.deals;
    if interrupted {
        if let Some((seeds, resume)) = recovery
            .seeds
            .as_ref()
            .and_then(|seeds| Some((seeds, seeds.resume_with(recovery.runtime.name)?)))
        {
            say!(
                "shuffle-audit: interrupted; {}: resume with {resume}",
                seeds.searched_so_far()
            );
        } else if let Some(caveat) = &recovery.caveat {
            say!("shuffle-audit: interrupted; {caveat}");
        }
        return Ok(ExitCode::from(130));
    }
    // A runtime started from a small seed is searched seed by seed: say seeds.
    let states = if recovery.seeds.is_some() { "seed" } else { "state" };
    let these = if deals == 1 {
        "this deal".to_string()
    } else {
        format!("these {deals} deals")
    };
    if recovery.candidates.is_empty() {
        // What the search left out belongs on the same line as its "no": a "no" alone
        // reads as settled.
        match &recovery.caveat {
            Some(caveat) => say!("shuffle-audit: no {generator} {states} deals {these}, {caveat}"),
            None => say!("shuffle-audit: no {generator} {states} deals {these}"),
        }
        return Ok(ExitCode::from(VERDICT_NOT_AS_WANTED));
    }
    // Interrupted searches returned above: an incomplete one here left bits unsettled.
    if args.predict > 0 && !recovery.complete {
        match &recovery.caveat {
            Some(caveat) => say!("shuffle-audit: {}", caveat.trim_start_matches("but ")),
            None => say!(
                "shuffle-audit: other {states}s of {generator} may deal {these}: give more deals to predict \
                 the next"
            ),
        }
        return Ok(ExitCode::from(VERDICT_NOT_AS_WANTED));
    }
    if args.predict > 0 && !recovery.predictable() {
        say!(
            "shuffle-audit: {} {generator} {states}s deal {these}: give {} to predict the next",
            group_thousands(recovery.matching()),
            recovery.more_deals_to_tell_apart()
        );
        return Ok(ExitCode::from(VERDICT_NOT_AS_WANTED));
    }
    Ok(ExitCode::SUCCESS)
}

/// The command that repeats a recovery, as typed (its file name quoted when it needs it).
fn recover_command(args: &RecoverArgs) -> String {
    let mut command = format!(
        "shuffle-audit seeds recover --runtime {} {}",
        args.runtime,
        shell_word(&args.deals)
    );
    if let Some(deck) = &args.deck {
        command.push_str(&format!(" --deck {}", shell_word(deck)));
    }
    if args.carried {
        command.push_str(" --carried");
    }
    if args.predict > 0 {
        command.push_str(&format!(" --predict {}", args.predict));
    }
    if let Some(window) = &args.window {
        command.push_str(&format!(" --window {}..{}", window.start, window.end));
    }
    command
}

/// Runs the `seeds` command asked for.
pub fn execute(args: SeedsArgs) -> Result<ExitCode> {
    match args.command {
        SeedsCommand::Reach(args) => seeds_reach_command(&args).map(|()| ExitCode::SUCCESS),
        SeedsCommand::Crack(args) => seeds_crack_command(&args),
        SeedsCommand::Deal(args) => seeds_deal_command(&args).map(|()| ExitCode::SUCCESS),
        SeedsCommand::Recover(args) => seeds_recover_command(&args),
    }
}
