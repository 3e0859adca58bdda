//! The `shuffle-audit` command line: parse arguments, hand each command to its module in
//! [`cli`], and exit with 0 (every verdict is the one it should be), 1 (one is not: a fair
//! algorithm that does not pass, a biased one that is not caught, samples not shown fair,
//! a result that is `inconclusive` or `suspicious`, a `check` case not as expected), or 2
//! (usage or input error, with a one-line message); 130, 143 and 129 after SIGINT, SIGTERM
//! and SIGHUP.
//!
//! The exit status is decided by the verdicts alone: a reader of standard output that
//! leaves (`| head`) stops the printing, never the verdict, and nothing printed to
//! standard error can panic.
//!
//! Everything testable lives in the library; the binary only knows about clap, the
//! terminal (progress bar, standard streams, signals) and exit codes. This file parses and
//! dispatches; each command's flags and body are in `cli/<command>.rs`.

use std::process::ExitCode;

use clap::{ColorChoice, CommandFactory, FromArgMatches, Parser, Subcommand};

use shuffle_audit::format::escaped_for_terminals;

/// Writes a line to standard error. Unlike `eprintln!`, it never panics: a standard error
/// that is closed or whose reader has gone (`2>&1 | head -c 1`) must not turn a verdict
/// into a crash.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

mod cli;

/// Finds out whether a shuffle is fair: runs it millions of times, tallies every outcome,
/// tests the tallies, and says how large any bias is and where.
#[derive(Parser)]
#[command(name = "shuffle-audit", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// When to colour help and error messages: auto (on a terminal, unless NO_COLOR is
    /// set), always, never. Nothing else the tool prints is coloured.
    #[arg(long, global = true, value_name = "WHEN", default_value = "auto")]
    #[allow(
        dead_code,
        reason = "read before parsing, by color_choice: clap colours while it parses"
    )]
    color: ColorChoice,
}

#[derive(Subcommand)]
enum Command {
    /// Shuffle a deck (or pick k of n items) many times with catalogue algorithms and test
    /// the results.
    Run(cli::run::RunArgs),
    /// Draw endless item streams (i.i.d. picks, shuffle bags) and test what they deal.
    Stream(cli::stream::StreamArgs),
    /// Enumerate every random path of catalogue algorithms on a small deck: each order's
    /// exact probability.
    Exact(cli::exact::ExactArgs),
    /// Read samples written by another program, one per line (`python3 my_shuffle.py |
    /// shuffle-audit ingest -`), and test them as `run` tests an algorithm. Exit status 0:
    /// fair; 1: not shown fair (fail, suspicious, or too few samples); 2: bad input.
    Ingest(cli::ingest::IngestArgs),
    /// List the catalogue of algorithms and stream generators, and the sources of randomness
    /// under them with their exact definitions.
    List(cli::list::ListArgs),
    /// Add the JSON of every shard of a run (`run ... --shard I/K --json FILE`) into the
    /// whole run's report, every statistic recomputed.
    Merge(cli::merge::MergeArgs),
    /// Run a suite of cases (the whole catalogue by default, or `--config FILE`) and exit
    /// 0 only when every case gets the verdict it expects: a CI gate.
    Check(cli::check::CheckArgs),
    /// What a source's seeds allow: how many decks they can deal (`seeds reach`), and
    /// which seed dealt the cards a player saw (`seeds crack`).
    Seeds(cli::seeds::SeedsArgs),
    /// Regenerate the teaching report: the source texts' claims, run with fixed seeds and
    /// written as HTML, Markdown and SVG charts (the same bytes every time).
    Report(cli::report::ReportArgs),
    /// Serve the live page on this machine: watch a catalogue run's heat map and verdict
    /// fill in, test your own JavaScript shuffle or a file of deals (`serve --open`).
    Serve(cli::serve::ServeArgs),
    /// Print the tab-completion script of a shell (bash, zsh, fish, powershell, elvish):
    /// `source <(shuffle-audit completions bash)`.
    Completions(cli::completions::CompletionsArgs),
    /// Print the manual page (roff: `shuffle-audit man | man -l -`), or write a page per
    /// subcommand into a directory with `--out-dir`.
    Man(cli::man::ManArgs),
}

fn main() -> ExitCode {
    run_command_line(std::env::args_os().collect())
}

/// The whole command line, `args` as the process got them (the program's name first).
/// Public for the Python module, which builds this file into itself and runs it as the
/// wheel's `shuffle-audit` command (python/src/lib.rs).
pub fn run_command_line(args: Vec<std::ffi::OsString>) -> ExitCode {
    let matches = Cli::command()
        .color(cli::parse_errors::color_choice(args.iter().cloned()))
        .try_get_matches_from(args);
    let cli = match matches.and_then(|matches| Cli::from_arg_matches(&matches)) {
        Ok(cli) => cli,
        Err(error) if error.kind() == clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            // `shuffle-audit` or `shuffle-audit seeds` alone: what could follow.
            say!("{}", cli::parse_errors::commands_needed(&error));
            return ExitCode::from(2);
        }
        Err(error) if error.use_stderr() => {
            say!(
                "shuffle-audit: {}",
                cli::parse_errors::one_line(&error, Cli::command())
            );
            return ExitCode::from(2);
        }
        // --help and --version go to standard output with status 0.
        Err(error) => error.exit(),
    };
    cli::signals::handle_signals();
    let outcome = match cli.command {
        Command::Run(args) => cli::run::execute(args),
        Command::Stream(args) => cli::stream::execute(args),
        Command::Exact(args) => cli::exact::execute(&args),
        Command::Merge(args) => cli::merge::execute(args),
        Command::Ingest(args) => cli::ingest::execute(args),
        Command::List(args) => cli::list::execute(&args),
        Command::Report(args) => cli::report::execute(&args),
        Command::Check(args) => cli::check::execute(&args),
        Command::Seeds(args) => cli::seeds::execute(args),
        Command::Serve(args) => cli::serve::execute(args),
        Command::Completions(args) => cli::completions::execute(&args, Cli::command()),
        Command::Man(args) => cli::man::execute(&args, Cli::command()),
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
