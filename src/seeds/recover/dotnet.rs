//! .NET's `System.Random` recovered from deals: `new Random(seed)` (every .NET, .NET 6
//! and later included, since a seeded `Random` keeps the old algorithm), and
//! `new Random()` on .NET Framework and Mono, under the Fisher–Yates loop C# programs
//! write, `for (int i = n - 1; i > 0; i--) { int j = rng.Next(i + 1); swap }`.
//!
//! The model, as the reference source has it (checked against Mono 6.8's deals,
//! `scripts/engines/deal.cs`): Knuth's subtractive generator with 55 words, seeded from
//! `|seed|` (`int.MinValue` taken as `int.MaxValue`) by `mj = 161803398 − |seed|`, the
//! words filled at `21·i mod 55` and stirred four times
//! (`a[i] −= a[1 + (i + 30) mod 55]`, adding `2^31 − 1` to a negative result). Each
//! sample is `a[inext] − a[inextp]` with the second tap 21 places on (Knuth says 31: the
//! .NET bug every version keeps), and `Next(bound)` is `(int)(sample · (1 / (2^31 − 1)) ·
//! bound)`. All in wrapping 32-bit arithmetic, as C# runs it.
//!
//! Why a search: `|seed|` takes 2^31 − 1 values (seed 2^31 − 1 deals as seed 0), so a
//! program deals one of at most that many decks, and one deal of 17 cards or more names
//! its seed. Without a seed, .NET Framework seeds from `Environment.TickCount` and Mono
//! from a generator of its own, both an `int`: the same seeds. .NET 6 and later without a
//! seed use xoshiro256** instead, which no runtime here could check, so it is not
//! modelled. The filter ([`lanes`]) seeds many generators side by side and keeps those
//! whose first draw matches.

use std::ops::Range;

use super::draws::Draw;
use super::seeded::{Draws, SeededRuntime};
use super::{About, Seed, ShuffleCode};

mod lanes;

/// `int.MaxValue`, the modulus the subtractive generator reduces by.
const MBIG: i32 = i32::MAX;
/// Knuth's seed constant.
const MSEED: i32 = 161_803_398;
/// Words of state (the first, `a[0]`, is never used).
const WORDS: usize = 56;
/// Where the second tap starts: 21 (Knuth's 31, as .NET has it wrong).
const FIRST_TAP: usize = 21;

/// The 56 words `new Random(seed)` leaves, for `|seed|` = `magnitude`.
#[inline(always)]
fn seeded_words(magnitude: i32) -> [i32; WORDS] {
    let mut words = [0i32; WORDS];
    let mut mj = MSEED.wrapping_sub(magnitude);
    words[55] = mj;
    let mut mk: i32 = 1;
    for i in 1..55 {
        let at = (21 * i) % 55;
        words[at] = mk;
        mk = mj.wrapping_sub(mk);
        if mk < 0 {
            mk = mk.wrapping_add(MBIG);
        }
        mj = words[at];
    }
    for _ in 1..5 {
        for i in 1..56 {
            words[i] = words[i].wrapping_sub(words[1 + (i + 30) % 55]);
            if words[i] < 0 {
                words[i] = words[i].wrapping_add(MBIG);
            }
        }
    }
    words
}

/// `(int)(sample · (1.0 / int.MaxValue) · bound)`, as `Next(bound)` computes it.
#[inline(always)]
fn scaled(sample: i32, bound: u32) -> u32 {
    (f64::from(sample) * (1.0 / f64::from(MBIG)) * f64::from(bound)) as u32
}

/// `System.Random` after `new Random(seed)`.
#[derive(Clone, Debug)]
pub struct DotnetRandom {
    words: [i32; WORDS],
    next: usize,
    next_tap: usize,
}

impl DotnetRandom {
    /// `new Random(seed)`.
    pub fn new(seed: i32) -> Self {
        let magnitude = if seed == i32::MIN {
            MBIG
        } else {
            seed.wrapping_abs()
        };
        Self {
            words: seeded_words(magnitude),
            next: 0,
            next_tap: FIRST_TAP,
        }
    }

    /// `InternalSample()`: a value in `0..int.MaxValue`.
    pub fn sample(&mut self) -> i32 {
        self.next = if self.next + 1 >= WORDS { 1 } else { self.next + 1 };
        self.next_tap = if self.next_tap + 1 >= WORDS {
            1
        } else {
            self.next_tap + 1
        };
        let mut value = self.words[self.next].wrapping_sub(self.words[self.next_tap]);
        if value == MBIG {
            value -= 1;
        }
        if value < 0 {
            value = value.wrapping_add(MBIG);
        }
        self.words[self.next] = value;
        value
    }

    /// `Next(bound)`.
    pub fn next_below(&mut self, bound: u32) -> u32 {
        let sample = self.sample();
        scaled(sample, bound)
    }
}

impl Draws for DotnetRandom {
    fn below(&mut self, bound: u32) -> u32 {
        self.next_below(bound)
    }

    fn boxed(&self) -> Box<dyn Draws> {
        Box::new(self.clone())
    }
}

/// .NET's `System.Random`.
pub struct Dotnet;

static ABOUT: About = About {
    name: "dotnet",
    aliases: &[],
    summary: "System.Random: new Random(seed), or new Random() on .NET Framework and Mono",
    generator: ".NET's System.Random",
    state_bits: 31,
    shuffles: &[ShuffleCode {
        name: "Next(i + 1)",
        code: "var rng = new Random(seed); for (int i = a.Length - 1; i > 0; i--) { int j = rng.Next(i + 1); \
               (a[i], a[j]) = (a[j], a[i]); }",
    }],
    versions: "new Random(seed) on every .NET (Framework, Core, .NET 5 to 9, Mono), and new Random() on .NET \
               Framework (seeded from Environment.TickCount) and Mono (from an int of its own); not .NET 6 and \
               later's new Random() without a seed (xoshiro256**); checked against Mono 6.8",
    instead: "RandomNumberGenerator.GetInt32(i + 1) for each draw, or (.NET 8+) RandomNumberGenerator.Shuffle(deck)",
    min_cards: 3,
};

impl SeededRuntime for Dotnet {
    fn about(&self) -> &'static About {
        &ABOUT
    }

    /// `|seed|` from 0 to 2^31 − 2: 2^31 − 1 (and `int.MinValue`) deals as 0.
    fn seeds(&self) -> Range<u64> {
        0..MBIG as u64
    }

    fn generator(&self, _shuffle: usize, seed: u64) -> Box<dyn Draws> {
        Box::new(DotnetRandom::new(seed as i32))
    }

    fn seed(&self, seed: u64) -> Seed {
        let also = if seed == 0 {
            ", new Random(int.MaxValue) or new Random(int.MinValue)".to_string()
        } else {
            format!(" or new Random(-{seed})")
        };
        Seed {
            value: seed as i64,
            usage: format!("new Random({seed}){also}"),
        }
    }

    fn filter(&self, _shuffle: usize, draws: &[Draw], seeds: Range<u64>, out: &mut Vec<u64>) {
        lanes::filter(draws, seeds, out);
    }
}

#[cfg(test)]
mod tests;
