//! The JSON export of a run (schema documented in README.md, "JSON output").
//!
//! JSON is for machines, so it holds everything: the full tallies (every order for
//! `n <= 10`, the position matrix, fixed-point and cycle distributions with their
//! expected counts), every test with raw and Holm-adjusted p-values, and the verdict.
//! Cards are numbered from 0. p-values below 1e-300 are written as 1e-300 and their true
//! magnitude is in `log10_p_value`, so no p-value is ever 0.
//!
//! The document is indented for reading, but each permutation, matrix row and law cell
//! is one compact line: indenting every card of 10! permutations would make a 1.7 GB
//! file of a 320 MB one. It is streamed to its destination, never held in memory whole.
//! A sampler run has `k` at the top level and sampler results of their own shape
//! (`samplers.rs`).

use std::io::Write;

use serde::Serialize;
use serde_json::value::RawValue;

use crate::analysis::{OutcomeTable, RepeatsFinding};
use crate::catalogue::Expectation;
use crate::randomness::SourceKind;
use crate::run::{AlgorithmResult, RunReport};
use crate::stats::effect::Deviation;
use crate::stats::eulerian::rising_sequence_law;
use crate::stats::laws::{cycle_count_law, fixed_point_law};
use crate::stats::{Fit, Verdict};
use crate::tally::PermutationTally;
use crate::tally::lehmer::{next_permutation, unrank};

use super::provenance::{InputJson, Provenance};
use super::samplers;
use super::test_report::{TestJson, test_json};
use super::{LawCount, compact};

#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct RunJson<'a> {
    #[serde(flatten)]
    provenance: Provenance,
    /// The randomness under the algorithms; absent for samples read by `ingest`.
    #[serde(skip_serializing_if = "Option::is_none")]
    source: Option<SourceKind>,
    n: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    k: Option<usize>,
    trials: u64,
    /// The run's identity ([`crate::run::RunIdentity`]): the same in every shard and in
    /// the whole run, absent for samples read by `ingest`.
    #[serde(skip_serializing_if = "Option::is_none")]
    run_id: Option<String>,
    /// Only in a shard's export: which shard, and of how many trials.
    #[serde(skip_serializing_if = "Option::is_none")]
    shard: Option<ShardJson>,
    threads: usize,
    alpha: f64,
    elapsed_seconds: f64,
    trials_per_second: f64,
    notes: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    input: Option<InputJson<'a>>,
    /// Whether every result got the verdict it should (the exit status says the same:
    /// 0 when true, 1 when not).
    all_as_expected: bool,
    results: Vec<AnyResultJson<'a>>,
}

/// A shard of a run, as `merge` reads it back ([`crate::merge`]).
#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct ShardJson {
    index: u64,
    count: u64,
    /// The trials per algorithm of the whole run (`trials` is the shard's share).
    run_trials: u64,
}

/// A shuffle's result or a sampler's, each in its own shape.
#[derive(Serialize, schemars::JsonSchema)]
#[serde(untagged)]
enum AnyResultJson<'a> {
    Shuffle(Box<ResultJson<'a>>),
    Sampler(Box<samplers::SamplerResultJson<'a>>),
}

#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct ResultJson<'a> {
    algorithm: &'a str,
    description: &'a str,
    origin: &'a str,
    /// The names of the cards, from card 0 (ingested samples only; indices stay 0-based).
    #[serde(skip_serializing_if = "Option::is_none")]
    labels: Option<&'a [String]>,
    /// The verdict it should get: what a catalogue algorithm is known to be; for samples
    /// read by `ingest`, `fair`, since they were tested against a fair shuffle (nothing is known
    /// of them).
    expected: Expectation,
    n: usize,
    trials: u64,
    elapsed_seconds: f64,
    #[serde(flatten)]
    tables: TablesJson<'a>,
    /// The relative permutations of consecutive deals (each deal in terms of the one
    /// before, within chunks), when the deals were tallied in order.
    serial: Option<SerialJson<'a>>,
    /// Deals identical to an earlier one, when counted.
    repeats: Option<RepeatsJson>,
    /// The card-guessing game on the first deals, when it was played.
    guessing: Option<super::guessing::GuessingJson>,
    tests: Vec<TestJson>,
    total_variation: Option<f64>,
    total_variation_noise_floor: Option<f64>,
    orders_never_seen: Option<usize>,
    over_represented: Vec<OutcomeJson>,
    under_represented: Vec<OutcomeJson>,
    verdict: Verdict,
    /// The tally against the exact law, where it was enumerated (not part of the verdict).
    simulator_check: Option<SimulatorCheckJson>,
}

/// The tables of a tally of deals.
#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct TablesJson<'a> {
    #[schemars(with = "Option<Vec<PermutationCount<'static>>>")]
    permutations: Option<Permutations<'a>>,
    expected_count_per_permutation: Option<f64>,
    #[schemars(with = "Option<Vec<Vec<u64>>>")]
    position_matrix: Option<Vec<Box<RawValue>>>,
    expected_count_per_position: f64,
    #[schemars(with = "Option<Vec<LawCount>>")]
    fixed_points: Option<Vec<Box<RawValue>>>,
    #[schemars(with = "Option<Vec<LawCount>>")]
    cycles: Option<Vec<Box<RawValue>>>,
    /// `{"k": r, "count", "expected"}` for `r = 0..=n` rising sequences.
    #[schemars(with = "Option<Vec<LawCount>>")]
    rising_sequences: Option<Vec<Box<RawValue>>>,
}

#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct SerialJson<'a> {
    /// Pairs of consecutive deals tallied.
    pairs: u64,
    #[serde(flatten)]
    tables: TablesJson<'a>,
}

#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct RepeatsJson {
    /// Deals identical to an earlier deal of their group.
    count: u64,
    /// What a fair shuffle gives on average.
    expected: f64,
    /// Deals counted.
    deals: u64,
    /// `[deals in a group, number of such groups]`: repeats are counted within each chunk of
    /// a run (so that they add across threads and shards), within the whole input of
    /// `ingest`.
    groups: Vec<(u64, u64)>,
    /// How many different decks the program deals, when a deck repeated.
    estimated_decks: Option<DeckSpaceJson>,
}

#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct DeckSpaceJson {
    /// `log2` of the estimate, and of the ends of its 95 % interval.
    log2: f64,
    log2_low: f64,
    log2_high: f64,
    /// The estimate in words: `about 2^32.0 different decks (95 % interval …)`.
    text: String,
}

#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct SimulatorCheckJson {
    paths: u64,
    impossible_seen: u64,
    statistic: Option<f64>,
    df: Option<u64>,
    p_value: Option<f64>,
    log10_p_value: Option<f64>,
}

#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct PermutationCount<'a> {
    permutation: &'a [u16],
    count: u64,
}

#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct OutcomeJson {
    #[serde(skip_serializing_if = "Option::is_none")]
    permutation: Option<Vec<u16>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    item: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    position: Option<usize>,
    count: u64,
    expected: f64,
    ratio: f64,
}

/// Streams the whole run as JSON, ending with a newline, to `out`.
pub fn write(report: &RunReport, out: &mut dyn Write) -> std::io::Result<()> {
    let json = RunJson {
        provenance: Provenance::of_run(report),
        source: report.input.is_none().then_some(report.settings.source),
        n: report.settings.n,
        k: report.settings.k,
        trials: report.settings.tallied_trials(),
        run_id: report.identity().map(|identity| identity.digest()),
        shard: report.settings.shard.map(|shard| ShardJson {
            index: shard.index,
            count: shard.count,
            run_trials: report.settings.trials,
        }),
        threads: report.threads,
        alpha: report.settings.alpha,
        elapsed_seconds: report.elapsed.as_secs_f64(),
        trials_per_second: report.trials_per_second(),
        notes: report.notes.clone(),
        input: report
            .input
            .as_ref()
            .map(|input| InputJson::new(input, Some(report.settings.trials), None)),
        all_as_expected: report.all_as_expected(),
        results: report
            .results
            .iter()
            .map(|result| AnyResultJson::Shuffle(Box::new(result_json(result))))
            .chain(
                report
                    .sampler_results
                    .iter()
                    .map(|result| AnyResultJson::Sampler(Box::new(samplers::result_json(result)))),
            )
            .collect(),
    };
    serde_json::to_writer_pretty(&mut *out, &json)?;
    out.write_all(b"\n")
}

/// Every order with its count, in lexicographic order, one compact line each, produced
/// while the document is written (10! of them would take over a gigabyte held at once).
struct Permutations<'a> {
    counts: &'a [u64],
    n: usize,
}

impl Serialize for Permutations<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut permutation: Vec<u16> = (0..self.n as u16).collect();
        serializer.collect_seq(self.counts.iter().map(|&count| {
            let line = compact(&PermutationCount {
                permutation: &permutation,
                count,
            });
            next_permutation(&mut permutation);
            line
        }))
    }
}

/// The tables of `tally` as JSON.
fn tables_json(tally: &PermutationTally) -> TablesJson<'_> {
    let n = tally.n;
    let trials = tally.trials;
    let law_counts = |counts: &Option<Vec<u64>>, law: fn(usize) -> Vec<f64>| {
        counts.as_ref().map(|counts| {
            counts
                .iter()
                .zip(law(n))
                .enumerate()
                .map(|(k, (&count, probability))| {
                    compact(&LawCount {
                        k,
                        count,
                        expected: probability * trials as f64,
                    })
                })
                .collect()
        })
    };
    TablesJson {
        expected_count_per_permutation: tally
            .permutation_counts
            .as_ref()
            .map(|counts| trials as f64 / counts.len() as f64),
        permutations: tally
            .permutation_counts
            .as_ref()
            .map(|counts| Permutations { counts, n }),
        position_matrix: tally
            .position_counts
            .as_ref()
            .map(|matrix| matrix.chunks(n).map(compact).collect()),
        expected_count_per_position: trials as f64 / n as f64,
        fixed_points: law_counts(&tally.fixed_point_counts, fixed_point_law),
        cycles: law_counts(&tally.cycle_counts, cycle_count_law),
        rising_sequences: law_counts(&tally.rising_sequence_counts, rising_sequence_law),
    }
}

fn repeats_json(finding: &RepeatsFinding) -> RepeatsJson {
    RepeatsJson {
        count: finding.tally.repeats,
        expected: finding.test.expected,
        deals: finding.tally.deals(),
        groups: finding.tally.groups.clone(),
        estimated_decks: finding.estimate.map(|estimate| {
            let (log2_low, log2_high) = estimate.bits_interval();
            DeckSpaceJson {
                log2: estimate.bits(),
                log2_low,
                log2_high,
                text: estimate.to_string(),
            }
        }),
    }
}

fn result_json(result: &AlgorithmResult) -> ResultJson<'_> {
    let tally = &result.tally;
    let n = tally.n;
    let trials = tally.trials;
    let analysis = &result.analysis;
    let outcome = |deviation: &Deviation| outcome_json(deviation, analysis.outcome_table, n);
    ResultJson {
        algorithm: &result.name,
        description: &result.about.summary,
        origin: &result.about.origin,
        labels: result.about.labels.as_deref(),
        expected: result.expected,
        n,
        trials,
        elapsed_seconds: result.elapsed.as_secs_f64(),
        tables: tables_json(tally),
        serial: tally.serial.as_deref().map(|serial| SerialJson {
            pairs: serial.trials,
            tables: tables_json(serial),
        }),
        repeats: analysis.repeats.as_ref().map(repeats_json),
        guessing: analysis.guessing.as_ref().map(super::guessing::guessing_json),
        tests: analysis
            .tests
            .iter()
            .map(|test| test_json(test, "shuffles"))
            .collect(),
        total_variation: analysis.total_variation.map(|tv| tv.distance),
        total_variation_noise_floor: analysis.total_variation.map(|tv| tv.noise_floor),
        orders_never_seen: analysis.orders_never_seen,
        over_represented: analysis.over_represented.iter().map(outcome).collect(),
        under_represented: analysis.under_represented.iter().map(outcome).collect(),
        verdict: analysis.verdict,
        simulator_check: result.simulator_check.as_ref().map(|check| {
            let computed = match check.fit {
                Fit::Computed { statistic, df, p, .. } => Some((statistic, df, p)),
                Fit::TooFewTrials { .. } => None,
            };
            SimulatorCheckJson {
                paths: check.paths,
                impossible_seen: check.impossible_seen,
                statistic: computed.map(|c| c.0),
                df: computed.map(|c| c.1),
                p_value: computed.map(|c| c.2.value_floored()),
                log10_p_value: computed.map(|c| c.2.log10()),
            }
        }),
    }
}

fn outcome_json(deviation: &Deviation, table: OutcomeTable, n: usize) -> OutcomeJson {
    let mut json = OutcomeJson {
        permutation: None,
        item: None,
        position: None,
        count: deviation.count,
        expected: deviation.expected,
        ratio: deviation.ratio,
    };
    match table {
        OutcomeTable::Permutations => {
            let mut permutation = vec![0u16; n];
            unrank(deviation.cell, &mut permutation);
            json.permutation = Some(permutation);
        }
        OutcomeTable::Positions => {
            json.item = Some(deviation.cell / n);
            json.position = Some(deviation.cell % n);
        }
    }
    json
}
