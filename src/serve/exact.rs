//! The exact expectation beside a live run, where it is quick to know: the chart `exact`
//! draws of the law (a shuffle's card × position matrix, a sampler's selections, a bag's
//! first cycle) and the trials its test needs to catch the bias with 99 % power (`exact`'s
//! "samples needed").
//!
//! Enumerated only where the random paths are few enough to walk in about a second, so
//! the page never waits long for it: shuffles of at most 10 cards with at most
//! [`MAX_PATHS`] paths, samplers of at most [`MAX_SAMPLER_ITEMS`] items, bags of at most
//! [`MAX_BAG_ITEMS`] equal items (`exact --items`, one copy of each per cycle). A stream's
//! draws have a closed-form law for every i.i.d. generator and every fair bag, whatever
//! its items and copies ([`draw_law`]): that law goes beside the frequencies chart. Wherever
//! no exact law is known or computed, the view says so in a plain sentence
//! ([`ExactView::note`]) rather than leaving the toggle silently out.

mod draws;
#[cfg(test)]
mod tests;

use serde::Serialize;

use crate::exact::{ExactReport, ExactSettings, POWER, enumerate::known_paths, exact, exact_bags};
use crate::report::sections::exact_part;
use crate::simulate::Progress;

use super::request::{LiveRequest, LiveRunSpec, LiveStreamSpec};
pub use draws::{DrawLaw, draw_law};

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
    /// A stream's draws: the exact law is that of each single draw.
    Draws,
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
    /// Whether the law is exactly the fair one: uniform over orders or selections, or,
    /// for a stream's draws, exactly the stated weights.
    pub uniform: bool,
    /// The total variation distance of the law from the fair one.
    pub total_variation: Option<f64>,
    /// A stream's: the exact chance of each item at every draw, where it is known.
    pub draw_law: Option<Vec<f64>>,
    /// What the exact view covers, or why there is none, in a sentence for the page.
    pub note: Option<String>,
}

impl ExactView {
    /// No exact view, and why (the page shows `why` where the toggle would be).
    pub fn unknown(unit: Unit, why: String) -> Self {
        Self {
            svg: None,
            beside: "",
            trials_needed: None,
            unit,
            draws_per_unit: 1,
            power: POWER,
            uniform: false,
            total_variation: None,
            draw_law: None,
            note: Some(why),
        }
    }
}

/// The exact view of `request` where it can be computed quickly, or a view that says why
/// there is none. Given up, with a view that says so, once `progress` is cancelled (the
/// run was stopped: no work of a run outlives it).
pub fn exact_view(request: &LiveRequest, progress: &dyn Progress) -> ExactView {
    let view = match request {
        LiveRequest::Run(run) if run.spec.algorithm.as_permutation().is_some() => shuffle_view(run, progress),
        LiveRequest::Run(run) => sampler_view(run, progress),
        LiveRequest::Stream(stream) => stream_view(stream, progress),
    };
    if progress.cancelled() {
        return ExactView::unknown(
            view.unit,
            "The run was stopped before its exact law was computed.".to_string(),
        );
    }
    view
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
        draw_law: None,
        note: None,
    })
}

/// A shuffle's: the exact card × position matrix beside the observed one.
fn shuffle_view(
    LiveRunSpec {
        spec, settings: run, ..
    }: &LiveRunSpec,
    progress: &dyn Progress,
) -> ExactView {
    let unknown = |why: &str| ExactView::unknown(Unit::Deals, why.to_string());
    let Some(algorithm) = spec.algorithm.as_permutation() else {
        return unknown("Not a shuffle.");
    };
    if algorithm.carries_deck_between_deals() {
        return unknown(
            "No exact law is computed for a shuffle that carries its deck from deal to deal: \
             each deal's law depends on the one before.",
        );
    }
    if run.n > 10 {
        return unknown("The exact law is computed here for at most 10 cards (`exact` walks more).");
    }
    if known_paths(algorithm.resolve(run.n), run.n).is_none_or(|paths| paths > MAX_PATHS) {
        return unknown(
            "The exact law is computed here only when its random paths are few enough to walk \
             in about a second; `shuffle-audit exact` walks more.",
        );
    }
    let specs = std::slice::from_ref(spec);
    let Ok(law) = exact(specs, &settings(run.n, None, run.alpha, run.source), progress) else {
        return unknown("The exact law could not be computed for this source.");
    };
    let positions = ExactSettings {
        positions: true,
        ..settings(run.n, None, run.alpha, run.source)
    };
    let svg = exact(specs, &positions, progress)
        .ok()
        .and_then(|report| chart_of(&report, "positions.svg"));
    view_of(&law, run.n, svg, "positions", Unit::Deals)
        .unwrap_or_else(|| unknown("The exact law could not be computed."))
}

/// A sampler's: the exact law of its selections beside the observed counts.
fn sampler_view(
    LiveRunSpec {
        spec, settings: run, ..
    }: &LiveRunSpec,
    progress: &dyn Progress,
) -> ExactView {
    let unknown = |why: String| ExactView::unknown(Unit::Samples, why);
    let Some(k) = run.k else {
        return unknown("A sampler needs k.".to_string());
    };
    if run.n > MAX_SAMPLER_ITEMS {
        return unknown(format!(
            "The exact law of the selections is computed here for at most {MAX_SAMPLER_ITEMS} items."
        ));
    }
    exact(
        std::slice::from_ref(spec),
        &settings(run.n, Some(k), run.alpha, run.source),
        progress,
    )
    .ok()
    .and_then(|law| {
        let svg = chart_of(&law, "law.svg");
        view_of(&law, run.n, svg, "subset", Unit::Samples)
    })
    .unwrap_or_else(|| unknown("The exact law could not be computed.".to_string()))
}

/// A stream's: the law of one cycle's order for a bag of a few equal items (its "samples
/// needed" in cycles), with the exact law of each draw where it is known; else the exact
/// law of each draw beside the frequencies; else why neither is known.
fn stream_view(stream: &LiveStreamSpec, progress: &dyn Progress) -> ExactView {
    let settings = &stream.settings;
    let draws = draw_law(&stream.spec, &settings.items, &settings.scenario, settings.source);
    if let Some(view) = bag_view(stream, progress) {
        let note = match &draws {
            Ok(law) => format!("Every draw too: {}.", law.why),
            Err(why) => why.clone(),
        };
        return ExactView {
            draw_law: draws.ok().map(|law| law.probabilities()),
            note: Some(note),
            ..view
        };
    }
    let law = match draws {
        Ok(law) => law,
        Err(why) => return ExactView::unknown(Unit::Draws, why),
    };
    let items = &settings.items;
    let uniform = law.is_stated(items);
    let title = format!(
        "{} · {} items · the exact law of each draw",
        stream.spec.display_name(),
        items.len()
    );
    let note = if uniform {
        format!(
            "Exact: {}, so each item's expected count is exactly its weight's share of the draws: \
             there is no bias to catch.",
            law.why
        )
    } else {
        format!(
            "Exact: {}, which is off the stated weights by a total variation of {:.4}.",
            law.why,
            law.distance_from_stated(items)
        )
    };
    ExactView {
        svg: Some(draws::draw_law_chart(title, items, &law)),
        beside: "frequencies",
        trials_needed: None,
        unit: Unit::Draws,
        draws_per_unit: 1,
        power: POWER,
        uniform,
        total_variation: Some(law.distance_from_stated(items)),
        draw_law: Some(law.probabilities()),
        note: Some(note),
    }
}

/// A bag's: the exact law of the order its first cycle deals one copy of each item in.
fn bag_view(
    LiveStreamSpec {
        spec,
        settings: stream,
        ..
    }: &LiveStreamSpec,
    progress: &dyn Progress,
) -> Option<ExactView> {
    let m = stream.items.len();
    if m > MAX_BAG_ITEMS || stream.scenario.add_every.is_some() {
        return None;
    }
    // Only bags of one copy of each item are enumerated; `exact_bags` refuses the others.
    let law = exact_bags(
        std::slice::from_ref(spec),
        &stream.items,
        &settings(m, None, stream.alpha, stream.source),
        progress,
    )
    .ok()?;
    let svg = chart_of(&law, "law.svg");
    view_of(&law, m, svg, "frequencies", Unit::Cycles)
}
