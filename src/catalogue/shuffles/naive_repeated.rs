//! The naive swap pass repeated: text 004's commenters' "shuffle more".

use crate::catalogue::long_deals::{each_pass, passes_until};
use crate::catalogue::shuffle::{CheckCase, Rounds, Shuffle, ShuffleFacts, SwapPasses, whole_number, Stop};
use crate::catalogue::swaps::planned_words;
use crate::catalogue::{Algorithm, CatalogueEntry, Parameter, PermutationAlgorithm, Workspace};
use crate::randomness::Randomness;

use super::naive_swap::{NAIVE_SWAP, naive_swap};

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

/// `naive-repeated:K` in the catalogue: [`naive_repeated`], `K` passes (`None`: one per
/// card, fixed by [`Shuffle::resolve`] once the deck size is known).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NaiveRepeated {
    /// Number of naive passes.
    pub passes: Option<u32>,
}

/// `naive-repeated` without a parameter makes one pass per card.
fn default_passes(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl Shuffle for NaiveRepeated {
    const ENTRIES: &'static [CatalogueEntry] = &[
        CatalogueEntry {
            name: "naive-repeated",
            summary: "the naive swap pass repeated K times",
            origin: "text 004's comments (\"shuffle more\")",
            biased_from: Some(3),
            parameter: Some(Parameter {
                name: "K",
                meaning: "number of naive passes",
                default: "n",
            }),
            algorithm: Algorithm::Permutation(PermutationAlgorithm::NaiveRepeated { passes: None }),
        },
    ];

    const CHECKS: &'static [CheckCase] = &[
        // Biased but slowly: one pass more than the naive swap. exact: 1,890,416 shuffles
        // needed at n = 4 (naive-repeated:n is not detectable at useful sizes). 20 M is 10.6x.
        CheckCase {
            name: "naive-repeated:2",
            n: 4,
            trials: 20_000_000,
            seed: 6,
        },
    ];

    fn with_parameter(_entry: &CatalogueEntry, parameter: &Parameter, value: &str) -> Result<Self, String> {
        let passes = whole_number(parameter, value, u32::MAX)?;
        Ok(Self { passes: Some(passes) })
    }

    fn resolve(self, n: usize) -> Self {
        Self {
            passes: Some(self.passes.unwrap_or_else(|| default_passes(n))),
        }
    }

    #[inline(always)]
    fn shuffle<T: Copy, R: Randomness + ?Sized>(
        self,
        deck: &mut [T],
        rng: &mut R,
        workspace: &mut Workspace<T>,
        stop: &impl Stop,
    ) {
        let cards = deck.len();
        let passes = self.passes.unwrap_or_else(|| default_passes(cards));
        let plan = planned_words::<Self>(&mut workspace.plan, NAIVE_SWAP, cards);
        each_pass!(passes, cards, stop, NAIVE_SWAP.shuffle_with(deck, rng, plan))
    }
}

impl ShuffleFacts for NaiveRepeated {
    fn parameter_shown(&self, _entry: &CatalogueEntry) -> Option<String> {
        self.passes.map(|passes| passes.to_string())
    }

    fn draw_schedule(&self, n: usize) -> Option<Vec<u64>> {
        self.rounds(n)?.listed()
    }

    fn rounds(&self, n: usize) -> Option<Rounds> {
        Some(Rounds {
            draws: n,
            rounds: self.passes?,
            bound: n as u64,
        })
    }

    fn swaps(&self) -> Option<SwapPasses> {
        Some(SwapPasses {
            shuffle: NAIVE_SWAP,
            passes: self.passes?,
        })
    }
}
