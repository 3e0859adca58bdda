//! The loop a user would write to audit a shuffle by hand: the yardstick
//! `scripts/bench.sh` holds `shuffle-audit run … --json` against (issue 43).
//!
//! Why a program of its own: a yardstick must be the plainest loop, not one tuned beside
//! the tool (the bench in `benches/` compiles its decks at fixed sizes, which `run` cannot
//! do for every size). So here, nothing clever: a `Vec` deck reset before every shuffle,
//! rand's `random_range` on Xoshiro256++, the swap, then the tables `run` keeps for a
//! fresh deck, counted the plain way: a `u32` card × position matrix, the fixed points,
//! the cycles (a 64-bit visited mask up to 64 cards, a `Vec<bool>` beyond) and the
//! rising sequences (each card's position, then the descents). rayon shares chunks of
//! 16,384 shuffles over every core, as `run` does.
//!
//! Usage: `plain_loop SHUFFLE CARDS TRIALS` (SHUFFLE: `fisher-yates` or `naive-swap`).
//! Prints `trials_per_second` and the tables' checksum (so that nothing is optimised away).

use std::time::Instant;

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;

const CHUNK_TRIALS: u64 = 16_384;

#[derive(Clone, Copy)]
enum Shuffle {
    FisherYates,
    NaiveSwap,
}

/// One worker's tables.
struct Tables {
    n: usize,
    positions: Vec<u32>,
    fixed_points: Vec<u64>,
    cycles: Vec<u64>,
    rising: Vec<u64>,
}

impl Tables {
    fn new(n: usize) -> Self {
        Self {
            n,
            positions: vec![0; n * n],
            fixed_points: vec![0; n + 1],
            cycles: vec![0; n + 1],
            rising: vec![0; n + 1],
        }
    }

    fn add(mut self, other: Self) -> Self {
        for (a, b) in self.positions.iter_mut().zip(&other.positions) {
            *a += b;
        }
        for (mine, theirs) in [
            (&mut self.fixed_points, &other.fixed_points),
            (&mut self.cycles, &other.cycles),
            (&mut self.rising, &other.rising),
        ] {
            for (a, b) in mine.iter_mut().zip(theirs) {
                *a += b;
            }
        }
        self
    }

    fn checksum(&self) -> u64 {
        self.positions.iter().map(|&c| u64::from(c)).sum::<u64>()
            + self.fixed_points[1]
            + self.cycles[1]
            + self.rising[1]
    }
}

/// `count` shuffles of a fresh deck and their tallies.
fn chunk(shuffle: Shuffle, count: u64, rng: &mut Xoshiro256PlusPlus, tables: &mut Tables) {
    let n = tables.n;
    let mut deck: Vec<u16> = (0..n as u16).collect();
    let mut position_of = vec![0usize; n];
    let mut visited = vec![false; n];
    for _ in 0..count {
        for (i, card) in deck.iter_mut().enumerate() {
            *card = i as u16;
        }
        match shuffle {
            Shuffle::FisherYates => {
                for i in (1..n).rev() {
                    let j = rng.random_range(0..i + 1);
                    deck.swap(i, j);
                }
            }
            Shuffle::NaiveSwap => {
                for i in 0..n {
                    let j = rng.random_range(0..n);
                    deck.swap(i, j);
                }
            }
        }
        let mut fixed = 0;
        for (position, &card) in deck.iter().enumerate() {
            let card = usize::from(card);
            tables.positions[card * n + position] += 1;
            fixed += usize::from(card == position);
            position_of[card] = position;
        }
        tables.fixed_points[fixed] += 1;
        let descents = position_of.windows(2).filter(|pair| pair[1] < pair[0]).count();
        tables.rising[descents + 1] += 1;
        tables.cycles[cycle_count(&deck, &mut visited)] += 1;
    }
}

fn cycle_count(deck: &[u16], visited: &mut [bool]) -> usize {
    let n = deck.len();
    let mut cycles = 0;
    if n <= 64 {
        let mut unvisited: u64 = if n == 64 { u64::MAX } else { (1 << n) - 1 };
        while unvisited != 0 {
            let start = unvisited.trailing_zeros() as usize;
            let mut position = start;
            loop {
                unvisited &= !(1 << position);
                position = usize::from(deck[position]);
                if position == start {
                    break;
                }
            }
            cycles += 1;
        }
    } else {
        visited.fill(false);
        for start in 0..n {
            if !visited[start] {
                cycles += 1;
                let mut position = start;
                while !visited[position] {
                    visited[position] = true;
                    position = usize::from(deck[position]);
                }
            }
        }
    }
    cycles
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: plain_loop fisher-yates|naive-swap CARDS TRIALS";
    let [shuffle, cards, trials] = args.as_slice() else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let shuffle = match shuffle.as_str() {
        "fisher-yates" => Shuffle::FisherYates,
        "naive-swap" => Shuffle::NaiveSwap,
        other => {
            eprintln!("plain_loop: unknown shuffle {other:?}; {usage}");
            std::process::exit(2);
        }
    };
    let (Ok(n), Ok(trials)) = (cards.parse::<usize>(), trials.parse::<f64>()) else {
        eprintln!("plain_loop: CARDS and TRIALS must be numbers; {usage}");
        std::process::exit(2);
    };
    if !(2..=65_535).contains(&n) || trials.is_nan() || trials < 1.0 {
        eprintln!("plain_loop: CARDS must be 2 to 65,535 and TRIALS at least 1; {usage}");
        std::process::exit(2);
    }
    let trials = trials as u64;
    let started = Instant::now();
    let tables = (0..trials.div_ceil(CHUNK_TRIALS))
        .into_par_iter()
        .fold(
            || Tables::new(n),
            |mut tables, index| {
                let count = CHUNK_TRIALS.min(trials - index * CHUNK_TRIALS);
                let mut rng = Xoshiro256PlusPlus::seed_from_u64(index.wrapping_mul(0x9E37_79B9_7F4A_7C15));
                chunk(shuffle, count, &mut rng, &mut tables);
                tables
            },
        )
        .reduce(|| Tables::new(n), Tables::add);
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "{{\"trials_per_second\": {:.1}, \"checksum\": {}}}",
        trials as f64 / seconds,
        tables.checksum()
    );
}
