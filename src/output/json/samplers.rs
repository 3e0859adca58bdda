//! A sampler's result in the JSON export: its tallies (every subset in colex order, the
//! ordered selections when they were tallied, each item's inclusion count with its
//! expectation), its tests, effect sizes, the items never chosen, and its verdict.
//!
//! Items are numbered from 0, as cards are. Subset and ordered-selection rows are compact
//! lines produced while the document is written, as the permutations are.

use serde::Serialize;
use serde_json::value::RawValue;

use super::test_report::{TestJson, test_json};
use super::{LawCount, compact};
use crate::analysis::SelectionOutcomes;
use crate::catalogue::Expectation;
use crate::run::SamplerResult;
use crate::stats::Verdict;
use crate::stats::effect::Deviation;
use crate::tally::combinadic::{next_subset, unrank};
use crate::tally::lehmer::partial_unrank;

#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(super) struct SamplerResultJson<'a> {
    algorithm: &'a str,
    description: &'a str,
    origin: &'a str,
    /// The names of the items, from item 0 (ingested samples only; indices stay 0-based).
    #[serde(skip_serializing_if = "Option::is_none")]
    labels: Option<&'a [String]>,
    /// The verdict it should get: what a catalogue algorithm is known to be; for samples
    /// read by `ingest`, `fair`, since they were tested against a fair sampler (nothing is known
    /// of them).
    expected: Expectation,
    n: usize,
    k: usize,
    trials: u64,
    elapsed_seconds: f64,
    #[schemars(with = "Option<Vec<SelectionCount<'static>>>")]
    subsets: Option<Subsets<'a>>,
    expected_count_per_subset: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<Vec<SelectionCount<'static>>>")]
    ordered_selections: Option<OrderedSelections<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    expected_count_per_ordered_selection: Option<f64>,
    #[schemars(with = "Vec<InclusionCount>")]
    inclusion: Vec<Box<RawValue>>,
    /// How many items consecutive selections share (`{"k": j, "count", "expected"}`),
    /// when counted (samples read by `ingest`, samplers on a flawed source).
    #[schemars(with = "Option<Vec<LawCount>>")]
    serial_overlaps: Option<Vec<Box<RawValue>>>,
    tests: Vec<TestJson>,
    total_variation: Option<f64>,
    total_variation_noise_floor: Option<f64>,
    subsets_never_seen: Option<usize>,
    items_never_chosen: &'a [usize],
    over_represented: Vec<OutcomeJson>,
    under_represented: Vec<OutcomeJson>,
    /// The guessing game on the first samples, when it was played.
    guessing: Option<super::item_guessing::ItemGuessingJson>,
    verdict: Verdict,
}

#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct SelectionCount<'a> {
    items: &'a [u16],
    count: u64,
}

#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct InclusionCount {
    item: usize,
    count: u64,
    expected: f64,
}

#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct OutcomeJson {
    #[serde(skip_serializing_if = "Option::is_none")]
    items: Option<Vec<u16>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    item: Option<usize>,
    count: u64,
    expected: f64,
    ratio: f64,
}

/// Every subset with its count, in colex order (the order of their ranks), one compact
/// line each.
pub(super) struct Subsets<'a> {
    counts: &'a [u64],
    n: usize,
    k: usize,
}

impl Serialize for Subsets<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut subset: Vec<u16> = (0..self.k as u16).collect();
        serializer.collect_seq(self.counts.iter().map(|&count| {
            let line = compact(&SelectionCount {
                items: &subset,
                count,
            });
            next_subset(&mut subset, self.n);
            line
        }))
    }
}

/// Every ordered selection with its count, in lexicographic order, one compact line each.
pub(super) struct OrderedSelections<'a> {
    counts: &'a [u64],
    n: usize,
    k: usize,
}

impl Serialize for OrderedSelections<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut selection = vec![0u16; self.k];
        serializer.collect_seq(self.counts.iter().enumerate().map(|(rank, &count)| {
            partial_unrank(rank, self.n, &mut selection);
            compact(&SelectionCount {
                items: &selection,
                count,
            })
        }))
    }
}

pub(super) fn result_json(result: &SamplerResult) -> SamplerResultJson<'_> {
    let tally = &result.tally;
    let analysis = &result.analysis;
    let (n, k, trials) = (tally.n, tally.k, tally.trials);
    let per_item = trials as f64 * k as f64 / n as f64;
    let outcome = |deviation: &Deviation| {
        let mut json = OutcomeJson {
            items: None,
            item: None,
            count: deviation.count,
            expected: deviation.expected,
            ratio: deviation.ratio,
        };
        match analysis.outcome_table {
            SelectionOutcomes::Subsets => {
                let mut subset = vec![0u16; k];
                unrank(deviation.cell as u64, &mut subset);
                json.items = Some(subset);
            }
            SelectionOutcomes::Items => json.item = Some(deviation.cell),
        }
        json
    };
    SamplerResultJson {
        algorithm: &result.name,
        description: &result.about.summary,
        origin: &result.about.origin,
        labels: result.about.labels.as_deref(),
        expected: result.expected,
        n,
        k,
        trials,
        elapsed_seconds: result.elapsed.as_secs_f64(),
        subsets: tally
            .subset_counts
            .as_ref()
            .map(|counts| Subsets { counts, n, k }),
        expected_count_per_subset: tally
            .subset_counts
            .as_ref()
            .map(|counts| trials as f64 / counts.len() as f64),
        ordered_selections: tally
            .ordered_counts
            .as_ref()
            .map(|counts| OrderedSelections { counts, n, k }),
        expected_count_per_ordered_selection: tally
            .ordered_counts
            .as_ref()
            .map(|counts| trials as f64 / counts.len() as f64),
        serial_overlaps: tally.overlap_counts.as_ref().map(|counts| {
            let pairs: u64 = counts.iter().sum();
            counts
                .iter()
                .zip(crate::stats::laws::overlap_law(n, k))
                .enumerate()
                .map(|(j, (&count, probability))| {
                    compact(&LawCount {
                        k: j,
                        count,
                        expected: probability * pairs as f64,
                    })
                })
                .collect()
        }),
        inclusion: tally
            .inclusion_counts
            .iter()
            .enumerate()
            .map(|(item, &count)| {
                compact(&InclusionCount {
                    item,
                    count,
                    expected: per_item,
                })
            })
            .collect(),
        tests: analysis
            .tests
            .iter()
            .map(|test| {
                test_json(
                    test,
                    if test.name == "inclusion" {
                        "picks"
                    } else {
                        "samples"
                    },
                )
            })
            .collect(),
        total_variation: analysis.total_variation.map(|tv| tv.distance),
        total_variation_noise_floor: analysis.total_variation.map(|tv| tv.noise_floor),
        subsets_never_seen: analysis.subsets_never_seen,
        items_never_chosen: &analysis.items_never_chosen,
        over_represented: analysis.over_represented.iter().map(outcome).collect(),
        under_represented: analysis.under_represented.iter().map(outcome).collect(),
        guessing: analysis
            .guessing
            .as_ref()
            .map(super::item_guessing::item_guessing_json),
        verdict: analysis.verdict,
    }
}
