//! The "seven shuffles" part of the teaching report: the total variation from uniform of
//! `K` GSR riffles of a deck, exactly, for `K = 1, 2, …` (Bayer & Diaconis's table), as a
//! curve.
//!
//! It is one section with one chart and no test: the closed form
//! ([`crate::exact::riffles`]) has no noise, and every `K` is biased, so its verdict is
//! `fail` as the catalogue expects. The simulated riffles beside it (their rising
//! sequences against the Eulerian law) are an ordinary run, drawn by [`super::run_part`].

use crate::catalogue::Expectation;
use crate::error::Result;
use crate::exact::riffle_law;
use crate::format::group_thousands;
use crate::stats::Verdict;

use super::super::chart::{self, Curve, Titles};
use super::super::document::{Part, ResultSection};
use super::{chart_file, numbered};

/// The level the seven-shuffles chart marks: one half, below which Bayer and Diaconis's
/// table says the deck is "reasonably" mixed (the total variation halves with every riffle
/// from there).
pub const HALF: f64 = 0.5;

/// The part: `exact riffles:1 … riffles:K --n N` as a curve, with its table in the
/// findings. `first` numbers its one result.
pub fn seven_shuffles_part(
    heading: &str,
    prose: Vec<String>,
    n: usize,
    most: u32,
    first: usize,
) -> Result<Part> {
    let laws = (1..=most).map(|k| riffle_law(n, k)).collect::<Result<Vec<_>>>()?;
    let values: Vec<f64> = laws.iter().map(|law| law.total_variation).collect();
    let mut findings = format!("  riffles  total variation from uniform ({n} cards, exact)\n");
    for (k, tv) in values.iter().enumerate() {
        findings.push_str(&format!("  {:>7}  {tv:.6}\n", k + 1));
    }
    let svg = chart::curve(&Curve {
        titles: Titles {
            title: format!("riffles:1 … riffles:{most} · {n} cards · exact, in closed form"),
            subtitle: "total variation from a fair shuffle after K riffles".to_string(),
        },
        labels: (1..=most).map(|k| k.to_string()).collect(),
        values,
        x_axis: "K, the number of GSR riffles".to_string(),
        y_axis: "total variation from uniform (1: some orders never dealt at all)".to_string(),
        reference: Some((HALF, "one half".to_string())),
    });
    let first_below_half = laws
        .iter()
        .position(|law| law.total_variation < HALF)
        .map_or(most + 1, |k| k as u32 + 1);
    let section = ResultSection {
        name: format!("riffles:1 … riffles:{most}"),
        id: String::new(),
        // Every K leaves some bias: no finite number of riffles is exactly uniform.
        verdict: Verdict::Fail,
        expected: Expectation::Biased,
        tested_against: None,
        summary: format!(
            "the exact distance from a fair shuffle after 1 to {most} GSR riffles of {n} cards; it \
             first falls below one half at {first_below_half}"
        ),
        origin: "Bayer & Diaconis, \"Trailing the dovetail shuffle to its lair\", Ann. Appl. Probab. \
                 2 (1992) 294-313"
            .to_string(),
        notes: Vec::new(),
        tests: Vec::new(),
        smallest_p: None,
        total_variation: None,
        findings,
        charts: vec![chart_file(
            "seven-shuffles",
            format!(
                "The total variation from uniform after K riffles of {n} cards, exactly: 1 (far from \
                 mixed) up to 4 riffles, then halving with each riffle from about the seventh"
            ),
            svg,
        )],
    };
    Ok(Part {
        heading: heading.to_string(),
        prose,
        settings: format!(
            "{n} cards, 1 to {most} riffles, exact in closed form ({} orders, none enumerated)",
            if n <= 20 {
                group_thousands((1..=n as u64).product())
            } else {
                format!("{n}!")
            }
        ),
        label: format!("{n} cards, exact"),
        command: format!("for k in $(seq {most}); do shuffle-audit exact riffles:$k --n {n}; done"),
        results: numbered(std::iter::once(section), first),
    })
}
