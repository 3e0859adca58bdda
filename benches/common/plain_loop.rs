//! The plainest loop that does a large deck's work, as issue 15 describes it, built from
//! the same crates shuffle-audit uses (rand, rand_xoshiro, rayon) and nothing of its own.
//!
//! A deck of `u8` (52 and 200 cards) or `u16` (2,000 cards) cards, rand's `random_range`
//! on Xoshiro256++, the swap, a `u32` card × position matrix incremented per card, a
//! fixed-point count, and the cycle count (a 64-bit visited mask up to 64 cards, a list
//! of flags beyond); rayon over 1,024 chunks, each seeded from `(seed, chunk)`. It is the
//! yardstick shuffle-audit's 52-card path must beat, written as anyone would write it
//! first, with the deck size known at compile time.

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;

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
}

/// One worker's tables.
struct Tables {
    positions: Vec<u32>,
    fixed_points: Vec<u64>,
    cycles: Vec<u64>,
}

impl Tables {
    fn new(n: usize) -> Self {
        Self {
            positions: vec![0; n * n],
            fixed_points: vec![0; n + 1],
            cycles: vec![0; n + 1],
        }
    }

    fn add(mut self, other: Self) -> Self {
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
                let mut rng =
                    Xoshiro256PlusPlus::seed_from_u64(seed ^ chunk.wrapping_mul(0x9E37_79B9_7F4A_7C15));
                chunk_loop::<C, N>(shuffle, count, &mut rng, &mut tables);
                tables
            },
        )
        .reduce(|| Tables::new(N), Tables::add);
    let cells = tables.positions.iter().map(|&c| u64::from(c)).sum::<u64>();
    cells + tables.fixed_points[1] + tables.cycles[1]
}

#[inline(never)]
fn chunk_loop<C: Card, const N: usize>(
    shuffle: Shuffle,
    count: u64,
    rng: &mut Xoshiro256PlusPlus,
    tables: &mut Tables,
) {
    let start: [C; N] = std::array::from_fn(C::from_index);
    let mut visited = vec![false; N];
    for _ in 0..count {
        let mut deck = start;
        match shuffle {
            Shuffle::NaiveSwap => {
                for i in 0..N {
                    let j = rng.random_range(0..N);
                    deck.swap(i, j);
                }
            }
            Shuffle::FisherYates => {
                for i in (1..N).rev() {
                    let j = rng.random_range(0..i + 1);
                    deck.swap(i, j);
                }
            }
        }
        let mut fixed = 0;
        for (position, &card) in deck.iter().enumerate() {
            tables.positions[card.index() * N + position] += 1;
            fixed += usize::from(card.index() == position);
        }
        tables.fixed_points[fixed] += 1;
        tables.cycles[cycle_count(&deck, &mut visited)] += 1;
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
