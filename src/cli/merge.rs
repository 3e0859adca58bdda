//! `shuffle-audit merge`: add the JSON of every shard of a run into the whole run's
//! report, every statistic recomputed, and deliver it as `run` would have.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use shuffle_audit::Result;
use shuffle_audit::files::Plan;
use shuffle_audit::format::group_thousands;
use shuffle_audit::merge::{MergeSettings, merge, shard_paths};

use super::deliver::deliver_run;
use super::flags::{ExportArgs, default_threads, parse_alpha};
use super::status::verdict_status;

#[derive(Args)]
pub struct MergeArgs {
    /// The JSON of every shard of one run, in any order; a directory stands for every
    /// *.json file in it.
    #[arg(required = true, value_name = "FILE|DIR")]
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

/// Adds the shards into the whole run and delivers it; the status is the verdicts'.
pub fn execute(args: MergeArgs) -> Result<ExitCode> {
    let files = shard_paths(&args.files)?;
    let plan = files
        .iter()
        .fold(Plan::new(args.exports.force), |plan, file| plan.reads(file));
    let exports = args.exports.checked(plan)?;
    let settings = MergeSettings {
        alpha: args.alpha,
        threads: args.threads.unwrap_or_else(default_threads),
    };
    let merged = merge(&files, &settings)?;
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
