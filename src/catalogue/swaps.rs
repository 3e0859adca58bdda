//! Swap shuffles: the shuffles that swap two cards per draw, their bounds fixed by the
//! deck size, not by the answers (Fisher–Yates and its flawed cousins, one file each in
//! `shuffles/`). Each is a [`SwapShuffle`] constant, read by its public function, by the
//! engine's loop over a batch of decks, by `exact`'s walk down its tree of draws and by
//! its position matrix, so that none of them can draw differently.
//!
//! The swap shuffles draw their indices a word at a time ([`each_draw`]): the default
//! source answers several from one 64-bit word, exactly uniformly (issue 33;
//! [`crate::randomness::batched`]). The law of each shuffle is that of its text, draw by
//! draw, and any other source (`--source msvc-rand-mod`, `delphi`, `clock-reseed`; exact
//! enumeration) still answers draw by draw, in the text's order.

use std::any::TypeId;

use crate::randomness::Randomness;
use crate::randomness::batched::{DrawPlan, each_draw, each_planned_draw};

/// A shuffle that swaps two cards per draw, its bounds fixed by the deck size, not by
/// the answers: so its draws can be batched a word at a time ([`each_draw`]), and the
/// words planned once for every deck of a size ([`DrawPlan`]). Each swap shuffle is one
/// of these constants, read by its public function (one deck, words cut as it goes) and
/// by the engine's loop over a batch of decks ([`SwapShuffle::shuffle_with`]), so the
/// two cannot draw differently.
#[derive(Clone, Copy)]
pub struct SwapShuffle {
    /// How many draws on `n` cards, and the largest bound among them.
    pub(crate) draws: fn(usize) -> (usize, u64),
    /// The bound of step `s` on `n` cards: `bound(n, s)`.
    pub(crate) bound: fn(usize, usize) -> u64,
    /// The two positions step `s`'s answer swaps: `swap(n, s, answer)`.
    pub(crate) swap: fn(usize, usize, usize) -> (usize, usize),
}

impl SwapShuffle {
    /// Shuffles one deck.
    #[inline(always)]
    pub(crate) fn shuffle<T, R: Randomness + ?Sized>(self, deck: &mut [T], rng: &mut R) {
        let n = deck.len();
        let (draws, largest) = (self.draws)(n);
        each_draw(
            rng,
            draws,
            largest,
            |s| (self.bound)(n, s),
            |s, j| {
                let (a, b) = (self.swap)(n, s, j);
                deck.swap(a, b);
            },
        );
    }

    /// The bounds of its draws on `n` cards, in order.
    pub(crate) fn schedule(self, n: usize) -> Vec<u64> {
        let (draws, _) = (self.draws)(n);
        (0..draws).map(|s| (self.bound)(n, s)).collect()
    }

    /// Its steps on `n` cards as `(i, low, len)`: step `s` swaps position `i` with
    /// position `low + below(len)`. Every swap shuffle swaps a fixed position with one
    /// drawn from a run of positions (tests replay each shuffle against its steps), which
    /// is what the position matrix's Markov chain needs (`exact::positions`).
    pub(crate) fn steps(self, n: usize) -> Vec<(usize, usize, usize)> {
        let (draws, _) = (self.draws)(n);
        (0..draws)
            .map(|s| {
                let (i, low) = (self.swap)(n, s, 0);
                (i, low, (self.bound)(n, s) as usize)
            })
            .collect()
    }

    /// Each step's bound and, for every answer to it, the two positions it swaps, on `n`
    /// cards: the whole tree of the shuffle's draws, for a walk that swaps its way down it
    /// (`exact`'s enumeration) instead of replaying the shuffle on every path.
    pub(crate) fn swap_table(self, n: usize) -> Vec<Vec<(usize, usize)>> {
        let (draws, _) = (self.draws)(n);
        (0..draws)
            .map(|s| {
                (0..(self.bound)(n, s) as usize)
                    .map(|j| (self.swap)(n, s, j))
                    .collect()
            })
            .collect()
    }

    /// The words of a deck of `n` cards, planned.
    pub(crate) fn plan(self, n: usize) -> DrawPlan {
        let (draws, largest) = (self.draws)(n);
        DrawPlan::new(draws, largest, |s| (self.bound)(n, s))
    }

    /// Shuffles one deck with its words planned ahead ([`SwapShuffle::plan`] of the
    /// deck's size), or cut as it goes without a plan: the same draws and swaps either way.
    #[inline(always)]
    pub(crate) fn shuffle_with<T, R: Randomness + ?Sized>(
        self,
        deck: &mut [T],
        rng: &mut R,
        plan: Option<&DrawPlan>,
    ) {
        let Some(plan) = plan else {
            return self.shuffle(deck, rng);
        };
        let n = deck.len();
        each_planned_draw(rng, plan, |s, j| {
            let (a, b) = (self.swap)(n, s, j);
            deck.swap(a, b);
        });
    }
}

impl SwapShuffle {
    /// Shuffles one deck for the engine: as the catalogue shuffle `S` (its type), its
    /// words planned for the deck's size and kept in `kept` for the next deck and batch
    /// ([`planned_words`]).
    #[inline(always)]
    pub(crate) fn shuffle_planned<S: 'static, T, R: Randomness + ?Sized>(
        self,
        deck: &mut [T],
        rng: &mut R,
        kept: &mut Option<(TypeId, usize, DrawPlan)>,
    ) {
        let plan = planned_words::<S>(kept, self, deck.len());
        self.shuffle_with(deck, rng, plan);
    }
}

/// The largest decks a swap shuffle draws for without a plan: the engine's fixed sizes
/// (`simulate`'s loops compiled for decks of up to ten cards).
const UNPLANNED_CARDS: usize = 10;

/// `shuffle`'s words planned for decks of `n` cards ([`SwapShuffle::shuffle_with`]), kept
/// in `kept` for the next deck and batch, under the catalogue shuffle `S` (its type)
/// that draws them; `None` on decks the engine compiles at their size (up to [`UNPLANNED_CARDS`]),
/// where the words' products fold into constants where the shuffle draws and a plan read
/// from memory would be slower (a tenth, on 10 cards).
#[inline(always)]
pub(crate) fn planned_words<S: 'static>(
    kept: &mut Option<(TypeId, usize, DrawPlan)>,
    shuffle: SwapShuffle,
    n: usize,
) -> Option<&DrawPlan> {
    if n <= UNPLANNED_CARDS {
        return None;
    }
    let id = TypeId::of::<S>();
    if !matches!(kept, Some((kept_id, cards, _)) if *kept_id == id && *cards == n) {
        *kept = Some((id, n, shuffle.plan(n)));
    }
    kept.as_ref().map(|(_, _, plan)| plan)
}
