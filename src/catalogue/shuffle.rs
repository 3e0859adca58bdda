//! What a shuffle of the catalogue declares about itself, in its own file under
//! `shuffles/`: the names it is listed under (summary, source text, expected verdict,
//! parameter), how it shuffles a deck, what the rest of the crate asks of it (its draws,
//! its swaps, why it cannot be enumerated) and its `check` cases. The registry
//! (`shuffles.rs`) lists the shuffles one line each and makes [`PermutationAlgorithm`] of
//! them, so that no other file names a particular shuffle: adding one is one new file and
//! one registry line.
//!
//! Two traits, because the engine and the questions need different dispatch. [`Shuffle`]
//! is generic: the engine's loops are compiled for each shuffle and each source type, so
//! the shuffle is called directly in them, never through a pointer (a shuffle called out
//! of line ran at a seventh of its speed, issue 43). [`ShuffleFacts`] is object safe: its
//! questions are asked once a run, through `&dyn ShuffleFacts`
//! ([`PermutationAlgorithm::facts`]).

pub use super::long_deals::{NeverStop, Stop};
use super::{CatalogueEntry, Parameter, PermutationAlgorithm, Workspace};
use crate::randomness::Randomness;

pub use super::swaps::SwapShuffle;

/// Hands a shuffle to generic code as its own type ([`PermutationAlgorithm::visit`]):
/// the one way from the enum to a loop compiled for one shuffle.
pub trait Visitor {
    /// What the visit gives back.
    type Output;
    /// Does the work with `shuffle`.
    fn visit<S: Shuffle>(self, shuffle: S) -> Self::Output;
}

/// A shuffle of the catalogue: a type whose value is the shuffle with its parameters.
pub trait Shuffle: ShuffleFacts + Copy + Into<PermutationAlgorithm> + 'static {
    /// The names it is listed under, in `list`'s order, each with the shuffle it runs
    /// when named without a parameter. Most shuffles have one; a machine whose
    /// parameters are written two ways (`shelf:S`, `shelf-passes:S,P`) has two.
    const ENTRIES: &'static [CatalogueEntry];

    /// Its cases in `check`'s default suite, in order.
    const CHECKS: &'static [CheckCase] = &[];

    /// The shuffle `entry` names with `value` after its colon, or what is wrong with
    /// `value`, in words (the caller names the spelling). Asked only of entries that
    /// declare a `parameter`.
    fn with_parameter(entry: &CatalogueEntry, parameter: &Parameter, value: &str) -> Result<Self, String> {
        let _ = (parameter, value);
        Err(format!("{} takes no parameter", entry.name))
    }

    /// Fixes parameters that default to a function of the deck size (`n` naive passes).
    fn resolve(self, n: usize) -> Self {
        let _ = n;
        self
    }

    /// Shuffles `deck` in place, drawing only from `rng`, with `workspace`'s scratch
    /// space. A deal that can take seconds (thousands of passes over thousands of cards)
    /// asks `stop` now and then and, once it says so, ends part way; every other never
    /// asks. Inlined into the engine's loop over the decks.
    fn shuffle<T: Copy, R: Randomness + ?Sized>(
        self,
        deck: &mut [T],
        rng: &mut R,
        workspace: &mut Workspace<T>,
        stop: &impl Stop,
    );
}

/// What the crate asks of a shuffle outside the engine's loops. Every answer has a
/// default that says "nothing special".
pub trait ShuffleFacts {
    /// Its parameter as it runs, for its name (`3` in `naive-repeated:3`), under `entry`.
    fn parameter_shown(&self, entry: &CatalogueEntry) -> Option<String> {
        let _ = entry;
        None
    }

    /// The deck size from which it is biased, given the one its entry lists: a shuffle
    /// whose bias starts at a size its parameter sets says so here.
    fn biased_from(&self, listed: Option<usize>) -> Option<usize> {
        listed
    }

    /// The bounds of the draws one shuffle of `n` cards makes, in order, when they do not
    /// depend on the answers; `None` for the others and for schedules too long to be
    /// worth listing (more than [`LONGEST_LISTED`] draws).
    ///
    /// A fixed schedule makes the sequence of answers (the random path) a complete
    /// description of a shuffle, which the simulator uses to tally small decks by path
    /// (see `simulate`). Tests check every schedule against the draws the code makes.
    ///
    /// A swap shuffle run once has its schedule read off its swaps
    /// ([`ShuffleFacts::swaps`]); one run in passes lists its [`ShuffleFacts::rounds`].
    fn draw_schedule(&self, n: usize) -> Option<Vec<u64>> {
        let SwapPasses { shuffle, passes } = self.swaps()?;
        (passes == 1).then(|| shuffle.schedule(n))
    }

    /// [`ShuffleFacts::draw_schedule`], and the fixed schedules the simulator does not
    /// list because it never tallies them by path (eight-bit keys): what `exact` counts
    /// paths from.
    fn fixed_bounds(&self, n: usize) -> Option<Vec<u64>> {
        self.draw_schedule(n)
    }

    /// The same draws repeated in rounds, counted without listing them: `exact` refuses a
    /// law of too many paths at once, although `naive-repeated:4294967295`'s schedule
    /// would be 17 billion draws long.
    fn rounds(&self, n: usize) -> Option<Rounds> {
        let _ = n;
        None
    }

    /// The swap shuffle it is, run some number of times: what `exact` walks by swapping
    /// and computes the position matrix of.
    fn swaps(&self) -> Option<SwapPasses> {
        None
    }

    /// For a dealer who carries the deck from one deal to the next: the catalogue name of
    /// the law of one deal given the last (`riffles:3`). Such deals are not independent:
    /// a tally of single deals misses what they do, a random path describes only a
    /// series' first deal, and they are reproducible only within a series
    /// ([`Workspace::start_dealing`]).
    fn deals_follow_by(&self) -> Option<String> {
        None
    }

    /// Why its law cannot be enumerated, if it cannot.
    fn not_enumerable(&self) -> Option<NotEnumerable> {
        None
    }

    /// The number of Gilbert–Shannon–Reeds riffles it is, when it is just that: its law
    /// has Bayer and Diaconis's closed form (`exact::riffles`).
    fn gsr_riffles(&self) -> Option<u32> {
        None
    }
}

/// The most draws [`ShuffleFacts::draw_schedule`] lists: beyond it the path space exceeds
/// 2^64 for any deck worth tallying by path.
pub const LONGEST_LISTED: usize = 64;

/// The same draws repeated: `rounds` times `draws` draws, each from `0..bound`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rounds {
    /// Draws in one round.
    pub draws: usize,
    /// Rounds.
    pub rounds: u32,
    /// The bound of every draw.
    pub bound: u64,
}

impl Rounds {
    /// The schedule written out, if it is at most [`LONGEST_LISTED`] draws long.
    pub fn listed(self) -> Option<Vec<u64>> {
        let draws = self.draws.checked_mul(self.rounds as usize)?;
        (draws <= LONGEST_LISTED).then(|| vec![self.bound; draws])
    }
}

/// A swap shuffle run `passes` times in a row.
#[derive(Clone, Copy)]
pub struct SwapPasses {
    /// One pass.
    pub shuffle: SwapShuffle,
    /// How many.
    pub passes: u32,
}

/// Why a law is not enumerated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotEnumerable {
    /// What the shuffle does that stops it, e.g. "it sorts by random floating-point keys".
    pub reason: &'static str,
    /// Whether that is drawing floats, which a flawed source can answer from a finite
    /// list: `exact` says which.
    pub draws_floats: bool,
    /// What to try instead, if anything, e.g. " (sort-random-key-u8 ...)".
    pub instead: &'static str,
}

/// One case of `check`'s default suite: `trials` shuffles of `n` cards with `seed`. The
/// shuffle's file says, beside the case, why that size and count: a biased case at
/// least ten times the shuffles `exact` says the test needs, a fair one with plenty of
/// expected counts per cell.
#[derive(Clone, Copy, Debug)]
pub struct CheckCase {
    /// The name as typed, parameter included (`shelf:10`).
    pub name: &'static str,
    /// Cards.
    pub n: usize,
    /// Shuffles.
    pub trials: u64,
    /// The case's seed (unique within the suite).
    pub seed: u64,
}

/// A whole number from 1 to `most` written after a shuffle's colon, or what is wrong
/// with it in the words `AlgorithmSpec::parse` reports: "K (number of riffles, 1 to 64)
/// must be a whole number from 1 to 64, not 'x'".
pub fn whole_number(parameter: &Parameter, value: &str, most: u32) -> Result<u32, String> {
    value
        .parse::<u32>()
        .ok()
        .filter(|value| (1..=most).contains(value))
        .ok_or_else(|| {
            format!(
                "{} ({}) must be a whole number from 1 to {most}, not '{value}'",
                parameter.name, parameter.meaning
            )
        })
}
