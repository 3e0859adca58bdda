//! The exact law of one bounded draw under each source, for exact analysis.
//!
//! Exact analysis needs to know how likely each answer of `below(n)` is. For the default
//! source it is `1/n` each. A flawed source maps raw outputs onto answers, and if the
//! raw outputs are taken as uniform and independent (the idealised model, the one in
//! which modulo bias is defined and computed), each answer's probability is the share of
//! raw outputs that give it:
//!
//! - `msvc-rand-mod`: `rand() % n` with `rand()` on `0..32768`: answer `v` has weight
//!   `#{r < 32768 : r % n = v}` over 32,768 (and 0 for `v >= 32768` when `n > 32768`);
//! - `delphi`: `(RandSeed · n) >> 32` with `RandSeed` on `0..2^32`: answer `v` is given by
//!   the seeds from `ceil(v·2^32/n)` up to `ceil((v+1)·2^32/n)`, so its weight is their
//!   difference over `2^32`.
//!
//! The real generators are not independent from draw to draw (they are LCGs); what the
//! model captures is the bias of mapping a uniform raw output onto a range that does not
//! divide it, which is exactly what survives in a simulation of many shuffles. A source
//! re-seeded from a clock has no such law: the clock fixes every shuffle's seed, so its
//! draws are not independent of each other ([`super::SourceKind::draw_law`] says why).
//!
//! One [`DrawLaw`] serves both exact methods: path enumeration multiplies exact integer
//! fractions ([`DrawLaw::fraction`]), the position Markov chain uses their values as
//! floats ([`DrawLaw::probabilities`]), so the two cannot disagree on the model.

/// How a source turns its raw output into an answer of `below(n)`, with raw outputs taken
/// as uniform and independent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawLaw {
    /// Every answer in `0..n` equally likely (the default source).
    Uniform,
    /// `rand() % n`, `rand()` uniform on `0..RAND_RANGE` (Microsoft's C runtime).
    RandMod,
    /// `(seed · n) >> 32`, `seed` uniform on `0..2^32` (Delphi's `Random`).
    MultiplyShift,
}

/// The number of values `rand()` returns: `RAND_MAX + 1`.
pub const RAND_RANGE: u128 = super::MsvcRand::RANGE as u128;

/// `RAND_MAX`, as a `u64` for the arithmetic of every draw.
const RAND_MAX: u64 = super::MsvcRand::RANGE - 1;

/// The number of values of Delphi's 32-bit `RandSeed`.
pub const SEED_RANGE: u128 = 1 << 32;

impl DrawLaw {
    /// The number of raw outputs each weight counts out of: `n` itself for the uniform
    /// law (each answer has weight 1), 32,768 for `rand()`, `2^32` for Delphi's seed.
    pub fn outputs(self, n: u64) -> u128 {
        match self {
            DrawLaw::Uniform => u128::from(n),
            DrawLaw::RandMod => RAND_RANGE,
            DrawLaw::MultiplyShift => SEED_RANGE,
        }
    }

    /// How many of the [`DrawLaw::outputs`] raw outputs give answer `v` of `below(n)`
    /// (0 for an answer that cannot occur, and for `v >= n`).
    ///
    /// # Panics
    /// If `n` is 0.
    pub fn weight(self, v: u64, n: u64) -> u128 {
        assert!(n > 0, "a draw needs at least one answer");
        if v >= n {
            return 0;
        }
        match self {
            DrawLaw::Uniform => 1,
            // r = v, v + n, v + 2n, ... up to RAND_MAX; in u64, since this runs for every
            // draw of every path an enumeration walks.
            DrawLaw::RandMod if v <= RAND_MAX => u128::from((RAND_MAX - v) / n + 1),
            DrawLaw::RandMod => 0,
            // The seeds s with floor(s·n / 2^32) = v are ceil(v·2^32/n) <= s < ceil((v+1)·2^32/n).
            DrawLaw::MultiplyShift => {
                let first_seed = |v: u64| (u128::from(v) * SEED_RANGE).div_ceil(u128::from(n));
                first_seed(v + 1) - first_seed(v)
            }
        }
    }

    /// Answer `v`'s probability as a fraction whose denominator depends on `n` alone:
    /// `(1, n)` when every answer is equally likely (always for the uniform law, and for
    /// `rand() % 8`), else `(weight, outputs)` (`rand() % 3` answers 0 with 10923/32768).
    /// A walk of many paths then meets few denominators (one for a fixed schedule of
    /// bounds), and it adds its sums per denominator. The flawed weights of one bound
    /// differ by at most one (floor or ceiling of outputs/n), so no common factor is lost.
    pub fn fraction(self, v: u64, n: u64) -> (u128, u128) {
        match self.weight(v, n) {
            0 => (0, 1),
            _ if self.is_uniform_for(n) => (1, u128::from(n)),
            weight => (weight, self.outputs(n)),
        }
    }

    /// The possible answer of `below(n)` that follows `v`, if any: `v + 1`, except that
    /// `rand() % n` never reaches 32,768, and Delphi's draws from a range wider than its
    /// 2^32 seeds skip the answers no seed gives.
    pub fn next_answer(self, v: u64, n: u64) -> Option<u64> {
        match self {
            DrawLaw::Uniform => (v + 1 < n).then_some(v + 1),
            DrawLaw::RandMod => (v + 1 < n.min(RAND_MAX + 1)).then_some(v + 1),
            // The first seed after v's seeds, and the answer it gives.
            DrawLaw::MultiplyShift => {
                let seed = ((u128::from(v) + 1) * SEED_RANGE).div_ceil(u128::from(n));
                (seed < SEED_RANGE).then(|| ((seed * u128::from(n)) >> 32) as u64)
            }
        }
    }

    /// How many values a float drawn with `unit()` takes: 32,768 for `rand() / 32768`,
    /// 2^32 for Delphi's `RandSeed / 2^32`; `None` for the default source, whose floats
    /// are not a finite list a walk could follow (2^53 values).
    pub fn float_values(self) -> Option<u128> {
        match self {
            DrawLaw::Uniform => None,
            DrawLaw::RandMod => Some(RAND_RANGE),
            DrawLaw::MultiplyShift => Some(SEED_RANGE),
        }
    }

    /// How many bits the denominator of one answer's probability may take beyond the
    /// bound itself: 15 for `rand()`, 32 for Delphi; `None` for the uniform law.
    pub fn denominator_bits(self) -> Option<u32> {
        match self {
            DrawLaw::Uniform => None,
            DrawLaw::RandMod => Some(RAND_RANGE.trailing_zeros()),
            DrawLaw::MultiplyShift => Some(SEED_RANGE.trailing_zeros()),
        }
    }

    /// Every answer's probability, `0..n`, as floats: exact, since each is a weight below
    /// 2^53 over a power of two or `1/n` rounded once.
    pub fn probabilities(self, n: u64) -> Vec<f64> {
        let outputs = self.outputs(n) as f64;
        (0..n).map(|v| self.weight(v, n) as f64 / outputs).collect()
    }

    /// Whether every answer of `below(n)` is equally likely: always for the uniform law,
    /// and for the flawed ones when `n` divides their number of raw outputs (a power of
    /// two up to 32,768 for `rand() % n`, up to 2^32 for Delphi's).
    pub fn is_uniform_for(self, n: u64) -> bool {
        match self {
            DrawLaw::Uniform => true,
            DrawLaw::RandMod => n > 0 && (RAND_MAX + 1) % n == 0,
            DrawLaw::MultiplyShift => n > 0 && SEED_RANGE % u128::from(n) == 0,
        }
    }

    /// The model the exact figures are computed in, in words, for reports; `None` for the
    /// uniform law, which needs no saying.
    pub fn model(self) -> Option<&'static str> {
        match self {
            DrawLaw::Uniform => None,
            DrawLaw::RandMod => Some(
                "each rand() taken as uniform on 0..32767 and independent of the others; \
                 rand() % n gives v with probability #{r < 32768 : r % n = v} / 32768",
            ),
            DrawLaw::MultiplyShift => Some(
                "each RandSeed taken as uniform on 0..2^32-1 and independent of the others; \
                 Random(n) gives v with probability (ceil((v+1)*2^32/n) - ceil(v*2^32/n)) / 2^32",
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::randomness::{DelphiRandom, MsvcRand, Randomness};

    const LAWS: [DrawLaw; 3] = [DrawLaw::Uniform, DrawLaw::RandMod, DrawLaw::MultiplyShift];

    #[test]
    fn weights_sum_to_the_number_of_raw_outputs() {
        // Every raw output gives exactly one answer: the weights of 0..n add up to all of
        // them (for delphi, 2^32 seeds).
        for law in LAWS {
            for n in (1..=300).chain([1000, 32_767, 32_768, 32_769, 65_537, 100_000]) {
                let sum: u128 = (0..n).map(|v| law.weight(v, n)).sum();
                assert_eq!(sum, law.outputs(n), "{law:?} n = {n}");
                assert_eq!(law.weight(n, n), 0, "{law:?} n = {n}: no answer n");
            }
        }
    }

    #[test]
    fn rand_mod_weights_count_the_outputs_by_hand() {
        // 32768 = 3 · 10922 + 2: remainders 0 and 1 come up 10,923 times, 2 only 10,922.
        let law = DrawLaw::RandMod;
        assert_eq!(
            [law.weight(0, 3), law.weight(1, 3), law.weight(2, 3)],
            [10_923, 10_923, 10_922]
        );
        assert_eq!(law.fraction(0, 3), (10_923, 32_768));
        assert_eq!(law.fraction(1, 2), (1, 2));
        assert_eq!(law.fraction(5, 8), (1, 8));
        // 32768 = 52 · 630 + 8: the first 8 remainders get 631.
        assert_eq!(law.weight(7, 52), 631);
        assert_eq!(law.weight(8, 52), 630);
        // rand() never exceeds 32767.
        assert_eq!(law.weight(32_767, 40_000), 1);
        assert_eq!(law.weight(32_768, 40_000), 0);
        assert_eq!(law.fraction(32_768, 40_000), (0, 1));
        // The same counts, one raw output at a time.
        for n in [3u64, 7, 52, 1000, 40_000] {
            let mut counts = vec![0u128; n as usize];
            for r in 0..32_768u64 {
                counts[(r % n) as usize] += 1;
            }
            for (v, &count) in counts.iter().enumerate() {
                assert_eq!(law.weight(v as u64, n), count, "n = {n}, v = {v}");
            }
        }
    }

    #[test]
    fn multiply_shift_weights_match_the_seeds_that_give_each_answer() {
        // 2^32 seeds are too many to count one by one: check instead that each answer's
        // seeds, laid end to end from seed 0, begin and end where the map changes answer.
        let law = DrawLaw::MultiplyShift;
        for n in [2u64, 3, 5, 52, 1000, 65_537] {
            let mut first = 0u128;
            for v in 0..n.min(2000) {
                let weight = law.weight(v, n);
                let last = first + weight - 1;
                let answer = |seed: u128| ((seed * u128::from(n)) >> 32) as u64;
                assert_eq!(answer(first), v, "n = {n}: first seed of {v}");
                assert_eq!(answer(last), v, "n = {n}: last seed of {v}");
                if first > 0 {
                    assert_eq!(answer(first - 1), v - 1, "n = {n}: before {v}");
                }
                first = last + 1;
            }
        }
        // 2^32 = 3 · 1431655765 + 1: one answer gets the extra seed.
        let weights: Vec<u128> = (0..3).map(|v| law.weight(v, 3)).collect();
        assert_eq!(weights, [1_431_655_766, 1_431_655_765, 1_431_655_765]);
        assert_eq!(law.fraction(0, 3), (1_431_655_766, 1 << 32));
        assert_eq!(law.fraction(1, 4), (1, 4));
    }

    #[test]
    fn the_real_sources_map_raw_outputs_as_their_law_counts() {
        // The laws count raw outputs through a map; the sources must use that very map:
        // rand() % n for MsvcRand, (RandSeed · n) >> 32 for DelphiRandom.
        let mut rand = MsvcRand::from_state(1);
        for _ in 0..1000 {
            let mut ahead = rand;
            let raw = u64::from(ahead.rand());
            assert_eq!(rand.below(52), raw % 52);
        }
        let mut delphi = DelphiRandom::from_state(12_345);
        let mut seed = 12_345u32;
        for _ in 0..1000 {
            seed = seed.wrapping_mul(134_775_813).wrapping_add(1);
            assert_eq!(delphi.below(52), (u64::from(seed) * 52) >> 32);
        }
    }

    #[test]
    fn next_answers_walk_exactly_the_answers_of_positive_weight() {
        for law in LAWS {
            for n in [1u64, 2, 3, 52, 1000, 32_768, 40_000] {
                let walked: Vec<u64> = std::iter::successors(Some(0), |&v| law.next_answer(v, n)).collect();
                let possible: Vec<u64> = (0..n).filter(|&v| law.weight(v, n) > 0).collect();
                assert_eq!(walked, possible, "{law:?} n = {n}");
            }
        }
        // A Delphi range wider than its seeds: only every other answer has a seed.
        let wide = 1u64 << 33;
        let law = DrawLaw::MultiplyShift;
        assert_eq!(law.weight(1, wide), 0);
        assert_eq!(law.next_answer(0, wide), Some(2));
        assert_eq!(law.next_answer(wide - 2, wide), None);
        assert_eq!(law.denominator_bits(), Some(32));
        assert_eq!(DrawLaw::RandMod.denominator_bits(), Some(15));
    }

    #[test]
    fn uniform_bounds_and_probabilities() {
        assert!(DrawLaw::Uniform.is_uniform_for(52));
        assert!(DrawLaw::RandMod.is_uniform_for(8));
        assert!(DrawLaw::RandMod.is_uniform_for(32_768));
        assert!(!DrawLaw::RandMod.is_uniform_for(52));
        assert!(!DrawLaw::RandMod.is_uniform_for(65_536));
        assert!(DrawLaw::MultiplyShift.is_uniform_for(1 << 20));
        assert!(!DrawLaw::MultiplyShift.is_uniform_for(3));
        for law in LAWS {
            for n in [1u64, 2, 3, 52, 2000] {
                let total: f64 = law.probabilities(n).iter().sum();
                assert!((total - 1.0).abs() < 1e-12, "{law:?} n = {n}: {total}");
            }
        }
        assert_eq!(DrawLaw::RandMod.probabilities(3)[2], 10_922.0 / 32_768.0);
        assert!(DrawLaw::Uniform.model().is_none());
        assert!(DrawLaw::RandMod.model().unwrap().contains("32768"));
    }
}
