//! C's `srand(s)` / `rand()` under the textbook shuffle
//! `for (i = n - 1; i > 0; i--) { j = rand() % (i + 1); swap }`, in the two C libraries
//! that most programs link: glibc's and Microsoft's. Recovered by trying every seed.
//!
//! Why it is recoverable: `srand` takes an `unsigned int`, so such a program deals one of
//! at most 2^32 decks, and one deal of 52 cards names its seed.
//! - glibc (`random_r`'s TYPE_3): `srand(s)` fills 31 words with `r[0] = s` (taking 0
//!   as 1) and `r[i] = 16807 · r[i-1] mod (2^31 - 1)` (Schrage's method in `srandom_r`,
//!   on the seed as a signed `int32_t`: seeds from 2^31 on are negative), throws away
//!   310 outputs, then each `rand()` is `(r[k] = r[k-31] + r[k-3]) >> 1` modulo 2^32.
//!   Checked against glibc 2.36's deals (Debian 12, `scripts/seeded/c_rand.c`).
//! - Microsoft's C runtime: `state = state · 214013 + 2531011`, `rand()` = bits 16..30,
//!   the catalogue's source `msvc-rand-mod` ([`MsvcRand`], reused here). Bit 31 of the
//!   state never reaches an output, so seeds `s` and `s + 2^31` deal the same decks: the
//!   search finds both and predicts the same next deals. Not checked against a real
//!   Microsoft runtime (no Windows here): against `MsvcRand`'s test of its known outputs.
//!
//! The search ([`lanes`]): glibc's additive recurrence is linear modulo 2^32, so each
//! output is a fixed combination of the 31 seeded words, and each seeded word of
//! consecutive seeds steps by a constant modulo 2^31 - 1; Microsoft's k-th output is one
//! multiply-add of the seed. Both check the first draw for many seeds at a time.

use std::ops::Range;

use super::draws::Draw;
use super::seeded::{Draws, SeededRuntime};
use super::{About, Seed, ShuffleCode};
use crate::randomness::MsvcRand;

static ABOUT: About = About {
    name: "c-rand",
    aliases: &[],
    summary: "srand/rand, glibc or Microsoft",
    generator: "C's srand(s)/rand() (glibc's TYPE_3 additive generator, or Microsoft's LCG)",
    state_bits: 32,
    shuffles: &[
        ShuffleCode {
            name: "glibc rand() % (i + 1)",
            code: "srand(s); for (i = n - 1; i > 0; i--) { j = rand() % (i + 1); swap(&deck[i], &deck[j]); }",
        },
        ShuffleCode {
            name: "Microsoft rand() % (i + 1)",
            code: "srand(s); for (i = n - 1; i > 0; i--) { j = rand() % (i + 1); swap(&deck[i], &deck[j]); }",
        },
    ],
    versions: "glibc since 2.0 (checked against glibc 2.36, Debian 12, gcc 12); Microsoft's C runtime (rand() as the catalogue's msvc-rand-mod models it; not checked on Windows)",
    instead: "getrandom() (or arc4random_uniform() where there is one) for each draw; on Windows, BCryptGenRandom or rand_s()",
    min_cards: 3,
};

/// C's `srand`/`rand()`: shuffle 0 is glibc's, shuffle 1 Microsoft's.
pub struct CRand;

/// The shuffle number of glibc's `rand()`, and of Microsoft's.
pub const GLIBC: usize = 0;
pub const MICROSOFT: usize = 1;

/// The modulus of `srandom_r`'s seeding, `2^31 - 1`.
pub const MODULUS: u32 = 2_147_483_647;
/// Its multiplier.
pub const MULTIPLIER: u32 = 16_807;
/// Words of glibc's TYPE_3 state, the distance of its second tap, and the outputs
/// `srand` throws away.
pub const DEGREE: usize = 31;
pub const SEPARATION: usize = 3;
pub const DISCARDED: usize = 310;

/// glibc's `random_r` in TYPE_3 (the state `srand`/`rand` use), as `rand() % bound`.
#[derive(Clone, Debug)]
pub struct GlibcRand {
    state: [u32; DEGREE],
    front: usize,
    rear: usize,
}

impl GlibcRand {
    /// `srand(seed)`, as `srandom_r` does it.
    pub fn new(seed: u32) -> Self {
        let mut random = Self {
            state: seeded_words(seed),
            front: SEPARATION,
            rear: 0,
        };
        for _ in 0..DISCARDED {
            random.rand();
        }
        random
    }

    /// `rand()`: a value in `0..2^31`.
    pub fn rand(&mut self) -> u32 {
        let value = self.state[self.front].wrapping_add(self.state[self.rear]);
        self.state[self.front] = value;
        self.front = (self.front + 1) % DEGREE;
        self.rear = (self.rear + 1) % DEGREE;
        value >> 1
    }
}

/// The 31 words `srandom_r(seed)` writes: `seed` (0 taken as 1), then each word 16807
/// times the one before modulo 2^31 - 1. glibc computes that with Schrage's method on an
/// `int32_t` holding the seed, so a seed of 2^31 or more is taken as the negative
/// `seed - 2^32` (its words are those of `seed - 2^31 - 1`, not of `seed mod (2^31 - 1)`).
pub fn seeded_words(seed: u32) -> [u32; DEGREE] {
    let seed = seed.max(1);
    let mut words = [seed; DEGREE];
    let mut word = i64::from(seed as i32).rem_euclid(i64::from(MODULUS)) as u64;
    for slot in words.iter_mut().skip(1) {
        word = word * u64::from(MULTIPLIER) % u64::from(MODULUS);
        *slot = word as u32;
    }
    words
}

impl Draws for GlibcRand {
    fn below(&mut self, bound: u32) -> u32 {
        self.rand() % bound
    }
    fn boxed(&self) -> Box<dyn Draws> {
        Box::new(self.clone())
    }
}

/// Microsoft's `rand()` after `srand(seed)`, as `rand() % bound`.
#[derive(Clone, Debug)]
pub struct MicrosoftRand(pub MsvcRand);

impl Draws for MicrosoftRand {
    fn below(&mut self, bound: u32) -> u32 {
        self.0.rand() % bound
    }
    fn boxed(&self) -> Box<dyn Draws> {
        Box::new(self.clone())
    }
}

impl SeededRuntime for CRand {
    fn about(&self) -> &'static About {
        &ABOUT
    }

    fn generator(&self, shuffle: usize, seed: u64) -> Box<dyn Draws> {
        if shuffle == GLIBC {
            Box::new(GlibcRand::new(seed as u32))
        } else {
            Box::new(MicrosoftRand(MsvcRand::from_state(seed as u32)))
        }
    }

    fn seed(&self, seed: u64) -> Seed {
        Seed {
            value: seed as i64,
            usage: format!("srand({seed})"),
        }
    }

    fn filter(&self, shuffle: usize, draws: &[Draw], seeds: Range<u64>, out: &mut Vec<u64>) {
        lanes::filter(shuffle, draws, seeds, out);
    }
}

mod lanes;

#[cfg(test)]
mod tests;
