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
    each_pass!(passes, cards, &stop, pass());
}

/// The passes over `cards` cards between two looks at `stop`: [`CARDS_BETWEEN_LOOKS`]
/// cards moved, at least one pass.
#[inline(always)]
pub(crate) fn passes_per_look(cards: usize) -> u32 {
    u32::try_from(CARDS_BETWEEN_LOOKS / cards.max(1))
        .unwrap_or(u32::MAX)
        .max(1)
}

/// Asked, inside a deal that can take seconds, whether to end it part way (the live
/// page's Stop): any `Fn() -> bool`, or [`NeverStop`] for deals nobody stops.
pub trait Stop {
    /// Whether it never says stop, known when the loop is compiled.
    const NEVER: bool = false;

    /// Whether to stop now.
    fn now(&self) -> bool;
}

impl<F: Fn() -> bool> Stop for F {
    #[inline(always)]
    fn now(&self) -> bool {
        self()
    }
}

/// The [`Stop`] of deals nobody stops part way (the path tally's: a path has at most 64
/// draws): their passes run in a plain loop.
#[derive(Clone, Copy, Debug)]
pub struct NeverStop;

impl Stop for NeverStop {
    const NEVER: bool = true;

    #[inline(always)]
    fn now(&self) -> bool {
        false
    }
}

/// Whether `stop` never says stop ([`Stop::NEVER`]).
#[inline(always)]
pub(crate) fn never<S: Stop + ?Sized>(_stop: &S) -> bool {
    S::NEVER
}

/// [`passes_until`] with the pass written in place, for the engine's loops: `$pass` is an
/// expression run once per pass, `$stop` a [`Stop`]. A macro, not a closure: the compiler
/// left the closure of a batched naive pass out of line, a call per pass (a seventh of the
/// speed of a 3-card `naive-repeated:2`). Compiled for a stop that never comes, the passes
/// are a plain loop (the loop in blocks cost 0.90x on a 3-card overhand); otherwise one
/// loop runs the pass, so that it is inlined once (a second copy for the deals of one
/// block cost 0.93x on a 20-card `naive-repeated:3`).
macro_rules! each_pass {
    ($passes:expr, $cards:expr, $stop:expr, $pass:expr) => {{
        let passes: u32 = $passes;
        if $crate::catalogue::long_deals::never($stop) {
            for _ in 0..passes {
                $pass;
            }
        } else {
            let block = $crate::catalogue::long_deals::passes_per_look($cards);
            let mut left = passes;
            // A deal of a few passes (up to a block) never asks.
            while left > 0 && !(passes > block && $crate::catalogue::long_deals::Stop::now($stop)) {
                let now = left.min(block);
                for _ in 0..now {
                    $pass;
                }
                left -= now;
            }
        }
    }};
}
pub(crate) use each_pass;
