//! What a report says, before it is written as HTML or Markdown.
//!
//! A report is a list of parts (one per command that ran: `run`, `stream`, and in the
//! teaching set one per claim of the source texts), each with its results. Building this
//! model once and rendering it twice keeps the HTML page and the Markdown page saying
//! exactly the same thing, and keeps the renderers free of statistics.
//!
//! Text written here is plain text: the renderers escape it. Prose may mark code with
//! backticks (`` `shuffle-audit run` ``), the only markup both renderers understand.

use crate::catalogue::Expectation;
use crate::output::text::result::Benchmark;
use crate::stats::{PValue, Verdict};

use super::chart::{self, Summary, SummaryRow, Titles};

/// A whole report.
#[derive(Clone, Debug, PartialEq)]
pub struct Document {
    /// The page's title.
    pub title: String,
    /// Paragraphs before the summary: the guided reading of the teaching set, or the run's
    /// settings.
    pub introduction: Vec<String>,
    /// The parts, in order.
    pub parts: Vec<Part>,
    /// The significance level the verdicts used (the summary chart draws it).
    pub alpha: f64,
}

/// The results of one command.
#[derive(Clone, Debug, PartialEq)]
pub struct Part {
    /// Its heading (`Naive swap against Fisher–Yates on 3 cards`); empty for a report of
    /// a single command, whose title says it all.
    pub heading: String,
    /// Paragraphs that explain what the part shows.
    pub prose: Vec<String>,
    /// What ran, in a line: `3 cards, 600,000 shuffles per algorithm, seed 1`.
    pub settings: String,
    /// What sets its results apart from other parts' results of the same name, in a few
    /// words (`3 cards`, `items 7`), for the summary.
    pub label: String,
    /// The command that repeats it.
    pub command: String,
    /// One section per algorithm or generator.
    pub results: Vec<ResultSection>,
}

/// One algorithm's (or generator's) findings.
#[derive(Clone, Debug, PartialEq)]
pub struct ResultSection {
    /// Its name as it ran (`naive-repeated:2`).
    pub name: String,
    /// An identifier unique in the document, for links and file names (`01-naive-swap`).
    pub id: String,
    /// The verdict of the tests.
    pub verdict: Verdict,
    /// The verdict it is known to get.
    pub expected: Expectation,
    /// For samples from elsewhere (`ingest`): the law they were tested against (`a fair
    /// shuffle`), which the pages say instead of what nobody can know of them;
    /// `expected` then only grades the verdict.
    pub tested_against: Option<&'static str>,
    /// What it is, and where it comes from.
    pub summary: String,
    pub origin: String,
    /// Sentences that state what a tests table cannot: how many decks were dealt twice
    /// and how many different decks that implies, or an exact law's distance from
    /// uniform. Shown above the tests.
    pub notes: Vec<String>,
    /// Its tests.
    pub tests: Vec<TestRow>,
    /// The smallest Holm-adjusted p-value, the one the verdict is read from.
    pub smallest_p: Option<PValue>,
    /// Total variation distance from uniform, where it was measured.
    pub total_variation: Option<f64>,
    /// Everything else the terminal report says about it (effect size, worst outcomes,
    /// tables), as preformatted lines.
    pub findings: String,
    /// Its charts.
    pub charts: Vec<ChartFile>,
}

/// One line of a tests table (also sent as is to the live page, `serve`).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct TestRow {
    /// Short name (`permutations`).
    pub name: String,
    /// What it checks.
    pub description: String,
    /// The statistic and degrees of freedom, or why the test did not run.
    pub statistic: String,
    pub df: String,
    /// Raw and Holm-adjusted p-values, formatted (empty when the test did not run).
    pub p: String,
    pub adjusted: String,
    /// Whether the adjusted p-value is below the significance level.
    pub rejects: bool,
    /// Whether counts too even to be random (the lower tail of χ²) made the p-value, and
    /// it is small enough to matter: shown as `too even` beside it.
    pub too_even: bool,
    /// How the p-value was computed when not from the χ² law (`exact`, `simulated`,
    /// `bound`): shown beside it.
    pub method: Option<&'static str>,
}

/// A chart and the file it is written to.
#[derive(Clone, Debug, PartialEq)]
pub struct ChartFile {
    /// File name inside the report directory (`01-naive-swap-orders.svg`).
    pub file_name: String,
    /// What it shows, for the alternative text and the caption.
    pub caption: String,
    /// The SVG document.
    pub svg: String,
}

impl ChartFile {
    /// The width and height the SVG declares on its root element.
    pub fn size(&self) -> Option<(u32, u32)> {
        let root = &self.svg[..self.svg.find('>')?];
        let attribute = |name: &str| -> Option<u32> {
            let start = root.find(&format!(" {name}=\""))? + name.len() + 3;
            root[start..].split('"').next()?.parse().ok()
        };
        Some((attribute("width")?, attribute("height")?))
    }
}

impl ResultSection {
    /// What its verdict is set beside, in the terminal's words: `known to be: biased`,
    /// or `tested against: a fair shuffle`.
    pub(crate) fn benchmark(&self) -> Benchmark {
        match self.tested_against {
            None => Benchmark::Known(self.expected),
            Some(law) => Benchmark::TestedAgainst(law),
        }
    }
}

impl Part {
    /// The part's anchor in the page (`part-3`, counting from 1).
    pub fn anchor(index: usize) -> String {
        format!("part-{}", index + 1)
    }
}

impl Document {
    /// Every result, in order.
    pub fn results(&self) -> impl Iterator<Item = &ResultSection> {
        self.parts.iter().flat_map(|part| &part.results)
    }

    /// Every result's verdict beside the one it should get, in order.
    pub fn graded(&self) -> Vec<crate::catalogue::Graded> {
        self.results()
            .map(|result| crate::catalogue::Graded {
                name: result.name.clone(),
                expected: result.expected,
                verdict: result.verdict,
            })
            .collect()
    }

    /// The summary table's column beside each result's name: what catalogue algorithms
    /// are known to be, what samples from elsewhere were tested against, or both.
    pub fn benchmark_heading(&self) -> &'static str {
        let tested = self
            .results()
            .filter(|result| result.tested_against.is_some())
            .count();
        match tested {
            0 => "known to be",
            all if all == self.results().count() => "tested against",
            _ => "known to be / tested against",
        }
    }

    /// Every result's chart (the summary chart is apart: [`Document::summary_chart`]).
    pub fn charts(&self) -> impl Iterator<Item = &ChartFile> {
        self.results().flat_map(|result| &result.charts)
    }

    /// The summary chart: one bar per result, coloured by verdict.
    pub fn summary_chart(&self) -> ChartFile {
        let several = self.parts.len() > 1;
        let rows = self
            .parts
            .iter()
            .flat_map(|part| part.results.iter().map(move |result| (part, result)))
            .map(|(part, result)| SummaryRow {
                name: if several {
                    format!("{} ({})", result.name, part.label)
                } else {
                    result.name.clone()
                },
                verdict: result.verdict,
                minus_log10_p: result.smallest_p.map(|p| -p.log10()),
            })
            .collect();
        ChartFile {
            file_name: SUMMARY_CHART.to_string(),
            caption: "Every result's smallest adjusted p-value, as -log10 p: the longer the bar, the stronger the evidence of bias".to_string(),
            svg: chart::summary(&Summary {
                titles: Titles {
                    title: self.title.clone(),
                    subtitle: "verdicts: -log10 of each result's smallest adjusted p-value".to_string(),
                },
                rows,
                alpha: self.alpha,
            }),
        }
    }
}

/// The file name of the summary chart.
pub const SUMMARY_CHART: &str = "summary.svg";

/// `text` as a fragment of a file name or an HTML id: lowercase letters, digits and
/// dashes (`naive-repeated:2` → `naive-repeated-2`).
pub fn slug(text: &str) -> String {
    let mut slug = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            slug.push(c.to_ascii_lowercase());
        } else if !slug.ends_with('-') && !slug.is_empty() {
            slug.push('-');
        }
    }
    while slug.ends_with('-') {
        slug.pop();
    }
    if slug.is_empty() {
        "result".to_string()
    } else {
        slug
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chart_knows_its_size_from_its_root_element() {
        let chart = |svg: &str| ChartFile {
            file_name: "x.svg".to_string(),
            caption: String::new(),
            svg: svg.to_string(),
        };
        let sized =
            chart("<svg width=\"849\" height=\"535\" viewBox=\"0 0 849 535\"><rect width=\"3\"/></svg>");
        assert_eq!(sized.size(), Some((849, 535)));
        assert_eq!(
            chart("<svg viewBox=\"0 0 1 1\"><rect width=\"3\"/></svg>").size(),
            None
        );
    }

    #[test]
    fn slugs_are_safe_file_names() {
        assert_eq!(slug("naive-repeated:2"), "naive-repeated-2");
        assert_eq!(slug("Naive swap, 3 cards"), "naive-swap-3-cards");
        assert_eq!(slug("../<script>"), "script");
        assert_eq!(slug("♠♥"), "result");
    }
}
