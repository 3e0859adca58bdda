//! The section of one sampler: how often each subset came out (bars up to 720 subsets,
//! a histogram of ratios beyond) and how often each item was chosen.
//!
//! The inclusion chart is the one that tells text 002's C code apart at a glance: it
//! always outputs the same k values, so k bars reach the top and the rest are empty.

use crate::format::group_thousands;
use crate::output::text::result::FAIR_SAMPLER;
use crate::output::text::samplers::{render_findings, subset_label};
use crate::run::{RunReport, SamplerResult};

use super::super::chart;
use super::super::document::ResultSection;
use super::{UniformTable, chart_file, findings, per_cell_bars, test_rows, titled, uniform_table_chart};

/// The section of `result`, a sampler of `report`.
pub fn sampler_section(report: &RunReport, result: &SamplerResult) -> ResultSection {
    let tally = &result.tally;
    let (n, k, trials) = (tally.n, tally.k, tally.trials);
    let title = format!(
        "{} · {k} of {n} items · {} samples · {}",
        result.name,
        group_thousands(trials),
        super::seed_or_source(report, "\u{a0}")
    );
    let titles = titled(title);
    let mut charts = Vec::new();
    if let Some(counts) = &tally.subset_counts {
        let table = UniformTable {
            noun: "subset",
            described: format!("the C({n}, {k}) subsets"),
            subtitle: "how often each subset came out",
            unit: "samples",
        };
        charts.push(uniform_table_chart(&table, &titles, counts, trials, |rank| {
            subset_label(rank as u64, k, &result.about)
        }));
    }
    let share = k as f64 / n as f64;
    charts.push(chart_file(
        "inclusion",
        format!("How often each item was chosen: each should be in {k} of every {n} samples"),
        chart::bars(&per_cell_bars(
            titles("how often each item was chosen"),
            (0..n).map(|item| result.about.label(item)).collect(),
            &tally.inclusion_counts,
            trials,
            |_| share,
            ("item", "samples that chose it"),
        )),
    ));
    ResultSection {
        name: result.name.clone(),
        id: String::new(),
        verdict: result.analysis.verdict,
        expected: result.expected,
        tested_against: report.input.is_some().then_some(FAIR_SAMPLER),
        summary: result.about.summary.to_string(),
        origin: result.about.origin.to_string(),
        notes: Vec::new(),
        tests: test_rows(&result.analysis.tests, report.settings.alpha, "samples"),
        smallest_p: result.analysis.smallest_p_adjusted(),
        total_variation: result.analysis.total_variation.map(|tv| tv.distance),
        findings: findings(|out| render_findings(out, result)),
        charts,
    }
}
