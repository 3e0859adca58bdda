//! The JSON export of `shuffle-audit seeds reach` (fields in README.md, "Seed spaces").
//!
//! The source as every export records it (name, definition, origin), the seed ranges,
//! `n!` (its base-2 logarithm, its exact decimal digits, and the number itself when a
//! double holds it exactly), the bound `min(seeds, n!)`, the reachable count or estimate
//! with its method and standard error, and the example orders with cards from 0. Orders
//! are written on one line each: a 2,000-card deck would otherwise take 2,000 lines.

use std::io::Write;

use serde::Serialize;
use serde_json::value::RawValue;

use crate::randomness::SourceKind;
use crate::seeds::reach::{ReachReport, Reachable, SeedSpaceOrigin, seed_meaning};

use super::compact;

/// The largest integer a double holds exactly: counts above it are given as text only.
const EXACT_IN_A_DOUBLE: u64 = 1 << 53;

#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct ReachJson<'a> {
    /// The version of this JSON format (semantic versioning, one for every document).
    schema_version: &'static str,
    tool: &'static str,
    version: &'static str,
    command: &'static str,
    source: SourceKind,
    algorithm: &'a str,
    n: usize,
    seeds: SeedsJson,
    orders_total: OrdersJson<'a>,
    reachable_bound: CountJson,
    reachable: ReachableJson,
    seeds_per_reachable_order: f64,
    examples: Vec<ExampleJson<'a>>,
    threads: usize,
    elapsed_seconds: f64,
    seeds_per_second: f64,
}

#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct SeedsJson {
    /// What a seed is: `srand(seed)`.
    meaning: &'static str,
    /// `whole-state`, `day-of-milliseconds`, `seed-bits` or `seed-range`.
    chosen_by: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    seed_bits: Option<u32>,
    #[schemars(with = "Vec<RangeJson>")]
    ranges: Vec<Box<RawValue>>,
    count: u64,
}

#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct RangeJson {
    start: u64,
    end: u64,
}

#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct OrdersJson<'a> {
    log2: f64,
    decimal: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    exact: Option<u64>,
}

#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct CountJson {
    count: u64,
    log2: f64,
}

#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct ReachableJson {
    /// `bitset` or `distinct-sampling`.
    method: &'static str,
    /// Whether `count` is the count itself (else `estimate` is an estimate).
    exact: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    count: Option<u64>,
    estimate: f64,
    standard_error: f64,
    log2: f64,
    /// Distinct orders the sample kept (sampling only).
    #[serde(skip_serializing_if = "Option::is_none")]
    kept: Option<u64>,
    /// The sample kept the orders whose hash fell in the lowest `2^-level` of its range.
    #[serde(skip_serializing_if = "Option::is_none")]
    sampling_level: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sampling_fraction: Option<f64>,
}

#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct ExampleJson<'a> {
    label: &'a str,
    #[schemars(with = "Vec<u16>")]
    permutation: Box<RawValue>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rank: Option<u64>,
    dealt: bool,
}

/// Writes the whole export.
pub fn write(report: &ReachReport, out: &mut dyn Write) -> std::io::Result<()> {
    let seeds = &report.seeds;
    let (chosen_by, seed_bits) = match seeds.origin() {
        SeedSpaceOrigin::WholeState => ("whole-state", None),
        SeedSpaceOrigin::DayOfMilliseconds => ("day-of-milliseconds", None),
        SeedSpaceOrigin::Bits(bits) => ("seed-bits", Some(bits)),
        SeedSpaceOrigin::Ranges => ("seed-range", None),
    };
    let reachable = &report.reachable;
    let sample = match reachable {
        Reachable::Exact { .. } => None,
        Reachable::Sampled(sample) => Some(sample),
    };
    let bound = report.bound();
    let json = ReachJson {
        schema_version: super::SCHEMA_VERSION,
        tool: "shuffle-audit",
        version: env!("CARGO_PKG_VERSION"),
        command: "seeds reach",
        source: report.source,
        algorithm: &report.algorithm,
        n: report.n,
        seeds: SeedsJson {
            meaning: seed_meaning(report.source),
            chosen_by,
            seed_bits,
            ranges: seeds
                .ranges()
                .iter()
                .map(|range| {
                    compact(&RangeJson {
                        start: range.start,
                        end: range.end,
                    })
                })
                .collect(),
            count: seeds.count(),
        },
        orders_total: OrdersJson {
            log2: report.orders.log2,
            decimal: &report.orders.decimal,
            exact: report.orders.exact.filter(|&orders| orders <= EXACT_IN_A_DOUBLE),
        },
        reachable_bound: CountJson {
            count: bound,
            log2: (bound as f64).log2(),
        },
        reachable: ReachableJson {
            method: report.method(),
            exact: reachable.exact_count().is_some(),
            count: reachable.exact_count(),
            estimate: reachable.estimate(),
            standard_error: reachable.standard_error(),
            log2: reachable.estimate().max(1.0).log2(),
            kept: sample.map(|sample| sample.kept),
            sampling_level: sample.map(|sample| sample.level),
            sampling_fraction: sample.map(|sample| 2f64.powi(-(sample.level as i32))),
        },
        seeds_per_reachable_order: report.seeds_per_order(),
        examples: report
            .examples
            .iter()
            .map(|example| ExampleJson {
                label: &example.label,
                permutation: compact(&example.order),
                rank: example.rank,
                dealt: example.dealt,
            })
            .collect(),
        threads: report.threads,
        elapsed_seconds: report.elapsed.as_secs_f64(),
        seeds_per_second: report.seeds_per_second(),
    };
    serde_json::to_writer_pretty(&mut *out, &json)?;
    writeln!(out)
}
