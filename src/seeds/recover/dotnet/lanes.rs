//! The fast filter of `dotnet`: the first sample of many seeds computed side by side.
//!
//! Why this shape: seeding costs about 270 subtractions, the same for every seed and
//! without a branch a vector unit cannot take (a negative word gets `int.MaxValue` added:
//! a mask), so groups of `L` seeds run as loops over `[i32; L]` arrays, turned into
//! AVX-512 or AVX2 instructions chosen at run time, with a portable path for other
//! machines. The first draw is then an integer comparison: `Next(bound)` grows with the
//! sample, so the samples that draw a value are one range, found once by bisection
//! through the real arithmetic. Almost every seed dies there; the few left are replayed
//! against every deal by the search.

#![allow(
    clippy::needless_range_loop,
    reason = "each lane loop indexes several arrays by one lane, as the arithmetic reads"
)]

use std::ops::Range;

use super::super::draws::{Draw, values_drawing};
use super::{FIRST_TAP, MBIG, MSEED, WORDS, scaled};

/// Appends to `out`, in order, every seed of `seeds` whose first `Next(bound)` draws
/// `draws[0]` (all of `seeds` when there is no draw).
pub(super) fn filter(draws: &[Draw], seeds: Range<u64>, out: &mut Vec<u64>) {
    let Some(&first) = draws.first() else {
        out.extend(seeds);
        return;
    };
    let samples = samples_drawing(first);
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx512f") {
            // SAFETY: the CPU has AVX-512F (checked just above).
            return unsafe { filter_avx512(samples, seeds, out) };
        }
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2 (checked just above).
            return unsafe { filter_avx2(samples, seeds, out) };
        }
    }
    filter_lanes::<8>(samples, seeds, out);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn filter_avx512(samples: Range<i32>, seeds: Range<u64>, out: &mut Vec<u64>) {
    filter_lanes::<32>(samples, seeds, out);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn filter_avx2(samples: Range<i32>, seeds: Range<u64>, out: &mut Vec<u64>) {
    filter_lanes::<16>(samples, seeds, out);
}

/// The same on the portable path, whatever the processor (for the tests).
#[cfg(test)]
pub(super) fn filter_portable(draws: &[Draw], seeds: Range<u64>, out: &mut Vec<u64>) {
    filter_lanes::<8>(samples_drawing(draws[0]), seeds, out);
}

/// The samples whose `Next(draw.bound)` is `draw.value` (empty when none is).
fn samples_drawing(draw: Draw) -> Range<i32> {
    let samples = values_drawing(draw, MBIG as u64, |sample| scaled(sample as i32, draw.bound));
    samples.start as i32..samples.end as i32
}

#[inline(always)]
fn filter_lanes<const L: usize>(samples: Range<i32>, seeds: Range<u64>, out: &mut Vec<u64>) {
    let mut start = seeds.start;
    while start < seeds.end {
        let mut magnitude = [0i32; L];
        for lane in 0..L {
            // Past the end, lanes repeat the last seed; they are not reported.
            magnitude[lane] = (start + lane as u64).min(seeds.end - 1) as i32;
        }
        let sample = first_samples(&magnitude);
        for lane in 0..L {
            let seed = start + lane as u64;
            if seed < seeds.end && samples.contains(&sample[lane]) {
                out.push(seed);
            }
        }
        start += L as u64;
    }
}

/// The stirring steps the first sample depends on, in order.
struct Stirs {
    /// `(word, tap)`: `a[word] −= a[tap]`, reduced.
    steps: [(u8, u8); 4 * 55],
    len: usize,
}

/// The four rounds of `a[i] −= a[1 + (i + 30) mod 55]` cut to the steps whose result the
/// first sample (`a[1] − a[22]`) reads, directly or through later steps: walking the
/// steps backwards, a step is kept when its word is still needed, and then needs its tap
/// too. About half of the 220 steps survive, which halves the filter's time.
static STIRS: Stirs = stirs();

const fn stirs() -> Stirs {
    let mut needed = [false; WORDS];
    needed[1] = true;
    needed[FIRST_TAP + 1] = true;
    let mut kept = [(0u8, 0u8); 4 * 55];
    let mut len = 0;
    let mut step = 4 * 55;
    while step > 0 {
        step -= 1;
        let word = 1 + step % 55;
        let tap = 1 + (word + 30) % 55;
        if needed[word] {
            needed[tap] = true;
            kept[len] = (word as u8, tap as u8);
            len += 1;
        }
    }
    // Collected backwards: put them in the order they run.
    let mut steps = [(0u8, 0u8); 4 * 55];
    let mut at = 0;
    while at < len {
        steps[at] = kept[len - 1 - at];
        at += 1;
    }
    Stirs { steps, len }
}

/// `x` plus `int.MaxValue` where it is negative, as the generator reduces.
#[inline(always)]
fn reduced(x: i32) -> i32 {
    x.wrapping_add((x >> 31) & MBIG)
}

/// The first `InternalSample()` of `new Random(m)` for each magnitude `m` of `magnitude`.
#[inline(always)]
fn first_samples<const L: usize>(magnitude: &[i32; L]) -> [i32; L] {
    let mut words = [[0i32; L]; WORDS];
    let mut mj = [0i32; L];
    let mut mk = [1i32; L];
    for lane in 0..L {
        mj[lane] = MSEED.wrapping_sub(magnitude[lane]);
        words[55][lane] = mj[lane];
    }
    for i in 1..55 {
        let at = (21 * i) % 55;
        for lane in 0..L {
            words[at][lane] = mk[lane];
            mk[lane] = reduced(mj[lane].wrapping_sub(mk[lane]));
            mj[lane] = words[at][lane];
        }
    }
    for &(word, tap) in &STIRS.steps[..STIRS.len] {
        let (word, tap) = (usize::from(word), usize::from(tap));
        for lane in 0..L {
            words[word][lane] = reduced(words[word][lane].wrapping_sub(words[tap][lane]));
        }
    }
    let mut sample = [0i32; L];
    for lane in 0..L {
        let mut value = words[1][lane].wrapping_sub(words[FIRST_TAP + 1][lane]);
        value -= i32::from(value == MBIG);
        sample[lane] = reduced(value);
    }
    sample
}
