//! p-values that stay meaningful when they are astronomically small.
//!
//! A biased shuffle tallied a billion times gives p-values like 10^-40000. An `f64`
//! underflows below about 1e-308 and statrs' `ChiSquared::sf` returns 0 well before that,
//! and "p = 0" is both false and useless for ranking results or drawing `-log10 p`. So a
//! [`PValue`] carries its base-10 logarithm: taken from `sf` where `sf` is accurate, and
//! from a continued fraction evaluated in log space where it underflows. It prints as
//! `< 1e-300` below that floor, never as 0 or NaN.

use statrs::distribution::{ChiSquared, ContinuousCDF};
use statrs::function::gamma::ln_gamma;

/// p-values below this print as `< 1e-300`.
pub const DISPLAY_FLOOR_LOG10: f64 = -300.0;

/// Below this, `sf` is computed in log space instead (statrs loses it to underflow).
const SF_RELIABLE_DOWN_TO: f64 = 1e-280;

/// A probability in `(0, 1]`, kept as its base-10 logarithm.
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
pub struct PValue {
    log10: f64,
}

impl PValue {
    /// The p-value 1 (no evidence at all).
    pub const ONE: PValue = PValue { log10: 0.0 };

    /// From a probability in `(0, 1]`.
    pub fn from_probability(p: f64) -> Self {
        debug_assert!(p > 0.0 && p <= 1.0, "p-value {p} out of (0, 1]");
        Self {
            log10: p.log10().min(0.0),
        }
    }

    /// From its base-10 logarithm (at most 0).
    pub fn from_log10(log10: f64) -> Self {
        Self {
            log10: log10.min(0.0),
        }
    }

    /// Its base-10 logarithm: exact in magnitude even far below `f64`'s range.
    pub fn log10(self) -> f64 {
        self.log10
    }

    /// The probability as an `f64`, floored at `1e-300` (see [`PValue::is_below_floor`]).
    pub fn value_floored(self) -> f64 {
        10f64.powf(self.log10.max(DISPLAY_FLOOR_LOG10))
    }

    /// Whether it is below the `1e-300` display floor.
    pub fn is_below_floor(self) -> bool {
        self.log10 < DISPLAY_FLOOR_LOG10
    }

    /// Whether it is smaller than `threshold` (a probability in `(0, 1)`).
    pub fn is_below(self, threshold: f64) -> bool {
        self.log10 < threshold.log10()
    }
}

impl std::fmt::Display for PValue {
    /// `0.412`, `3.1e-7`, or `< 1e-300`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.is_below_floor() {
            return f.write_str("< 1e-300");
        }
        let p = 10f64.powf(self.log10);
        if p >= 0.001 {
            write!(f, "{p:.3}")
        } else {
            write!(f, "{p:.1e}")
        }
    }
}

/// The upper tail `P(X >= statistic)` of a χ² distribution with `df` degrees of freedom.
pub fn chi_square_upper_tail(statistic: f64, df: f64) -> PValue {
    assert!(df > 0.0, "a χ² test needs at least one degree of freedom");
    // A NaN would come from a bug upstream (pooling guarantees positive expected counts);
    // reading it as "no evidence" would be a silent pass.
    assert!(!statistic.is_nan(), "a χ² statistic is NaN");
    if statistic <= 0.0 {
        return PValue::ONE;
    }
    if statistic.is_infinite() {
        return PValue::from_log10(f64::NEG_INFINITY);
    }
    let sf = ChiSquared::new(df)
        .expect("df is positive and finite")
        .sf(statistic);
    if sf >= SF_RELIABLE_DOWN_TO {
        return PValue::from_probability(sf.min(1.0));
    }
    PValue::from_log10(ln_upper_regularized_gamma(df / 2.0, statistic / 2.0) / std::f64::consts::LN_10)
}

/// The lower tail `P(X <= statistic)` of a χ² distribution with `df` degrees of freedom:
/// small when the statistic is far below its mean, i.e. the counts are more even than
/// chance allows (Knuth, TAOCP 2, 3.3.1). From statrs' `cdf` where that is accurate,
/// and below `1e-280` from the regularized gamma's power series in log space.
pub fn chi_square_lower_tail(statistic: f64, df: f64) -> PValue {
    assert!(df > 0.0, "a χ² test needs at least one degree of freedom");
    assert!(!statistic.is_nan(), "a χ² statistic is NaN");
    if statistic <= 0.0 {
        // P(X <= 0) = 0 for a continuous χ²: counts exactly equal to their expectation.
        return PValue::from_log10(f64::NEG_INFINITY);
    }
    if statistic.is_infinite() {
        return PValue::ONE;
    }
    let cdf = ChiSquared::new(df)
        .expect("df is positive and finite")
        .cdf(statistic);
    if cdf >= SF_RELIABLE_DOWN_TO {
        return PValue::from_probability(cdf.min(1.0));
    }
    PValue::from_log10(ln_lower_regularized_gamma(df / 2.0, statistic / 2.0) / std::f64::consts::LN_10)
}

/// `ln P(a, x)`, the log of the lower regularized incomplete gamma function, by its power
/// series `x^a e^-x / Γ(a+1) · Σ_n x^n / ((a+1)…(a+n))` (Numerical Recipes §6.2, `gser`)
/// with the prefactor in log space; used where `P` is tiny, so `x` is well below `a`
/// and the terms fall fast.
fn ln_lower_regularized_gamma(a: f64, x: f64) -> f64 {
    const EPSILON: f64 = 1e-15;
    let mut term = 1.0;
    let mut sum = 1.0;
    let mut denominator = a;
    for _ in 0..1_000_000u32 {
        denominator += 1.0;
        term *= x / denominator;
        sum += term;
        if term < sum * EPSILON {
            break;
        }
    }
    -x + a * x.ln() - ln_gamma(a + 1.0) + sum.ln()
}

/// `2·min(upper, lower)`, at most 1: the p-value of a test where both too large and too
/// small a statistic count against the null.
pub fn two_sided(upper: PValue, lower: PValue) -> PValue {
    PValue::from_log10(std::f64::consts::LOG10_2 + upper.log10().min(lower.log10()))
}

/// `ln Q(a, x)`, the log of the upper regularized incomplete gamma function, for `x > a + 1`
/// (where the tail is small), by the modified Lentz evaluation of its continued fraction
/// (Numerical Recipes §6.2, `gcf`), with the prefactor `x^a e^-x / Γ(a)` kept in log space.
fn ln_upper_regularized_gamma(a: f64, x: f64) -> f64 {
    debug_assert!(x > a + 1.0, "the continued fraction converges for x > a + 1");
    const TINY: f64 = 1e-300;
    const EPSILON: f64 = 1e-15;
    let mut b = x + 1.0 - a;
    let mut c = 1.0 / TINY;
    let mut d = 1.0 / b;
    let mut fraction = d;
    for i in 1..1_000_000u32 {
        let i = f64::from(i);
        let an = -i * (i - a);
        b += 2.0;
        d = an * d + b;
        if d.abs() < TINY {
            d = TINY;
        }
        c = b + an / c;
        if c.abs() < TINY {
            c = TINY;
        }
        d = 1.0 / d;
        let delta = d * c;
        fraction *= delta;
        if (delta - 1.0).abs() < EPSILON {
            break;
        }
    }
    -x + a * x.ln() - ln_gamma(a) + fraction.ln()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(actual: f64, expected: f64, relative: f64) -> bool {
        ((actual - expected) / expected).abs() <= relative
    }

    #[test]
    fn published_chi_square_critical_values() {
        // Critical values from standard χ² tables (e.g. NIST/SEMATECH e-Handbook 1.3.6.7.4).
        let table = [
            (3.841, 1.0, 0.05),
            (6.635, 1.0, 0.01),
            (11.070, 5.0, 0.05),
            (20.515, 5.0, 0.001),
            (23.209, 10.0, 0.01),
            (124.342, 100.0, 0.05),
        ];
        for (statistic, df, p) in table {
            let value = 10f64.powf(chi_square_upper_tail(statistic, df).log10());
            assert!(close(value, p, 2e-3), "χ²({df}) at {statistic}: {value} vs {p}");
        }
    }

    #[test]
    fn log_space_tail_agrees_with_statrs_where_both_are_accurate() {
        for (df, statistic) in [(1.0, 900.0), (5.0, 1000.0), (24.0, 1200.0), (720.0, 2500.0)] {
            let a = df / 2.0;
            let x = statistic / 2.0;
            let from_statrs = ChiSquared::new(df).unwrap().sf(statistic);
            assert!(
                from_statrs > 1e-300 && from_statrs < 1e-100,
                "pick a test point in range"
            );
            let ours = ln_upper_regularized_gamma(a, x) / std::f64::consts::LN_10;
            assert!(
                close(ours, from_statrs.log10(), 1e-9),
                "df {df}: {ours} vs {}",
                from_statrs.log10()
            );
        }
    }

    #[test]
    fn tiny_p_values_keep_their_magnitude() {
        // χ²(1) tail at x: 2·Φ(-√x) ≈ sqrt(2/(π x)) e^(-x/2). At x = 10,000: log10 ≈ -2173.57.
        let p = chi_square_upper_tail(10_000.0, 1.0);
        let approximation =
            (0.5 * (2.0 / (std::f64::consts::PI * 10_000.0)).ln() - 5_000.0) / std::f64::consts::LN_10;
        assert!(
            close(p.log10(), approximation, 1e-6),
            "{} vs {approximation}",
            p.log10()
        );
        assert!(p.is_below_floor());
        assert_eq!(p.to_string(), "< 1e-300");
        assert_eq!(p.value_floored(), 1e-300);
        // Monotone in the statistic, far into the tail.
        assert!(chi_square_upper_tail(20_000.0, 1.0).log10() < p.log10());
    }

    #[test]
    fn lower_tails_agree_with_statrs_and_keep_their_magnitude_far_below() {
        // Where statrs is accurate, the series agrees with it.
        for (df, statistic) in [(23.0, 0.5), (100.0, 20.0), (720.0, 400.0)] {
            let from_statrs = ChiSquared::new(df).unwrap().cdf(statistic);
            let ours = ln_lower_regularized_gamma(df / 2.0, statistic / 2.0) / std::f64::consts::LN_10;
            assert!(
                close(ours, from_statrs.log10(), 1e-9),
                "df {df}: {ours} vs {}",
                from_statrs.log10()
            );
        }
        // χ²(23) at 0.04 (the clock-reseeded deck of issue 14): P = (x/2)^(23/2) e^(-x/2)
        // / Γ(25/2) · (1 + …): log10 ≈ -27.85.
        let p = chi_square_lower_tail(0.04, 23.0);
        let leading = (11.5 * 0.02f64.ln() - 0.02 - ln_gamma(12.5)) / std::f64::consts::LN_10;
        assert!(close(p.log10(), leading, 1e-3), "{} vs {leading}", p.log10());
        // Far below f64: χ²(40319) at 100.
        let tiny = chi_square_lower_tail(100.0, 40_319.0);
        assert!(tiny.is_below_floor() && tiny.log10().is_finite());
        assert_eq!(chi_square_lower_tail(1e9, 3.0), PValue::ONE);
        assert!(chi_square_lower_tail(0.0, 3.0).is_below_floor());
        // Two-sided: twice the smaller tail, at most 1.
        let half = PValue::from_probability(0.5);
        assert_eq!(two_sided(half, half), PValue::ONE);
        assert!(close(
            10f64.powf(two_sided(PValue::from_probability(0.01), half).log10()),
            0.02,
            1e-12
        ));
    }

    #[test]
    fn formatting() {
        assert_eq!(PValue::ONE.to_string(), "1.000");
        assert_eq!(PValue::from_probability(0.41234).to_string(), "0.412");
        assert_eq!(PValue::from_probability(3.14e-7).to_string(), "3.1e-7");
        assert!(PValue::from_probability(1e-7).is_below(1e-6));
        assert!(!PValue::from_probability(1e-5).is_below(1e-6));
        assert_eq!(chi_square_upper_tail(0.0, 3.0), PValue::ONE);
    }
}
