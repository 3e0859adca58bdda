//! `shuffle-audit exact`: enumerate every random path of catalogue algorithms on a small
//! deck (or the first cycle of bag generators, `--items`), and print each outcome's exact
//! probability; `--positions` gives exact card x position matrices instead.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use shuffle_audit::Result;
use shuffle_audit::catalogue::AlgorithmSpec;
use shuffle_audit::catalogue::generators::GeneratorSpec;
use shuffle_audit::catalogue::items::Items;
use shuffle_audit::files::{Destination, Plan};
use shuffle_audit::output::json::exact as exact_json;
use shuffle_audit::output::text::exact as exact_text;
use shuffle_audit::report;

use super::deliver::{Exports, deliver};
use super::flags::{SourceArgs, default_threads, parse_alpha, refuse_repeats};
use super::progress::TerminalProgress;
use super::status::verdict_status;

#[derive(Args)]
pub struct ExactArgs {
    /// Algorithms to enumerate, e.g. `naive-swap fisher-yates` (see `list`).
    #[arg(required = true, value_name = "ALGORITHM")]
    algorithms: Vec<String>,
    /// Cards in the deck, or items to pick from (2 to 10 for whole orders).
    #[arg(
        long,
        short = 'n',
        value_name = "N",
        allow_negative_numbers = true,
        required_unless_present = "items"
    )]
    n: Option<usize>,
    /// Items each sampler picks (samplers only).
    #[arg(long, short = 'k', value_name = "K", allow_negative_numbers = true)]
    k: Option<usize>,
    /// List outcomes most likely first (default: in lexicographic order). Laws of over 252
    /// outcomes always list their 10 most and 10 least likely, most likely first.
    #[arg(long)]
    sort: bool,
    /// The exact card x position matrix instead (decks of up to 2000 cards).
    #[arg(long)]
    positions: bool,
    /// Enumerate the first cycle of bag generators (e.g. `shuffle-bag`) dealing one copy
    /// of each of this many items (`--items 4`), instead of shuffles; --n is not needed.
    #[arg(long, value_name = "SPEC", conflicts_with_all = ["positions", "k", "n"])]
    items: Option<String>,
    /// Significance level the samples-needed figure is for.
    #[arg(long, value_name = "A", default_value = "1e-6", value_parser = parse_alpha, allow_negative_numbers = true)]
    alpha: f64,
    /// Worker threads (default: all cores). The result does not depend on it.
    #[arg(long, short = 'j', value_name = "J", allow_negative_numbers = true)]
    threads: Option<usize>,
    #[command(flatten)]
    source: SourceArgs,
    /// Write every outcome's exact probability as JSON to FILE (`-` for standard output).
    #[arg(long, value_name = "FILE")]
    json: Option<String>,
    /// Write an HTML report with SVG charts (and its Markdown twin) to the directory DIR.
    #[arg(long, value_name = "DIR")]
    report: Option<PathBuf>,
    /// Replace a read-only output file, or a report directory that holds files the report
    /// did not write. Inputs are never replaced, forced or not.
    #[arg(long)]
    force: bool,
}

/// Enumerates the algorithms (or, with `--items`, the bags), prints every outcome's exact
/// probability and writes the exports; the status is the verdicts'.
pub fn execute(args: &ExactArgs) -> Result<ExitCode> {
    if let Some(items) = &args.items {
        return execute_bags(args, items);
    }
    let specs = args
        .algorithms
        .iter()
        .map(|name| AlgorithmSpec::parse(name))
        .collect::<Result<Vec<_>>>()?;
    let settings = shuffle_audit::exact::ExactSettings {
        n: args.n.expect("clap requires --n without --items"),
        k: args.k,
        threads: args.threads.unwrap_or_else(default_threads),
        positions: args.positions,
        alpha: args.alpha,
        items: None,
        source: args.source.kind()?,
    };
    refuse_repeats(
        "algorithm",
        specs.iter().map(|spec| spec.display_name(settings.n)),
    )?;
    let exports = args.exports()?;
    let total = specs
        .iter()
        .map(|spec| {
            spec.algorithm
                .as_permutation()
                .and_then(|algorithm| shuffle_audit::exact::enumerate::known_paths(algorithm, settings.n))
        })
        .sum::<Option<u64>>()
        .filter(|_| !settings.positions);
    let mut progress = TerminalProgress::new(total, "paths");
    let report = shuffle_audit::exact::exact(&specs, &settings, &progress)?;
    progress.finish();
    deliver_exact(args, &report, exports)
}

impl ExactArgs {
    /// `--json` and `--report`, checked before any work starts.
    fn exports(&self) -> Result<Exports> {
        let json_to = self
            .json
            .as_deref()
            .map(|text| Destination::parse(text).forced(self.force));
        let report_to = Plan::new(self.force)
            .writes("--json", json_to.as_ref())
            .replaces("--report", self.report.as_deref())
            .check(report::earlier_report)?
            .and(self.report.clone());
        Ok(Exports {
            json_to,
            csv_to: None,
            report_to,
            force: self.force,
        })
    }
}

/// Prints an exact report, writes its exports and its report directory, and gives the
/// exit status of its verdicts.
fn deliver_exact(
    args: &ExactArgs,
    report: &shuffle_audit::exact::ExactReport,
    exports: Exports,
) -> Result<ExitCode> {
    let order = if args.sort {
        exact_text::Order::ByProbability
    } else {
        exact_text::Order::Natural
    };
    deliver(
        exports,
        None,
        || exact_text::render(report, order),
        |out| exact_json::write(report, out),
        |_| Ok(()),
        || report::exact_document(report, exact_text::reproduce_command(report)),
    )?;
    Ok(verdict_status(&report.graded(), "the catalogue"))
}

/// `exact BAG... --items M`: the first cycle of each bag, enumerated.
fn execute_bags(args: &ExactArgs, items: &str) -> Result<ExitCode> {
    let generators = args
        .algorithms
        .iter()
        .map(|name| GeneratorSpec::parse(name))
        .collect::<Result<Vec<_>>>()?;
    let items = Items::parse(items)?;
    refuse_repeats("generator", generators.iter().map(GeneratorSpec::display_name))?;
    let settings = shuffle_audit::exact::ExactSettings {
        n: items.len(),
        k: None,
        threads: args.threads.unwrap_or_else(default_threads),
        positions: false,
        alpha: args.alpha,
        items: None,
        source: args.source.kind()?,
    };
    let exports = args.exports()?;
    let mut progress = TerminalProgress::new(None, "paths");
    let report = shuffle_audit::exact::exact_bags(&generators, &items, &settings, &progress)?;
    progress.finish();
    deliver_exact(args, &report, exports)
}
