//! PHP's `shuffle()` and `str_shuffle()` (PHP 7.1 and later) recovered from deals: the
//! 32-bit seed of `mt_rand`'s MT19937, whether the program called `mt_srand(seed)` or
//! PHP seeded itself.
//!
//! The model, checked against real PHP 8.2 (`scripts/seeded/php.php`): `mt_srand(s)` is
//! `init_genrand(s mod 2^32)`; a program that never seeds gets `init_genrand` of 32
//! random bits on its first draw, so its deals are in the same 2^32. `shuffle()` walks
//! the array from its last place down, `for j = n-1..1: swap(j, mt_rand_range(0, j))`,
//! and `str_shuffle()` walks a string's bytes the same way (the same deals from the same
//! seed). `mt_rand_range(0, j)` takes one 32-bit output (the whole output, not
//! `mt_rand()`'s 31 bits): masked when `j + 1` is a power of two, else redrawn while
//! above `2^32 − 1 − (2^32 − 1) mod (j + 1) − 1`, then taken modulo `j + 1`. (Redraws are
//! rare for decks — about one deal of 64,000 cards in two has one — and the tests deal
//! such decks with real PHP.) `array_rand()` draws through the same range but picks keys
//! and returns them in the array's order: it deals no deck, and is not modelled.
//!
//! Why a search: 2^32 seeds, each tried by [`super::mt_filter`] on the first draws,
//! which is what php_mt_seed does for a single `mt_rand()` output.

use std::ops::Range;

use super::draws::Draw;
use super::mt_filter::{self, Bounded, FirstDraw, MtDraws};
use super::seeded::{Draws, SeededRuntime};
use super::{About, Seed, ShuffleCode};

/// The runtime.
pub struct Php;

static ABOUT: About = About {
    name: "php",
    aliases: &[],
    summary: "shuffle, str_shuffle",
    generator: "PHP's mt_rand (MT19937)",
    state_bits: 32,
    shuffles: &[ShuffleCode {
        name: "shuffle",
        code: "shuffle($deck), and str_shuffle($string) alike: \
               for ($j = count($deck) - 1; $j > 0; $j--) swap($deck[$j], $deck[mt_rand_range(0, $j)]);",
    }],
    versions: "PHP 7.1 and later, seeded by mt_srand($seed) or by PHP itself (mt_rand's MT19937 \
               and its range draw are unchanged since 7.1; PHP 5 and 7.0 drew differently); \
               checked against PHP 8.2.36",
    instead: "random_int(), or (PHP 8.2+) (new Random\\Randomizer(new Random\\Engine\\Secure()))\
              ->shuffleArray($deck)",
    min_cards: 2,
};

impl SeededRuntime for Php {
    fn about(&self) -> &'static About {
        &ABOUT
    }

    fn generator(&self, _shuffle: usize, seed: u64) -> Box<dyn Draws> {
        Box::new(MtDraws::new(seed as u32, RangeDraw))
    }

    fn seed(&self, seed: u64) -> Seed {
        Seed {
            value: seed as i64,
            usage: format!("mt_srand({seed})"),
        }
    }

    fn filter(&self, _shuffle: usize, draws: &[Draw], seeds: Range<u64>, out: &mut Vec<u64>) {
        mt_filter::filter(RangeDraw, draws, seeds, out);
    }
}

/// PHP's `mt_rand_range(0, bound - 1)` (`php_mt_rand_range`, `rand_range32`).
#[derive(Clone, Copy, Debug)]
pub struct RangeDraw;

/// The largest output kept for `bound` (PHP's `limit`, one below the largest multiple
/// of `bound` minus one); `u32::MAX` when `bound` is a power of two, which is masked.
fn limit(bound: u32) -> u32 {
    if bound.is_power_of_two() {
        u32::MAX
    } else {
        u32::MAX - u32::MAX % bound - 1
    }
}

impl Bounded for RangeDraw {
    type First = RangeFirst;

    fn first(self, draw: Draw) -> RangeFirst {
        let shift = draw.bound.trailing_zeros();
        let odd = draw.bound >> shift;
        // The inverse of `odd` modulo 2^32, by Newton's iteration (each step doubles the
        // correct low bits; `odd` is its own inverse modulo 8).
        let mut inverse = odd;
        for _ in 0..4 {
            inverse = inverse.wrapping_mul(2u32.wrapping_sub(odd.wrapping_mul(inverse)));
        }
        RangeFirst {
            limit: limit(draw.bound),
            value: draw.value,
            inverse,
            shift,
            most: u32::MAX / draw.bound,
        }
    }

    fn below(self, bound: u32, next: &mut impl FnMut() -> u32) -> u32 {
        let mut result = next();
        if bound.is_power_of_two() {
            return result & (bound - 1);
        }
        let limit = limit(bound);
        while result > limit {
            result = next();
        }
        result % bound
    }
}

/// The first draw's test: the output is redrawn (then the seed is followed), or its
/// remainder is the value drawn. The remainder is tested without a division (which
/// vector units lack): `output − value` is a multiple of `bound = odd · 2^shift` exactly
/// when multiplying it by `odd`'s inverse and rotating right by `shift` leaves at most
/// `(2^32 − 1) / bound` (Granlund and Montgomery). An output below the value passes
/// the test now and then; the follow-up turns it away.
#[derive(Clone, Copy, Debug)]
pub struct RangeFirst {
    limit: u32,
    value: u32,
    inverse: u32,
    shift: u32,
    most: u32,
}

impl FirstDraw for RangeFirst {
    const OUTPUTS: usize = 1;

    #[inline(always)]
    fn may(&self, first: u32, _second: u32) -> bool {
        let multiple = first
            .wrapping_sub(self.value)
            .wrapping_mul(self.inverse)
            .rotate_right(self.shift)
            <= self.most;
        (first > self.limit) | multiple
    }
}

#[cfg(test)]
mod tests;
