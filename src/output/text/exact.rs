//! The terminal report of `shuffle-audit exact`: per algorithm, the number of random
//! paths, every outcome's probability as a reduced fraction and a decimal (all of them up
//! to [`LISTED_IN_FULL`] outcomes, else the most and least likely), the most and least
//! likely outcomes with the ratio between them, the impossible outcomes, and the total
//! variation distance from uniform. Cards and items are labelled from 1, as in `run`.
//! Under a flawed source the header says in which model the figures are exact, and
//! ratios get as many decimals as it takes to show their distance from 1 (a Delphi bias
//! is a few parts in 10^10).

use std::fmt::Write;

use crate::exact::{ExactLaw, ExactReport, ExactResult};
use crate::format::group_thousands;
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
    let size = match (&settings.items, settings.k) {
        (Some(items), _) => format!(
            "the first cycle of bags of {} items (--items {items})",
            settings.n
        ),
        (None, None) => format!("{} cards", settings.n),
        (None, Some(k)) => format!("{k} of {} items", settings.n),
    };
    writeln!(
        out,
        "shuffle-audit {} exact: {size}, {}",
        env!("CARGO_PKG_VERSION"),
        if settings.positions {
            "exact card x position matrices"
        } else if report.all_closed_form() {
            crate::exact::riffles::METHOD
        } else {
            "every random path enumerated"
        }
    )
    .unwrap();
    if let Some(line) = model_line(report) {
        writeln!(out, "{line}").unwrap();
    }
    for result in &report.results {
        out.push('\n');
        render_result(&mut out, report, result, order);
    }
    out
}

/// `under msvc-rand-mod, exact in its model: each rand() taken as uniform ...`; `None`
/// for the default source.
pub fn model_line(report: &ExactReport) -> Option<String> {
    let source = report.settings.source;
    let model = source.draw_law().ok()?.model()?;
    Some(format!("under {source}, exact in the source's model: {model}"))
}

/// Decimals for the ratios of a result whose largest distance from 1 is `deviation`:
/// 4 at least (`x1.3522`), more for a smaller bias (Delphi's 3-card `x1.00000000047`).
fn ratio_decimals(deviation: f64) -> usize {
    crate::format::ratio_decimals(deviation, 4)
}

/// A distance such as a total variation: six decimals, or two significant digits once
/// six decimals would show nothing (`2.0e-5` stays `0.000020`; `3.1e-10`).
fn small_number(value: f64) -> String {
    if value == 0.0 || value >= 1e-5 {
        format!("{value:.6}")
    } else {
        format!("{value:.1e}")
    }
}

pub(crate) fn render_result(out: &mut String, report: &ExactReport, result: &ExactResult, order: Order) {
    match (&result.law, &result.riffle_law) {
        (Some(law), _) => render_law(out, report, result, law, order),
        (None, Some(riffles)) => render_riffles(out, report, result, riffles),
        (None, None) => render_positions(out, report, result),
    }
    if let Some(guessing) = &result.guessing {
        super::exact_guessing::render(out, guessing);
    }
    render_trials_needed(out, report, result);
}

fn render_law(out: &mut String, report: &ExactReport, result: &ExactResult, law: &ExactLaw, order: Order) {
    let label = |cell: usize| outcome_label(report.settings.n, report.settings.k, result.ordered, cell);
    let what = if report.settings.k.is_some() {
        "selections"
    } else {
        "orders"
    };
    writeln!(
        out,
        "{}: {} random paths, {} {what}: {} (known to be: {})",
        result.name,
        group_thousands(law.paths),
        group_thousands(law.numerators.len() as u64),
        result.verdict(report.settings.n).headline(),
        result.expected
    )
    .unwrap();
    writeln!(out, "  {}; from {}", result.summary, result.origin).unwrap();
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
    let uniform = 1.0 / law.numerators.len() as f64;
    let decimals = ratio_decimals(
        law.probabilities()
            .iter()
            .map(|&p| (p / uniform - 1.0).abs())
            .fold(0.0, f64::max),
    );
    let ratio_width = (decimals + 2).max(10);
    writeln!(
        out,
        "  {:<width$} {:>fraction_width$} {:>13} {:>ratio_width$}",
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
    for ((cell, label), fraction) in listed.iter().zip(&labels).zip(&fractions) {
        writeln!(
            out,
            "  {label:<width$} {fraction:>fraction_width$} {:>13.9} {:>ratio_width$.decimals$}",
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
            "  most likely: {} at {}; least likely (of the possible): {} at {}; ratio {:.decimals$}",
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
        "  total variation from uniform: {}",
        small_number(law.total_variation())
    )
    .unwrap();
}

/// The closed-form law of GSR riffles ([`super::exact_riffles`]).
fn render_riffles(
    out: &mut String,
    report: &ExactReport,
    result: &ExactResult,
    law: &crate::exact::RiffleLaw,
) {
    writeln!(
        out,
        "{}: {} cards, exact in closed form (no path enumerated): {} (known to be: {})",
        result.name,
        law.n,
        result.verdict(report.settings.n).headline(),
        result.expected
    )
    .unwrap();
    writeln!(out, "  {}; from {}", result.summary, result.origin).unwrap();
    super::exact_riffles::render(out, law);
}

/// The exact card × position matrix: how it is known, its most and least likely cells,
/// which cards land on top, and the whole matrix of ratios for small decks.
fn render_positions(out: &mut String, report: &ExactReport, result: &ExactResult) {
    let n = report.settings.n;
    writeln!(
        out,
        "{}: card x position matrix: {} (known to be: {})",
        result.name,
        result.verdict(n).headline(),
        result.expected
    )
    .unwrap();
    writeln!(out, "  {}; from {}", result.summary, result.origin).unwrap();
    if let Some(method) = result.position_method {
        writeln!(out, "  method: {method}").unwrap();
    }
    let Some(matrix) = &result.position_matrix else {
        return;
    };
    let uniform = 1.0 / n as f64;
    let decimals = ratio_decimals(
        matrix
            .iter()
            .map(|&p| (p / uniform - 1.0).abs())
            .fold(0.0, f64::max),
    );
    let cell_text = |cell: usize| {
        format!(
            "card {} at position {} x{:.decimals$}",
            cell / n + 1,
            cell % n + 1,
            matrix[cell] / uniform
        )
    };
    if crate::exact::is_uniform(matrix, n) {
        writeln!(
            out,
            "  every card is equally likely at every position (1/{n}, within floating-point rounding)"
        )
        .unwrap();
        return;
    }
    let (most, least) = (0..n * n).fold((0, 0), |(most, least), cell| {
        (
            if matrix[cell] > matrix[most] { cell } else { most },
            if matrix[cell] < matrix[least] { cell } else { least },
        )
    });
    writeln!(
        out,
        "  most likely: {}; least likely: {}",
        cell_text(most),
        cell_text(least)
    )
    .unwrap();
    let top: Vec<usize> = (0..n).map(|card| card * n).collect();
    let (top_most, top_least) = top.iter().fold((top[0], top[0]), |(most, least), &cell| {
        (
            if matrix[cell] > matrix[most] { cell } else { most },
            if matrix[cell] < matrix[least] { cell } else { least },
        )
    });
    writeln!(out, "  on top: {}; {}", cell_text(top_most), cell_text(top_least)).unwrap();
    let distance = (0..n)
        .map(|card| {
            0.5 * (0..n)
                .map(|position| (matrix[card * n + position] - uniform).abs())
                .sum::<f64>()
        })
        .fold(0.0, f64::max);
    writeln!(
        out,
        "  largest total variation of one card's position from uniform: {}",
        small_number(distance)
    )
    .unwrap();
    if n <= MATRIX_PRINTED_UP_TO {
        writeln!(out, "  observed / uniform, rows = cards, columns = positions:").unwrap();
        for card in 0..n {
            let row: Vec<String> = (0..n)
                .map(|position| format!("{:>6.3}", matrix[card * n + position] / uniform))
                .collect();
            writeln!(out, "  {:>4}  {}", card + 1, row.join(" ")).unwrap();
        }
    }
}

/// Decks up to this size get their whole matrix printed.
pub const MATRIX_PRINTED_UP_TO: usize = 12;

/// How many trials the χ² test of this table needs to catch the bias.
fn render_trials_needed(out: &mut String, report: &ExactReport, result: &ExactResult) {
    if result.law.is_none() && result.position_matrix.is_none() && result.riffle_law.is_none() {
        return;
    }
    let test = if result.riffle_law.is_some() {
        "rising-sequence"
    } else if result.law.is_some() {
        if report.settings.k.is_some() {
            "selections"
        } else {
            "permutation"
        }
    } else {
        "position"
    };
    let alpha = crate::format::format_probability(report.settings.alpha);
    let power = crate::exact::POWER * 100.0;
    match result.trials_needed {
        Some(trials) => writeln!(
            out,
            "  samples needed: the {test} test catches this bias at alpha {alpha} with {power:.0} % power after about {} {}",
            group_thousands(trials),
            if report.settings.k.is_some() { "samples" } else { "shuffles" }
        ),
        None if result.is_uniform(report.settings.n) => writeln!(
            out,
            "  samples needed: none could show a bias: the {test} table is exactly uniform"
        ),
        None => writeln!(
            out,
            "  samples needed: more than 2^64 {}: the {test} test cannot see this bias in practice",
            if report.settings.k.is_some() { "samples" } else { "shuffles" }
        ),
    }
    .unwrap();
}

/// The command that repeats an exact report (threads and output options left out).
pub fn reproduce_command(report: &ExactReport) -> String {
    let settings = &report.settings;
    let names: Vec<&str> = report.results.iter().map(|result| result.name.as_str()).collect();
    let mut command = format!("shuffle-audit exact {}", names.join(" "));
    match &settings.items {
        Some(items) => command.push_str(&format!(" --items {items}")),
        None => command.push_str(&format!(" --n {}", settings.n)),
    }
    if let Some(k) = settings.k {
        command.push_str(&format!(" --k {k}"));
    }
    if settings.positions {
        command.push_str(" --positions");
    }
    command.push_str(&settings.source.command_flags());
    command
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
