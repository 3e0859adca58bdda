//! `seeds`: what a generator's seed space allows, and what it gives away.
//!
//! A flawed source is not only biased draw by draw: a generator with a 32-bit state can
//! deal at most 2^32 different decks, whatever the shuffle, and a generator seeded from
//! the time of day deals from a few million seeds that an observer can search. Text 001
//! tells how that broke an online-poker site in 1999.
//!
//! - [`reach`]: enumerate every seed of a range, shuffle from each, and count the
//!   distinct orders reached against `n!`.
//! - [`crack`]: given the cards a player saw ([`seen`]), search a window of seeds
//!   ([`window`]) for the deals consistent with them, and so recover the whole deck.
//! - [`deal`]: the deck one seed deals, which is what `crack` compares and what a
//!   demonstration starts from.

pub mod crack;
pub mod deal;
pub mod reach;
pub mod recover;
pub mod seen;
pub mod window;

use crate::error::{Error, Result};
use crate::randomness::{MILLISECONDS_PER_DAY, SourceKind};

/// How many seeds `kind` can be started from: seeds `0..seed_space(kind)`.
///
/// The flawed sources are 32-bit generators started from their state as it is
/// ([`crate::randomness::FlawedSource::from_state`]); `clock-reseed` reads its state as a
/// clock, which wraps at midnight, so its seeds are the 86,400,000 milliseconds of a
/// day. The default source is seeded with any 64-bit value
/// ([`crate::randomness::SimulationSource::from_seed`]).
pub fn seed_space(kind: SourceKind) -> u128 {
    match kind {
        SourceKind::Xoshiro => 1 << 64,
        SourceKind::MsvcRandMod | SourceKind::Delphi => 1 << 32,
        SourceKind::ClockReseed(_) => u128::from(MILLISECONDS_PER_DAY),
    }
}

/// Refuses a seed `kind` cannot be started from, naming `option` and the source's seeds.
pub fn check_seed(kind: SourceKind, seed: u128, option: &'static str) -> Result<()> {
    if seed < seed_space(kind) {
        Ok(())
    } else {
        Err(Error::BadOption {
            option,
            problem: format!(
                "{seed} is not a seed of {}: its seeds are 0 to {}{}",
                kind.name(),
                seed_space(kind) - 1,
                match kind {
                    SourceKind::ClockReseed(_) => " (the milliseconds of a day)",
                    SourceKind::Xoshiro => "",
                    _ => " (a 32-bit state)",
                }
            ),
        })
    }
}
