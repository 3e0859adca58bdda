//! Delivering a command's results: the text report on standard output, the exports
//! (`--json`, `--csv`) to their destinations and the report directory (`--report`), in
//! that order, with the rules every command shares: destinations checked against the
//! inputs before any work, the text left out when an export takes standard output (the
//! OS seed then said on standard error), the report written even when an export failed.

use std::path::{Path, PathBuf};

use shuffle_audit::Result;
use shuffle_audit::files::{Destination, Plan};
use shuffle_audit::output::csv::{run as csv, stream as stream_csv};
use shuffle_audit::output::json::{run as json, stream as stream_json};
use shuffle_audit::output::text::{run as text, stream as stream_text};
use shuffle_audit::report::{self, Document};
use shuffle_audit::run::RunReport;
use shuffle_audit::stream::StreamReport;

use super::flags::ExportArgs;

/// Where the exports of a command go.
pub struct Exports {
    pub json_to: Option<Destination>,
    pub csv_to: Option<Destination>,
    /// The report directory, checked before the run ([`ExportArgs::checked`]).
    pub report_to: Option<PathBuf>,
    /// Whether the report directory may be replaced though it holds files the report did
    /// not write.
    pub force: bool,
}

impl ExportArgs {
    /// The exports asked for, checked before any work starts against each other and
    /// against the inputs `plan` holds ([`Plan::check`]).
    pub fn checked(&self, plan: Plan) -> Result<Exports> {
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

/// Prints the text report, unless an export takes standard output (then only the seed
/// taken from the OS, with its reproduce line, goes to standard error, since the text
/// that would have named it is left out), and writes the exports and the report. The
/// report is written even when an export failed; its own failure is said first. A reader
/// of standard output who leaves ends the printing, not the command
/// ([`Destination::Stdout`] says so by succeeding).
pub fn deliver(
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

/// Prints a run's report (or a merged one) and writes its exports and report directory.
pub fn deliver_run(exports: Exports, os_seed: Option<(u64, String)>, report: &RunReport) -> Result<()> {
    deliver(
        exports,
        os_seed,
        || text::render(report),
        |out| json::write(report, out),
        |out| csv::write(report, out),
        || report::run_document(report),
    )
}

/// Prints a stream report (generated, or read by `ingest`) and writes its exports and
/// report directory.
pub fn deliver_stream(exports: Exports, os_seed: Option<(u64, String)>, report: &StreamReport) -> Result<()> {
    deliver(
        exports,
        os_seed,
        || stream_text::render(report),
        |out| stream_json::write(report, out),
        |out| stream_csv::write(report, out),
        || report::stream_document(report),
    )
}

/// Prints a `seeds` report and writes its JSON: these commands have no CSV and no report
/// directory.
pub fn deliver_text_and_json(
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

/// The `--json` destination of a command that writes nothing else, checked before any
/// work starts.
pub fn json_only(json: Option<&str>, force: bool) -> Result<Option<Destination>> {
    let json_to = json.map(|text| Destination::parse(text).forced(force));
    Plan::new(force)
        .writes("--json", json_to.as_ref())
        .check(report::earlier_report)?;
    Ok(json_to)
}

/// Writes the report (when one was asked for) and says where it went.
pub fn write_report_to(dir: Option<&Path>, force: bool, document: impl FnOnce() -> Document) -> Result<()> {
    if let Some(dir) = dir {
        report::write_report(dir, &document(), force)?;
        say!(
            "shuffle-audit: report written to {}",
            dir.join(report::INDEX).display()
        );
    }
    Ok(())
}
