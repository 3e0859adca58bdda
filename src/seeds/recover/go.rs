//! Go's `math/rand` (v1) recovered from deals: `rand.New(rand.NewSource(seed))` under
//! `r.Shuffle` and `r.Perm`.
//!
//! The model, as Go's source has it since Go 1 (its value stream is frozen for
//! compatibility; checked against Debian's Go 1.19.8): an additive lagged Fibonacci
//! generator of 607 words (`x = vec[feed] + vec[tap]`, taps 607 and 273), seeded by
//! reducing the seed modulo 2^31−1 (0 becomes 89482311) and running the Park–Miller
//! generator `x ← 48271·x mod (2^31−1)` from it: 20 steps thrown away, then three steps
//! per word, `vec[i] = x1 << 40 ^ x2 << 20 ^ x3 ^ rngCooked[i]`. `Int63` masks the
//! sum to 63 bits; `Shuffle` draws `int31n` (Lemire's multiply-shift on `Int63 >> 31`,
//! with its rejection), `Perm` draws `Intn` = `Int31n` (`Int63 >> 32`, masked for a power
//! of two, else `v % n` after rejecting the top), inside out.
//!
//! Why it is fast: the k-th Park–Miller step from `x` is `x·48271^k mod (2^31−1)`, so a
//! word of the seeded state costs three modular multiplications by precomputed powers,
//! not the 1,841 steps of seeding, and the first output needs two words (`vec[333]` and
//! `vec[606]`). The filter computes the first draw of many seeds side by side, keeps the
//! seeds that drew it, and so on draw by draw while enough remain.
//!
//! At most 2^31−1 seeds: every `int64` seed, `time.Now().UnixNano()` included, is one of
//! them modulo 2^31−1, and seed 0 is the generator of seed 89482311.

use std::ops::Range;

use super::draws::{Direction, Draw};
use super::go_cooked::RNG_COOKED;
use super::seeded::{Draws, SeededRuntime};
use super::{About, Seed, ShuffleCode};

/// The Park–Miller modulus, 2^31−1 (`int32max`).
const MODULUS: u64 = (1 << 31) - 1;
/// The Park–Miller multiplier of `seedrand`.
const MULTIPLIER: u64 = 48_271;
/// Words of state, and the distance from the feed back to the tap.
const LEN: usize = 607;
const TAP: usize = 273;
/// The seed Go uses for 0 (the generator would stay at 0 otherwise).
const SEED_OF_ZERO: u32 = 89_482_311;
/// Park–Miller steps of seeding: 20 thrown away, then three per word.
const STEPS: usize = 20 + 3 * LEN;

/// `POWERS[k]` = 48271^k mod (2^31−1): the k-th seeding step from `x` is `x·POWERS[k]`.
static POWERS: [u32; STEPS + 1] = powers();

const fn powers() -> [u32; STEPS + 1] {
    let mut table = [0u32; STEPS + 1];
    let mut power = 1u64;
    let mut k = 0;
    while k <= STEPS {
        table[k] = power as u32;
        power = power * MULTIPLIER % MODULUS;
        k += 1;
    }
    table
}

/// `a·b mod (2^31−1)` for `a, b < 2^31−1`, without a division (so that it vectorises).
#[inline(always)]
fn mul_mod(a: u32, b: u32) -> u32 {
    let product = u64::from(a) * u64::from(b);
    let folded = (product & MODULUS) + (product >> 31);
    (if folded >= MODULUS {
        folded - MODULUS
    } else {
        folded
    }) as u32
}

/// The Park–Miller starting value of search seed `seed` (`0..2^31−1`).
#[inline(always)]
fn start(seed: u32) -> u32 {
    if seed == 0 { SEED_OF_ZERO } else { seed }
}

/// Word `i` of the state seeded from the Park–Miller start `x` (before any output).
#[inline(always)]
fn word(x: u32, i: usize) -> u64 {
    let step = |k: usize| u64::from(mul_mod(x, POWERS[k]));
    let first = 21 + 3 * i;
    (step(first) << 40) ^ (step(first + 1) << 20) ^ step(first + 2) ^ RNG_COOKED[i]
}

/// Output `k` (from 0) of the seeded state, for `k < TAP` (before the taps meet words
/// that outputs rewrote): `vec[333 − k] + vec[606 − k]`, masked to 63 bits.
#[inline(always)]
fn output(x: u32, k: usize) -> u64 {
    word(x, LEN - TAP - 1 - k).wrapping_add(word(x, LEN - 1 - k)) & (u64::MAX >> 1)
}

/// Go's `rngSource`, whole.
#[derive(Clone)]
pub struct GoSource {
    vec: Box<[u64; LEN]>,
    tap: usize,
    feed: usize,
}

impl GoSource {
    /// `rand.NewSource(seed)`.
    pub fn new(seed: i64) -> Self {
        let mut reduced = seed % MODULUS as i64;
        if reduced < 0 {
            reduced += MODULUS as i64;
        }
        let x = start(reduced as u32);
        let mut vec = Box::new([0u64; LEN]);
        for (i, slot) in vec.iter_mut().enumerate() {
            *slot = word(x, i);
        }
        Self {
            vec,
            tap: 0,
            feed: LEN - TAP,
        }
    }

    /// `Int63()`.
    pub fn int63(&mut self) -> u64 {
        self.tap = if self.tap == 0 { LEN - 1 } else { self.tap - 1 };
        self.feed = if self.feed == 0 { LEN - 1 } else { self.feed - 1 };
        let x = self.vec[self.feed].wrapping_add(self.vec[self.tap]);
        self.vec[self.feed] = x;
        x & (u64::MAX >> 1)
    }

    /// `Int31n(n)` (what `Intn` and `Perm` draw for `n < 2^31`).
    pub fn int31n(&mut self, n: u32) -> u32 {
        if n.is_power_of_two() {
            return (self.int63() >> 32) as u32 & (n - 1);
        }
        let max = (1u32 << 31) - 1 - (1u32 << 31) % n;
        loop {
            let v = (self.int63() >> 32) as u32;
            if v <= max {
                return v % n;
            }
        }
    }

    /// The unexported `int31n(n)` of `Shuffle`: Lemire's multiply-shift on `Uint32()`.
    pub fn int31n_lemire(&mut self, n: u32) -> u32 {
        let mut product = ((self.int63() >> 31) as u32 as u64) * u64::from(n);
        if (product as u32) < n {
            let threshold = n.wrapping_neg() % n;
            while (product as u32) < threshold {
                product = ((self.int63() >> 31) as u32 as u64) * u64::from(n);
            }
        }
        (product >> 32) as u32
    }
}

/// Which of Go's shuffles draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum GoShuffle {
    /// `r.Shuffle`: `int31n` (Lemire), descending.
    Shuffle,
    /// `r.Perm`: `Intn` (`Int31n`), inside out.
    Perm,
}

const SHUFFLES: [GoShuffle; 2] = [GoShuffle::Shuffle, GoShuffle::Perm];

/// A Go generator drawing as one of its shuffles draws.
#[derive(Clone)]
struct GoDraws {
    source: GoSource,
    shuffle: GoShuffle,
}

impl Draws for GoDraws {
    fn below(&mut self, bound: u32) -> u32 {
        match self.shuffle {
            GoShuffle::Shuffle => self.source.int31n_lemire(bound),
            GoShuffle::Perm => self.source.int31n(bound),
        }
    }
    fn boxed(&self) -> Box<dyn Draws> {
        Box::new(self.clone())
    }
}

/// One draw as the filter tests it: whether output `out` draws `value` below `bound`
/// without a rejection, and whether a rejection may have taken place (then the seed is
/// passed on to the replay, which knows).
#[derive(Clone, Copy)]
struct Test {
    bound: u32,
    value: u32,
    /// `Perm`, bound not a power of two: the largest `Int31` kept, and `1/bound`.
    max: u32,
    reciprocal: f64,
}

impl Test {
    fn new(draw: Draw) -> Self {
        Test {
            bound: draw.bound,
            value: draw.value,
            max: (1u32 << 31) - 1 - (1u32 << 31) % draw.bound,
            reciprocal: 1.0 / f64::from(draw.bound),
        }
    }

    /// (drew the value, may have rejected) for `Shuffle`'s `int31n`.
    #[inline(always)]
    fn lemire(&self, out: u64) -> (bool, bool) {
        let product = ((out >> 31) as u32 as u64) * u64::from(self.bound);
        (
            (product >> 32) as u32 == self.value,
            (product as u32) < self.bound,
        )
    }

    /// The same for `Perm`'s `Int31n`; the remainder by way of a floating-point
    /// quotient, off by at most one and corrected, so that it vectorises.
    #[inline(always)]
    fn modulo(&self, out: u64) -> (bool, bool) {
        let v = (out >> 32) as u32;
        if self.bound.is_power_of_two() {
            return (v & (self.bound - 1) == self.value, false);
        }
        let quotient = (f64::from(v) * self.reciprocal) as i64;
        let mut rest = i64::from(v) - quotient * i64::from(self.bound);
        if rest < 0 {
            rest += i64::from(self.bound);
        } else if rest >= i64::from(self.bound) {
            rest -= i64::from(self.bound);
        }
        (rest == i64::from(self.value), v > self.max)
    }
}

/// Seeds tested side by side.
const LANES: usize = 16;

/// Seeds left in a block below which the rest go to the replay untested.
const FEW: usize = 4;

/// Draws tested at most (all before the taps meet rewritten words).
const MOST_STAGES: usize = 64;

/// Tests draw `k` on `seeds` (search seeds): appends those that drew it to `kept`, and
/// those that may have rejected to `unsure`.
#[inline(always)]
fn stage(
    shuffle: GoShuffle,
    k: usize,
    test: &Test,
    seeds: &[u32],
    kept: &mut Vec<u32>,
    unsure: &mut Vec<u32>,
) {
    for chunk in seeds.chunks(LANES) {
        let mut lanes = [1u32; LANES];
        lanes[..chunk.len()].copy_from_slice(chunk);
        let mut drew = [false; LANES];
        let mut rejected = [false; LANES];
        for lane in 0..LANES {
            let out = output(start(lanes[lane]), k);
            (drew[lane], rejected[lane]) = match shuffle {
                GoShuffle::Shuffle => test.lemire(out),
                GoShuffle::Perm => test.modulo(out),
            };
        }
        for (lane, &seed) in chunk.iter().enumerate() {
            if rejected[lane] {
                unsure.push(seed);
            } else if drew[lane] {
                kept.push(seed);
            }
        }
    }
}

/// The filter's body, compiled once per instruction set.
#[inline(always)]
fn filter_body(shuffle: GoShuffle, draws: &[Draw], seeds: Range<u64>, out: &mut Vec<u64>) {
    let mut alive: Vec<u32> = (seeds.start as u32..seeds.end as u32).collect();
    let mut kept = Vec::with_capacity(alive.len() / 8);
    let mut unsure = Vec::new();
    for (k, &draw) in draws.iter().enumerate().take(MOST_STAGES) {
        if alive.len() <= FEW {
            break;
        }
        if draw.bound == 1 {
            // Perm's first draw: `Int31() & 0`, which every seed draws.
            continue;
        }
        kept.clear();
        stage(shuffle, k, &Test::new(draw), &alive, &mut kept, &mut unsure);
        std::mem::swap(&mut alive, &mut kept);
    }
    alive.extend(unsure);
    alive.sort_unstable();
    out.extend(alive.into_iter().map(u64::from));
}

#[cfg(all(target_arch = "x86_64", avx512_intrinsics))]
#[clippy::msrv = "1.89"]
#[target_feature(enable = "avx512f,avx512dq")]
unsafe fn filter_avx512(shuffle: GoShuffle, draws: &[Draw], seeds: Range<u64>, out: &mut Vec<u64>) {
    filter_body(shuffle, draws, seeds, out);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn filter_avx2(shuffle: GoShuffle, draws: &[Draw], seeds: Range<u64>, out: &mut Vec<u64>) {
    filter_body(shuffle, draws, seeds, out);
}

/// The fast filter, on the widest instructions this processor has.
fn filter_fast(shuffle: GoShuffle, draws: &[Draw], seeds: Range<u64>, out: &mut Vec<u64>) {
    #[cfg(all(target_arch = "x86_64", avx512_intrinsics))]
    if std::arch::is_x86_feature_detected!("avx512f") && std::arch::is_x86_feature_detected!("avx512dq") {
        // SAFETY: the processor has the features the function enables (checked above).
        return unsafe { filter_avx512(shuffle, draws, seeds, out) };
    }
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: as above.
        return unsafe { filter_avx2(shuffle, draws, seeds, out) };
    }
    filter_body(shuffle, draws, seeds, out);
}

/// Go's `math/rand` from `rand.NewSource(seed)`.
pub struct Go;

static ABOUT: About = About {
    name: "go",
    aliases: &[],
    summary: "rand.NewSource",
    generator: "Go's math/rand",
    state_bits: 31,
    shuffles: &[
        ShuffleCode {
            name: "r.Shuffle",
            code: "r := rand.New(rand.NewSource(seed)); \
                   r.Shuffle(len(a), func(i, j int) { a[i], a[j] = a[j], a[i] })",
        },
        ShuffleCode {
            name: "r.Perm",
            code: "r := rand.New(rand.NewSource(seed)); for i, p := range r.Perm(len(a)) { b[i] = a[p] }",
        },
    ],
    versions: "math/rand (v1) of every Go since Go 1 (its values are frozen for compatibility), and the \
               top-level rand.Shuffle and rand.Perm of Go before 1.20, seeded with 1 unless rand.Seed is \
               called; any int64 seed is one of these modulo 2^31-1 (time.Now().UnixNano() too), and seed 0 \
               is seed 89482311; checked against Go 1.19.8 (Debian)",
    instead: "crypto/rand (rand.Int for each index of the Fisher-Yates loop)",
    min_cards: 3,
};

impl SeededRuntime for Go {
    fn about(&self) -> &'static About {
        &ABOUT
    }

    fn seeds(&self) -> Range<u64> {
        0..MODULUS
    }

    fn direction(&self, shuffle: usize) -> Direction {
        match SHUFFLES[shuffle] {
            GoShuffle::Shuffle => Direction::Descending,
            GoShuffle::Perm => Direction::InsideOut,
        }
    }

    fn generator(&self, shuffle: usize, seed: u64) -> Box<dyn Draws> {
        Box::new(GoDraws {
            source: GoSource::new(seed as i64),
            shuffle: SHUFFLES[shuffle],
        })
    }

    fn seed(&self, seed: u64) -> Seed {
        let also = match seed as u32 {
            0 => format!(", the generator of rand.NewSource({SEED_OF_ZERO})"),
            SEED_OF_ZERO => ", or rand.NewSource(0)".to_string(),
            _ => String::new(),
        };
        Seed {
            value: seed as i64,
            usage: format!(
                "rand.New(rand.NewSource({seed})){also}, or any int64 seed equal to it modulo 2^31-1"
            ),
        }
    }

    fn filter(&self, shuffle: usize, draws: &[Draw], seeds: Range<u64>, out: &mut Vec<u64>) {
        filter_fast(SHUFFLES[shuffle], draws, seeds, out);
    }
}

#[cfg(test)]
mod tests;
