//! V8 as a runtime to recover (`--runtime v8`): its first-word eras, solved as equations
//! in milliseconds ([`super::v8`], the model of `Math.random` up to 2025), then, when they
//! find nothing, the eras that add the two words ([`super::summed`], searched in seconds).
//!
//! Apart from the model because the summed search is built on the model (its cache and
//! conversions), and this runtime on both.

use super::draws::Observed;
use super::summed::{Era, V8_BACKWARDS, V8_FORWARDS, progress_of, search_eras};
use super::v8::{JS_SHUFFLES, first_word_search};
use super::{About, Control, Runtime, Search};

/// V8's `Math.random` under the shuffles JavaScript programs paste.
pub struct V8;

static ABOUT: About = About {
    name: "v8",
    aliases: &["node", "chrome", "deno"],
    summary: "Chrome's, Node.js's and Deno's V8: the Fisher-Yates loop or lodash's _.shuffle over Math.random",
    generator: "V8's Math.random",
    state_bits: 128,
    shuffles: &JS_SHUFFLES,
    versions: "V8 4.9 and later (Node.js 6 and later, Chrome 49 and later, Deno, Electron): xorshift128+ \
               with a 64-value cache; doubles made from state0 >> 12 up to V8 12, as (state0 >> 11) / 2^53 in \
               V8 13 to 14.0, and as (state0 + state1) >> 11 over 2^53 since 2026, the cache read backwards \
               (V8 14.5 to 14.9, a fresh page) or forwards (Chrome 156, Deno 2.9), all tried; checked against \
               Node.js 20.20 (V8 11.3), Node.js 24, Deno 2.5 to 2.9.8, Chromium 156",
    instead: "crypto.getRandomValues or crypto.randomInt, which no output gives away",
    min_cards: 4,
};

/// The eras that add the two words, in the order they are searched.
static SUMMED_ERAS: [&Era; 2] = [&V8_FORWARDS, &V8_BACKWARDS];

impl Runtime for V8 {
    fn about(&self) -> &'static About {
        &ABOUT
    }

    /// The summed eras' progress (the first-word eras take milliseconds).
    fn work(&self, _observed: &Observed) -> u64 {
        progress_of(&SUMMED_ERAS)
    }

    fn takes_seconds(&self) -> bool {
        true
    }

    /// The eras whose doubles come from the first word first (equations, milliseconds),
    /// then those that add the two words ([`super::summed`], seconds).
    fn search(&self, observed: &Observed, control: &Control<'_>) -> std::result::Result<Search, String> {
        let linear = first_word_search(observed);
        if linear.as_ref().is_ok_and(|search| !search.candidates.is_empty()) {
            return linear;
        }
        if control.quick_only && super::summed::too_small(observed.n()).is_none() {
            return linear.map(|search| Search {
                caveat: Some("but V8's summed eras (2026 on) were not tried: they take seconds".to_string()),
                ..search
            });
        }
        let summed = search_eras(observed, &SUMMED_ERAS, control.stop, control.progress);
        if !summed.candidates.is_empty() || !summed.complete {
            let first_word = match &linear {
                Ok(_) => "V8's first-word eras searched to their end".to_string(),
                Err(reason) => format!("V8's first-word eras not settled ({reason})"),
            };
            return Ok(Search {
                deals_used: observed.deals.len(),
                caveat: summed
                    .how_far()
                    .map(|how_far| format!("{first_word}, then {how_far}")),
                candidates: summed.candidates,
                complete: summed.complete,
                ..Search::default()
            });
        }
        // No state: the first-word eras may not have been settled (too few deals), or the
        // summed eras not searched (too small a deck); a "no state" says what it left out,
        // and only when neither was searched are the deals too few.
        match (linear, summed.too_few) {
            (Err(reason), Some(_)) => Err(reason),
            (Err(reason), None) => Ok(Search {
                deals_used: observed.deals.len(),
                complete: true,
                caveat: Some(format!(
                    "but V8's first-word eras (up to 2025) were not settled: {reason}"
                )),
                ..Search::default()
            }),
            (Ok(mut search), too_few) => {
                search.caveat = too_few
                    .map(|reason| format!("but V8's summed eras (2026 on) were not searched: {reason}"));
                Ok(search)
            }
        }
    }
}
