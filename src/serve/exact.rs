//! The exact expectation beside a live run, where it is quick to know: the chart `exact`
//! draws of the law (a shuffle's card × position matrix, a sampler's selections, a bag's
//! first cycle) and the trials its test needs to catch the bias with 99 % power (`exact`'s
//! "samples needed").
//!
//! Only where the random paths are few enough to walk in about a second, so the page
//! never waits long for it: shuffles of at most 10 cards with at most [`MAX_PATHS`] paths,
//! samplers of at most [`MAX_SAMPLER_ITEMS`] items, bags of at most [`MAX_BAG_ITEMS`] equal
//! items (`exact --items`, one copy of each per cycle). Elsewhere, and for generators that
//! are not such bags, the page says the exact law is not computed here.

use serde::Serialize;

use crate::exact::{ExactReport, ExactSettings, POWER, enumerate::known_paths, exact, exact_bags};
use crate::report::sections::exact_part;
use crate::simulate::NoProgress;

use super::request::{LiveRequest, LiveRunSpec, LiveStreamSpec};

/// The most random paths of a shuffle walked for the exact view.
pub const MAX_PATHS: u64 = 1 << 22;
/// The most items a sampler's exact view enumerates (bag-pick on 10 items, k = 5: 0.8 s).
pub const MAX_SAMPLER_ITEMS: usize = 10;
/// The most items of a bag whose first cycle is enumerated (9 items: 9! paths and
/// more, about half a second; 10 take five).
pub const MAX_BAG_ITEMS: usize = 9;

/// What the run counts, and what the exact law's test counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Unit {
    /// Shuffles: the test of all orders counts deals, as the run does.
    Deals,
    /// Samples of a sampler: the test of all selections counts samples, as the run does.
    Samples,
    /// A bag's cycles: the test of the orders of one cycle counts cycles; the run counts
    /// draws, and tests them otherwise (frequencies, gaps, cycle positions).
    Cycles,
}

/// The exact view of a run.
#[derive(Clone, Debug, Serialize)]
pub struct ExactView {
    /// The exact chart, as the `exact` report draws it.
    pub svg: Option<String>,
    /// The name (or its start) of the live chart the exact one goes beside.
    pub beside: &'static str,
    /// Trials (in [`ExactView::unit`]s) the exact law's test needs to reject at the run's
    /// alpha with 99 % power; `None` when there is no bias to catch.
    pub trials_needed: Option<u64>,
    pub unit: Unit,
    /// Draws per unit: the bag's items for cycles, 1 otherwise.
    pub draws_per_unit: u64,
    /// The power `trials_needed` is for.
    pub power: f64,
    /// Whether the law is exactly uniform.
    pub uniform: bool,
    /// The total variation distance of the law from uniform.
    pub total_variation: Option<f64>,
}

/// The exact view of `request`, when it can be computed quickly.
pub fn exact_view(request: &LiveRequest) -> Option<ExactView> {
    match request {
        LiveRequest::Run(run) if run.spec.algorithm.as_permutation().is_some() => shuffle_view(run),
        LiveRequest::Run(run) => sampler_view(run),
        LiveRequest::Stream(stream) => bag_view(stream),
    }
}

fn settings(n: usize, k: Option<usize>, alpha: f64, source: crate::randomness::SourceKind) -> ExactSettings {
    ExactSettings {
        n,
        k,
        threads: 1,
        positions: false,
        alpha,
        items: None,
        source,
    }
}

/// The chart of `report` whose file name ends with `suffix`.
fn chart_of(report: &ExactReport, suffix: &str) -> Option<String> {
    exact_part(report, String::new(), 1)
        .results
        .into_iter()
        .flat_map(|section| section.charts)
        .find(|chart| chart.file_name.ends_with(suffix))
        .map(|chart| chart.svg)
}

/// The view of the first result of `law`, with `svg` beside the live chart `beside`.
fn view_of(
    law: &ExactReport,
    n: usize,
    svg: Option<String>,
    beside: &'static str,
    unit: Unit,
) -> Option<ExactView> {
    let result = law.results.first()?;
    Some(ExactView {
        svg,
        beside,
        trials_needed: result.trials_needed,
        unit,
        draws_per_unit: if unit == Unit::Cycles { n as u64 } else { 1 },
        power: POWER,
        uniform: result.is_uniform(n),
        total_variation: result.total_variation,
    })
}

/// A shuffle's: the exact card × position matrix beside the observed one.
fn shuffle_view(
    LiveRunSpec {
        spec, settings: run, ..
    }: &LiveRunSpec,
) -> Option<ExactView> {
    let algorithm = spec.algorithm.as_permutation()?;
    if run.n > 10 || algorithm.carries_deck_between_deals() {
        return None;
    }
    if known_paths(algorithm.resolve(run.n), run.n)? > MAX_PATHS {
        return None;
    }
    let specs = std::slice::from_ref(spec);
    let law = exact(specs, &settings(run.n, None, run.alpha, run.source), &NoProgress).ok()?;
    let positions = ExactSettings {
        positions: true,
        ..settings(run.n, None, run.alpha, run.source)
    };
    let svg = exact(specs, &positions, &NoProgress)
        .ok()
        .and_then(|report| chart_of(&report, "positions.svg"));
    view_of(&law, run.n, svg, "positions", Unit::Deals)
}

/// A sampler's: the exact law of its selections beside the observed counts.
fn sampler_view(
    LiveRunSpec {
        spec, settings: run, ..
    }: &LiveRunSpec,
) -> Option<ExactView> {
    let k = run.k?;
    if run.n > MAX_SAMPLER_ITEMS {
        return None;
    }
    let law = exact(
        std::slice::from_ref(spec),
        &settings(run.n, Some(k), run.alpha, run.source),
        &NoProgress,
    )
    .ok()?;
    let svg = chart_of(&law, "law.svg");
    view_of(&law, run.n, svg, "subset", Unit::Samples)
}

/// A bag's: the exact law of the order its first cycle deals one copy of each item in.
fn bag_view(
    LiveStreamSpec {
        spec,
        settings: stream,
        ..
    }: &LiveStreamSpec,
) -> Option<ExactView> {
    let m = stream.items.len();
    if m > MAX_BAG_ITEMS || stream.scenario.add_every.is_some() {
        return None;
    }
    let law = exact_bags(
        std::slice::from_ref(spec),
        &stream.items,
        &settings(m, None, stream.alpha, stream.source),
        &NoProgress,
    )
    .ok()?;
    let svg = chart_of(&law, "law.svg");
    view_of(&law, m, svg, "frequencies", Unit::Cycles)
}
