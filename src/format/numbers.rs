//! How numbers are written for people: `1,234,567`, `2.5 M`, `600,000 shuffles`, `1e-6`,
//! `x1.0013`. Every report, message and chart writes its numbers with these, so that a
//! count reads the same in the terminal, the HTML page and an error message.
//!
//! They sit at the bottom of the crate (they import nothing from it): the engine's error
//! messages need them as much as the renderers do, and a helper this small must never
//! make the engine depend on the rendering above it.

/// A test statistic: `12.34`, `7,373.53` (thousands grouped, as the counts beside it in
/// a tests table are), or `1.235e12` once it has more digits than a reader takes in.
pub fn format_statistic(statistic: f64) -> String {
    if statistic < 1e9 {
        with_decimals(statistic, 2)
    } else {
        format!("{statistic:.3e}")
    }
}

/// An expected count: `100,000`, `33,333.3` or `4.17`.
pub fn format_expected(expected: f64) -> String {
    with_decimals(expected, expected_decimals(std::slice::from_ref(&expected)))
}

/// Expected counts that share a column of a table, all with the same decimals and
/// thousands grouped, so that they line up and read alike: `100,000` over `25,000`;
/// `166,666.7` over `1,666.7`; `4,387,902.90` over `610.13` (not `4,387,902.9` over
/// `610.13`). One value alone is written as [`format_expected`] writes it.
pub fn format_expected_column(column: &[f64]) -> Vec<String> {
    let decimals = expected_decimals(column);
    column
        .iter()
        .map(|&value| with_decimals(value, decimals))
        .collect()
}

/// The decimals of a column of expected counts: when every count is 1,000 or more, one
/// (a tenth of a count is all a reader of such counts needs), or none when every count is
/// whole to the tenth; otherwise two.
fn expected_decimals(column: &[f64]) -> usize {
    let finite = || column.iter().copied().filter(|value| value.is_finite());
    if !finite().all(|value| value >= 1000.0) {
        2
    } else if finite().all(|value| (value * 10.0).round() % 10.0 == 0.0) {
        0
    } else {
        1
    }
}

/// `value` with `decimals` decimals and its whole part's thousands grouped: `4,387,902.90`.
fn with_decimals(value: f64, decimals: usize) -> String {
    let text = format!("{value:.decimals$}");
    let (sign, digits) = match text.strip_prefix('-') {
        Some(digits) => ("-", digits),
        None => ("", text.as_str()),
    };
    // `inf` and `NaN` have no digits to group.
    if !digits.starts_with(|c: char| c.is_ascii_digit()) {
        return text;
    }
    match digits.split_once('.') {
        Some((whole, fraction)) => format!("{sign}{}.{fraction}", group_digits(whole)),
        None => format!("{sign}{}", group_digits(digits)),
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

/// An expected count that may be astronomically small: `15,018.7`, `0.31`, `2.4e-7`,
/// `< 1e-300` (from 0.01 up as [`format_expected`] writes it, so that it reads like the
/// count it is set beside: `15,542 (expected 15,018.7)`).
pub fn format_expected_count(expected: f64) -> String {
    if expected >= 0.01 {
        format_expected(expected)
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
    fn a_column_of_expected_counts_has_one_style() {
        // The stream's run-length table: millions over hundreds, one decimal style.
        assert_eq!(
            format_expected_column(&[4_387_902.9, 610.13, 0.5]),
            ["4,387,902.90", "610.13", "0.50"]
        );
        assert_eq!(
            format_expected_column(&[166_666.67, 1_666.67]),
            ["166,666.7", "1,666.7"]
        );
        assert_eq!(
            format_expected_column(&[100_000.0, 25_000.0]),
            ["100,000", "25,000"]
        );
        assert_eq!(
            format_expected_column(&[10_000.0, 10_000.0, 10_000.0]),
            ["10,000"; 3]
        );
        assert_eq!(format_expected_column(&[17_737.6, 44.11]), ["17,737.60", "44.11"]);
        assert!(format_expected_column(&[]).is_empty());
        // Whatever went wrong upstream stays visible, not grouped into nonsense.
        assert_eq!(format_expected_column(&[f64::NAN, 2.5]), ["NaN", "2.50"]);
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
        assert_eq!(format_expected(1000.0 / 3.0), "333.33");
        assert_eq!(format_expected(15_018.67), "15,018.7");
        assert_eq!(format_expected(5000.0), "5,000");
        assert_eq!(format_expected(999.999), "1,000.00");
        assert_eq!(format_expected(6.0), "6.00");
        assert_eq!(format_statistic(7373.526), "7,373.53");
        assert_eq!(format_statistic(12.345), "12.35");
        assert_eq!(format_statistic(0.0), "0.00");
        assert_eq!(format_statistic(1_234_567_890.0), "1.235e9");
        assert_eq!(format_expected_count(15_018.67), "15,018.7");
        assert_eq!(format_expected_count(0.3149), "0.31");
        assert_eq!(format_expected_count(2.4e-7), "2.4e-7");
        assert_eq!(format_probability(1e-6), "1e-6");
        assert_eq!(format_probability(0.01), "0.01");
    }
}
