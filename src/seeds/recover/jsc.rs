//! JavaScriptCore's `Math.random` (Safari, WebKitGTK's `jsc`, Bun) recovered from deals
//! of a fresh global object: its 32-bit seed, every seed tried.
//!
//! The model, as WebKit's `WeakRandom` has it (checked against `jsc` 2.50 with
//! `--forceWeakRandomSeed=true --forcedWeakRandomSeed=N`, and against unforced `jsc` and
//! Bun deals, `scripts/engine_deals.sh`): xorshift128+ (`x ^= x << 23; x ^= x >> 17;
//! x ^= y ^ (y >> 26)`, the two words swapped) returning the sum of its words, of which
//! `Math.random` keeps the low 53 bits over 2^53. `setSeed(s)` sets both words to `s`
//! (0 taken as 1) and steps once. Each global object (a page, a realm, a `jsc` or Bun
//! process) is seeded with 32 random bits: its deals are those of one of 2^32 seeds.
//!
//! Why a search: the seed has 32 bits, and one deal of 52 cards names it. A program that
//! drew numbers before its first deal, or deals carried over from earlier ones, starts
//! elsewhere in the stream: that needs the 128-bit state, which this search does not
//! find. The filter ([`lanes`]) seeds many generators side by side and compares the
//! first draw as an integer range of the 53 bits kept.

use std::ops::Range;

use super::draws::{Direction, Draw};
use super::seeded::{Draws, SeededRuntime};
use super::v8::{JS_SHUFFLES, JsShuffle};
use super::{About, Seed};

mod lanes;

/// Bits of the sum that make a double.
const KEPT: u32 = 53;

/// One step of `WeakRandom::advance`: the new words and the sum it returns.
#[inline(always)]
fn advance(low: u64, high: u64) -> (u64, u64, u64) {
    let mut x = low;
    let y = high;
    x ^= x << 23;
    x ^= x >> 17;
    x ^= y ^ (y >> 26);
    (y, x, x.wrapping_add(y))
}

/// The words `setSeed(seed)` leaves.
#[inline(always)]
fn seeded(seed: u32) -> (u64, u64) {
    let seed = u64::from(seed.max(1));
    let (low, high, _) = advance(seed, seed);
    (low, high)
}

/// `Math.floor(x * bound)` for the double `Math.random` makes of the 53 bits `kept`.
#[inline(always)]
fn drawn(kept: u64, bound: u32) -> u32 {
    (kept as f64 / (1u64 << KEPT) as f64 * f64::from(bound)).floor() as u32
}

/// JavaScriptCore's `Math.random` of one global object.
#[derive(Clone, Debug)]
pub struct JscRandom {
    low: u64,
    high: u64,
}

impl JscRandom {
    /// The generator `setSeed(seed)` starts.
    pub fn new(seed: u32) -> Self {
        let (low, high) = seeded(seed);
        Self { low, high }
    }

    /// The 53 bits of the next `Math.random()`.
    pub fn next_kept(&mut self) -> u64 {
        let (low, high, sum) = advance(self.low, self.high);
        (self.low, self.high) = (low, high);
        sum & ((1 << KEPT) - 1)
    }

    /// The next `Math.random()`.
    pub fn next_double(&mut self) -> f64 {
        self.next_kept() as f64 / (1u64 << KEPT) as f64
    }
}

impl Draws for JscRandom {
    fn below(&mut self, bound: u32) -> u32 {
        drawn(self.next_kept(), bound)
    }

    fn boxed(&self) -> Box<dyn Draws> {
        Box::new(self.clone())
    }
}

/// JavaScriptCore's `Math.random`, from a fresh global object.
pub struct Jsc;

static ABOUT: About = About {
    name: "jsc",
    aliases: &["safari", "bun"],
    summary: "Safari's and Bun's JavaScriptCore: a fresh page or process, the Fisher-Yates loop or lodash's \
              _.shuffle over Math.random",
    generator: "JavaScriptCore's Math.random",
    state_bits: 32,
    shuffles: &JS_SHUFFLES,
    versions: "JavaScriptCore's WeakRandom (Safari, WebKitGTK, Bun) since it became xorshift128+ (2016): the \
               first deals of a page, realm or process, whose generator is seeded with 32 random bits; checked \
               against jsc 2.50 (WebKitGTK, Debian) and Bun",
    instead: "crypto.getRandomValues for each draw, which no output gives away",
    min_cards: 3,
};

/// The shuffles, in the order of `ABOUT.shuffles`.
const SHUFFLES: [JsShuffle; 2] = JsShuffle::ALL;

impl SeededRuntime for Jsc {
    fn about(&self) -> &'static About {
        &ABOUT
    }

    fn direction(&self, shuffle: usize) -> Direction {
        SHUFFLES[shuffle].direction()
    }

    fn generator(&self, _shuffle: usize, seed: u64) -> Box<dyn Draws> {
        Box::new(JscRandom::new(seed as u32))
    }

    fn seed(&self, seed: u64) -> Seed {
        let also = if seed == 0 { " (seeded as 1)" } else { "" };
        Seed {
            value: seed as i64,
            usage: format!("jsc --forceWeakRandomSeed=true --forcedWeakRandomSeed={seed}{also}"),
        }
    }

    fn filter(&self, _shuffle: usize, draws: &[Draw], seeds: Range<u64>, out: &mut Vec<u64>) {
        lanes::filter(draws, seeds, out);
    }
}

#[cfg(test)]
mod tests;
