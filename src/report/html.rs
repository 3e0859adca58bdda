//! The report as one HTML page: summary table and chart first, then a section per part
//! and per result with its verdict, tests, findings, charts and the command that
//! reproduces it.
//!
//! The page is self-contained: its style sheet is inline, it has no scripts, and its
//! only links are relative ones to the charts beside it. Charts are `<img>` elements, so
//! even a label that got past escaping could not run as script inside the page. Every
//! string that reaches the page is escaped here ([`escape`]).

use std::fmt::Write;

use crate::stats::Verdict;

use super::document::{ChartFile, Document, Part, ResultSection, TestRow};

/// The style sheet: readable on a laptop and on a projector, printable.
const STYLE: &str = "\
body{margin:0;background:#f6f7f9;color:#1d2329;font:16px/1.5 -apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif}
main{max-width:1080px;margin:0 auto;padding:24px 32px 64px;background:#fff}
h1{font-size:1.9em;margin:.4em 0 .2em}
h2{margin-top:2.2em;padding-bottom:.2em;border-bottom:2px solid #e3e6ea}
h3{margin-top:1.8em;display:flex;flex-wrap:wrap;gap:.5em;align-items:baseline}
section.result{border-top:1px solid #e3e6ea;margin-top:1.5em}
code,pre{font-family:'SFMono-Regular',Menlo,Consolas,'DejaVu Sans Mono',monospace;font-size:.86em}
code{background:#f0f2f4;padding:.1em .3em;border-radius:3px;overflow-wrap:anywhere}
pre{background:#f6f8fa;border:1px solid #e3e6ea;border-radius:4px;padding:10px 12px;overflow-x:auto;line-height:1.35}
pre.findings{white-space:pre-wrap;overflow-wrap:anywhere}
pre.findings span{display:block;padding-left:2ch;text-indent:-2ch}
table{border-collapse:collapse;margin:.8em 0;font-size:.92em}
th,td{border-bottom:1px solid #e3e6ea;padding:4px 10px;text-align:left;vertical-align:top}
th{background:#f6f8fa}
tr.part th{background:#eef1f4;font-weight:600;padding-top:8px}
td.number{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
tr.rejects td{background:#fdecea}
.tail{font-style:italic;color:#8a4b00;white-space:nowrap}
.verdict{display:inline-block;padding:.05em .55em;border-radius:3px;color:#fff;font-weight:600;font-size:.8em;letter-spacing:.04em;text-transform:uppercase}
.verdict.pass{background:#1b7e62}.verdict.suspicious{background:#b8860b}.verdict.fail{background:#c0392b}.verdict.inconclusive{background:#6b7280}
.known{color:#5b6570;font-size:.8em;font-weight:normal}
.settings,.what,.command{color:#3c4650}
figure{margin:1.2em 0}
figure img{max-width:100%;height:auto;border:1px solid #e3e6ea;border-radius:4px}
figcaption{color:#5b6570;font-size:.9em}
";

/// The page; `summary` is the document's [`Document::summary_chart`], drawn once by the
/// caller for both pages and the file.
pub fn render(document: &Document, summary: &ChartFile) -> String {
    let mut out = String::new();
    let title = escape(&document.title);
    write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"generator\" content=\"{GENERATOR}\">\n<title>{title}</title>\n\
         <style>\n{STYLE}</style>\n</head>\n<body>\n<main>\n<h1>{title}</h1>\n"
    )
    .unwrap();
    for paragraph in &document.introduction {
        writeln!(out, "<p>{}</p>", prose(paragraph)).unwrap();
    }
    render_summary(&mut out, document, summary);
    for (index, part) in document.parts.iter().enumerate() {
        render_part(&mut out, part, index);
    }
    writeln!(
        out,
        "<p class=\"settings\">Made by {GENERATOR}.</p>\n</main>\n</body>\n</html>"
    )
    .unwrap();
    out
}

/// What the page says made it; a report directory is recognised (and may be replaced)
/// by this mark in its `index.html`.
pub const GENERATOR: &str = concat!("shuffle-audit ", env!("CARGO_PKG_VERSION"));

fn render_summary(out: &mut String, document: &Document, summary: &ChartFile) {
    writeln!(
        out,
        "<h2 id=\"summary\">Summary</h2>\n<table class=\"summary\">\n<thead><tr><th>result</th>\
         <th>{}</th><th>verdict</th><th>smallest adjusted p</th><th>total variation</th></tr></thead>\n<tbody>",
        document.benchmark_heading()
    )
    .unwrap();
    let several = document.parts.len() > 1;
    for (index, part) in document.parts.iter().enumerate() {
        if several && !part.heading.is_empty() {
            writeln!(
                out,
                "<tr class=\"part\"><th colspan=\"5\"><a href=\"#{}\">{}</a></th></tr>",
                Part::anchor(index),
                escape(&part.heading)
            )
            .unwrap();
        }
        for result in &part.results {
            writeln!(
                out,
                "<tr><td><a href=\"#{}\">{}</a></td><td>{}</td><td>{}</td><td class=\"number\">{}</td><td class=\"number\">{}</td></tr>",
                escape(&result.id),
                escape(&result.name),
                escape(&result.benchmark().value()),
                verdict_badge(result.verdict),
                result.smallest_p.map_or_else(|| "-".to_string(), |p| escape(&p.to_string())),
                result
                    .total_variation
                    .map_or_else(|| "-".to_string(), |tv| format!("{tv:.4}")),
            )
            .unwrap();
        }
    }
    writeln!(out, "</tbody>\n</table>").unwrap();
    render_chart(out, summary);
}

fn render_part(out: &mut String, part: &Part, index: usize) {
    if !part.heading.is_empty() {
        writeln!(
            out,
            "<h2 id=\"{}\">{}</h2>",
            Part::anchor(index),
            escape(&part.heading)
        )
        .unwrap();
    }
    for paragraph in &part.prose {
        writeln!(out, "<p>{}</p>", prose(paragraph)).unwrap();
    }
    writeln!(
        out,
        "<p class=\"settings\">{}</p>\n<p class=\"command\">Reproduce: <code>{}</code></p>",
        escape(&part.settings),
        escape(&part.command)
    )
    .unwrap();
    for result in &part.results {
        render_result(out, result, &part.command);
    }
}

fn render_result(out: &mut String, result: &ResultSection, command: &str) {
    writeln!(
        out,
        "<section class=\"result\" id=\"{}\">\n<h3>{} {} <span class=\"known\">{}</span></h3>\n\
         <p class=\"what\">{}; from {}</p>",
        escape(&result.id),
        escape(&result.name),
        verdict_badge(result.verdict),
        escape(&result.benchmark().to_string()),
        escape(&result.summary),
        escape(&result.origin),
    )
    .unwrap();
    for note in &result.notes {
        writeln!(out, "<p class=\"note\">{}</p>", prose(note)).unwrap();
    }
    render_tests(out, &result.tests);
    if !result.findings.trim().is_empty() {
        writeln!(
            out,
            "<pre class=\"findings\">{}</pre>",
            findings_lines(&result.findings)
        )
        .unwrap();
    }
    for chart in &result.charts {
        render_chart(out, chart);
    }
    writeln!(
        out,
        "<p class=\"command\">Reproduce: <code>{}</code></p>\n</section>",
        escape(command)
    )
    .unwrap();
}

/// The style of a fragment: the page's look for its badge, tables and figures, scoped to
/// the fragment's own `div` so that it cannot restyle the page it is shown in.
const FRAGMENT_STYLE: &str = "\
.shuffle-audit{font:14px/1.45 -apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif;color:#1d2329}
.shuffle-audit h3{margin:.4em 0;display:flex;flex-wrap:wrap;gap:.5em;align-items:baseline}
.shuffle-audit table{border-collapse:collapse;margin:.6em 0;font-size:.92em}
.shuffle-audit th,.shuffle-audit td{border-bottom:1px solid #e3e6ea;padding:3px 9px;text-align:left;vertical-align:top}
.shuffle-audit th{background:#f6f8fa}
.shuffle-audit td.number{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.shuffle-audit tr.rejects td{background:#fdecea}
.shuffle-audit .tail{font-style:italic;color:#8a4b00;white-space:nowrap}
.shuffle-audit .verdict{display:inline-block;padding:.05em .55em;border-radius:3px;color:#fff;font-weight:600;font-size:.8em;letter-spacing:.04em;text-transform:uppercase}
.shuffle-audit .verdict.pass{background:#1b7e62}.shuffle-audit .verdict.suspicious{background:#b8860b}.shuffle-audit .verdict.fail{background:#c0392b}.shuffle-audit .verdict.inconclusive{background:#6b7280}
.shuffle-audit .known,.shuffle-audit .what,.shuffle-audit figcaption,.shuffle-audit .command{color:#5b6570}
.shuffle-audit figure{margin:.8em 0}
.shuffle-audit figure img{max-width:100%;height:auto}
";

/// The document as a fragment of someone else's page (a Jupyter cell's output, through the
/// Python module's `_repr_html_`): per result, its name and verdict badge, its tests, the
/// card × position heat map, and its other charts folded away. Charts are `<img>`
/// elements holding the SVG as a `data:` address, as safe as the page's own images and
/// with nothing to fetch.
pub fn render_fragment(document: &Document) -> String {
    let mut out = format!("<div class=\"shuffle-audit\">\n<style>\n{FRAGMENT_STYLE}</style>\n");
    for part in &document.parts {
        for result in &part.results {
            writeln!(
                out,
                "<h3>{} {} <span class=\"known\">{}</span></h3>\n<p class=\"what\">{}; {}</p>",
                escape(&result.name),
                verdict_badge(result.verdict),
                escape(&result.benchmark().to_string()),
                escape(&result.summary),
                escape(&part.settings),
            )
            .unwrap();
            for note in &result.notes {
                writeln!(out, "<p class=\"note\">{}</p>", prose(note)).unwrap();
            }
            render_tests(&mut out, &result.tests);
            let is_heat_map = |chart: &&ChartFile| {
                chart.file_name.ends_with("-positions.svg") && !chart.file_name.contains("serial-")
            };
            let heat_map = result.charts.iter().find(is_heat_map);
            if let Some(chart) = heat_map {
                render_inline_chart(&mut out, chart);
            }
            let others: Vec<&ChartFile> = result.charts.iter().filter(|chart| !is_heat_map(chart)).collect();
            if !others.is_empty() {
                writeln!(out, "<details><summary>{} more charts</summary>", others.len()).unwrap();
                for chart in others {
                    render_inline_chart(&mut out, chart);
                }
                writeln!(out, "</details>").unwrap();
            }
        }
        writeln!(
            out,
            "<p class=\"command\">Reproduce: <code>{}</code></p>",
            escape(&part.command)
        )
        .unwrap();
    }
    out.push_str("</div>\n");
    out
}

fn render_inline_chart(out: &mut String, chart: &ChartFile) {
    let caption = escape(&chart.caption);
    let size = chart.size().map_or_else(String::new, |(width, height)| {
        format!(" width=\"{width}\" height=\"{height}\"")
    });
    writeln!(
        out,
        "<figure><img src=\"data:image/svg+xml;base64,{}\"{size} alt=\"{caption}\"><figcaption>{caption}</figcaption></figure>",
        base64(chart.svg.as_bytes())
    )
    .unwrap();
}

/// Standard base64 with padding (RFC 4648), for `data:` addresses.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for group in bytes.chunks(3) {
        let word = group
            .iter()
            .enumerate()
            .fold(0u32, |word, (i, &byte)| word | u32::from(byte) << (16 - 8 * i));
        for i in 0..4 {
            out.push(if i <= group.len() {
                ALPHABET[(word >> (18 - 6 * i) & 63) as usize] as char
            } else {
                '='
            });
        }
    }
    out
}

fn render_tests(out: &mut String, tests: &[TestRow]) {
    // Exact laws have no tests: their numbers are not estimates.
    if tests.is_empty() {
        return;
    }
    writeln!(
        out,
        "<table class=\"tests\">\n<thead><tr><th>test</th><th>what it checks</th><th>statistic</th>\
         <th>df</th><th>p-value</th><th>adjusted</th></tr></thead>\n<tbody>"
    )
    .unwrap();
    for test in tests {
        let class = if test.rejects { " class=\"rejects\"" } else { "" };
        if test.p.is_empty() {
            writeln!(
                out,
                "<tr{class}><td>{}</td><td>{}</td><td colspan=\"4\">{}</td></tr>",
                escape(&test.name),
                escape(&test.description),
                escape(&test.statistic)
            )
        } else {
            let too_even = if test.too_even {
                " <span class=\"tail\">too even</span>"
            } else {
                ""
            };
            // A p-value not read from the χ² law says how it was computed.
            let method = test.method.map_or(String::new(), |method| {
                format!(" <span class=\"tail\" title=\"how this p-value was computed\">{method}</span>")
            });
            writeln!(
                out,
                "<tr{class}><td>{}</td><td>{}</td><td class=\"number\">{}</td><td class=\"number\">{}</td>\
                 <td class=\"number\">{}{method}</td><td class=\"number\">{}{too_even}</td></tr>",
                escape(&test.name),
                escape(&test.description),
                escape(&test.statistic),
                escape(&test.df),
                escape(&test.p),
                escape(&test.adjusted)
            )
        }
        .unwrap();
    }
    writeln!(out, "</tbody>\n</table>").unwrap();
}

fn render_chart(out: &mut String, chart: &ChartFile) {
    let file = escape(&chart.file_name);
    let caption = escape(&chart.caption);
    // The chart's own size, so that the page keeps its layout while images load.
    let size = chart.size().map_or_else(String::new, |(width, height)| {
        format!(" width=\"{width}\" height=\"{height}\"")
    });
    writeln!(
        out,
        "<figure><a href=\"{file}\"><img src=\"{file}\"{size} alt=\"{caption}\"></a><figcaption>{caption}</figcaption></figure>"
    )
    .unwrap();
}

/// The terminal's findings, a line per block: a line longer than the box (the guessing
/// player's, a list of the most frequent orders) wraps inside it, its continuation
/// indented under its first words, while the tables' short lines keep their columns.
/// Each line keeps its line break (which ends its block without adding a line), so that
/// the page's source and copied text read as the terminal's.
fn findings_lines(findings: &str) -> String {
    findings
        .trim_end_matches('\n')
        .lines()
        .map(|line| format!("<span>{}\n</span>", escape(line)))
        .collect()
}

fn verdict_badge(verdict: Verdict) -> String {
    format!("<span class=\"verdict {verdict}\">{verdict}</span>")
}

/// A paragraph of prose: escaped, with `` `code` `` spans as `<code>`.
fn prose(text: &str) -> String {
    text.split('`')
        .enumerate()
        .map(|(i, piece)| {
            if i % 2 == 1 {
                format!("<code>{}</code>", escape(piece))
            } else {
                escape(piece)
            }
        })
        .collect()
}

/// `text` safe inside HTML text and double- or single-quoted attributes.
pub fn escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&#39;"),
            c => escaped.push(c),
        }
    }
    escaped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn findings_are_one_wrapping_block_per_line() {
        let lines = findings_lines("a player who studied <8> deals\n\norder  count\n1 2 3     14\n");
        assert_eq!(
            lines,
            "<span>a player who studied &lt;8&gt; deals\n</span><span>\n</span>\
             <span>order  count\n</span><span>1 2 3     14\n</span>"
        );
        // Long lines wrap inside the box, each under its own first words.
        assert!(STYLE.contains("pre.findings{white-space:pre-wrap;overflow-wrap:anywhere}"));
        assert!(STYLE.contains("pre.findings span{display:block;padding-left:2ch;text-indent:-2ch}"));
    }

    #[test]
    fn markup_in_text_is_escaped() {
        assert_eq!(
            escape("<script>alert('x' & \"y\")</script>"),
            "&lt;script&gt;alert(&#39;x&#39; &amp; &quot;y&quot;)&lt;/script&gt;"
        );
        assert_eq!(
            prose("run `a <b>` & see"),
            "run <code>a &lt;b&gt;</code> &amp; see"
        );
    }

    #[test]
    fn base64_is_rfc_4648s() {
        for (bytes, encoded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(bytes.as_bytes()), encoded);
        }
        assert_eq!(base64(&[0xff, 0xfe, 0x00]), "//4A");
    }

    #[test]
    fn a_fragment_shows_the_badge_the_tests_and_the_heat_map_first() {
        use crate::catalogue::AlgorithmSpec;
        use crate::run::{RunSettings, run};
        let settings = RunSettings {
            source: Default::default(),
            n: 3,
            k: None,
            trials: 60_000,
            seed: Some(1),
            threads: 1,
            alpha: 1e-6,
            shard: None,
        };
        let report = run(
            &[AlgorithmSpec::parse("naive-swap").unwrap()],
            &settings,
            &crate::simulate::NoProgress,
        )
        .unwrap();
        let fragment = render_fragment(&crate::report::run_document(&report));
        assert!(fragment.starts_with("<div class=\"shuffle-audit\">"));
        assert!(
            fragment.contains("<span class=\"verdict fail\">fail</span>"),
            "{fragment}"
        );
        assert!(fragment.contains("<table class=\"tests\">"));
        // The first chart is the card × position heat map, its SVG inline as base64.
        let first_image = fragment
            .split("<img src=\"data:image/svg+xml;base64,")
            .nth(1)
            .unwrap();
        let document = crate::report::run_document(&report);
        let chart = document.parts[0].results[0]
            .charts
            .iter()
            .find(|chart| chart.file_name.ends_with("-positions.svg"))
            .unwrap();
        assert!(first_image.starts_with(&base64(chart.svg.as_bytes())));
        // Every rule of its style sheet is scoped to the fragment.
        for rule in FRAGMENT_STYLE.lines() {
            assert!(rule.starts_with(".shuffle-audit"), "{rule}");
        }
        assert!(fragment.contains("<details><summary>"));
    }
}
