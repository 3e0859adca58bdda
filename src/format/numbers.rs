//! How numbers are written for people: `1,234,567`, `2.5 M`, `600,000 shuffles`, `1e-6`,
//! `x1.0013`. Every report, message and chart writes its numbers with these, so that a
//! count reads the same in the terminal, the HTML page and an error message.
//!
//! They sit at the bottom of the crate (they import nothing from it): the engine's error
//! messages need them as much as the renderers do, and a helper this small must never
//! make the engine depend on the rendering above it.

/// A test statistic: `12.34`, or `1.235e12` once it has more digits than a reader takes in.
pub fn format_statistic(statistic: f64) -> String {
    if statistic < 1e9 {
        format!("{statistic:.2}")
    } else {
        format!("{statistic:.3e}")
    }
}

/// An expected count: `100,000`, `33,333.3` or `4.17`.
pub fn format_expected(expected: f64) -> String {
    if expected >= 1000.0 {
        let rounded = (expected * 10.0).round() / 10.0;
        let whole = group_thousands(rounded.trunc() as u64);
        match ((rounded.fract() * 10.0).round() as u64) % 10 {
            0 => whole,
            tenth => format!("{whole}.{tenth}"),
        }
    } else {
        format!("{expected:.2}")
    }
}

/// A significance level: `1e-6`, or `0.01` for the larger ones.
pub fn format_probability(p: f64) -> String {
    if p < 1e-3 {
        format!("{p:e}")
    } else {
        format!("{p}")
    }
}

/// The decimals a ratio needs to show its distance from 1 to two significant digits
/// when `deviation` is the largest such distance to show, and at least `at_least`: with
/// 2, `×1.35`, `×1.10`, `×1.0013`, `×1.00010`; with 4, Delphi's 3-card bias
/// `x1.00000000047`. Capped at 15, past which a double has no digits left.
pub fn ratio_decimals(deviation: f64, at_least: usize) -> usize {
    if !(deviation.is_finite() && deviation > 0.0) {
        return at_least;
    }
    // The nudge keeps an exact power of ten (1e-4 computed as 1.0000000000000e-4 or
    // 0.9999999999999e-4) on the same side.
    let digits = (-deviation.log10() - 1e-9).ceil() + 1.0;
    (digits.max(0.0) as usize).clamp(at_least, 15)
}

/// `1234567` as `1,234,567`.
pub fn group_thousands(value: u64) -> String {
    group_digits(&value.to_string())
}

/// Decimal digits with a comma every three, for numbers past `u64` (`52!`).
pub fn group_digits(digits: &str) -> String {
    let mut grouped = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    grouped
}

/// `12345678.9` as `12.3 M`, `0.25` as `0.25`.
pub fn compact(value: f64) -> String {
    match value {
        v if v >= 1e9 => format!("{:.2} G", v / 1e9),
        v if v >= 1e6 => format!("{:.1} M", v / 1e6),
        v if v >= 1e3 => format!("{:.1} k", v / 1e3),
        v if v >= 10.0 => format!("{v:.0}"),
        v => format!("{v:.2}"),
    }
}

/// `1 shuffle`, `600,000 shuffles` (or samples).
pub fn counted(count: u64, unit: &str) -> String {
    match count {
        1 => format!("1 {unit}"),
        _ => format!("{} {unit}s", group_thousands(count)),
    }
}

/// An expected count that may be astronomically small: `0.31`, `2.4e-7`, `< 1e-300`.
pub fn format_expected_count(expected: f64) -> String {
    if expected >= 0.01 {
        format!("{expected:.2}")
    } else if expected >= 1e-300 {
        format!("{expected:.1e}")
    } else {
        "< 1e-300".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratios_get_the_decimals_their_distance_from_one_needs() {
        // Two significant digits of the distance from 1, at least `at_least` decimals.
        assert_eq!(ratio_decimals(0.35, 2), 2); // ×1.35
        assert_eq!(ratio_decimals(0.1, 2), 2); // ×1.10
        assert_eq!(ratio_decimals(0.05, 2), 3); // ×1.050
        assert_eq!(ratio_decimals(0.0013, 2), 4); // ×1.0013
        assert_eq!(ratio_decimals(1.0001f64.ln().exp_m1(), 2), 5); // ×1.00010
        assert_eq!(ratio_decimals(2.0 / 4_294_967_296.0, 4), 11); // x1.00000000047
        assert_eq!(ratio_decimals(0.35, 4), 4);
        assert_eq!(ratio_decimals(1e-300, 4), 15);
        assert_eq!(ratio_decimals(0.0, 4), 4);
        assert_eq!(ratio_decimals(f64::INFINITY, 2), 2);
        assert_eq!(ratio_decimals(7.0, 2), 2);
    }

    #[test]
    fn number_formatting() {
        assert_eq!(group_thousands(0), "0");
        assert_eq!(group_thousands(999), "999");
        assert_eq!(group_thousands(1000), "1,000");
        assert_eq!(group_thousands(600_000), "600,000");
        assert_eq!(group_thousands(18_144_000), "18,144,000");
        assert_eq!(group_digits("479001600"), "479,001,600");
        assert_eq!(compact(2_500_000.0), "2.5 M");
        assert_eq!(compact(0.0812), "0.08");
        assert_eq!(compact(42.4), "42");
        assert_eq!(counted(1, "shuffle"), "1 shuffle");
        assert_eq!(counted(600_000, "shuffle"), "600,000 shuffles");
        assert_eq!(counted(400_000, "sample"), "400,000 samples");
        assert_eq!(format_probability(1e-320), "1e-320");
        assert_eq!(format_expected(100_000.0), "100,000");
        assert_eq!(format_expected(600_000.0 / 24.0 * 1.0), "25,000");
        assert_eq!(format_expected(1_000_000.0 / 6.0), "166,666.7");
        assert_eq!(format_expected(4.1666), "4.17");
        assert_eq!(format_probability(1e-6), "1e-6");
        assert_eq!(format_probability(0.01), "0.01");
    }
}
