//! From the tables of a run's JSON back to the tallies they were written from, trusting
//! nothing: a file may have been edited, truncated or written by something else, and a
//! wrong count must become an error naming it, never a silently wrong statistic.
//!
//! Every table must have the shape `run` gives it at this size (one row per outcome, in
//! the order `run` writes them, each row naming its outcome), its counts must add up to
//! the trials, and tables that follow from one another must agree: for decks of up to ten
//! cards the position matrix, fixed points and cycles are derived from the order counts
//! and compared with the file's; for larger decks every row and every column of the
//! position matrix holds each shuffle once, and the diagonal counts the fixed points.

use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer, SeqAccess, Visitor};

use crate::tally::combinadic::next_subset;
use crate::tally::lehmer::{MAX_RANKED_N, factorial, next_permutation, partial_unrank};
use crate::tally::subsets::{is_tallied, ordered_cells, subset_cells};
use crate::tally::{PermutationTally, SelectionTally};

/// Rows that each name an outcome and count it (`{"permutation":[0,2,1],"count":5}`,
/// `{"items":[0,3],"count":5}`), kept as one flat list of labels: 10! rows of their own
/// vectors would take over 200 MB.
#[derive(Debug, Default)]
pub(super) struct LabelledCounts {
    width: usize,
    labels: Vec<u16>,
    counts: Vec<u64>,
}

#[derive(Deserialize)]
struct LabelledRow {
    #[serde(rename = "permutation", alias = "items")]
    label: Vec<u16>,
    count: u64,
}

impl<'de> Deserialize<'de> for LabelledCounts {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Rows;
        impl<'de> Visitor<'de> for Rows {
            type Value = LabelledCounts;

            fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
                formatter.write_str("a list of rows, each with its outcome and its count")
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut rows: A) -> Result<Self::Value, A::Error> {
                let mut table = LabelledCounts::default();
                while let Some(row) = rows.next_element::<LabelledRow>()? {
                    if table.counts.is_empty() {
                        table.width = row.label.len();
                    } else if row.label.len() != table.width {
                        return Err(de::Error::custom(format!(
                            "row {} names {} items, the first row {}",
                            table.counts.len(),
                            row.label.len(),
                            table.width
                        )));
                    }
                    table.labels.extend_from_slice(&row.label);
                    table.counts.push(row.count);
                }
                Ok(table)
            }
        }
        deserializer.deserialize_seq(Rows)
    }
}

impl LabelledCounts {
    /// The rows' labels and counts.
    fn rows(&self) -> impl Iterator<Item = (&[u16], u64)> {
        self.labels
            .chunks_exact(self.width.max(1))
            .zip(self.counts.iter().copied())
    }

    /// Checks that the table `what` has `cells` rows of `width` items, labelled in order
    /// (`label(row, buffer)` is called for rows 0, 1, 2, … and leaves the expected label
    /// in `buffer`, which keeps its contents between calls), and counts adding up to
    /// `trials`; gives the counts.
    fn checked(
        self,
        what: &str,
        cells: u64,
        width: usize,
        trials: u64,
        mut label: impl FnMut(usize, &mut [u16]),
    ) -> Result<Vec<u64>, String> {
        if self.counts.len() as u64 != cells {
            return Err(format!(
                "{what} has {} rows; {cells} were expected",
                self.counts.len()
            ));
        }
        if self.width != width {
            return Err(format!(
                "{what} rows name {} items; {width} were expected",
                self.width
            ));
        }
        let mut expected = vec![0u16; width];
        for (row, (found, _)) in self.rows().enumerate() {
            label(row, &mut expected);
            if found != expected.as_slice() {
                return Err(format!(
                    "{what} row {row} is {found:?}, where {expected:?} was expected"
                ));
            }
        }
        check_total(what, &self.counts, trials)?;
        Ok(self.counts)
    }
}

/// A row of a law's table (`fixed_points`, `cycles`).
#[derive(Deserialize)]
pub(super) struct LawRow {
    k: usize,
    count: u64,
}

/// A row of the inclusion table.
#[derive(Deserialize)]
pub(super) struct ItemRow {
    item: usize,
    count: u64,
}

/// The tables of a shuffle's result, as the file has them.
pub(super) struct ShuffleTables {
    pub(super) permutations: Option<LabelledCounts>,
    pub(super) position_matrix: Option<Vec<Vec<u64>>>,
    pub(super) fixed_points: Option<Vec<LawRow>>,
    pub(super) cycles: Option<Vec<LawRow>>,
    pub(super) rising_sequences: Option<Vec<LawRow>>,
}

/// The tables of a sampler's result, as the file has them.
pub(super) struct SamplerTables {
    pub(super) subsets: Option<LabelledCounts>,
    pub(super) ordered_selections: Option<LabelledCounts>,
    pub(super) inclusion: Option<Vec<ItemRow>>,
    pub(super) serial_overlaps: Option<Vec<LawRow>>,
}

/// The tally of `trials` shuffles of `n` cards that `tables` describe, checked.
pub(super) fn shuffle_tally(
    n: usize,
    trials: u64,
    tables: ShuffleTables,
) -> Result<PermutationTally, String> {
    let missing = |what: &str| format!("{what} is missing (every run tallies it)");
    let law = |rows: Option<Vec<LawRow>>, what: &str| {
        let rows = rows.ok_or_else(|| missing(what))?;
        indexed_counts(rows.iter().map(|row| (row.k, row.count)), what, n + 1, trials)
    };
    let fixed_points = law(tables.fixed_points, "fixed_points")?;
    let cycles = law(tables.cycles, "cycles")?;
    let rising = law(tables.rising_sequences, "rising_sequences")?;
    if rising[0] != 0 {
        return Err("rising_sequences counts decks with 0 rising sequences".to_string());
    }
    let positions = position_matrix(
        tables.position_matrix.ok_or_else(|| missing("position_matrix"))?,
        n,
        trials,
    )?;
    if n > MAX_RANKED_N {
        if tables.permutations.is_some() {
            return Err(format!(
                "permutations are listed, but decks of more than {MAX_RANKED_N} cards do not tally them"
            ));
        }
        // The diagonal counts each fixed card once: Σ k · fixed_points[k].
        let diagonal = (0..n).try_fold(0u64, |sum, card| sum.checked_add(positions[card * n + card]));
        let fixed_cards = fixed_points
            .iter()
            .enumerate()
            .try_fold(0u64, |sum, (k, &count)| {
                sum.checked_add((k as u64).checked_mul(count)?)
            });
        if diagonal != fixed_cards {
            return Err("the position matrix's diagonal does not match the fixed_points counts".to_string());
        }
        return Ok(PermutationTally {
            n,
            trials,
            permutation_counts: None,
            position_counts: Some(positions),
            fixed_point_counts: Some(fixed_points),
            cycle_counts: Some(cycles),
            rising_sequence_counts: Some(rising),
            serial: None,
            repeats: None,
            guessing: None,
        });
    }
    let orders = factorial(n).expect("n <= 10");
    let counts = tables
        .permutations
        .ok_or_else(|| missing("permutations"))?
        .checked("permutations", orders, n, trials, |row, label| {
            if row == 0 {
                identity(label);
            } else {
                next_permutation(label);
            }
        })?;
    let tally = PermutationTally::from_order_counts(n, counts);
    for (what, derived, found) in [
        ("position_matrix", &tally.position_counts, positions),
        ("fixed_points", &tally.fixed_point_counts, fixed_points),
        ("cycles", &tally.cycle_counts, cycles),
        ("rising_sequences", &tally.rising_sequence_counts, rising),
    ] {
        if derived.as_ref() != Some(&found) {
            return Err(format!("{what} does not follow from the permutation counts"));
        }
    }
    Ok(tally)
}

/// The tally of `trials` samples of `k` of `n` items that `tables` describe, checked;
/// `ordered` says whether the sampler promises a random order (and so has its ordered
/// selections tallied, when they fit).
pub(super) fn sampler_tally(
    n: usize,
    k: usize,
    trials: u64,
    ordered: bool,
    tables: SamplerTables,
) -> Result<SelectionTally, String> {
    let inclusion_rows = tables
        .inclusion
        .ok_or("inclusion is missing (every sampler run tallies it)")?;
    let picks = trials
        .checked_mul(k as u64)
        .ok_or("the trials are too many to pick from")?;
    let inclusion = indexed_counts(
        inclusion_rows.iter().map(|row| (row.item, row.count)),
        "inclusion",
        n,
        picks,
    )?;
    let subsets = expected_table(
        tables.subsets,
        "subsets",
        subset_cells(n, k).filter(|_| is_tallied(subset_cells(n, k))),
    )?
    .map(|(subsets, cells)| {
        // Each subset's items are picked once per sample that chose it.
        let mut derived = vec![0u64; n];
        for (items, count) in subsets.rows() {
            for &item in items {
                if let Some(total) = derived.get_mut(usize::from(item)) {
                    *total = total.saturating_add(count);
                }
            }
        }
        let counts = subsets.checked("subsets", cells, k, trials, |row, label| {
            if row == 0 {
                identity(label);
            } else {
                next_subset(label, n);
            }
        })?;
        if derived != inclusion {
            return Err("inclusion does not follow from the subset counts".to_string());
        }
        Ok(counts)
    })
    .transpose()?;
    let ordered_counts = expected_table(
        tables.ordered_selections,
        "ordered_selections",
        ordered_cells(n, k).filter(|_| ordered && is_tallied(ordered_cells(n, k))),
    )?
    .map(|(selections, cells)| {
        selections.checked("ordered_selections", cells, k, trials, |rank, label| {
            partial_unrank(rank, n, label)
        })
    })
    .transpose()?;
    // Consecutive selections within chunks: fewer pairs than selections.
    let overlap_counts = tables
        .serial_overlaps
        .map(|rows| {
            let pairs = rows
                .iter()
                .try_fold(0u64, |sum, row| sum.checked_add(row.count))
                .filter(|&pairs| pairs < trials)
                .ok_or_else(|| "serial_overlaps counts more pairs than the samples make".to_string())?;
            indexed_counts(
                rows.iter().map(|row| (row.k, row.count)),
                "serial_overlaps",
                k + 1,
                pairs,
            )
        })
        .transpose()?;
    Ok(SelectionTally {
        n,
        k,
        trials,
        subset_counts: subsets,
        ordered_counts,
        inclusion_counts: inclusion,
        overlap_counts,
        guessing: None,
    })
}

/// The table `what`, present exactly when `run` tallies it (`cells` rows), else `None`.
fn expected_table(
    table: Option<LabelledCounts>,
    what: &str,
    cells: Option<u64>,
) -> Result<Option<(LabelledCounts, u64)>, String> {
    match (table, cells) {
        (Some(table), Some(cells)) => Ok(Some((table, cells))),
        (None, None) => Ok(None),
        (None, Some(_)) => Err(format!("{what} is missing (a run of this size tallies it)")),
        (Some(_), None) => Err(format!(
            "{what} is listed, but a run of this sampler at this size does not tally it"
        )),
    }
}

/// `0, 1, 2, …` into `label`.
fn identity(label: &mut [u16]) {
    for (i, item) in label.iter_mut().enumerate() {
        *item = i as u16;
    }
}

/// The counts of rows numbered `0..len` in order (`(number, count)`), adding up to `total`.
fn indexed_counts(
    rows: impl ExactSizeIterator<Item = (usize, u64)>,
    what: &str,
    len: usize,
    total: u64,
) -> Result<Vec<u64>, String> {
    if rows.len() != len {
        return Err(format!("{what} has {} rows; {len} were expected", rows.len()));
    }
    let counts = rows
        .enumerate()
        .map(|(expected, (number, count))| {
            if number == expected {
                Ok(count)
            } else {
                Err(format!("{what} row {expected} is numbered {number}"))
            }
        })
        .collect::<Result<Vec<u64>, String>>()?;
    check_total(what, &counts, total)?;
    Ok(counts)
}

/// The `n × n` matrix, row-major, whose every row and every column adds up to `trials`.
fn position_matrix(rows: Vec<Vec<u64>>, n: usize, trials: u64) -> Result<Vec<u64>, String> {
    if rows.len() != n || rows.iter().any(|row| row.len() != n) {
        return Err(format!("position_matrix is not {n} rows of {n} counts"));
    }
    let matrix: Vec<u64> = rows.into_iter().flatten().collect();
    for card in 0..n {
        check_total(
            "a row of position_matrix",
            &matrix[card * n..(card + 1) * n],
            trials,
        )?;
        let column: Vec<u64> = matrix.iter().skip(card).step_by(n).copied().collect();
        check_total("a column of position_matrix", &column, trials)?;
    }
    Ok(matrix)
}

/// Refuses counts that do not add up to `total` (overflow included).
fn check_total(what: &str, counts: &[u64], total: u64) -> Result<(), String> {
    match counts.iter().try_fold(0u64, |sum, &count| sum.checked_add(count)) {
        Some(sum) if sum == total => Ok(()),
        Some(sum) => Err(format!("{what} adds up to {sum}, not {total}")),
        None => Err(format!("{what} adds up to more than any run")),
    }
}
