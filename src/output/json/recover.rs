//! The JSON export of `seeds recover`: the runtime and its generator, the deals read and
//! used, how many states deal them, the one state (in hexadecimal) with the seed that
//! starts it when there is one, the first [`LISTED`] states when there are several, and
//! the predicted deals in the input's labels.

use std::io::Write;

use serde::Serialize;

use crate::ingest::recovery::RecoverReport;

/// States listed when several deal the deals: every one the search kept (a seed search
/// keeps the first [`MOST_LISTED`](crate::seeds::recover::seeded::MOST_LISTED)), as the text
/// says.
pub const LISTED: usize = crate::seeds::recover::seeded::MOST_LISTED;

#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct RecoverJson<'a> {
    /// The version of this JSON format (semantic versioning, one for every document).
    schema_version: &'static str,
    tool: &'static str,
    version: &'static str,
    command: &'static str,
    /// The runtime searched (`--runtime`).
    runtime: &'static str,
    generator: &'static str,
    /// The deals' source, and the command that repeats the search.
    input: &'a str,
    reproduce: &'a str,
    /// Cards in a deck, deals given, and the first deals the search used (every deal
    /// given is checked).
    n: usize,
    deals: usize,
    deals_used: usize,
    carried: bool,
    /// How many states (for a seeded runtime, seeds) deal every deal given: 1 when the
    /// deals pin the generator.
    candidates: u64,
    /// The seeds searched, for a runtime started from a small seed (`seeds list` names
    /// them); null for the others.
    seeds_searched: Option<SeedsJson>,
    /// Every matching state was found (false: the search was stopped first, or the deals
    /// leave bits of the state unsettled, so that others may deal them too).
    complete: bool,
    /// What the answer does not rule out: for no state, a case the search left out; for
    /// a search that did not end, how far it got or how many more deals settle it.
    caveat: Option<&'a str>,
    /// The shuffle, state (hexadecimal), seed and note of the one state; null otherwise.
    shuffle: Option<&'static str>,
    state: Option<&'a str>,
    seed: Option<i64>,
    seed_usage: Option<&'a str>,
    note: Option<&'a str>,
    /// The first states when several deal the deals.
    states: Vec<StateJson<'a>>,
    /// Every later deal is known: one state deals every deal given, or all that do deal
    /// the same next deals.
    predictable: bool,
    /// Deals asked for, and the deals predicted (empty unless `predictable`).
    predict: usize,
    predicted: Vec<Vec<String>>,
    elapsed_seconds: f64,
}

#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct SeedsJson {
    /// The window asked for: seeds `start` to `end - 1`.
    start: u64,
    end: u64,
    /// Seeds searched.
    searched: u64,
    /// The window that resumes a stopped search (`--window A..B`); null when it was not
    /// stopped.
    resume: Option<String>,
}

#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct StateJson<'a> {
    shuffle: &'static str,
    state: &'a str,
    seed: Option<i64>,
    note: Option<&'a str>,
}

/// Writes the report as pretty JSON.
pub fn write(report: &RecoverReport, out: &mut dyn Write) -> std::io::Result<()> {
    let recovery = &report.recovery;
    let one = recovery.pinned().then(|| &recovery.candidates[0]);
    let json = RecoverJson {
        schema_version: super::SCHEMA_VERSION,
        tool: "shuffle-audit",
        version: env!("CARGO_PKG_VERSION"),
        command: "seeds recover",
        runtime: recovery.runtime.name,
        generator: recovery.runtime.generator,
        input: &report.source,
        reproduce: &report.command,
        n: recovery.n,
        deals: recovery.deals,
        deals_used: recovery.deals_used,
        carried: recovery.carried,
        candidates: recovery.matching(),
        seeds_searched: recovery.seeds.as_ref().map(|seeds| SeedsJson {
            start: seeds.window.start,
            end: seeds.window.end,
            searched: seeds.searched,
            resume: seeds
                .resume()
                .map(|resume| format!("{}..{}", resume.start, resume.end)),
        }),
        complete: recovery.complete,
        caveat: recovery.caveat.as_deref(),
        shuffle: one.map(|candidate| candidate.shuffle.name),
        state: one.map(|candidate| candidate.state.as_str()),
        seed: one
            .and_then(|candidate| candidate.seed.as_ref())
            .map(|seed| seed.value),
        seed_usage: one
            .and_then(|candidate| candidate.seed.as_ref())
            .map(|seed| seed.usage.as_str()),
        note: one.and_then(|candidate| candidate.note.as_deref()),
        states: if one.is_some() {
            Vec::new()
        } else {
            recovery
                .candidates
                .iter()
                .take(LISTED)
                .map(|candidate| StateJson {
                    shuffle: candidate.shuffle.name,
                    state: &candidate.state,
                    seed: candidate.seed.as_ref().map(|seed| seed.value),
                    note: candidate.note.as_deref(),
                })
                .collect()
        },
        predict: recovery.predict,
        predictable: recovery.predictable(),
        predicted: recovery
            .predicted
            .iter()
            .map(|deal| report.labelled(deal))
            .collect(),
        elapsed_seconds: recovery.elapsed.as_secs_f64(),
    };
    serde_json::to_writer_pretty(&mut *out, &json)?;
    writeln!(out)
}
