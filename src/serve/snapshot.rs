//! What the page draws, made from a report by the code the HTML report uses.
//!
//! The heat map, the fixed-point and cycle bars and the tests table come from
//! [`glance_section`] (the report's own section for a shuffle, with only those charts), so the colour scale, the
//! diverging legend and the p-value formats are the report's by construction; the page
//! only places the SVGs. The verdict is the result's, the one `run` or `ingest` prints.

use serde::Serialize;

use crate::analysis::caught_by;
use crate::catalogue::Expectation;
use crate::report::document::{ResultSection, TestRow};
use crate::report::sections::glance_section;
use crate::run::RunReport;
use crate::stats::Verdict;

/// The charts the page shows, by the name the report gives their files.
const SHOWN: [&str; 3] = ["positions", "fixed-points", "cycles"];

/// One view of a result.
#[derive(Debug, Default, Serialize)]
pub struct View {
    /// Deals tallied so far.
    pub deals: u64,
    /// What the tests say of them; `None` with nothing tallied yet.
    pub verdict: Option<Verdict>,
    /// What a catalogue algorithm is known to be at this size; `None` for outside samples.
    pub expected: Option<Expectation>,
    /// `fail: the permutation test …`, when a test caught it.
    pub caught: Option<String>,
    /// The smallest Holm-adjusted p-value, formatted.
    pub smallest_p: Option<String>,
    /// The tests table's rows, as the report shows them.
    pub tests: Vec<TestRow>,
    pub charts: Vec<ChartView>,
    pub notes: Vec<String>,
}

/// One chart, as an SVG document.
#[derive(Debug, Serialize)]
pub struct ChartView {
    pub name: String,
    pub caption: String,
    pub svg: String,
}

/// The view of the first shuffle result of `report` (`run` and `ingest` of decks both
/// make one), or an empty view when it has none.
pub fn view(report: &RunReport, catalogue: bool) -> View {
    let Some(result) = report.results.first() else {
        return View {
            notes: report.notes.clone(),
            ..View::default()
        };
    };
    let section = glance_section(report, result);
    View {
        deals: result.tally.trials,
        verdict: Some(result.analysis.verdict),
        expected: catalogue.then_some(result.expected),
        caught: (result.analysis.verdict == Verdict::Fail)
            .then(|| caught_by(&result.analysis.tests))
            .flatten(),
        smallest_p: result.analysis.smallest_p_adjusted().map(|p| p.to_string()),
        tests: section.tests.clone(),
        charts: charts_of(section),
        notes: report.notes.clone(),
    }
}

fn charts_of(section: ResultSection) -> Vec<ChartView> {
    section
        .charts
        .into_iter()
        .filter_map(|chart| {
            let name = chart.file_name.strip_suffix(".svg")?.to_string();
            SHOWN.contains(&name.as_str()).then_some(ChartView {
                name,
                caption: chart.caption,
                svg: chart.svg,
            })
        })
        .collect()
}
