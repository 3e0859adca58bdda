//! The shuffles "you" wrote: what the example audits (and `tests/assertion.rs` too, so
//! that the example shows shuffles whose verdicts are tested).

use rand::RngExt;

/// Durstenfeld's Fisher-Yates: from the end, swap each card with one at or before it.
pub fn fisher_yates<T>(items: &mut [T], rng: &mut impl rand::Rng) {
    for i in (1..items.len()).rev() {
        items.swap(i, rng.random_range(0..=i));
    }
}

/// The naive swap: swap each card with any card. Looks fine, is not.
pub fn naive_swap<T>(items: &mut [T], rng: &mut impl rand::Rng) {
    for i in 0..items.len() {
        items.swap(i, rng.random_range(0..items.len()));
    }
}
