//! The combinatorial number system: a bijection between the `k`-subsets of `0..n` and
//! `0..C(n, k)`, so that a subset tally is one flat array of counts.
//!
//! A subset with items `c_0 < c_1 < … < c_{k-1}` has rank `Σ C(c_i, i+1)`: its position in
//! colexicographic order (compare the largest items first). This rank needs neither `n` nor
//! a search, only `k` table look-ups on the sorted items, which is why it is used on the
//! hot path instead of a lexicographic rank.

/// `C(n, k)`, or `None` when it does not fit in a `u64`.
pub fn choose(n: u64, k: u64) -> Option<u64> {
    if k > n {
        return Some(0);
    }
    let k = k.min(n - k);
    let mut value: u128 = 1;
    for i in 0..k {
        // Exact at every step: value · (n - i) is a multiple of i + 1.
        value = value * u128::from(n - i) / u128::from(i + 1);
        if value > u128::from(u64::MAX) {
            return None;
        }
    }
    Some(value as u64)
}

/// The colex rank of a sorted subset (strictly increasing items), computed directly.
pub fn rank(sorted: &[u16]) -> u64 {
    sorted
        .iter()
        .enumerate()
        .map(|(i, &item)| choose(u64::from(item), i as u64 + 1).expect("a rank below C(n, k) fits"))
        .sum()
}

/// Writes into `out` the `out.len()`-subset (sorted) whose colex rank is `rank`.
///
/// Greedy from the largest item down: `c_{k-1}` is the largest `c` with
/// `C(c, k) <= rank`, and so on with what is left of the rank.
pub fn unrank(mut rank: u64, out: &mut [u16]) {
    for i in (0..out.len()).rev() {
        let size = i as u64 + 1;
        // The smallest possible item here is i; climb while the next one still fits.
        let mut item = i as u64;
        while choose(item + 1, size).is_some_and(|c| c <= rank) {
            item += 1;
        }
        rank -= choose(item, size).expect("it was compared above");
        out[i] = item as u16;
    }
}

/// Steps a sorted `k`-subset of `0..n` to its colex successor; `false` (and leaves the
/// first subset, `0..k`) when there is none.
pub fn next_subset(subset: &mut [u16], n: usize) -> bool {
    let k = subset.len();
    // The lowest item that can move up by one without meeting the next item (or n).
    let movable = (0..k).find(|&i| {
        let limit = if i + 1 < k { usize::from(subset[i + 1]) } else { n };
        usize::from(subset[i]) + 1 < limit
    });
    match movable {
        Some(i) => {
            subset[i] += 1;
            for (j, item) in subset[..i].iter_mut().enumerate() {
                *item = j as u16;
            }
            true
        }
        None => {
            for (j, item) in subset.iter_mut().enumerate() {
                *item = j as u16;
            }
            false
        }
    }
}

/// Colex ranks of `k`-subsets of `0..n` from a table, for the simulator's hot loop.
///
/// The term of item `c_i` is `C(c_i, i+1)`, and in a subset of `0..n` item `c_i` lies in
/// `i ..= n-k+i`. So the table needs only `k × (n-k+1)` entries, `C(i+d, i+1)` at
/// `(i, d)`, filled by Pascal's rule; every entry is at most `C(n-1, k) <= C(n, k)`.
#[derive(Clone, Debug)]
pub struct SubsetRanker {
    width: usize,
    table: Vec<u64>,
}

impl SubsetRanker {
    /// A ranker for `k`-subsets of `0..n` (`k <= n`), for sizes whose `C(n, k)` fits in
    /// a `u64`.
    pub fn new(n: usize, k: usize) -> Self {
        assert!(k <= n, "a {k}-subset of {n} items");
        let width = n - k + 1;
        let mut table = vec![0u64; k * width];
        for i in 0..k {
            for d in 0..width {
                table[i * width + d] = match (i, d) {
                    (0, d) => d as u64, // C(d, 1)
                    (_, 0) => 0,        // C(i, i+1)
                    // C(i+d, i+1) = C(i+d-1, i) + C(i+d-1, i+1)
                    (i, d) => table[(i - 1) * width + d] + table[i * width + d - 1],
                };
            }
        }
        Self { width, table }
    }

    /// Entries the table holds, for memory estimates.
    pub fn entries(n: usize, k: usize) -> u64 {
        (k * (n - k + 1)) as u64
    }

    /// The colex rank of a sorted `k`-subset of `0..n`.
    #[inline]
    pub fn rank(&self, sorted: &[u16]) -> usize {
        sorted
            .iter()
            .enumerate()
            .map(|(i, &item)| self.table[i * self.width + usize::from(item) - i] as usize)
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomials() {
        assert_eq!(choose(6, 3), Some(20));
        assert_eq!(choose(52, 5), Some(2_598_960));
        assert_eq!(choose(5, 0), Some(1));
        assert_eq!(choose(5, 5), Some(1));
        assert_eq!(choose(3, 4), Some(0));
        assert_eq!(choose(0, 0), Some(1));
        assert_eq!(choose(67, 33), Some(14_226_520_737_620_288_370));
        assert_eq!(choose(68, 34), None);
        assert_eq!(choose(2000, 1000), None);
        assert_eq!(choose(2000, 1999), Some(2000));
    }

    #[test]
    fn rank_and_unrank_are_inverse_bijections_in_colex_order() {
        for n in 0..=10usize {
            for k in 0..=n {
                let count = choose(n as u64, k as u64).unwrap();
                let ranker = SubsetRanker::new(n, k);
                let mut subset: Vec<u16> = (0..k as u16).collect();
                let mut out = vec![0u16; k];
                for expected_rank in 0..count {
                    assert_eq!(rank(&subset), expected_rank, "n = {n}, k = {k}: {subset:?}");
                    assert_eq!(ranker.rank(&subset), expected_rank as usize);
                    unrank(expected_rank, &mut out);
                    assert_eq!(out, subset);
                    let more = next_subset(&mut subset, n);
                    assert_eq!(more, expected_rank + 1 < count, "n = {n}, k = {k}");
                }
                // After the last one the sequence wraps around to the first.
                assert_eq!(subset, (0..k as u16).collect::<Vec<_>>());
            }
        }
    }

    #[test]
    fn colex_order_compares_the_largest_items_first() {
        // The 3-subsets of 0..5 in colex order.
        let mut subset = [0u16, 1, 2];
        let mut order = vec![subset];
        while next_subset(&mut subset, 5) {
            order.push(subset);
        }
        assert_eq!(
            order,
            [
                [0, 1, 2],
                [0, 1, 3],
                [0, 2, 3],
                [1, 2, 3],
                [0, 1, 4],
                [0, 2, 4],
                [1, 2, 4],
                [0, 3, 4],
                [1, 3, 4],
                [2, 3, 4]
            ]
        );
    }

    #[test]
    fn large_sets_rank_from_a_small_table() {
        // 1,998 of 2,000 items: C(2000, 1998) = 1,999,000 subsets, a 1,998 × 3 table.
        let (n, k) = (2000, 1998);
        let ranker = SubsetRanker::new(n, k);
        assert_eq!(SubsetRanker::entries(n, k), 1998 * 3);
        let last: Vec<u16> = (2..2000).collect();
        assert_eq!(ranker.rank(&last), 1_999_000 - 1);
        assert_eq!(rank(&last), 1_999_000 - 1);
        let mut out = vec![0u16; k];
        unrank(1_999_000 - 1, &mut out);
        assert_eq!(out, last);
        let without_0_and_7: Vec<u16> = (1..2000).filter(|&item| item != 7).collect();
        let r = ranker.rank(&without_0_and_7);
        unrank(r as u64, &mut out);
        assert_eq!(out, without_0_and_7);
    }
}
