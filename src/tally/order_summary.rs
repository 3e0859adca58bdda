//! What the tests and charts need of a run's `n!` order counts, kept up to date as counts
//! are added: the derived tables (card × position, fixed points, cycles, rising
//! sequences), the sum of the squared counts (Pearson's statistic of the permutation test
//! is a function of it) and how many orders came out.
//!
//! Why: the live page (`serve`) shows a 10-card run's charts and tests several times a
//! second, and deriving them from the 3.6 million counts each time (walk every order, sum
//! every square) costs more than a step of the run. The counts must be added anyway as
//! each step ends; keeping the summary in the same pass costs a table lookup per order
//! the step dealt, and reading it costs nothing.

use super::lehmer::factorial;
use super::shapes::{Derived, shapes};

/// The summary of order counts of `n`-card decks (`n <= MAX_RANKED_N`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderSummary {
    pub n: usize,
    /// Deals counted.
    pub trials: u64,
    /// `n × n`, card-major, as [`super::PermutationTally::position_counts`].
    pub positions: Vec<u64>,
    pub fixed_points: Vec<u64>,
    pub cycles: Vec<u64>,
    pub rising_sequences: Vec<u64>,
    /// `Σ count²` over the orders.
    pub sum_of_squares: u128,
    /// Orders that came out at least once.
    pub seen: u64,
    /// The summary of the relative permutations of consecutive deals, for a run that
    /// tallies its deals in order (a flawed source, a carried deck): the serial tests'
    /// tables, kept the same way.
    pub serial: Option<Box<OrderSummary>>,
}

impl OrderSummary {
    /// The summary of no deals.
    pub fn new(n: usize) -> Self {
        Self {
            n,
            trials: 0,
            positions: vec![0; n * n],
            fixed_points: vec![0; n + 1],
            cycles: vec![0; n + 1],
            rising_sequences: vec![0; n + 1],
            sum_of_squares: 0,
            seen: 0,
            serial: None,
        }
    }

    /// The number of orders, `n!`.
    pub fn orders(&self) -> u64 {
        factorial(self.n).expect("n <= 10")
    }

    /// Adds `added` to `total` (order counts by Lehmer rank, `n!` each), keeping this
    /// the summary of `total`: one pass over both.
    ///
    /// # Panics
    /// If either is not `n!` long.
    pub fn add(&mut self, total: &mut [u64], added: &[u64]) {
        let n = self.n;
        let shapes = shapes(n);
        assert!(
            total.len() == shapes.len() && added.len() == shapes.len(),
            "one count per order"
        );
        let mut derived = Derived {
            positions: &mut self.positions,
            fixed: &mut self.fixed_points,
            cycles: &mut self.cycles,
            rising: &mut self.rising_sequences,
        };
        let (mut trials, mut squares, mut seen) = (0u64, 0u128, 0u64);
        for ((slot, &count), &shape) in total.iter_mut().zip(added).zip(shapes) {
            if count == 0 {
                continue;
            }
            let old = *slot;
            *slot = old + count;
            // (old + count)² - old² = count · (2 old + count)
            squares += u128::from(count) * u128::from(2 * old + count);
            seen += u64::from(old == 0);
            trials += count;
            derived.add(n, shape, count);
        }
        self.trials += trials;
        self.sum_of_squares += squares;
        self.seen += seen;
    }
}

impl OrderSummary {
    /// Adds one deal of each order in `ranks` (Lehmer ranks, repeats allowed) to `total`,
    /// keeping this the summary of `total`: what a listed step dealt (see
    /// [`super::TallyOptions::listed`]), one lookup per deal.
    ///
    /// # Panics
    /// If `total` is not `n!` long or a rank is not below `n!`.
    pub fn add_ranks(&mut self, total: &mut [u64], ranks: &[u32]) {
        let n = self.n;
        let shapes = shapes(n);
        assert_eq!(total.len(), shapes.len(), "one count per order");
        let mut derived = Derived {
            positions: &mut self.positions,
            fixed: &mut self.fixed_points,
            cycles: &mut self.cycles,
            rising: &mut self.rising_sequences,
        };
        let (mut squares, mut seen) = (0u128, 0u64);
        // In rank order, the counters and shapes are read front to back: in dealing order
        // every deal was a cache miss in each 29 MB table (10 cards), ten times slower.
        // (A caller may sort them first, elsewhere than where it holds `total`.)
        let sorted_copy;
        let ranks = if ranks.is_sorted() {
            ranks
        } else {
            sorted_copy = sorted(ranks);
            &sorted_copy
        };
        for &order in ranks {
            let slot = &mut total[order as usize];
            let old = *slot;
            *slot = old + 1;
            squares += u128::from(2 * old + 1);
            seen += u64::from(old == 0);
            derived.add(n, shapes[order as usize], 1);
        }
        self.trials += ranks.len() as u64;
        self.sum_of_squares += squares;
        self.seen += seen;
    }
}

/// `ranks` sorted, by two passes of a least-significant-digit radix sort on 11 bits each
/// (a rank of 10 cards is below 2^22): linear, where a comparison sort of a step's
/// million ranks would cost as much as adding them.
pub fn sorted(ranks: &[u32]) -> Vec<u32> {
    const BITS: u32 = 11;
    const BUCKETS: usize = 1 << BITS;
    let mut from = ranks.to_vec();
    let mut into = vec![0u32; ranks.len()];
    let widest = ranks.iter().copied().max().unwrap_or(0);
    let mut shift = 0;
    while shift < 32 && widest >> shift > 0 {
        let digit = |rank: u32| ((rank >> shift) as usize) & (BUCKETS - 1);
        let mut starts = vec![0usize; BUCKETS + 1];
        for &rank in &from {
            starts[digit(rank) + 1] += 1;
        }
        for bucket in 1..=BUCKETS {
            starts[bucket] += starts[bucket - 1];
        }
        for &rank in &from {
            let slot = &mut starts[digit(rank)];
            into[*slot] = rank;
            *slot += 1;
        }
        std::mem::swap(&mut from, &mut into);
        shift += BITS;
    }
    from
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tally::PermutationTally;

    #[test]
    fn the_summary_of_added_counts_is_that_of_their_sum() {
        let n = 6;
        let orders = 720;
        let mut state = 3u64;
        let mut draw = |modulus: u64| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) % modulus
        };
        // Three steps, sparse then dense, added one after the other.
        let steps: Vec<Vec<u64>> = [3, 1, 0]
            .iter()
            .map(|&sparsity| {
                (0..orders)
                    .map(|_| if draw(4) < sparsity { 0 } else { draw(50) })
                    .collect()
            })
            .collect();
        let mut total = vec![0u64; orders];
        let mut summary = OrderSummary::new(n);
        for step in &steps {
            summary.add(&mut total, step);
        }
        let sums: Vec<u64> = (0..orders)
            .map(|rank| steps.iter().map(|step| step[rank]).sum())
            .collect();
        assert_eq!(total, sums);
        let tally = PermutationTally::from_order_counts(n, sums.clone());
        assert_eq!(summary.trials, tally.trials);
        assert_eq!(Some(&summary.positions), tally.position_counts.as_ref());
        assert_eq!(Some(&summary.fixed_points), tally.fixed_point_counts.as_ref());
        assert_eq!(Some(&summary.cycles), tally.cycle_counts.as_ref());
        assert_eq!(
            Some(&summary.rising_sequences),
            tally.rising_sequence_counts.as_ref()
        );
        let squares: u128 = sums
            .iter()
            .map(|&count| u128::from(count) * u128::from(count))
            .sum();
        assert_eq!(summary.sum_of_squares, squares);
        assert_eq!(
            summary.seen,
            sums.iter().filter(|&&count| count > 0).count() as u64
        );
        assert!(summary.seen < orders as u64, "some order never came out");

        // The same deals written down one by one, rank by rank, summarise alike.
        let ranks: Vec<u32> = (0..orders as u32)
            .flat_map(|rank| std::iter::repeat_n(rank, sums[rank as usize] as usize))
            .collect();
        let (mut listed_total, mut listed) = (vec![0u64; orders], OrderSummary::new(n));
        listed.add_ranks(&mut listed_total, &ranks[..ranks.len() / 3]);
        listed.add_ranks(&mut listed_total, &ranks[ranks.len() / 3..]);
        assert_eq!((listed, listed_total), (summary, total));
    }

    #[test]
    fn the_radix_sort_sorts() {
        let mut state = 11u64;
        let ranks: Vec<u32> = (0..10_000)
            .map(|_| {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (state >> 40) as u32 % 3_628_800
            })
            .collect();
        let mut expected = ranks.clone();
        expected.sort_unstable();
        assert_eq!(sorted(&ranks), expected);
        assert_eq!(sorted(&[]), Vec::<u32>::new());
        assert_eq!(sorted(&[0, 0]), vec![0, 0]);
    }
}
