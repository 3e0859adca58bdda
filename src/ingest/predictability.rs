//! `ingest`'s check that its deals do not give away the generator that dealt them.
//!
//! Why in `ingest`: the statistical verdict cannot see it. `Collections.shuffle` and the
//! JavaScript Fisher–Yates pass every test, yet one deal or a few give away every later
//! one ([`crate::seeds::recover`]). So whatever the verdict, the first deals of a deck of
//! [`MIN_CARDS`] or more are handed to each runtime's recovery (the cheapest search
//! first), fresh decks first, then
//! decks that each deal shuffles again, all within [`BUDGET`]: a recovery that the
//! budget stops, or never reaches, is said to be skipped, never taken for "no state".
//! A state found is followed through every deal kept for the guessing game (up to
//! [`GAME_DEALS`]), and on through the input to name the deal after its last.
//!
//! The deals are numbered as `ingest` numbers them (by the first line, or `--deck`); a
//! recovery needs them numbered by the unshuffled deck, which is `--deck` when given
//! and otherwise the cards taken in ascending numeric order
//! ([`super::recovery::unshuffled_order`]); cards that are not all numbers, without
//! `--deck`, are skipped with that reason.
//!
//! [`GAME_DEALS`]: crate::tally::guessing::GAME_DEALS

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::recovery::unshuffled_order;
use super::settings::SeedSearch;
use crate::run::{Predictability, Predictable};
use crate::seeds::recover::{Control, NOT_TRIED, Observed, RUNTIMES, Recovery, Runtime, recover};
use crate::simulate::{NoProgress, Progress};

/// Decks smaller than this are not tried: below 8 cards Java needs more deals than most
/// inputs open with, and the issue that asked for the check drew the line there.
pub const MIN_CARDS: usize = 8;

/// The first deals handed to the recoveries: far more than one 52-card deal (Java) or a
/// few (V8) that pin a state, and enough for decks of 8 cards (Java takes 18 of them).
pub const DEALS_EXAMINED: usize = 64;

/// What every recovery together may take, by default.
pub const BUDGET: Duration = Duration::from_secs(2);

/// What they may take with `--unpredictable`, whose users (card-game servers) asked for
/// the answer: enough for the engines that add xorshift128+'s words (Chrome, Firefox,
/// Deno), 1 to 4 s per era and shuffle on a 2-core machine, six searches a pass.
pub const UNPREDICTABLE_BUDGET: Duration = Duration::from_secs(20);

/// The budget for a check that `unpredictable` asks for, or not.
pub fn budget(unpredictable: bool) -> Duration {
    if unpredictable {
        UNPREDICTABLE_BUDGET
    } else {
        BUDGET
    }
}

/// What a search that takes seconds ([`Runtime::takes_seconds`]) needs left of the budget
/// to be started: less, and it would be stopped before its end.
const SECONDS_NEEDED: Duration = Duration::from_secs(8);

/// Draws dealt again to name the deal after the input's last: about half a second.
const MOST_DRAWS_FOLLOWED: u64 = 100_000_000;

/// How often the watcher looks at the clock and at the reader who may have gone.
const WATCH_EVERY: Duration = Duration::from_millis(10);

/// The deals `ingest` read, numbered by its deck.
pub struct IngestedDeals<'a> {
    /// The first deals, laid end to end (each `n` cards).
    pub first: &'a [u16],
    /// Cards in a deck.
    pub n: usize,
    /// The deck's labels, in `ingest`'s numbering.
    pub labels: &'a [String],
    /// The labels are `--deck`, in the unshuffled order.
    pub deck_given: bool,
    /// Deals in the whole input.
    pub deals: u64,
}

/// Tries each runtime's recovery on the first deals within `budget` (`ingest` gives
/// [`BUDGET`]); `None` for decks below [`MIN_CARDS`]. Stops early when `progress` is
/// cancelled (the caller then stops).
pub fn check_predictability(
    ingested: &IngestedDeals<'_>,
    budget: Duration,
    seed_search: &[SeedSearch],
    progress: &dyn Progress,
) -> Option<Predictability> {
    let n = ingested.n;
    if n < MIN_CARDS || ingested.first.is_empty() {
        return None;
    }
    let mut predictability = Predictability {
        deals_examined: 0,
        tried: Vec::new(),
        skipped: Vec::new(),
        found: None,
    };
    let unshuffled = match unshuffled_order(ingested.labels, ingested.deck_given.then_some(ingested.labels)) {
        Ok(unshuffled) => unshuffled,
        Err(reason) => {
            predictability.skipped.push(format!("every runtime: {reason}"));
            return Some(predictability);
        }
    };
    // The place in the unshuffled deck of each card, by `ingest`'s number.
    let place_of: Vec<u16> = ingested
        .labels
        .iter()
        .map(|label| {
            unshuffled
                .iter()
                .position(|other| other == label)
                .expect("the unshuffled order holds the deck's labels") as u16
        })
        .collect();
    let in_places =
        |deal: &[u16]| -> Vec<u16> { deal.iter().map(|&card| place_of[usize::from(card)]).collect() };
    let kept: Vec<&[u16]> = ingested.first.chunks_exact(n).collect();
    let examined = kept.len().min(DEALS_EXAMINED);
    predictability.deals_examined = examined;
    let fresh = Observed {
        deals: kept[..examined].iter().map(|deal| in_places(deal)).collect(),
        carried: false,
    };

    let stop = AtomicBool::new(false);
    // A seed search named by `--seed-search` has no budget: only a reader who went stops it.
    let cancelled = AtomicBool::new(false);
    let done = AtomicBool::new(false);
    let deadline = Instant::now() + budget;
    std::thread::scope(|scope| {
        scope.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                if Instant::now() >= deadline {
                    stop.store(true, Ordering::Relaxed);
                }
                if progress.cancelled() {
                    stop.store(true, Ordering::Relaxed);
                    cancelled.store(true, Ordering::Relaxed);
                    return;
                }
                std::thread::sleep(WATCH_EVERY);
            }
        });
        let budgeted = Control {
            stop: &stop,
            progress: &NoProgress,
            window: None,
            quick_only: false,
        };

        'tries: for carried in [false, true] {
            if carried && examined < 2 {
                // One deal starts from the unshuffled deck either way: nothing more to try.
                continue;
            }
            let observed = Observed {
                carried,
                ..fresh.clone()
            };
            // As `seeds recover` says it: `--carried` decks each shuffle the deal before.
            let decks = if carried { "carried" } else { "fresh" };
            // The cheapest search first (V8's first-word eras take milliseconds, Java's up
            // to a second, the summed engines seconds), so that a budget spent on one never
            // keeps a quick answer from another.
            // Runtimes started from a small seed are searched only when named: 2^32 seeds
            // take a minute or more.
            let mut runtimes: Vec<&dyn Runtime> = RUNTIMES
                .iter()
                .copied()
                .filter(|runtime| runtime.seed_space().is_none() && !runtime.tries_others())
                .collect();
            // Those that take seconds keep the registry's order: V8 first, whose first-word
            // eras take milliseconds.
            runtimes.sort_by_key(|runtime| {
                (
                    runtime.takes_seconds(),
                    (!runtime.takes_seconds()).then(|| runtime.work(&observed)),
                )
            });
            let windows = std::iter::repeat_n(None, runtimes.len())
                .chain(seed_search.iter().map(|search| search.window.clone()));
            runtimes.extend(seed_search.iter().map(|search| search.runtime));
            for (runtime, window) in runtimes.into_iter().zip(windows) {
                let name = runtime.about().name;
                let seeded = runtime.seed_space().is_some();
                let unbudgeted = Control {
                    stop: &cancelled,
                    progress: &NoProgress,
                    window,
                    quick_only: false,
                };
                if !seeded && (stop.load(Ordering::Relaxed) || Instant::now() >= deadline) {
                    predictability.skipped.push(format!(
                        "{name}, {decks}: the budget of {} ran out",
                        seconds(budget)
                    ));
                    continue;
                }
                // Short of time, a search that takes seconds does only its quick part.
                let short_of_time = !seeded
                    && runtime.takes_seconds()
                    && deadline.saturating_duration_since(Instant::now()) < SECONDS_NEEDED;
                let quick = Control {
                    stop: &stop,
                    progress: &NoProgress,
                    window: None,
                    quick_only: true,
                };
                let how = format!(
                    " (the budget of {} leaves too little; --unpredictable gives the check {}, and `seeds \
                     recover --runtime js` tries it)",
                    seconds(budget),
                    seconds(UNPREDICTABLE_BUDGET)
                );
                let control = match (seeded, short_of_time) {
                    (true, _) => &unbudgeted,
                    (false, true) => &quick,
                    (false, false) => &budgeted,
                };
                match recover(runtime, &observed, 0, control) {
                    Err(error) if short_of_time && error.to_string() == NOT_TRIED => predictability
                        .skipped
                        .push(format!("{name}, {decks}: {error}{how}")),
                    Err(error) => predictability.skipped.push(format!("{name}, {decks}: {error}")),
                    Ok(recovery) if !recovery.complete && seeded => {
                        predictability.skipped.push(format!("{name}, {decks}: stopped"))
                    }
                    // Found, but with bits the deals leave unsettled (the caveat says how
                    // many): not stopped, even when the budget ran out meanwhile.
                    Ok(Recovery {
                        complete: false,
                        candidates,
                        caveat: Some(caveat),
                        ..
                    }) if !candidates.is_empty() => predictability
                        .tried
                        .push(format!("{name}, {decks}: a state found, {caveat}")),
                    Ok(recovery) if !recovery.complete => predictability.skipped.push(format!(
                        "{name}, {decks}: stopped when the budget of {} ran out",
                        seconds(budget)
                    )),
                    Ok(recovery) if recovery.predictable() => {
                        predictability.tried.push(format!("{name}, {decks}: predictable"));
                        predictability.found = Some(follow(
                            &recovery,
                            &observed,
                            ingested,
                            &kept,
                            &unshuffled,
                            &in_places,
                        ));
                        break 'tries;
                    }
                    Ok(recovery) if recovery.candidates.is_empty() => {
                        let none = if seeded { "no seed" } else { "no state" };
                        let left_out = recovery.caveat.as_ref().map_or(String::new(), |caveat| {
                            format!(", {caveat}{}", if short_of_time { how.as_str() } else { "" })
                        });
                        predictability
                            .tried
                            .push(format!("{name}, {decks}: {none}{left_out}"));
                    }
                    Ok(recovery) => predictability.tried.push(format!(
                        "{name}, {decks}: {} {} deal them, and more deals would tell them apart",
                        crate::format::group_thousands(recovery.matching()),
                        if seeded { "seeds" } else { "states" }
                    )),
                }
            }
        }
        done.store(true, Ordering::Relaxed);
    });
    Some(predictability)
}

/// `2 s`, `0.5 s`.
fn seconds(budget: Duration) -> String {
    format!("{} s", budget.as_secs_f64())
}

/// The recovered generator followed through the kept deals and on to the deal after the
/// input's last.
fn follow(
    recovery: &Recovery,
    observed: &Observed,
    ingested: &IngestedDeals<'_>,
    kept: &[&[u16]],
    unshuffled: &[String],
    in_places: &dyn Fn(&[u16]) -> Vec<u16>,
) -> Predictable {
    let candidate = &recovery.candidates[0];
    let mut dealer = candidate.dealer(observed);
    let examined = observed.deals.len();
    let mut matched = examined as u64;
    for deal in &kept[examined..] {
        if dealer.next_deal() != in_places(deal) {
            break;
        }
        matched += 1;
    }
    let checked = kept.len() as u64;
    let follows_on = ingested.deals.saturating_mul(ingested.n as u64) <= MOST_DRAWS_FOLLOWED;
    let next_deal = (matched == checked && follows_on).then(|| {
        for _ in checked..ingested.deals {
            dealer.next_deal();
        }
        dealer
            .next_deal()
            .iter()
            .map(|&place| unshuffled[usize::from(place)].clone())
            .collect()
    });
    Predictable {
        runtime: recovery.runtime.name,
        generator: recovery.runtime.generator,
        shuffle: candidate.shuffle.name,
        carried: observed.carried,
        deals_used: recovery.deals_used,
        deals_checked: checked,
        deals_matched: matched,
        deals: ingested.deals,
        state: candidate.state.clone(),
        seed: candidate.seed.as_ref().map(|seed| seed.usage.clone()),
        next_deal,
        instead: recovery.runtime.instead,
    }
}

#[cfg(test)]
mod tests;
