//! The casino shelf shuffler, in the model of Diaconis, Fulman and Holmes.
//!
//! Diaconis, Fulman and Holmes ("Analysis of casino shelf shuffling machines", Ann. Appl.
//! Probab. 23(4) (2013) 1692–1720) were asked by a manufacturer whether one pass through
//! its ten-shelf machine shuffles a deck. Their description of the machine: cards are dealt
//! one at a time from the bottom of the deck onto the shelves, each to a shelf chosen
//! uniformly at random, and each placed above or below the cards already on that shelf
//! with probability 1/2; the piles are then assembled into one deck. They found that one
//! pass leaves a player who guesses the cards one by one (and is shown each after the
//! guess) about 9.5 correct guesses of 52, where a well-shuffled deck allows 4.5; the
//! manufacturer changed the machine to two passes.
//!
//! The code follows that description, every draw through [`Randomness`]:
//!
//! - one draw `below(2S)` per card, fed from the bottom of the deck (position `n − 1`)
//!   up: its half `d / 2` is the shelf, its parity `d % 2` the side (1: on top of the
//!   shelf's pile, 0: under it). One draw per card makes a pass `(2S)^n` equally likely
//!   paths, which is what `exact` walks;
//! - the piles are stacked shelf 0 on top. The machine stacks them in a random order, but
//!   the shelves are exchangeable (every card picks one uniformly), so the piles in a
//!   random order have the same law as the piles in a fixed one; the fixed order saves
//!   `S!` paths without changing a single probability.
//!
//! Read from the top, each shelf's pile is the cards placed on top, latest first, then the
//! cards placed under, earliest first: in the order they were fed, a "V" that falls to the
//! shelf's first card and rises again. A deck after one pass is at most `S` such V's one
//! after the other, which is what a guesser exploits
//! ([`crate::exact::guessing::shelf_strategy_value`]).

use crate::catalogue::shuffle::{CheckCase, Rounds, Shuffle, ShuffleFacts, Stop};
use crate::catalogue::{Algorithm, CatalogueEntry, Parameter, PermutationAlgorithm, Workspace};
use crate::randomness::Randomness;
use crate::randomness::batched::{DrawPlan, each_planned_draw};

/// The most shelves `shelf:S` takes (the machine tested had 10).
pub const MAX_SHELVES: u32 = 1000;

/// The most passes `shelf-passes:S,P` takes.
pub const MAX_PASSES: u32 = 64;

/// One pass of `deck` (position 0 on top) through a machine with `shelves` shelves (see
/// the module docs). `codes` and `counts` are scratch space owned by the caller, so that
/// a simulation does not allocate per shuffle; `merged` holds the new deck while it is
/// built.
pub fn shelf_pass<T: Copy, R: Randomness + ?Sized>(
    deck: &mut [T],
    rng: &mut R,
    shelves: u32,
    scratch: &mut ShelfScratch<T>,
) {
    let n = deck.len();
    let piles = 2 * shelves as usize;
    let ShelfScratch {
        codes,
        counts,
        merged,
        plan,
    } = scratch;
    // Fed from the bottom of the deck up: codes[i] is the draw of deck[n - 1 - i].
    // The draws' bounds do not depend on the answers: a word's worth at a time from the
    // default source, the words planned once for the deck size and shelf count and kept
    // for the next pass ([`DrawPlan`]; one draw by one from any other source).
    let bound = piles as u64;
    let plan = match plan {
        Some((cards, planned, plan)) if *cards == n && *planned == bound => plan,
        _ => &plan.insert((n, bound, DrawPlan::new(n, bound, |_| bound))).2,
    };
    macro_rules! ranked_sizes {
        ($($size:literal)*) => {
            match n {
                $($size => return ranked_pass::<$size, T, R>(deck, rng, plan),)*
                _ => unreachable!("a size from 2 to RANKED_UP_TO"),
            }
        };
    }
    if (2..=RANKED_UP_TO).contains(&n) {
        ranked_sizes!(2 3 4 5 6 7 8 9 10 11 12 13 14 15 16);
    }
    codes.clear();
    counts.clear();
    counts.resize(piles, 0);
    // Every slot of `merged` is written below: it only needs the deck's length (sized
    // once, not copied at every pass).
    if merged.len() != n {
        merged.clear();
        merged.extend_from_slice(deck);
    }
    each_planned_draw(rng, plan, |_, code| {
        codes.push(code as u32);
        counts[code] += 1;
    });
    // Shelf s occupies a block of the new deck: its cards placed on top (code 2s + 1)
    // first, then those placed under (code 2s). The counts become two cursors per shelf:
    // [2s + 1] the end of the top-placed part, filled backwards (later cards land above),
    // [2s] the start of the part placed under, filled forwards (later cards land below).
    let mut start = 0;
    for shelf in counts.chunks_exact_mut(2) {
        let (under, top) = (shelf[0], shelf[1]);
        shelf.fill(start + top);
        start += top + under;
    }
    for (i, &code) in codes.iter().enumerate() {
        let cursor = &mut counts[code as usize];
        let slot = if code % 2 == 1 {
            *cursor -= 1;
            *cursor
        } else {
            *cursor += 1;
            *cursor - 1
        };
        merged[slot] = deck[n - 1 - i];
    }
    deck.copy_from_slice(merged);
}

/// Decks of 2 to this many cards are passed by [`ranked_pass`]: with a handful of cards,
/// resetting two counts per shelf, walking the shelves' cursors and copying the merged
/// deck back (a `memmove` call for three cards) cost more than the cards themselves (the
/// shelf on 3 cards ran at 0.96× of its speed before batched draws, a pass of 10 shelves
/// being mostly that fixed cost).
const RANKED_UP_TO: usize = 16;

/// One pass of a deck of `N` cards (at most [`RANKED_UP_TO`]), the same draws to the
/// same deck as the shelves' cursors make: each card's place is the rank of its key
/// among the deck's. The key orders the new deck as the module docs read it: by shelf,
/// then the cards placed on top, latest fed first, then those placed under, earliest
/// first. The deck is an array of `N` here, so that it is copied in registers.
fn ranked_pass<const N: usize, T: Copy, R: Randomness + ?Sized>(
    deck: &mut [T],
    rng: &mut R,
    plan: &DrawPlan,
) {
    let deck: &mut [T; N] = deck.try_into().expect("a deck of N cards");
    let n = N as u32;
    let mut keys = [0u32; N];
    each_planned_draw(rng, plan, |fed, code| {
        let (shelf, on_top, fed) = (code as u32 / 2, code % 2 == 1, fed as u32);
        keys[fed as usize] = shelf * 2 * n + if on_top { n - 1 - fed } else { n + fed };
    });
    let fed_deck = *deck;
    for (fed, key) in keys.iter().enumerate() {
        let place = keys.iter().filter(|&other| other < key).count();
        deck[place] = fed_deck[N - 1 - fed];
    }
}

/// Scratch space for [`shelf_pass`].
#[derive(Debug)]
pub struct ShelfScratch<T> {
    codes: Vec<u32>,
    counts: Vec<usize>,
    merged: Vec<T>,
    /// The words of the last pass's draws, planned for its deck size and bound:
    /// `(cards, bound, plan)`.
    plan: Option<(usize, u64, DrawPlan)>,
}

impl<T> Default for ShelfScratch<T> {
    fn default() -> Self {
        Self {
            codes: Vec::new(),
            counts: Vec::new(),
            merged: Vec::new(),
            plan: None,
        }
    }
}

/// `passes` passes of `deck` through a machine with `shelves` shelves ([`shelf_pass`]).
pub fn shelf_passes<T: Copy, R: Randomness + ?Sized>(
    deck: &mut [T],
    rng: &mut R,
    shelves: u32,
    passes: u32,
    scratch: &mut ShelfScratch<T>,
) {
    for _ in 0..passes {
        shelf_pass(deck, rng, shelves, scratch);
    }
}

/// `shelf:S` and `shelf-passes:S,P` in the catalogue: [`shelf_passes`], `passes` passes
/// through a machine with `shelves` shelves (Diaconis, Fulman & Holmes 2013).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shelf {
    /// Number of shelves (1 to [`MAX_SHELVES`]).
    pub shelves: u32,
    /// Number of passes (1 to [`MAX_PASSES`]).
    pub passes: u32,
}

/// The entry that names one pass (`shelf:S`); the other names passes too (`shelf-passes:S,P`).
const ONE_PASS: &str = "shelf";

impl Shuffle for Shelf {
    const ENTRIES: &'static [CatalogueEntry] = &[
        CatalogueEntry {
            name: "shelf",
            summary: "one pass of a casino shelf shuffler: each card, fed from the bottom, goes on top of or under the pile of a random one of S shelves; the piles are stacked",
            origin: "P. Diaconis, J. Fulman & S. Holmes, \"Analysis of casino shelf shuffling machines\", Ann. Appl. Probab. 23(4) (2013) 1692-1720 (10 shelves tested: about 9.5 of 52 cards guessed)",
            biased_from: Some(3),
            parameter: Some(Parameter {
                name: "S",
                meaning: "number of shelves, 1 to 1000",
                default: "10",
            }),
            algorithm: Algorithm::Permutation(PermutationAlgorithm::Shelf {
                shelves: 10,
                passes: 1,
            }),
        },
        CatalogueEntry {
            name: "shelf-passes",
            summary: "P passes of the shelf shuffler with S shelves (the manufacturer's remedy: two passes)",
            origin: "P. Diaconis, J. Fulman & S. Holmes, \"Analysis of casino shelf shuffling machines\", Ann. Appl. Probab. 23(4) (2013) 1692-1720",
            biased_from: Some(3),
            parameter: Some(Parameter {
                name: "S,P",
                meaning: "shelves (1 to 1000) and passes (1 to 64)",
                default: "10,2",
            }),
            algorithm: Algorithm::Permutation(PermutationAlgorithm::Shelf {
                shelves: 10,
                passes: 2,
            }),
        },
    ];

    const CHECKS: &'static [CheckCase] = &[
        // Biased (one pass of Diaconis, Fulman & Holmes's 10-shelf machine); exact: 228,801
        // shuffles needed at n = 5 (3.2 M paths). 2.5 M is 10.9x.
        CheckCase {
            name: "shelf:10",
            n: 5,
            trials: 2_500_000,
            seed: 31,
        },
        // Biased (two passes of a 2-shelf machine: two passes of 10 shelves need about
        // 2e11 shuffles at n = 3, and n = 4 has 2.6e10 paths to walk); exact: 184,525
        // shuffles needed at n = 4. 2 M is 10.8x.
        CheckCase {
            name: "shelf-passes:2,2",
            n: 4,
            trials: 2_000_000,
            seed: 32,
        },
    ];

    fn with_parameter(entry: &CatalogueEntry, parameter: &Parameter, value: &str) -> Result<Self, String> {
        let one_pass = entry.name == ONE_PASS;
        let problem = || {
            format!(
                "{} ({}) must be {}, not '{value}'",
                parameter.name,
                parameter.meaning,
                if one_pass {
                    format!("a whole number from 1 to {MAX_SHELVES}")
                } else {
                    "two whole numbers such as 10,2".to_string()
                }
            )
        };
        let in_range = |text: &str, most: u32| text.parse::<u32>().ok().filter(|v| (1..=most).contains(v));
        if one_pass {
            let shelves = in_range(value, MAX_SHELVES).ok_or_else(problem)?;
            return Ok(Self { shelves, passes: 1 });
        }
        let (shelves, passes) = value.split_once(',').ok_or_else(problem)?;
        Ok(Self {
            shelves: in_range(shelves, MAX_SHELVES).ok_or_else(problem)?,
            passes: in_range(passes, MAX_PASSES).ok_or_else(problem)?,
        })
    }

    #[inline(always)]
    fn shuffle<T: Copy, R: Randomness + ?Sized>(
        self,
        deck: &mut [T],
        rng: &mut R,
        workspace: &mut Workspace<T>,
        _stop: &impl Stop,
    ) {
        shelf_passes(deck, rng, self.shelves, self.passes, &mut workspace.shelf)
    }
}

impl ShuffleFacts for Shelf {
    fn parameter_shown(&self, entry: &CatalogueEntry) -> Option<String> {
        Some(if entry.name == ONE_PASS && self.passes == 1 {
            self.shelves.to_string()
        } else {
            format!("{},{}", self.shelves, self.passes)
        })
    }

    /// One draw per card and pass: a shelf and a side.
    fn draw_schedule(&self, n: usize) -> Option<Vec<u64>> {
        self.rounds(n)?.listed()
    }

    fn rounds(&self, n: usize) -> Option<Rounds> {
        Some(Rounds {
            draws: n,
            rounds: self.passes,
            bound: 2 * u64::from(self.shelves),
        })
    }
}

#[cfg(test)]
mod tests;
