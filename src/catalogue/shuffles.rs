//! Shuffles that rearrange a deck by swapping or moving cards: the correct ones, and the
//! plausible-looking ones from the source texts that are subtly wrong.
//!
//! Each function is written as its source text describes it, not "fixed", because the
//! point of the catalogue is to measure what those texts actually do. Every draw goes
//! through [`Randomness`], so the same code is simulated and (later) enumerated exactly.
//!
//! The swap shuffles draw their indices a word at a time ([`each_draw`]): their bounds
//! are fixed by the deck size, not by the answers, so the default source answers several
//! from one 64-bit word, exactly uniformly (issue 33; [`crate::randomness::batched`]).
//! The law of each shuffle is that of its text, draw by draw, and any other source
//! (`--source msvc-rand-mod`, `delphi`, `clock-reseed`; exact enumeration) still
//! answers draw by draw, in the text's order. The shuffles whose draws depend on their
//! answers (insertion with retry, the text-004 riffle, the comparator sorts) draw one by
//! one, as written.

use crate::randomness::Randomness;
use crate::randomness::batched::{DrawPlan, each_draw, each_planned_draw};

/// Text 001's `SimpleListShuffle` and text 004's first listing: for every position `i`,
/// swap `deck[i]` with a card drawn from the whole deck. `n^n` equally likely paths onto
/// `n!` orders, which `n!` does not divide for `n >= 3`: biased.
#[inline(always)]
pub fn naive_swap<T, R: Randomness + ?Sized>(deck: &mut [T], rng: &mut R) {
    NAIVE_SWAP.shuffle(deck, rng);
}

/// [`naive_swap`]'s draws and swaps.
pub(crate) const NAIVE_SWAP: SwapShuffle = SwapShuffle {
    id: 0,
    draws: |n| (n, n as u64),
    bound: |n, _| n as u64,
    swap: |_, i, j| (i, j),
};

/// Durstenfeld's Fisher–Yates, as in texts 001 and 004: from the last position down,
/// swap `deck[i]` with a card drawn from `0..=i`. `n!` paths, one per order: fair.
#[inline(always)]
pub fn fisher_yates<T, R: Randomness + ?Sized>(deck: &mut [T], rng: &mut R) {
    FISHER_YATES.shuffle(deck, rng);
}

/// [`fisher_yates`]' draws and swaps: step `s` swaps position `i = n-1-s` with a card
/// drawn from `0..=i`.
pub(crate) const FISHER_YATES: SwapShuffle = SwapShuffle {
    id: 1,
    draws: |n| (n.saturating_sub(1), n as u64),
    bound: |n, s| (n - s) as u64,
    swap: |n, s, j| (n - 1 - s, j),
};

/// Fisher–Yates from the front (`knuth1` in text 004's comments): swap `deck[i]` with a
/// card drawn from `i..n`. Fair.
#[inline(always)]
pub fn fisher_yates_forward<T, R: Randomness + ?Sized>(deck: &mut [T], rng: &mut R) {
    FISHER_YATES_FORWARD.shuffle(deck, rng);
}

/// [`fisher_yates_forward`]'s draws and swaps.
pub(crate) const FISHER_YATES_FORWARD: SwapShuffle = SwapShuffle {
    id: 2,
    draws: |n| (n.saturating_sub(1), n as u64),
    bound: |n, i| (n - i) as u64,
    swap: |_, i, j| (i, i + j),
};

/// Sattolo's algorithm: Fisher–Yates from the end with `j` drawn from `0..i`, excluding
/// `i` itself. This is the off-by-one of text 003's shuffle bag (`random.Next(position)`
/// with an exclusive bound). It produces only single `n`-cycles, each with probability
/// `1/(n-1)!`, so no card ever stays in place: biased.
#[inline(always)]
pub fn sattolo<T, R: Randomness + ?Sized>(deck: &mut [T], rng: &mut R) {
    SATTOLO.shuffle(deck, rng);
}

/// [`sattolo`]'s draws and swaps: step `s` swaps position `i = n-1-s` with a card drawn
/// from `0..i`.
pub(crate) const SATTOLO: SwapShuffle = SwapShuffle {
    id: 3,
    draws: |n| (n.saturating_sub(1), n.saturating_sub(1) as u64),
    bound: |n, s| (n - 1 - s) as u64,
    swap: |n, s, j| (n - 1 - s, j),
};

/// Text 002's SHUFFLE taken literally: `for f := 0 to n: SWAP array[f] WITH
/// array[random(f)]`, where the text defines `random(x)` as a number in `0..x-1`.
///
/// Two readings had to be decided, and both follow the text's own C code:
/// - the loop runs `f = 0 .. n-1` (the C code's `f < n`); the pseudocode's `to n` would
///   touch a card past the end of the array;
/// - `random(0)` asks for a number in an empty range. We read it as 0 and draw nothing,
///   so the first step swaps `array[0]` with itself. (A C `random(0)` built on `% 0`
///   would crash instead; any value other than 0 would index out of bounds.)
///
/// What remains is Sattolo's algorithm run from the front: every outcome is a single
/// `n`-cycle, although the text calls the shuffle "truly random". Biased.
#[inline(always)]
pub fn roguelike_shuffle<T, R: Randomness + ?Sized>(deck: &mut [T], rng: &mut R) {
    ROGUELIKE_SHUFFLE.shuffle(deck, rng);
}

/// [`roguelike_shuffle`]'s draws and swaps: `f = 0` swaps the first card with itself;
/// step `s` is `f = s + 1`.
pub(crate) const ROGUELIKE_SHUFFLE: SwapShuffle = SwapShuffle {
    id: 4,
    draws: |n| (n.saturating_sub(1), n.saturating_sub(1) as u64),
    bound: |_, s| (s + 1) as u64,
    swap: |_, s, g| (s + 1, g),
};

/// A shuffle that swaps two cards per draw, its bounds fixed by the deck size, not by
/// the answers: so its draws can be batched a word at a time ([`each_draw`]), and the
/// words planned once for every deck of a size ([`DrawPlan`]). Each swap shuffle is one
/// of these constants, read by its public function (one deck, words cut as it goes) and
/// by the engine's loop over a batch of decks ([`SwapShuffle::shuffle_with`]), so the
/// two cannot draw differently.
#[derive(Clone, Copy)]
pub(crate) struct SwapShuffle {
    /// Tells the swap shuffles apart (a [`Workspace`](super::Workspace)'s plan is kept
    /// for one of them and one deck size).
    pub(crate) id: u8,
    /// How many draws on `n` cards, and the largest bound among them.
    draws: fn(usize) -> (usize, u64),
    /// The bound of step `s` on `n` cards: `bound(n, s)`.
    bound: fn(usize, usize) -> u64,
    /// The two positions step `s`'s answer swaps: `swap(n, s, answer)`.
    swap: fn(usize, usize, usize) -> (usize, usize),
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

/// The naive pass repeated `passes` times, as text 004's commenters propose ("shuffle
/// more"). Each pass is biased and `n^(n·K)` is never a multiple of `n!` for `n >= 3`, so
/// the result stays biased, although the bias shrinks quickly with `K`.
pub fn naive_repeated<T, R: Randomness + ?Sized>(deck: &mut [T], rng: &mut R, passes: u32) {
    naive_repeated_until(deck, rng, passes, || false);
}

/// [`naive_repeated`], given up part way when `stop` says so: it is asked every 65,536
/// cards moved (about a tenth of a millisecond), only in deals longer than that.
pub fn naive_repeated_until<T, R: Randomness + ?Sized>(
    deck: &mut [T],
    rng: &mut R,
    passes: u32,
    stop: impl Fn() -> bool,
) {
    let cards = deck.len();
    passes_until(passes, cards, stop, || naive_swap(deck, rng));
}

/// Cards moved between two looks at `stop` in a deal made of many passes: about a tenth
/// of a millisecond of work, so that asking costs nothing next to the passes.
const CARDS_BETWEEN_LOOKS: usize = 1 << 16;

/// Makes `passes` passes over `cards` cards, asking `stop` every [`CARDS_BETWEEN_LOOKS`]
/// cards moved and ending the deal at once, part way, when it says so.
///
/// Why inside a deal: one deal of `naive-repeated:100000` on 2,000 cards is 2·10⁸ swaps,
/// seconds of work, and the live page must stop a run within 200 ms of Stop. A deal of at
/// most that many cards (every deal of every other shape) never asks, so its loop is the
/// plain one. The deck of a deal given up is left part shuffled (still a rearrangement of
/// its cards), and the caller, who asked to stop, throws away what it was tallying.
#[inline]
pub(crate) fn passes_until(passes: u32, cards: usize, stop: impl Fn() -> bool, mut pass: impl FnMut()) {
    let block = u32::try_from(CARDS_BETWEEN_LOOKS / cards.max(1))
        .unwrap_or(u32::MAX)
        .max(1);
    // One loop calls `pass`, so that it is inlined: a deal of a few passes (up to a
    // block) never asks `stop`.
    let mut left = passes;
    while left > 0 {
        if passes > block && stop() {
            return;
        }
        let now = left.min(block);
        for _ in 0..now {
            pass();
        }
        left -= now;
    }
}

/// Text 004's comment: take cards one by one off the top of the deck and put each at a
/// random index of a new array, drawing again while the index is taken. Each card lands
/// on a uniformly chosen free slot (rejection sampling), so this is fair, only slow
/// (about `n·H(n)` draws); the commenter's own numbers looked off for other reasons.
///
/// `taken` and `placed` are scratch space owned by the caller, so that a simulation does
/// not allocate per trial.
pub fn insert_with_retry<T: Copy, R: Randomness + ?Sized>(
    deck: &mut [T],
    rng: &mut R,
    taken: &mut Vec<bool>,
    placed: &mut Vec<T>,
) {
    let n = deck.len();
    taken.clear();
    taken.resize(n, false);
    placed.clear();
    placed.extend_from_slice(deck);
    // "Take the top card from the deck (Pop)": the last card first.
    for &card in deck.iter().rev() {
        loop {
            let slot = rng.index(n);
            if !taken[slot] {
                taken[slot] = true;
                placed[slot] = card;
                break;
            }
        }
    }
    deck.copy_from_slice(placed);
}

/// One riffle, as a text 004 commenter shuffles: split the deck into its first `⌊n/2⌋`
/// cards and the rest, then build the new deck from the top by taking the next card of a
/// half chosen by a fair coin; when one half is empty the other is appended. Only orders
/// with at most two rising sequences can come out: biased for `n >= 3`.
pub fn riffle<T: Copy, R: Randomness + ?Sized>(deck: &mut [T], rng: &mut R, merged: &mut Vec<T>) {
    let half = deck.len() / 2;
    let (left, right) = deck.split_at(half);
    merged.clear();
    let (mut l, mut r) = (0, 0);
    while l < left.len() && r < right.len() {
        if rng.below(2) == 0 {
            merged.push(left[l]);
            l += 1;
        } else {
            merged.push(right[r]);
            r += 1;
        }
    }
    merged.extend_from_slice(&left[l..]);
    merged.extend_from_slice(&right[r..]);
    deck.copy_from_slice(merged);
}

/// The shuffle of the 1999 online-poker case (ASF Software's, published by Reliable
/// Software Technologies; text 001 tells the story and text 004's comments link it):
///
/// ```pascal
/// for ctr := 1 to 52 do begin
///     random_number := random(51)+1;
///     tmp := card[random_number];
///     card[random_number] := card[ctr];
///     card[ctr] := tmp;
/// end;
/// ```
///
/// In 0-based terms: for every position `i`, swap `deck[i]` with `deck[random(n-1)]`. It
/// is the naive swap (`(n-1)^n` paths onto `n!` orders), and on top of that `random(51)+1`
/// never picks card 52 as a target: the last position is only ever swapped at the last
/// step, with a card from the positions before it, so the card that starts last can never
/// end last. (Its third flaw, `Randomize` from the time of day before every deal, belongs
/// to the randomness under it: `--source clock-reseed`, and `seeds crack`.) Biased from
/// two cards on: two cards always come out swapped. A one-card deck draws nothing (the
/// original's `random(0)` would return 0, swapping the card with itself).
#[inline(always)]
pub fn asf_poker<T, R: Randomness + ?Sized>(deck: &mut [T], rng: &mut R) {
    ASF_POKER.shuffle(deck, rng);
}

/// [`asf_poker`]'s draws and swaps (none below two cards).
pub(crate) const ASF_POKER: SwapShuffle = SwapShuffle {
    id: 5,
    draws: |n| if n < 2 { (0, 1) } else { (n, (n - 1) as u64) },
    bound: |n, _| (n - 1) as u64,
    swap: |_, i, j| (i, j),
};

/// Every swap shuffle, each at the index of its [`SwapShuffle::id`], so that a loop can be
/// compiled for one of them alone, its draws and swaps constants
/// (`SWAP_SHUFFLES[ID]` in a `const` block).
pub(crate) const SWAP_SHUFFLES: [SwapShuffle; 6] = {
    let shuffles = [
        NAIVE_SWAP,
        FISHER_YATES,
        FISHER_YATES_FORWARD,
        SATTOLO,
        ROGUELIKE_SHUFFLE,
        ASF_POKER,
    ];
    let mut id = 0;
    while id < shuffles.len() {
        assert!(shuffles[id].id as usize == id, "a swap shuffle out of its place");
        id += 1;
    }
    shuffles
};
