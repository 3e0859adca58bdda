//! The terminal report of `shuffle-audit seeds reach`: what was enumerated, the bound
//! `min(seeds, n!)` in plain words, the count (or the estimate, said to be one, with its
//! standard error), and orders no seed deals. Cards are labelled 1..n, as in the rest of
//! the tool's text; the JSON counts from 0.

use std::fmt::Write;

use crate::seeds::reach::{OrderExample, ReachReport, Reachable, SeedSpace, SeedSpaceOrigin, seed_meaning};

use crate::format::{compact, group_digits, group_thousands};

/// Decks up to this size are printed whole; larger ones are cut (the JSON has them all).
const WHOLE_DECK_UP_TO: usize = 52;

/// The whole report.
pub fn render(report: &ReachReport) -> String {
    let mut out = String::new();
    let n = report.n;
    writeln!(
        out,
        "shuffle-audit {} seeds reach: {} on {n} cards, source {}",
        env!("CARGO_PKG_VERSION"),
        report.algorithm,
        report.source
    )
    .unwrap();
    // The source's origin, not its definition: the definition tells how `run` seeds its
    // chunks, and here the seed is the generator's state itself (the next line).
    writeln!(
        out,
        "source: {}, from {}",
        report.source.name(),
        report.source.origin()
    )
    .unwrap();
    writeln!(
        out,
        "seeds: {}, each {}",
        describe_seeds(&report.seeds),
        seed_meaning(report.source)
    )
    .unwrap();
    writeln!(
        out,
        "orders of {n} cards: {n}! = {} (2^{:.2})",
        group_digits(&report.orders.decimal),
        report.orders.log2
    )
    .unwrap();
    let bound = report.bound();
    writeln!(
        out,
        "reachable at most: min(seeds, {n}!) = {} (2^{:.2})",
        group_thousands(bound),
        (bound as f64).log2()
    )
    .unwrap();
    out.push('\n');
    render_plain_words(&mut out, report);
    out.push('\n');
    render_reachable(&mut out, report);
    render_examples(&mut out, report);
    writeln!(
        out,
        "\n{} seeds in {:.2} s ({} seeds/s), {} thread{}",
        group_thousands(report.seeds.count()),
        report.elapsed.as_secs_f64(),
        compact(report.seeds_per_second()),
        report.threads,
        if report.threads == 1 { "" } else { "s" }
    )
    .unwrap();
    writeln!(out, "reproduce: {}", reproduce_command(report)).unwrap();
    out
}

/// `0..4,294,967,296 (every 32-bit state: the whole seed space), 4,294,967,296 seeds`.
fn describe_seeds(space: &SeedSpace) -> String {
    let ranges: Vec<String> = space
        .ranges()
        .iter()
        .map(|range| format!("{}..{}", group_thousands(range.start), group_thousands(range.end)))
        .collect();
    let why = match space.origin() {
        SeedSpaceOrigin::WholeState => " (every 32-bit state: the whole seed space)".to_string(),
        SeedSpaceOrigin::DayOfMilliseconds => {
            " (every millisecond of a day, all the clock can read: the whole seed space)".to_string()
        }
        SeedSpaceOrigin::Bits(bits) => format!(" (2^{bits})"),
        SeedSpaceOrigin::Ranges => String::new(),
    };
    format!(
        "{}{why}, {} seeds",
        ranges.join(" and "),
        group_thousands(space.count())
    )
}

/// The bound in plain words: how few of the possible deals can ever come out.
fn render_plain_words(out: &mut String, report: &ReachReport) {
    let seeds = report.seeds.count();
    if report.seeds_are_fewer_than_orders() {
        let ratio = report.orders.log2 - (seeds as f64).log2();
        writeln!(
            out,
            "Only {} of the {} possible deals can ever come out: one in about 2^{:.1}.",
            group_thousands(seeds),
            group_digits(&report.orders.decimal),
            ratio
        )
        .unwrap();
    } else {
        writeln!(
            out,
            "There are at least as many seeds ({}) as orders ({}): the seeds alone keep no order \
             from coming out.",
            group_thousands(seeds),
            group_digits(&report.orders.decimal)
        )
        .unwrap();
    }
}

fn render_reachable(out: &mut String, report: &ReachReport) {
    let reachable = &report.reachable;
    let per_order = report.seeds_per_order();
    let per_order = format!(
        "each reachable order is dealt by {} seeds on average",
        if per_order < 100.0 {
            format!("{per_order:.2}")
        } else {
            group_thousands(per_order.round() as u64)
        }
    );
    match reachable {
        Reachable::Exact { count } => {
            let orders = report
                .orders
                .exact
                .expect("a bitset deck has a u64 count of orders");
            let share = if *count == orders {
                "every order".to_string()
            } else {
                format!("{:.2} % of the orders", *count as f64 / orders as f64 * 100.0)
            };
            writeln!(
                out,
                "reachable: {} of {} orders ({share}), counted exactly (a bit for every order); {per_order}",
                group_thousands(*count),
                group_thousands(orders),
            )
            .unwrap();
        }
        Reachable::Sampled(sample) if sample.is_exact() => {
            writeln!(
                out,
                "reachable: {} distinct orders (2^{:.2}), counted exactly: every order dealt fitted in \
                 the sample, told apart by 128-bit fingerprints; {per_order}",
                group_thousands(sample.kept),
                (sample.kept as f64).log2()
            )
            .unwrap();
        }
        Reachable::Sampled(sample) => {
            let estimate = sample.estimate();
            let error = sample.standard_error();
            writeln!(
                out,
                "reachable: about {} (2^{:.2}), standard error {} ({:.2} %): an estimate, not a count",
                group_thousands(estimate.round() as u64),
                estimate.log2(),
                group_thousands(error.round() as u64),
                error / estimate * 100.0
            )
            .unwrap();
            writeln!(
                out,
                "  (adaptive distinct sampling: the {} distinct orders whose 64-bit hash fell in the \
                 lowest 1/{} of its range, times {}); {per_order}",
                group_thousands(sample.kept),
                group_thousands(1 << sample.level.min(63)),
                group_thousands(1 << sample.level.min(63)),
            )
            .unwrap();
            if report.estimate_meets_bound() {
                writeln!(
                    out,
                    "  within 3 standard errors of the bound: {}",
                    if report.seeds_are_fewer_than_orders() {
                        "as far as the sample can tell, every seed deals an order of its own"
                    } else {
                        "as far as the sample can tell, every order is reached"
                    }
                )
                .unwrap();
            }
        }
    }
}

fn render_examples(out: &mut String, report: &ReachReport) {
    let (missing, dealt): (Vec<&OrderExample>, Vec<&OrderExample>) =
        report.examples.iter().partition(|example| !example.dealt);
    if missing.is_empty() && dealt.is_empty() {
        return;
    }
    let width = report
        .examples
        .iter()
        .map(|example| example.label.len())
        .max()
        .unwrap_or(0);
    let heading = match report.reachable {
        Reachable::Exact { .. } => {
            "unreachable, e.g. (no seed of the range deals them; the first missing in lexicographic \
             order, then the first missing from 1/4, 1/2 and 3/4 of the ranks):"
        }
        Reachable::Sampled(_) => {
            "unreachable, proven (compared with every deal, no seed of the range deals them):"
        }
    };
    if !missing.is_empty() {
        writeln!(out, "{heading}").unwrap();
        for example in &missing {
            writeln!(out, "  {:<width$}  {}", example.label, deck_text(&example.order)).unwrap();
        }
    }
    if !dealt.is_empty() {
        writeln!(out, "dealt by some seed:").unwrap();
        for example in &dealt {
            writeln!(out, "  {:<width$}  {}", example.label, deck_text(&example.order)).unwrap();
        }
    }
}

/// An order with cards labelled from 1; beyond 52 cards, its first 24 and a count.
fn deck_text(order: &[u16]) -> String {
    let shown = if order.len() <= WHOLE_DECK_UP_TO {
        order.len()
    } else {
        24
    };
    let mut text = order[..shown]
        .iter()
        .map(|&card| (card + 1).to_string())
        .collect::<Vec<_>>()
        .join(" ");
    if shown < order.len() {
        write!(text, " ... ({} more; the JSON has them all)", order.len() - shown).unwrap();
    }
    text
}

/// The command that repeats the enumeration. Threads are left out: they do not change it.
pub fn reproduce_command(report: &ReachReport) -> String {
    format!(
        "shuffle-audit seeds reach --n {} --algorithm {}{}{}",
        report.n,
        report.algorithm,
        report.source.command_flags(),
        report.seeds.command_flags()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_decks_are_cut_short() {
        assert_eq!(deck_text(&[2, 0, 1]), "3 1 2");
        let long: Vec<u16> = (0..60).collect();
        let text = deck_text(&long);
        assert!(text.starts_with("1 2 3 ") && text.ends_with("24 ... (36 more; the JSON has them all)"));
    }
}
