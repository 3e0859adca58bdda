//! How `exact riffles:K` reads in the terminal (its JSON is
//! `json/exact_riffles.rs`).
//!
//! The closed form (Bayer & Diaconis, [`crate::exact::riffles`]) gives no list of orders to
//! print: `52!` of them would not fit anywhere. What it gives is a law over classes of
//! orders (all orders with `r` rising sequences are equally likely), so that is what is
//! shown: the formula, the most and least likely class with how many times more or less
//! likely than under a fair shuffle each of its orders is, the share of orders the
//! riffles can never deal, the law of `r` beside a fair deck's (Eulerian) law, and the
//! total variation, the number the "seven shuffles" table is made of. Ratios to uniform
//! can pass `10^300` (one riffle of 2,000 cards), so they are carried as logarithms and
//! written as powers of ten when a plain number would not do.

use std::fmt::Write as _;

use crate::exact::RiffleLaw;
use crate::stats::eulerian::{ln_rising_sequence_law, rising_sequence_law};

/// Rows of the law of rising sequences shown in the terminal: those where either law
/// holds at least this share of the deals.
pub const SHOWN_FROM: f64 = 0.005;

/// The terminal shows that table only when it has at most this many rows (52 cards
/// after seven riffles: 21); larger decks give the means and point to `--json`.
pub const MOST_ROWS: usize = 40;

/// `x45.2`, `x0.000123`, `x10^313.2`: how many times as likely as under a fair shuffle
/// an order is, from its natural logarithm.
pub fn ratio_text(ln_ratio: f64) -> String {
    let log10 = ln_ratio / std::f64::consts::LN_10;
    match log10 {
        l if l == f64::NEG_INFINITY => "x0 (never dealt)".to_string(),
        l if l > 6.0 => format!("x10^{l:.1}"),
        l if l < -6.0 => format!("x10^{l:.1}"),
        _ => {
            let ratio = ln_ratio.exp();
            let decimals = if ratio >= 10.0 { 1 } else { 6 };
            format!("x{ratio:.decimals$}")
        }
    }
}

/// The mean of a law over `0..=n`.
fn mean(law: &[f64]) -> f64 {
    law.iter().enumerate().map(|(r, &p)| r as f64 * p).sum()
}

/// The terminal lines of one riffle law (after the result's headline and origin).
pub fn render(out: &mut String, law: &RiffleLaw) {
    let (n, k) = (law.n, law.riffles);
    writeln!(
        out,
        "  an order with r rising sequences comes out with probability C(2^{k} + {n} - r, {n}) / 2^({k}*{n})"
    )
    .unwrap();
    let plural = |r: usize| if r == 1 { "" } else { "s" };
    let most = &law.most_likely;
    let least = &law.least_likely;
    writeln!(
        out,
        "  most likely: the fresh deck (1 rising sequence), {} uniform",
        ratio_text(most.ln_ratio_to_uniform)
    )
    .unwrap();
    writeln!(
        out,
        "  least likely of the possible: the orders with {} rising sequence{}, {} uniform each",
        least.rising_sequences,
        plural(least.rising_sequences),
        ratio_text(least.ln_ratio_to_uniform)
    )
    .unwrap();
    if law.impossible_share > 0.0 {
        writeln!(
            out,
            "  never dealt: every order with more than 2^{k} = {} rising sequences, {} of all orders",
            1u64 << k.min(63),
            share_text(law.impossible_share, possible_log10(law))
        )
        .unwrap();
    } else {
        writeln!(
            out,
            "  never dealt: none (every order has at most {n} <= 2^{k} rising sequences)"
        )
        .unwrap();
    }
    let fair = rising_sequence_law(n);
    writeln!(
        out,
        "  rising sequences: {:.2} on average after the riffles, {:.2} from a fair shuffle",
        mean(&law.rising_sequence_law),
        mean(&fair)
    )
    .unwrap();
    let rows: Vec<usize> = (1..=n)
        .filter(|&r| law.rising_sequence_law[r].max(fair[r]) >= SHOWN_FROM)
        .collect();
    if rows.len() <= MOST_ROWS {
        writeln!(out, "  {:>5} {:>14} {:>14}", "r", "after riffles", "fair deck").unwrap();
        for r in rows {
            writeln!(
                out,
                "  {r:>5} {:>14.6} {:>14.6}",
                law.rising_sequence_law[r], fair[r]
            )
            .unwrap();
        }
        writeln!(
            out,
            "  (values of r where either law is at least {SHOWN_FROM}; --json lists all)"
        )
        .unwrap();
    } else {
        writeln!(
            out,
            "  (--json lists the law of r after the riffles beside a fair deck's)"
        )
        .unwrap();
    }
    writeln!(
        out,
        "  total variation from uniform: {:.6} (Bayer & Diaconis's table gives three decimals)",
        law.total_variation
    )
    .unwrap();
}

/// `log10` of the share of orders `K` riffles can deal (those with at most `2^K` rising
/// sequences), from the Eulerian law in log space: it can be far below a double's range.
fn possible_log10(law: &RiffleLaw) -> f64 {
    let ln_law = ln_rising_sequence_law(law.n);
    let most = law.least_likely.rising_sequences;
    let top = ln_law[1..=most].iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let sum: f64 = ln_law[1..=most].iter().map(|&l| (l - top).exp()).sum();
    (top + sum.ln()) / std::f64::consts::LN_10
}

/// `0.9999995`, `1 - 3.2e-12`, `all but 10^-5133.5`, `2.1e-30`: a share that may sit
/// very near 0 or 1, `possible_log10` being `log10(1 − share)`.
fn share_text(share: f64, possible_log10: f64) -> String {
    if share >= 1.0 - 1e-6 {
        if possible_log10 > -300.0 {
            format!("1 - {:.1e}", 10f64.powf(possible_log10))
        } else {
            format!("all but 10^{possible_log10:.1}")
        }
    } else if share < 1e-4 {
        format!("{share:.1e}")
    } else {
        format!("{share:.7}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::riffle_law;

    fn rendered(law: &RiffleLaw) -> String {
        let mut out = String::new();
        render(&mut out, law);
        out
    }

    #[test]
    fn ratios_read_as_numbers_or_powers_of_ten() {
        assert_eq!(ratio_text(45.2f64.ln()), "x45.2");
        assert_eq!(ratio_text(0.5f64.ln()), "x0.500000");
        assert_eq!(ratio_text(1e300f64.ln() * 1.5), "x10^450.0");
        assert_eq!(ratio_text(f64::NEG_INFINITY), "x0 (never dealt)");
    }

    #[test]
    fn seven_riffles_of_52_cards_read_as_the_table_and_the_law() {
        let law = riffle_law(52, 7).unwrap();
        let out = rendered(&law);
        assert!(out.contains("C(2^7 + 52 - r, 52) / 2^(7*52)"), "{out}");
        assert!(out.contains("total variation from uniform: 0.334061"), "{out}");
        assert!(out.contains("never dealt: none"), "{out}");
        // The most likely order is the fresh deck, about 9,859 times as likely as 1/52!.
        let line = out.lines().find(|line| line.contains("most likely")).unwrap();
        let ratio: f64 = line
            .rsplit('x')
            .next()
            .unwrap()
            .trim_end_matches(" uniform")
            .parse()
            .unwrap();
        assert!(
            (ratio - law.most_likely.ln_ratio_to_uniform.exp()).abs() < 0.05,
            "{line}"
        );
        assert!(ratio > 10.0, "{line}");
        // The table of r is there, each row summing with the others to nearly all the mass.
        let rows: Vec<(f64, f64)> = out
            .lines()
            .filter_map(|line| {
                let fields: Vec<&str> = line.split_whitespace().collect();
                match fields.as_slice() {
                    [r, after, fair] if r.parse::<usize>().is_ok() => {
                        Some((after.parse().unwrap(), fair.parse().unwrap()))
                    }
                    _ => None,
                }
            })
            .collect();
        assert!(rows.len() > 10 && rows.len() <= MOST_ROWS, "{}", rows.len());
        let (after, fair) = rows.iter().fold((0.0, 0.0), |(a, f), (x, y)| (a + x, f + y));
        assert!(after > 0.97 && fair > 0.97, "{after} {fair}");
    }

    #[test]
    fn one_riffle_says_how_much_it_can_never_deal() {
        let law = riffle_law(52, 1).unwrap();
        let out = rendered(&law);
        assert!(out.contains("more than 2^1 = 2 rising sequences, 1 - "), "{out}");
        assert!(
            out.contains("x10^"),
            "the fresh deck's ratio is astronomically large: {out}"
        );
        let law = riffle_law(2000, 1).unwrap();
        let out = rendered(&law);
        // 2 of the 2,000! orders' worth of mass: far below any double.
        assert!(out.contains("rising sequences, all but 10^-"), "{out}");
    }
}
