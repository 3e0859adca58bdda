//! `shuffle-audit run`: shuffle a deck (or pick k of n items) many times with catalogue
//! algorithms, test the tallies, print the report and write the exports.

use std::collections::BTreeMap;
use std::process::ExitCode;

use clap::Args;

use shuffle_audit::catalogue::AlgorithmSpec;
use shuffle_audit::files::Plan;
use shuffle_audit::output::text::run as text;
use shuffle_audit::parse::parse_count;
use shuffle_audit::run::{RunSettings, run};
use shuffle_audit::simulate::scheduler::{ShardRequest, VARIABLES};
use shuffle_audit::{Error, Result};

use super::deliver::deliver_run;
use super::flags::{CommonArgs, default_threads, refuse_repeats};
use super::progress::TerminalProgress;
use super::status::verdict_status;

#[derive(Args)]
pub struct RunArgs {
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
    /// shards' JSON into exactly the whole run. `auto` takes I and K from a Slurm job
    /// array (SLURM_ARRAY_TASK_*) or a Kubernetes Indexed Job (JOB_COMPLETION_INDEX, with
    /// --shards K).
    #[arg(long, value_name = "I/K|auto", value_parser = ShardRequest::parse, allow_hyphen_values = true)]
    shard: Option<ShardRequest>,
    /// How many shards the run is cut into, for `--shard auto` under Kubernetes (which does
    /// not export it); under Slurm it must equal the array's size.
    #[arg(long, value_name = "K", requires = "shard", value_parser = clap::value_parser!(u64).range(1..))]
    shards: Option<u64>,
    #[command(flatten)]
    common: CommonArgs,
}

/// Runs the algorithms, prints the report, writes the exports; the status is the verdicts'.
pub fn execute(args: RunArgs) -> Result<ExitCode> {
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
        shard: args
            .shard
            .map(|request| request.resolve(&scheduler_variables(), args.shards))
            .transpose()
            .map_err(|problem| Error::BadOption {
                option: "--shard",
                problem,
            })?,
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

/// The scheduler's variables `--shard auto` reads, from this process's environment (a
/// value that is not UTF-8 is kept, lossily, to be refused as malformed).
fn scheduler_variables() -> BTreeMap<String, String> {
    VARIABLES
        .iter()
        .filter_map(|name| {
            std::env::var_os(name).map(|value| (name.to_string(), value.to_string_lossy().into_owned()))
        })
        .collect()
}
