//! Counting the distinct orders of billions of deals in bounded memory: adaptive
//! distinct sampling (Wegman's adaptive sampling, as Flajolet analysed it in 1990).
//!
//! Past 12 cards no table of every order fits in memory (13! bits is 778 MB, 52! is
//! beyond counting), and a set of every order dealt would hold up to 2^32 decks. Instead
//! every deal gets a 64-bit hash of its order, and only the orders whose hash falls in
//! the lowest `2^-level` of the hash range are kept, each once. Whether an order is kept
//! depends on the order alone, not on how often or by which seed it was dealt, so the
//! kept set is a uniform sample of the *distinct* orders at rate `2^-level`; `kept ·
//! 2^level` estimates their number, with a relative standard error of about
//! `1/sqrt(kept)`. When the set outgrows its capacity the level goes up by one and the
//! orders above the new threshold are dropped.
//!
//! The level that ends a run is the smallest one at which the distinct orders kept fit
//! the capacity. That is a property of the set of orders dealt, not of the order in which
//! they arrived, so merging samples built by any number of threads in any order gives the
//! same final sample, bit for bit ([`DistinctSample::absorb`]): the result does not
//! depend on `--threads`.
//!
//! Each kept order is stored as a 128-bit fingerprint: the 64-bit hash that decides the
//! sampling, and a second one computed differently. Two different orders are merged into
//! one only if both collide (about one chance in 2^128 per pair), which at 2^40 deals
//! (at most 2^80 pairs) stays below one in 2^48.

use crate::randomness::splitmix64_mix;

/// A dealt order as the sample keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Fingerprint {
    /// The hash that decides whether the order is kept (see `sampling_hash`).
    pub sampling: u64,
    /// A second, differently computed hash, to tell apart orders whose first one collides.
    pub check: u64,
}

impl Fingerprint {
    /// The fingerprint of `order`.
    pub fn of(order: &[u16]) -> Self {
        Self {
            sampling: sampling_hash(order),
            check: check_hash(order),
        }
    }
}

/// The hash that decides sampling, computed for every deal and so built for speed: the
/// cards, four to a 64-bit word, taken two words at a time, each pair combined by the
/// folded 128-bit product of wyhash (`mum`) with keys of its own position, the products
/// added up, and the sum mixed by SplitMix64's finaliser. The products do not depend on
/// each other, so the processor overlaps them; each position has its own keys, so moving
/// cards between words changes the hash. Every 16-bit lane of a key has its top bit set
/// and cards are below 2^15, so no factor is ever zero (which would erase its partner).
#[inline]
pub fn sampling_hash(order: &[u16]) -> u64 {
    let mut sum = (order.len() as u64).wrapping_mul(SAMPLING_KEY);
    let mut key = SAMPLING_KEY;
    let mut words = words(order);
    while let Some(first) = words.next() {
        let second = words.next().unwrap_or(0);
        let first_key = key | LANE_TOPS;
        let second_key = key.rotate_left(32).wrapping_add(GOLDEN_GAMMA) | LANE_TOPS;
        sum = sum.wrapping_add(mum(first ^ first_key, second ^ second_key));
        key = key.wrapping_add(GOLDEN_GAMMA);
    }
    splitmix64_mix(sum)
}

/// The 128-bit product of `a` and `b`, its halves XOR-ed together (wyhash's `mum`).
#[inline(always)]
fn mum(a: u64, b: u64) -> u64 {
    let product = u128::from(a) * u128::from(b);
    (product as u64) ^ (product >> 64) as u64
}

/// The top bit of each 16-bit lane.
const LANE_TOPS: u64 = 0x8000_8000_8000_8000;

/// The check hash: the same words folded through one chain of mixes with another key
/// and a rotation between steps, so that it does not collide where [`sampling_hash`]
/// does. Computed only for the few orders the sample keeps.
pub fn check_hash(order: &[u16]) -> u64 {
    words(order).fold(CHECK_KEY ^ order.len() as u64, |hash, word| {
        splitmix64_mix(hash.rotate_left(29) ^ word).wrapping_add(CHECK_KEY)
    })
}

/// The cards, four to a word (the last word padded with zeros).
#[inline(always)]
fn words(order: &[u16]) -> impl Iterator<Item = u64> + '_ {
    let pack = |cards: &[u16]| {
        cards
            .iter()
            .enumerate()
            .fold(0, |word, (i, &card)| word | u64::from(card) << (16 * i))
    };
    let whole = order.chunks_exact(4);
    let rest = whole.remainder();
    whole.map(pack).chain((!rest.is_empty()).then(|| pack(rest)))
}

const SAMPLING_KEY: u64 = 0x243F_6A88_85A3_08D3;
const CHECK_KEY: u64 = 0x1319_8A2E_0370_7344;
const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// The largest sampling hash kept at `level`: the lowest `2^-level` of the range.
#[inline]
pub fn highest_kept(level: u32) -> u64 {
    u64::MAX.checked_shr(level).unwrap_or(0)
}

/// The distinct orders seen whose sampling hash is at most `highest_kept(level)`,
/// with the level raised whenever more than `capacity` of them would be kept.
#[derive(Clone, Debug)]
pub struct DistinctSample {
    capacity: usize,
    level: u32,
    /// Fingerprints at or below the level's threshold, possibly repeated since the last
    /// compaction.
    entries: Vec<Fingerprint>,
}

/// A finished sample: how many distinct orders it kept, at what rate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DistinctCount {
    /// Distinct fingerprints kept.
    pub kept: u64,
    /// They are the orders whose sampling hash is in the lowest `2^-level` of its range.
    pub level: u32,
}

impl DistinctCount {
    /// Whether every distinct order was kept, so that `kept` is the count itself.
    pub fn is_exact(&self) -> bool {
        self.level == 0
    }

    /// The estimated number of distinct orders: `kept · 2^level`.
    pub fn estimate(&self) -> f64 {
        self.kept as f64 * 2f64.powi(self.level as i32)
    }

    /// The standard error of [`DistinctCount::estimate`]: each of `D` distinct orders is
    /// kept with probability `p = 2^-level`, so `kept` is binomial and the estimate
    /// `kept / p` has variance `D(1 - p)/p`, estimated by `kept(1 - p)/p²`. Zero when
    /// every order was kept.
    pub fn standard_error(&self) -> f64 {
        let rate = 2f64.powi(-(self.level as i32));
        (self.kept as f64 * (1.0 - rate)).sqrt() / rate
    }
}

impl DistinctSample {
    /// An empty sample that keeps at most `capacity` distinct orders (at least 1).
    pub fn new(capacity: usize) -> Self {
        Self {
            capacity: capacity.max(1),
            level: 0,
            entries: Vec::new(),
        }
    }

    /// The level now: fingerprints whose sampling hash exceeds
    /// `highest_kept(level)` can be dropped before they are absorbed.
    pub fn level(&self) -> u32 {
        self.level
    }

    /// Adds `fingerprints` (any of them, repeated or not; those above the threshold are
    /// ignored), compacting when the entries reach twice the capacity. Absorbing the same
    /// fingerprints in any order and in any batches gives the same finished sample.
    pub fn absorb(&mut self, fingerprints: impl IntoIterator<Item = Fingerprint>) {
        for fingerprint in fingerprints {
            if fingerprint.sampling <= highest_kept(self.level) {
                self.entries.push(fingerprint);
                if self.entries.len() >= 2 * self.capacity {
                    self.compact();
                }
            }
        }
    }

    /// Adds another sample (built from other deals, at any level) into this one.
    pub fn merge(&mut self, other: DistinctSample) {
        // Above its own level `other` has dropped orders: nothing above it may stay.
        self.raise_to(other.level);
        self.absorb(other.entries);
    }

    /// The distinct orders kept and the level that holds them.
    pub fn finish(mut self) -> DistinctCount {
        self.compact();
        DistinctCount {
            kept: self.entries.len() as u64,
            level: self.level,
        }
    }

    /// Removes repeats, then raises the level until the distinct entries fit.
    fn compact(&mut self) {
        self.entries.sort_unstable();
        self.entries.dedup();
        // Level 64 keeps only the hash 0: more than `capacity` orders there is
        // unthinkable, but the loop must end all the same.
        while self.entries.len() > self.capacity && self.level < u64::BITS {
            self.raise_to(self.level + 1);
        }
    }

    fn raise_to(&mut self, level: u32) {
        if level > self.level {
            self.level = level;
            let highest = highest_kept(level);
            self.entries.retain(|entry| entry.sampling <= highest);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fingerprints of `count` distinct made-up orders, each repeated `repeats` times.
    fn deals(count: u64, repeats: usize) -> Vec<Fingerprint> {
        (0..count)
            .flat_map(|i| {
                let order: Vec<u16> = (0..8).map(|card| ((i >> (4 * card)) & 0xf) as u16).collect();
                std::iter::repeat_n(Fingerprint::of(&order), repeats)
            })
            .collect()
    }

    #[test]
    fn the_finished_sample_does_not_depend_on_arrival_order_or_batching() {
        let all = deals(20_000, 2);
        let whole = {
            let mut sample = DistinctSample::new(1000);
            sample.absorb(all.iter().copied());
            sample.finish()
        };
        assert!(whole.level > 0, "20,000 orders must not fit in 1,000");
        // Reversed, interleaved, and cut into uneven batches merged from separate samples
        // (as threads would build them, each at its own level).
        let reversed = {
            let mut sample = DistinctSample::new(1000);
            sample.absorb(all.iter().rev().copied());
            sample.finish()
        };
        assert_eq!(reversed, whole);
        for parts in [2, 3, 7] {
            let mut samples: Vec<DistinctSample> = (0..parts).map(|_| DistinctSample::new(1000)).collect();
            for (i, fingerprint) in all.iter().enumerate() {
                samples[(i * 31 + i / 5) % parts].absorb([*fingerprint]);
            }
            let levels: Vec<u32> = samples.iter().map(DistinctSample::level).collect();
            let mut merged = DistinctSample::new(1000);
            for sample in samples.into_iter().rev() {
                merged.merge(sample);
            }
            assert_eq!(merged.finish(), whole, "{parts} parts at levels {levels:?}");
        }
    }

    #[test]
    fn the_level_is_the_smallest_at_which_the_distinct_orders_fit() {
        let all = deals(20_000, 1);
        let mut sample = DistinctSample::new(1000);
        sample.absorb(all.iter().copied());
        let count = sample.finish();
        let below = |level| {
            let mut hashes: Vec<Fingerprint> = all
                .iter()
                .copied()
                .filter(|f| f.sampling <= highest_kept(level))
                .collect();
            hashes.sort_unstable();
            hashes.dedup();
            hashes.len() as u64
        };
        assert_eq!(count.kept, below(count.level));
        assert!(count.kept <= 1000);
        assert!(below(count.level - 1) > 1000);
    }

    #[test]
    fn small_sets_are_counted_exactly_and_repeats_count_once() {
        let mut sample = DistinctSample::new(1 << 10);
        sample.absorb(deals(700, 3));
        let count = sample.finish();
        assert_eq!(count, DistinctCount { kept: 700, level: 0 });
        assert!(count.is_exact());
        assert_eq!(count.estimate(), 700.0);
        assert_eq!(count.standard_error(), 0.0);
    }

    #[test]
    fn the_estimate_is_within_a_few_standard_errors() {
        // 200,000 distinct made-up orders sampled down to at most 4,096: the relative
        // standard error is about 1/sqrt(2,048..4,096), 1.6 to 2.2 %. The hash is fixed,
        // so the outcome is too; a hash that sampled non-uniformly would miss by far more
        // than the 4 standard errors allowed.
        let mut sample = DistinctSample::new(4096);
        let distinct = 200_000u64;
        sample.absorb(
            (0..distinct).map(|i| Fingerprint::of(&[(i & 0xffff) as u16, (i >> 16) as u16, 7, 9, 11])),
        );
        let count = sample.finish();
        assert!(count.level >= 5, "{count:?}");
        let error = (count.estimate() - distinct as f64).abs();
        assert!(
            error <= 4.0 * count.standard_error(),
            "estimate {} ± {} for {distinct}",
            count.estimate(),
            count.standard_error()
        );
        let relative = count.standard_error() / count.estimate();
        assert!((0.01..0.03).contains(&relative), "{relative}");
    }

    #[test]
    fn hashes_tell_orders_apart() {
        let a = Fingerprint::of(&[0, 1, 2, 3, 4]);
        let b = Fingerprint::of(&[0, 1, 2, 4, 3]);
        assert_ne!(a.sampling, b.sampling);
        assert_ne!(a.check, b.check);
        assert_ne!(a.sampling, a.check);
        // The deck size is part of the hash: a card 0 packed into a word is not nothing.
        assert_ne!(sampling_hash(&[1, 0]), sampling_hash(&[1]));
        assert_eq!(highest_kept(0), u64::MAX);
        assert_eq!(highest_kept(1), u64::MAX / 2);
        assert_eq!(highest_kept(64), 0);
    }
}
