//! A test for right guesses whose chances change with what has been seen: a mixture of
//! exponential (Chernoff) martingales, read with Ville's inequality.
//!
//! In the card game every guess at step `i` is right with probability `1/(n − i)`
//! whatever came before, so the count of right guesses has an exact law (a
//! Poisson-binomial). A player who guesses the next item of a weighted stream, of a shuffle
//! bag of unequal copies, or of a sorted sample is right at step `t` with a probability
//! `p_t` that the fair law fixes *given what has been seen* (and the guess made), but that
//! depends on that history: the count is then not a Poisson-binomial, and treating it as
//! one could be anti-conservative. What stays exact is that, under the fair law,
//! `E[e^{λX_t} | past] = 1 − p_t + p_t e^λ` for every step, so for every fixed `λ ≥ 0`
//!
//! `M(λ) = exp(λ·C − Σ_t ln(1 − p_t + p_t e^λ))`, `C = Σ_t X_t`,
//!
//! is a nonnegative martingale with mean 1 (a Chernoff bound made sequential). Choosing
//! `λ` after looking at the data would break that, so the test averages `M(λ)` over a
//! fixed grid of [`GRID`] values with equal weights; the average is a martingale with mean
//! 1 too, and by Ville's (Markov's) inequality `P(average ≥ 1/α) ≤ α` under the fair law.
//! The p-value `min(1, 1/average)` is therefore never anti-conservative, whatever the
//! strategy and however the `p_t` depend on the past. The price of not knowing `λ` is at
//! most a factor [`GRID`] (31) over the best single Chernoff bound, and the Chernoff bound
//! itself is conservative: at the 1 % level a fair source fails far less often than 1 %.

use std::collections::BTreeMap;

use super::PValue;

/// How many values of `λ` are mixed.
pub const GRID: usize = 31;

/// The grid: `λ_j = 0.01 · 2^(j/2)`, `j = 0..31`, from 0.01 (a faint excess over many
/// guesses) to about 328 (a few guesses the fair law makes nearly impossible).
pub fn lambdas() -> [f64; GRID] {
    std::array::from_fn(|j| 0.01 * 2f64.powf(j as f64 / 2.0))
}

/// What the test needs: the right guesses, and how many guesses the fair law gave each
/// chance (chances repeat: a weight, a bag's few fractions), so that
/// `Σ_t ln(1 − p_t + p_t e^λ)` costs one logarithm per distinct chance and `λ`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Martingale {
    /// Right guesses.
    pub correct: u64,
    /// Guesses by chance (the chance's bits, for an exact key).
    chances: BTreeMap<u64, u64>,
}

impl Martingale {
    /// One guess, right or not, that the fair law made right with probability `p`.
    pub fn record(&mut self, p: f64, right: bool) {
        debug_assert!((0.0..=1.0).contains(&p), "a probability: {p}");
        self.correct += u64::from(right);
        *self.chances.entry(p.to_bits()).or_insert(0) += 1;
    }

    /// `Σ_t ln E[e^{λX_t} | past]` for each `λ` of the grid.
    pub fn log_mgf(&self) -> [f64; GRID] {
        let lambdas = lambdas();
        std::array::from_fn(|j| {
            let lambda = lambdas[j];
            let shrink = (-lambda).exp();
            self.chances
                .iter()
                .map(|(&bits, &count)| {
                    let p = f64::from_bits(bits);
                    // ln(1 − p + p e^λ) = λ + ln(p + (1 − p) e^−λ), stable for large λ.
                    count as f64 * (lambda + (p + (1.0 - p) * shrink).ln())
                })
                .sum()
        })
    }

    /// The p-value: `min(1, 1 / mean_j M(λ_j))`, in log space.
    pub fn p_value(&self) -> PValue {
        let logs: Vec<f64> = lambdas()
            .iter()
            .zip(self.log_mgf())
            .map(|(&lambda, log_mgf)| lambda * self.correct as f64 - log_mgf)
            .collect();
        let top = logs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let ln_mean = top + logs.iter().map(|&l| (l - top).exp()).sum::<f64>().ln() - (GRID as f64).ln();
        PValue::from_log10((-ln_mean / std::f64::consts::LN_10).min(0.0))
    }
}

#[cfg(test)]
mod tests;
