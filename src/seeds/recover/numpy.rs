//! numpy's legacy global generator recovered from deals: the seed of
//! `np.random.seed(s)` (or `np.random.RandomState(s)`) behind `np.random.shuffle` and
//! `np.random.permutation`.
//!
//! The model, checked against real numpy 2.4 (`scripts/seeded/numpy_deal.py`): an
//! integer seed `0 <= s < 2^32` is `init_genrand(s)` of MT19937 (a larger one is refused
//! by numpy). `shuffle` walks the array from its last place down,
//! `for i = n-1..1: j = random_interval(i); swap(i, j)`, and `permutation(n)` shuffles
//! `arange(n)` the same way. `random_interval(i)` masks a 32-bit output to the smallest
//! all-ones number at least `i` and draws again while the result is above `i`: a deck of
//! 52 throws away about one output in five. The legacy stream is frozen (NEP 19), so
//! older numpy deals the same.
//!
//! Not in reach: `np.random.default_rng()` (PCG64 seeded from 128 bits of the operating
//! system) and any program that never calls `np.random.seed` (the legacy generator then
//! seeds itself from 624 words of the system's entropy).
//!
//! Why a search: 2^32 seeds, each tried by [`super::mt_filter`] on the first draws; the
//! test reads two outputs, since the first is thrown away so often.

use std::ops::Range;

use super::draws::Draw;
use super::mt_filter::{self, Bounded, FirstDraw, MtDraws};
use super::seeded::{Draws, SeededRuntime};
use super::{About, Seed, ShuffleCode};

/// The runtime.
pub struct Numpy;

static ABOUT: About = About {
    name: "numpy",
    aliases: &[],
    summary: "legacy np.random.seed",
    generator: "numpy's legacy RandomState (MT19937)",
    state_bits: 32,
    shuffles: &[ShuffleCode {
        name: "np.random.shuffle",
        code: "np.random.shuffle(deck), and np.random.permutation(n) alike: \
               for i in reversed(range(1, n)): j = random_interval(i); deck[i], deck[j] = deck[j], deck[i]",
    }],
    versions: "numpy's legacy seeding, np.random.seed(s) and RandomState(s) with 0 <= s < 2^32 \
               (the legacy stream is frozen); checked against numpy 2.4.6",
    instead: "secrets.SystemRandom().shuffle(deck) (the OS's generator, which no output gives away); \
              np.random.default_rng() without a seed only where deals need not stay unpredictable (PCG64 \
              is not built to keep its state)",
    min_cards: 2,
};

impl SeededRuntime for Numpy {
    fn about(&self) -> &'static About {
        &ABOUT
    }

    fn generator(&self, _shuffle: usize, seed: u64) -> Box<dyn Draws> {
        Box::new(MtDraws::new(seed as u32, Interval))
    }

    fn seed(&self, seed: u64) -> Seed {
        Seed {
            value: seed as i64,
            usage: format!("np.random.seed({seed})"),
        }
    }

    fn filter(&self, _shuffle: usize, draws: &[Draw], seeds: Range<u64>, out: &mut Vec<u64>) {
        mt_filter::filter(Interval, draws, seeds, out);
    }
}

/// numpy's `random_interval(bound - 1)`: masked rejection.
#[derive(Clone, Copy, Debug)]
pub struct Interval;

/// The smallest all-ones number at least `max`.
fn mask_of(max: u32) -> u32 {
    u32::MAX.checked_shr(max.leading_zeros()).unwrap_or(0)
}

impl Bounded for Interval {
    type First = IntervalFirst;

    fn first(self, draw: Draw) -> IntervalFirst {
        let max = draw.bound - 1;
        IntervalFirst {
            mask: mask_of(max),
            max,
            value: draw.value,
        }
    }

    fn below(self, bound: u32, next: &mut impl FnMut() -> u32) -> u32 {
        let max = bound - 1;
        if max == 0 {
            // numpy draws nothing for an interval of one number.
            return 0;
        }
        let mask = mask_of(max);
        loop {
            let value = next() & mask;
            if value <= max {
                return value;
            }
        }
    }
}

/// The first draw's test on the first two outputs: the first masked output is the
/// value; or it is thrown away and the second is the value, or is thrown away too
/// (about one seed in 25 for a deck of 52; the follow-up decides).
#[derive(Clone, Copy, Debug)]
pub struct IntervalFirst {
    mask: u32,
    max: u32,
    value: u32,
}

impl FirstDraw for IntervalFirst {
    const OUTPUTS: usize = 2;

    #[inline(always)]
    fn may(&self, first: u32, second: u32) -> bool {
        let (first, second) = (first & self.mask, second & self.mask);
        (first == self.value) | ((first > self.max) & ((second == self.value) | (second > self.max)))
    }
}

#[cfg(test)]
mod tests;
