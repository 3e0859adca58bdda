//! The flawed sources: real, widely used generators, implemented bit for bit, that make a
//! correct shuffle unfair.
//!
//! - [`MsvcRand`]: the C library's `rand()` with a 15-bit `RAND_MAX`, bounded by
//!   `rand() % n`. 32,768 is not a multiple of most `n`, so the low remainders come up
//!   once more in 32,768 than the others (modulo bias), and bit 31 of the state never
//!   reaches an output, so at most 2^31 different sequences exist.
//! - [`DelphiRandom`]: Delphi's `Random`, a 32-bit LCG whose draws take the high bits of
//!   `seed · n`. Its draws are nearly unbiased; its flaw is the seed: at most 2^32
//!   sequences, fewer when seeded from the time of day.
//! - [`ClockReseed`]: Delphi's `Random` re-seeded from a clock before every trial, as a
//!   program calling `Randomize` inside its loop does. Trials that read the same clock
//!   value get the same shuffle.
//!
//! Each starts from a plain 32-bit state ([`FlawedSource::from_state`]), which is what
//! `seeds reach` enumerates and `seeds crack` searches.
//!
//! None of them overrides [`Randomness::below_each`] or [`Randomness::coins`]: a shuffle
//! that batches its draws (issue 33) asks them one `below` per index, in its order, as the
//! program it models does. Their flaw *is* their draws (`rand() % n` on 15 bits, a 32-bit
//! seed): answering several indices from one call would model a different program.

use super::kind::SourceKind;
use super::{Randomness, splitmix64_mix};

/// Microsoft's C runtime `rand()`: `state = state · 214013 + 2531011`, output bits 16..30.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MsvcRand {
    state: u32,
}

impl MsvcRand {
    /// `RAND_MAX + 1`: the number of values `rand()` returns.
    pub const RANGE: u64 = 32_768;

    /// The generator after `srand(seed)`.
    pub fn from_state(state: u32) -> Self {
        Self { state }
    }

    /// `rand()`: a value in `0..32768`.
    #[inline]
    pub fn rand(&mut self) -> u32 {
        self.state = self.state.wrapping_mul(214_013).wrapping_add(2_531_011);
        (self.state >> 16) & 0x7fff
    }
}

impl Randomness for MsvcRand {
    /// `rand() % n`: never above 32,767, whatever `n` is, and biased towards the low
    /// remainders when `n` does not divide 32,768.
    #[inline]
    fn below(&mut self, n: u64) -> u64 {
        u64::from(self.rand()) % n
    }

    /// `rand() / (RAND_MAX + 1.0)`: one of 32,768 values.
    #[inline]
    fn unit(&mut self) -> f64 {
        f64::from(self.rand()) / Self::RANGE as f64
    }
}

/// Delphi's `Random`: `RandSeed = RandSeed · 134775813 + 1`, `Random(n)` = the high 32 bits
/// of `RandSeed · n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DelphiRandom {
    seed: u32,
}

impl DelphiRandom {
    /// The generator after `RandSeed := seed`.
    pub fn from_state(seed: u32) -> Self {
        Self { seed }
    }

    /// Advances `RandSeed` and returns it.
    #[inline]
    fn step(&mut self) -> u32 {
        self.seed = self.seed.wrapping_mul(134_775_813).wrapping_add(1);
        self.seed
    }
}

impl Randomness for DelphiRandom {
    /// `Random(n) = (RandSeed · n) >> 32`. Delphi's `Random` takes a 32-bit range; a wider
    /// `n` is answered the same way in wider arithmetic.
    #[inline]
    fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.step()) * u128::from(n)) >> 32) as u64
    }

    /// The float `Random`: `RandSeed / 2^32`.
    #[inline]
    fn unit(&mut self) -> f64 {
        f64::from(self.step()) / 4_294_967_296.0
    }
}

/// Delphi's `Random` with `Randomize` before every trial, from a modelled clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockReseed {
    random: DelphiRandom,
    step: super::ClockStep,
    start_ms: u64,
    next_trial: u64,
}

impl ClockReseed {
    /// A clock that reads `start_ms` at trial 0, advancing `step` per trial, whose next
    /// trial is `first_trial`.
    pub fn new(step: super::ClockStep, start_ms: u64, first_trial: u64) -> Self {
        Self {
            random: DelphiRandom::from_state(step.reading(start_ms, first_trial) as u32),
            step,
            start_ms,
            next_trial: first_trial,
        }
    }
}

impl Randomness for ClockReseed {
    #[inline]
    fn below(&mut self, n: u64) -> u64 {
        self.random.below(n)
    }

    #[inline]
    fn unit(&mut self) -> f64 {
        self.random.unit()
    }

    /// `Randomize`: `RandSeed` = the clock's reading at this trial.
    #[inline]
    fn begin_trial(&mut self) {
        self.random = DelphiRandom::from_state(self.step.reading(self.start_ms, self.next_trial) as u32);
        self.next_trial += 1;
    }
}

/// Any flawed source, for the engine: one match per draw, which costs little next to what
/// these sources are for (showing bias, not speed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlawedSource {
    /// [`SourceKind::MsvcRandMod`]
    MsvcRandMod(MsvcRand),
    /// [`SourceKind::Delphi`]
    Delphi(DelphiRandom),
    /// [`SourceKind::ClockReseed`]
    ClockReseed(ClockReseed),
}

impl FlawedSource {
    /// `kind` started from the 32-bit `state` as it is: `srand(state)`, `RandSeed :=
    /// state`, or, for `clock-reseed`, a clock reading `state` ms at the first trial.
    /// `None` for the default source, which is not a 32-bit generator.
    pub fn from_state(kind: SourceKind, state: u32) -> Option<Self> {
        match kind {
            SourceKind::Xoshiro => None,
            SourceKind::MsvcRandMod => Some(FlawedSource::MsvcRandMod(MsvcRand::from_state(state))),
            SourceKind::Delphi => Some(FlawedSource::Delphi(DelphiRandom::from_state(state))),
            SourceKind::ClockReseed(step) => Some(FlawedSource::ClockReseed(ClockReseed::new(
                step,
                u64::from(state),
                0,
            ))),
        }
    }

    /// The source for unit `unit` of a run seeded with `seed` (see
    /// [`super::SimulationSource::for_unit`]).
    ///
    /// # Panics
    /// On [`SourceKind::Xoshiro`], which is not a flawed source.
    pub fn for_unit(kind: SourceKind, seed: u64, unit: u64, first_trial: u64) -> Self {
        match kind {
            SourceKind::ClockReseed(step) => {
                FlawedSource::ClockReseed(ClockReseed::new(step, seed, first_trial))
            }
            _ => {
                let state = splitmix64_mix(splitmix64_mix(seed) ^ splitmix64_mix(unit ^ UNIT_DOMAIN)) as u32;
                Self::from_state(kind, state).expect("the default source is not a flawed one")
            }
        }
    }
}

/// Keeps a chunk's 32-bit state from being a simple function of `seed ^ unit`.
const UNIT_DOMAIN: u64 = 0x6A09_E667_F3BC_C909;

impl Randomness for FlawedSource {
    #[inline]
    fn below(&mut self, n: u64) -> u64 {
        match self {
            FlawedSource::MsvcRandMod(source) => source.below(n),
            FlawedSource::Delphi(source) => source.below(n),
            FlawedSource::ClockReseed(source) => source.below(n),
        }
    }

    #[inline]
    fn unit(&mut self) -> f64 {
        match self {
            FlawedSource::MsvcRandMod(source) => source.unit(),
            FlawedSource::Delphi(source) => source.unit(),
            FlawedSource::ClockReseed(source) => source.unit(),
        }
    }

    #[inline]
    fn begin_trial(&mut self) {
        if let FlawedSource::ClockReseed(source) = self {
            source.begin_trial();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::randomness::ClockStep;

    #[test]
    fn msvc_rand_matches_the_c_runtime() {
        // srand(1); rand() x 5 with Microsoft's CRT prints 41 18467 6334 26500 19169,
        // the sequence every C programmer on Windows has seen.
        let mut rand = MsvcRand::from_state(1);
        let first: Vec<u32> = (0..5).map(|_| rand.rand()).collect();
        assert_eq!(first, [41, 18467, 6334, 26500, 19169]);
    }

    #[test]
    fn msvc_rand_ignores_bit_31_of_its_state() {
        // Bit 31 of an LCG modulo 2^32 never reaches a lower bit, and rand() shows bits
        // 16..30: two seeds 2^31 apart give the same sequence.
        let mut low = MsvcRand::from_state(12_345);
        let mut high = MsvcRand::from_state(12_345 | 1 << 31);
        for _ in 0..100 {
            assert_eq!(low.rand(), high.rand());
        }
    }

    #[test]
    fn delphi_random_follows_its_definition() {
        let mut random = DelphiRandom::from_state(0);
        // RandSeed 0 -> 1 -> 134775814; Random(52) = (1 * 52) >> 32 = 0, then
        // (134775814 * 52) >> 32 = 1.
        assert_eq!(random.below(52), 0);
        assert_eq!(random.below(52), 1);
        assert_eq!(random.seed, 134_775_814);
        let mut top = DelphiRandom::from_state(u32::MAX.wrapping_sub(1).wrapping_mul(0xd1e7_ef1d_u32));
        let value = top.below(10);
        assert!(value < 10);
        assert!((0.0..1.0).contains(&DelphiRandom::from_state(7).unit()));
    }

    #[test]
    fn clock_reseed_repeats_a_shuffle_while_the_clock_stands_still() {
        let step: ClockStep = "0.5".parse().unwrap();
        let mut source = ClockReseed::new(step, 1000, 0);
        let mut draws = || {
            source.begin_trial();
            (0..4).map(|_| source.below(1000)).collect::<Vec<_>>()
        };
        let (first, second, third) = (draws(), draws(), draws());
        assert_eq!(first, second, "two trials in the same millisecond differ");
        assert_ne!(second, third, "the clock moved on and the draws did not");
        let mut delphi = DelphiRandom::from_state(1001);
        assert_eq!(third, (0..4).map(|_| delphi.below(1000)).collect::<Vec<_>>());
    }

    #[test]
    fn chunk_states_are_reproducible_and_distinct() {
        let draw = |seed, unit| FlawedSource::for_unit(SourceKind::Delphi, seed, unit, 0).below(1 << 30);
        assert_eq!(draw(5, 1), draw(5, 1));
        assert_ne!(draw(5, 1), draw(5, 2));
        assert_ne!(draw(5, 1), draw(6, 1));
    }
}
