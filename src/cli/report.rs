//! `shuffle-audit report`: regenerate the teaching report (HTML, Markdown, SVG charts,
//! the same bytes every time) and print each result's verdict beside the one it is known to get.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use shuffle_audit::Result;
use shuffle_audit::files::{Destination, Plan};
use shuffle_audit::report;

use super::deliver::write_report_to;
use super::flags::default_threads;
use super::progress::TerminalProgress;
use super::status::verdict_status;

#[derive(Args)]
pub struct ReportArgs {
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

/// Writes the teaching report and prints each result's verdict beside the one it
/// is known to get; the status is the verdicts'.
pub fn execute(args: &ReportArgs) -> Result<ExitCode> {
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
