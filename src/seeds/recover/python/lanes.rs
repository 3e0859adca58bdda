//! The fast filter of `python`: `init_by_array([seed])` for many seeds at a time, then
//! each seed's first draws checked on the MT outputs they need.
//!
//! Why lanes: `init_by_array` is two chains of 624 multiply steps each, every step
//! depending on the one before, so one seed is a long serial chain that no shortcut is
//! known to skip. Seeds are independent, though: the same step for `L` consecutive seeds
//! is one loop over `[u32; L]` arrays, which LLVM turns into `L / 16` AVX-512 or `L / 8`
//! AVX2 instructions per operation (several independent registers hide the multiply's
//! latency: 128 seeds at a time under AVX-512 and 64 under AVX2 ran 15 % faster than 64
//! and 32 on the development machine's AVX-512 EPYC, and 256 no faster). The kind of machine is detected at run time, as `tally/cycles_wide.rs` does,
//! with a portable path for the others.
//!
//! After seeding, output `k` (for `k < 227`) is `temper(twisted(w[k], w[k+1], w[k+397]))`
//! of the seeded words: each seed's draws are checked one output at a time, and almost
//! every seed dies at its first (a 52-card deal's first draw keeps 13 seeds in 64 alive:
//! one that matches, twelve rejected and drawn again). A seed still alive after 227
//! outputs is passed on whole (it is replayed against every deal anyway).

#![allow(
    clippy::needless_range_loop,
    reason = "each lane loop indexes several arrays by one lane, as the arithmetic reads"
)]

use std::ops::Range;

use super::super::draws::Draw;
use super::super::mt19937::{SHIFT, WORDS, temper, twisted};
use super::{PythonRandom, bit_length};

/// `init_genrand(19650218)`, where `init_by_array` starts.
const INIT: [u32; WORDS] = {
    let mut words = [0u32; WORDS];
    words[0] = 19_650_218;
    let mut i = 1;
    while i < WORDS {
        let previous = words[i - 1];
        words[i] = 1_812_433_253u32
            .wrapping_mul(previous ^ (previous >> 30))
            .wrapping_add(i as u32);
        i += 1;
    }
    words
};

/// The first loop's multiplier, and the second's.
const FIRST: u32 = 1_664_525;
const SECOND: u32 = 1_566_083_941;

/// Outputs whose three words the seeding leaves in place (the rest need a second twist).
const OUTPUTS: usize = WORDS - SHIFT;

/// Appends to `out` every seed of `seeds` whose first draws are `draws` (or that is still
/// alive after [`OUTPUTS`] outputs), in order.
pub(super) fn filter(draws: &[Draw], seeds: Range<u64>, out: &mut Vec<u64>) {
    if draws.is_empty() {
        out.extend(seeds);
        return;
    }
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx512f") {
            // SAFETY: the CPU has AVX-512F (checked just above).
            return unsafe { filter_avx512(draws, seeds, out) };
        }
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2 (checked just above).
            return unsafe { filter_avx2(draws, seeds, out) };
        }
    }
    filter_lanes::<8>(draws, seeds, out);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn filter_avx512(draws: &[Draw], seeds: Range<u64>, out: &mut Vec<u64>) {
    filter_lanes::<128>(draws, seeds, out);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn filter_avx2(draws: &[Draw], seeds: Range<u64>, out: &mut Vec<u64>) {
    filter_lanes::<64>(draws, seeds, out);
}

/// [`filter`] with `L` seeds at a time; the seeds of a last, partial group one by one.
#[inline(always)]
pub(super) fn filter_lanes<const L: usize>(draws: &[Draw], seeds: Range<u64>, out: &mut Vec<u64>) {
    let mut words = vec![[0u32; L]; WORDS];
    let mut start = seeds.start;
    while start + L as u64 <= seeds.end {
        seed_lanes(start as u32, &mut words);
        for lane in 0..L {
            if deals_lane(&words, lane, draws) {
                out.push(start + lane as u64);
            }
        }
        start += L as u64;
    }
    for seed in start..seeds.end {
        let mut random = PythonRandom::new(seed as u32);
        if draws
            .iter()
            .all(|draw| random.randbelow(draw.bound) == draw.value)
        {
            out.push(seed);
        }
    }
}

/// The words `init_by_array([first + lane])` leaves, lane by lane (`words[i][lane]`),
/// as `Mt19937::from_key` computes them.
#[inline(always)]
fn seed_lanes<const L: usize>(first: u32, words: &mut [[u32; L]]) {
    let seeds: [u32; L] = std::array::from_fn(|lane| first.wrapping_add(lane as u32));
    // The first loop: i = 1..624, each word mixed with the one before and the key.
    let mut previous = [INIT[0]; L];
    for i in 1..WORDS {
        let init = INIT[i];
        let row = &mut words[i];
        for lane in 0..L {
            let p = previous[lane];
            let word = (init ^ (p ^ (p >> 30)).wrapping_mul(FIRST)).wrapping_add(seeds[lane]);
            row[lane] = word;
            previous[lane] = word;
        }
    }
    // Its 624th step wraps to i = 1, after word 0 took word 623.
    let mut one = [0u32; L];
    for lane in 0..L {
        let p = previous[lane];
        one[lane] = (words[1][lane] ^ (p ^ (p >> 30)).wrapping_mul(FIRST)).wrapping_add(seeds[lane]);
    }
    // The second loop: i = 2..624, then 1 again.
    previous = one;
    for i in 2..WORDS {
        let row = &mut words[i];
        for lane in 0..L {
            let p = previous[lane];
            let word = (row[lane] ^ (p ^ (p >> 30)).wrapping_mul(SECOND)).wrapping_sub(i as u32);
            row[lane] = word;
            previous[lane] = word;
        }
    }
    for lane in 0..L {
        let p = previous[lane];
        words[1][lane] = (one[lane] ^ (p ^ (p >> 30)).wrapping_mul(SECOND)).wrapping_sub(1);
    }
    words[0] = [0x8000_0000; L];
}

/// Whether the seed in `lane` of `words` draws `draws` (or is still alive when the
/// outputs computable from `words` run out).
#[inline(always)]
fn deals_lane<const L: usize>(words: &[[u32; L]], lane: usize, draws: &[Draw]) -> bool {
    let mut k = 0;
    for draw in draws {
        let drop = 32 - bit_length(draw.bound);
        loop {
            if k >= OUTPUTS {
                return true;
            }
            let output = temper(twisted(
                words[k][lane],
                words[k + 1][lane],
                words[k + SHIFT][lane],
            ));
            k += 1;
            let r = output >> drop;
            if r < draw.bound {
                if r != draw.value {
                    return false;
                }
                break;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::super::super::mt19937::Mt19937;
    use super::*;

    #[test]
    fn the_lanes_seed_as_init_by_array_does() {
        for first in [0u32, 1, 19_650_218, u32::MAX - 7] {
            let mut words = vec![[0u32; 8]; WORDS];
            seed_lanes(first, &mut words);
            for lane in 0..8 {
                let mut mt = Mt19937::from_key(&[first.wrapping_add(lane as u32)]);
                for k in 0..OUTPUTS {
                    let output = temper(twisted(
                        words[k][lane],
                        words[k + 1][lane],
                        words[k + SHIFT][lane],
                    ));
                    assert_eq!(output, mt.next_u32(), "seed {first} + {lane}, output {k}");
                }
            }
        }
    }
}
