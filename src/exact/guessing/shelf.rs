//! A stated strategy against the casino shelf shuffler (`shelf:S`, `shelf-passes:S,P`),
//! on decks too large to enumerate, for any number of passes.
//!
//! One pass leaves the deck as at most `S` blocks, one per shelf, each rising then
//! falling in the cards' starting positions ([`crate::catalogue::shelf_pass`]): the cards
//! a shelf got on top, latest first, then those it got underneath, earliest first. A
//! player who knows that follows the block: [`SHELF_STRATEGY`]. The paper's own account of
//! its strategy could not be read here (only its opening pages were reachable), so this
//! is the strategy its description of the machine suggests, stated in full. After one
//! pass it names a likeliest next card at every prefix the tests valued with the exact
//! next-card law of [`super::shelf_optimal`] (15,600 prefixes of 52-card deals): an
//! optimal strategy there, worth 9.30 of 52 (the paper says "about 9.5"). Its use here is
//! the figure after several passes, where the optimal player's states no longer apply.

use crate::catalogue::{ShelfScratch, shelf_passes};
use crate::randomness::SimulationSource;

use crate::stats::sample_mean::mean_and_half_width;

/// The strategy simulated, in words.
pub const SHELF_STRATEGY: &str = "follow the shelf's block: while the cards rise, name the smallest unseen card above \
     the last one; once they fall, the largest unseen card below it; when there is none, \
     the smallest unseen card (the next block's start)";

/// The strategy's guess after the cards `dealt` so far, `seen[c]` telling whether card
/// `c` is among them (`n` cards in all).
pub fn shelf_guess(dealt: &[u16], seen: &[bool]) -> usize {
    let n = seen.len();
    let smallest_unseen = || (0..n).find(|&c| !seen[c]).unwrap_or(0);
    let Some(&last) = dealt.last() else {
        return smallest_unseen();
    };
    let last = usize::from(last);
    let falling = dealt.len() >= 2 && usize::from(dealt[dealt.len() - 2]) > last;
    let above = || (last + 1..n).find(|&c| !seen[c]);
    let below = || (0..last).rev().find(|&c| !seen[c]);
    let next = if falling { below() } else { above().or_else(below) };
    next.unwrap_or_else(smallest_unseen)
}

/// The correct guesses of [`SHELF_STRATEGY`] on one dealt deck.
pub fn shelf_guesses(deck: &[u16], seen: &mut Vec<bool>) -> usize {
    seen.clear();
    seen.resize(deck.len(), false);
    let mut correct = 0;
    for (i, &card) in deck.iter().enumerate() {
        correct += usize::from(shelf_guess(&deck[..i], seen) == usize::from(card));
        seen[usize::from(card)] = true;
    }
    correct
}

/// The mean correct guesses of [`SHELF_STRATEGY`] over `deals` deals of `n` fresh cards
/// through `passes` passes of a machine with `shelves` shelves, from `seed`, and the
/// half-width of its 95 % interval.
pub fn shelf_strategy_value(n: usize, shelves: u32, passes: u32, deals: u64, seed: u64) -> (f64, f64) {
    let mut rng = SimulationSource::from_seed(seed);
    let mut scratch = ShelfScratch::default();
    let (mut deck, mut seen) = (Vec::with_capacity(n), Vec::new());
    let (mut sum, mut sum_of_squares) = (0.0f64, 0.0f64);
    for _ in 0..deals {
        deck.clear();
        deck.extend(0..n as u16);
        shelf_passes(&mut deck, &mut rng, shelves, passes, &mut scratch);
        let correct = shelf_guesses(&deck, &mut seen) as f64;
        sum += correct;
        sum_of_squares += correct * correct;
    }
    mean_and_half_width(sum, sum_of_squares, deals)
}
