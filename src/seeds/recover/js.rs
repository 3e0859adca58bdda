//! `--runtime js`: every JavaScript engine's `Math.random` tried on the same deals, the
//! cheapest search first, and the one that fits named with its versions.
//!
//! Why one name: a card room's deals rarely say which browser dealt them. V8's first-word
//! eras take milliseconds (equations), the summed engines seconds ([`super::summed`]),
//! and JavaScriptCore's fresh pages a search of 2^32 seeds ([`super::jsc`]); the first
//! engine with a state answers. The summed engines are searched shuffle by shuffle across
//! V8's and SpiderMonkey's eras, not engine by engine: each search takes seconds, and a
//! Firefox deal of the loop is then the second search, not the fifth.

use std::sync::atomic::{AtomicU64, Ordering};

use super::jsc::Jsc;
use super::seeded::Seeded;
use super::summed::{Era, LOW_53, V8_BACKWARDS, V8_FORWARDS, progress_of, search_as_runtime};
use super::v8::JS_SHUFFLES;
use super::v8_runtime::V8;
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

/// One search of `--runtime js`.
#[derive(Clone, Copy)]
enum Stage {
    /// V8's eras whose doubles come from the first word: equations, milliseconds.
    V8FirstWord,
    /// The eras that add xorshift128+'s two words, V8's and SpiderMonkey's, each
    /// shuffle searched in every era ([`SUMMED_ERAS`]) before the next: seconds each.
    Summed,
    /// JavaScriptCore's fresh pages: 2^32 seeds.
    Jsc,
}

/// The searches, in the order they are tried: the cheapest first.
const STAGES: [Stage; 3] = [Stage::V8FirstWord, Stage::Summed, Stage::Jsc];

/// The summed eras in the order searched: V8 of today (Chrome, Deno 2.9), SpiderMonkey
/// (Firefox), then V8's backwards era of early 2026 (Deno 2.6 to 2.8). A Firefox deal of
/// the loop is found in the second search, not the fifth after all of V8's.
static SUMMED_ERAS: [&Era; 3] = [&V8_FORWARDS, &LOW_53, &V8_BACKWARDS];

impl Stage {
    /// What the answer calls it.
    fn generator(self) -> &'static str {
        match self {
            Stage::V8FirstWord => "V8's first-word eras (up to 2025)",
            Stage::Summed => "the summed eras (V8 since 2026, SpiderMonkey)",
            Stage::Jsc => Seeded(Jsc).about().generator,
        }
    }

    /// Whether a state's note needs the engine named before it (the summed eras' notes
    /// name theirs).
    fn names_engine(self) -> Option<&'static str> {
        match self {
            Stage::V8FirstWord => Some(V8.about().generator),
            Stage::Summed => None,
            Stage::Jsc => Some(Seeded(Jsc).about().generator),
        }
    }

    fn min_cards(self) -> usize {
        match self {
            Stage::V8FirstWord => V8.about().min_cards,
            Stage::Summed => 1,
            Stage::Jsc => Seeded(Jsc).about().min_cards,
        }
    }

    /// Its share of the progress: the summed searches' parts, jsc's seeds as
    /// [`SEED_PARTS`], nothing for equations.
    fn work(self) -> u64 {
        match self {
            Stage::V8FirstWord => 0,
            Stage::Summed => progress_of(&SUMMED_ERAS),
            Stage::Jsc => SEED_PARTS,
        }
    }

    fn search(self, observed: &Observed, control: &Control<'_>) -> Result<Search, String> {
        match self {
            Stage::V8FirstWord => super::v8::first_word_search(observed),
            Stage::Summed => search_as_runtime(observed, &SUMMED_ERAS, control),
            Stage::Jsc => {
                let engine = Seeded(Jsc);
                let seeds = InParts {
                    inner: control.progress,
                    of: engine.work(observed).max(1),
                    done: AtomicU64::new(0),
                };
                engine.search(
                    observed,
                    &Control {
                        stop: control.stop,
                        progress: &seeds,
                        window: None,
                        quick_only: control.quick_only,
                    },
                )
            }
        }
    }
}

impl Runtime for Js {
    fn about(&self) -> &'static About {
        &ABOUT
    }

    fn work(&self, _observed: &Observed) -> u64 {
        STAGES.iter().map(|stage| stage.work()).sum()
    }

    fn tries_others(&self) -> bool {
        true
    }

    /// The first stage with a state answers; when none has one, the answer is "no
    /// state" with what each stage left out, or the deals are too few when no stage
    /// could search them.
    fn search(&self, observed: &Observed, control: &Control<'_>) -> Result<Search, String> {
        let mut left_out: Vec<String> = Vec::new();
        let mut searched = false;
        let mut done: Vec<&str> = Vec::new();
        let mut deals_used = 0;
        for stage in STAGES {
            let generator = stage.generator();
            if observed.n() < stage.min_cards() {
                left_out.push(format!(
                    "{generator}: decks of {} cards or more are needed",
                    stage.min_cards()
                ));
                control.progress.advance(stage.work());
                continue;
            }
            match stage.search(observed, control) {
                Err(reason) => left_out.push(format!("{generator}: {reason}")),
                Ok(search) if search.candidates.is_empty() && search.complete => {
                    searched = true;
                    done.push(generator);
                    deals_used = deals_used.max(search.deals_used);
                    // "but V8's summed eras were not searched", said under this answer's "but".
                    left_out.extend(
                        search
                            .caveat
                            .map(|caveat| format!("{generator}: {}", caveat.trim_start_matches("but "))),
                    );
                }
                Ok(mut search) => {
                    if search.candidates.is_empty() {
                        // Stopped: the stages searched before it, then how far it got.
                        let before: String = done
                            .iter()
                            .map(|stage| format!("{stage}: searched to the end; "))
                            .collect();
                        search.caveat = Some(format!(
                            "{before}{generator}: {}",
                            search.caveat.as_deref().unwrap_or("stopped")
                        ));
                    }
                    if let Some(engine) = stage.names_engine() {
                        for candidate in &mut search.candidates {
                            candidate.note = Some(match candidate.note.take() {
                                Some(note) => format!("{engine}: {note}"),
                                None => engine.to_string(),
                            });
                        }
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

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

    use super::*;
    use crate::seeds::recover::summed::{Kept, Order, generator};
    use crate::seeds::recover::v8::JsShuffle;
    use crate::seeds::recover::xorshift_sum::PROGRESS_PER_SOLVE;

    /// Counts the progress reported.
    #[derive(Default)]
    struct Counted(AtomicU64);

    impl Progress for Counted {
        fn advance(&self, parts: u64) {
            self.0.fetch_add(parts, Ordering::Relaxed);
        }
    }

    #[test]
    fn a_firefox_deal_of_the_loop_is_found_by_the_second_summed_search() {
        // One deal of 52 from SpiderMonkey's generator through the loop: V8's first-word
        // eras (no progress), the loop over V8's forwards era, then over SpiderMonkey's,
        // which finds it: two searches' progress, not five (V8's four, then Firefox's).
        let state = (0x0123_4567_89ab_cdef, 0xfedc_ba98_7654_3210);
        let mut random = generator(state, Kept::Low53, Order::Stream);
        let mut deck: Vec<u16> = (0..52).collect();
        JsShuffle::FisherYates
            .direction()
            .deal(&mut deck, |bound| random.below(bound));
        let observed = Observed {
            deals: vec![deck],
            carried: false,
        };
        let counted = Counted::default();
        let stop = AtomicBool::new(false);
        let control = Control {
            stop: &stop,
            progress: &counted,
            window: None,
            quick_only: false,
        };
        let search = Js.search(&observed, &control).unwrap();
        assert_eq!(search.candidates.len(), 1);
        assert_eq!(
            search.candidates[0].state,
            format!("{:016x}{:016x}", state.0, state.1)
        );
        let note = search.candidates[0].note.as_deref().unwrap();
        assert!(note.starts_with("SpiderMonkey (Firefox)"), "{note}");
        assert_eq!(counted.0.into_inner(), 2 * PROGRESS_PER_SOLVE);
    }
}
