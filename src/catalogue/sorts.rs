//! Shuffling by sorting, the idea several text 004 commenters propose: give every card a
//! random key and sort by it, or sort with a comparator that answers at random.
//!
//! Random keys are fine when ties cannot happen (64-bit floats) and biased when they can
//! (8-bit keys: a stable sort keeps tied cards in their original order). A random
//! comparator is biased whatever the sort, and it is not a total order, which Rust's own
//! `sort_by` may detect and panic on (Rust >= 1.81). So the comparator shuffles run on
//! our own insertion sort and top-down merge sort, the two shapes JavaScript engines have
//! used for `Array.prototype.sort`.

use std::cmp::Ordering;

use crate::randomness::Randomness;
use crate::randomness::batched::{self, each_draw};

/// Stable sort by an `f64` key drawn from `[0, 1)` for each card (Ruby's `sort_by { rand }`
/// in text 004's comments). Two keys tie with probability about `n²/2^54`: fair for any
/// deck the tool can tally.
pub fn sort_random_key<T: Copy, R: Randomness + ?Sized>(
    deck: &mut [T],
    rng: &mut R,
    keyed: &mut Vec<(f64, T)>,
) {
    keyed.clear();
    keyed.extend(deck.iter().map(|&card| (rng.unit(), card)));
    // total_cmp is a total order on f64, so the standard sort is safe here.
    keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
    for (slot, (_, card)) in deck.iter_mut().zip(keyed.iter()) {
        *slot = *card;
    }
}

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

/// A comparator that ignores its arguments and returns `Less` or `Greater` with
/// probability 1/2 each: `sort(() => Math.random() - 0.5)`.
fn coin_comparator<R: Randomness + ?Sized>(rng: &mut R) -> Ordering {
    if rng.below(2) == 0 {
        Ordering::Less
    } else {
        Ordering::Greater
    }
}

/// Right-to-left linear insertion sort with a coin-flip comparator: card `i` moves left
/// past its neighbour for as long as the comparator says the neighbour is greater. On
/// three cards this gives 1/4 to `1 2 3` and `2 1 3` and 1/8 to each other order.
pub fn sort_comparator_insertion<T: Copy, R: Randomness + ?Sized>(deck: &mut [T], rng: &mut R) {
    for i in 1..deck.len() {
        let card = deck[i];
        let mut j = i;
        while j > 0 && coin_comparator(rng) == Ordering::Greater {
            deck[j] = deck[j - 1];
            j -= 1;
        }
        deck[j] = card;
    }
}

/// Top-down merge sort with a coin-flip comparator: split at `len/2`, sort both halves,
/// merge taking the left card unless the comparator says it is greater. When one half
/// runs out the rest of the other is copied without further comparisons, which is why
/// the paths have different lengths and the result cannot be uniform for `n >= 3`.
pub fn sort_comparator_merge<T: Copy, R: Randomness + ?Sized>(
    deck: &mut [T],
    rng: &mut R,
    buffer: &mut Vec<T>,
) {
    buffer.clear();
    buffer.extend_from_slice(deck);
    merge_sort_range(deck, buffer, rng);
}

/// Sorts `deck` using `buffer` (same length) as merge space.
fn merge_sort_range<T: Copy, R: Randomness + ?Sized>(deck: &mut [T], buffer: &mut [T], rng: &mut R) {
    let len = deck.len();
    if len <= 1 {
        return;
    }
    let mid = len / 2;
    {
        let (deck_left, deck_right) = deck.split_at_mut(mid);
        let (buffer_left, buffer_right) = buffer.split_at_mut(mid);
        merge_sort_range(deck_left, buffer_left, rng);
        merge_sort_range(deck_right, buffer_right, rng);
    }
    buffer.copy_from_slice(deck);
    let (left, right) = buffer.split_at(mid);
    let (mut l, mut r) = (0, 0);
    for slot in deck.iter_mut() {
        let take_left = if l == left.len() {
            false
        } else if r == right.len() {
            true
        } else {
            coin_comparator(rng) != Ordering::Greater
        };
        if take_left {
            *slot = left[l];
            l += 1;
        } else {
            *slot = right[r];
            r += 1;
        }
    }
}
