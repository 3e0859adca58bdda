//! What the page draws, made from a report by the code the HTML report uses.
//!
//! A shuffle's order bars (up to 6 cards), heat map, fixed-point and cycle bars and tests
//! table come from [`glance_section`] (the report's own section for a shuffle, with only
//! those charts); a sampler's from [`sampler_section`], a generator's from
//! [`stream_part`]: the colour scale, the diverging legend and the p-value formats are the
//! report's by construction, and the page only places the SVGs. The verdict is the
//! result's, the one `run`, `stream` or `ingest` prints.

use serde::Serialize;

use crate::analysis::TestReport;
use crate::analysis::caught_by;
use crate::catalogue::Expectation;
use crate::report::document::{ResultSection, TestRow};
use crate::report::sections::{glance_section, sampler_section, stream_part};
use crate::run::{AlgorithmResult, RunReport, SampleInput, SamplerResult};
use crate::stats::Verdict;
use crate::stream::StreamReport;

use super::live::LiveReport;

/// The charts the page shows of a shuffle, by the name the report gives their files.
const SHOWN: [&str; 4] = ["orders", "positions", "fixed-points", "cycles"];

/// One view of a result.
#[derive(Debug, Default, Serialize)]
pub struct View {
    /// Deals (samples, draws) tallied so far.
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
    /// Ingested deals that give away their generator: the finding and its evidence.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub predictable: Option<String>,
}

/// One chart, as an SVG document.
#[derive(Debug, Serialize)]
pub struct ChartView {
    pub name: String,
    pub caption: String,
    pub svg: String,
}

/// The view of a live run's report.
pub fn live_view(report: &LiveReport) -> View {
    match report {
        LiveReport::Run(report) => view(report, true),
        LiveReport::Stream(report) => stream_view(report),
    }
}

/// The view of the first result of `report`, a shuffle's or a sampler's (`run` and
/// `ingest` make one), or an empty view when it has none.
pub fn view(report: &RunReport, catalogue: bool) -> View {
    // Deals the page sent are named for the page (a copy of what the titles read: the
    // report without its results, the result shown).
    let sent = page_name(report).map(|name| (name, sent_from_the_page(report)));
    let titled = sent.as_ref().map_or(report, |(_, titled)| titled);
    if let Some(result) = report.results.first() {
        let named;
        let result = match sent {
            Some((name, _)) => {
                named = AlgorithmResult {
                    name: name.to_string(),
                    ..result.clone()
                };
                &named
            }
            None => result,
        };
        let section = glance_section(titled, result);
        return View {
            predictable: report
                .input
                .as_ref()
                .and_then(SampleInput::predictable)
                .map(|found| format!("{}. {}", found.sentence(), found.evidence())),
            ..section_view(
                section,
                result.tally.trials,
                &result.analysis.tests,
                catalogue,
                Some(&SHOWN),
                &report.notes,
            )
        };
    }
    if let Some(result) = report.sampler_results.first() {
        let named;
        let result = match sent {
            Some((name, _)) => {
                named = SamplerResult {
                    name: name.to_string(),
                    ..result.clone()
                };
                &named
            }
            None => result,
        };
        let section = sampler_section(titled, result);
        return section_view(
            section,
            result.tally.trials,
            &result.analysis.tests,
            catalogue,
            None,
            &report.notes,
        );
    }
    View {
        notes: report.notes.clone(),
        ..View::default()
    }
}

/// What the charts call deals the page sent, which `ingest` read as it reads standard
/// input (and names so in the JSON, which is `ingest -`'s): the deals of the user's own
/// shuffle (the page fixes their deck, `--deck 1 2 … n`) or pasted ones (a dropped file's
/// too: the page pastes it). `None` for a catalogue run.
fn page_name(report: &RunReport) -> Option<&'static str> {
    let input = report.input.as_ref()?;
    Some(if input.deck_from == "--deck" {
        "your shuffle"
    } else {
        "pasted deals"
    })
}

/// `report` without its results, its input read from "this page".
fn sent_from_the_page(report: &RunReport) -> RunReport {
    RunReport {
        settings: report.settings.clone(),
        seed: report.seed,
        seed_origin: report.seed_origin,
        threads: report.threads,
        elapsed: report.elapsed,
        results: Vec::new(),
        sampler_results: Vec::new(),
        notes: report.notes.clone(),
        input: report.input.as_ref().map(|input| SampleInput {
            source: "this page".to_string(),
            ..input.clone()
        }),
    }
}

/// The view of a generator's streams (every chart `stream`'s report draws of it).
pub fn stream_view(report: &StreamReport) -> View {
    let (Some(result), Some(section)) = (
        report.results.first(),
        stream_part(report, "", &[], 1).results.into_iter().next(),
    ) else {
        return View::default();
    };
    let draws = result.tally.streams.saturating_mul(result.tally.length);
    section_view(
        section,
        draws,
        &result.analysis.tests,
        report.input.is_none(),
        None,
        &report.notes,
    )
}

fn section_view(
    section: ResultSection,
    deals: u64,
    tests: &[TestReport],
    catalogue: bool,
    shown: Option<&[&str]>,
    notes: &[String],
) -> View {
    View {
        deals,
        verdict: Some(section.verdict),
        expected: catalogue.then_some(section.expected),
        caught: (section.verdict == Verdict::Fail)
            .then(|| caught_by(tests))
            .flatten(),
        smallest_p: section.smallest_p.map(|p| p.to_string()),
        tests: section.tests.clone(),
        charts: charts_of(section, shown),
        notes: notes.to_vec(),
        predictable: None,
    }
}

fn charts_of(section: ResultSection, shown: Option<&[&str]>) -> Vec<ChartView> {
    section
        .charts
        .into_iter()
        .filter_map(|chart| {
            let name = chart.file_name.strip_suffix(".svg")?.to_string();
            shown
                .is_none_or(|shown| shown.contains(&name.as_str()))
                .then_some(ChartView {
                    name,
                    caption: chart.caption,
                    svg: chart.svg,
                })
        })
        .collect()
}
