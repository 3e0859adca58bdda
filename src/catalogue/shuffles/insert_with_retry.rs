//! Insertion at random indices, drawing again when an index is taken: fair, only slow.

use crate::catalogue::shuffle::{CheckCase, NotEnumerable, Shuffle, ShuffleFacts, Stop};
use crate::catalogue::{Algorithm, CatalogueEntry, PermutationAlgorithm, Workspace};
use crate::randomness::Randomness;

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

/// `insert-with-retry` in the catalogue: [`insert_with_retry`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InsertWithRetry;

impl Shuffle for InsertWithRetry {
    const ENTRIES: &'static [CatalogueEntry] = &[
        CatalogueEntry {
            name: "insert-with-retry",
            summary: "put each card at a random index of a new array, drawing again if taken",
            origin: "text 004's comments (insert into a random array index)",
            biased_from: None,
            parameter: None,
            algorithm: Algorithm::Permutation(PermutationAlgorithm::InsertWithRetry),
        },
    ];

    const CHECKS: &'static [CheckCase] = &[
        // Fair; 1,667 expected per order at n = 5.
        CheckCase {
            name: "insert-with-retry",
            n: 5,
            trials: 200_000,
            seed: 11,
        },
    ];

    #[inline(always)]
    fn shuffle<T: Copy, R: Randomness + ?Sized>(
        self,
        deck: &mut [T],
        rng: &mut R,
        workspace: &mut Workspace<T>,
        _stop: &impl Stop,
    ) {
        insert_with_retry(deck, rng, &mut workspace.flags, &mut workspace.cards)
    }
}

impl ShuffleFacts for InsertWithRetry {
    fn not_enumerable(&self) -> Option<NotEnumerable> {
        Some(NotEnumerable {
            reason: "it draws again whenever an index is taken, so its paths have no bound on their length",
            draws_floats: false,
            instead: "",
        })
    }
}
