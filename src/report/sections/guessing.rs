//! The "what a flaw is worth" part of the teaching report: the card-guessing game
//! ([`crate::exact::guessing`]) against the naive swap, one and three riffles, the casino
//! shelf machine, and `K` riffles of 52 cards as a curve: the seven-shuffles story told in
//! cards a player names instead of distances.
//!
//! One section with a table in its findings and one chart, no test: every figure is exact
//! or a labelled lower bound from a fixed seed, and every shuffle in it is biased.

use crate::catalogue::{AlgorithmSpec, Expectation};
use crate::error::Result;
use crate::exact::guessing::riffle::{LOWER_BOUND_SEED, riffles_guessing};
use crate::exact::guessing::shelf::shelf_strategy_value;
use crate::exact::guessing::shelf_optimal::shelf_optimal_value;
use crate::exact::guessing::{Guessing, fair_value};
use crate::exact::{ExactSettings, exact};
use crate::randomness::SourceKind;
use crate::simulate::NoProgress;
use crate::stats::Verdict;

use super::super::chart::{self, Curve, Titles};
use super::super::document::{Part, ResultSection};
use super::{chart_file, numbered};

/// Deals of the shelf machine simulated for the stated strategy (two passes).
const SHELF_DEALS: u64 = 100_000;

/// Deals valued by the optimal player after one pass (each costs about a millisecond: the
/// next card's exact law after every prefix; the interval is about ±0.02).
const SHELF_OPTIMAL_DEALS: u64 = 10_000;

/// One row of the table.
struct Row {
    what: String,
    cards: usize,
    value: String,
    fair: f64,
    how: &'static str,
}

fn row(what: &str, guessing: &Guessing, how: &'static str) -> Row {
    Row {
        what: what.to_string(),
        cards: guessing.cards,
        value: guessing
            .sentence()
            .split(" of ")
            .next()
            .unwrap_or_default()
            .to_string(),
        fair: guessing.fair_expected_correct,
        how,
    }
}

/// The optimal game against an enumerated catalogue law of `n` cards.
fn enumerated(name: &str, n: usize, threads: usize) -> Result<Guessing> {
    let settings = ExactSettings {
        n,
        k: None,
        threads,
        positions: false,
        alpha: 1e-6,
        items: None,
        source: SourceKind::Xoshiro,
    };
    let mut report = exact(&[AlgorithmSpec::parse(name)?], &settings, &NoProgress)?;
    Ok(report
        .results
        .remove(0)
        .guessing
        .expect("a shuffle's law has a game"))
}

/// The part: a table of what a player gains against each flaw, and the curve of `K`
/// riffles of `n` cards for `K` up to `most`. `first` numbers its one result.
pub fn guessing_part(
    heading: &str,
    prose: Vec<String>,
    n: usize,
    most: u32,
    threads: usize,
    first: usize,
) -> Result<Part> {
    let mut rows = vec![
        row(
            "naive swap",
            &enumerated("naive-swap", 6, threads)?,
            "optimal, exact (every path)",
        ),
        row(
            "Fisher-Yates",
            &enumerated("fisher-yates", 6, threads)?,
            "optimal, exact (every path)",
        ),
        row(
            "riffles:1",
            &riffles_guessing(n, 1)?,
            "optimal, exact (recursion)",
        ),
        row(
            "riffles:3",
            &riffles_guessing(n, 3)?,
            "lower bound (stated strategy)",
        ),
    ];
    let fair = fair_value(n, n);
    let (mean, half_width) = shelf_optimal_value(n, 10, SHELF_OPTIMAL_DEALS, LOWER_BOUND_SEED);
    rows.push(Row {
        what: "shelf:10".to_string(),
        cards: n,
        value: format!("{mean:.2} ± {half_width:.2}"),
        fair,
        how: "optimal (exact next-card law, simulated deals)",
    });
    let (mean, half_width) = shelf_strategy_value(n, 10, 2, SHELF_DEALS, LOWER_BOUND_SEED);
    rows.push(Row {
        what: "shelf-passes:10,2".to_string(),
        cards: n,
        value: format!("at least {mean:.2} ± {half_width:.2}"),
        fair,
        how: "lower bound (shelf strategy)",
    });
    let curve = (1..=most)
        .map(|k| riffles_guessing(n, k))
        .collect::<Result<Vec<_>>>()?;
    let mut findings =
        "  shuffle             cards  a player names               fair  how it is known\n".to_string();
    for row in &rows {
        findings.push_str(&format!(
            "  {:<18} {:>6}  {:<26} {:>6.2}  {}\n",
            row.what, row.cards, row.value, row.fair, row.how
        ));
    }
    findings.push_str(&format!(
        "\n  riffles  cards named of {n} (fair {fair:.2}; K = 1 optimal, exact; K >= 2 lower bounds \
         simulated from seed {LOWER_BOUND_SEED})\n"
    ));
    for (k, guessing) in curve.iter().enumerate() {
        findings.push_str(&format!(
            "  {:>7}  {}\n",
            k + 1,
            guessing.sentence().split(" of ").next().unwrap_or_default()
        ));
    }
    let svg = chart::curve(&Curve {
        titles: Titles {
            title: format!("the guessing game after K riffles · {n} cards"),
            subtitle: "share of the deck a player names: K = 1 optimal (exact), K ≥ 2 a stated strategy (a lower bound)"
                .to_string(),
        },
        labels: (1..=most).map(|k| k.to_string()).collect(),
        values: curve.iter().map(|g| g.expected_correct / n as f64).collect(),
        x_axis: "K, the number of GSR riffles".to_string(),
        y_axis: "share of the cards named correctly".to_string(),
        reference: Some((fair / n as f64, format!("a fair deck: {fair:.2} of {n}"))),
    });
    let section = ResultSection {
        name: "the guessing game".to_string(),
        id: String::new(),
        verdict: Verdict::Fail,
        expected: Expectation::Biased,
        tested_against: None,
        summary: format!(
            "expected correct guesses of a player shown each card after guessing it, against the \
             naive swap, riffles and the shelf machine; a fair deck of {n} allows {fair:.2}"
        ),
        origin: "Diaconis, Fulman & Holmes, Ann. Appl. Probab. 23(4) (2013); Liu (2020); Bayer & \
                 Diaconis (1992)"
            .to_string(),
        notes: Vec::new(),
        tests: Vec::new(),
        smallest_p: None,
        total_variation: None,
        findings,
        charts: vec![chart_file(
            "guessing-game",
            format!(
                "Cards named correctly of {n} after K riffles: 31 after one, about 9 after three, \
                 within half a card of fair ({fair:.2}) from six"
            ),
            svg,
        )],
    };
    Ok(Part {
        heading: heading.to_string(),
        prose,
        settings: format!(
            "{n} cards (the swaps on 6), exact where a law is known, lower bounds from seed {LOWER_BOUND_SEED} elsewhere"
        ),
        label: format!("{n} cards, guessing"),
        command: format!("for k in $(seq {most}); do shuffle-audit exact riffles:$k --n {n}; done"),
        results: numbered(std::iter::once(section), first),
    })
}
