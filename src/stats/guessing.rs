//! The exact law of the card-guessing game under a fair shuffle.
//!
//! Turn the cards of a deal up one at a time and guess each before it shows. Under a fair
//! shuffle the card at step `i` is uniform over the `n − i` cards not yet seen, whatever
//! came before and whatever the player knows of earlier deals, so the guess at that step is
//! right with probability exactly `1/(n − i)`, independently of the other steps. The
//! correct guesses of one deal are therefore a sum of independent Bernoulli(1/k),
//! `k = 1..n` (the law of the number of cycles of a uniform permutation), with mean
//! `H_n = 1 + 1/2 + … + 1/n`; those of `D` deals, a sum of `D·n` independent Bernoullis.
//! That holds for *any* strategy fixed before the deals are played, which is what makes a
//! strategy learned on other deals an exact test, with no approximation.
//!
//! The upper tail of the `D`-deal total is computed exactly: the one-deal law is raised to
//! the power `D` by repeated convolution (squaring), each intermediate law kept in `f64`
//! scaled so that its largest cell is 1, with its logarithmic scale beside it. Every sum
//! is of positive terms (no cancellation), so the cells are accurate to a few ulps per
//! step; cells below `1e-300` of the largest are dropped after each step, which changes
//! any probability by less than `1e-290` in absolute terms (far below the reporting
//! floor). A count beyond the kept cells has a tail below that: it is reported by its
//! Chernoff bound, an upper bound, so the p-value stays conservative.
//!
//! That width is only needed for tails far out. Each p-value is first computed with cells
//! below `1e-40` dropped ([`QUICK_DROP_BELOW`]), about a third of the width and a seventh
//! of the multiply-adds (a few hundred microseconds instead of ten milliseconds for the
//! 8,192 deals of a 5-card game): that changes any probability by less than `1e-33`, so a
//! tail above [`QUICK_TRUSTED_ABOVE`] (every fair result, and most biased ones) is right
//! to eight significant digits or better. A smaller tail is computed again at `1e-300`.

use super::pvalue::PValue;

/// Cells below this fraction of a law's largest cell are dropped.
const DROP_BELOW: f64 = 1e-300;

/// The same, for the first, narrower computation of a p-value.
const QUICK_DROP_BELOW: f64 = 1e-40;

/// A tail above this from the narrower computation is kept (in log10): its error, below
/// `1e-33` absolute, is under `1e-8` of it.
const QUICK_TRUSTED_ABOVE: f64 = -25.0;

/// The expected correct guesses per deal under a fair shuffle, whatever the strategy:
/// `H_n = 1 + 1/2 + … + 1/n`.
pub fn fair_expected_correct(n: usize) -> f64 {
    (1..=n).map(|k| 1.0 / k as f64).sum()
}

/// The variance of one deal's correct guesses under a fair shuffle: `Σ (1/k)(1 − 1/k)`.
pub fn fair_variance(n: usize) -> f64 {
    (1..=n)
        .map(|k| {
            let p = 1.0 / k as f64;
            p * (1.0 - p)
        })
        .sum()
}

/// The probabilities of `0..=n` correct guesses in one deal of `n` cards under a fair
/// shuffle, by convolving the `n` Bernoulli(1/k) one at a time.
pub fn one_deal_law(n: usize) -> Vec<f64> {
    let probabilities: Vec<f64> = (1..=n).map(|k| 1.0 / k as f64).collect();
    law_of(&probabilities)
}

/// A law on `offset..offset + cells.len()`: `P(X = offset + i) = cells[i] · e^ln_scale`.
#[derive(Clone, Debug)]
struct ScaledLaw {
    offset: u64,
    cells: Vec<f64>,
    ln_scale: f64,
    /// Cells below this fraction of the largest are dropped.
    drop_below: f64,
}

impl ScaledLaw {
    fn new(probabilities: &[f64], drop_below: f64) -> Self {
        let mut law = Self {
            offset: 0,
            cells: probabilities.to_vec(),
            ln_scale: 0.0,
            drop_below,
        };
        law.normalise();
        law
    }

    /// Scales the largest cell to 1 and drops the negligible cells at both ends.
    fn normalise(&mut self) {
        let largest = self.cells.iter().copied().fold(0.0f64, f64::max);
        assert!(largest > 0.0, "a law has mass");
        for cell in &mut self.cells {
            *cell /= largest;
        }
        self.ln_scale += largest.ln();
        let first = self.cells.iter().position(|&c| c >= self.drop_below).unwrap_or(0);
        let last = self
            .cells
            .iter()
            .rposition(|&c| c >= self.drop_below)
            .unwrap_or(0);
        self.cells.truncate(last + 1);
        self.cells.drain(..first);
        self.offset += first as u64;
    }

    /// The law of the sum of two independent variables with laws `self` and `other`.
    fn convolve(&self, other: &Self) -> Self {
        let mut cells = vec![0.0f64; self.cells.len() + other.cells.len() - 1];
        for (i, &a) in self.cells.iter().enumerate() {
            if a == 0.0 {
                continue;
            }
            for (cell, &b) in cells[i..].iter_mut().zip(&other.cells) {
                *cell += a * b;
            }
        }
        let mut law = Self {
            offset: self.offset + other.offset,
            cells,
            ln_scale: self.ln_scale + other.ln_scale,
            drop_below: self.drop_below,
        };
        law.normalise();
        law
    }

    /// The law of the sum of `times` independent copies (`times >= 1`).
    fn power(&self, times: u64) -> Self {
        let mut result: Option<Self> = None;
        let mut square = self.clone();
        let mut left = times;
        loop {
            if left & 1 == 1 {
                result = Some(match result {
                    Some(result) => result.convolve(&square),
                    None => square.clone(),
                });
            }
            left >>= 1;
            if left == 0 {
                break;
            }
            square = square.convolve(&square);
        }
        result.expect("times >= 1")
    }

    /// `P(X >= x)`, or `None` when `x` is beyond the cells kept.
    fn upper_tail(&self, x: u64) -> Option<PValue> {
        if x <= self.offset {
            return Some(PValue::ONE);
        }
        let from = usize::try_from(x - self.offset).ok()?;
        if from >= self.cells.len() {
            return None;
        }
        // The total is 1 up to the dropped cells; dividing by it keeps the rounding out.
        let total: f64 = self.cells.iter().sum();
        let tail: f64 = self.cells[from..].iter().sum();
        // As a difference of logarithms: the ratio itself could fall below f64's range.
        Some(PValue::from_log10((tail.log10() - total.log10()).min(0.0)))
    }
}

/// The exact p-value of `correct` or more correct guesses in `deals` deals of `n` cards
/// under a fair shuffle (see the module docs); `PValue::ONE` for no deals.
///
/// Costs about `(100 σ √deals)²` multiply-adds, `σ² ≈ ln n`: a fraction of a second for
/// the 8,192 deals the game plays.
pub fn guessing_p_value(n: usize, deals: u64, correct: u64) -> PValue {
    let per_deal: Vec<f64> = (1..=n).map(|k| 1.0 / k as f64).collect();
    poisson_binomial_p_value(&per_deal, deals, correct)
}

/// The exact p-value of `correct` or more successes in `deals` independent repetitions of
/// independent Bernoulli trials with probabilities `per_deal` (a Poisson-binomial law
/// raised to the power `deals`); `PValue::ONE` for no deals. The shuffle game is the case
/// `per_deal = 1/n, 1/(n−1), …, 1`; a uniform ordered selection of `k` of `n` is
/// `1/n, …, 1/(n−k+1)`; `m` equal items drawn independently, `1/m` each.
pub fn poisson_binomial_p_value(per_deal: &[f64], deals: u64, correct: u64) -> PValue {
    if deals == 0 || correct == 0 {
        return PValue::ONE;
    }
    let cards = deals.saturating_mul(per_deal.len() as u64);
    if correct > cards {
        return PValue::from_log10(f64::NEG_INFINITY);
    }
    if correct == cards {
        // Every guess right: exactly the product of the probabilities, as the bound says.
        return chernoff_bound_of(per_deal, deals, cards);
    }
    let one_deal = law_of(per_deal);
    let quick = ScaledLaw::new(&one_deal, QUICK_DROP_BELOW).power(deals);
    if let Some(p) = quick
        .upper_tail(correct)
        .filter(|p| p.log10() > QUICK_TRUSTED_ABOVE)
    {
        return p;
    }
    let law = ScaledLaw::new(&one_deal, DROP_BELOW).power(deals);
    law.upper_tail(correct)
        .unwrap_or_else(|| chernoff_bound_of(per_deal, deals, correct))
}

/// The law of the number of successes of independent Bernoulli trials, by convolving
/// them one at a time.
fn law_of(probabilities: &[f64]) -> Vec<f64> {
    let mut law = vec![1.0f64];
    for &p in probabilities {
        let mut next = vec![0.0; law.len() + 1];
        for (correct, &probability) in law.iter().enumerate() {
            next[correct] += probability * (1.0 - p);
            next[correct + 1] += probability * p;
        }
        law = next;
    }
    law
}

/// The Chernoff bound on `P(X >= correct)`, an upper bound: `min_θ E[e^{θX}] e^{−θ·correct}`.
/// Used only where the exact tail is below the cells kept (below about `1e-290`).
pub fn chernoff_bound(n: usize, deals: u64, correct: u64) -> PValue {
    let per_deal: Vec<f64> = (1..=n).map(|k| 1.0 / k as f64).collect();
    chernoff_bound_of(&per_deal, deals, correct)
}

/// [`chernoff_bound`] for any Bernoulli probabilities per deal.
fn chernoff_bound_of(probabilities: &[f64], deals: u64, correct: u64) -> PValue {
    let d = deals as f64;
    let x = correct as f64;
    let mean = d * probabilities.iter().sum::<f64>();
    if x <= mean {
        return PValue::ONE;
    }
    let cards = deals as f64 * probabilities.len() as f64;
    if x >= cards {
        // Every guess right: exactly the product of the probabilities, `deals` times.
        let ln_all: f64 = probabilities.iter().map(|p| p.ln()).sum();
        return PValue::from_log10((d * ln_all / std::f64::consts::LN_10).min(0.0));
    }
    let expected_at = |theta: f64| -> f64 {
        let e = theta.exp();
        d * probabilities
            .iter()
            .map(|&p| p * e / (1.0 - p + p * e))
            .sum::<f64>()
    };
    let (mut low, mut high) = (0.0f64, 1.0f64);
    while expected_at(high) < x && high < 700.0 {
        high *= 2.0;
    }
    for _ in 0..200 {
        let mid = 0.5 * (low + high);
        if expected_at(mid) < x {
            low = mid;
        } else {
            high = mid;
        }
    }
    let theta = high;
    let ln_mgf: f64 = d * probabilities
        .iter()
        .map(|&p| (1.0 - p + p * theta.exp()).ln())
        .sum::<f64>();
    PValue::from_log10(((ln_mgf - theta * x) / std::f64::consts::LN_10).min(0.0))
}

#[cfg(test)]
mod tests;
