//! `--runtime js`: every JavaScript engine's `Math.random` tried on the same deals, the
//! cheapest search first, and the one that fits named with its versions.
//!
//! Why one name: a card room's deals rarely say which browser dealt them. V8's first-word
//! eras take milliseconds (equations), the summed engines seconds ([`super::summed`]),
//! and JavaScriptCore's fresh pages a search of 2^32 seeds ([`super::jsc`]); the first
//! engine with a state answers.

use super::jsc::Jsc;
use super::seeded::Seeded;
use super::spidermonkey::SpiderMonkey;
use super::v8::{JS_SHUFFLES, V8};
use super::{About, Control, Observed, Runtime, Search};

/// Every JavaScript engine's `Math.random`.
pub struct Js;

static ABOUT: About = About {
    name: "js",
    aliases: &["javascript"],
    summary: "every JavaScript engine below (v8, spidermonkey, jsc), the first that fits named",
    generator: "JavaScript's Math.random",
    state_bits: 128,
    shuffles: &JS_SHUFFLES,
    versions: "V8 (Chrome, Node.js, Deno) in each of its eras, SpiderMonkey (Firefox), and JavaScriptCore \
               (Safari, Bun): see each engine's own line",
    instead: "crypto.getRandomValues for each draw, which no output gives away",
    min_cards: 5,
};

/// The engines, in the order they are tried.
static ENGINES: [&dyn Runtime; 3] = [&V8, &SpiderMonkey, &Seeded(Jsc)];

impl Runtime for Js {
    fn about(&self) -> &'static About {
        &ABOUT
    }

    fn work(&self, _observed: &Observed) -> u64 {
        0
    }

    fn tries_others(&self) -> bool {
        true
    }

    fn search(&self, observed: &Observed, control: &Control<'_>) -> Result<Search, String> {
        let mut first_reason = None;
        let mut deals_used = 0;
        for engine in ENGINES {
            let about = engine.about();
            if observed.n() < about.min_cards {
                continue;
            }
            let control = Control {
                stop: control.stop,
                progress: control.progress,
                window: None,
            };
            match engine.search(observed, &control) {
                Err(reason) => {
                    first_reason.get_or_insert(format!("{}: {reason}", about.generator));
                }
                Ok(search) if search.candidates.is_empty() && search.complete => {
                    deals_used = deals_used.max(search.deals_used);
                }
                Ok(mut search) => {
                    for candidate in &mut search.candidates {
                        let engine = about.generator;
                        candidate.note = Some(match candidate.note.take() {
                            Some(note) => format!("{engine}: {note}"),
                            None => engine.to_string(),
                        });
                    }
                    return Ok(search);
                }
            }
        }
        match first_reason {
            Some(reason) => Err(reason),
            None => Ok(Search {
                deals_used,
                complete: true,
                ..Search::default()
            }),
        }
    }
}
