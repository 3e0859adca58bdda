//! From the findings of a run to the sections of a report: which charts each kind of
//! result gets, with what titles, and the rows of its tests table.
//!
//! Shuffles, samplers and streams each have their own file; what they share (test rows,
//! charts of a count against an exact law, titles, file names) is here. The findings text
//! below each tests table is the terminal report's own ([`crate::output::text`]), so the
//! two never disagree.

mod exact;
mod guessing;
mod rising;
mod samplers;
mod serial;
mod seven_shuffles;
mod shuffles;
mod streams;

pub use exact::exact_part;
pub use guessing::guessing_part;
pub use samplers::sampler_section;
pub use seven_shuffles::seven_shuffles_part;
pub use shuffles::{glance_section, shuffle_section};
pub use streams::{stream_part, stream_settings_line};

use crate::analysis::{TestOutcome, TestReport};
use crate::format::{format_statistic, group_thousands};
use crate::run::RunReport;
use crate::stats::Fit;
use crate::stats::verdict::SUSPICIOUS_BELOW;

use super::chart::{self, Bars, Ratios, Titles};
use super::document::{ChartFile, Part, ResultSection, TestRow, slug};

/// The most bars a chart of a law gets; the rest of the tail is summed into the last.
pub const MOST_LAW_BARS: usize = 40;

/// A law chart asked for a logarithmic axis gets one when its largest expected count is
/// more than this many times its smallest.
pub const LOG_SCALE_FROM_SPAN: f64 = 100.0;

/// The part of a report that one `run` makes: a section per algorithm. Results are
/// numbered from `first`, so that their files do not clash with other parts'.
pub fn run_part(report: &RunReport, heading: &str, prose: &[String], first: usize) -> Part {
    let results = report
        .results
        .iter()
        .map(|result| shuffle_section(report, result))
        .chain(
            report
                .sampler_results
                .iter()
                .map(|result| sampler_section(report, result)),
        );
    Part {
        heading: heading.to_string(),
        prose: prose.to_vec(),
        results: numbered(results, first),
        settings: run_settings_line(report),
        label: with_source(
            match report.settings.k {
                None => format!("{} cards", report.settings.n),
                Some(k) => format!("{k} of {}", report.settings.n),
            },
            report,
        ),
        command: crate::output::text::run::reproduce_command(report),
    }
}

/// `3 cards, 600,000 shuffles per algorithm, seed 1`.
pub fn run_settings_line(report: &RunReport) -> String {
    let settings = &report.settings;
    let (size, unit) = match settings.k {
        None => (format!("{} cards", settings.n), "shuffle"),
        Some(k) => (format!("{k} of {} items", settings.n), "sample"),
    };
    let trials = match report.input {
        None => format!(
            "{} per algorithm",
            crate::format::counted(settings.tallied_trials(), unit)
        ),
        Some(_) => crate::format::counted(settings.trials, "sample"),
    };
    let line = format!(
        "{size}, {trials}, {}, alpha {}",
        seed_or_source(report, " "),
        crate::format::format_probability(settings.alpha)
    );
    match crate::output::text::run::shard_description(settings, unit) {
        Some(shard) => format!("{line}; {shard}"),
        None => line,
    }
}

/// `seed 1` (`seed 1, source msvc-rand-mod` under a flawed source), or for ingested
/// samples `read from FILE`, words joined by `space`.
pub(crate) fn seed_or_source(report: &RunReport, space: &str) -> String {
    match &report.input {
        Some(input) => format!("read{space}from{space}{}", input.source),
        None => with_source(format!("seed{space}{}", report.seed), report),
    }
}

/// `text`, followed by `, source NAME` when the run drew from a flawed source, so that a
/// result under `rand() % n` is never mistaken for the same algorithm's fair run.
fn with_source(text: String, report: &RunReport) -> String {
    let source = report.settings.source;
    if source.is_default() || report.input.is_some() {
        text
    } else {
        format!("{text}, source {source}")
    }
}

/// Numbers the sections from `first`: their ids and their charts' file names start with
/// the number, so that names are unique in a report and sort in reading order.
pub(crate) fn numbered(sections: impl Iterator<Item = ResultSection>, first: usize) -> Vec<ResultSection> {
    sections
        .enumerate()
        .map(|(i, mut section)| {
            section.id = format!("{:02}-{}", first + i, slug(&section.name));
            for chart in &mut section.charts {
                chart.file_name = format!("{}-{}", section.id, chart.file_name);
            }
            section
        })
        .collect()
}

/// The rows of a tests table, `rejects` marking adjusted p-values below `alpha` and
/// `too_even` those that counts too even to be random decided.
pub(crate) fn test_rows(tests: &[TestReport], alpha: f64, unit: &str) -> Vec<TestRow> {
    tests
        .iter()
        .map(|test| {
            let (statistic, df, p) = match &test.outcome {
                TestOutcome::Fit(Fit::Computed { statistic, df, p, .. }) => {
                    (format_statistic(*statistic), group_thousands(*df), p.to_string())
                }
                TestOutcome::Fit(Fit::TooFewTrials { needed }) => (
                    format!(
                        "too few trials: every cell must expect 5 {unit}, which needs at least {}",
                        group_thousands(*needed)
                    ),
                    String::new(),
                    String::new(),
                ),
                TestOutcome::NotTallied(reason) | TestOutcome::NotApplicable(reason) => {
                    (reason.clone(), String::new(), String::new())
                }
                TestOutcome::Count {
                    observed,
                    expected,
                    p,
                    ..
                } => (
                    format!(
                        "{} (expected {})",
                        group_thousands(*observed),
                        crate::format::format_expected_count(*expected)
                    ),
                    String::new(),
                    p.to_string(),
                ),
            };
            TestRow {
                name: test.name.to_string(),
                description: test.description.to_string(),
                statistic,
                df,
                p,
                adjusted: test.p_adjusted.map_or_else(String::new, |p| p.to_string()),
                rejects: test.p_adjusted.is_some_and(|p| p.is_below(alpha)),
                // As the terminal says it: only where the lower tail made a p-value that
                // matters (below the suspicious level), not for every fair result whose
                // statistic happens to sit below its degrees of freedom.
                too_even: test.too_even() && test.p_adjusted.is_some_and(|p| p.is_below(SUSPICIOUS_BELOW)),
                method: match &test.outcome {
                    TestOutcome::Fit(fit) => fit
                        .p_method()
                        .filter(|method| *method != crate::stats::PMethod::ChiSquare)
                        .map(crate::stats::PMethod::short),
                    _ => None,
                },
            }
        })
        .collect()
}

/// The terminal report's findings, without its two-space indent.
pub(crate) fn findings(render: impl FnOnce(&mut String)) -> String {
    let mut text = String::new();
    render(&mut text);
    text.lines()
        .map(|line| line.strip_prefix("  ").unwrap_or(line))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The titles of a result's charts: its own title (what ran) above each chart's subtitle.
pub(crate) fn titled(title: String) -> impl Fn(&str) -> Titles {
    move |subtitle| Titles {
        title: title.clone(),
        subtitle: subtitle.to_string(),
    }
}

/// A chart file named `name.svg` (numbered later by [`number`]).
pub(crate) fn chart_file(name: &str, caption: String, svg: String) -> ChartFile {
    ChartFile {
        file_name: format!("{name}.svg"),
        caption,
        svg,
    }
}

/// Bars of counts that should all be `trials · probability` each.
pub(crate) fn uniform_bars(
    titles: Titles,
    labels: Vec<String>,
    observed: &[u64],
    trials: u64,
    axes: (&str, &str),
) -> Bars {
    let probability = 1.0 / observed.len() as f64;
    per_cell_bars(titles, labels, observed, trials, |_| probability, axes)
}

/// Tables of outcomes up to this size (the 6! orders of 6 cards) get one bar per
/// outcome; larger ones a histogram of count/expected ratios.
pub const TABLE_BARS_UP_TO: usize = 720;

/// What a table of equally likely outcomes is, in words, for its chart.
pub(crate) struct UniformTable<'a> {
    /// One outcome (`order`); its plural names the files (`orders`, `order-ratios`).
    pub noun: &'a str,
    /// The whole table (`the 3! orders`), for the caption.
    pub described: String,
    /// The bar chart's subtitle.
    pub subtitle: &'a str,
    /// What the trials are (`shuffles`).
    pub unit: &'a str,
}

/// The chart of a table whose cells should all come out `trials / cells` times: bars
/// labelled by `label` up to [`TABLE_BARS_UP_TO`] cells, a ratio histogram beyond.
pub(crate) fn uniform_table_chart(
    table: &UniformTable<'_>,
    titles: &impl Fn(&str) -> Titles,
    counts: &[u64],
    trials: u64,
    label: impl Fn(usize) -> String,
) -> ChartFile {
    let plural = format!("{}s", table.noun);
    if counts.len() <= TABLE_BARS_UP_TO {
        chart_file(
            &plural,
            format!(
                "How often each of {} came out, against the equal share a fair shuffle gives each",
                table.described
            ),
            chart::bars(&uniform_bars(
                titles(table.subtitle),
                (0..counts.len()).map(label).collect(),
                counts,
                trials,
                (table.noun, table.unit),
            )),
        )
    } else {
        chart_file(
            &format!("{}-ratios", table.noun),
            format!(
                "The {} {plural} by how often each came out, as a ratio to the equal share",
                group_thousands(counts.len() as u64)
            ),
            chart::ratio_histogram(&uniform_ratios(
                titles(&format!("{plural} by count / expected count")),
                counts,
                trials,
                table.noun,
            )),
        )
    }
}

/// The count/expected ratios of cells that should all be `trials / cells` each, with
/// the 99.9 % band of one cell's ratio: tables too large for a bar per cell.
pub(crate) fn uniform_ratios(titles: Titles, counts: &[u64], trials: u64, cell: &str) -> Ratios {
    let expected = trials as f64 / counts.len() as f64;
    let (low, high) = chart::binomial_band(trials, 1.0 / counts.len() as f64);
    Ratios {
        titles,
        ratios: counts.iter().map(|&count| count as f64 / expected).collect(),
        band: (low / expected, high / expected),
        cell: cell.to_string(),
    }
}

/// Bars of counts where cell `i` has probability `probability(i)` in each of `trials`.
pub(crate) fn per_cell_bars(
    titles: Titles,
    labels: Vec<String>,
    observed: &[u64],
    trials: u64,
    probability: impl Fn(usize) -> f64,
    (x_axis, y_axis): (&str, &str),
) -> Bars {
    let cells = 0..observed.len();
    Bars {
        titles,
        labels,
        observed: observed.to_vec(),
        expected: cells.clone().map(|i| trials as f64 * probability(i)).collect(),
        band: cells
            .map(|i| chart::binomial_band(trials, probability(i)))
            .collect(),
        x_axis: x_axis.to_string(),
        y_axis: y_axis.to_string(),
        log_scale: false,
        reference: None,
    }
}

/// Observed counts of the values `first, first + 1, …` against an exact law over the
/// same values, out of `total`. Bars run while either side still has something to
/// show (an expected count of at least one half, or a count), at most
/// [`MOST_LAW_BARS`]; whatever lies beyond is summed into the last bar, labelled `v+`.
/// `log_scale` asks for a logarithmic count axis, given where the law spans decades.
pub(crate) fn law_bars(
    titles: Titles,
    first: usize,
    observed: &[u64],
    law: &[f64],
    total: u64,
    (x_axis, y_axis): (&str, &str),
    log_scale: bool,
) -> Bars {
    let len = observed.len().max(law.len());
    let observed_at = |i: usize| observed.get(i).copied().unwrap_or(0);
    let law_at = |i: usize| law.get(i).copied().unwrap_or(0.0);
    let shown = (0..len)
        .filter(|&i| observed_at(i) > 0 || law_at(i) * total as f64 >= 0.5)
        .max()
        .map_or(1, |last| last + 1)
        .min(MOST_LAW_BARS);
    let folded = shown < len;
    let mut counts: Vec<u64> = (0..shown).map(observed_at).collect();
    let mut probabilities: Vec<f64> = (0..shown).map(law_at).collect();
    if folded {
        counts[shown - 1] += (shown..len).map(observed_at).sum::<u64>();
        probabilities[shown - 1] += (shown..len).map(law_at).sum::<f64>();
    }
    let labels = (0..shown)
        .map(|i| {
            let value = first + i;
            if folded && i + 1 == shown {
                format!("{value}+")
            } else {
                value.to_string()
            }
        })
        .collect();
    let mut bars = per_cell_bars(
        titles,
        labels,
        &counts,
        total,
        |i| probabilities[i],
        (x_axis, y_axis),
    );
    // A logarithmic axis only where the law's tail spans decades: on a law within one
    // decade (a 7-bag's gaps) it would flatten the very shape the chart is there to show.
    let positive = bars.expected.iter().copied().filter(|&e| e > 0.0);
    let span = positive.clone().fold(0.0, f64::max) / positive.fold(f64::INFINITY, f64::min);
    bars.log_scale = log_scale && span > LOG_SCALE_FROM_SPAN;
    if bars.log_scale {
        bars.titles.subtitle.push_str(" (log scale)");
    }
    bars
}

#[cfg(test)]
mod tests {
    use super::*;

    fn titles() -> Titles {
        Titles {
            title: "t".to_string(),
            subtitle: "s".to_string(),
        }
    }

    #[test]
    fn a_law_chart_folds_its_tail_into_the_last_bar() {
        // Values 0..=5; only 0..=2 expect half a count or more, and 4 was seen once.
        let law = [0.5, 0.3, 0.15, 0.03, 0.015, 0.005];
        let observed = [50, 30, 14, 0, 1, 5];
        let bars = law_bars(titles(), 0, &observed[..5], &law, 10, ("x", "y"), false);
        assert_eq!(bars.labels, ["0", "1", "2", "3", "4+"]);
        assert_eq!(bars.observed, [50, 30, 14, 0, 1]);
        assert!((bars.expected[4] - 0.2).abs() < 1e-12, "{:?}", bars.expected);
        // With everything to show and room for it, nothing is folded.
        let whole = law_bars(titles(), 1, &observed, &law, 1000, ("x", "y"), true);
        assert_eq!(whole.labels.last().unwrap(), "6");
        assert_eq!(whole.observed.iter().sum::<u64>(), 100);
        // Expected counts from 500 down to 5 span two decades exactly: still linear.
        assert!(!whole.log_scale);
        assert_eq!(whole.titles.subtitle, "s");
        // One more decade of tail, and the axis turns logarithmic (and says so).
        let tail = [0.5, 0.3, 0.15, 0.03, 0.0195, 0.0005];
        let wide = law_bars(titles(), 1, &observed, &tail, 10_000, ("x", "y"), true);
        assert!(wide.log_scale);
        assert_eq!(wide.titles.subtitle, "s (log scale)");
        // Asked for a linear axis, a law gets one whatever its span.
        assert!(!law_bars(titles(), 1, &observed, &tail, 10_000, ("x", "y"), false).log_scale);
    }

    #[test]
    fn uniform_bars_expect_an_equal_share_each() {
        let bars = uniform_bars(titles(), vec!["a".into(), "b".into()], &[40, 60], 100, ("x", "y"));
        assert_eq!(bars.expected, [50.0, 50.0]);
        assert!(bars.band[0].0 < 50.0 && bars.band[0].1 > 50.0);
    }
}
