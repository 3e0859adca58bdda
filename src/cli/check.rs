//! `shuffle-audit check`: run a suite of cases (the catalogue's by default, or a TOML
//! config) and exit 0 only when every case gets the verdict it expects; JUnit XML and
//! JSON for the CI system.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use shuffle_audit::Result;
use shuffle_audit::check::{self, CheckSettings};
use shuffle_audit::files::{Destination, Plan};
use shuffle_audit::output::json::check as check_json;
use shuffle_audit::output::junit;
use shuffle_audit::output::text::check as check_text;
use shuffle_audit::report;

use super::flags::{SourceArgs, default_threads, parse_alpha};
use super::progress::TerminalProgress;
use super::status::VERDICT_NOT_AS_WANTED;

#[derive(Args)]
#[command(mut_arg("source", |arg| arg.help(
    "The randomness under every algorithm and generator case that names no `source` of its \
     own (see `list`); each case must still get the verdict it expects. Command cases bring \
     their own randomness: no source applies to them"
)))]
pub struct CheckArgs {
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
    /// Let a pass stand on fewer samples than its case's test needs to catch a total
    /// variation of 0.05 with 99 % power (otherwise such a case is `inconclusive`, and the
    /// gate fails); each such case is still named.
    #[arg(long)]
    allow_underpowered: bool,
    #[command(flatten)]
    source: SourceArgs,
    /// Replace a read-only output file, or a report directory that holds files the report
    /// did not write. Inputs are never replaced, forced or not.
    #[arg(long)]
    force: bool,
}

/// Runs the suite, prints its table (or a closing line when an export takes standard
/// output), writes the JUnit XML and JSON, and exits 0 only when every case is as expected.
pub fn execute(args: &CheckArgs) -> Result<ExitCode> {
    let settings = CheckSettings {
        threads: args.threads.unwrap_or_else(default_threads),
        alpha: args.alpha,
        source: args.source.kind()?,
        allow_underpowered: args.allow_underpowered,
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
        // The export has standard output; the gate's answer still belongs in the log, and
        // so does each case that passed on too few samples.
        for result in &report.results {
            if let Some(note) = result.underpowered_note() {
                say!("shuffle-audit: warning: case '{}': {note}", result.case.name);
            }
        }
        let closing: Vec<&str> = table.lines().rev().take(2).collect();
        say!("shuffle-audit: {}; {}", closing[1], closing[0]);
    } else {
        Destination::Stdout.write(&table)?;
    }
    if let Some(destination) = &junit_to {
        destination.write(&junit::check::render(&report))?;
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
