//! The JSON export of a `stream` run (schema documented in README.md, "Streams").
//!
//! One result per generator with everything tallied: frequencies with their expected
//! counts, run lengths and gaps (each overall and per item, with the distribution, mean
//! and longest, and the law they were tested against where one is known), the bag's
//! cycle-position table, repeats of the previous cycle, windows of one bag length, every
//! test, the hard bounds and the verdict. Items are numbered from 0 and named. As for
//! `run`, distributions are one compact line per value.

use std::io::Write;

use serde::Serialize;
use serde_json::value::RawValue;

use crate::randomness::SourceKind;

use super::compact;
use super::provenance::{InputJson, Provenance};
use super::test_report::{TestJson, test_json};
use crate::catalogue::Expectation;
use crate::stats::Verdict;
use crate::stream::{StreamReport, StreamResult};
use crate::tally::stream::Histogram;

#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct StreamRunJson<'a> {
    #[serde(flatten)]
    provenance: Provenance,
    /// The randomness under the generators; absent for a stream read by `ingest`.
    #[serde(skip_serializing_if = "Option::is_none")]
    source: Option<SourceKind>,
    items_spec: &'a str,
    length: u64,
    streams: u64,
    add_every: Option<u64>,
    threads: usize,
    alpha: f64,
    elapsed_seconds: f64,
    draws_per_second: f64,
    /// Only for a stream read by `ingest`.
    #[serde(skip_serializing_if = "Option::is_none")]
    input: Option<InputJson<'a>>,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    notes: &'a [String],
    /// Whether every generator got the verdict it should (as the exit status says).
    all_as_expected: bool,
    results: Vec<ResultJson<'a>>,
}

#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct ItemJson<'a> {
    item: usize,
    name: &'a str,
    weight: f64,
    probability: f64,
}

#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct ResultJson<'a> {
    generator: &'a str,
    description: &'a str,
    origin: &'a str,
    /// The verdict it should get: what a catalogue algorithm is known to be; for samples
    /// read by `ingest`, `fair`, since they were tested against independent draws with the weights (nothing is known
    /// of them).
    expected: Expectation,
    items: Vec<ItemJson<'a>>,
    length: u64,
    streams: u64,
    elapsed_seconds: f64,
    bag: Option<BagJson>,
    additions: bool,
    #[schemars(with = "Vec<FrequencyJson<'static>>")]
    frequencies: Vec<Box<RawValue>>,
    never_drawn: Vec<&'a str>,
    run_lengths: DistributionJson<'a>,
    gaps: DistributionJson<'a>,
    cycle_positions: Option<CyclePositionsJson>,
    cycle_repeats: Option<RepeatsJson>,
    windows: Option<WindowsJson<'a>>,
    theory: &'static str,
    tests: Vec<TestJson>,
    invariants: Vec<InvariantJson>,
    /// The guessing game on the first draws, when it was played.
    guessing: Option<super::item_guessing::ItemGuessingJson>,
    verdict: Verdict,
}

#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct BagJson {
    slots: u64,
    copies: Vec<u64>,
    cycle_length: u64,
    whole_bag_per_cycle: bool,
}

#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct FrequencyJson<'a> {
    item: usize,
    name: &'a str,
    count: u64,
    expected: f64,
}

#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct DistributionJson<'a> {
    total: u64,
    mean: Option<f64>,
    longest: u64,
    longest_item: Option<&'a str>,
    #[schemars(with = "Vec<ValueCount>")]
    distribution: Vec<Box<RawValue>>,
    #[schemars(with = "Option<Vec<LawCell>>")]
    law: Option<Vec<Box<RawValue>>>,
    per_item: Vec<ItemDistributionJson<'a>>,
}

#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct ItemDistributionJson<'a> {
    item: usize,
    name: &'a str,
    total: u64,
    mean: Option<f64>,
    longest: u64,
    #[schemars(with = "Vec<ValueCount>")]
    distribution: Vec<Box<RawValue>>,
}

#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct ValueCount {
    value: u64,
    count: u64,
}

#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct LawCell {
    value: u64,
    or_more: bool,
    probability: f64,
    expected: f64,
}

#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct CyclePositionsJson {
    cycle_length: u64,
    #[schemars(with = "Vec<BinJson<'static>>")]
    bins: Vec<Box<RawValue>>,
}

#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct BinJson<'a> {
    first_position: u64,
    last_position: u64,
    counts: &'a [u64],
}

#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct RepeatsJson {
    cycle_pairs: u64,
    matches: u64,
}

#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct WindowsJson<'a> {
    length: u64,
    windows: u64,
    per_item: Vec<WindowItemJson<'a>>,
}

#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct WindowItemJson<'a> {
    item: usize,
    name: &'a str,
    expected: f64,
    mean_absolute_deviation: f64,
    largest_deviation: f64,
}

#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct InvariantJson {
    name: &'static str,
    description: String,
    bound: u64,
    observed: u64,
    item: Option<usize>,
    holds: bool,
}

/// Streams the whole run as JSON, ending with a newline, to `out`.
pub fn write(report: &StreamReport, out: &mut dyn Write) -> std::io::Result<()> {
    let settings = &report.settings;
    let json = StreamRunJson {
        provenance: match report.input {
            None => Provenance::new("stream", report.seed, report.seed_origin),
            Some(_) => Provenance::ingest(),
        },
        source: report.input.is_none().then_some(settings.source),
        items_spec: &settings.items.spec,
        length: settings.length,
        streams: settings.streams,
        add_every: settings.scenario.add_every,
        threads: report.threads,
        alpha: settings.alpha,
        elapsed_seconds: report.elapsed.as_secs_f64(),
        draws_per_second: report.draws_per_second(),
        input: report
            .input
            .as_ref()
            .map(|input| InputJson::new(input, None, Some(settings.length))),
        notes: &report.notes,
        all_as_expected: report.all_as_expected(),
        results: report
            .results
            .iter()
            .map(|result| result_json(report, result))
            .collect(),
    };
    serde_json::to_writer_pretty(&mut *out, &json)?;
    out.write_all(b"\n")
}

fn result_json<'a>(report: &'a StreamReport, result: &'a StreamResult) -> ResultJson<'a> {
    let items = &report.settings.items;
    let names = &items.names;
    let tally = &result.tally;
    let analysis = &result.analysis;
    let probabilities = items.probabilities();
    let weights = items.weights();
    let draws = tally.draws() as f64;
    let gap_maxima: Vec<u64> = tally.gaps.iter().map(Histogram::max).collect();
    ResultJson {
        generator: &result.name,
        description: &result.about.summary,
        origin: &result.about.origin,
        expected: result.expected,
        items: (0..items.len())
            .map(|item| ItemJson {
                item,
                name: &names[item],
                weight: weights[item],
                probability: probabilities[item],
            })
            .collect(),
        length: tally.length,
        streams: tally.streams,
        elapsed_seconds: result.elapsed.as_secs_f64(),
        bag: result.shape.as_ref().map(|shape| BagJson {
            slots: shape.source_slots,
            copies: shape.source_copies.clone(),
            cycle_length: shape.slots,
            whole_bag_per_cycle: shape.exact,
        }),
        additions: result.additions,
        frequencies: (0..items.len())
            .map(|item| {
                compact(&FrequencyJson {
                    item,
                    name: &names[item],
                    count: tally.frequencies[item],
                    expected: probabilities[item] * draws,
                })
            })
            .collect(),
        never_drawn: analysis
            .never_drawn
            .iter()
            .map(|&item| names[item].as_str())
            .collect(),
        run_lengths: distribution_json(
            &tally.runs,
            &tally.longest_run,
            analysis.run_law.as_deref(),
            names,
        ),
        gaps: distribution_json(&tally.gaps, &gap_maxima, analysis.gap_law.as_deref(), names),
        cycle_positions: match (&tally.cycle_positions, &tally.cycle) {
            (Some(table), Some(cycle)) => Some(CyclePositionsJson {
                cycle_length: cycle.slots,
                bins: table
                    .chunks(items.len())
                    .enumerate()
                    .map(|(bin, counts)| {
                        compact(&BinJson {
                            first_position: cycle.bounds[bin],
                            last_position: cycle.bounds[bin + 1] - 1,
                            counts,
                        })
                    })
                    .collect(),
            }),
            _ => None,
        },
        cycle_repeats: tally.repeats.as_ref().map(|repeats| RepeatsJson {
            cycle_pairs: repeats.cycle_pairs,
            matches: repeats.matches,
        }),
        windows: tally.windows.as_ref().map(|windows| WindowsJson {
            length: windows.length,
            windows: windows.windows,
            per_item: (0..items.len())
                .map(|item| WindowItemJson {
                    item,
                    name: &names[item],
                    expected: windows.expected(item),
                    mean_absolute_deviation: windows.mean_absolute_deviation(item),
                    largest_deviation: windows.largest_deviation(item),
                })
                .collect(),
        }),
        theory: analysis.theory.describe(),
        tests: analysis
            .tests
            .iter()
            .map(|test| test_json(test, "draws"))
            .collect(),
        invariants: analysis
            .invariants
            .iter()
            .map(|invariant| InvariantJson {
                name: invariant.name,
                description: invariant.describe(names),
                bound: invariant.bound,
                observed: invariant.observed,
                item: invariant.item,
                holds: invariant.holds(),
            })
            .collect(),
        guessing: analysis
            .guessing
            .as_ref()
            .map(super::item_guessing::item_guessing_json),
        verdict: analysis.verdict,
    }
}

fn distribution_json<'a>(
    per_item: &[Histogram],
    longest: &[u64],
    law: Option<&[f64]>,
    names: &'a [String],
) -> DistributionJson<'a> {
    let mut all = Histogram::default();
    for histogram in per_item {
        all.merge(histogram);
    }
    let total = all.total();
    let (longest_item, longest_value) =
        longest.iter().enumerate().fold(
            (None, 0),
            |best, (item, &value)| if value > best.1 { (Some(item), value) } else { best },
        );
    DistributionJson {
        total,
        mean: all.mean(),
        longest: longest_value,
        longest_item: longest_item.map(|item| names[item].as_str()),
        distribution: rows(&all),
        law: law.map(|law| {
            law.iter()
                .enumerate()
                .map(|(i, &probability)| {
                    compact(&LawCell {
                        value: i as u64 + 1,
                        or_more: i + 1 == law.len(),
                        probability,
                        expected: probability * total as f64,
                    })
                })
                .collect()
        }),
        per_item: per_item
            .iter()
            .enumerate()
            .map(|(item, histogram)| ItemDistributionJson {
                item,
                name: &names[item],
                total: histogram.total(),
                mean: histogram.mean(),
                longest: longest[item],
                distribution: rows(histogram),
            })
            .collect(),
    }
}

fn rows(histogram: &Histogram) -> Vec<Box<RawValue>> {
    histogram
        .iter()
        .map(|(value, count)| compact(&ValueCount { value, count }))
        .collect()
}
