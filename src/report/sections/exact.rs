//! The sections of an `exact` report: per algorithm, its exact law as bars (the weight
//! of each outcome against the equal share) or its exact card × position matrix as a
//! heat map, with the terminal report's lines below.
//!
//! An exact law has no sampling noise, so its bars have no band: any bar off the line is
//! a real bias and is drawn in the outside colour. Weights are the law's numerators over
//! its common denominator (for the naive swap, the number of random paths leading to
//! each order), which are whole numbers. Position matrices are probabilities; the map
//! draws them as parts per 10^17 and mutes only the cells that
//! [`crate::exact::is_uniform`] would call exactly 1/n.

use crate::exact::riffles::METHOD;
use crate::exact::{ExactLaw, ExactReport, ExactResult, RiffleLaw, UNIFORM_TOLERANCE};
use crate::format::{counted, group_thousands};
use crate::output::text::exact::{Order, model_line, outcome_label, render_result};
use crate::output::text::exact_riffles::ratio_text;

use super::super::chart::{self, Bars, HeatMap};
use super::super::document::{ChartFile, Part, ResultSection};
use super::rising::exact_rising_bars;
use super::{TABLE_BARS_UP_TO, chart_file, findings, numbered, titled};

/// Parts per this many in the position heat map's cells: enough that rounding a cell to
/// a whole number of parts (at most half a part in `10^17 / n`, 1e-14 relative for 2000
/// cards) moves it far less than [`UNIFORM_TOLERANCE`], and few enough that a
/// probability of 1 fits in the map's `u64` counts.
const POSITION_SCALE: f64 = 1e17;

/// The part of a report that one `exact` command makes, its results numbered from `first`
/// (see [`super::run_part`]).
pub fn exact_part(report: &ExactReport, command: String, first: usize) -> Part {
    let settings = &report.settings;
    let size = match settings.k {
        None => format!("{} cards", settings.n),
        Some(k) => format!("{k} of {} items", settings.n),
    };
    let results = report.results.iter().map(|result| exact_section(report, result));
    let under = match settings.source.is_default() {
        true => String::new(),
        false => format!(", under {}", settings.source),
    };
    Part {
        heading: String::new(),
        // Under a flawed source, the model the figures are exact in.
        prose: model_line(report)
            .map(|line| capitalised(&line))
            .into_iter()
            .collect(),
        settings: format!(
            "{size}, {}{under}",
            if settings.positions {
                "exact card × position matrices"
            } else if report.all_closed_form() {
                METHOD
            } else {
                "every random path enumerated"
            }
        ),
        label: size,
        command,
        results: numbered(results, first),
    }
}

/// `Under msvc-rand-mod, ...` from `under msvc-rand-mod, ...`.
fn capitalised(line: &str) -> String {
    let mut chars = line.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// ` · under msvc-rand-mod` for a chart title; nothing for the default source.
fn source_in_title(report: &ExactReport) -> String {
    match report.settings.source.is_default() {
        true => String::new(),
        false => format!(" · under {}", report.settings.source),
    }
}

fn exact_section(report: &ExactReport, result: &ExactResult) -> ResultSection {
    let n = report.settings.n;
    let mut charts = Vec::new();
    if let Some(law) = &result.law
        && law.numerators.len() <= TABLE_BARS_UP_TO
        && let Some(chart) = law_chart(report, result, law)
    {
        charts.push(chart);
    }
    if let Some(matrix) = &result.position_matrix {
        charts.push(position_chart(report, result, matrix));
    }
    let mut notes = Vec::new();
    if let Some(riffles) = &result.riffle_law {
        charts.push(riffle_chart(report, result, riffles));
        notes.push(riffle_note(riffles));
    }
    ResultSection {
        name: result.name.clone(),
        id: String::new(),
        // No test: the law itself is either uniform or not.
        verdict: result.verdict(n),
        expected: result.expected,
        tested_against: None,
        summary: result.summary.to_string(),
        origin: result.origin.to_string(),
        notes,
        tests: Vec::new(),
        smallest_p: None,
        total_variation: result.total_variation,
        findings: findings(|out| render_result(out, report, result, Order::Natural)),
        charts,
    }
}

/// The law of rising sequences after `K` riffles against a fair deck's: the picture of
/// what the closed form says, riffles piling the deals to the left of the Eulerian hump.
fn riffle_chart(report: &ExactReport, result: &ExactResult, law: &RiffleLaw) -> ChartFile {
    let titles = titled(format!(
        "{} · {} cards · exact, in closed form{}",
        result.name,
        law.n,
        source_in_title(report)
    ));
    chart_file(
        "rising-sequences",
        format!(
            "The number of rising sequences after {} exactly (per million deals), against a fair \
             deck's Eulerian law: total variation {:.3}",
            counted(u64::from(law.riffles), "riffle"),
            law.total_variation
        ),
        chart::bars(&exact_rising_bars(
            titles("rising sequences after the riffles, per million deals, against a fair deck's law"),
            &law.rising_sequence_law,
            law.n,
        )),
    )
}

/// The closed form's findings in a sentence.
fn riffle_note(law: &RiffleLaw) -> String {
    format!(
        "Exact, in closed form: {} of {} cards leave a total variation of {:.3} from a fair \
         shuffle; the fresh deck comes out {} times as often as under a fair shuffle{}.",
        counted(u64::from(law.riffles), "GSR riffle"),
        law.n,
        law.total_variation,
        ratio_text(law.most_likely.ln_ratio_to_uniform).trim_start_matches('x'),
        if law.impossible_share > 0.0 {
            format!(
                ", and orders with more than {} rising sequences never do",
                1u64 << law.riffles.min(63)
            )
        } else {
            String::new()
        }
    )
}

/// One bar per outcome: its weight (numerator) against the equal share.
fn law_chart(report: &ExactReport, result: &ExactResult, law: &ExactLaw) -> Option<ChartFile> {
    let (n, k) = (report.settings.n, report.settings.k);
    let observed: Vec<u64> = law
        .numerators
        .iter()
        .map(|&x| u64::try_from(x).ok())
        .collect::<Option<_>>()?;
    let share = law.denominator as f64 / law.numerators.len() as f64;
    let what = if k.is_some() { "selection" } else { "order" };
    let titles = titled(format!(
        "{} · {} · exact law over {} random paths{}",
        result.name,
        match k {
            None => format!("{n} cards"),
            Some(k) => format!("{k} of {n} items"),
        },
        group_thousands(law.paths),
        source_in_title(report)
    ));
    let bars = Bars {
        titles: titles(&format!(
            "weight of each {what} out of {}, against the equal share",
            law.denominator
        )),
        labels: (0..law.numerators.len())
            .map(|cell| outcome_label(n, k, result.ordered, cell))
            .collect(),
        observed,
        expected: vec![share; law.numerators.len()],
        band: vec![(share, share); law.numerators.len()],
        x_axis: what.to_string(),
        y_axis: format!("weight (of {})", law.denominator),
        log_scale: false,
        reference: None,
    };
    Some(chart_file(
        "law",
        format!(
            "The exact probability of each {what}, as its weight out of {}: every bar off the line is a real bias",
            law.denominator
        ),
        chart::bars(&bars),
    ))
}

/// The exact card × position matrix as a heat map.
fn position_chart(report: &ExactReport, result: &ExactResult, matrix: &[f64]) -> ChartFile {
    let n = report.settings.n;
    let expected = POSITION_SCALE / n as f64;
    let labels: Vec<String> = (1..=n).map(|i| i.to_string()).collect();
    let titles = titled(format!(
        "{} · {n} cards · exact position matrix{}",
        result.name,
        source_in_title(report)
    ));
    chart_file(
        "positions",
        "Where each card ends up, exactly: red cells hold their card more often than chance, blue less"
            .to_string(),
        chart::heat_map(&HeatMap {
            titles: titles("card × position: probability / (1/n) (grey: exactly 1/n)"),
            rows: labels.clone(),
            columns: labels,
            row_axis: "card (starting position)".to_string(),
            column_axis: "position after the shuffle".to_string(),
            observed: matrix
                .iter()
                .map(|&p| (p * POSITION_SCALE).round() as u64)
                .collect(),
            expected: vec![expected; n * n],
            // Cells as close to 1/n as exact::is_uniform allows count as exactly 1/n.
            standard_deviation: vec![expected * UNIFORM_TOLERANCE / chart::BAND_Z; n * n],
        }),
    )
}
