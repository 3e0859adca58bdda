//! `shuffle-audit stream`: draw endless item streams (i.i.d. picks, shuffle bags) from
//! catalogue generators, test what they deal, print the report and write the exports.

use std::process::ExitCode;

use clap::Args;

use shuffle_audit::Result;
use shuffle_audit::catalogue::generators::{GeneratorSpec, StreamScenario};
use shuffle_audit::catalogue::items::Items;
use shuffle_audit::files::Plan;
use shuffle_audit::output::text::stream as stream_text;
use shuffle_audit::parse::parse_count;
use shuffle_audit::stream::{StreamSettings, run_streams};

use super::deliver::deliver_stream;
use super::flags::{CommonArgs, default_threads, refuse_repeats};
use super::progress::TerminalProgress;
use super::status::verdict_status;

#[derive(Args)]
pub struct StreamArgs {
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

/// Draws the streams, prints the report, writes the exports; the status is the verdicts'.
pub fn execute(args: StreamArgs) -> Result<ExitCode> {
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
