//! Reading counts the way people write them: `600000`, `600_000`, `6e5`, `1.5e6`; and
//! `--alpha`, a probability, read the same way by the command line and the live page.
//!
//! Trial counts are integers, and a float parse would silently round `1e20` or accept
//! `1.5`; this parser works on the decimal digits, so every accepted value is exact and
//! everything else is refused with a reason.

/// Parses a non-negative whole number written plainly, with `_` separators, or in
/// scientific notation whose value is a whole number.
pub fn parse_count(text: &str) -> Result<u64, String> {
    let cleaned: String = text.trim().chars().filter(|&c| c != '_').collect();
    let invalid = || format!("'{text}' is not a whole number (write 600000, 600_000 or 6e5)");
    if cleaned.is_empty() {
        return Err(invalid());
    }
    let (mantissa, exponent) = match cleaned.split_once(['e', 'E']) {
        Some((mantissa, exponent)) => {
            let exponent: i64 = exponent.parse().map_err(|_| invalid())?;
            (mantissa, exponent)
        }
        None => (cleaned.as_str(), 0),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if whole.is_empty() && fraction.is_empty()
        || !whole.chars().chain(fraction.chars()).all(|c| c.is_ascii_digit())
    {
        return Err(invalid());
    }
    // value = digits × 10^(exponent - fraction digits)
    let digits = format!("{whole}{fraction}");
    let digits = digits.trim_start_matches('0');
    // Saturating: an exponent of -9223372036854775808 means "far too small", not overflow.
    let mut scale = exponent.saturating_sub(fraction.len() as i64);
    let mut digits = digits.to_string();
    while scale < 0 && digits.ends_with('0') {
        digits.pop();
        scale += 1;
    }
    if digits.is_empty() {
        return Ok(0);
    }
    if scale < 0 {
        return Err(format!("'{text}' is not a whole number"));
    }
    let too_large = || format!("'{text}' is too large (the limit is {})", u64::MAX);
    let mut value: u64 = digits.parse().map_err(|_| too_large())?;
    for _ in 0..scale {
        value = value.checked_mul(10).ok_or_else(too_large)?;
    }
    Ok(value)
}

/// `--alpha`, refused with the user's own text when it is not a usable probability.
pub fn parse_alpha(text: &str) -> std::result::Result<f64, String> {
    let alpha: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a number"))?;
    if alpha > 0.0 && alpha < 1.0 {
        Ok(alpha)
    } else if alpha == 0.0 && text.chars().any(|c| c.is_ascii_digit() && c != '0') {
        Err(format!(
            "'{text}' is too small to represent (the smallest is about 1e-308)"
        ))
    } else {
        Err(format!(
            "'{text}' is not a probability between 0 and 1 (exclusive)"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepted_forms() {
        for (text, value) in [
            ("600000", 600_000),
            ("600_000", 600_000),
            ("6e5", 600_000),
            ("6E5", 600_000),
            ("1.5e6", 1_500_000),
            ("1.25e2", 125),
            ("1_000e3", 1_000_000),
            ("0", 0),
            ("1e19", 10_000_000_000_000_000_000),
            ("18446744073709551615", u64::MAX),
            ("120e-1", 12),
        ] {
            assert_eq!(parse_count(text), Ok(value), "{text}");
        }
    }

    #[test]
    fn refused_forms() {
        assert_eq!(
            parse_count("1.0e-9223372036854775808"),
            Err("'1.0e-9223372036854775808' is not a whole number".to_string())
        );
        for text in [
            "",
            "abc",
            "1.5",
            "6e",
            "e5",
            "-3",
            "1e20",
            "2e-1",
            "1.2.3",
            "18446744073709551616",
            "0x10",
        ] {
            assert!(parse_count(text).is_err(), "{text} was accepted");
        }
    }
}
