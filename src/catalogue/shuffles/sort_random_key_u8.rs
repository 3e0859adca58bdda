//! Sorting by a random 8-bit key per card: ties keep the original order, so biased.
//!
//! Shuffling by sorting is the idea several text 004 commenters propose: give every card a
//! random key and sort by it, or sort with a comparator that answers at random. Random
//! keys are fine when ties cannot happen (64-bit floats) and biased when they can (8-bit
//! keys: a stable sort keeps tied cards in their original order).

use crate::catalogue::shuffle::{CheckCase, Shuffle, ShuffleFacts, Stop};
use crate::catalogue::{Algorithm, CatalogueEntry, PermutationAlgorithm, Workspace};
use crate::randomness::Randomness;
use crate::randomness::batched::{self, each_draw};

/// The same with 8-bit keys (`0..256`). Ties are frequent (two given cards tie with
/// probability 1/256) and a stable sort keeps tied cards in their original order, so the
/// original order is favoured: biased.
pub fn sort_random_key_u8<T: Copy, R: Randomness + ?Sized>(
    deck: &mut [T],
    rng: &mut R,
    keyed: &mut Vec<(u8, T)>,
) {
    keyed.clear();
    keyed.extend(deck.iter().map(|&card| (0u8, card)));
    draw_u8_keys(keyed, rng);
    keyed.sort_by_key(|&(key, _)| key);
    for (slot, (_, card)) in deck.iter_mut().zip(keyed.iter()) {
        *slot = *card;
    }
}

/// Keys per word of [`draw_u8_keys`]: `256^7 = 2^56`, the most [`each_draw`] puts in a word.
const U8_KEYS_PER_WORD: usize = batched::draws_per_word(256);

/// One key `below(256)` per card, seven to a 64-bit word from the default source: the
/// draws of [`each_draw`] with bounds of 256, read straight off the word.
///
/// Why not [`each_draw`] itself: a word split by bounds of 256 is its top bytes, and the
/// product `2^56` leaves no rejected sliver (`2^64 mod 2^56 = 0`), but `each_draw` does not
/// know it and multiplies it all out, 7% of a 52-card sort (issue 43). A source that does
/// not batch ([`Randomness::batch_word`]) answers each word through
/// [`Randomness::below_each`], or draw by draw, as `each_draw` asks it to.
fn draw_u8_keys<T, R: Randomness + ?Sized>(keyed: &mut [(u8, T)], rng: &mut R) {
    const { assert!(U8_KEYS_PER_WORD == 7) };
    if rng.draws_one_by_one() {
        return each_draw(rng, keyed.len(), 256, |_| 256, |i, key| keyed[i].0 = key as u8);
    }
    for word_keys in keyed.chunks_mut(U8_KEYS_PER_WORD) {
        match rng.batch_word() {
            Some(word) => {
                for ((key, _), byte) in word_keys.iter_mut().zip(word.to_be_bytes()) {
                    *key = byte;
                }
            }
            None => {
                let bounds = [256; U8_KEYS_PER_WORD];
                let mut answers = [0; U8_KEYS_PER_WORD];
                let count = word_keys.len();
                rng.below_each(&bounds[..count], &mut answers[..count]);
                for ((key, _), answer) in word_keys.iter_mut().zip(answers) {
                    *key = answer as u8;
                }
            }
        }
    }
}

/// `sort-random-key-u8` in the catalogue: [`sort_random_key_u8`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SortRandomKeyU8;

impl Shuffle for SortRandomKeyU8 {
    const ENTRIES: &'static [CatalogueEntry] = &[
        CatalogueEntry {
            name: "sort-random-key-u8",
            summary: "stable sort by a random 8-bit key per card; ties keep the original order",
            origin: "text 004's comments (sort by random number, with small keys)",
            biased_from: Some(2),
            parameter: None,
            algorithm: Algorithm::Permutation(PermutationAlgorithm::SortRandomKeyU8),
        },
    ];

    const CHECKS: &'static [CheckCase] = &[
        // Biased by key ties (3 pairs in 256 at n = 3); exact: 1,408,078 shuffles needed at
        // n = 3 (n = 4 has 2^32 paths, too many to enumerate). 15 M is 10.7x.
        CheckCase {
            name: "sort-random-key-u8",
            n: 3,
            trials: 15_000_000,
            seed: 8,
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
        sort_random_key_u8(deck, rng, &mut workspace.u8_keys)
    }
}

impl ShuffleFacts for SortRandomKeyU8 {
    /// `n` draws of 256: a fixed schedule the simulator does not list (it never tallies
    /// eight-bit keys by path), known so that a deck with too many paths is refused at once.
    fn fixed_bounds(&self, n: usize) -> Option<Vec<u64>> {
        Some(vec![256; n])
    }
}
