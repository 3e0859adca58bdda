//! The flags several commands share, and how their values are read: the source of
//! randomness (`--source`, `--clock-step`), the seed and analysis options of the commands
//! that test tallies (`--seed`, `--threads`, `--alpha`), the export destinations
//! (`--json`, `--csv`, `--report`, `--force`), and the checks on them clap cannot make
//! (`--alpha` a probability, a name not given twice).
//!
//! A command's own flags live in its own module; a flag two commands share lives here, so
//! that it reads and behaves the same in both.

use std::path::PathBuf;

use clap::Args;

use shuffle_audit::randomness::{ClockStep, SourceKind};
use shuffle_audit::{Error, Result};

/// The options `run` and `stream` share.
#[derive(Args)]
pub struct CommonArgs {
    /// Seed (a 64-bit integer). Without it one is taken from the OS and printed.
    #[arg(long, short = 's', value_name = "S", allow_negative_numbers = true)]
    pub seed: Option<u64>,
    #[command(flatten)]
    pub source: SourceArgs,
    #[command(flatten)]
    pub analysis: AnalysisArgs,
}

/// The randomness under the algorithms (`run`, `stream`, `exact`, `check`, `seeds`).
#[derive(Args)]
pub struct SourceArgs {
    /// The randomness under the algorithms: xoshiro (default, fair), msvc-rand-mod (C's
    /// rand() % n), delphi (Delphi's Random), clock-reseed (Delphi's Random re-seeded from
    /// a clock before every shuffle, sample or stream item). `list` gives each one's exact
    /// definition.
    #[arg(long, value_name = "NAME", default_value = "xoshiro")]
    pub source: String,
    /// How far the modelled clock of `--source clock-reseed` advances per shuffle (per
    /// sample, per stream item), in milliseconds (default 0.001: a thousand shuffles per
    /// tick of a millisecond clock).
    #[arg(long, value_name = "MS", value_parser = parse_clock_step, allow_negative_numbers = true)]
    pub clock_step: Option<ClockStep>,
}

impl SourceArgs {
    /// The source asked for.
    pub fn kind(&self) -> Result<SourceKind> {
        SourceKind::parse(&self.source, self.clock_step)
    }
}

/// `--clock-step`, refused with the message the library gives, without repeating the flag
/// (clap names it).
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
pub struct AnalysisArgs {
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long, short = 'j', value_name = "J", allow_negative_numbers = true)]
    pub threads: Option<usize>,
    /// Significance level for `fail`; `suspicious` is below 1e-3.
    #[arg(long, value_name = "A", default_value = "1e-6", value_parser = parse_alpha, allow_negative_numbers = true)]
    pub alpha: f64,
    #[command(flatten)]
    pub exports: ExportArgs,
}

/// Where the results of `run`, `stream` and `merge` go besides the terminal.
#[derive(Args)]
pub struct ExportArgs {
    /// Write the full results as JSON to FILE (`-` for standard output).
    #[arg(long, value_name = "FILE")]
    pub json: Option<String>,
    /// Write every tally as CSV to FILE (`-` for standard output).
    #[arg(long, value_name = "FILE")]
    pub csv: Option<String>,
    /// Write an HTML report with SVG charts (and its Markdown twin) to the directory DIR,
    /// replacing an earlier report there.
    #[arg(long, value_name = "DIR")]
    pub report: Option<PathBuf>,
    /// Replace a read-only output file, or a report directory that holds files the report
    /// did not write. Inputs are never replaced, forced or not.
    #[arg(long)]
    pub force: bool,
}

pub use shuffle_audit::parse::parse_alpha;

/// `--threads` when not given: every core (results never depend on it).
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// Refuses a name given twice: with the same seed it would only repeat the tallies.
pub fn refuse_repeats(what: &str, names: impl Iterator<Item = String>) -> Result<()> {
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
