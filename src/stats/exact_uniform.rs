//! Exact tails of Pearson's statistic for equally likely cells (the orders of a small
//! deck, a sampler's subsets), by dynamic programming over its integer form.
//!
//! Why: with few trials per cell the χ² law's upper tail is too small far out. Enumerating
//! the law of 6 equally likely cells, a fair source reaches p ≤ 1e-6 3.8 times as often as
//! 1e-6 at 30 trials, 2.3 times at 60 and 1.6 times at 150; 24 cells at 120 trials (5 per
//! order of 4 cards) 3.7 times. That is the level `fail` is read at.
//!
//! With `k` equally likely cells and `T` trials, `X = (k/T)·Σ o_i² − T`: the statistic is a
//! function of the integer `S = Σ o_i²`, so its law is a law on integers. Cell by cell, the
//! walk keeps the weight of every pair (trials used, `S` so far) at or below the observed
//! `S`; a partial sum of squares only grows, so the moment it passes the observed value its
//! whole future is in the upper tail, and is added at once in closed form instead of
//! walked. The weights are Poisson: the cells' counts are independent Poisson(`T/k`)
//! conditioned on their total being `T`, so a cell's count `o` weighs `e^-λ λ^o / o!` and
//! the cells still to come, holding `R` trials between `c` of them, weigh the Poisson(`cλ`)
//! probability of `R`; the first `o ≥ m` of the rest is a binomial tail. Every sum is of
//! positive terms, so both tails keep their relative precision (down to about `1e-290`,
//! below which a weight may underflow and the caller reads the χ² law instead).
//!
//! The work is about `k · T · S / 2` states times `√S / 2` counts each; within [`BUDGET`]
//! it covers the orders of 3 cards up to about 100 deals and of 4 cards up to about 150,
//! which is where the χ² law is furthest off. Beyond, each cell expects enough for the χ²
//! law's upper tail to be within a factor of about 1.5 at 1e-6 (measured above: it falls
//! slowly, like `1/√(T/k)`), and [`super::exact_multinomial`] still gives the lower tail
//! exactly where it matters.

use statrs::function::factorial::ln_factorial;

use super::pvalue::PValue;

/// Inner steps (one count of one cell from one state) a walk may take: about 0.1 s.
pub const BUDGET: u64 = 1 << 26;

/// States (trials used × sums of squares) a walk may hold: 32 MB of weights, twice.
const MOST_STATES: u64 = 1 << 22;

/// Below this, a tail may have lost weights to underflow: the walk gives no answer.
const SMALLEST_TRUSTED: f64 = 1e-290;

/// `P(X >= x)` and `P(X <= x)` of Pearson's statistic for `trials` multinomial trials over
/// `cells` equally likely cells, at the observed `Σ o_i² = sum_of_squares`; `None` when the
/// walk would take more than [`BUDGET`] steps or [`MOST_STATES`] states.
pub fn uniform_tails(sum_of_squares: u128, cells: u64, trials: u64) -> Option<(PValue, PValue)> {
    if cells < 2 || trials == 0 {
        return None;
    }
    let squares = u64::try_from(sum_of_squares).ok()?;
    let states = (trials + 1).checked_mul(squares + 1)?;
    if states > MOST_STATES {
        return None;
    }
    let estimated_work = (cells as f64) * (states as f64) / 2.0 * ((squares as f64).sqrt() / 2.0 + 1.0);
    if estimated_work > 4.0 * BUDGET as f64 {
        return None;
    }
    Walk::new(cells, trials, squares).run()
}

/// `e^-μ μ^r / r!`.
fn poisson(mean: f64, r: u64) -> f64 {
    if mean == 0.0 {
        return if r == 0 { 1.0 } else { 0.0 };
    }
    (-mean + r as f64 * mean.ln() - ln_factorial(r)).exp()
}

struct Walk {
    cells: u64,
    trials: u64,
    /// The observed `Σ o²`: sums above it are in the upper tail.
    squares: u64,
    /// `T / k`.
    mean: f64,
    /// A cell's weight for each count: Poisson(`mean`) probabilities.
    weight: Vec<f64>,
}

impl Walk {
    fn new(cells: u64, trials: u64, squares: u64) -> Self {
        let mean = trials as f64 / cells as f64;
        Self {
            cells,
            trials,
            squares,
            mean,
            weight: (0..=trials).map(|count| poisson(mean, count)).collect(),
        }
    }

    /// For the current cell with `later` cells after it: entry `left · row + least` is the
    /// weight of every way the current and later cells hold `left` trials with the current
    /// one holding at least `least`, for `least` up to `row − 1` (the most any walked count
    /// reaches, `√S + 1`): the Poisson(`(later + 1)·λ`) probability of `left` times the
    /// binomial tail `P(Binomial(left, 1/(later + 1)) >= least)`. Each tail is summed from
    /// the far end of the binomial's mass (no `1 − …`), each term from logarithms of a
    /// factorial table (no underflow on the way); terms beyond twelve standard deviations
    /// above the mean, below `1e-30` of it, are left out.
    fn beyond(&self, later: u64, row: usize, ln_factorials: &[f64], table: &mut Vec<f64>) {
        table.clear();
        table.resize(row * (self.trials as usize + 1), 0.0);
        let share = 1.0 / (later + 1) as f64;
        let (ln_share, ln_rest) = (share.ln(), (-share).ln_1p());
        let mut terms = Vec::new();
        for left in 0..=self.trials {
            let all = poisson((later + 1) as f64 * self.mean, left);
            let mean = left as f64 * share;
            let far = mean + 12.0 * (mean * (1.0 - share)).sqrt() + 30.0;
            let end = (far.max(row as f64) as u64).min(left);
            terms.clear();
            terms.extend((0..=end).map(|k| {
                (ln_factorials[left as usize]
                    - ln_factorials[k as usize]
                    - ln_factorials[(left - k) as usize]
                    + k as f64 * ln_share
                    + (left - k) as f64 * ln_rest)
                    .exp()
            }));
            let start = left as usize * row;
            let mut tail = 0.0;
            for least in (0..=end as usize).rev() {
                tail += terms[least];
                if least < row {
                    table[start + least] = all * tail.min(1.0);
                }
            }
        }
    }

    fn run(&self) -> Option<(PValue, PValue)> {
        let width = (self.squares + 1) as usize;
        let index = |used: u64, sum: u64| used as usize * width + sum as usize;
        let mut weights = vec![0.0f64; (self.trials as usize + 1) * width];
        let mut next = vec![0.0f64; weights.len()];
        weights[0] = 1.0;
        let mut above = 0.0f64;
        let mut steps = 0u64;
        let mut beyond = Vec::new();
        // Walked counts stay at or below √S, so tails from at most √S + 1 are asked for.
        let row = ((self.squares as f64).sqrt() as usize + 2).min(self.trials as usize + 1) + 1;
        let mut ln_factorials = vec![0.0f64; self.trials as usize + 1];
        for k in 1..=self.trials as usize {
            ln_factorials[k] = ln_factorials[k - 1] + (k as f64).ln();
        }
        for cell in 0..self.cells {
            let later = self.cells - cell - 1;
            if later > 0 {
                self.beyond(later, row, &ln_factorials, &mut beyond);
            }
            next.fill(0.0);
            for used in 0..=self.trials {
                let left = self.trials - used;
                for sum in 0..=self.squares {
                    let weight = weights[index(used, sum)];
                    if weight == 0.0 {
                        continue;
                    }
                    if later == 0 {
                        // The last cell takes what is left.
                        let total = sum + left * left;
                        let value = weight * self.weight[left as usize];
                        if total > self.squares {
                            above += value;
                        } else {
                            next[index(self.trials, total)] += value;
                        }
                        continue;
                    }
                    // Counts whose square keeps the sum at or below the observed one are
                    // walked; the rest pass it, and are added in one term.
                    let room = self.squares - sum;
                    let most = (room as f64).sqrt().floor() as u64;
                    let most = most.min(left);
                    // Guard the rounding of the square root.
                    let most = if most * most > room { most - 1 } else { most };
                    steps += most + 1;
                    if steps > BUDGET {
                        return None;
                    }
                    for count in 0..=most {
                        next[index(used + count, sum + count * count)] +=
                            weight * self.weight[count as usize];
                    }
                    if most < left {
                        above += weight * beyond[left as usize * row + most as usize + 1];
                    }
                }
            }
            std::mem::swap(&mut weights, &mut next);
        }
        let total = poisson(self.trials as f64, self.trials);
        let at_or_below: f64 = weights[index(self.trials, 0)..].iter().sum();
        let equal = weights[index(self.trials, self.squares)];
        let upper = ((above + equal) / total).min(1.0);
        let lower = (at_or_below / total).min(1.0);
        if !(upper >= SMALLEST_TRUSTED && lower >= SMALLEST_TRUSTED) {
            return None;
        }
        Some((PValue::from_probability(upper), PValue::from_probability(lower)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both tails by brute force over every vector of `trials` in `cells` cells.
    fn brute_force(squares: u64, cells: usize, trials: u64) -> (f64, f64) {
        fn walk(
            cells: usize,
            left: u64,
            squares: u64,
            ln_weight: f64,
            tails: &mut (f64, f64),
            observed: u64,
        ) {
            if cells == 1 {
                let total = squares + left * left;
                let p = (ln_weight - ln_factorial(left)).exp();
                if total >= observed {
                    tails.0 += p;
                }
                if total <= observed {
                    tails.1 += p;
                }
                return;
            }
            for count in 0..=left {
                walk(
                    cells - 1,
                    left - count,
                    squares + count * count,
                    ln_weight - ln_factorial(count),
                    tails,
                    observed,
                );
            }
        }
        let mut tails = (0.0, 0.0);
        let ln_start = ln_factorial(trials) - trials as f64 * (cells as f64).ln();
        walk(cells, trials, 0, ln_start, &mut tails, squares);
        tails
    }

    fn probability(p: PValue) -> f64 {
        10f64.powf(p.log10())
    }

    #[test]
    fn both_tails_agree_with_brute_force() {
        // 6 cells (the orders of 3 cards), 30 trials: Σ o² from 150 (all even) up.
        for squares in [150, 160, 180, 200, 240, 300, 400] {
            let (upper, lower) = uniform_tails(u128::from(squares), 6, 30).expect("a small walk");
            let (upper_brute, lower_brute) = brute_force(squares, 6, 30);
            assert!(
                (probability(upper) / upper_brute - 1.0).abs() < 1e-9,
                "S = {squares}: {upper} vs {upper_brute}"
            );
            assert!(
                (probability(lower) / lower_brute - 1.0).abs() < 1e-9,
                "S = {squares}: {lower} vs {lower_brute}"
            );
        }
    }

    #[test]
    fn far_tails_are_exact_where_the_chi_square_law_is_too_small() {
        // 30 deals of 3 cards, Σ o² = 400 (X = 50 on 5 df): the χ² law says 1.4e-9; the
        // exact tail is larger (the χ² law's far tail is too thin at 5 per cell).
        let (upper, _) = uniform_tails(400, 6, 30).unwrap();
        let chi_square = crate::stats::pvalue::chi_square_upper_tail(50.0, 5.0);
        assert!(upper.log10() > chi_square.log10(), "{upper} vs {chi_square}");
        let (brute, _) = brute_force(400, 6, 30);
        assert!((probability(upper) / brute - 1.0).abs() < 1e-9);
    }

    #[test]
    fn large_walks_are_declined() {
        // A million trials in 6 cells: far too many states.
        assert_eq!(uniform_tails(200_000_000_000, 6, 1_000_000), None);
    }
}
