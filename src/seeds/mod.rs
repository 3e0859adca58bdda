//! `seeds`: what a generator's seed space allows, and what it gives away.
//!
//! A flawed source is not only biased draw by draw: a generator with a 32-bit state can
//! deal at most 2^32 different decks, whatever the shuffle, and a generator seeded from
//! the time of day deals from a few million seeds that an observer can search. Text 001
//! tells how that broke an online-poker site in 1999.
//!
//! - [`reach`]: enumerate every seed of a range, shuffle from each, and count the
//!   distinct orders reached against `n!`.
//! - [`crack`]: given the cards a player saw, search a window of seeds for the deals
//!   consistent with them, and so recover the whole deck.

pub mod crack;
pub mod reach;
