//! The `shuffle-audit` command line: parse arguments, call the library, print, and exit
//! with 0 (done), or 2 (usage or input error, with a one-line message).
//!
//! Everything testable lives in the library; this file only knows about clap, the
//! terminal (progress bar, standard streams) and exit codes.

use std::io::IsTerminal;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use clap::{Args, Parser, Subcommand};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use serde::Serialize;

use shuffle_audit::catalogue::{AlgorithmSpec, SHUFFLES};
use shuffle_audit::output::{Destination, csv, json, text};
use shuffle_audit::parse::parse_count;
use shuffle_audit::run::{RunSettings, run};
use shuffle_audit::simulate::Progress;
use shuffle_audit::stats::verdict::DEFAULT_ALPHA;
use shuffle_audit::{Error, Result};

/// Finds out whether a shuffle is fair: simulates it, tallies, tests, and reports.
#[derive(Parser)]
#[command(name = "shuffle-audit", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Shuffle a deck many times with catalogue algorithms and test the results.
    Run(RunArgs),
    /// List the catalogue of algorithms.
    List(ListArgs),
}

#[derive(Args)]
struct RunArgs {
    /// Algorithms to run, e.g. `naive-swap fisher-yates naive-repeated:3` (see `list`).
    #[arg(required = true, value_name = "ALGORITHM")]
    algorithms: Vec<String>,
    /// Cards in the deck (2 to 2000).
    #[arg(long, short = 'n', value_name = "N")]
    n: usize,
    /// Shuffles per algorithm: 600000, 600_000 or 6e5.
    #[arg(long, short = 't', value_name = "T", default_value = "600000", value_parser = parse_count)]
    trials: u64,
    /// Seed (a 64-bit integer). Without it one is taken from the OS and printed.
    #[arg(long, short = 's', value_name = "S")]
    seed: Option<u64>,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long, short = 'j', value_name = "J")]
    threads: Option<usize>,
    /// Significance level for `fail`; `suspicious` is below 1e-3.
    #[arg(long, value_name = "A", default_value_t = DEFAULT_ALPHA)]
    alpha: f64,
    /// Write the full results as JSON to FILE (`-` for standard output).
    #[arg(long, value_name = "FILE")]
    json: Option<String>,
    /// Write every tally as CSV to FILE (`-` for standard output).
    #[arg(long, value_name = "FILE")]
    csv: Option<String>,
}

#[derive(Args)]
struct ListArgs {
    /// Print the catalogue as JSON.
    #[arg(long)]
    json: bool,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // Help and version exit 0, usage errors exit 2, as clap decides.
        Err(error) => error.exit(),
    };
    let outcome = match cli.command {
        Command::Run(args) => run_command(args),
        Command::List(args) => list_command(&args),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        // `shuffle-audit list | head`: the reader left, nothing is wrong.
        Err(Error::Write { source, .. }) if source.kind() == std::io::ErrorKind::BrokenPipe => {
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("shuffle-audit: error: {error}");
            ExitCode::from(2)
        }
    }
}

fn run_command(args: RunArgs) -> Result<()> {
    let specs = args
        .algorithms
        .iter()
        .map(|name| AlgorithmSpec::parse(name))
        .collect::<Result<Vec<_>>>()?;
    let json_to = args.json.as_deref().map(Destination::parse);
    let csv_to = args.csv.as_deref().map(Destination::parse);
    if json_to == Some(Destination::Stdout) && csv_to == Some(Destination::Stdout) {
        return Err(Error::Usage(
            "--json - and --csv - cannot both go to standard output; give one a file name".to_string(),
        ));
    }
    let settings = RunSettings {
        n: args.n,
        trials: args.trials,
        seed: args.seed,
        threads: args.threads.unwrap_or_else(default_threads),
        alpha: args.alpha,
    };
    settings.validate()?;
    for destination in json_to.iter().chain(&csv_to) {
        destination.check()?;
    }
    for note in settings.notes() {
        eprintln!("shuffle-audit: note: {note}");
    }
    let progress = TerminalProgress::new(settings.trials.saturating_mul(specs.len() as u64));
    let report = run(&specs, &settings, &progress)?;
    progress.finish();

    let command_line = reproduce_command(&specs, &settings, report.seed);
    let stdout_taken = json_to == Some(Destination::Stdout) || csv_to == Some(Destination::Stdout);
    if stdout_taken {
        if settings.seed.is_none() {
            eprintln!(
                "shuffle-audit: seed {} (from the OS); reproduce with: {command_line}",
                report.seed
            );
        }
    } else {
        Destination::Stdout.write(&text::render(&report, &command_line))?;
    }
    if let Some(destination) = json_to {
        destination.write_with(|out| json::write(&report, out))?;
    }
    if let Some(destination) = csv_to {
        destination.write_with(|out| csv::write(&report, out))?;
    }
    Ok(())
}

/// The command that repeats this run exactly (threads do not matter, so they are left out).
fn reproduce_command(specs: &[AlgorithmSpec], settings: &RunSettings, seed: u64) -> String {
    let names: Vec<String> = specs.iter().map(|spec| spec.display_name(settings.n)).collect();
    let mut command = format!(
        "shuffle-audit run {} --n {} --trials {} --seed {seed}",
        names.join(" "),
        settings.n,
        settings.trials
    );
    if settings.alpha != DEFAULT_ALPHA {
        command.push_str(&format!(" --alpha {}", settings.alpha));
    }
    command
}

fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

#[derive(Serialize)]
struct EntryJson {
    name: &'static str,
    summary: &'static str,
    origin: &'static str,
    expected: &'static str,
    biased_from_n: Option<usize>,
    parameter: Option<shuffle_audit::catalogue::Parameter>,
}

fn list_command(args: &ListArgs) -> Result<()> {
    let out = if args.json {
        let entries: Vec<EntryJson> = SHUFFLES
            .iter()
            .map(|entry| EntryJson {
                name: entry.name,
                summary: entry.summary,
                origin: entry.origin,
                expected: if entry.biased_from.is_some() {
                    "biased"
                } else {
                    "fair"
                },
                biased_from_n: entry.biased_from,
                parameter: entry.parameter,
            })
            .collect();
        let mut text = serde_json::to_string_pretty(&entries).expect("the catalogue serialises");
        text.push('\n');
        text
    } else {
        let width = SHUFFLES
            .iter()
            .map(|entry| display_name(entry).len())
            .max()
            .unwrap_or(0);
        let mut text = format!(
            "{:<width$}  {:<16}  what it does, and where it comes from\n",
            "algorithm", "deserves"
        );
        for entry in SHUFFLES {
            text.push_str(&format!(
                "{:<width$}  {:<16}  {}\n{:<width$}  {:<16}  from {}\n",
                display_name(entry),
                entry.expected_in_words(),
                entry.summary,
                "",
                "",
                entry.origin
            ));
        }
        text.push_str(
            "\nParameters follow a colon: naive-repeated:3 runs three naive passes (default: n).\n",
        );
        text
    };
    Destination::Stdout.write(&out)
}

fn display_name(entry: &shuffle_audit::catalogue::CatalogueEntry) -> String {
    match entry.parameter {
        Some(parameter) => format!("{}[:{}]", entry.name, parameter.name),
        None => entry.name.to_string(),
    }
}

/// A progress bar on standard error that appears only when the run has lasted a second
/// and standard error is a terminal, so quick runs and pipelines stay quiet.
struct TerminalProgress {
    bar: ProgressBar,
    started: Instant,
    visible: AtomicBool,
    terminal: bool,
}

impl TerminalProgress {
    const DELAY: Duration = Duration::from_secs(1);

    fn new(total: u64) -> Self {
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden());
        bar.set_style(
            ProgressStyle::with_template(
                "{spinner} [{elapsed_precise}] {wide_bar} {human_pos}/{human_len} shuffles ({rate}, {eta} left)",
            )
            .expect("the template is valid")
            .with_key("rate", |state: &ProgressState, out: &mut dyn std::fmt::Write| {
                let _ = write!(out, "{:.1} M/s", state.per_sec() / 1e6);
            }),
        );
        Self {
            bar,
            started: Instant::now(),
            visible: AtomicBool::new(false),
            terminal: std::io::stderr().is_terminal(),
        }
    }

    fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl Progress for TerminalProgress {
    fn advance(&self, trials: u64) {
        self.bar.inc(trials);
        if self.terminal
            && !self.visible.load(Ordering::Relaxed)
            && self.started.elapsed() >= Self::DELAY
            && !self.visible.swap(true, Ordering::Relaxed)
        {
            self.bar.set_draw_target(ProgressDrawTarget::stderr_with_hz(10));
        }
    }
}
