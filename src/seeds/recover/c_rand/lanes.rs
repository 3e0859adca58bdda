//! The fast filters of `c-rand`: each seed's first draw computed for many seeds at a
//! time, the few seeds it keeps checked draw by draw.
//!
//! Why this shape: almost every seed dies at the first draw (one in 52 survives a 52-card
//! deal's), so that draw is all that needs to be fast.
//! - glibc: the additive recurrence `r[k] = r[k-31] + r[k-3]` is linear modulo 2^32, so
//!   output `k` is `(Σ c[k][j] · r[j]) >> 1` with fixed coefficients `c` over the 31
//!   seeded words (found once by running the recurrence on symbols, [`Glibc`]), and each
//!   seeded word `16807^j · s mod (2^31 - 1)` of the next group of seeds is this group's
//!   plus a constant, reduced by one subtraction. No 310 discarded outputs are run.
//! - Microsoft: output `k` is bits 16..30 of `a[k] · s + c[k]`.
//!
//! `x % n == v` is tested without a division: `x - v` is a multiple of `n = m · 2^t`
//! (`m` odd) exactly when `(x - v) · m⁻¹` rotated right by `t` is at most
//! `(2^32 - 1) / n` (Hacker's Delight, 10–17). Groups of `L` seeds are loops over
//! `[u32; L]` arrays, turned into AVX-512 or AVX2 instructions chosen at run time (as
//! `tally/cycles_wide.rs` does), with a portable path for other machines.

#![allow(
    clippy::needless_range_loop,
    reason = "each lane loop indexes several arrays by one lane, as the arithmetic reads"
)]

use std::ops::Range;
use std::sync::OnceLock;

use super::super::draws::Draw;
use super::{DEGREE, DISCARDED, GLIBC, GlibcRand, MODULUS, MULTIPLIER, SEPARATION};
use crate::randomness::MsvcRand;

/// Outputs whose coefficients are kept: a seed still alive after as many draws is
/// passed on (it is replayed against every deal anyway).
const OUTPUTS: usize = 16;

/// Appends to `out`, in order, every seed of `seeds` whose first draws under shuffle
/// `shuffle` ([`GLIBC`] or Microsoft's) are `draws`.
pub(super) fn filter(shuffle: usize, draws: &[Draw], seeds: Range<u64>, out: &mut Vec<u64>) {
    if draws.is_empty() {
        out.extend(seeds);
        return;
    }
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx512f") {
            // SAFETY: the CPU has AVX-512F (checked just above).
            return unsafe { filter_avx512(shuffle, draws, seeds, out) };
        }
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2 (checked just above).
            return unsafe { filter_avx2(shuffle, draws, seeds, out) };
        }
    }
    filter_lanes::<8>(shuffle, draws, seeds, out);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn filter_avx512(shuffle: usize, draws: &[Draw], seeds: Range<u64>, out: &mut Vec<u64>) {
    filter_lanes::<64>(shuffle, draws, seeds, out);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn filter_avx2(shuffle: usize, draws: &[Draw], seeds: Range<u64>, out: &mut Vec<u64>) {
    filter_lanes::<32>(shuffle, draws, seeds, out);
}

/// [`filter`] with `L` seeds at a time.
#[inline(always)]
pub(super) fn filter_lanes<const L: usize>(
    shuffle: usize,
    draws: &[Draw],
    seeds: Range<u64>,
    out: &mut Vec<u64>,
) {
    if shuffle == GLIBC {
        glibc_lanes::<L>(draws, seeds, out);
    } else {
        microsoft_lanes::<L>(draws, seeds, out);
    }
}

/// `x % bound == value`, by a multiplication.
#[derive(Clone, Copy)]
struct Remainder {
    value: u32,
    inverse: u32,
    twos: u32,
    limit: u32,
}

impl Remainder {
    fn new(draw: Draw) -> Self {
        let twos = draw.bound.trailing_zeros();
        let odd = draw.bound >> twos;
        // Newton's iteration doubles the correct low bits: 3, 6, 12, 24, 48.
        let mut inverse = odd;
        for _ in 0..4 {
            inverse = inverse.wrapping_mul(2u32.wrapping_sub(odd.wrapping_mul(inverse)));
        }
        Self {
            value: draw.value,
            inverse,
            twos,
            limit: u32::MAX / draw.bound,
        }
    }

    #[inline(always)]
    fn hit(self, x: u32) -> bool {
        x >= self.value
            && x.wrapping_sub(self.value)
                .wrapping_mul(self.inverse)
                .rotate_right(self.twos)
                <= self.limit
    }
}

/// glibc's outputs as combinations of the seeded words.
struct Glibc {
    /// Output `k`'s value before `>> 1` is `Σ coefficients[k][j] · word[j]` modulo 2^32.
    coefficients: [[u32; DEGREE]; OUTPUTS],
    /// `16807^j mod (2^31 - 1)`: seeded word `j` is this times the seed, reduced.
    powers: [u32; DEGREE],
}

fn glibc() -> &'static Glibc {
    static GLIBC_OUTPUTS: OnceLock<Glibc> = OnceLock::new();
    GLIBC_OUTPUTS.get_or_init(|| {
        // random_r run on symbols: each word a combination of the seeded words.
        let mut state = [[0u32; DEGREE]; DEGREE];
        for (j, word) in state.iter_mut().enumerate() {
            word[j] = 1;
        }
        let (mut front, mut rear) = (SEPARATION, 0);
        let mut coefficients = [[0u32; DEGREE]; OUTPUTS];
        for call in 0..DISCARDED + OUTPUTS {
            let rear_word = state[rear];
            for (sum, add) in state[front].iter_mut().zip(rear_word) {
                *sum = sum.wrapping_add(add);
            }
            if call >= DISCARDED {
                coefficients[call - DISCARDED] = state[front];
            }
            front = (front + 1) % DEGREE;
            rear = (rear + 1) % DEGREE;
        }
        let mut powers = [1u32; DEGREE];
        for j in 1..DEGREE {
            powers[j] = (u64::from(powers[j - 1]) * u64::from(MULTIPLIER) % u64::from(MODULUS)) as u32;
        }
        Glibc { coefficients, powers }
    })
}

fn glibc_deals(seed: u64, draws: &[Draw]) -> bool {
    let mut random = GlibcRand::new(seed as u32);
    draws.iter().all(|draw| random.rand() % draw.bound == draw.value)
}

#[inline(always)]
fn glibc_lanes<const L: usize>(draws: &[Draw], seeds: Range<u64>, out: &mut Vec<u64>) {
    // srand(0) is srand(1): seed 0 does not follow the others' steps; nor does 2^31,
    // where srandom_r's signed seed jumps from 2^31 - 1 to -2^31.
    let mut start = seeds.start;
    if start == 0 && seeds.end > 0 {
        if glibc_deals(0, draws) {
            out.push(0);
        }
        start = 1;
    }
    let half = 1u64 << 31;
    if start < half && seeds.end > half {
        glibc_steps::<L>(draws, start..half, out);
        glibc_steps::<L>(draws, half..seeds.end, out);
    } else {
        glibc_steps::<L>(draws, start..seeds.end, out);
    }
}

/// [`glibc_lanes`] on seeds whose signed values step by one modulo 2^31 - 1 (none is 0,
/// and 2^31 is none but the first).
#[inline(always)]
fn glibc_steps<const L: usize>(draws: &[Draw], seeds: Range<u64>, out: &mut Vec<u64>) {
    let glibc = glibc();
    let first = Remainder::new(draws[0]);
    let mut start = seeds.start;
    if start + L as u64 <= seeds.end {
        let mut words = [[0u32; L]; DEGREE];
        let mut steps = [L as u32; DEGREE];
        for j in 1..DEGREE {
            let power = u64::from(glibc.powers[j]);
            for (lane, word) in words[j].iter_mut().enumerate() {
                *word = (power * signed_seed(start + lane as u64) % u64::from(MODULUS)) as u32;
            }
            steps[j] = (power * L as u64 % u64::from(MODULUS)) as u32;
        }
        words[0] = std::array::from_fn(|lane| (start + lane as u64) as u32);
        let first_output = &glibc.coefficients[0];
        while start + L as u64 <= seeds.end {
            let mut sum = [0u32; L];
            for j in 0..DEGREE {
                let coefficient = first_output[j];
                for lane in 0..L {
                    sum[lane] = sum[lane].wrapping_add(coefficient.wrapping_mul(words[j][lane]));
                }
            }
            let mut any = false;
            let mut hits = [false; L];
            for lane in 0..L {
                hits[lane] = first.hit(sum[lane] >> 1);
                any |= hits[lane];
            }
            if any {
                for lane in (0..L).filter(|&lane| hits[lane]) {
                    if glibc_rest(glibc, &words, lane, draws) {
                        out.push(start + lane as u64);
                    }
                }
            }
            for lane in 0..L {
                words[0][lane] = words[0][lane].wrapping_add(L as u32);
            }
            for j in 1..DEGREE {
                let step = steps[j];
                for lane in 0..L {
                    let word = words[j][lane] + step;
                    words[j][lane] = word.min(word.wrapping_sub(MODULUS));
                }
            }
            start += L as u64;
        }
    }
    out.extend((start..seeds.end).filter(|&seed| glibc_deals(seed, draws)));
}

/// The seed as `srandom_r` multiplies it: a signed `int32_t`, reduced modulo 2^31 - 1.
fn signed_seed(seed: u64) -> u64 {
    i64::from(seed as u32 as i32).rem_euclid(i64::from(MODULUS)) as u64
}

/// Whether the seed in `lane` draws `draws` after its first (or is alive after
/// [`OUTPUTS`] draws).
fn glibc_rest<const L: usize>(
    glibc: &Glibc,
    words: &[[u32; L]; DEGREE],
    lane: usize,
    draws: &[Draw],
) -> bool {
    draws
        .iter()
        .zip(&glibc.coefficients)
        .skip(1)
        .all(|(draw, coefficients)| {
            let sum = (0..DEGREE).fold(0u32, |sum, j| {
                sum.wrapping_add(coefficients[j].wrapping_mul(words[j][lane]))
            });
            (sum >> 1) % draw.bound == draw.value
        })
}

/// Microsoft's `srand(s)` then `rand()`: the state after the first `rand()` is
/// `214013 · s + 2531011`.
#[inline(always)]
fn microsoft_lanes<const L: usize>(draws: &[Draw], seeds: Range<u64>, out: &mut Vec<u64>) {
    let first = Remainder::new(draws[0]);
    let deals = |seed: u64| {
        let mut random = MsvcRand::from_state(seed as u32);
        draws
            .iter()
            .take(OUTPUTS)
            .all(|draw| random.rand() % draw.bound == draw.value)
    };
    let mut start = seeds.start;
    while start + L as u64 <= seeds.end {
        let mut hits = [false; L];
        let mut any = false;
        for lane in 0..L {
            let seed = (start as u32).wrapping_add(lane as u32);
            let state = seed.wrapping_mul(214_013).wrapping_add(2_531_011);
            hits[lane] = first.hit((state >> 16) & 0x7fff);
            any |= hits[lane];
        }
        if any {
            out.extend(
                (0..L)
                    .filter(|&lane| hits[lane])
                    .map(|lane| start + lane as u64)
                    .filter(|&seed| deals(seed)),
            );
        }
        start += L as u64;
    }
    out.extend((start..seeds.end).filter(|&seed| deals(seed)));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_remainder_test_is_the_remainder() {
        for bound in [
            1u32, 2, 3, 4, 6, 7, 8, 12, 13, 51, 52, 64, 96, 1000, 32_768, 65_535,
        ] {
            for value in [0, 1, bound / 2, bound - 1] {
                let value = value.min(bound - 1);
                let remainder = Remainder::new(Draw { bound, value });
                for x in (0..100_000u32).chain((1 << 31) - 100_000..1 << 31) {
                    assert_eq!(remainder.hit(x), x % bound == value, "{x} % {bound} == {value}");
                }
            }
        }
    }

    #[test]
    fn the_combinations_are_glibcs_outputs() {
        let glibc = glibc();
        for seed in [1u32, 2, 42, 2_147_483_647, 2_147_483_648, u32::MAX] {
            let words = super::super::seeded_words(seed);
            let mut random = GlibcRand::new(seed);
            for coefficients in &glibc.coefficients {
                let sum = (0..DEGREE).fold(0u32, |sum, j| {
                    sum.wrapping_add(coefficients[j].wrapping_mul(words[j]))
                });
                assert_eq!(sum >> 1, random.rand(), "seed {seed}");
            }
        }
    }
}
