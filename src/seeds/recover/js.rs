//! `--runtime js`: every JavaScript engine's `Math.random` tried on the same deals, the
//! cheapest search first, and the one that fits named with its versions.
//!
//! Why one name: a card room's deals rarely say which browser dealt them. V8's first-word
//! eras take milliseconds (equations), the summed engines seconds ([`super::summed`]),
//! and JavaScriptCore's fresh pages a search of 2^32 seeds ([`super::jsc`]); the first
//! engine with a state answers.

use std::sync::atomic::{AtomicU64, Ordering};

use super::jsc::Jsc;
use super::seeded::Seeded;
use super::spidermonkey::SpiderMonkey;
use super::v8::{JS_SHUFFLES, V8};
use super::{About, Control, Observed, Runtime, Search};
use crate::simulate::Progress;

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

    /// Every engine's, in the summed searches' parts; jsc's seeds count as [`SEED_PARTS`].
    fn work(&self, observed: &Observed) -> u64 {
        ENGINES
            .iter()
            .map(|engine| {
                if engine.takes_seconds() {
                    engine.work(observed)
                } else {
                    SEED_PARTS
                }
            })
            .sum()
    }

    fn tries_others(&self) -> bool {
        true
    }

    /// The first engine with a state answers; when none has one, the answer is "no
    /// state" with what each engine left out, or the deals are too few when no engine
    /// could search them.
    fn search(&self, observed: &Observed, control: &Control<'_>) -> Result<Search, String> {
        let mut left_out: Vec<String> = Vec::new();
        let mut searched = false;
        let mut done: Vec<&str> = Vec::new();
        let mut deals_used = 0;
        for engine in ENGINES {
            let about = engine.about();
            if observed.n() < about.min_cards {
                left_out.push(format!(
                    "{} needs decks of {} cards or more",
                    about.generator, about.min_cards
                ));
                continue;
            }
            let seeds = InParts {
                inner: control.progress,
                of: engine.work(observed).max(1),
                done: AtomicU64::new(0),
            };
            let control = Control {
                stop: control.stop,
                progress: if engine.takes_seconds() {
                    control.progress
                } else {
                    &seeds
                },
                window: None,
                quick_only: control.quick_only,
            };
            match engine.search(observed, &control) {
                Err(reason) => left_out.push(format!("{}: {reason}", about.generator)),
                Ok(search) if search.candidates.is_empty() && search.complete => {
                    searched = true;
                    done.push(about.generator);
                    deals_used = deals_used.max(search.deals_used);
                    // "but V8's summed eras were not searched", said under this answer's "but".
                    left_out.extend(
                        search.caveat.map(|caveat| {
                            format!("{}: {}", about.generator, caveat.trim_start_matches("but "))
                        }),
                    );
                }
                Ok(mut search) => {
                    if search.candidates.is_empty() {
                        // Stopped: the engines searched before it, then how far it got.
                        let before: String = done
                            .iter()
                            .map(|engine| format!("{engine} searched to its end; "))
                            .collect();
                        search.caveat = Some(format!(
                            "{before}{}: {}",
                            about.generator,
                            search.caveat.as_deref().unwrap_or("stopped")
                        ));
                    }
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
        if !searched {
            return Err(left_out.join("; "));
        }
        Ok(Search {
            deals_used,
            complete: true,
            caveat: (!left_out.is_empty())
                .then(|| format!("but not every engine was searched: {}", left_out.join("; "))),
            ..Search::default()
        })
    }
}

/// The parts of the progress a seed search counts as (about the time of three summed
/// searches: jsc's 2^33 seeds take 10 to 25 s on 2 cores).
const SEED_PARTS: u64 = 3 * super::xorshift_sum::PROGRESS_PER_SOLVE;

/// A seed search's progress, `of` seeds in all, reported as [`SEED_PARTS`] parts.
struct InParts<'a> {
    inner: &'a dyn Progress,
    of: u64,
    done: AtomicU64,
}

impl Progress for InParts<'_> {
    fn advance(&self, seeds: u64) {
        let before = self.done.fetch_add(seeds, Ordering::Relaxed);
        let parts = |seeds: u64| {
            (u128::from(seeds.min(self.of)) * u128::from(SEED_PARTS) / u128::from(self.of)) as u64
        };
        self.inner.advance(parts(before + seeds) - parts(before));
    }

    fn cancelled(&self) -> bool {
        self.inner.cancelled()
    }
}
