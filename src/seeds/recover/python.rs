//! CPython's `random`: `random.seed(s)` with an integer `0 <= s < 2^32`, then
//! `random.shuffle(deck)`, recovered by trying every seed.
//!
//! Why it is recoverable: `random.seed(s)` runs MT19937's `init_by_array` on the 32-bit
//! words of `abs(s)` (the key `[s]`, and `[0]` for 0), so a program seeded with a small
//! integer (a time stamp, a user id, a round number) deals one of at most 2^32 decks, and
//! one deal of 52 cards names the seed. `random.shuffle` walks the list from the end:
//! `for i in reversed(range(1, len(x))): j = _randbelow(i + 1)`, and `_randbelow(n)`
//! draws `getrandbits(n.bit_length())` (the top bits of one MT output) until it is below
//! `n`. That path has been the same since Python 3.2 (3.11 removed `shuffle`'s `random`
//! argument, not the path), and was checked against CPython 3.11's own deals
//! (`scripts/seeded/python_deal.py`).
//!
//! The search: `init_by_array` costs about 1,250 multiply steps per seed whatever the
//! deal, so the filter ([`lanes`]) runs them for many seeds at a time, in
//! lanes that the compiler turns into AVX-512 or AVX2 instructions, and checks each seed's
//! first draws on the MT outputs computed one at a time from the seeded words.

use std::ops::Range;

use super::draws::Draw;
use super::mt19937::Mt19937;
use super::seeded::{Draws, SeededRuntime};
use super::{About, Seed, ShuffleCode};

static ABOUT: About = About {
    name: "python",
    aliases: &[],
    summary: "random.seed",
    generator: "CPython's random (MT19937, random.seed(n) with 0 <= n < 2^32)",
    state_bits: 32,
    shuffles: &[ShuffleCode {
        name: "random.shuffle",
        code: "random.seed(s); random.shuffle(deck)",
    }],
    versions: "CPython 3.2 and later (random.shuffle's _randbelow path); checked against CPython 3.11.7",
    instead: "secrets.SystemRandom().shuffle(deck) (or random.SystemRandom()), which no output gives away; \
              random.shuffle without random.seed is still a Mersenne Twister whose draws give its state away",
    min_cards: 3,
};

/// CPython's `random` after `random.seed(s)`, `s < 2^32`.
pub struct Python;

/// CPython's generator drawing as `random.shuffle` does: `_randbelow`.
#[derive(Clone, Debug)]
pub struct PythonRandom {
    mt: Mt19937,
}

impl PythonRandom {
    /// `random.seed(seed)`: `init_by_array([seed])` (CPython seeds 0 with the key `[0]`).
    pub fn new(seed: u32) -> Self {
        Self {
            mt: Mt19937::from_key(&[seed]),
        }
    }

    /// `getrandbits(bits)` for `1 <= bits <= 32`: the top bits of one output.
    pub fn getrandbits(&mut self, bits: u32) -> u32 {
        self.mt.next_u32() >> (32 - bits)
    }

    /// `_randbelow(bound)`: `getrandbits(bound.bit_length())` until it is below `bound`.
    pub fn randbelow(&mut self, bound: u32) -> u32 {
        let bits = bit_length(bound);
        loop {
            let r = self.getrandbits(bits);
            if r < bound {
                return r;
            }
        }
    }
}

impl Draws for PythonRandom {
    fn below(&mut self, bound: u32) -> u32 {
        self.randbelow(bound)
    }
    fn boxed(&self) -> Box<dyn Draws> {
        Box::new(self.clone())
    }
}

/// `int.bit_length()` of a bound `>= 1`.
pub(crate) fn bit_length(bound: u32) -> u32 {
    32 - bound.leading_zeros()
}

impl SeededRuntime for Python {
    fn about(&self) -> &'static About {
        &ABOUT
    }

    fn generator(&self, _shuffle: usize, seed: u64) -> Box<dyn Draws> {
        Box::new(PythonRandom::new(seed as u32))
    }

    fn seed(&self, seed: u64) -> Seed {
        Seed {
            value: seed as i64,
            usage: format!("random.seed({seed})"),
        }
    }

    fn filter(&self, _shuffle: usize, draws: &[Draw], seeds: Range<u64>, out: &mut Vec<u64>) {
        lanes::filter(draws, seeds, out);
    }
}

#[cfg(test)]
mod tests;

mod lanes;
