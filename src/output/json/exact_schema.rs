//! The shape of the `exact` export, for its JSON Schema only: [`super::exact`] writes that
//! document by hand, line by line (10! outcomes are never held), so no struct of it can
//! derive the schema. These mirror what it writes, field for field; `tests/schemas.rs`
//! validates real `exact --json` output against the schema they give (unknown fields
//! refused, always-written fields required), so the writer and this mirror cannot drift
//! apart unnoticed.

#![allow(dead_code)]

use crate::catalogue::Expectation;
use crate::exact::positions::PositionMethod;
use crate::randomness::SourceKind;
use crate::stats::Verdict;

/// The whole document.
#[derive(schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct ExactJson {
    /// The version of this JSON format (semantic versioning, one for every document).
    schema_version: String,
    tool: String,
    version: String,
    command: String,
    source: SourceKind,
    /// Under a flawed source: the model in which the figures are exact.
    #[serde(skip_serializing_if = "Option::is_none")]
    model: Option<String>,
    n: usize,
    /// Samplers only: the size of a selection.
    #[serde(skip_serializing_if = "Option::is_none")]
    k: Option<usize>,
    all_as_expected: bool,
    results: Vec<ResultJson>,
}

/// One algorithm: its exact law (`paths` .. `impossible`), or its position matrix
/// (`position_method`, `position_matrix`), or a riffle's closed-form law (`method` ..
/// `rising_sequence_law`).
#[derive(schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct ResultJson {
    algorithm: String,
    /// `fair` or `biased`: the catalogue's own truth about the algorithm.
    expected: Expectation,
    uniform: bool,
    verdict: Verdict,
    /// The card-guessing game's value; `null` where the game does not apply.
    guessing: Option<super::exact_guessing::GuessingJson<'static>>,
    samples_needed: SamplesNeeded,
    #[serde(skip_serializing_if = "Option::is_none")]
    paths: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    denominator: Option<u128>,
    #[serde(skip_serializing_if = "Option::is_none")]
    denominator_string: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    outcomes: Option<Vec<super::exact::Outcome<'static>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    total_variation: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_ratio: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    impossible: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    position_method: Option<PositionMethod>,
    /// Card by position, one row per card; `null` when the method knows none.
    #[serde(skip_serializing_if = "Option::is_none")]
    position_matrix: Option<Option<Vec<Vec<f64>>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    method: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    riffles: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    most_likely: Option<super::exact_riffles::Class>,
    #[serde(skip_serializing_if = "Option::is_none")]
    least_likely: Option<super::exact_riffles::Class>,
    #[serde(skip_serializing_if = "Option::is_none")]
    impossible_share: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rising_sequence_law: Option<Vec<super::exact_riffles::RisingSequences>>,
}

/// How many trials a simulation needs to see the bias.
#[derive(schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct SamplesNeeded {
    /// `permutation`, `selections`, `positions` or `rising-sequences`.
    test: String,
    alpha: f64,
    power: f64,
    /// `null`: no bias to find, or more trials than a u64 holds (see `uniform`).
    trials: Option<u64>,
    noncentrality_per_trial: Option<f64>,
    df: Option<u64>,
}
