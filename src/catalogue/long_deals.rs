//! Deals that can take seconds: thousands of passes over thousands of cards
//! (`naive-repeated:K`, `overhand:K`), which must still end within 200 ms of a Stop.

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
