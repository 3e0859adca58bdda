//! What every rendered output must be, whatever went in: SVG that parses as XML with only
//! finite numbers in its attributes, an HTML page whose structure parses (its void
//! elements closed for the XML parser) and links only files of the report, a Markdown
//! twin that names only those files too, and no `NaN` or `inf` printed for people.

use std::collections::BTreeMap;

/// Checks every file of a report directory (`files` as [`shuffle_audit::report::files`]
/// gives them); `case` names the input in failure messages.
pub fn check_report(case: &str, files: &[(String, Vec<u8>)]) {
    let files: BTreeMap<&str, &str> = files
        .iter()
        .map(|(name, bytes)| {
            let text =
                std::str::from_utf8(bytes).unwrap_or_else(|e| panic!("{case}: {name} is not UTF-8: {e}"));
            (name.as_str(), text)
        })
        .collect();
    for (name, text) in &files {
        if name.ends_with(".svg") {
            check_svg(&format!("{case}: {name}"), text);
        }
    }
    let page = files
        .get("index.html")
        .unwrap_or_else(|| panic!("{case}: no index.html"));
    check_html(case, page, &files);
    let markdown = files
        .get("README.md")
        .unwrap_or_else(|| panic!("{case}: no README.md"));
    check_markdown(case, markdown, &files);
}

/// An SVG document: XML with an `<svg>` root of a positive size, every number in its
/// attributes finite, no `NaN` or infinity among its texts.
pub fn check_svg(case: &str, svg: &str) {
    let document = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("{case} is not XML: {e}"));
    let root = document.root_element();
    assert_eq!(root.tag_name().name(), "svg", "{case}");
    for dimension in ["width", "height"] {
        let value: f64 = root
            .attribute(dimension)
            .and_then(|value| value.parse().ok())
            .unwrap_or_else(|| panic!("{case}: the root has no numeric {dimension}"));
        assert!(value > 0.0 && value.is_finite(), "{case}: {dimension} {value}");
    }
    for node in document.descendants() {
        if node.is_element() {
            for attribute in node.attributes() {
                check_numbers(case, attribute.name(), attribute.value());
            }
        } else if let Some(text) = node.text() {
            check_prose(case, text);
            check_rounding(case, text);
        }
    }
}

/// Every number in an attribute's value parses and is finite (`points="1,2 3,NaN"`,
/// `x="inf"` and `d="M NaN 0"` all fail).
fn check_numbers(case: &str, name: &str, value: &str) {
    // Colours, fonts, ids and the like hold no geometry.
    const GEOMETRY: [&str; 17] = [
        "x",
        "y",
        "x1",
        "y1",
        "x2",
        "y2",
        "cx",
        "cy",
        "r",
        "rx",
        "ry",
        "width",
        "height",
        "points",
        "d",
        "transform",
        "viewBox",
    ];
    if !GEOMETRY.contains(&name)
        && !name.ends_with("opacity")
        && name != "stroke-width"
        && name != "font-size"
    {
        return;
    }
    for token in value
        .split(|c: char| c.is_whitespace() || ",()".contains(c))
        .filter(|token| !token.is_empty())
    {
        // Path commands and transform names are letters; what follows them is a number.
        let number = token.trim_start_matches(|c: char| c.is_ascii_alphabetic());
        let number = number.trim_end_matches("px");
        if number.is_empty() {
            assert!(
                !token.eq_ignore_ascii_case("nan") && !token.eq_ignore_ascii_case("inf"),
                "{case}: {name}=\"{value}\""
            );
            continue;
        }
        let parsed: f64 = number
            .parse()
            .unwrap_or_else(|_| panic!("{case}: {name}=\"{value}\" holds {token:?}, not a number"));
        assert!(parsed.is_finite(), "{case}: {name}=\"{value}\"");
    }
}

/// A JSON document that parses and validates against its committed schema (serde_json
/// writes a non-finite number as `null`, which the schemas refuse where a number
/// belongs); one cut at [`super::grid::HEAD`] bytes is only checked to be JSON up to the
/// cut.
pub fn check_json(case: &str, json: &[u8]) {
    if json.len() < super::grid::HEAD {
        let document: serde_json::Value =
            serde_json::from_slice(json).unwrap_or_else(|e| panic!("{case}: JSON: {e}"));
        super::binary::assert_valid(&document);
    } else if let Err(error) = serde_json::from_slice::<serde::de::IgnoredAny>(json)
        && !error.is_eof()
    {
        panic!("{case}: JSON: {error}");
    }
}

/// Text for people: no `NaN`, no `inf` (a number that went wrong), no `{` left of an
/// unfilled format string.
pub fn check_prose(case: &str, text: &str) {
    for word in text.split(|c: char| !c.is_ascii_alphanumeric() && c != '.') {
        let word = word.trim_matches('.');
        assert!(
            !word.eq_ignore_ascii_case("nan") && word != "inf" && word != "infinity",
            "{case}: {word:?} in {text:?}"
        );
    }
}

/// No number in a chart's text shows floating-point noise (`0.6000000000000001`,
/// `1.2999999999999998`: a double's shortest form, 13 decimals and more with a run of
/// zeros or nines): labels are written to the digits they mean. A ratio written to its
/// meaningful digits (`×1.00000000047`, 11 decimals) is not noise.
fn check_rounding(case: &str, text: &str) {
    for word in text.split(|c: char| !c.is_ascii_digit() && c != '.') {
        if let Some((_, fraction)) = word.split_once('.') {
            let noisy = fraction.len() >= 13 && (fraction.contains("00000") || fraction.contains("99999"));
            assert!(!noisy, "{case}: {word:?} in {text:?}");
        }
    }
}

/// The page: an HTML document whose elements nest (checked by parsing it as XML once
/// its void elements are closed), with a title and a main part, whose images and links
/// are files of the report or anchors on the page, and whose image sizes are positive
/// whole numbers.
fn check_html(case: &str, page: &str, files: &BTreeMap<&str, &str>) {
    let body = page
        .strip_prefix("<!DOCTYPE html>\n")
        .unwrap_or_else(|| panic!("{case}: the page does not start with its doctype"));
    let closed = close_void_elements(body);
    let document =
        roxmltree::Document::parse(&closed).unwrap_or_else(|e| panic!("{case}: the page does not nest: {e}"));
    let root = document.root_element();
    assert_eq!(root.tag_name().name(), "html", "{case}");
    let named = |tag: &'static str| document.descendants().filter(move |node| node.has_tag_name(tag));
    assert_eq!(named("title").count(), 1, "{case}");
    assert_eq!(named("main").count(), 1, "{case}");
    assert_eq!(named("h1").count(), 1, "{case}");
    let ids: Vec<&str> = document
        .descendants()
        .filter_map(|node| node.attribute("id"))
        .collect();
    for image in named("img") {
        let source = image
            .attribute("src")
            .unwrap_or_else(|| panic!("{case}: an image without src"));
        assert!(
            files.contains_key(source),
            "{case}: the page shows {source}, not in the report"
        );
        for dimension in ["width", "height"] {
            if let Some(value) = image.attribute(dimension) {
                let size: u32 = value
                    .parse()
                    .unwrap_or_else(|_| panic!("{case}: {source} has {dimension}=\"{value}\""));
                assert!(size > 0, "{case}: {source} has {dimension} 0");
            }
        }
    }
    for link in named("a").filter_map(|node| node.attribute("href")) {
        match link.strip_prefix('#') {
            Some(anchor) => assert!(ids.contains(&anchor), "{case}: no element with id {anchor}"),
            None => assert!(
                files.contains_key(link),
                "{case}: the page links {link}, not in the report"
            ),
        }
    }
    for node in document.descendants().filter(|node| node.is_text()) {
        check_prose(case, node.text().unwrap_or_default());
    }
}

/// The page with `<meta …>` and `<img …>` written `<meta …/>`, `<img …/>`, as XML has them.
fn close_void_elements(page: &str) -> String {
    let mut out = String::with_capacity(page.len() + 256);
    let mut rest = page;
    while let Some(start) = ["<meta ", "<img "].iter().filter_map(|tag| rest.find(tag)).min() {
        let end = start + rest[start..].find('>').expect("a tag ends");
        out.push_str(&rest[..end]);
        out.push_str("/>");
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    out
}

/// The Markdown twin: every image it shows is a file of the report, and it prints no
/// `NaN` or infinity.
fn check_markdown(case: &str, markdown: &str, files: &BTreeMap<&str, &str>) {
    for piece in markdown.split("](").skip(1) {
        let target = piece.split(')').next().unwrap_or_default();
        if !target.starts_with('#') && !target.contains("://") {
            assert!(
                files.contains_key(target),
                "{case}: README.md links {target}, not in the report"
            );
        }
    }
    check_prose(&format!("{case}: README.md"), markdown);
}
