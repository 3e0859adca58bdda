//! The terminal report of `shuffle-audit exact`: per algorithm, the number of random
//! paths, every outcome's probability as a reduced fraction and a decimal (all of them up
//! to [`LISTED_IN_FULL`] outcomes, else the most and least likely), the most and least
//! likely outcomes with the ratio between them, the impossible outcomes, and the total
//! variation distance from uniform. Cards and items are labelled from 1, as in `run`.

use std::fmt::Write;

use super::text::group_thousands;
use crate::exact::{ExactLaw, ExactReport, ExactResult};
use crate::tally::combinadic;
use crate::tally::lehmer::{partial_unrank, unrank};

/// Laws with at most this many outcomes are listed whole (5! orders, C(10, 5) subsets).
pub const LISTED_IN_FULL: usize = 252;

/// How many of the most and of the least likely outcomes a longer law lists.
pub const LISTED_AT_EACH_END: usize = 10;

/// How the outcomes are listed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// Lexicographic (orders) or colex (subsets), as tallies are kept.
    Natural,
    /// Most likely first.
    ByProbability,
}

/// The whole report.
pub fn render(report: &ExactReport, order: Order) -> String {
    let mut out = String::new();
    let settings = &report.settings;
    let size = match settings.k {
        None => format!("{} cards", settings.n),
        Some(k) => format!("{k} of {} items", settings.n),
    };
    writeln!(
        out,
        "shuffle-audit {} exact: {size}, every random path enumerated",
        env!("CARGO_PKG_VERSION")
    )
    .unwrap();
    for result in &report.results {
        out.push('\n');
        render_result(&mut out, report, result, order);
    }
    out
}

fn render_result(out: &mut String, report: &ExactReport, result: &ExactResult, order: Order) {
    let law = &result.law;
    let label = |cell: usize| outcome_label(report.settings.n, report.settings.k, result.ordered, cell);
    let what = if report.settings.k.is_some() {
        "selections"
    } else {
        "orders"
    };
    writeln!(
        out,
        "{}: {} random paths, {} {what} (deserves: {})",
        result.name,
        group_thousands(law.paths),
        group_thousands(law.numerators.len() as u64),
        result.expected
    )
    .unwrap();
    writeln!(out, "  {}; from {}", result.entry.summary, result.entry.origin).unwrap();
    let mut cells: Vec<usize> = (0..law.numerators.len()).collect();
    if order == Order::ByProbability {
        cells.sort_by(|&a, &b| law.numerators[b].cmp(&law.numerators[a]).then(a.cmp(&b)));
    }
    let listed: Vec<usize> = if cells.len() <= LISTED_IN_FULL {
        cells
    } else {
        let mut by_probability = cells;
        by_probability.sort_by(|&a, &b| law.numerators[b].cmp(&law.numerators[a]).then(a.cmp(&b)));
        let tail = by_probability.split_off(by_probability.len() - LISTED_AT_EACH_END);
        by_probability.truncate(LISTED_AT_EACH_END);
        writeln!(
            out,
            "  the {LISTED_AT_EACH_END} most and {LISTED_AT_EACH_END} least likely of {} {what} (--json lists them all):",
            group_thousands(law.numerators.len() as u64)
        )
        .unwrap();
        by_probability.into_iter().chain(tail).collect()
    };
    let labels: Vec<String> = listed.iter().map(|&cell| label(cell)).collect();
    let width = labels.iter().map(String::len).max().unwrap_or(5).max(7);
    let fractions: Vec<String> = listed.iter().map(|&cell| fraction_text(law, cell)).collect();
    let fraction_width = fractions.iter().map(String::len).max().unwrap_or(11).max(11);
    writeln!(
        out,
        "  {:<width$} {:>fraction_width$} {:>13} {:>10}",
        if report.settings.k.is_some() {
            "selection"
        } else {
            "order"
        },
        "probability",
        "decimal",
        "x uniform"
    )
    .unwrap();
    let uniform = 1.0 / law.numerators.len() as f64;
    for ((cell, label), fraction) in listed.iter().zip(&labels).zip(&fractions) {
        writeln!(
            out,
            "  {label:<width$} {fraction:>fraction_width$} {:>13.9} {:>10.4}",
            law.probability(*cell),
            law.probability(*cell) / uniform
        )
        .unwrap();
    }
    let (most, least) = extremes(law);
    if most == least {
        writeln!(
            out,
            "  every possible {} equally likely, at {}",
            &what[..what.len() - 1],
            fraction_text(law, most[0])
        )
        .unwrap();
    } else {
        writeln!(
            out,
            "  most likely: {} at {}; least likely (of the possible): {} at {}; ratio {:.4}",
            listed_labels(&most, &label),
            fraction_text(law, most[0]),
            listed_labels(&least, &label),
            fraction_text(law, least[0]),
            law.max_ratio()
        )
        .unwrap();
    }
    let impossible = law.impossible();
    if impossible.is_empty() {
        writeln!(out, "  impossible {what}: none").unwrap();
    } else {
        writeln!(
            out,
            "  impossible {what}: {} of {} ({})",
            group_thousands(impossible.len() as u64),
            group_thousands(law.numerators.len() as u64),
            listed_labels(&impossible, &label)
        )
        .unwrap();
    }
    writeln!(
        out,
        "  total variation from uniform: {:.6}",
        law.total_variation()
    )
    .unwrap();
}

/// The most likely and the least likely possible outcomes (all ties).
fn extremes(law: &ExactLaw) -> (Vec<usize>, Vec<usize>) {
    let positive = law.numerators.iter().copied().filter(|&n| n > 0);
    let most = positive.clone().max().unwrap_or(0);
    let least = positive.min().unwrap_or(0);
    let with = |value: u128| {
        (0..law.numerators.len())
            .filter(|&cell| law.numerators[cell] == value)
            .collect()
    };
    (with(most), with(least))
}

/// Up to five labels, then how many more.
fn listed_labels(cells: &[usize], label: &impl Fn(usize) -> String) -> String {
    const SHOWN: usize = 5;
    let shown: Vec<String> = cells.iter().take(SHOWN).map(|&cell| label(cell)).collect();
    match cells.len() {
        len if len > SHOWN => format!(
            "{} and {} more",
            shown.join(", "),
            group_thousands((len - SHOWN) as u64)
        ),
        _ => shown.join(", "),
    }
}

/// `5/27`, `0`, `1`.
pub fn fraction_text(law: &ExactLaw, cell: usize) -> String {
    match law.fraction(cell) {
        (0, _) => "0".to_string(),
        (numerator, 1) => numerator.to_string(),
        (numerator, denominator) => format!("{numerator}/{denominator}"),
    }
}

/// An outcome from 1: `1 3 2`, or `{2 3 4}`, or `(3 1)` for an ordered selection.
pub fn outcome_label(n: usize, k: Option<usize>, ordered: bool, cell: usize) -> String {
    let join = |items: &[u16]| {
        items
            .iter()
            .map(|&item| (item + 1).to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    match k {
        None => {
            let mut order = vec![0u16; n];
            unrank(cell, &mut order);
            join(&order)
        }
        Some(k) if ordered => {
            let mut selection = vec![0u16; k];
            partial_unrank(cell, n, &mut selection);
            format!("({})", join(&selection))
        }
        Some(k) => {
            let mut subset = vec![0u16; k];
            combinadic::unrank(cell as u64, &mut subset);
            format!("{{{}}}", join(&subset))
        }
    }
}
