//! The `Math.random` of engines that add xorshift128+'s two words, recovered from deals:
//! V8 since 2026 (Chrome, Deno), SpiderMonkey (Firefox), and JavaScriptCore (Safari, Bun)
//! once a page has drawn.
//!
//! The models, as the engines run them (checked against their real output,
//! `scripts/engine_deals.sh`): xorshift128+ ([`super::xorshift_sum::step`]) returning
//! `s0 + s1` after each step; the double is
//! - [`Kept::Top53`], `(s0 + s1) >> 11` over 2^53: V8 since 2026, its 64-value cache read
//!   either from the last value to the first (early 2026) or in the order it was made
//!   (Chrome 156, Deno 2.9: a stream, as if there were no cache);
//! - [`Kept::Low53`], the sum's low 53 bits over 2^53: SpiderMonkey, and JavaScriptCore's
//!   `WeakRandom` (whose fresh pages [`super::jsc`] finds by their 32-bit seed).
//!
//! Why a meet in the middle and not equations: the sum's carries are not linear, so the
//! draws pin no bit of the state; [`super::xorshift_sum`] guesses the words' top bits
//! chain by chain and joins two chains on their linear dependencies.

use std::sync::atomic::AtomicBool;

use super::draws::{Draw, Observed, values_drawing};
use super::seeded::Draws;
use super::v8::{self, CACHE, Conversion, JsShuffle, MathRandom};
use super::xorshift_sum::{self, PROGRESS_PER_SOLVE, SumRange, step};
use crate::simulate::Progress;

/// Which 53 bits of the sum make the double.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kept {
    /// `(s0 + s1) >> 11`: V8.
    Top53,
    /// `(s0 + s1) & (2^53 - 1)`: SpiderMonkey, JavaScriptCore.
    Low53,
}

impl Kept {
    /// The bits of the sum the search windows (the kept bits are their low part).
    fn width(self) -> u32 {
        match self {
            Kept::Top53 => 64,
            Kept::Low53 => 53,
        }
    }

    /// The 53 kept bits of `sum`.
    fn of(self, sum: u64) -> u64 {
        match self {
            Kept::Top53 => sum >> 11,
            Kept::Low53 => sum & ((1 << 53) - 1),
        }
    }

    /// The sums (kept to [`Self::width`] bits) whose kept bits are `kept`.
    fn sums(self, kept: std::ops::Range<u64>) -> (u64, u64) {
        match self {
            Kept::Top53 => (kept.start << 11, ((kept.end - 1) << 11) | 0x7ff),
            Kept::Low53 => (kept.start, kept.end - 1),
        }
    }
}

/// `Math.floor(x * bound)` for the double made of 53 kept bits.
fn drawn(kept: u64, bound: u32) -> u32 {
    (kept as f64 / (1u64 << 53) as f64 * f64::from(bound)).floor() as u32
}

/// A `Math.random` that hands out its sums in the order it makes them: SpiderMonkey's,
/// JavaScriptCore's, and V8's since its cache is read forwards.
#[derive(Clone, Debug)]
pub struct SumRandom {
    pub state: (u64, u64),
    pub kept: Kept,
}

impl SumRandom {
    fn next_kept(&mut self) -> u64 {
        self.state = step(self.state);
        self.kept.of(self.state.0.wrapping_add(self.state.1))
    }
}

impl Draws for SumRandom {
    fn below(&mut self, bound: u32) -> u32 {
        drawn(self.next_kept(), bound)
    }

    fn boxed(&self) -> Box<dyn Draws> {
        Box::new(self.clone())
    }
}

/// How the draws of a deal meet the generator's steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// Draw `i` is step `i + 1`: a stream.
    Stream,
    /// V8's cache read from its last value, the first draw the last value of a fresh
    /// cache: a page or process that drew nothing before.
    FreshCacheBackwards,
}

/// The smallest deck whose deals the search can use.
const SMALLEST_DECK: usize = 40;

/// Why decks of `n` cards are too small for the search, when they are.
pub fn too_small(n: usize) -> Option<String> {
    (n < SMALLEST_DECK).then(|| {
        format!(
            "deals of {n} cards are too small for the search of a summed xorshift128+ (its draws branch too \
             widely below about {SMALLEST_DECK} cards; one deal of 52 cards is enough)"
        )
    })
}

/// Draws read at most by the search (the rest are checked): the openings of 3 deals of
/// 52 cards, whose first draws, of bounds near 52, branch least.
const MOST_DRAWS_SEARCHED: usize = 160;

/// Every generator state that deals `observed` through `shuffle`, its double made by
/// `kept`, its draws met in `order`: the state before the first draw (for
/// [`Order::FreshCacheBackwards`], before the refill that made it). `Err` when the
/// deals are too few; `Ok(None)` when stopped. Reports [`PROGRESS_PER_SOLVE`] to
/// `progress` by the end, whether it searched or not.
pub fn search(
    observed: &Observed,
    shuffle: JsShuffle,
    kept: Kept,
    order: Order,
    stop: &AtomicBool,
    progress: &dyn Progress,
) -> Result<Option<Vec<(u64, u64)>>, String> {
    let draws = observed.draws(shuffle.direction(), observed.deals.len());
    let mut ranges: Vec<SumRange> = draws
        .iter()
        .take(MOST_DRAWS_SEARCHED)
        .enumerate()
        .filter_map(|(at, &draw)| {
            let kept_range = values_drawing(draw, 1 << 53, |value| drawn(value, draw.bound));
            if kept_range.is_empty() {
                return None;
            }
            let (low, high) = kept.sums(kept_range);
            let step = match order {
                Order::Stream => at + 1,
                Order::FreshCacheBackwards => v8::step_of(at, CACHE - 1),
            };
            Some(SumRange { step, low, high })
        })
        .collect();
    if ranges.len() < draws.len().min(MOST_DRAWS_SEARCHED) {
        // A draw no double makes: nothing deals these deals.
        progress.advance(PROGRESS_PER_SOLVE);
        return Ok(Some(Vec::new()));
    }
    ranges.sort_unstable_by_key(|range| range.step);
    let Some(plan) = xorshift_sum::plan(&ranges, kept.width()) else {
        progress.advance(PROGRESS_PER_SOLVE);
        return Err(too_small(observed.n()).unwrap_or_else(|| {
            format!(
                "the draws of {} of {} cards branch too widely for the search of a summed xorshift128+ (fewer \
                 than 1 deal of 52 cards in 1,000 does): give one more deal",
                crate::format::counted(observed.deals.len() as u64, "deal"),
                observed.n()
            )
        }));
    };
    let Some(states) = xorshift_sum::solve(&ranges, kept.width(), &plan, stop, progress) else {
        return Ok(None);
    };
    Ok(Some(
        states
            .into_iter()
            .filter(|&state| deals(generator(state, kept, order), &draws))
            .collect(),
    ))
}

/// The generator dealing from `state`, positioned before the first draw.
pub fn generator(state: (u64, u64), kept: Kept, order: Order) -> Box<dyn Draws> {
    match order {
        Order::Stream => Box::new(SumRandom { state, kept }),
        Order::FreshCacheBackwards => Box::new(MathRandom::at(state, CACHE - 1, Conversion::Sum53)),
    }
}

fn deals(mut generator: Box<dyn Draws>, draws: &[Draw]) -> bool {
    draws.iter().all(|draw| generator.below(draw.bound) == draw.value)
}

#[cfg(test)]
mod tests;

/// One engine and era of a summed `Math.random`: how its doubles are made and its draws
/// met, and what to call it.
pub struct Era {
    pub kept: Kept,
    pub order: Order,
    /// The engine and versions, as the answer names them.
    pub label: &'static str,
}

/// V8 since 2026, its cache read forwards: a stream.
pub static V8_FORWARDS: Era = Era {
    kept: Kept::Top53,
    order: Order::Stream,
    label: "V8, (s0 + s1) >> 11 read forwards: Chrome 156 and later, Deno 2.9 (V8 15.0)",
};

/// V8 of early 2026 (14.5 to 14.9, Deno 2.6 to 2.8), its cache read backwards, a fresh
/// page's first draws.
pub static V8_BACKWARDS: Era = Era {
    kept: Kept::Top53,
    order: Order::FreshCacheBackwards,
    label: "V8, (s0 + s1) >> 11 read backwards: V8 14.5 to 14.9 (Deno 2.6 to 2.8), a fresh page or process",
};

/// SpiderMonkey, and JavaScriptCore past a page's first draws.
pub static LOW_53: Era = Era {
    kept: Kept::Low53,
    order: Order::Stream,
    label: "SpiderMonkey (Firefox), or JavaScriptCore (Safari, Bun) past its first draws: the low 53 bits \
            of s0 + s1",
};

/// What the eras' searches found together.
pub struct Found {
    pub candidates: Vec<super::Candidate>,
    /// Every era was searched to its end.
    pub complete: bool,
    /// The first era whose deals were too few, and why.
    pub too_few: Option<String>,
    /// Each shuffle and era searched to its end, in order ("Fisher-Yates over …").
    pub searched: Vec<String>,
    /// The era and shuffle whose search was stopped.
    pub stopped_in: Option<String>,
}

impl Found {
    /// How far a stopped search got, for its answer: "stopped in the search of …; searched
    /// to the end before it: …".
    pub fn how_far(&self) -> Option<String> {
        let stopped_in = self.stopped_in.as_ref()?;
        Some(format!(
            "stopped in the search of {stopped_in}; {}",
            if self.searched.is_empty() {
                "no summed era was searched to its end before it".to_string()
            } else {
                format!("searched to the end before it: {}", self.searched.join("; "))
            }
        ))
    }
}

/// [`search_eras`] as a runtime's answer: refused when the deck is too small, not tried
/// when only quick searches are wanted, the deals too few when no era could be searched
/// and none dealt them, else the states found and how far a stopped search got.
pub fn search_as_runtime(
    observed: &Observed,
    eras: &[&Era],
    control: &super::Control<'_>,
) -> Result<super::Search, String> {
    if let Some(reason) = too_small(observed.n()) {
        return Err(reason);
    }
    if control.quick_only {
        return Err(super::NOT_TRIED.to_string());
    }
    let found = search_eras(observed, eras, control.stop, control.progress);
    if found.candidates.is_empty() && found.complete {
        if let Some(reason) = found.too_few {
            return Err(reason);
        }
    }
    Ok(super::Search {
        deals_used: observed.deals.len(),
        caveat: found.how_far(),
        candidates: found.candidates,
        complete: found.complete,
        ..super::Search::default()
    })
}

/// The progress [`search_eras`] reports for `eras`.
pub fn progress_of(eras: &[&Era]) -> u64 {
    (eras.len() * JsShuffle::ALL.len()) as u64 * PROGRESS_PER_SOLVE
}

/// Searches each era under both JavaScript shuffles, the loop first, stopping at the first
/// that has a state: another shuffle or era dealing the same deals by chance would be a
/// coincidence of about 2^-97 for one deal of 52 cards, and each search takes seconds.
/// Reports [`progress_of`]`(eras)` by the end, unless it stops early.
pub fn search_eras(observed: &Observed, eras: &[&Era], stop: &AtomicBool, progress: &dyn Progress) -> Found {
    let mut found = Found {
        candidates: Vec::new(),
        complete: true,
        too_few: None,
        searched: Vec::new(),
        stopped_in: None,
    };
    // The loop first in every era, then lodash: a deal of the loop in the last era costs
    // one search per era, not two.
    for (shuffle, code) in JsShuffle::ALL.into_iter().zip(&super::v8::JS_SHUFFLES) {
        for era in eras {
            let what = format!("{} over {}", code.name, era.label);
            match search(observed, shuffle, era.kept, era.order, stop, progress) {
                Err(reason) => {
                    found.too_few.get_or_insert(reason);
                }
                Ok(None) => {
                    found.complete = false;
                    found.stopped_in = Some(what);
                    return found;
                }
                Ok(Some(states)) => {
                    found.searched.push(what);
                    found
                        .candidates
                        .extend(states.into_iter().map(|state| super::Candidate {
                            shuffle: code,
                            state: format!("{:016x}{:016x}", state.0, state.1),
                            seed: None,
                            note: Some(format!(
                                "{}; the state {}",
                                era.label,
                                match era.order {
                                    Order::Stream => "before the first deal's first number",
                                    Order::FreshCacheBackwards =>
                                        "before the refill of the cache whose last value was the \
                                                           first deal's first number",
                                }
                            )),
                            generators: vec![super::Generator::Seeded(generator(state, era.kept, era.order))],
                            direction: shuffle.direction(),
                        }))
                }
            }
            if !found.candidates.is_empty() {
                return found;
            }
        }
    }
    found
}
