//! Tallies of samples (`k` of `n` items): how often each subset, each ordered selection
//! and each item came out.
//!
//! Three tables, each plain counts that add across threads, chunks and machines:
//! - subsets, by colex rank ([`combinadic`](super::combinadic)): `C(n, k)` cells, the
//!   sufficient statistic for "is every subset equally likely";
//! - ordered selections, by partial Lehmer rank: `n!/(n-k)!` cells, kept only for samplers
//!   that promise a random order (for the others the order is known not to be uniform);
//! - inclusion, how often each item was picked: `n` cells, always kept, so that a sampler
//!   can be judged (and its never-picked items named) at any size.
//!
//! A table is kept only up to [`MAX_TALLIED_CELLS`] cells, the same cap as a deck's
//! table of orders (10!): beyond it one counter per outcome costs more memory than it is
//! worth, and a χ² test would need more than 18 million samples to run.

use super::combinadic::{SubsetRanker, choose};
use super::item_game::ItemGameTally;
use super::lehmer::{falling_factorial, partial_rank};

/// The largest table of outcomes tallied one by one: 10! = 3,628,800 cells, as for orders.
pub const MAX_TALLIED_CELLS: u64 = 3_628_800;

/// `C(n, k)`, the number of subsets; `None` when it does not fit in a `u64`.
pub fn subset_cells(n: usize, k: usize) -> Option<u64> {
    choose(n as u64, k as u64)
}

/// `n!/(n-k)!`, the number of ordered selections; `None` when it does not fit in a `u64`.
pub fn ordered_cells(n: usize, k: usize) -> Option<u64> {
    falling_factorial(n, k)
}

/// Whether a table of `cells` (as [`subset_cells`] or [`ordered_cells`] give it) is kept.
pub fn is_tallied(cells: Option<u64>) -> bool {
    cells.is_some_and(|cells| cells <= MAX_TALLIED_CELLS)
}

/// The accumulator a simulation thread writes each selection into.
#[derive(Clone, Debug)]
pub struct SelectionRecorder {
    n: usize,
    k: usize,
    trials: u64,
    subsets: Option<(SubsetRanker, Vec<u64>)>,
    ordered: Option<Vec<u64>>,
    inclusion: Vec<u64>,
    /// Scratch for sorting a selection before ranking it.
    sorted: Vec<u16>,
    /// How many items consecutive selections share, when their order is tested.
    overlaps: Option<Overlaps>,
}

/// The overlaps of consecutive selections within a chunk: entry `j` counts pairs that
/// share exactly `j` items. For independent uniform selections of `k` of `n` items the
/// overlap is hypergeometric; a sampler whose picks follow from the picks before (a
/// generator re-seeded from a clock) is not.
#[derive(Clone, Debug)]
struct Overlaps {
    counts: Vec<u64>,
    /// Whether each item was in the previous selection of the chunk.
    previous: Vec<bool>,
    has_previous: bool,
}

impl SelectionRecorder {
    /// An empty tally of `k`-selections of `0..n`; `ordered` keeps the ordered selections
    /// too (when they fit).
    pub fn new(n: usize, k: usize, ordered: bool) -> Self {
        assert!(k <= n && n <= 1 << 16, "{k} of {n} items");
        let subsets = is_tallied(subset_cells(n, k)).then(|| {
            let cells = subset_cells(n, k).expect("tallied tables fit") as usize;
            (SubsetRanker::new(n, k), vec![0u64; cells])
        });
        let ordered = (ordered && is_tallied(ordered_cells(n, k)))
            .then(|| vec![0u64; ordered_cells(n, k).expect("tallied tables fit") as usize]);
        Self {
            n,
            k,
            trials: 0,
            subsets,
            ordered,
            inclusion: vec![0; n],
            sorted: Vec::with_capacity(k),
            overlaps: None,
        }
    }

    /// The same recorder, also counting how many items consecutive selections share
    /// (within chunks: [`SelectionRecorder::start_chunk`]); selections must then be
    /// recorded one at a time, in order.
    pub fn with_overlaps(mut self) -> Self {
        self.overlaps = Some(Overlaps {
            counts: vec![0; self.k + 1],
            previous: vec![false; self.n],
            has_previous: false,
        });
        self
    }

    /// A new run of consecutive selections starts: no pair reaches back before it.
    pub fn start_chunk(&mut self) {
        if let Some(overlaps) = &mut self.overlaps {
            overlaps.has_previous = false;
        }
    }

    /// About how many bytes one recorder holds: its counters and its ranking table.
    pub fn footprint(n: usize, k: usize, ordered: bool) -> u64 {
        let kept = |cells: Option<u64>| if is_tallied(cells) { cells.unwrap_or(0) } else { 0 };
        let subsets = kept(subset_cells(n, k));
        let ranker = if subsets > 0 {
            SubsetRanker::entries(n, k)
        } else {
            0
        };
        let ordered = if ordered { kept(ordered_cells(n, k)) } else { 0 };
        (subsets + ranker + ordered + n as u64) * std::mem::size_of::<u64>() as u64
    }

    /// Records one selection: `k` distinct items of `0..n`, in the order picked.
    #[inline]
    pub fn record(&mut self, selection: &[u16]) {
        debug_assert_eq!(selection.len(), self.k);
        self.trials += 1;
        if let Some(overlaps) = &mut self.overlaps {
            if overlaps.has_previous {
                let shared = selection
                    .iter()
                    .filter(|&&item| overlaps.previous[usize::from(item)])
                    .count();
                overlaps.counts[shared] += 1;
            }
            overlaps.previous.fill(false);
            for &item in selection {
                overlaps.previous[usize::from(item)] = true;
            }
            overlaps.has_previous = true;
        }
        for &item in selection {
            self.inclusion[usize::from(item)] += 1;
        }
        if let Some(ordered) = &mut self.ordered {
            ordered[partial_rank(selection, self.n)] += 1;
        }
        if let Some((ranker, counts)) = &mut self.subsets {
            self.sorted.clear();
            self.sorted.extend_from_slice(selection);
            if !self.sorted.is_sorted() {
                self.sorted.sort_unstable();
            }
            assert!(
                self.sorted.windows(2).all(|pair| pair[0] < pair[1]),
                "a sampler picked an item twice: {selection:?}"
            );
            counts[ranker.rank(&self.sorted)] += 1;
        }
    }

    /// Adds another recorder's counts to this one.
    pub fn merge(&mut self, other: &Self) {
        assert_eq!(
            (self.n, self.k),
            (other.n, other.k),
            "merging tallies of different sizes"
        );
        self.trials += other.trials;
        add_counts(&mut self.inclusion, &other.inclusion);
        match (&mut self.overlaps, &other.overlaps) {
            (Some(into), Some(from)) => add_counts(&mut into.counts, &from.counts),
            (None, None) => {}
            _ => unreachable!("recorders of one run tally the same things"),
        }
        match (&mut self.subsets, &other.subsets) {
            (Some((_, into)), Some((_, from))) => add_counts(into, from),
            (None, None) => {}
            _ => unreachable!("recorders of the same size keep the same tables"),
        }
        match (&mut self.ordered, &other.ordered) {
            (Some(into), Some(from)) => add_counts(into, from),
            (None, None) => {}
            _ => panic!("merging a tally that kept ordered selections with one that did not"),
        }
    }

    /// The finished tally.
    pub fn finish(self) -> SelectionTally {
        SelectionTally {
            n: self.n,
            k: self.k,
            trials: self.trials,
            subset_counts: self.subsets.map(|(_, counts)| counts),
            ordered_counts: self.ordered,
            inclusion_counts: self.inclusion,
            overlap_counts: self.overlaps.map(|overlaps| overlaps.counts),
            guessing: None,
        }
    }
}

/// The tally of a finished sampler run. Tables that were not kept are `None`.
#[derive(Clone, Debug, PartialEq)]
pub struct SelectionTally {
    /// Items to pick from.
    pub n: usize,
    /// Items picked per sample.
    pub k: usize,
    /// Samples tallied.
    pub trials: u64,
    /// Count of each of the `C(n, k)` subsets, by colex rank (when it fits the cap).
    pub subset_counts: Option<Vec<u64>>,
    /// Count of each of the `n!/(n-k)!` ordered selections, by partial Lehmer rank (for
    /// samplers that promise a random order, when it fits the cap).
    pub ordered_counts: Option<Vec<u64>>,
    /// How often each item was picked (`n` entries, summing to `k · trials`).
    pub inclusion_counts: Vec<u64>,
    /// Entry `j` counts consecutive selections (within chunks) that share exactly `j`
    /// items (`k + 1` entries), when counted.
    pub overlap_counts: Option<Vec<u64>>,
    /// The guessing game played on the run's first samples, once attached (not a count:
    /// a property of the whole run, the same in every shard that starts at the first).
    pub guessing: Option<Box<ItemGameTally>>,
}

impl SelectionTally {
    /// Adds another tally of the same size, holding the same tables (a shard's, say).
    ///
    /// # Panics
    /// If the two differ in size or in the tables they hold.
    pub fn add(&mut self, other: &Self) {
        assert_eq!(
            (self.n, self.k),
            (other.n, other.k),
            "adding tallies of different sizes"
        );
        self.trials += other.trials;
        if self.guessing.is_none() {
            self.guessing.clone_from(&other.guessing);
        }
        add_counts(&mut self.inclusion_counts, &other.inclusion_counts);
        for (into, from) in [
            (&mut self.subset_counts, &other.subset_counts),
            (&mut self.ordered_counts, &other.ordered_counts),
            (&mut self.overlap_counts, &other.overlap_counts),
        ] {
            match (into, from) {
                (Some(into), Some(from)) => add_counts(into, from),
                (None, None) => {}
                _ => panic!("adding a tally that kept a table to one that did not"),
            }
        }
    }
}

fn add_counts(into: &mut [u64], from: &[u64]) {
    assert_eq!(into.len(), from.len(), "merging tables of different shapes");
    for (total, &count) in into.iter_mut().zip(from) {
        *total += count;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tally::combinadic;
    use crate::tally::lehmer::{MAX_RANKED_N, factorial};

    #[test]
    fn the_cap_is_the_order_tables() {
        assert_eq!(factorial(MAX_RANKED_N), Some(MAX_TALLIED_CELLS));
    }

    #[test]
    fn every_table_counts_what_was_recorded() {
        let mut recorder = SelectionRecorder::new(5, 2, true);
        for selection in [[3, 1], [1, 3], [0, 4], [4, 0], [3, 1]] {
            recorder.record(&selection);
        }
        let tally = recorder.finish();
        assert_eq!(tally.trials, 5);
        assert_eq!(tally.inclusion_counts, vec![2, 3, 0, 3, 2]);
        let subsets = tally.subset_counts.unwrap();
        assert_eq!(subsets.len(), 10);
        assert_eq!(subsets[combinadic::rank(&[1, 3]) as usize], 3);
        assert_eq!(subsets[combinadic::rank(&[0, 4]) as usize], 2);
        assert_eq!(subsets.iter().sum::<u64>(), 5);
        let ordered = tally.ordered_counts.unwrap();
        assert_eq!(ordered.len(), 20);
        assert_eq!(ordered[partial_rank(&[3, 1], 5)], 2);
        assert_eq!(ordered[partial_rank(&[1, 3], 5)], 1);
        assert_eq!(ordered.iter().sum::<u64>(), 5);
    }

    #[test]
    fn ordered_selections_are_kept_only_when_asked_for() {
        let mut recorder = SelectionRecorder::new(6, 3, false);
        recorder.record(&[5, 0, 2]);
        let tally = recorder.finish();
        assert!(tally.ordered_counts.is_none());
        assert_eq!(tally.subset_counts.unwrap().len(), 20);
    }

    #[test]
    fn tables_past_the_cap_are_skipped_but_inclusion_is_always_kept() {
        // C(30, 15) = 155,117,520 subsets; 30!/15! ordered selections.
        let mut recorder = SelectionRecorder::new(30, 15, true);
        let selection: Vec<u16> = (0..30).step_by(2).collect();
        recorder.record(&selection);
        let tally = recorder.finish();
        assert!(tally.subset_counts.is_none() && tally.ordered_counts.is_none());
        assert_eq!(tally.inclusion_counts.iter().sum::<u64>(), 15);
        assert_eq!(tally.inclusion_counts[28], 1);
        assert_eq!(tally.inclusion_counts[29], 0);
        // The cap itself: C(25, 12) = 5,200,300 is over it, C(24, 12) = 2,704,156 under.
        assert!(!is_tallied(subset_cells(25, 12)));
        assert!(is_tallied(subset_cells(24, 12)));
        assert!(is_tallied(ordered_cells(10, 9)));
        assert!(!is_tallied(ordered_cells(2000, 3)));
        assert!(!is_tallied(subset_cells(2000, 1000)), "C(2000, 1000) overflows");
    }

    #[test]
    fn footprints_follow_the_tables_kept() {
        // 6 choose 3: 20 subsets, a 3 × 4 ranking table, 120 ordered, 6 items.
        assert_eq!(SelectionRecorder::footprint(6, 3, true), (20 + 12 + 120 + 6) * 8);
        assert_eq!(SelectionRecorder::footprint(6, 3, false), (20 + 12 + 6) * 8);
        assert_eq!(SelectionRecorder::footprint(2000, 1000, true), 2000 * 8);
    }

    #[test]
    fn merging_adds_counts() {
        let mut a = SelectionRecorder::new(4, 2, true);
        let mut b = SelectionRecorder::new(4, 2, true);
        a.record(&[0, 1]);
        b.record(&[0, 1]);
        b.record(&[3, 2]);
        a.merge(&b);
        let tally = a.finish();
        assert_eq!(tally.trials, 3);
        assert_eq!(tally.inclusion_counts, vec![2, 2, 1, 1]);
        assert_eq!(tally.subset_counts.unwrap()[0], 2);
        assert_eq!(tally.ordered_counts.unwrap()[partial_rank(&[3, 2], 4)], 1);
    }

    #[test]
    fn adding_finished_tallies_is_merging_their_recorders() {
        let selections: [[u16; 2]; 4] = [[0, 1], [3, 2], [2, 3], [1, 0]];
        let record = |part: &[[u16; 2]]| {
            let mut recorder = SelectionRecorder::new(4, 2, true);
            for selection in part {
                recorder.record(selection);
            }
            recorder
        };
        let mut whole = record(&selections[..1]);
        whole.merge(&record(&selections[1..]));
        let mut added = record(&selections[..1]).finish();
        added.add(&record(&selections[1..]).finish());
        assert_eq!(added, whole.finish());
    }

    #[test]
    #[should_panic(expected = "picked an item twice")]
    fn a_repeated_item_is_a_bug_not_a_count() {
        SelectionRecorder::new(5, 2, false).record(&[3, 3]);
    }
}
