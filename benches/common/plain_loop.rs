//! The plainest loop that does a large deck's work, as issue 15 describes it, built from
//! the same crates shuffle-audit uses (rand, rand_xoshiro, rayon) and nothing of its own.
//!
//! A deck of `u8` (52 and 200 cards) or `u16` (2,000 cards) cards, rand's `random_range`
//! on Xoshiro256++, the swap, a `u32` card × position matrix incremented per card, a
//! fixed-point count, and the cycle count (a 64-bit visited mask up to 64 cards, a list
//! of flags beyond); rayon over 1,024 chunks, each seeded from `(seed, chunk)`. It is the
//! yardstick shuffle-audit's 52-card path must beat, written as anyone would write it
//! first, with the deck size known at compile time.
//!
//! The other catalogue shuffles (52 cards only, `-- all52`) come in two kinds:
//! - **written by hand** on rand's `random_range`, like the two above: the swap loops
//!   (Fisher–Yates forward, Sattolo, roguelike, ASF poker, the naive pass repeated 52
//!   times), and the carried deck of `dealer-riffles` (the deck is not reset between
//!   deals; each deal riffles the previous one), also with the second table set `run`
//!   keeps for a dealer, the plain tally of each relative permutation of consecutive
//!   deals ([`Shuffle::DealerRifflesRelative`], the like-for-like comparison);
//! - **the catalogue's own public function** on the plain `u8` deck (sorts, insertion
//!   with retry, riffles, overhand, the shelf shuffler): writing these again by hand would only test whether
//!   two copies of the same shuffle compile alike. Its draws go through [`PlainRng`],
//!   which answers `random_range(0..n)` and `random::<f64>()` on Xoshiro256++ with no
//!   dispatch, one call per draw. It keeps `Randomness`'s defaults for batched draws
//!   (`below_each`, `coins`: one `below` per index or coin), as a first loop draws; so
//!   where the catalogue's function batches (the riffles' coins, the shelf's draws, the
//!   8-bit keys), shuffle-audit's side draws less than this one (issue 33), and the ratio
//!   measures that as well as the engine and the tallies.

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;
use shuffle_audit::Randomness;
use shuffle_audit::catalogue;

/// Chunks of a run, as in the issue.
const CHUNKS: u64 = 1_024;

/// A card small enough for the deck size.
pub trait Card: Copy + Send + Sync {
    fn from_index(index: usize) -> Self;
    fn index(self) -> usize;
}

impl Card for u8 {
    #[inline(always)]
    fn from_index(index: usize) -> Self {
        index as u8
    }
    #[inline(always)]
    fn index(self) -> usize {
        usize::from(self)
    }
}

impl Card for u16 {
    #[inline(always)]
    fn from_index(index: usize) -> Self {
        index as u16
    }
    #[inline(always)]
    fn index(self) -> usize {
        usize::from(self)
    }
}

/// Which shuffle the plain loop runs.
#[derive(Clone, Copy, Debug)]
pub enum Shuffle {
    NaiveSwap,
    FisherYates,
    // Written by hand.
    FisherYatesForward,
    Sattolo,
    Roguelike,
    AsfPoker,
    /// The naive pass, once per card.
    NaiveRepeated,
    /// The deck carried from deal to deal, riffled (GSR) this many times per deal.
    DealerRiffles(u32),
    /// [`Shuffle::DealerRiffles`] with the second table set `run` keeps by default for a
    /// dealer: the plain tally of the relative permutation of each two consecutive deals
    /// of a chunk (`relative[i]` = the previous deal's position of the card `deck[i]`),
    /// written plainly.
    DealerRifflesRelative(u32),
    // The catalogue's function.
    SortRandomKey,
    SortRandomKeyU8,
    SortComparatorInsertion,
    SortComparatorMerge,
    InsertWithRetry,
    Riffle,
    Riffles(u32),
    Overhand(u32),
    /// The casino shelf shuffler: shelves, passes.
    Shelf(u32, u32),
}

impl Shuffle {
    /// Whether the plain loop writes the shuffle by hand (otherwise it calls the
    /// catalogue's function).
    pub fn by_hand(self) -> bool {
        !matches!(
            self,
            Shuffle::SortRandomKey
                | Shuffle::SortRandomKeyU8
                | Shuffle::SortComparatorInsertion
                | Shuffle::SortComparatorMerge
                | Shuffle::InsertWithRetry
                | Shuffle::Riffle
                | Shuffle::Riffles(_)
                | Shuffle::Overhand(_)
                | Shuffle::Shelf(..)
        )
    }
}

/// Xoshiro256++ answering the catalogue's functions exactly as shuffle-audit's default
/// source does, with nothing in between.
pub struct PlainRng(Xoshiro256PlusPlus);

impl Randomness for PlainRng {
    /// `random_range(0..n)` with its body written out, as shuffle-audit's default source
    /// writes it (`XoshiroSource::below`): left as the call, the compiler kept
    /// `random_range` out of line in the riffle's loops on this side, a call per draw
    /// that shuffle-audit does not pay, and the ratio would measure that accident.
    #[inline(always)]
    fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "cannot sample empty range");
        rand::distr::uniform::SampleRange::sample_single(0..n, &mut self.0).expect("a non-empty range")
    }
    #[inline(always)]
    fn unit(&mut self) -> f64 {
        self.0.random::<f64>()
    }
}

/// One worker's tables.
struct Tables {
    positions: Vec<u32>,
    fixed_points: Vec<u64>,
    cycles: Vec<u64>,
    /// The same tables of the relative permutations of consecutive deals, when kept.
    relative: Option<Box<Tables>>,
}

impl Tables {
    fn new(n: usize) -> Self {
        Self {
            positions: vec![0; n * n],
            fixed_points: vec![0; n + 1],
            cycles: vec![0; n + 1],
            relative: None,
        }
    }

    /// The plain tally of one deck.
    #[inline(always)]
    fn count<C: Card, const N: usize>(&mut self, deck: &[C; N], visited: &mut [bool]) {
        let mut fixed = 0;
        for (position, &card) in deck.iter().enumerate() {
            self.positions[card.index() * N + position] += 1;
            fixed += usize::from(card.index() == position);
        }
        self.fixed_points[fixed] += 1;
        self.cycles[cycle_count(deck, visited)] += 1;
    }

    fn add(mut self, other: Self) -> Self {
        self.relative = match (self.relative.take(), other.relative) {
            (Some(mine), Some(theirs)) => Some(Box::new(mine.add(*theirs))),
            (mine, theirs) => mine.or(theirs),
        };
        for (a, b) in self.positions.iter_mut().zip(&other.positions) {
            *a += b;
        }
        for (a, b) in self.fixed_points.iter_mut().zip(&other.fixed_points) {
            *a += b;
        }
        for (a, b) in self.cycles.iter_mut().zip(&other.cycles) {
            *a += b;
        }
        self
    }
}

/// Runs `trials` shuffles of an `N`-card deck and returns a checksum of the tables (so
/// that nothing is optimised away).
pub fn run<C: Card, const N: usize>(shuffle: Shuffle, trials: u64, seed: u64) -> u64 {
    let tables = (0..CHUNKS)
        .into_par_iter()
        .fold(
            || Tables::new(N),
            |mut tables, chunk| {
                let count = trials / CHUNKS + u64::from(chunk < trials % CHUNKS);
                let mut rng = PlainRng(Xoshiro256PlusPlus::seed_from_u64(
                    seed ^ chunk.wrapping_mul(0x9E37_79B9_7F4A_7C15),
                ));
                dispatch::<C, N>(shuffle, count, &mut rng, &mut tables);
                tables
            },
        )
        .reduce(|| Tables::new(N), Tables::add);
    let checksum = |tables: &Tables| {
        let cells = tables.positions.iter().map(|&c| u64::from(c)).sum::<u64>();
        cells + tables.fixed_points[1] + tables.cycles[1]
    };
    checksum(&tables) + tables.relative.as_deref().map_or(0, checksum)
}

/// Picks the shuffle once per chunk; each arm is its own loop.
fn dispatch<C: Card, const N: usize>(shuffle: Shuffle, count: u64, rng: &mut PlainRng, tables: &mut Tables) {
    let mut cards: Vec<C> = Vec::new();
    let mut flags: Vec<bool> = Vec::new();
    let mut f64_keys: Vec<(f64, C)> = Vec::new();
    let mut u8_keys: Vec<(u8, C)> = Vec::new();
    let mut shelf = catalogue::ShelfScratch::default();
    let fresh = true;
    match shuffle {
        Shuffle::NaiveSwap => chunk_loop::<C, N>(count, rng, tables, fresh, |deck, rng| {
            for i in 0..N {
                let j = rng.0.random_range(0..N);
                deck.swap(i, j);
            }
        }),
        Shuffle::FisherYates => chunk_loop::<C, N>(count, rng, tables, fresh, |deck, rng| {
            for i in (1..N).rev() {
                let j = rng.0.random_range(0..i + 1);
                deck.swap(i, j);
            }
        }),
        Shuffle::FisherYatesForward => chunk_loop::<C, N>(count, rng, tables, fresh, |deck, rng| {
            for i in 0..N - 1 {
                let j = i + rng.0.random_range(0..N - i);
                deck.swap(i, j);
            }
        }),
        Shuffle::Sattolo => chunk_loop::<C, N>(count, rng, tables, fresh, |deck, rng| {
            for i in (1..N).rev() {
                let j = rng.0.random_range(0..i);
                deck.swap(i, j);
            }
        }),
        Shuffle::Roguelike => chunk_loop::<C, N>(count, rng, tables, fresh, |deck, rng| {
            for f in 1..N {
                let g = rng.0.random_range(0..f);
                deck.swap(f, g);
            }
        }),
        Shuffle::AsfPoker => chunk_loop::<C, N>(count, rng, tables, fresh, |deck, rng| {
            for i in 0..N {
                let j = rng.0.random_range(0..N - 1);
                deck.swap(i, j);
            }
        }),
        Shuffle::NaiveRepeated => chunk_loop::<C, N>(count, rng, tables, fresh, |deck, rng| {
            for _ in 0..N {
                for i in 0..N {
                    let j = rng.0.random_range(0..N);
                    deck.swap(i, j);
                }
            }
        }),
        Shuffle::DealerRiffles(times) => chunk_loop::<C, N>(count, rng, tables, false, |deck, rng| {
            catalogue::riffles(deck, rng, times, &mut cards)
        }),
        Shuffle::DealerRifflesRelative(times) => {
            let mut relative = tables.relative.take().unwrap_or_else(|| Box::new(Tables::new(N)));
            dealer_loop_with_relative::<C, N>(count, rng, tables, &mut relative, |deck, rng| {
                catalogue::riffles(deck, rng, times, &mut cards)
            });
            tables.relative = Some(relative);
        }
        Shuffle::SortRandomKey => chunk_loop::<C, N>(count, rng, tables, fresh, |deck, rng| {
            catalogue::sort_random_key(deck, rng, &mut f64_keys)
        }),
        Shuffle::SortRandomKeyU8 => chunk_loop::<C, N>(count, rng, tables, fresh, |deck, rng| {
            catalogue::sort_random_key_u8(deck, rng, &mut u8_keys)
        }),
        Shuffle::SortComparatorInsertion => chunk_loop::<C, N>(count, rng, tables, fresh, |deck, rng| {
            catalogue::sort_comparator_insertion(deck, rng)
        }),
        Shuffle::SortComparatorMerge => chunk_loop::<C, N>(count, rng, tables, fresh, |deck, rng| {
            catalogue::sort_comparator_merge(deck, rng, &mut cards)
        }),
        Shuffle::InsertWithRetry => chunk_loop::<C, N>(count, rng, tables, fresh, |deck, rng| {
            catalogue::insert_with_retry(deck, rng, &mut flags, &mut cards)
        }),
        Shuffle::Riffle => chunk_loop::<C, N>(count, rng, tables, fresh, |deck, rng| {
            catalogue::riffle(deck, rng, &mut cards)
        }),
        Shuffle::Riffles(times) => chunk_loop::<C, N>(count, rng, tables, fresh, |deck, rng| {
            catalogue::riffles(deck, rng, times, &mut cards)
        }),
        Shuffle::Overhand(times) => chunk_loop::<C, N>(count, rng, tables, fresh, |deck, rng| {
            catalogue::overhands(deck, rng, times)
        }),
        Shuffle::Shelf(shelves, passes) => chunk_loop::<C, N>(count, rng, tables, fresh, |deck, rng| {
            catalogue::shelf_passes(deck, rng, shelves, passes, &mut shelf)
        }),
    }
}

/// `count` shuffles and the plain tally. With `fresh` every shuffle starts from the
/// sorted deck; without it each continues from the previous one (a dealer's deals).
#[inline(never)]
fn chunk_loop<C: Card, const N: usize>(
    count: u64,
    rng: &mut PlainRng,
    tables: &mut Tables,
    fresh: bool,
    mut shuffle: impl FnMut(&mut [C; N], &mut PlainRng),
) {
    let start: [C; N] = std::array::from_fn(C::from_index);
    let mut deck = start;
    let mut visited = vec![false; N];
    for _ in 0..count {
        if fresh {
            deck = start;
        }
        shuffle(&mut deck, rng);
        tables.count(&deck, &mut visited);
    }
}

/// `count` deals of a dealer who carries the deck, with the plain tally of each deal and
/// of each relative permutation of two consecutive deals of the chunk: the previous
/// deal's position of every card (`positions`), then `relative[i] = positions[deck[i]]`.
#[inline(never)]
fn dealer_loop_with_relative<C: Card, const N: usize>(
    count: u64,
    rng: &mut PlainRng,
    tables: &mut Tables,
    relative_tables: &mut Tables,
    mut shuffle: impl FnMut(&mut [C; N], &mut PlainRng),
) {
    let mut deck: [C; N] = std::array::from_fn(C::from_index);
    let mut visited = vec![false; N];
    let mut positions = [C::from_index(0); N];
    let mut relative = [C::from_index(0); N];
    for deal in 0..count {
        shuffle(&mut deck, rng);
        tables.count(&deck, &mut visited);
        if deal > 0 {
            for (slot, &card) in relative.iter_mut().zip(&deck) {
                *slot = positions[card.index()];
            }
            relative_tables.count(&relative, &mut visited);
        }
        for (position, &card) in deck.iter().enumerate() {
            positions[card.index()] = C::from_index(position);
        }
    }
}

#[inline(always)]
fn cycle_count<C: Card, const N: usize>(deck: &[C; N], visited: &mut [bool]) -> usize {
    let mut cycles = 0;
    if N <= 64 {
        let mut unvisited: u64 = if N == 64 { u64::MAX } else { (1 << N) - 1 };
        while unvisited != 0 {
            let start = unvisited.trailing_zeros() as usize;
            let mut position = start;
            loop {
                unvisited &= !(1 << position);
                position = deck[position].index();
                if position == start {
                    break;
                }
            }
            cycles += 1;
        }
    } else {
        visited.fill(false);
        for start in 0..N {
            if !visited[start] {
                cycles += 1;
                let mut position = start;
                while !visited[position] {
                    visited[position] = true;
                    position = deck[position].index();
                }
            }
        }
    }
    cycles
}
