//! The items a stream draws from and their intended weights: `--items 7`,
//! `--items A:50,B:25,C:20,D:5` or `--items boggle`.
//!
//! Weights are read as exact decimals, never as floats: `12.702` becomes 12,702 units at
//! a common scale of 1,000. Every generator then works in whole units (an i.i.d. draw is
//! `below(total units)`, a bag holds a whole number of copies), so no weight is rounded
//! on the way in and a generator that rounds (text 003's `(int)value * 1000`) is the only
//! place where rounding happens.

use crate::error::{Error, Result};
use crate::format::is_bidi_control;

/// The most items a stream may have (item numbers are 16-bit and each item gets its
/// own run and gap histograms).
pub const MAX_ITEMS: usize = 1_000;

/// The longest item name, in characters: names are columns of tables and labels of
/// charts.
pub const MAX_NAME_CHARS: usize = 64;

/// The most decimal places a weight may have.
pub const MAX_DECIMALS: u32 = 6;

/// Text 003's letter frequencies (percent of English text), in its order.
pub const BOGGLE_LETTERS: [(&str, &str); 26] = [
    ("E", "12.702"),
    ("T", "9.056"),
    ("A", "8.167"),
    ("O", "7.507"),
    ("I", "6.966"),
    ("N", "6.769"),
    ("S", "6.327"),
    ("H", "6.094"),
    ("R", "5.987"),
    ("D", "4.253"),
    ("L", "4.025"),
    ("C", "2.782"),
    ("U", "2.758"),
    ("M", "2.406"),
    ("W", "2.306"),
    ("F", "2.228"),
    ("G", "2.015"),
    ("Y", "1.974"),
    ("P", "1.929"),
    ("B", "1.492"),
    ("V", "0.978"),
    ("K", "0.772"),
    ("J", "0.153"),
    ("X", "0.150"),
    ("Q", "0.095"),
    ("Z", "0.074"),
];

/// Named items with exact decimal weights.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Items {
    /// The spec as the user gave it (for the reproduce line).
    pub spec: String,
    /// Item names, in the order given.
    pub names: Vec<String>,
    /// Each weight in units of `1 / scale`.
    pub units: Vec<u64>,
    /// Units per whole weight: a power of ten.
    pub scale: u64,
}

impl Items {
    /// Parses `7`, `A:50,B:25,...` or `boggle`.
    pub fn parse(text: &str) -> Result<Self> {
        let spec = text.trim();
        let bad = |problem: String| Error::BadOption {
            option: "--items",
            problem,
        };
        if spec.eq_ignore_ascii_case("boggle") {
            let pairs: Vec<(String, String)> = BOGGLE_LETTERS
                .iter()
                .map(|(name, weight)| (name.to_string(), weight.to_string()))
                .collect();
            return Self::from_pairs(spec, &pairs).map_err(bad);
        }
        if !spec.contains(':') {
            let count: usize = spec.parse().map_err(|_| {
                bad(format!(
                    "'{spec}' is neither a count of equal items (7), weights (A:50,B:25,C:20,D:5) nor 'boggle'"
                ))
            })?;
            if !(2..=MAX_ITEMS).contains(&count) {
                return Err(bad(format!(
                    "needs between 2 and {MAX_ITEMS} items (got {count})"
                )));
            }
            let pairs: Vec<(String, String)> =
                (1..=count).map(|i| (i.to_string(), "1".to_string())).collect();
            return Self::from_pairs(spec, &pairs).map_err(bad);
        }
        let mut pairs = Vec::new();
        for part in spec.split(',') {
            let part = part.trim();
            if part.is_empty() {
                return Err(bad(
                    "has an empty item between commas (or a comma at an end)".to_string()
                ));
            }
            let Some((name, weight)) = part.split_once(':') else {
                return Err(bad(format!(
                    "'{part}' has no weight: write NAME:WEIGHT, e.g. A:50,B:25,C:20,D:5"
                )));
            };
            pairs.push((name.trim().to_string(), weight.trim().to_string()));
        }
        Self::from_pairs(spec, &pairs).map_err(bad)
    }

    /// Equal weights for `names` (items read from another program, named by `--deck` or
    /// by the tokens seen), checked as a spec's names are; the spec is the names
    /// separated by spaces. The error says what is wrong, for the caller to attribute.
    pub fn equal(names: &[String]) -> std::result::Result<Self, String> {
        let pairs: Vec<(String, String)> = names.iter().map(|name| (name.clone(), "1".to_string())).collect();
        Self::from_pairs(&names.join(" "), &pairs)
    }

    fn from_pairs(spec: &str, pairs: &[(String, String)]) -> std::result::Result<Self, String> {
        if pairs.len() < 2 {
            return Err("needs at least 2 items".to_string());
        }
        if pairs.len() > MAX_ITEMS {
            return Err(format!(
                "has {} items; at most {MAX_ITEMS} are supported",
                pairs.len()
            ));
        }
        let mut decimals = 0;
        let mut parsed = Vec::with_capacity(pairs.len());
        for (i, (name, weight)) in pairs.iter().enumerate() {
            if name.is_empty() {
                return Err(format!("item {} has an empty name", i + 1));
            }
            if let Some(problem) = name_problem(name) {
                return Err(format!("item name '{}' {problem}", name.escape_debug()));
            }
            if pairs[..i].iter().any(|(earlier, _)| earlier == name) {
                return Err(format!("item '{name}' is given twice"));
            }
            let (whole, fraction) = parse_decimal(weight)
                .map_err(|problem| format!("weight '{weight}' of item '{name}' {problem}"))?;
            if fraction.len() as u32 > MAX_DECIMALS {
                return Err(format!(
                    "weight '{weight}' of item '{name}' has more than {MAX_DECIMALS} decimal places"
                ));
            }
            decimals = decimals.max(fraction.len() as u32);
            parsed.push((whole, fraction));
        }
        let scale = 10u64.pow(decimals);
        let too_large = || "the weights are too large (their total must stay below 1.8e19 units)".to_string();
        let mut units = Vec::with_capacity(parsed.len());
        for (whole, fraction) in parsed {
            let padded = format!("{fraction:0<width$}", width = decimals as usize);
            let fraction: u64 = if padded.is_empty() {
                0
            } else {
                padded.parse().map_err(|_| too_large())?
            };
            let value = whole
                .checked_mul(scale)
                .and_then(|value| value.checked_add(fraction))
                .ok_or_else(too_large)?;
            units.push(value);
        }
        let total = units
            .iter()
            .try_fold(0u64, |sum, &value| sum.checked_add(value))
            .ok_or_else(too_large)?;
        if total == 0 {
            return Err("every weight is zero".to_string());
        }
        Ok(Self {
            spec: spec.to_string(),
            names: pairs.iter().map(|(name, _)| name.clone()).collect(),
            units,
            scale,
        })
    }

    /// Number of items.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Always false: a parsed spec has at least two items.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The sum of all weights, in units.
    pub fn total_units(&self) -> u64 {
        self.units.iter().sum()
    }

    /// Each item's intended probability.
    pub fn probabilities(&self) -> Vec<f64> {
        let total = self.total_units() as f64;
        self.units.iter().map(|&units| units as f64 / total).collect()
    }

    /// Each weight as a number.
    pub fn weights(&self) -> Vec<f64> {
        self.units
            .iter()
            .map(|&units| units as f64 / self.scale as f64)
            .collect()
    }

    /// Each weight as a whole number, if every weight is one.
    pub fn whole_weights(&self) -> Option<Vec<u64>> {
        self.units
            .iter()
            .map(|&units| (units % self.scale == 0).then_some(units / self.scale))
            .collect()
    }

    /// A weight as written back for people: `50`, `12.702`.
    pub fn weight_text(&self, item: usize) -> String {
        let units = self.units[item];
        if self.scale == 1 {
            return units.to_string();
        }
        let decimals = self.scale.ilog10() as usize;
        let text = format!("{}.{:0decimals$}", units / self.scale, units % self.scale);
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// `12.702` as `(12, "702")`, or what is wrong with `text`: weights are plain
/// non-negative decimals (exact, so no exponent).
/// Why `name` cannot name an item, if it cannot. Names end up in tables, charts and
/// web pages: they are kept short, printable, and free of characters that XML forbids
/// or that reorder the text around them.
pub(crate) fn name_problem(name: &str) -> Option<String> {
    let length = name.chars().count();
    if length > MAX_NAME_CHARS {
        return Some(format!(
            "is {length} characters long; at most {MAX_NAME_CHARS} are allowed"
        ));
    }
    for c in name.chars() {
        let code = u32::from(c);
        let problem = if c.is_whitespace() {
            "contains white space"
        } else if c.is_control() {
            "contains a control character"
        } else if (0xFDD0..=0xFDEF).contains(&code) || code & 0xFFFE == 0xFFFE {
            "contains a Unicode noncharacter"
        } else if is_bidi_control(c) {
            "contains a bidirectional control character"
        } else {
            continue;
        };
        return Some(format!("{problem} (U+{code:04X})"));
    }
    None
}

fn parse_decimal(text: &str) -> Result<(u64, &str), &'static str> {
    const NOT_A_NUMBER: &str = "is not a non-negative decimal number (like 50 or 12.702)";
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    if whole.is_empty() && fraction.is_empty() {
        return Err(NOT_A_NUMBER);
    }
    if text.contains(['e', 'E']) && !text.starts_with(['e', 'E']) {
        return Err("is in scientific notation; write weights as plain decimals (1000, not 1e3)");
    }
    if !whole.chars().chain(fraction.chars()).all(|c| c.is_ascii_digit()) {
        return Err(NOT_A_NUMBER);
    }
    let whole = if whole.is_empty() {
        0
    } else {
        whole.parse().map_err(|_| "is too large")?
    };
    Ok((whole, fraction.trim_end_matches('0')))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_that_would_break_tables_charts_or_pages_are_refused() {
        let error = |spec: &str| Items::parse(spec).unwrap_err().to_string();
        let long = "W".repeat(MAX_NAME_CHARS + 1);
        assert!(error(&format!("{long}:1,b:1")).contains("is 65 characters long; at most 64"));
        assert!(error("a\u{7}:1,b:1").contains("contains a control character (U+0007)"));
        assert!(error("a\u{FFFF}:1,b:1").contains("noncharacter (U+FFFF)"));
        assert!(error("a\u{202E}x:1,b:1").contains("bidirectional control character (U+202E)"));
        assert!(error("a b:1,c:1").contains("white space"));
        // Markup and any other printable text is fine: the pages escape it.
        assert!(Items::parse("<script>:1,&\"':2,♠K:1").is_ok());
        assert!(Items::parse(&format!("{}:1,b:1", "W".repeat(MAX_NAME_CHARS))).is_ok());
    }

    #[test]
    fn counts_weights_and_boggle_parse_exactly() {
        let seven = Items::parse("7").unwrap();
        assert_eq!(seven.names, ["1", "2", "3", "4", "5", "6", "7"]);
        assert_eq!(seven.units, [1; 7]);
        let weighted = Items::parse("A:50,B:25,C:20,D:5").unwrap();
        assert_eq!(weighted.units, [50, 25, 20, 5]);
        assert_eq!(weighted.scale, 1);
        assert_eq!(weighted.whole_weights(), Some(vec![50, 25, 20, 5]));
        let boggle = Items::parse("boggle").unwrap();
        assert_eq!(boggle.len(), 26);
        assert_eq!(boggle.scale, 1000);
        assert_eq!(boggle.units[0], 12_702);
        assert_eq!(boggle.total_units(), 99_965, "text 003: total 99.965");
        assert_eq!(boggle.weight_text(0), "12.702");
        assert_eq!(boggle.weight_text(23), "0.15");
        assert_eq!(boggle.whole_weights(), None);
        let mixed = Items::parse("x:1.5, y:2").unwrap();
        assert_eq!((mixed.units.clone(), mixed.scale), (vec![15, 20], 10));
        assert!((mixed.probabilities()[0] - 15.0 / 35.0).abs() < 1e-15);
    }

    #[test]
    fn bad_specs_say_what_is_wrong() {
        let message = |text: &str| Items::parse(text).unwrap_err().to_string();
        assert!(message("seven").contains("neither a count"));
        assert!(message("1").contains("between 2 and"));
        assert!(message("A:1,A:2").contains("given twice"));
        assert!(message("A:1,B").contains("has no weight"));
        assert!(message("A:-1,B:2").contains("not a non-negative decimal"));
        assert!(message("A:1e3,B:2").contains("scientific notation"));
        assert!(message("A:99999999999999999999,B:1").contains("too large"));
        assert!(message("A:1,,B:2").contains("empty item between commas"));
        assert!(message("A:1,B:2,").contains("empty item between commas"));
        assert!(message("A:0,B:0").contains("every weight is zero"));
        assert!(message("A:1.0000001,B:1").contains("decimal places"));
        assert!(message("A:18446744073709551615,B:1").contains("too large"));
        assert!(message(":1,B:1").contains("empty name"));
    }
}
