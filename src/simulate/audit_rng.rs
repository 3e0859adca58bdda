//! [`AuditRng`]: the engine's per-chunk random stream, dressed as a rand generator so that
//! a user's own shuffle can draw from it.
//!
//! Catalogue algorithms draw through [`crate::Randomness`]; a user's shuffle is written
//! against rand's traits instead (`rand::Rng`, with `rand::RngExt::random_range` and
//! `rand::seq::SliceRandom::shuffle` on top). This newtype gives it exactly that view of
//! the same Xoshiro256++ stream the engine gives chunk `k` of a run
//! ([`crate::randomness::XoshiroSource::for_chunk`]), so an audit of user code is as reproducible
//! as a catalogue run: same seed, same tallies, whatever the number of threads.

use std::convert::Infallible;

use rand::{Rng, TryRng};

use crate::randomness::XoshiroSource;

/// The random generator a user's shuffle receives during an audit.
///
/// It implements rand 0.10's core trait [`rand::Rng`] (through [`rand::TryRng`] with an
/// [`Infallible`] error), so everything rand builds on that works with it:
/// `rng.random_range(0..=i)` (with `rand::RngExt` in scope), `deck.shuffle(rng)` (with
/// `rand::seq::SliceRandom`), or a shuffle of your own written as
/// `fn my_shuffle<T>(items: &mut [T], rng: &mut impl rand::Rng)`.
///
/// Its draws are fixed by the audit's seed and the chunk of trials being run, nothing
/// else: an audit repeats exactly.
#[derive(Clone, Debug)]
pub struct AuditRng {
    source: XoshiroSource,
}

impl AuditRng {
    /// The stream for chunk `chunk` of a run seeded with `seed`: the same stream a
    /// catalogue algorithm would draw from.
    pub(crate) fn for_chunk(seed: u64, chunk: u64) -> Self {
        Self {
            source: XoshiroSource::for_chunk(seed, chunk),
        }
    }
}

impl TryRng for AuditRng {
    type Error = Infallible;

    #[inline]
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok(self.source.generator().next_u32())
    }

    #[inline]
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        Ok(self.source.generator().next_u64())
    }

    #[inline]
    fn try_fill_bytes(&mut self, destination: &mut [u8]) -> Result<(), Infallible> {
        self.source.generator().fill_bytes(destination);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use rand::RngExt;
    use rand::seq::SliceRandom;

    use super::*;
    use crate::Randomness;

    #[test]
    fn it_is_the_engine_stream_seen_through_rand() {
        // `XoshiroSource::below` is rand's `random_range` on the same generator, so the
        // two views of chunk 3 of seed 7 draw the same numbers.
        let mut rng = AuditRng::for_chunk(7, 3);
        let mut source = XoshiroSource::for_chunk(7, 3);
        for bound in [2u64, 6, 52, 1 << 40] {
            assert_eq!(rng.random_range(0..bound), source.below(bound));
        }
    }

    #[test]
    fn rand_algorithms_accept_it_and_repeat_per_seed() {
        let shuffled = |seed| {
            let mut deck: Vec<u32> = (0..20).collect();
            deck.shuffle(&mut AuditRng::for_chunk(seed, 0));
            deck
        };
        assert_eq!(shuffled(1), shuffled(1));
        assert_ne!(shuffled(1), shuffled(2));
        let mut sorted = shuffled(1);
        sorted.sort_unstable();
        assert_eq!(sorted, (0..20).collect::<Vec<u32>>());
    }
}
