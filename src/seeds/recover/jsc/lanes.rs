//! The fast filter of `jsc`: the first `Math.random` of many seeds side by side.
//!
//! Why this shape: a seed's first draw is two xorshift128+ steps and a sum, the same for
//! every seed, so groups of `L` seeds run as loops over `[u64; L]` arrays, turned into
//! AVX-512 or AVX2 instructions chosen at run time, with a portable path for other
//! machines. `Math.floor(x * bound)` grows with the 53 bits kept, so the values that draw
//! the first card are one range, found once by bisection through the real arithmetic;
//! the test is then two integer comparisons. Almost every seed dies there; the search
//! replays the few left against every deal.

#![allow(
    clippy::needless_range_loop,
    reason = "each lane loop indexes several arrays by one lane, as the arithmetic reads"
)]

use std::ops::Range;

use super::super::draws::{Draw, values_drawing};
use super::{KEPT, advance, drawn, seeded};

/// Appends to `out`, in order, every seed of `seeds` whose first draw is `draws[0]` (all
/// of `seeds` when there is no draw).
pub(super) fn filter(draws: &[Draw], seeds: Range<u64>, out: &mut Vec<u64>) {
    let Some(&first) = draws.first() else {
        out.extend(seeds);
        return;
    };
    let kept = kept_drawing(first);
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx512f") {
            // SAFETY: the CPU has AVX-512F (checked just above).
            return unsafe { filter_avx512(kept, seeds, out) };
        }
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2 (checked just above).
            return unsafe { filter_avx2(kept, seeds, out) };
        }
    }
    filter_lanes::<8>(kept, seeds, out);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn filter_avx512(kept: Range<u64>, seeds: Range<u64>, out: &mut Vec<u64>) {
    filter_lanes::<16>(kept, seeds, out);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn filter_avx2(kept: Range<u64>, seeds: Range<u64>, out: &mut Vec<u64>) {
    filter_lanes::<16>(kept, seeds, out);
}

/// The same on the portable path, whatever the processor (for the tests).
#[cfg(test)]
pub(super) fn filter_portable(draws: &[Draw], seeds: Range<u64>, out: &mut Vec<u64>) {
    filter_lanes::<8>(kept_drawing(draws[0]), seeds, out);
}

/// The 53-bit values whose draw below `draw.bound` is `draw.value` (empty when none is).
pub(super) fn kept_drawing(draw: Draw) -> Range<u64> {
    values_drawing(draw, 1 << KEPT, |kept| drawn(kept, draw.bound))
}

#[inline(always)]
fn filter_lanes<const L: usize>(kept: Range<u64>, seeds: Range<u64>, out: &mut Vec<u64>) {
    let width = kept.end.saturating_sub(kept.start);
    let mut start = seeds.start;
    while start < seeds.end {
        let mut value = [0u64; L];
        for lane in 0..L {
            // Past the end, lanes repeat the last seed; they are not reported.
            let (low, high) = seeded((start + lane as u64).min(seeds.end - 1) as u32);
            let (_, _, sum) = advance(low, high);
            value[lane] = (sum & ((1 << KEPT) - 1)).wrapping_sub(kept.start);
        }
        let mut any = false;
        for lane in 0..L {
            any |= value[lane] < width;
        }
        if any {
            for lane in 0..L {
                let seed = start + lane as u64;
                if seed < seeds.end && value[lane] < width {
                    out.push(seed);
                }
            }
        }
        start += L as u64;
    }
}
