//! Lehmer ranks: a bijection between the `n!` orders of a deck and `0..n!`, in
//! lexicographic order, so that a full permutation tally is one flat array of counts.
//!
//! `rank` is on the hot path of every simulation with `n <= 10`, so it is written for
//! small decks: counting smaller cards to the right is `n(n-1)/2` branch-free
//! comparisons, cheaper there than bit tricks.
//!
//! The same code numbers ordered selections (`k` distinct items of `n`, in order, as a
//! sampler that promises a random order produces them): [`partial_rank`] is the Lehmer
//! code cut after `k` digits, a bijection onto `0..n!/(n-k)!` in lexicographic order.

/// The largest deck whose `n!` orders are tallied one by one (10! = 3,628,800 counters).
pub const MAX_RANKED_N: usize = 10;

/// `n!` for `n <= 20` (the largest that fits in a `u64`); `None` beyond.
pub fn factorial(n: usize) -> Option<u64> {
    (1..=n as u64).try_fold(1u64, |product, k| product.checked_mul(k))
}

/// `n!/(n-k)! = n·(n-1)···(n-k+1)`, the number of ordered selections of `k` of `n` items;
/// `None` when it does not fit in a `u64`.
pub fn falling_factorial(n: usize, k: usize) -> Option<u64> {
    if k > n {
        return Some(0);
    }
    (n - k + 1..=n).try_fold(1u64, |product, factor| product.checked_mul(factor as u64))
}

/// The lexicographic rank, among the ordered selections of `selection.len()` distinct
/// items of `0..n`, of `selection`.
///
/// Digit `i` is the number of items not yet selected that are smaller than item `i`, in
/// radix `n - i`. `O(k²)`, without allocating.
pub fn partial_rank(selection: &[u16], n: usize) -> usize {
    let mut rank = 0usize;
    for (i, &item) in selection.iter().enumerate() {
        let taken_below = selection[..i].iter().filter(|&&earlier| earlier < item).count();
        rank = rank * (n - i) + usize::from(item) - taken_below;
    }
    rank
}

/// Writes into `out` the ordered selection of `out.len()` items of `0..n` whose
/// [`partial_rank`] is `rank`.
pub fn partial_unrank(mut rank: usize, n: usize, out: &mut [u16]) {
    let k = out.len();
    // Digits from the last (radix n-k+1) to the first (radix n).
    for i in (0..k).rev() {
        let radix = n - i;
        out[i] = (rank % radix) as u16;
        rank /= radix;
    }
    for i in 0..k {
        // The digit-th smallest item not taken by out[..i]: the least fixed point of
        // v = digit + #{taken <= v}, reached by iterating from below.
        let digit = usize::from(out[i]);
        let mut item = digit;
        loop {
            let next = digit
                + out[..i]
                    .iter()
                    .filter(|&&taken| usize::from(taken) <= item)
                    .count();
            if next == item {
                break;
            }
            item = next;
        }
        out[i] = item as u16;
    }
}

/// The lexicographic rank of `permutation`, a permutation of `0..n`.
#[inline]
pub fn rank(permutation: &[u16]) -> usize {
    let n = permutation.len();
    let mut rank = 0usize;
    for i in 0..n {
        let card = permutation[i];
        let smaller_to_the_right = permutation[i + 1..]
            .iter()
            .map(|&later| usize::from(later < card))
            .sum::<usize>();
        rank = rank * (n - i) + smaller_to_the_right;
    }
    rank
}

/// Writes into `out` the permutation of `0..out.len()` whose lexicographic rank is `rank`.
pub fn unrank(mut rank: usize, out: &mut [u16]) {
    let n = out.len();
    let mut remaining: Vec<u16> = (0..n as u16).collect();
    let mut radix = factorial(n.saturating_sub(1)).unwrap_or(1) as usize;
    for (i, slot) in out.iter_mut().enumerate() {
        let digit = rank / radix;
        rank %= radix;
        *slot = remaining.remove(digit);
        if i + 1 < n {
            radix /= n - 1 - i;
        }
    }
}

/// Steps `permutation` to its lexicographic successor; `false` (and leaves the last
/// permutation reversed back to the first) when there is none.
pub fn next_permutation(permutation: &mut [u16]) -> bool {
    let n = permutation.len();
    let Some(pivot) = (1..n).rev().find(|&i| permutation[i - 1] < permutation[i]) else {
        permutation.reverse();
        return false;
    };
    let pivot = pivot - 1;
    let successor = (pivot + 1..n)
        .rev()
        .find(|&j| permutation[j] > permutation[pivot])
        .expect("a larger card exists to the right of the pivot");
    permutation.swap(pivot, successor);
    permutation[pivot + 1..].reverse();
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn factorials() {
        assert_eq!(factorial(0), Some(1));
        assert_eq!(factorial(3), Some(6));
        assert_eq!(factorial(10), Some(3_628_800));
        assert_eq!(factorial(20), Some(2_432_902_008_176_640_000));
        assert_eq!(factorial(21), None);
    }

    #[test]
    fn rank_and_unrank_are_inverse_bijections_in_lexicographic_order() {
        for n in 0..=8usize {
            let count = factorial(n).unwrap() as usize;
            let mut permutation: Vec<u16> = (0..n as u16).collect();
            let mut out = vec![0u16; n];
            for expected_rank in 0..count {
                assert_eq!(rank(&permutation), expected_rank, "n = {n}: {permutation:?}");
                unrank(expected_rank, &mut out);
                assert_eq!(out, permutation);
                let more = next_permutation(&mut permutation);
                assert_eq!(more, expected_rank + 1 < count);
            }
            // After the last one the sequence wraps around to the identity.
            assert_eq!(permutation, (0..n as u16).collect::<Vec<_>>());
        }
    }

    #[test]
    fn partial_ranks_number_ordered_selections_in_lexicographic_order() {
        for n in 1..=7usize {
            for k in 0..=n {
                // Every ordered selection, in lexicographic order, by brute force.
                let mut all: Vec<Vec<u16>> = vec![Vec::new()];
                for _ in 0..k {
                    let mut longer = Vec::new();
                    for prefix in &all {
                        for item in (0..n as u16).filter(|item| !prefix.contains(item)) {
                            longer.push([prefix.as_slice(), &[item]].concat());
                        }
                    }
                    all = longer;
                }
                assert_eq!(all.len() as u64, falling_factorial(n, k).unwrap());
                let mut out = vec![0u16; k];
                for (expected_rank, selection) in all.iter().enumerate() {
                    assert_eq!(partial_rank(selection, n), expected_rank, "{selection:?} of {n}");
                    partial_unrank(expected_rank, n, &mut out);
                    assert_eq!(&out, selection);
                }
            }
        }
        // With k = n it is the full Lehmer rank.
        assert_eq!(partial_rank(&[2, 0, 1], 3), rank(&[2, 0, 1]));
        assert_eq!(falling_factorial(10, 3), Some(720));
        assert_eq!(falling_factorial(2000, 7), None);
        let mut out = [0u16; 2];
        partial_unrank(1999 * 2000 - 1, 2000, &mut out);
        assert_eq!(out, [1999, 1998]);
    }

    #[test]
    fn ten_card_ranks_round_trip() {
        let last = factorial(10).unwrap() as usize - 1;
        let mut out = [0u16; 10];
        for r in [0, 1, 12_345, 1_814_399, 1_814_400, last] {
            unrank(r, &mut out);
            assert_eq!(rank(&out), r);
        }
        unrank(last, &mut out);
        assert_eq!(out, [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    }
}
