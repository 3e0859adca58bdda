//! `merge`: the shards of one run (`run ... --shard I/K --json FILE`, on as many machines)
//! added up into the run itself.
//!
//! Tallies are plain counts and each shard ran its own chunks with the seeds the whole
//! run gives them ([`crate::simulate::Shard`]), so the sum of the shards' tallies is the
//! whole run's tally, bit for bit. The statistics are not added: they are recomputed from
//! the summed tallies by the code `run` uses ([`crate::run`]'s result builders), so the
//! merged report (text, JSON, CSV, HTML) is the one the single run would have written,
//! timing and thread count aside.
//!
//! The shards must be the whole of one run: the same version, seed, size, algorithms,
//! trials and shard count, each shard exactly once. Each run's JSON carries its identity
//! (`run_id`, a digest of those settings: [`crate::run::RunIdentity`]), which merge
//! recomputes from each file and compares across files. Anything else is an error naming
//! the file and what differs (or which shards are missing): a merge of the wrong files
//! would otherwise be a plausible report of a run nobody made. A directory stands for
//! every shard file in it ([`shard_paths`]), as a job array's merge step leaves them. A run made without `--shard` is
//! its own single shard (`1/1`), so `merge` of one whole run re-renders it (at another
//! `--alpha`, say).
//!
//! Timing of the merged run: the shards are taken to have run side by side, so its time
//! is the slowest shard's and its threads are all the shards' threads together.

mod inputs;
mod shard_file;
mod tables;

pub use inputs::shard_paths;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use shard_file::{ResultTally, ShardFile, read};

use crate::error::{Error, Result};
use crate::format::group_thousands;
use crate::run::{RunReport, RunSettings, sampler_result, shuffle_result, tally_options};
use crate::simulate::{Engine, check_thread_count, play_catalogue_game, play_sampler_game};

/// What the merge may change.
#[derive(Clone, Debug, PartialEq)]
pub struct MergeSettings {
    /// Significance level for `fail`; `None` keeps the shards' own.
    pub alpha: Option<f64>,
    /// Worker threads for the simulator check (the exact law's enumeration).
    pub threads: usize,
}

/// The merged run.
#[derive(Clone, Debug)]
pub struct Merged {
    /// The report the single run would have made.
    pub report: RunReport,
    /// How many shards it was added up from.
    pub shards: u64,
}

/// Reads the shard JSON files at `paths`, checks that they are every shard of one run,
/// adds their tallies and analyses the sums as `run` would.
pub fn merge(paths: &[PathBuf], settings: &MergeSettings) -> Result<Merged> {
    check_thread_count(settings.threads)?;
    let Some((first_path, others)) = paths.split_first() else {
        return Err(Error::Usage(
            "merge needs the JSON files of the shards".to_string(),
        ));
    };
    let mut total = read(first_path)?;
    let mut seen = BTreeMap::from([(total.shard.index, first_path.clone())]);
    for path in others {
        let shard = read(path)?;
        check_same_run(&total, &shard)?;
        if let Some(earlier) = seen.insert(shard.shard.index, path.clone()) {
            return Err(Error::Merge(twice(&shard, &earlier)));
        }
        add(&mut total, shard, settings.alpha.is_some())?;
    }
    let count = total.shard.count;
    // The shard count comes from the files: list the first few missing shards without
    // walking (or collecting) all of them.
    let missing_count = count - seen.len() as u64;
    if missing_count > 0 {
        let named: Vec<String> = (1..=count)
            .filter(|index| !seen.contains_key(index))
            .take(11)
            .map(|index| format!("{index}/{count}"))
            .collect();
        return Err(Error::Merge(missing_shards(&named, missing_count, count)));
    }
    Ok(Merged {
        report: analysed(total, settings)?,
        shards: count,
    })
}

/// Refuses a shard of another run than `total`'s.
fn check_same_run(total: &ShardFile, shard: &ShardFile) -> Result<()> {
    let names =
        |file: &ShardFile| -> Vec<String> { file.results.iter().map(|result| result.name.clone()).collect() };
    let differences = [
        ("seed", total.seed.to_string(), shard.seed.to_string()),
        ("source", total.source.to_string(), shard.source.to_string()),
        ("n", total.n.to_string(), shard.n.to_string()),
        ("k", k_text(total.k), k_text(shard.k)),
        ("algorithms", names(total).join(" "), names(shard).join(" ")),
        (
            "run trials",
            total.run_trials.to_string(),
            shard.run_trials.to_string(),
        ),
        (
            "shard count",
            total.shard.count.to_string(),
            shard.shard.count.to_string(),
        ),
    ];
    let differs = |(what, ours, theirs): &(&str, String, String)| {
        (ours != theirs).then(|| format!("{what} is {theirs}, but {} has {ours}", total.path.display()))
    };
    // The run identity covers everything but the shard count; the first setting that
    // differs says why in words.
    if shard.run_id != total.run_id {
        let why = differences
            .iter()
            .find_map(differs)
            .unwrap_or_else(|| "their settings differ".to_string());
        return Err(Error::Merge(format!(
            "{}: another run (run_id {}…, not {}…): {why}; the shards of one run share seed, source, n, \
             k, algorithms, trials and version",
            shard.path.display(),
            short(&shard.run_id),
            short(&total.run_id)
        )));
    }
    if let Some(why) = differences.iter().find_map(differs) {
        return Err(Error::Merge(format!(
            "{}: {why}: the shards of one run share seed, source, n, k, algorithms, trials and shard count",
            shard.path.display()
        )));
    }
    Ok(())
}

/// The first 12 hex digits of a run identity, enough to tell runs apart in a message.
fn short(run_id: &str) -> &str {
    run_id.get(..12).unwrap_or(run_id)
}

/// `k` as a message shows it.
fn k_text(k: Option<usize>) -> String {
    k.map_or_else(|| "not set".to_string(), |k| k.to_string())
}

/// Adds `shard` into `total` (already checked to be of the same run); the alphas must
/// agree unless the merge sets its own.
fn add(total: &mut ShardFile, shard: ShardFile, alpha_given: bool) -> Result<()> {
    if !alpha_given && shard.alpha != total.alpha {
        return Err(Error::Merge(format!(
            "{}: alpha is {}, but {} has {}; give merge --alpha to choose one",
            shard.path.display(),
            shard.alpha,
            total.path.display(),
            total.alpha
        )));
    }
    total.threads = total.threads.saturating_add(shard.threads);
    total.elapsed = total.elapsed.max(shard.elapsed);
    for (into, from) in total.results.iter_mut().zip(shard.results) {
        into.elapsed = into.elapsed.max(from.elapsed);
        match (&mut into.tally, from.tally) {
            (ResultTally::Shuffle(into), ResultTally::Shuffle(from)) => {
                // Shards of one run tally the same things: a file edited by hand might not.
                if into.serial.is_some() != from.serial.is_some()
                    || into.repeats.is_some() != from.repeats.is_some()
                {
                    return Err(Error::Merge(format!(
                        "{}: tallies consecutive deals or repeats where {} does not; not shards of one run",
                        shard.path.display(),
                        total.path.display()
                    )));
                }
                into.add(&from)
            }
            (ResultTally::Sampler(into), ResultTally::Sampler(from)) => into.add(&from),
            _ => unreachable!("the same algorithm names give the same kinds of tally"),
        }
    }
    Ok(())
}

/// The merged tallies analysed as `run` analyses its own.
fn analysed(total: ShardFile, settings: &MergeSettings) -> Result<RunReport> {
    let run_settings = RunSettings {
        source: total.source,
        n: total.n,
        k: total.k,
        trials: total.run_trials,
        seed: Some(total.seed),
        // The tallies are made: only one thread's memory is to be checked.
        threads: 1,
        alpha: settings.alpha.unwrap_or(total.alpha),
        shard: None,
    };
    let specs: Vec<_> = total.results.iter().map(|result| result.spec).collect();
    let thresholds = run_settings.validate(&specs).map_err(|error| {
        Error::Merge(format!(
            "{}: not a run shuffle-audit can make ({error})",
            total.path.display()
        ))
    })?;
    // With the run's source: under a flawed one `run` makes no simulator check (the
    // exact law assumes fair draws), and the merged report must be the run's.
    let engine = Engine::new(settings.threads)?.with_source(run_settings.source);
    let mut results = Vec::new();
    let mut sampler_results = Vec::new();
    for result in total.results {
        match result.tally {
            ResultTally::Shuffle(mut tally) => {
                // The guessing game is the run's first deals, not a count the shards add:
                // dealt again from the seed, as every shard dealt it.
                let algorithm = result.spec.algorithm.as_permutation().expect("a shuffle's tally");
                let in_order = tally_options(algorithm, total.n, total.source).serial;
                tally.guessing = play_catalogue_game(
                    &engine,
                    algorithm.resolve(total.n),
                    total.n,
                    total.run_trials,
                    total.seed,
                    in_order,
                )
                .map(Box::new);
                results.push(crate::run::AlgorithmResult {
                    elapsed: result.elapsed,
                    ..shuffle_result(&engine, &result.spec, tally, &thresholds)
                })
            }
            ResultTally::Sampler(mut tally) => sampler_results.push(crate::run::SamplerResult {
                elapsed: result.elapsed,
                ..{
                    // The guessing game is the run's first samples, dealt again from the seed.
                    let sampler = result.spec.algorithm.as_sampler().expect("a sampler's tally");
                    tally.guessing =
                        play_sampler_game(&engine, sampler, tally.n, tally.k, total.run_trials, total.seed)
                            .map(Box::new);
                    sampler_result(&result.spec, tally, &thresholds)
                }
            }),
        }
    }
    Ok(RunReport {
        notes: run_settings.notes(&specs),
        settings: RunSettings {
            threads: total.threads,
            ..run_settings
        },
        seed: total.seed,
        seed_origin: total.seed_origin,
        threads: total.threads,
        elapsed: total.elapsed,
        results,
        sampler_results,
        input: None,
    })
}

/// `shard 2/4 is given twice (a.json and b.json)`, or for whole runs, that they are.
fn twice(shard: &ShardFile, earlier: &Path) -> String {
    if shard.shard.is_whole() {
        format!(
            "{} and {} are both the whole run (made without --shard): there is nothing to add",
            earlier.display(),
            shard.path.display()
        )
    } else {
        format!(
            "shard {} is given twice ({} and {})",
            shard.shard,
            earlier.display(),
            shard.path.display()
        )
    }
}

/// `shard 3/4 is missing`, `shards 2/4 and 4/4 are missing`, at most ten of them named.
fn missing_shards(missing: &[String], missing_count: u64, count: u64) -> String {
    const NAMED: usize = 10;
    let named = &missing[..missing.len().min(NAMED)];
    let list = match named {
        [one] if missing_count == 1 => {
            return format!("shard {one} is missing (every shard of the run is needed)");
        }
        [init @ .., last] if missing_count <= NAMED as u64 => format!("{} and {last}", init.join(", ")),
        _ => format!(
            "{}, … ({} of {})",
            named.join(", "),
            group_thousands(missing_count),
            group_thousands(count)
        ),
    };
    format!("shards {list} are missing (every shard of the run is needed)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_shards_are_named_in_one_line() {
        let names = |indexes: &[u64], count: u64| -> Vec<String> {
            indexes.iter().map(|index| format!("{index}/{count}")).collect()
        };
        assert_eq!(
            missing_shards(&names(&[3], 4), 1, 4),
            "shard 3/4 is missing (every shard of the run is needed)"
        );
        assert_eq!(
            missing_shards(&names(&[2, 4], 4), 2, 4),
            "shards 2/4 and 4/4 are missing (every shard of the run is needed)"
        );
        assert_eq!(
            missing_shards(&names(&[1, 2, 5], 8), 3, 8),
            "shards 1/8, 2/8 and 5/8 are missing (every shard of the run is needed)"
        );
        let many: Vec<u64> = (2..=1000).collect();
        let message = missing_shards(&names(&many, 1000), 999, 1000);
        assert!(message.starts_with("shards 2/1000, 3/1000,"), "{message}");
        assert!(
            message.contains("11/1000, … (999 of 1,000) are missing"),
            "{message}"
        );
    }
}
