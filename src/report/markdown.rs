//! The report in Markdown, for a repository page: the same content as the HTML page, the
//! charts as relative image links (GitHub and GitLab show SVG images inline).
//!
//! Text is escaped for Markdown and for the HTML that Markdown lets through; commands and
//! findings go into code spans and fences longer than any run of backticks inside them,
//! so that no label can end them early.

use std::fmt::Write;

use super::document::{ChartFile, Document, Part, ResultSection};

/// The page; `summary` is the document's [`Document::summary_chart`].
pub fn render(document: &Document, summary: &ChartFile) -> String {
    let mut out = String::new();
    writeln!(out, "# {}\n", text(&document.title)).unwrap();
    for paragraph in &document.introduction {
        writeln!(out, "{}\n", prose(paragraph)).unwrap();
    }
    writeln!(
        out,
        "## Summary\n\n| result | {} | verdict | smallest adjusted p | total variation |\n|---|---|---|--:|--:|",
        document.benchmark_heading()
    )
    .unwrap();
    let several = document.parts.len() > 1;
    for part in &document.parts {
        if several && !part.heading.is_empty() {
            writeln!(out, "| **{}** | | | | |", text(&part.heading)).unwrap();
        }
        for result in &part.results {
            writeln!(
                out,
                "| [{}](#{}) | {} | **{}** | {} | {} |",
                text(&result.name),
                result.id,
                text(&result.benchmark().value()),
                result.verdict.headline(),
                result
                    .smallest_p
                    .map_or_else(|| "-".to_string(), |p| text(&p.to_string())),
                result
                    .total_variation
                    .map_or_else(|| "-".to_string(), |tv| format!("{tv:.4}")),
            )
            .unwrap();
        }
    }
    out.push('\n');
    render_chart(&mut out, summary);
    for part in &document.parts {
        render_part(&mut out, part);
    }
    writeln!(out, "---\n\nMade by {}.", super::html::GENERATOR).unwrap();
    out
}

fn render_part(out: &mut String, part: &Part) {
    if !part.heading.is_empty() {
        writeln!(out, "## {}\n", text(&part.heading)).unwrap();
    }
    for paragraph in &part.prose {
        writeln!(out, "{}\n", prose(paragraph)).unwrap();
    }
    writeln!(
        out,
        "{}. Reproduce: {}\n",
        text(&part.settings),
        code_span(&part.command)
    )
    .unwrap();
    for result in &part.results {
        render_result(out, result, &part.command);
    }
}

fn render_result(out: &mut String, result: &ResultSection, command: &str) {
    // The anchor is the section's id, which is made of [a-z0-9-] only.
    writeln!(
        out,
        "### <a id=\"{}\"></a>{}: {} ({})\n\n{}; from {}\n",
        result.id,
        text(&result.name),
        result.verdict.headline(),
        text(&result.benchmark().to_string()),
        text(&result.summary),
        text(&result.origin),
    )
    .unwrap();
    for note in &result.notes {
        writeln!(out, "{}\n", prose(note)).unwrap();
    }
    // Exact laws have no tests: their numbers are not estimates.
    if !result.tests.is_empty() {
        writeln!(
            out,
            "| test | what it checks | statistic | df | p-value | adjusted |\n|---|---|--:|--:|--:|--:|"
        )
        .unwrap();
        for test in &result.tests {
            let name = if test.rejects {
                format!("**{}**", text(&test.name))
            } else {
                text(&test.name)
            };
            if test.p.is_empty() {
                // A test that did not run says why in the wide column, as the page does.
                writeln!(
                    out,
                    "| {name} | {}: {} | | | | |",
                    text(&test.description),
                    text(&test.statistic)
                )
            } else {
                let too_even = if test.too_even { " *too even*" } else { "" };
                let method = test.method.map_or(String::new(), |method| format!(" *{method}*"));
                writeln!(
                    out,
                    "| {name} | {} | {} | {} | {}{method} | {}{too_even} |",
                    text(&test.description),
                    number(&test.statistic),
                    number(&test.df),
                    number(&test.p),
                    number(&test.adjusted)
                )
            }
            .unwrap();
        }
        out.push('\n');
    }
    if !result.findings.trim().is_empty() {
        let fence = fence_for(&result.findings);
        writeln!(out, "{fence}text\n{}\n{fence}\n", result.findings).unwrap();
    }
    for chart in &result.charts {
        render_chart(out, chart);
    }
    writeln!(out, "Reproduce: {}\n", code_span(command)).unwrap();
}

fn render_chart(out: &mut String, chart: &ChartFile) {
    // File names are made of [a-z0-9-.] only: no escaping needed in the link.
    writeln!(
        out,
        "![{}]({})\n\n*{}*\n",
        text(&chart.caption),
        chart.file_name,
        text(&chart.caption)
    )
    .unwrap();
}

/// Plain text with Markdown's and HTML's special characters escaped.
pub fn text(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '\\' | '`' | '*' | '_' | '[' | ']' | '|' | '~' | '#' => {
                escaped.push('\\');
                escaped.push(c);
            }
            '\n' => escaped.push(' '),
            c => escaped.push(c),
        }
    }
    escaped
}

/// A number for a table cell, kept on one line: `< 1e-300` must not break after `1e-`.
fn number(value: &str) -> String {
    text(value).replace(' ', "&nbsp;").replace('-', "&#8209;")
}

/// Prose: escaped, with its `` `code` `` spans kept.
fn prose(paragraph: &str) -> String {
    paragraph
        .split('`')
        .enumerate()
        .map(|(i, piece)| if i % 2 == 1 { code_span(piece) } else { text(piece) })
        .collect()
}

/// `code` as an inline code span that nothing inside it can close.
fn code_span(code: &str) -> String {
    let ticks = "`".repeat(longest_backtick_run(code) + 1);
    let code = code.replace('\n', " ");
    if code.starts_with('`') || code.ends_with('`') {
        format!("{ticks} {code} {ticks}")
    } else {
        format!("{ticks}{code}{ticks}")
    }
}

/// A code fence longer than any run of backticks in `block` (at least three).
fn fence_for(block: &str) -> String {
    "`".repeat((longest_backtick_run(block) + 1).max(3))
}

fn longest_backtick_run(text: &str) -> usize {
    text.split(|c| c != '`').map(str::len).max().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_cannot_break_out_of_text_code_or_tables() {
        assert_eq!(text("<script>&|*"), "&lt;script&gt;&amp;\\|\\*");
        assert_eq!(code_span("a ``b`` c"), "```a ``b`` c```");
        assert_eq!(code_span("`x"), "`` `x ``");
        assert_eq!(fence_for("````"), "`````");
        assert_eq!(fence_for("plain"), "```");
        assert_eq!(prose("run `x|y` now"), "run `x|y` now");
        assert_eq!(number("< 1e-300"), "&lt;&nbsp;1e&#8209;300");
    }
}
