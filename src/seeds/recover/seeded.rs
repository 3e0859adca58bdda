//! Runtimes whose generator starts from a seed of at most 32 bits, recovered by trying
//! every seed: PHP's `mt_srand`, numpy's `np.random.seed`, CPython's `random.seed`, C's
//! `srand`, Go's `rand.NewSource`, fast-shuffle's PCG32.
//!
//! Why a search and not algebra: such a program deals at most 2^32 decks, and one deal of
//! 52 cards (225 bits) names its seed with certainty; trying 2^32 seeds takes a minute or
//! two when each seed dies at the first draw that differs, which almost every seed does at
//! the first. Each runtime gives its exact generator (replayed for every seed its filter
//! lets through, against every deal) and a fast filter that computes only the words the
//! first draws need, many seeds at a time ([`SeededRuntime::filter`]); this module holds
//! what they share: the seed window, the blocks handed to the workers in seed order (so
//! that a stopped search has searched a prefix, and says which `--window` resumes it),
//! and the answer, which is the same whatever the number of threads.

use std::collections::BTreeSet;
use std::ops::Range;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use super::draws::{Direction, Draw, Observed, bits_per_deal};
use super::{About, Candidate, Control, Generator, Runtime, Search, Seed};

/// A generator drawing numbers below a bound the way one shuffle of a runtime asks for
/// them (PHP's `mt_rand_range`, numpy's masked rejection, `rand() % (i + 1)`, …).
pub trait Draws: Send + Sync {
    /// The next number below `bound`, drawn as the shuffle draws it.
    fn below(&mut self, bound: u32) -> u32;
    /// A copy, in the same state.
    fn boxed(&self) -> Box<dyn Draws>;
}

impl Clone for Box<dyn Draws> {
    fn clone(&self) -> Self {
        self.boxed()
    }
}

impl std::fmt::Debug for dyn Draws {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Draws")
    }
}

/// A runtime started from a small seed.
pub trait SeededRuntime: Sync + 'static {
    fn about(&self) -> &'static About;

    /// Every seed the runtime can start from, as the search numbers them (`--window`
    /// narrows it): by default the 2^32 of an `unsigned int` seed, as PHP, numpy,
    /// CPython's small integers and C's `srand` take.
    fn seeds(&self) -> Range<u64> {
        0..1 << 32
    }

    /// The order in which shuffle number `shuffle` (of `about().shuffles`) walks the deck:
    /// by default the descending Fisher–Yates loop most runtimes run.
    fn direction(&self, _shuffle: usize) -> Direction {
        Direction::Descending
    }

    /// The generator that `seed` starts, drawing as shuffle number `shuffle` draws.
    fn generator(&self, shuffle: usize, seed: u64) -> Box<dyn Draws>;

    /// The seed as a program gives it to the runtime (`mt_srand(42)`).
    fn seed(&self, seed: u64) -> Seed;

    /// Appends to `out`, in order, every seed of `seeds` whose generator draws `draws`
    /// (the first draws of the deals, under shuffle number `shuffle`). It may append seeds
    /// that do not (each is replayed against every deal), but never leaves out one that
    /// does. The default replays each seed's generator; runtimes override it with a filter
    /// that computes only what the first draws need, many seeds at a time.
    fn filter(&self, shuffle: usize, draws: &[Draw], seeds: Range<u64>, out: &mut Vec<u64>) {
        for seed in seeds {
            if deals(self.generator(shuffle, seed), draws) {
                out.push(seed);
            }
        }
    }
}

/// Whether `generator` draws `draws`, in order.
pub fn deals(mut generator: Box<dyn Draws>, draws: &[Draw]) -> bool {
    draws.iter().all(|draw| generator.below(draw.bound) == draw.value)
}

/// Seeds a worker takes at a time: large enough that taking a block costs nothing next to
/// searching it (a millisecond or more at the fastest filters' rates), small enough that a
/// stopped search has searched all but a few blocks of its prefix.
pub const BLOCK_SEEDS: u64 = 1 << 16;

/// The most matching seeds listed (in seed order); all are counted. A list this long means
/// the deals are too short to tell the seeds apart.
pub const MOST_LISTED: usize = 1000;

/// What a seed search covered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeedsSearched {
    /// The seeds asked for (`--window`, or the whole seed space).
    pub window: Range<u64>,
    /// Every seed of the window below this one was searched (the window's end when the
    /// search was not stopped): `--window searched_until..end` resumes it.
    pub searched_until: u64,
    /// Seeds searched in all (a few blocks past `searched_until` may be among them).
    pub searched: u64,
    /// Every seed the runtime can start from.
    pub space: Range<u64>,
    /// The runtime searched seed by seed (`jsc` under `js`), for the `--runtime` that
    /// resumes it.
    pub runtime: &'static str,
}

impl SeedsSearched {
    /// The window that resumes a stopped search, when it was stopped.
    pub fn resume(&self) -> Option<Range<u64>> {
        (self.searched_until < self.window.end).then_some(self.searched_until..self.window.end)
    }

    /// What a stopped search went through, as its answer says it: "every seed below N was
    /// searched" from the space's first, "the seeds A..N were searched" from a window's
    /// start (a resumed search did not search the seeds before it).
    pub fn searched_so_far(&self) -> String {
        if self.searched_until == self.window.start {
            "no seed was searched to its end".to_string()
        } else if self.window.start == self.space.start {
            format!("every seed below {} was searched", self.searched_until)
        } else {
            format!(
                "the seeds {}..{} were searched",
                self.window.start, self.searched_until
            )
        }
    }

    /// The options that resume a stopped search: `--window A..B`, after `--runtime NAME`
    /// when `asked` (the runtime the user named) is not the one searched.
    pub fn resume_with(&self, asked: &str) -> Option<String> {
        let resume = self.resume()?;
        let runtime = if asked == self.runtime {
            String::new()
        } else {
            format!("--runtime {} ", self.runtime)
        };
        Some(format!("{runtime}--window {}..{}", resume.start, resume.end))
    }
}

/// Refuses a window of seeds that is empty or reaches outside `space`, the seeds of the
/// runtime named `name`: the one-line reason, for `--window` and `--seed-search`.
pub fn check_window(name: &str, window: &Range<u64>, space: &Range<u64>) -> Result<(), String> {
    if window.start >= window.end || window.start < space.start || window.end > space.end {
        return Err(format!(
            "{}..{} is not a window of {name}'s seeds, which are {}..{}",
            window.start, window.end, space.start, space.end
        ));
    }
    Ok(())
}

/// A seeded runtime as `seeds recover` searches it.
pub struct Seeded<R: SeededRuntime>(pub R);

impl<R: SeededRuntime> Runtime for Seeded<R> {
    fn about(&self) -> &'static About {
        self.0.about()
    }

    fn work(&self, _observed: &Observed) -> u64 {
        let seeds = self.0.seeds();
        (seeds.end - seeds.start) * self.0.about().shuffles.len() as u64
    }

    fn seed_space(&self) -> Option<Range<u64>> {
        Some(self.0.seeds())
    }

    fn search(&self, observed: &Observed, control: &Control<'_>) -> Result<Search, String> {
        let runtime = &self.0;
        let about = runtime.about();
        let space = runtime.seeds();
        let window = control.window.clone().unwrap_or_else(|| space.clone());
        check_window(about.name, &window, &space).map_err(|problem| format!("--window {problem}"))?;
        let mut candidates = Vec::new();
        let mut unlisted = 0;
        let mut searched = SeedsSearched {
            searched_until: window.end,
            searched: 0,
            window: window.clone(),
            space,
            runtime: about.name,
        };
        for shuffle in 0..about.shuffles.len() {
            let direction = runtime.direction(shuffle);
            let draws = observed.draws(direction, observed.deals.len());
            let found = search_seeds(runtime, shuffle, &draws, window.clone(), control);
            searched.searched += found.searched;
            searched.searched_until = searched.searched_until.min(found.searched_until);
            unlisted += found.count - found.listed.len() as u64;
            candidates.extend(found.listed.into_iter().map(|seed| Candidate {
                shuffle: &about.shuffles[shuffle],
                state: format!("{seed:#010x}"),
                seed: Some(runtime.seed(seed)),
                note: None,
                generators: vec![Generator::Seeded(runtime.generator(shuffle, seed))],
                direction,
            }));
        }
        let seed_bits = ((searched.space.end - searched.space.start) as f64).log2();
        // The deals that name one seed of the space with a margin of 16 bits; the others
        // are checked all the same.
        let deals_used = (1..=observed.deals.len())
            .find(|&deals| deals as f64 * bits_per_deal(observed.n()) >= seed_bits + 16.0)
            .unwrap_or(observed.deals.len());
        Ok(Search {
            deals_used,
            complete: searched.resume().is_none(),
            candidates,
            unlisted,
            caveat: None,
            seeds: Some(searched),
        })
    }
}

/// The seeds of one shuffle's search.
struct Found {
    /// How many seeds deal the draws, and the first [`MOST_LISTED`] of them.
    count: u64,
    listed: Vec<u64>,
    searched: u64,
    searched_until: u64,
}

/// Every seed of `window` that deals `draws` through shuffle number `shuffle`: blocks of
/// [`BLOCK_SEEDS`] taken in seed order by every worker until the window is done or
/// `control.stop` is set.
fn search_seeds(
    runtime: &dyn SeededRuntime,
    shuffle: usize,
    draws: &[Draw],
    window: Range<u64>,
    control: &Control<'_>,
) -> Found {
    let blocks = (window.end - window.start).div_ceil(BLOCK_SEEDS);
    let next_block = AtomicU64::new(0);
    let done: Vec<AtomicBool> = (0..blocks).map(|_| AtomicBool::new(false)).collect();
    let matched: Mutex<(u64, BTreeSet<u64>)> = Mutex::new((0, BTreeSet::new()));
    let searched = AtomicU64::new(0);
    rayon::broadcast(|_| {
        let mut passed = Vec::new();
        loop {
            if control.stop.load(Ordering::Relaxed) {
                return;
            }
            let block = next_block.fetch_add(1, Ordering::Relaxed);
            if block >= blocks {
                return;
            }
            let start = window.start + block * BLOCK_SEEDS;
            let seeds = start..(start + BLOCK_SEEDS).min(window.end);
            passed.clear();
            runtime.filter(shuffle, draws, seeds.clone(), &mut passed);
            let dealing: Vec<u64> = passed
                .iter()
                .copied()
                .filter(|&seed| deals(runtime.generator(shuffle, seed), draws))
                .collect();
            if !dealing.is_empty() {
                let mut matched = matched.lock().unwrap_or_else(|poison| poison.into_inner());
                matched.0 += dealing.len() as u64;
                matched.1.extend(dealing);
                while matched.1.len() > MOST_LISTED {
                    matched.1.pop_last();
                }
            }
            let len = seeds.end - seeds.start;
            searched.fetch_add(len, Ordering::Relaxed);
            done[block as usize].store(true, Ordering::Release);
            control.progress.advance(len);
        }
    });
    let first_undone = done
        .iter()
        .position(|block| !block.load(Ordering::Acquire))
        .map_or(window.end, |block| window.start + block as u64 * BLOCK_SEEDS);
    let (count, listed) = matched.into_inner().unwrap_or_else(|poison| poison.into_inner());
    Found {
        count,
        listed: listed.into_iter().collect(),
        searched: searched.into_inner(),
        searched_until: first_undone,
    }
}

#[cfg(test)]
mod tests;
