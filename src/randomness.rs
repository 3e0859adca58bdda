//! The one narrow door through which every algorithm draws its randomness.
//!
//! Algorithms in the catalogue never own a random number generator: they ask a
//! [`Randomness`] for `below(n)` (and, only where a float is truly part of the algorithm,
//! `unit()`). That is what lets the same code be simulated at full speed, enumerated
//! exactly, or driven by a deliberately flawed source, and it is why the trait is small:
//! every method added here is a method every source must implement faithfully.
//!
//! The simulation source is Xoshiro256++ (rand_xoshiro) with rand's exact bounded draws
//! (`random_range` with rand's `unbiased` feature). Parallel runs stay reproducible because
//! each chunk of trials gets its own stream derived from `(seed, chunk)` alone, see
//! [`XoshiroSource::for_chunk`].
//!
//! Behind the same door stand the flawed sources of the source texts ([`flawed`]): a C
//! library `rand() % n`, Delphi's `Random`, and a generator re-seeded from a clock before
//! every shuffle. [`SourceKind`] names them on the command line, and [`SimulationSource`]
//! is whichever of them a run uses. The engine's inner loops go through
//! [`with_source!`](crate::with_source), which matches on the source once per batch of
//! trials and compiles the loop for each kind, so the default source pays nothing for
//! the others.

pub mod batched;
mod draw_law;
mod flawed;
mod kind;

use rand::{Rng, RngExt, SeedableRng, TryRng};
use rand_xoshiro::Xoshiro256PlusPlus;

pub use draw_law::DrawLaw;
pub use flawed::{ClockReseed, DelphiRandom, FlawedSource, MsvcRand};
pub use kind::{ClockStep, MILLISECONDS_PER_DAY, SourceKind};

use crate::error::Error;

/// Every source's name, in the order `list` and the docs give them.
pub use kind::SOURCE_NAMES;

/// Where an algorithm gets its randomness from, and the only place it may get it from.
pub trait Randomness {
    /// A uniform integer in `0..n`.
    ///
    /// `n` must be at least 1; asking for a draw from an empty range is a bug in the
    /// caller, and sources may panic on it.
    fn below(&mut self, n: u64) -> u64;

    /// A uniform float in `[0, 1)`, for the few algorithms that really use one (random
    /// sort keys). Algorithms that only need integers must use [`Randomness::below`], so
    /// that exact enumeration can follow every path they take.
    fn unit(&mut self) -> f64;

    /// A new trial begins: one shuffle, one selection, or one item of a stream. Only a
    /// source that models a program re-seeding itself before every shuffle
    /// ([`ClockReseed`]) does anything here; the catalogue's trial loops call it before
    /// each trial, and an algorithm never calls it.
    #[inline]
    fn begin_trial(&mut self) {}

    /// [`Randomness::below`] for index arithmetic: a uniform index in `0..n`.
    #[inline]
    fn index(&mut self, n: usize) -> usize {
        self.below(n as u64) as usize
    }

    /// Several draws at once: `answers[k]` uniform in `0..bounds[k]` (every bound at least
    /// 1), all independent. In law exactly [`Randomness::below`] for each bound in turn,
    /// which is what this default does, so a source that does not override it (a flawed
    /// source, exact enumeration, a replay) sees every draw as before. The default
    /// simulation source answers them from as few 64-bit words as the product of the
    /// bounds allows ([`batched`]): the shuffles whose draws do not depend on their
    /// answers ask through here.
    ///
    /// Returns the answers read as one number in mixed radix, the first answer the most
    /// significant digit (`(a0·b1 + a1)·b2 + a2…`; wrapping if the product of the bounds
    /// exceeds 2^64): a uniform number below that product, which is what the simulator
    /// counts when it tallies small decks by random path.
    #[inline]
    fn below_each(&mut self, bounds: &[u64], answers: &mut [u64]) -> u64 {
        for (answer, &bound) in answers.iter_mut().zip(bounds) {
            *answer = self.below(bound);
        }
        batched::mixed_radix(bounds, answers)
    }

    /// Whether this source's [`Randomness::below_each`] is exactly [`Randomness::below`]
    /// for each bound in turn (its default), so that a shuffle may ask bound by bound and
    /// skip gathering the bounds into words. `false` unless a source says so: a source
    /// that answers `below_each` its own way (batched, or wrapping one that does) must
    /// never be asked draw by draw. Exact enumeration's replay says `true`: it walks
    /// every path of a shuffle, and the words' arrays were a third of its time.
    #[inline]
    fn draws_one_by_one(&self) -> bool {
        false
    }

    /// A uniform 64-bit word for batched draws, if this source answers
    /// [`Randomness::below_each`] from whole words exactly as [`batched`] splits them (the
    /// default simulation source); `None` for every source that answers draw by draw.
    /// [`batched::each_planned_draw`] splits such words itself, with its bounds' product
    /// planned ahead; it draws the same words and gives the same answers as
    /// [`Randomness::below_each`] would.
    #[inline]
    fn batch_word(&mut self) -> Option<u64> {
        None
    }

    /// `count` fair coins (at most 64), the first in the lowest bit: in law exactly
    /// `count` draws of `below(2)` in turn, which is this default; the default simulation
    /// source takes them from one word.
    #[inline]
    fn coins(&mut self, count: u32) -> u64 {
        assert!(count <= 64, "at most 64 coins at a time");
        (0..count).fold(0, |coins, bit| coins | (self.below(2) << bit))
    }
}

/// Fisher–Yates from the end, drawing exactly as [`crate::catalogue::fisher_yates`]
/// does, for the tests of the layers under the catalogue (tallies, statistics): they
/// need a fair shuffle and must not reach up into the catalogue for one.
#[cfg(test)]
pub(crate) fn fisher_yates_for_tests<T>(deck: &mut [T], rng: &mut impl Randomness) {
    for i in (1..deck.len()).rev() {
        deck.swap(i, rng.index(i + 1));
    }
}

/// The randomness a simulation draws from: the default Xoshiro256++ stream or one of the
/// flawed sources. Its [`Randomness`] implementation matches on every draw, which is fine
/// for tests and one-off shuffles; the engine's loops use [`with_source!`](crate::with_source)
/// instead, which matches once per batch.
#[derive(Clone, Debug)]
pub enum SimulationSource {
    /// [`SourceKind::Xoshiro`].
    Xoshiro(XoshiroSource),
    /// Any other [`SourceKind`].
    Flawed(FlawedSource),
}

impl SimulationSource {
    /// The default source for a whole run that is not cut into chunks (tests, examples).
    pub fn from_seed(seed: u64) -> Self {
        SimulationSource::Xoshiro(XoshiroSource::from_seed(seed))
    }

    /// The default source's stream for chunk `chunk` of a run seeded with `seed`.
    pub fn for_chunk(seed: u64, chunk: u64) -> Self {
        SimulationSource::Xoshiro(XoshiroSource::for_chunk(seed, chunk))
    }

    /// The stream of `kind` for unit `unit` (a chunk of trials, or one stream) of a run
    /// seeded with `seed`, whose first trial is trial number `first_trial` of the run.
    ///
    /// Xoshiro's stream depends on `(seed, unit)` alone. A flawed source with a 32-bit
    /// state starts from a state derived from `(seed, unit)` in the same way, as if the
    /// program had been started and seeded afresh for every chunk of trials. The clock
    /// of [`SourceKind::ClockReseed`] reads the seed as its starting time and advances
    /// with the trial number, which is why the first trial's number is needed.
    pub fn for_unit(kind: SourceKind, seed: u64, unit: u64, first_trial: u64) -> Self {
        match kind {
            SourceKind::Xoshiro => SimulationSource::for_chunk(seed, unit),
            flawed => SimulationSource::Flawed(FlawedSource::for_unit(flawed, seed, unit, first_trial)),
        }
    }
}

impl Randomness for SimulationSource {
    #[inline]
    fn below(&mut self, n: u64) -> u64 {
        crate::with_source!(self, |source| source.below(n))
    }

    #[inline]
    fn unit(&mut self) -> f64 {
        crate::with_source!(self, |source| source.unit())
    }

    #[inline]
    fn below_each(&mut self, bounds: &[u64], answers: &mut [u64]) -> u64 {
        crate::with_source!(self, |source| source.below_each(bounds, answers))
    }

    #[inline]
    fn batch_word(&mut self) -> Option<u64> {
        crate::with_source!(self, |source| source.batch_word())
    }

    #[inline]
    fn coins(&mut self, count: u32) -> u64 {
        crate::with_source!(self, |source| source.coins(count))
    }

    #[inline]
    fn begin_trial(&mut self) {
        crate::with_source!(self, |source| source.begin_trial())
    }
}

/// Runs `$body` with `$source` bound to the concrete source inside a
/// [`SimulationSource`]: the match happens once, and `$body` is compiled once per kind of
/// source, so a loop over millions of trials written inside it draws without a branch per
/// draw.
///
/// ```
/// use shuffle_audit::{Randomness, SimulationSource, with_source};
/// let mut source = SimulationSource::from_seed(1);
/// let total: u64 = with_source!(&mut source, |rng| (0..10).map(|_| rng.below(6)).sum());
/// assert!(total < 60);
/// ```
#[macro_export]
macro_rules! with_source {
    ($simulation_source:expr, |$source:ident| $body:expr) => {
        match $simulation_source {
            $crate::randomness::SimulationSource::Xoshiro($source) => $body,
            $crate::randomness::SimulationSource::Flawed($source) => $body,
        }
    };
}

/// The default source: Xoshiro256++ with exact (unbiased) bounded draws.
#[derive(Clone, Debug)]
pub struct XoshiroSource {
    generator: Xoshiro256PlusPlus,
}

impl XoshiroSource {
    /// A source for a whole run that is not cut into chunks (tests, examples).
    pub fn from_seed(seed: u64) -> Self {
        Self {
            generator: Xoshiro256PlusPlus::seed_from_u64(seed),
        }
    }

    /// The stream for chunk `chunk` of a run seeded with `seed`.
    ///
    /// The 256-bit state is built from `mix(seed)` and `mix(chunk)` (SplitMix64's
    /// finaliser, a bijection on 64-bit words) in its first two words, so two different
    /// `(seed, chunk)` pairs can never share a state, and from two further mixes of both
    /// in the other two words, so that neighbouring chunks start far apart. Nothing else
    /// goes in: the tallies of a run depend on the seed, not on the thread that ran a
    /// chunk or the order in which chunks finished.
    pub fn for_chunk(seed: u64, chunk: u64) -> Self {
        let seed_word = splitmix64_mix(seed.wrapping_add(GOLDEN_GAMMA));
        let chunk_word = splitmix64_mix(chunk ^ CHUNK_DOMAIN);
        let words = [
            seed_word,
            chunk_word,
            splitmix64_mix(seed_word ^ chunk_word.rotate_left(29)),
            splitmix64_mix(chunk_word.wrapping_add(seed_word.rotate_left(41))),
        ];
        let mut bytes = [0u8; 32];
        for (slot, word) in bytes.chunks_exact_mut(8).zip(words) {
            slot.copy_from_slice(&word.to_le_bytes());
        }
        // from_seed maps the (practically unreachable) all-zero state to a valid one.
        Self {
            generator: Xoshiro256PlusPlus::from_seed(bytes),
        }
    }
}

impl XoshiroSource {
    /// The generator itself, for [`crate::AuditRng`], which hands it to user code through
    /// rand's traits (draws it makes there are rand's, not [`Randomness`]'s).
    pub(crate) fn generator(&mut self) -> &mut Xoshiro256PlusPlus {
        &mut self.generator
    }
}

impl Randomness for XoshiroSource {
    /// rand's `random_range(0..n)`, its body written out: the assertion, then the range's
    /// `sample_single` (rand 0.10's `RngExt::random_range` is exactly these two lines), so
    /// the draws are the same. Written out because `random_range` carries no `#[inline]`
    /// and the compiler sometimes left it a call (in the riffles' loops: a call per draw,
    /// with the generator's state stored and reloaded around it). A test checks it
    /// against `random_range` on the same stream.
    #[inline(always)]
    fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "cannot sample empty range");
        rand::distr::uniform::SampleRange::sample_single(0..n, &mut self.generator)
            .expect("a non-empty range")
    }

    #[inline]
    fn unit(&mut self) -> f64 {
        self.generator.random::<f64>()
    }

    /// One word for as many bounds as it answers exactly ([`batched`]): the answers are
    /// the word's mixed-radix digits, and the word is drawn again in the rare case
    /// (probability below `P / 2^64`) that it falls in Lemire's rejected sliver. Bounds
    /// whose product does not fit in 64 bits are drawn one by one, a word each, after
    /// the word that found it out.
    #[inline(always)]
    fn below_each(&mut self, bounds: &[u64], answers: &mut [u64]) -> u64 {
        use batched::{Split, split_word};
        loop {
            match split_word::<64>(self.generator.next_u64(), bounds, answers) {
                Split::Kept(number) => return number,
                Split::Rejected => continue,
                // A word per bound, by the same method: no call that could take the
                // generator's address, so that its state stays in registers in the
                // loops that draw through here.
                Split::TooWide => {
                    for (answer, &bound) in answers.iter_mut().zip(bounds) {
                        let one = std::slice::from_mut(answer);
                        while !matches!(
                            split_word::<64>(self.generator.next_u64(), &[bound], one),
                            Split::Kept(_)
                        ) {}
                    }
                    return batched::mixed_radix(bounds, answers);
                }
            }
        }
    }

    /// The words [`Randomness::below_each`] splits.
    #[inline(always)]
    fn batch_word(&mut self) -> Option<u64> {
        Some(self.generator.next_u64())
    }

    /// The top `count` bits of one word, moved down: Xoshiro256++'s high bits are its best.
    #[inline(always)]
    fn coins(&mut self, count: u32) -> u64 {
        assert!(count <= 64, "at most 64 coins at a time");
        match count {
            0 => 0,
            count => self.generator.next_u64() >> (64 - count),
        }
    }
}

/// A fresh seed from the operating system, for runs where the user gave none. The caller
/// prints it so that the run can be reproduced.
///
/// It is below 2^53, so that it survives JSON readers that hold numbers as doubles (jq,
/// JavaScript): a seed rounded on the way back would silently start a different run.
pub fn seed_from_os() -> Result<u64, Error> {
    rand::rngs::SysRng
        .try_next_u64()
        .map(|random| random >> 11)
        .map_err(|error| Error::OsRandomness(error.to_string()))
}

const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;
/// Keeps `mix(chunk)` from coinciding with `mix(seed)` when a seed equals a chunk index.
const CHUNK_DOMAIN: u64 = 0xD1B5_4A32_D192_ED03;

/// SplitMix64's output function (Steele, Lea & Flood 2014): a bijection with full avalanche.
pub(crate) fn splitmix64_mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunk_streams_are_reproducible_and_distinct() {
        let draws = |seed, chunk| {
            let mut source = SimulationSource::for_chunk(seed, chunk);
            (0..8).map(|_| source.below(1 << 40)).collect::<Vec<_>>()
        };
        assert_eq!(draws(7, 3), draws(7, 3));
        assert_ne!(draws(7, 3), draws(7, 4));
        assert_ne!(draws(7, 3), draws(8, 3));
        // A seed equal to a chunk index must not collide with its mirror image.
        assert_ne!(draws(3, 7), draws(7, 3));
    }

    #[test]
    fn below_draws_exactly_what_random_range_draws() {
        // `below` writes rand's `random_range(0..n)` out; on the same stream the two must
        // agree draw for draw, for bounds where rand's exact method needs its second
        // sample often (just above 2^63, and u64::MAX) as well as for deck sizes.
        let mut source = XoshiroSource::for_chunk(5, 9);
        let mut generator = XoshiroSource::for_chunk(5, 9).generator;
        for round in 0..20_000u64 {
            let bound = match round % 6 {
                0 => 2,
                1 => 52 - round % 50,
                2 => (1 << 63) + 1,
                3 => u64::MAX,
                4 => 1,
                _ => 0x5555_5555_5555_5556,
            };
            assert_eq!(source.below(bound), generator.random_range(0..bound), "{bound}");
        }
    }

    #[test]
    fn below_stays_in_range_and_reaches_both_ends() {
        let mut source = SimulationSource::from_seed(1);
        let mut seen = [false; 5];
        for _ in 0..1000 {
            let value = source.below(5);
            assert!(value < 5);
            seen[value as usize] = true;
        }
        assert!(
            seen.iter().all(|&hit| hit),
            "1000 draws of 5 values missed one: {seen:?}"
        );
        assert_eq!(source.below(1), 0);
    }

    #[test]
    fn os_seeds_fit_in_a_double() {
        for _ in 0..100 {
            let seed = seed_from_os().unwrap();
            assert!(seed < 1 << 53);
            assert_eq!(seed as f64 as u64, seed);
        }
    }

    #[test]
    fn unit_is_in_the_half_open_interval() {
        let mut source = SimulationSource::from_seed(2);
        for _ in 0..10_000 {
            let value = source.unit();
            assert!((0.0..1.0).contains(&value));
        }
    }
}
