//! The guessing game of `exact` in the terminal ([`crate::exact::guessing`]): how many
//! cards the best player names where a fair deck allows `H_n`, or, for several riffles of
//! a large deck, a stated strategy's figure labelled as the lower bound it is.

use std::fmt::Write;

use crate::exact::guessing::{Guessing, GuessingValue};
use crate::format::group_thousands;

/// Exact fractions longer than this are left to the JSON.
const LONGEST_FRACTION: usize = 24;

/// One or two lines under a result, each starting with two spaces.
pub fn render(out: &mut String, guessing: &Guessing) {
    let excess = match guessing.excess() {
        excess if excess.abs() < 1e-12 => "no more".to_string(),
        // A flawed source's few parts in 10^5 would read 0.00.
        excess if excess.abs() < 5e-3 => format!("{excess:.1e} more"),
        excess => format!("{excess:.2} more"),
    };
    match &guessing.value {
        GuessingValue::Optimal { fraction } => {
            let exactly = fraction
                .as_deref()
                .filter(|fraction| fraction.len() <= LONGEST_FRACTION && !fraction.ends_with("/1"))
                .map(|fraction| format!(" (exactly {fraction})"))
                .unwrap_or_default();
            writeln!(
                out,
                "  guessing game, the best player with complete feedback: {:.2} of {} cards{exactly} \
                 where a fair deck allows {:.2}, {excess}",
                guessing.expected_correct, guessing.cards, guessing.fair_expected_correct
            )
            .unwrap();
        }
        GuessingValue::LowerBound { deals, seed, .. } => {
            writeln!(
                out,
                "  guessing game, a lower bound (no optimal strategy is known): {}, {excess}",
                guessing.sentence()
            )
            .unwrap();
            let simulated = match (deals, seed) {
                (Some(deals), Some(seed)) => format!(
                    "; {} simulated deals from seed {seed}, 95 % interval",
                    group_thousands(*deals)
                ),
                _ => String::new(),
            };
            writeln!(out, "    strategy: {}{simulated}", guessing.strategy).unwrap();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::guessing::riffle::riffles_guessing;

    #[test]
    fn one_riffle_of_six_cards_reads_as_the_issue_says_and_a_bound_says_so() {
        let mut out = String::new();
        render(&mut out, &riffles_guessing(6, 1).unwrap());
        assert_eq!(
            out,
            "  guessing game, the best player with complete feedback: 4.27 of 6 cards where a fair \
             deck allows 2.45, 1.82 more\n"
        );
        let mut out = String::new();
        render(&mut out, &riffles_guessing(52, 3).unwrap());
        assert!(
            out.contains("a lower bound") && out.contains("at least 9."),
            "{out}"
        );
        assert!(out.contains("±") && out.contains("seed 22"), "{out}");
        assert_eq!(out.lines().count(), 2);
    }
}
