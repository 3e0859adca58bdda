//! What every JSON export opens with (the tool, its version, the command, the seed and
//! where it came from), and for samples read by `ingest`, where they came from and
//! which lines were skipped.

use serde::Serialize;

use crate::run::{Outcome, Predictability, Predictable, RunReport, SampleInput, SeedOrigin};

/// What every export opens with: the tool, the command, and the seed with its origin.
#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct Provenance {
    /// The version of this JSON format (semantic versioning, one for every document).
    schema_version: &'static str,
    tool: &'static str,
    version: &'static str,
    command: &'static str,
    /// Absent for samples read from elsewhere (`ingest`): no seed made them.
    #[serde(skip_serializing_if = "Option::is_none")]
    seed: Option<u64>,
    /// The seed as text, for readers that hold numbers as doubles.
    #[serde(skip_serializing_if = "Option::is_none")]
    seed_string: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    seed_origin: Option<&'static str>,
}

impl Provenance {
    pub(crate) fn new(command: &'static str, seed: u64, origin: SeedOrigin) -> Self {
        Self {
            schema_version: super::SCHEMA_VERSION,
            tool: "shuffle-audit",
            version: env!("CARGO_PKG_VERSION"),
            command,
            seed: Some(seed),
            seed_string: Some(seed.to_string()),
            seed_origin: Some(match origin {
                SeedOrigin::Given => "given",
                SeedOrigin::OperatingSystem => "os",
            }),
        }
    }

    /// The provenance of a run report: its seed, or for ingested samples none.
    pub(crate) fn of_run(report: &RunReport) -> Self {
        match &report.input {
            None => Self::new("run", report.seed, report.seed_origin),
            Some(_) => Self::ingest(),
        }
    }

    /// The provenance of samples read by `ingest`: no seed made them.
    pub(crate) fn ingest() -> Self {
        Self {
            seed: None,
            seed_string: None,
            seed_origin: None,
            ..Self::new("ingest", 0, SeedOrigin::Given)
        }
    }
}

/// Where ingested samples came from (`ingest` only).
#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct InputJson<'a> {
    source: &'a str,
    deck_from: &'static str,
    lines_read: u64,
    /// Samples (lines) tallied, for permutations and selections.
    #[serde(skip_serializing_if = "Option::is_none")]
    samples_read: Option<u64>,
    /// Items tallied, for a stream.
    #[serde(skip_serializing_if = "Option::is_none")]
    items_read: Option<u64>,
    lines_skipped: u64,
    skipped: Vec<SkippedJson>,
    command: &'a str,
    /// Whether the deals give away the generator that dealt them: ingested deals of 2
    /// cards or more (absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    predictability: Option<PredictabilityJson<'a>>,
}

/// What `ingest` tried of the runtimes' recoveries, and what it found.
#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct PredictabilityJson<'a> {
    /// A runtime's generator deals the deals examined: every later deal is known.
    predictable: bool,
    /// `predictable`; `not-predictable` when every generator this version models was
    /// searched to its end and none deals them; `unknown` when one was not (see
    /// `generators`), or several states or seeds are left.
    verdict: &'static str,
    /// The one line that says it (`predictability: unknown: no state found, but …`).
    headline: String,
    /// The input's first deals the recoveries were run on (64, more for decks of 8 cards
    /// or fewer, whose deals show fewer bits: 149 of 5 cards).
    deals_examined: usize,
    /// Every generator this version models, on fresh decks and on carried ones: what its
    /// recovery found, or why it was not run and how to run it.
    generators: Vec<GeneratorJson>,
    /// Each recovery run, with what came of it (`java, fresh: no state`).
    tried: Vec<String>,
    /// Each recovery not run or not finished, with why and how to run it (`spidermonkey,
    /// carried: the budget of 2 s ran out before it; to search it: --unpredictable …`).
    skipped: Vec<String>,
    /// The generator, when one was recovered (`null` otherwise).
    found: Option<PredictableJson<'a>>,
}

/// One generator's recovery on fresh or carried decks.
#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct GeneratorJson {
    /// As `seeds recover --runtime` names it.
    runtime: &'static str,
    generator: &'static str,
    /// `fresh` or `carried` (each deal shuffling the one before).
    decks: &'static str,
    /// `state` or `seed` (found: every later deal is known), `several` (more deals would
    /// tell them apart), `none` (searched, nothing deals them, but see `detail`), `not
    /// tried` (not run), or `stopped` (started, and stopped before its end).
    result: &'static str,
    /// Searched to its end over the whole model, and its answer rules the generator in or
    /// out (`several` does not).
    settled: bool,
    /// For `several`: how many states or seeds deal the deals.
    #[serde(skip_serializing_if = "Option::is_none")]
    count: Option<u64>,
    /// What the search left out, or why it was not run.
    detail: Option<String>,
    /// How to run what was left out (`--seed-search php`).
    how: Option<String>,
}

/// A recovered generator.
#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct PredictableJson<'a> {
    /// `predictable: these deals are java.util.Random's (…): the next deal will be …`.
    sentence: String,
    /// As `seeds recover --runtime` names it.
    runtime: &'static str,
    generator: &'static str,
    shuffle: &'static str,
    /// Each deal shuffled the deck the one before left.
    carried: bool,
    deals_used: usize,
    /// The input's first deals compared with what the generator deals, and how many of
    /// them, from the first, it deals exactly.
    deals_checked: u64,
    deals_matched: u64,
    /// The state before the first deal, in hexadecimal.
    state: &'a str,
    /// How the runtime is given the seed that starts it there, when one exists.
    seed: Option<&'a str>,
    /// The deal after the input's last, in the input's labels.
    next_deal: Option<&'a [String]>,
    /// What to use instead.
    instead: &'static str,
    /// When the generator was seeded again among the deals: the deal its new state starts
    /// at, found too (`next_deal` is then the new state's).
    reseeded: Option<ReseededJson<'a>>,
}

/// A new state of the same generator, from the deal where the first one's deals stop.
#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct ReseededJson<'a> {
    /// The deal it starts at (1 for the first).
    at_deal: u64,
    /// The new state, in hexadecimal, and how the runtime is given its seed.
    state: &'a str,
    seed: Option<&'a str>,
    /// The input's deals, from the first, that the two states deal exactly.
    deals_matched: u64,
}

impl<'a> PredictabilityJson<'a> {
    fn new(predictability: &'a Predictability) -> Self {
        Self {
            predictable: predictability.found.is_some(),
            verdict: predictability.verdict().word(),
            headline: predictability.headline(),
            deals_examined: predictability.deals_examined,
            generators: predictability
                .checks
                .iter()
                .map(|check| GeneratorJson {
                    runtime: check.runtime,
                    generator: check.generator,
                    decks: if check.carried { "carried" } else { "fresh" },
                    result: check.outcome.word(),
                    settled: check.settled(),
                    count: match check.outcome {
                        Outcome::Several(count) => Some(count),
                        _ => None,
                    },
                    detail: check.detail.clone(),
                    how: check.how.clone(),
                })
                .collect(),
            tried: predictability.tried(),
            skipped: predictability.skipped(),
            found: predictability.found.as_ref().map(PredictableJson::new),
        }
    }
}

impl<'a> PredictableJson<'a> {
    fn new(found: &'a Predictable) -> Self {
        Self {
            sentence: found.sentence(),
            runtime: found.runtime,
            generator: found.generator,
            shuffle: found.shuffle,
            carried: found.carried,
            deals_used: found.deals_used,
            deals_checked: found.deals_checked,
            deals_matched: found.deals_matched,
            state: &found.state,
            seed: found.seed.as_deref(),
            next_deal: found.next_deal.as_deref(),
            instead: found.instead,
            reseeded: found.reseeded.as_ref().map(|again| ReseededJson {
                at_deal: again.at_deal,
                state: &again.state,
                seed: again.seed.as_deref(),
                deals_matched: again.deals_matched,
            }),
        }
    }
}

impl<'a> InputJson<'a> {
    /// `input` as JSON, with the samples (lines) or the stream's items it held.
    pub(crate) fn new(input: &'a SampleInput, samples_read: Option<u64>, items_read: Option<u64>) -> Self {
        Self {
            source: &input.source,
            deck_from: input.deck_from,
            lines_read: input.lines,
            samples_read,
            items_read,
            lines_skipped: input.skipped_total(),
            skipped: input
                .skipped
                .iter()
                .map(|skipped| SkippedJson {
                    reason: skipped.reason,
                    count: skipped.count,
                    first_line: skipped.first_line,
                })
                .collect(),
            command: &input.command,
            predictability: input.predictability.as_ref().map(PredictabilityJson::new),
        }
    }
}

#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct SkippedJson {
    reason: &'static str,
    count: u64,
    first_line: u64,
}
