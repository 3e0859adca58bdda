//! `ingest`'s check that its deals do not give away the generator that dealt them.
//!
//! Why in `ingest`: the statistical verdict cannot see it. `Collections.shuffle` and the
//! JavaScript Fisher–Yates pass every test, yet one deal or a few give away every later
//! one ([`crate::seeds::recover`]). So whatever the verdict, the first deals of every deck
//! size (more of them for small decks, [`deals_to_examine`]) are handed to each runtime's
//! recovery (the cheapest search first), fresh decks first, then decks that each deal
//! shuffles again, all within [`BUDGET`]; the seed searches `--seed-search` names come
//! last, without a budget. Every runtime of the registry gets a line in the record: what
//! its search found, or why it was not run or not finished (a deck too small for it, the
//! budget spent, a seed search not asked for) and how to run it, so that "no state" is
//! never said of a generator that was not searched. When no state deals every deal
//! examined, the first half, quarter, … are searched for a reseed. A state found is followed through every deal kept for the guessing game (up to
//! [`GAME_DEALS`]), and on through the input to name the deal after its last.
//!
//! The deals are numbered as `ingest` numbers them (by the first line, or `--deck`); a
//! recovery needs them numbered by the unshuffled deck, which is `--deck` when given
//! and otherwise the cards taken in ascending numeric order
//! ([`super::recovery::unshuffled_order`]); cards that are not all numbers, without
//! `--deck`, cannot be searched, and every runtime's line says why.
//!
//! [`GAME_DEALS`]: crate::tally::guessing::GAME_DEALS

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::recovery::unshuffled_order;
use crate::run::{GeneratorCheck, Outcome, Predictability, Predictable, Reseeded};
use crate::seeds::recover::{Control, NOT_TRIED, Observed, RUNTIMES, Recovery, Runtime, recover};
use crate::simulate::{NoProgress, Progress};

/// The fewest deals handed to the recoveries: far more than one 52-card deal (Java) or a
/// few (V8) that pin a state.
pub const DEALS_EXAMINED: usize = 64;

/// Bits of draws the deals examined should show, at least: 8 times the 128 bits of the
/// largest state whose every bit a deal can show (V8's), for the small decks whose deals
/// each show a few bits (a deal of 5 cards shows 6.9 bits; Node's state took 26 of them
/// on real deals, `tests/fixtures/recover/node20-fisher-yates-5.txt`).
const BITS_EXAMINED: f64 = 1024.0;

/// The first deals examined for decks of `n` cards: [`DEALS_EXAMINED`], or more for
/// decks whose deals show fewer than 16 bits each (1,024 deals of 2 cards, 149 of 5).
pub fn deals_to_examine(n: usize) -> usize {
    let bits_per_deal: f64 = (2..=n).map(|cards| (cards as f64).log2()).sum();
    if bits_per_deal <= 0.0 {
        return DEALS_EXAMINED;
    }
    ((BITS_EXAMINED / bits_per_deal).ceil() as usize).max(DEALS_EXAMINED)
}

/// One runtime of `--seed-search`, and the seeds to search (all when `None`).
#[derive(Clone)]
pub struct SeedSearch {
    pub runtime: &'static dyn crate::seeds::recover::Runtime,
    pub window: Option<std::ops::Range<u64>>,
}

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
/// [`BUDGET`]), and lists every runtime of the registry with what came of it; `None`
/// when there is no deal, or decks of one card. Stops early when `progress` is cancelled
/// (the caller then stops).
pub fn check_predictability(
    ingested: &IngestedDeals<'_>,
    budget: Duration,
    seed_search: &[SeedSearch],
    seed_search_stop: Option<fn() -> &'static AtomicBool>,
    progress: &dyn Progress,
) -> Option<Predictability> {
    let n = ingested.n;
    if n < 2 || ingested.first.is_empty() {
        return None;
    }
    let mut predictability = Predictability {
        deals_examined: 0,
        checks: Vec::new(),
        found: None,
    };
    // The runtimes whose state is recovered whole, the cheapest first (V8's first-word
    // eras take milliseconds, Java's up to a second); then those that take seconds, in
    // the registry's order (V8 first, whose first-word eras are quick); then those
    // searched seed by seed, which take minutes and run only when `--seed-search` names
    // them. `js` only tries the others.
    let kept: Vec<&[u16]> = ingested.first.chunks_exact(n).collect();
    let examined = kept.len().min(deals_to_examine(n));
    let unshuffled = match unshuffled_order(ingested.labels, ingested.deck_given.then_some(ingested.labels)) {
        Ok(unshuffled) => unshuffled,
        Err(reason) => {
            predictability.checks = registry()
                .into_iter()
                .flat_map(|runtime| {
                    [false, true].map(|carried| not_tried(runtime, carried, reason.clone(), None))
                })
                .collect();
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
    predictability.deals_examined = examined;
    let fresh = Observed {
        deals: kept[..examined].iter().map(|deal| in_places(deal)).collect(),
        carried: false,
    };

    // Armed now, when the searches are about to start (not while the input was read).
    let seed_search_stop = seed_search_stop
        .filter(|_| !seed_search.is_empty())
        .map(|arm| arm());
    let stop = AtomicBool::new(false);
    // A seed search named by `--seed-search` has no budget: only a reader who went stops it.
    let cancelled = AtomicBool::new(false);
    let done = AtomicBool::new(false);
    let deadline = Instant::now() + budget;
    let following = Following {
        ingested,
        kept: &kept,
        unshuffled: &unshuffled,
        in_places: &in_places,
    };
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
                if seed_search_stop.is_some_and(|stop| stop.load(Ordering::Relaxed)) {
                    // Ctrl-C: the seed searches stop where they are, and say so.
                    cancelled.store(true, Ordering::Relaxed);
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
        let quick = Control {
            stop: &stop,
            progress: &NoProgress,
            window: None,
            quick_only: true,
        };

        // The budgeted searches on fresh and carried decks first; then, with the budget left,
        // the search for a reseed among the fresh deals of those that found no state; then
        // the seed searches asked for, which have no budget and would otherwise spend the
        // others'.
        let mut reseed_later: Vec<(usize, &dyn Runtime)> = Vec::new();
        for (phase, carried) in [
            (Phase::Budgeted, false),
            (Phase::Budgeted, true),
            (Phase::Reseeds, false),
            (Phase::Seeds, false),
            (Phase::Seeds, true),
        ] {
            let observed = Observed {
                carried,
                ..fresh.clone()
            };
            if phase == Phase::Reseeds {
                for (index, runtime) in std::mem::take(&mut reseed_later) {
                    if predictability.found.is_some() {
                        break;
                    }
                    let spent = || stop.load(Ordering::Relaxed) || Instant::now() >= deadline;
                    let reseed = if spent() {
                        Reseed::None
                    } else {
                        reseeded_prefix(runtime, &observed, &quick)
                    };
                    let check = &mut predictability.checks[index];
                    match reseed {
                        Reseed::Found(first, prefix) => {
                            let found = follow(&first, &prefix, 0, ingested, &kept, &unshuffled, &in_places);
                            let found = restarted(found, runtime, &observed, &quick, &following);
                            check.outcome = Outcome::State;
                            check.detail = Some(match (&found.reseeded, found.deals_matched) {
                                (Some(again), _) => {
                                    format!("seeded again at deal {}, both states found", again.at_deal)
                                }
                                (None, 1) => "the first deal is its, deal 2 is not".to_string(),
                                (None, matched) => format!(
                                    "the first {} deals are its, deal {} is not",
                                    crate::format::group_thousands(matched),
                                    matched + 1
                                ),
                            });
                            check.how = None;
                            predictability.found = Some(found);
                        }
                        // Cut by the budget, or never started: not ruled out.
                        Reseed::None if spent() => {
                            let cut = "the search for a reseed among the deals was stopped by the budget";
                            check.detail = Some(match check.detail.take() {
                                Some(caveat) => format!("{caveat}; and {cut}"),
                                None => format!("but {cut}"),
                            });
                            check.how = Some(with_more_time(runtime.about().name, budget));
                        }
                        Reseed::None => {}
                    }
                }
                continue;
            }
            let seed_searches = phase == Phase::Seeds;
            let mut runtimes = registry();
            runtimes.retain(|runtime| runtime.seed_space().is_some() == seed_searches);
            // Each runtime's work once, and only for those whose search fits the deck (Java's
            // plan of a deck too small for it takes a tenth of a second to make).
            runtimes.sort_by_cached_key(|runtime| {
                let quick = !runtime.takes_seconds() && n >= runtime.about().min_cards;
                (runtime.takes_seconds(), quick.then(|| runtime.work(&observed)))
            });
            for runtime in runtimes {
                let name = runtime.about().name;
                let check = |outcome, detail: Option<String>, how: Option<String>| GeneratorCheck {
                    runtime: name,
                    generator: runtime.about().generator,
                    carried,
                    outcome,
                    detail,
                    how,
                };
                if let Some(found) = &predictability.found {
                    predictability.checks.push(not_tried(
                        runtime,
                        carried,
                        format!("not needed: the deals are {}'s", found.generator),
                        None,
                    ));
                    continue;
                }
                if carried && examined < 2 {
                    // One deal starts from the unshuffled deck either way: the fresh answer.
                    if let Some(fresh) = predictability
                        .checks
                        .iter()
                        .find(|check| check.runtime == name && !check.carried)
                    {
                        let same = GeneratorCheck {
                            carried: true,
                            ..fresh.clone()
                        };
                        predictability.checks.push(same);
                    }
                    continue;
                }
                let seeded = runtime.seed_space().map(|seeds| seeds.end - seeds.start);
                // By name: the runtimes are zero-sized, so their addresses may all be one.
                let asked = seed_search
                    .iter()
                    .find(|search| search.runtime.about().name == name);
                if let (Some(seeds), None) = (seeded, asked) {
                    predictability.checks.push(not_tried(
                        runtime,
                        carried,
                        format!(
                            "{} seeds, a search of minutes, run only when asked",
                            crate::format::group_thousands(seeds)
                        ),
                        Some(format!("--seed-search {name}")),
                    ));
                    continue;
                }
                if seeded.is_none() && (stop.load(Ordering::Relaxed) || Instant::now() >= deadline) {
                    predictability.checks.push(not_tried(
                        runtime,
                        carried,
                        format!("the budget of {} ran out before it", seconds(budget)),
                        Some(with_more_time(name, budget)),
                    ));
                    continue;
                }
                // Short of time, a search that takes seconds does only its quick part.
                let short_of_time = seeded.is_none()
                    && runtime.takes_seconds()
                    && crate::seeds::recover::summed::too_small(n).is_none()
                    && deadline.saturating_duration_since(Instant::now()) < SECONDS_NEEDED;
                let how_more = || Some(with_more_time(name, budget));
                let unbudgeted = Control {
                    stop: &cancelled,
                    progress: &NoProgress,
                    window: asked.and_then(|search| search.window.clone()),
                    quick_only: false,
                };
                let control = match (seeded.is_some(), short_of_time) {
                    (true, _) => &unbudgeted,
                    (false, true) => &quick,
                    (false, false) => &budgeted,
                };
                let outcome = match recover(runtime, &observed, 0, control) {
                    Err(error) if short_of_time && error.to_string() == NOT_TRIED => check(
                        Outcome::NotTried,
                        Some(format!(
                            "its search takes seconds, and the budget of {} left too little",
                            seconds(budget)
                        )),
                        how_more(),
                    ),
                    Err(error) => check(Outcome::NotTried, Some(error.to_string()), None),
                    Ok(recovery) if !recovery.complete && seeded.is_some() => {
                        let seeds = recovery.seeds.as_ref();
                        // A seed found before the stop deals every deal examined: found,
                        // though the seeds after it were not all searched.
                        let seed_found = recovery.candidates.len() == 1;
                        if seed_found {
                            let found =
                                follow(&recovery, &observed, 0, ingested, &kept, &unshuffled, &in_places);
                            predictability.found = Some(found);
                        }
                        check(
                            if seed_found {
                                Outcome::Seed
                            } else {
                                Outcome::Stopped
                            },
                            Some(format!(
                                "interrupted: {}",
                                seeds.map_or_else(|| "stopped".to_string(), |seeds| seeds.searched_so_far())
                            )),
                            Some(format!(
                                "--seed-search {name}{}",
                                seeds.and_then(|seeds| seeds.resume()).map_or_else(
                                    String::new,
                                    |rest| format!(":{}..{}", rest.start, rest.end)
                                )
                            )),
                        )
                    }
                    // Found, but with bits the deals leave unsettled (the caveat says how
                    // many): not stopped, even when the budget ran out meanwhile.
                    Ok(Recovery {
                        complete: false,
                        candidates,
                        caveat: Some(caveat),
                        ..
                    }) if !candidates.is_empty() => {
                        check(Outcome::Several(candidates.len() as u64), Some(caveat), None)
                    }
                    Ok(recovery) if !recovery.complete => check(
                        Outcome::Stopped,
                        Some(format!("stopped when the budget of {} ran out", seconds(budget))),
                        how_more(),
                    ),
                    Ok(recovery) if recovery.predictable() => {
                        let found = follow(&recovery, &observed, 0, ingested, &kept, &unshuffled, &in_places);
                        predictability.found = Some(restarted(found, runtime, &observed, &quick, &following));
                        check(
                            if seeded.is_some() {
                                Outcome::Seed
                            } else {
                                Outcome::State
                            },
                            None,
                            None,
                        )
                    }
                    Ok(recovery) if recovery.candidates.is_empty() => {
                        // No state deals them all: perhaps the first deals, up to a reseed,
                        // searched once every budgeted search has had its turn.
                        if seeded.is_none() && !carried && examined >= 2 {
                            reseed_later.push((predictability.checks.len(), runtime));
                        }
                        check(
                            Outcome::None,
                            recovery.caveat.clone(),
                            if short_of_time && recovery.caveat.is_some() {
                                how_more()
                            } else {
                                None
                            },
                        )
                    }
                    Ok(recovery) => check(
                        Outcome::Several(recovery.matching()),
                        Some(format!("give {}", recovery.more_deals_to_tell_apart())),
                        None,
                    ),
                };
                predictability.checks.push(outcome);
            }
        }
        done.store(true, Ordering::Relaxed);
    });
    Some(predictability)
}

/// Every runtime of the registry that has a search of its own (`js` only tries the others).
fn registry() -> Vec<&'static dyn Runtime> {
    RUNTIMES
        .iter()
        .copied()
        .filter(|runtime| !runtime.tries_others())
        .collect()
}

/// A check not run, and why.
fn not_tried(runtime: &dyn Runtime, carried: bool, why: String, how: Option<String>) -> GeneratorCheck {
    GeneratorCheck {
        runtime: runtime.about().name,
        generator: runtime.about().generator,
        carried,
        outcome: Outcome::NotTried,
        detail: Some(why),
        how,
    }
}

/// How to give runtime `name`'s search more time than `budget`: `--unpredictable, which
/// gives the check 20 s, or `shuffle-audit seeds recover --runtime v8`, which has no budget`.
fn with_more_time(name: &str, budget: Duration) -> String {
    let recover = format!("`shuffle-audit seeds recover --runtime {name}`, which has no budget");
    if budget < UNPREDICTABLE_BUDGET {
        format!(
            "--unpredictable, which gives the check {}, or {recover}",
            seconds(UNPREDICTABLE_BUDGET)
        )
    } else {
        recover
    }
}

/// `2 s`, `0.5 s`.
fn seconds(budget: Duration) -> String {
    format!("{} s", budget.as_secs_f64())
}

/// What following a recovered generator through the input needs.
struct Following<'a> {
    ingested: &'a IngestedDeals<'a>,
    kept: &'a [&'a [u16]],
    unshuffled: &'a [String],
    in_places: &'a dyn Fn(&[u16]) -> Vec<u16>,
}

/// The order of the check's searches.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// The runtimes whose state is recovered whole, within the budget.
    Budgeted,
    /// A reseed among the deals, for those that found no state, with what budget is left.
    Reseeds,
    /// The seed searches asked for, without a budget.
    Seeds,
}

/// What the search for a reseed among the deals found.
enum Reseed {
    /// A state that deals the first deals (the recovery, and those deals).
    Found(Box<Recovery>, Observed),
    /// None: every prefix searched had no state, was too short to search, or the budget
    /// stopped it (the caller says so).
    None,
}

/// The first deals that one state of `runtime` deals, when no state deals all of
/// `observed`: a program that reseeded among the deals examined. The first half, then the
/// first quarter, and so on, down to the fewest deals the runtime's quick search takes.
fn reseeded_prefix(runtime: &dyn Runtime, observed: &Observed, quick: &Control<'_>) -> Reseed {
    let mut count = observed.deals.len() / 2;
    while count >= 1 {
        let prefix = Observed {
            deals: observed.deals[..count].to_vec(),
            carried: observed.carried,
        };
        match recover(runtime, &prefix, 0, quick) {
            Ok(recovery) if recovery.predictable() => return Reseed::Found(Box::new(recovery), prefix),
            Ok(recovery) if recovery.complete => {}
            // Too few deals to search, or the budget spent.
            _ => return Reseed::None,
        }
        count /= 2;
    }
    Reseed::None
}

/// `found`, and when its deals stop being the generator's on fresh decks, the state that
/// starts at the deal where they stop (a reseed), followed on in turn.
fn restarted(
    mut found: Predictable,
    runtime: &dyn Runtime,
    observed: &Observed,
    quick: &Control<'_>,
    following: &Following<'_>,
) -> Predictable {
    let at = found.deals_matched as usize;
    // Seed searches take minutes, not a budget's seconds: not run again here.
    if observed.carried || at >= following.kept.len() || runtime.seed_space().is_some() {
        return found;
    }
    let rest = Observed {
        deals: following.kept[at..(at + observed.deals.len()).min(following.kept.len())]
            .iter()
            .map(|deal| (following.in_places)(deal))
            .collect(),
        carried: false,
    };
    let (again, rest) = match recover(runtime, &rest, 0, quick) {
        Ok(recovery) if recovery.predictable() => (recovery, rest),
        _ => match reseeded_prefix(runtime, &rest, quick) {
            Reseed::Found(recovery, prefix) => (*recovery, prefix),
            Reseed::None => return found,
        },
    };
    let second = follow(
        &again,
        &rest,
        at,
        following.ingested,
        following.kept,
        following.unshuffled,
        following.in_places,
    );
    found.next_deal = second.next_deal.clone();
    found.reseeded = Some(Reseeded {
        at_deal: at as u64 + 1,
        state: second.state,
        seed: second.seed,
        deals_matched: second.deals_matched,
    });
    found
}

/// The recovered generator followed through the kept deals from deal `start` (0 for the
/// first; the deals `observed` holds are those from `start` on), and on to the deal after
/// the input's last.
fn follow(
    recovery: &Recovery,
    observed: &Observed,
    start: usize,
    ingested: &IngestedDeals<'_>,
    kept: &[&[u16]],
    unshuffled: &[String],
    in_places: &dyn Fn(&[u16]) -> Vec<u16>,
) -> Predictable {
    let candidate = &recovery.candidates[0];
    let mut dealer = candidate.dealer(observed);
    let examined = start + observed.deals.len();
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
        reseeded: None,
    }
}

#[cfg(test)]
mod tests;
