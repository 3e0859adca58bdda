//! Effect sizes: how far from uniform, and where.
//!
//! A p-value says whether a bias is there; it grows with the number of trials and says
//! nothing of how large the bias is. Total variation distance (half the L1 distance
//! between the observed frequencies and the uniform law) says how much probability is in
//! the wrong place, and the most over- and under-represented cells say where. Observed
//! frequencies are noisy, so the distance a fair shuffle would show from noise alone is
//! reported beside it.

use statrs::function::gamma::ln_gamma;

/// Total variation distance of observed frequencies from the uniform law.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TotalVariation {
    /// `½ Σ |count/trials - 1/cells|`.
    pub distance: f64,
    /// The distance a fair shuffle shows on average from sampling noise alone with these
    /// trials: `½ · cells · E|X - trials/cells| / trials` with `X` binomial.
    pub noise_floor: f64,
}

/// Total variation of `counts` (over `trials`) from the uniform law on its cells.
pub fn total_variation_from_uniform(counts: &[u64], trials: u64) -> TotalVariation {
    let cells = counts.len() as f64;
    let uniform = 1.0 / cells;
    let distance = 0.5
        * counts
            .iter()
            .map(|&count| (count as f64 / trials as f64 - uniform).abs())
            .sum::<f64>();
    let noise_floor = 0.5 * cells * binomial_mean_absolute_deviation(trials, uniform) / trials as f64;
    TotalVariation {
        distance,
        noise_floor,
    }
}

/// `E|X - np|` for `X ~ Binomial(n, p)`, exactly, by De Moivre's formula
/// `2ν C(n, ν) p^ν (1-p)^(n-ν+1)` with `ν = ⌊np⌋ + 1`, evaluated in log space.
///
/// A normal approximation would do for large expected counts, but a 10-card tally with
/// 100,000 shuffles expects 0.03 per order, where it gives a "noise" distance of 2.4 for
/// a quantity that cannot exceed 1 (the exact value is `e^-0.03 = 0.97`).
fn binomial_mean_absolute_deviation(n: u64, p: f64) -> f64 {
    debug_assert!(p > 0.0 && p < 1.0);
    let n_f = n as f64;
    let nu = (n_f * p).floor() + 1.0;
    if nu > n_f {
        return 0.0; // only when p = 1
    }
    let ln_choose = ln_gamma(n_f + 1.0) - ln_gamma(nu + 1.0) - ln_gamma(n_f - nu + 1.0);
    (2f64.ln() + nu.ln() + ln_choose + nu * p.ln() + (n_f - nu + 1.0) * (-p).ln_1p()).exp()
}

/// One cell of a table, compared with what a uniform shuffle would give.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Deviation {
    /// Index of the cell (a Lehmer rank, or `item * n + position`).
    pub cell: usize,
    /// How often it came out.
    pub count: u64,
    /// How often it should have, on average.
    pub expected: f64,
    /// `count / expected`.
    pub ratio: f64,
}

/// The `how_many` most over-represented cells (highest count first) and the `how_many`
/// most under-represented (lowest count first), when every cell expects `expected`.
/// Ties go to the lower cell index, so the answer is deterministic.
pub fn extreme_cells(counts: &[u64], expected: f64, how_many: usize) -> (Vec<Deviation>, Vec<Deviation>) {
    let deviation = |cell: usize| Deviation {
        cell,
        count: counts[cell],
        expected,
        ratio: counts[cell] as f64 / expected,
    };
    // One pass, keeping the best few so far: a 10-card table has 3.6 million cells, and
    // sorting their indices took a quarter of a second (the live page summarises
    // several times a second). Cells come in index order, so a cell that ties one kept
    // goes after it, as the order (count, then index) wants.
    let pick = |beats: fn(u64, u64) -> bool| {
        let mut kept: Vec<usize> = Vec::with_capacity(how_many + 1);
        if how_many == 0 {
            return Vec::new();
        }
        for (cell, &count) in counts.iter().enumerate() {
            if kept.len() == how_many && !beats(count, counts[kept[how_many - 1]]) {
                continue;
            }
            let at = kept
                .iter()
                .position(|&other| beats(count, counts[other]))
                .unwrap_or(kept.len());
            kept.insert(at, cell);
            kept.truncate(how_many);
        }
        kept.into_iter().map(deviation).collect::<Vec<_>>()
    };
    (pick(|a, b| a > b), pick(|a, b| a < b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn total_variation_of_a_known_table() {
        // Frequencies 0.5, 0.25, 0.25 against 1/3 each: ½(1/6 + 1/12 + 1/12) = 1/6.
        let tv = total_variation_from_uniform(&[50, 25, 25], 100);
        assert!((tv.distance - 1.0 / 6.0).abs() < 1e-12);
        assert!(tv.noise_floor > 0.0 && tv.noise_floor < tv.distance);
        assert_eq!(total_variation_from_uniform(&[10, 10], 20).distance, 0.0);
    }

    #[test]
    fn the_noise_floor_is_exact_for_few_and_many_trials() {
        // Small cases by hand: Binomial(1, ½) and Binomial(2, ½) both have E|X - np| = ½.
        assert!((binomial_mean_absolute_deviation(1, 0.5) - 0.5).abs() < 1e-12);
        assert!((binomial_mean_absolute_deviation(2, 0.5) - 0.5).abs() < 1e-12);
        // Binomial(3, ⅓): |X - 1| is 1, 0, 1, 2 with probabilities 8, 12, 6, 1 (/27): 16/27.
        assert!((binomial_mean_absolute_deviation(3, 1.0 / 3.0) - 16.0 / 27.0).abs() < 1e-12);
        // Far fewer shuffles than orders: each order is a Poisson(λ) count with λ << 1 and
        // the expected distance is e^-λ (10 cards, 100,000 shuffles: λ = 0.0276).
        let sparse = total_variation_from_uniform(&vec![0; 3_628_800], 100_000).noise_floor;
        assert!(
            (sparse - (-100_000.0f64 / 3_628_800.0).exp()).abs() < 1e-3,
            "{sparse}"
        );
        // Many shuffles per order: the normal approximation ½·M·√(2/π)·√(p(1-p)/T).
        let dense = total_variation_from_uniform(&[0; 6], 600_000).noise_floor;
        let normal = 0.5 * 6.0 * (2.0 / std::f64::consts::PI).sqrt() * (5.0 / 36.0 / 600_000.0f64).sqrt();
        assert!((dense / normal - 1.0).abs() < 1e-3, "{dense} vs {normal}");
    }

    #[test]
    fn extremes_are_ordered_and_deterministic() {
        let counts = [5, 9, 1, 9, 0, 5];
        let (over, under) = extreme_cells(&counts, 5.0, 2);
        assert_eq!(over.iter().map(|d| d.cell).collect::<Vec<_>>(), vec![1, 3]);
        assert_eq!(under.iter().map(|d| d.cell).collect::<Vec<_>>(), vec![4, 2]);
        assert!((over[0].ratio - 1.8).abs() < 1e-12);
        let (over, under) = extreme_cells(&counts, 5.0, 10);
        assert_eq!(over.len(), 6);
        assert_eq!(under[0].cell, 4);
    }

    #[test]
    fn the_one_pass_picks_what_sorting_every_cell_picks() {
        // Counts with many ties (0..8), against a sort of every cell by (count, index).
        let mut state = 7u64;
        let counts: Vec<u64> = (0..5_000)
            .map(|_| {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (state >> 61) % 8
            })
            .collect();
        for how_many in [0, 1, 3, 10] {
            let mut by_count: Vec<usize> = (0..counts.len()).collect();
            by_count.sort_by(|&a, &b| counts[b].cmp(&counts[a]).then(a.cmp(&b)));
            let (over, _) = extreme_cells(&counts, 4.0, how_many);
            assert_eq!(
                over.iter().map(|d| d.cell).collect::<Vec<_>>(),
                by_count[..how_many]
            );
            by_count.sort_by(|&a, &b| counts[a].cmp(&counts[b]).then(a.cmp(&b)));
            let (_, under) = extreme_cells(&counts, 4.0, how_many);
            assert_eq!(
                under.iter().map(|d| d.cell).collect::<Vec<_>>(),
                by_count[..how_many]
            );
        }
    }
}
