//! The exact expectation beside a live run, where it is quick to know: the exact card ×
//! position matrix (the `exact --positions` chart) and the trials the test of all orders
//! needs to catch the bias with 99 % power (`exact`'s "samples needed").
//!
//! Only for decks of at most 10 cards whose random paths are few enough to walk in about
//! a second ([`MAX_PATHS`]), so the page never waits long for it; elsewhere the page says
//! the exact law is not computed here.

use serde::Serialize;

use crate::exact::{ExactSettings, POWER, enumerate::known_paths, exact};
use crate::report::sections::exact_part;
use crate::simulate::NoProgress;

use super::request::{LiveRequest, LiveRunSpec};

/// The most random paths walked for the exact view.
pub const MAX_PATHS: u64 = 1 << 22;

/// The exact view of a run.
#[derive(Clone, Debug, Serialize)]
pub struct ExactView {
    /// The exact card × position heat map, as the `exact --positions` report draws it.
    pub positions_svg: Option<String>,
    /// Trials the test of all orders needs to reject at the run's alpha with 99 % power;
    /// `None` when there is no bias to catch.
    pub trials_needed: Option<u64>,
    /// The power `trials_needed` is for.
    pub power: f64,
    /// Whether the law is exactly uniform.
    pub uniform: bool,
    /// The total variation distance of the law from uniform.
    pub total_variation: Option<f64>,
}

/// The exact view of `request`, when it is a shuffle's and can be computed quickly.
pub fn exact_view(request: &LiveRequest) -> Option<ExactView> {
    let LiveRequest::Run(LiveRunSpec { spec, settings, .. }) = request else {
        return None;
    };
    let algorithm = spec.algorithm.as_permutation()?;
    if settings.n > 10 || algorithm.carries_deck_between_deals() {
        return None;
    }
    if known_paths(algorithm.resolve(settings.n), settings.n)? > MAX_PATHS {
        return None;
    }
    let exact_settings = |positions| ExactSettings {
        n: settings.n,
        k: None,
        threads: 1,
        positions,
        alpha: settings.alpha,
        items: None,
        source: settings.source,
    };
    let specs = std::slice::from_ref(spec);
    let law = exact(specs, &exact_settings(false), &NoProgress).ok()?;
    let law_result = law.results.first()?;
    let positions_svg = exact(specs, &exact_settings(true), &NoProgress)
        .ok()
        .and_then(|report| {
            exact_part(&report, String::new(), 1)
                .results
                .into_iter()
                .flat_map(|section| section.charts)
                .find(|chart| chart.file_name.ends_with("positions.svg"))
                .map(|chart| chart.svg)
        });
    Some(ExactView {
        positions_svg,
        trials_needed: law_result.trials_needed,
        power: POWER,
        uniform: law_result.is_uniform(settings.n),
        total_variation: law_result.total_variation,
    })
}
