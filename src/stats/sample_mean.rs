//! The mean of a sample and the half-width of its 95 % normal interval, from running sums.
//!
//! The guessing games (a deal's right guesses, a window's, a strategy's value on simulated
//! deals) all report "mean ± half-width" from a sum and a sum of squares kept as the deals
//! are played. One function computes it, so that every report treats the edge cases alike:
//! no values give a mean of 0 with no width (nothing was measured, and 0/0 must not reach
//! a JSON number), and one value gives its own value with no width (a single deal has no
//! spread to estimate). The variance is the unbiased one (divided by `count − 1`), clamped
//! at 0 against rounding, and the interval is ± 1.96 standard errors: the values are
//! independent and their number large wherever it is reported.

/// `(mean, half-width of its 95 % interval)` of `count` values whose sum is `sum` and
/// whose sum of squares is `sum_of_squares`.
pub fn mean_and_half_width(sum: f64, sum_of_squares: f64, count: u64) -> (f64, f64) {
    if count == 0 {
        return (0.0, 0.0);
    }
    let values = count as f64;
    let mean = sum / values;
    if count == 1 {
        return (mean, 0.0);
    }
    let variance = ((sum_of_squares - values * mean * mean) / (values - 1.0)).max(0.0);
    (mean, 1.96 * (variance / values).sqrt())
}

#[cfg(test)]
mod tests;
