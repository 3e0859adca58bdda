//! Cycle counts of decks of at most 64 cards without walking them: a handful of 64-byte
//! permutes per deck, on processors that have them (AVX-512 VBMI).
//!
//! Walking a deck's cycles follows it card by card, each step waiting for the load
//! before; even eight decks walked side by side
//! ([`super::structure::cycle_counts_side_by_side`]) take `n` dependent steps of several
//! instructions each, and on 52-card decks that walk was a quarter of `run`'s time
//! (issue 15). Here the whole deck sits in one 64-byte register and every position learns
//! the lowest position of its cycle by doubling: with `p` the deck and `m` the positions
//! themselves, each round takes `m[i] ← min(m[i], m[p[i]])` and then `p ← p∘p`, so after
//! `t` rounds `m[i]` is the least of `i, p(i), …, p^(2^t − 1)(i)`. Once `2^t ≥ n` that is
//! the least position of `i`'s cycle, and a cycle is counted at its least position: the
//! positions with `m[i] = i`. Each round is two byte permutes (`vpermb`) and a minimum,
//! six rounds for 52 cards, with no branch and no dependence between decks.
//!
//! The counts are exactly those of the walk (the tests compare them on every size up to
//! 64, and the engine's tests compare the batched tallies with the plain ones). Where the
//! processor lacks the instructions, or the compiler (before Rust 1.89, see `build.rs`),
//! [`count_cycles`] declines and the walk is used.

/// Counts the cycles of each `n`-card deck laid end to end in `cards` into `counts`
/// (`counts[c]` for a deck of `c` cycles), if the processor can and `n <= 64`; returns
/// whether it did (otherwise it counted nothing).
pub(super) fn count_cycles(counts: &mut [u64], cards: &[u16], n: usize) -> bool {
    #[cfg(all(target_arch = "x86_64", avx512_intrinsics))]
    if (1..=64).contains(&n) && available() {
        assert_eq!(cards.len() % n, 0, "whole decks of {n} cards");
        assert!(counts.len() > n, "a counter for every cycle count");
        // SAFETY: the processor has every feature the function enables (checked above).
        unsafe { x86::count_cycles(counts, cards, n) };
        return true;
    }
    let _ = (counts, cards, n);
    false
}

/// Whether this processor has the 64-byte byte permutes (`std` caches the answer).
pub(super) fn available() -> bool {
    #[cfg(all(target_arch = "x86_64", avx512_intrinsics))]
    {
        std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512bw")
            && std::arch::is_x86_feature_detected!("avx512vbmi")
    }
    #[cfg(not(all(target_arch = "x86_64", avx512_intrinsics)))]
    {
        false
    }
}

#[cfg(all(target_arch = "x86_64", avx512_intrinsics))]
#[clippy::msrv = "1.89"]
mod x86 {
    use std::arch::x86_64::*;

    /// [`super::count_cycles`] on a processor with AVX-512 F, BW and VBMI, for
    /// `1 <= n <= 64` and whole decks whose cards are below `n`.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    pub(super) fn count_cycles(counts: &mut [u64], cards: &[u16], n: usize) {
        let positions: [u8; 64] = std::array::from_fn(|i| i as u8);
        // SAFETY: 64 bytes read from an array of 64 bytes.
        let identity = unsafe { _mm512_loadu_si512(positions.as_ptr().cast()) };
        // Positions `n..64` are not cards: each holds itself, a cycle of its own that is
        // not counted.
        let padding: u64 = if n == 64 { 0 } else { u64::MAX << n };
        let low: __mmask32 = lanes(n.min(32));
        let high: __mmask32 = lanes(n.saturating_sub(32));
        // Rounds until `2^rounds >= n`, the longest cycle.
        let rounds = usize::BITS - (n - 1).leading_zeros();
        for deck in cards.chunks_exact(n) {
            let start = deck.as_ptr();
            // SAFETY: the masked loads read only the deck's `n` cards (lanes beyond them
            // are masked off, and masked-off lanes are never accessed).
            let (low, high) = unsafe {
                (
                    _mm512_maskz_loadu_epi16(low, start.cast()),
                    _mm512_maskz_loadu_epi16(high, start.wrapping_add(32).cast()),
                )
            };
            let bytes = _mm512_inserti64x4::<1>(
                _mm512_castsi256_si512(_mm512_cvtepi16_epi8(low)),
                _mm512_cvtepi16_epi8(high),
            );
            let mut p = _mm512_mask_blend_epi8(padding, bytes, identity);
            let mut least = identity;
            for _ in 0..rounds {
                least = _mm512_min_epu8(least, _mm512_permutexvar_epi8(p, least));
                p = _mm512_permutexvar_epi8(p, p);
            }
            let cycles = (_mm512_cmpeq_epi8_mask(least, identity) & !padding).count_ones();
            counts[cycles as usize] += 1;
        }
    }

    /// A mask of the first `count <= 32` lanes.
    fn lanes(count: usize) -> __mmask32 {
        if count >= 32 {
            u32::MAX
        } else {
            (1u32 << count) - 1
        }
    }
}

#[cfg(test)]
mod tests;
