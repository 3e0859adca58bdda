//! The best possible player against one pass of the shelf machine, on any deck size.
//!
//! After one pass the deck is the shelves' blocks one after the other, each the cards the
//! shelf got on top (rising in their starting positions) then those it got underneath
//! (falling) ([`crate::catalogue::shelf_pass`]). Every card gets one of `2S` labels
//! (shelf, side), independently and uniformly, and the labels decide the deck. Reading a
//! prefix of the deal, a player can describe it as a path of states, one per card seen:
//! the shelf whose block it belongs to and whether it is in the block's rising part or
//! its falling one. Two facts make the next card's law exact and cheap:
//!
//! - given the state after the last card seen, the labels of the cards not yet seen are
//!   still independent, each uniform over the labels that would not have put the card
//!   among those seen: any later shelf; the current shelf's top if the block is still
//!   rising and the card lies above the last one; its underside if the block is rising,
//!   or falling and the card lies below the last one. So a state's weight is the number
//!   of paths that reach it times the product of those label counts;
//! - given the labels, the next card is the first of a fixed list of (label, card)
//!   candidates to hold: the current shelf's top cards above the last one, smallest
//!   first; its underside, largest first; then each later shelf's top, smallest first,
//!   and underside, largest first. By independence, the chance that a candidate is the
//!   first to hold is its own chance times, for every other card, the chance of holding
//!   none of its earlier candidates: one walk down the list.
//!
//! Guesses do not change what is shown, so the best player names the most likely next
//! card after every prefix, and one deal is worth `Σ max_c P(next = c | prefix)`; the
//! value is that sum averaged over simulated deals (the expected success of each guess
//! rather than its 0/1 outcome, which lowers the variance). The tests check every
//! next-card probability against the enumerated law on small decks. This is the
//! optimal value that Diaconis, Fulman and Holmes approached with a strategy of their own
//! ("about 9.5" of 52 cards for their 10-shelf machine); Clay (2025) and Kuba (2026)
//! proved `3n/4` for a single shelf, which this gives exactly.

use rayon::prelude::*;

use crate::catalogue::{ShelfScratch, shelf_pass};
use crate::randomness::SimulationSource;

use crate::stats::sample_mean::mean_and_half_width;

/// What the optimal player knows after some cards of one pass: the weight of each state
/// (shelf, rising or falling) the cards seen may have left the machine's blocks in.
#[derive(Clone, Debug)]
pub struct ShelfPosterior {
    shelves: usize,
    seen: Vec<bool>,
    last: Option<usize>,
    /// Paths reaching (shelf, phase), at `2 * shelf + phase` (0 rising, 1 falling),
    /// scaled to sum to 1.
    paths: Vec<f64>,
}

const RISING: usize = 0;
const FALLING: usize = 1;

impl ShelfPosterior {
    /// Before any card of an `n`-card deck through a machine of `shelves` shelves.
    pub fn new(n: usize, shelves: usize) -> Self {
        assert!(shelves >= 1, "a machine has at least one shelf");
        Self {
            shelves,
            seen: vec![false; n],
            last: None,
            paths: vec![0.0; 2 * shelves],
        }
    }

    /// Shows the player the next card.
    pub fn observe(&mut self, card: usize) {
        let mut next = vec![0.0; self.paths.len()];
        match self.last {
            // The first card starts some shelf's block, in either part.
            None => next.iter_mut().for_each(|w| *w = 1.0),
            Some(last) => {
                let mut earlier_shelves = 0.0;
                for shelf in 0..self.shelves {
                    // Any state of an earlier shelf may end its block here.
                    next[2 * shelf + RISING] += earlier_shelves;
                    next[2 * shelf + FALLING] += earlier_shelves;
                    let rising = self.paths[2 * shelf + RISING];
                    let falling = self.paths[2 * shelf + FALLING];
                    if card > last {
                        next[2 * shelf + RISING] += rising;
                    }
                    // The card may open the underside (its largest card) after the top.
                    next[2 * shelf + FALLING] += rising;
                    if card < last {
                        next[2 * shelf + FALLING] += falling;
                    }
                    earlier_shelves += rising + falling;
                }
            }
        }
        let total: f64 = next.iter().sum();
        debug_assert!(total > 0.0, "no pass deals card {card} here");
        next.iter_mut().for_each(|w| *w /= total);
        self.paths = next;
        self.seen[card] = true;
        self.last = Some(card);
    }

    /// `law[c] = P(next card = c)` given the cards seen (0 for those seen).
    pub fn next_card_law(&self, law: &mut Vec<f64>) {
        let n = self.seen.len();
        law.clear();
        law.resize(n, 0.0);
        let unseen: Vec<usize> = (0..n).filter(|&c| !self.seen[c]).collect();
        if unseen.is_empty() {
            return;
        }
        let mut total = 0.0;
        let mut scratch = Walk::default();
        match self.last {
            None => total += scratch.add_state(self, &unseen, None, 1.0, law),
            Some(_) => {
                for shelf in 0..self.shelves {
                    for phase in [RISING, FALLING] {
                        let paths = self.paths[2 * shelf + phase];
                        if paths > 0.0 {
                            total += scratch.add_state(self, &unseen, Some((shelf, phase)), paths, law);
                        }
                    }
                }
            }
        }
        law.iter_mut().for_each(|p| *p /= total);
    }
}

/// Scratch space for one walk down the candidate list.
#[derive(Default)]
struct Walk {
    /// Labels each unseen card may still hold (by card).
    allowed: Vec<f64>,
    /// Candidates of each card passed so far (by card).
    passed: Vec<f64>,
}

impl Walk {
    /// Adds the next-card law of one state, weighted by its paths times the chance that
    /// the unseen cards' labels allow it, to `law`; returns that weight.
    fn add_state(
        &mut self,
        posterior: &ShelfPosterior,
        unseen: &[usize],
        state: Option<(usize, usize)>,
        paths: f64,
        law: &mut [f64],
    ) -> f64 {
        let labels = 2.0 * posterior.shelves as f64;
        let n = posterior.seen.len();
        let (later_shelves, last) = match state {
            None => (posterior.shelves, 0),
            Some((shelf, _)) => (posterior.shelves - 1 - shelf, posterior.last.unwrap_or(0)),
        };
        self.allowed.clear();
        self.allowed.resize(n, 0.0);
        self.passed.clear();
        self.passed.resize(n, 0.0);
        let mut weight = paths;
        for &card in unseen {
            let own = match state {
                None => 0.0,
                Some((_, RISING)) => 1.0 + f64::from(u8::from(card > last)),
                Some(_) => f64::from(u8::from(card < last)),
            };
            self.allowed[card] = 2.0 * later_shelves as f64 + own;
            weight *= self.allowed[card] / labels;
        }
        if weight == 0.0 {
            return 0.0;
        }
        // The chance that no card holds any candidate passed so far, over cards whose
        // chance is not 0 (`exhausted` counts the others: then nothing later can be first).
        let mut none_yet = 1.0f64;
        let mut exhausted = 0usize;
        let mut candidate = |card: usize, law: &mut [f64]| {
            let allowed = self.allowed[card];
            let free = 1.0 - self.passed[card] / allowed;
            if exhausted == 0 {
                law[card] += weight * none_yet / free / allowed;
            }
            self.passed[card] += 1.0;
            let after = 1.0 - self.passed[card] / allowed;
            if after > 0.0 {
                none_yet *= after / free;
            } else {
                none_yet /= free;
                exhausted += 1;
            }
        };
        if let Some((_, phase)) = state {
            if phase == RISING {
                for &card in unseen.iter().filter(|&&c| c > last) {
                    candidate(card, law);
                }
            }
            for &card in unseen.iter().rev() {
                if phase == RISING || card < last {
                    candidate(card, law);
                }
            }
        }
        for _ in 0..later_shelves {
            for &card in unseen {
                candidate(card, law);
            }
            for &card in unseen.iter().rev() {
                candidate(card, law);
            }
        }
        weight
    }
}

/// The correct guesses the optimal player expects on one dealt deck:
/// `Σ max_c P(next = c | prefix)` over its prefixes.
pub fn optimal_expected_on(deck: &[u16], shelves: usize) -> f64 {
    let mut posterior = ShelfPosterior::new(deck.len(), shelves);
    let mut law = Vec::new();
    let mut value = 0.0;
    for &card in deck {
        posterior.next_card_law(&mut law);
        value += law.iter().copied().fold(0.0, f64::max);
        posterior.observe(usize::from(card));
    }
    value
}

/// The optimal player's expected correct guesses against one pass of an `n`-card deck
/// through a machine of `shelves` shelves, over `deals` deals from `seed`, and the
/// half-width of its 95 % interval. The decks are dealt in order from one stream and
/// valued in parallel, so the figure is the same for every thread count.
pub fn shelf_optimal_value(n: usize, shelves: u32, deals: u64, seed: u64) -> (f64, f64) {
    let mut rng = SimulationSource::from_seed(seed);
    let mut scratch = ShelfScratch::default();
    let decks: Vec<Vec<u16>> = (0..deals)
        .map(|_| {
            let mut deck: Vec<u16> = (0..n as u16).collect();
            shelf_pass(&mut deck, &mut rng, shelves, &mut scratch);
            deck
        })
        .collect();
    let values: Vec<f64> = decks
        .par_iter()
        .map(|deck| optimal_expected_on(deck, shelves as usize))
        .collect();
    let sum: f64 = values.iter().sum();
    let sum_of_squares: f64 = values.iter().map(|v| v * v).sum();
    mean_and_half_width(sum, sum_of_squares, deals)
}
