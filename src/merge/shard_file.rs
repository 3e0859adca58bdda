//! Reading one shard's JSON (`run ... --shard I/K --json FILE`) back: which run and which
//! shard it is, and its tallies, checked ([`super::tables`]).
//!
//! The file is parsed twice: first only its `tool`, `command` and `version`, so that a
//! file of another kind (a `stream` export, a `package.json`) or of another version is
//! named as such rather than as a missing field; then whole, into structs that keep only
//! what `merge` needs. Statistics in the file are ignored: they are recomputed from the
//! tallies.

use crate::randomness::{ClockStep, SourceKind};
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

use super::tables::{
    ItemRow, LabelledCounts, LawRow, SamplerTables, ShuffleTables, sampler_tally, shuffle_tally,
};
use crate::catalogue::{AlgorithmSpec, Kind};
use crate::error::{Error, Result};
use crate::run::{RunIdentity, SeedOrigin};
use crate::simulate::{MAX_THREADS, Shard};
use crate::tally::MAX_N;
use crate::tally::{PermutationTally, RepeatTally, SelectionTally};

/// A run's JSON (a shard's, or a whole run's, which is its only shard `1/1`), checked.
pub(crate) struct ShardFile {
    /// Where it was read from.
    pub path: PathBuf,
    /// The randomness the run drew from.
    pub source: SourceKind,
    /// The seed of the run.
    pub seed: u64,
    /// Where the seed came from.
    pub seed_origin: SeedOrigin,
    /// Cards, or items to pick from.
    pub n: usize,
    /// Items each sample picks (samplers only).
    pub k: Option<usize>,
    /// Which shard this is.
    pub shard: Shard,
    /// The trials per algorithm of the whole run.
    pub run_trials: u64,
    /// The run's identity as the file records it, checked against its settings.
    pub run_id: String,
    /// The significance level it was run with.
    pub alpha: f64,
    /// The threads it ran on.
    pub threads: usize,
    /// How long it took.
    pub elapsed: Duration,
    /// One per algorithm, in the order run.
    pub results: Vec<ShardResult>,
}

/// One algorithm's share of a run.
pub(crate) struct ShardResult {
    /// The algorithm, as it ran.
    pub spec: AlgorithmSpec,
    /// Its name as it ran (`naive-repeated:3`).
    pub name: String,
    /// How long its share took.
    pub elapsed: Duration,
    /// Its tally.
    pub tally: ResultTally,
}

/// A shuffle's tally or a sampler's.
pub(crate) enum ResultTally {
    /// Orders of a deck.
    Shuffle(PermutationTally),
    /// Selections of `k` of `n` items.
    Sampler(SelectionTally),
}

#[derive(Deserialize)]
struct Header {
    tool: Option<String>,
    command: Option<String>,
    version: Option<String>,
}

#[derive(Deserialize)]
struct RunFile {
    source: Option<SourceFields>,
    seed: u64,
    seed_origin: String,
    n: usize,
    k: Option<usize>,
    trials: u64,
    run_id: Option<String>,
    shard: Option<ShardFields>,
    threads: usize,
    alpha: f64,
    elapsed_seconds: f64,
    results: Vec<ResultFile>,
}

/// The `source` record of a run ([`SourceKind`]'s JSON): its name and clock step.
#[derive(Deserialize)]
struct SourceFields {
    name: String,
    clock_step_ms: Option<f64>,
}

impl SourceFields {
    fn kind(&self) -> std::result::Result<SourceKind, String> {
        let step = match self.clock_step_ms {
            None => None,
            Some(ms) if ms.is_finite() && ms > 0.0 && ms <= 86_400_000.0 => Some(
                ClockStep::from_microseconds((ms * 1000.0).round() as u64)
                    .map_err(|error| error.to_string())?,
            ),
            Some(ms) => return Err(format!("source.clock_step_ms is {ms}, not a clock step")),
        };
        SourceKind::parse(&self.name, step).map_err(|error| format!("source: {error}"))
    }
}

#[derive(Deserialize)]
struct ShardFields {
    index: u64,
    count: u64,
    run_trials: u64,
}

#[derive(Deserialize)]
struct ResultFile {
    algorithm: String,
    n: usize,
    k: Option<usize>,
    trials: u64,
    elapsed_seconds: f64,
    permutations: Option<LabelledCounts>,
    position_matrix: Option<Vec<Vec<u64>>>,
    fixed_points: Option<Vec<LawRow>>,
    cycles: Option<Vec<LawRow>>,
    rising_sequences: Option<Vec<LawRow>>,
    serial: Option<SerialFile>,
    repeats: Option<RepeatsFile>,
    subsets: Option<LabelledCounts>,
    ordered_selections: Option<LabelledCounts>,
    inclusion: Option<Vec<ItemRow>>,
    serial_overlaps: Option<Vec<LawRow>>,
}

/// The tally of consecutive deals in a result.
#[derive(Deserialize)]
struct SerialFile {
    pairs: u64,
    permutations: Option<LabelledCounts>,
    position_matrix: Option<Vec<Vec<u64>>>,
    fixed_points: Option<Vec<LawRow>>,
    cycles: Option<Vec<LawRow>>,
    rising_sequences: Option<Vec<LawRow>>,
}

/// The repeats of a result.
#[derive(Deserialize)]
struct RepeatsFile {
    count: u64,
    groups: Vec<(u64, u64)>,
}

/// Reads and checks the run JSON at `path`.
pub(crate) fn read(path: &Path) -> Result<ShardFile> {
    let shown = path.display();
    let fail = |problem: String| Error::Merge(format!("{shown}: {problem}"));
    let bytes = std::fs::read(path).map_err(|error| Error::Merge(format!("cannot read {shown}: {error}")))?;
    let header: Header = serde_json::from_slice(&bytes).map_err(|error| match error.classify() {
        serde_json::error::Category::Data => fail(not_a_run()),
        _ => fail(format!("not valid JSON ({error})")),
    })?;
    if header.tool.as_deref() != Some("shuffle-audit") {
        return Err(fail(not_a_run()));
    }
    match header.command.as_deref() {
        Some("run") => {}
        Some(other) => {
            return Err(fail(format!(
                "written by `shuffle-audit {other}`; merge adds the JSON of `shuffle-audit run` shards"
            )));
        }
        None => return Err(fail(not_a_run())),
    }
    let ours = env!("CARGO_PKG_VERSION");
    let version = header.version.unwrap_or_default();
    if version != ours {
        return Err(fail(format!(
            "written by shuffle-audit {version}, and this is {ours}: merge with the version that ran the \
             shards (what a seed draws may change between versions)"
        )));
    }
    let file: RunFile = serde_json::from_slice(&bytes)
        .map_err(|error| fail(format!("not a complete run's JSON ({error})")))?;
    drop(bytes);
    checked(path, file).map_err(fail)
}

fn not_a_run() -> String {
    "not the JSON of a shuffle-audit run (written by `shuffle-audit run ... --json FILE`)".to_string()
}

/// The file's settings and tallies, checked against one another.
fn checked(path: &Path, file: RunFile) -> std::result::Result<ShardFile, String> {
    if !(2..=MAX_N).contains(&file.n) {
        return Err(format!("n is {}; runs have 2 to {MAX_N}", file.n));
    }
    let (shard, run_trials) = match file.shard {
        None => (Shard::WHOLE, file.trials),
        Some(fields) => (
            Shard::new(fields.index, fields.count).map_err(|problem| format!("shard {problem}"))?,
            fields.run_trials,
        ),
    };
    let share = shard.trials(run_trials);
    if file.trials != share || share == 0 {
        return Err(format!(
            "trials is {}, but shard {shard} of a run of {run_trials} trials has {share}",
            file.trials
        ));
    }
    let seed_origin = match file.seed_origin.as_str() {
        "given" => SeedOrigin::Given,
        "os" => SeedOrigin::OperatingSystem,
        other => return Err(format!("seed_origin is '{other}', neither 'given' nor 'os'")),
    };
    if !(1..=MAX_THREADS).contains(&file.threads) {
        return Err(format!(
            "threads is {}; a run uses 1 to {MAX_THREADS}",
            file.threads
        ));
    }
    if file.results.is_empty() {
        return Err("no results".to_string());
    }
    let results = file
        .results
        .into_iter()
        .map(|result| {
            let name = result.algorithm.clone();
            checked_result(result, file.n, file.k, file.trials)
                .map_err(|problem| format!("{name}: {problem}"))
        })
        .collect::<std::result::Result<Vec<_>, String>>()?;
    let source = match &file.source {
        Some(fields) => fields.kind()?,
        None => return Err("no source: not the JSON of a simulated run".to_string()),
    };
    let run_id = checked_run_id(
        file.run_id,
        &results,
        file.n,
        file.k,
        run_trials,
        file.seed,
        source,
    )?;
    Ok(ShardFile {
        source,
        run_id,
        path: path.to_path_buf(),
        seed: file.seed,
        seed_origin,
        n: file.n,
        k: file.k,
        shard,
        run_trials,
        alpha: file.alpha,
        threads: file.threads,
        elapsed: seconds(file.elapsed_seconds)?,
        results,
    })
}

/// The file's `run_id`, checked against the identity its own settings make: a file whose
/// settings were edited (or that lost its `run_id`) is not taken for a shard of the run
/// it names.
fn checked_run_id(
    recorded: Option<String>,
    results: &[ShardResult],
    n: usize,
    k: Option<usize>,
    trials: u64,
    seed: u64,
    source: SourceKind,
) -> std::result::Result<String, String> {
    let identity = RunIdentity {
        algorithms: results.iter().map(|result| result.name.as_str()).collect(),
        n,
        k,
        trials,
        seed,
        source,
    }
    .digest();
    match recorded {
        None => {
            Err("no run_id: not a run's JSON as this version writes it (run the shard again)".to_string())
        }
        Some(recorded) if recorded != identity => Err(format!(
            "run_id is {recorded}, but its settings make {identity}: the file was edited after the run"
        )),
        Some(recorded) => Ok(recorded),
    }
}

/// The repeats of a result of `trials` deals, checked: groups that add up to the deals,
/// and fewer repeats than the groups allow.
fn checked_repeats(file: RepeatsFile, trials: u64) -> std::result::Result<RepeatTally, String> {
    let mut tally = RepeatTally::default();
    let mut most = 0u64;
    for (size, count) in file.groups {
        if size == 0 || count == 0 {
            return Err("repeats.groups holds an empty group".to_string());
        }
        most = most.saturating_add(size.saturating_sub(1).saturating_mul(count));
        for _ in 0..count.min(trials) {
            tally.add_group(size, 0);
        }
    }
    if tally.deals() != trials {
        return Err(format!(
            "repeats.groups hold {} deals, but the result has {trials}",
            tally.deals()
        ));
    }
    if file.count > most {
        return Err(format!(
            "repeats.count is {}, more than its groups allow ({most})",
            file.count
        ));
    }
    tally.repeats = file.count;
    Ok(tally)
}

/// One result of a file whose run is `n`, `k`, `trials`, checked.
fn checked_result(
    result: ResultFile,
    n: usize,
    k: Option<usize>,
    trials: u64,
) -> std::result::Result<ShardResult, String> {
    for (what, found, run) in [
        ("n", Some(result.n as u64), Some(n as u64)),
        ("k", result.k.map(|k| k as u64), k.map(|k| k as u64)),
        ("trials", Some(result.trials), Some(trials)),
    ] {
        if found != run {
            let show =
                |value: Option<u64>| value.map_or_else(|| "not set".to_string(), |value| value.to_string());
            return Err(format!(
                "{what} is {}, but the run's is {}",
                show(found),
                show(run)
            ));
        }
    }
    let spec = AlgorithmSpec::parse(&result.algorithm).map_err(|error| error.to_string())?;
    if spec.display_name(n) != result.algorithm {
        return Err(format!("a run names it {} at n = {n}", spec.display_name(n)));
    }
    let tally = match (spec.kind(), k) {
        (Kind::Shuffle, None) => {
            let mut tally = shuffle_tally(
                n,
                trials,
                ShuffleTables {
                    permutations: result.permutations,
                    position_matrix: result.position_matrix,
                    fixed_points: result.fixed_points,
                    cycles: result.cycles,
                    rising_sequences: result.rising_sequences,
                },
            )?;
            if let Some(serial) = result.serial {
                if serial.pairs >= trials {
                    return Err(format!(
                        "serial.pairs is {}, but {trials} deals make fewer pairs",
                        serial.pairs
                    ));
                }
                let tables = ShuffleTables {
                    permutations: serial.permutations,
                    position_matrix: serial.position_matrix,
                    fixed_points: serial.fixed_points,
                    cycles: serial.cycles,
                    rising_sequences: serial.rising_sequences,
                };
                let serial =
                    shuffle_tally(n, serial.pairs, tables).map_err(|problem| format!("serial: {problem}"))?;
                tally.serial = Some(Box::new(serial));
            }
            if let Some(repeats) = result.repeats {
                tally.repeats = Some(checked_repeats(repeats, trials)?);
            }
            ResultTally::Shuffle(tally)
        }
        (Kind::Sampler, Some(k)) if (1..n).contains(&k) => ResultTally::Sampler(sampler_tally(
            n,
            k,
            trials,
            spec.algorithm
                .as_sampler()
                .is_some_and(|sampler| sampler.promises_order()),
            SamplerTables {
                subsets: result.subsets,
                ordered_selections: result.ordered_selections,
                inclusion: result.inclusion,
                serial_overlaps: result.serial_overlaps,
            },
        )?),
        (Kind::Sampler, Some(k)) => return Err(format!("k is {k}; samplers pick 1 to n - 1 of n = {n}")),
        (Kind::Shuffle, Some(_)) => return Err("a shuffle in a run of samplers (k is set)".to_string()),
        (Kind::Sampler, None) => return Err("a sampler in a run of shuffles (k is not set)".to_string()),
    };
    Ok(ShardResult {
        spec,
        name: result.algorithm,
        elapsed: seconds(result.elapsed_seconds)?,
        tally,
    })
}

/// A duration in seconds as the file writes it, refused when negative or not finite.
fn seconds(value: f64) -> std::result::Result<Duration, String> {
    Duration::try_from_secs_f64(value).map_err(|_| format!("elapsed_seconds is {value}, not a duration"))
}
