//! Reports as users get them: `--report DIR` on `run` and `stream`, and the committed
//! teaching report that `shuffle-audit report` regenerates byte for byte.

mod binary;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use binary::{command, shuffle_audit};
use predicates::prelude::*;
use shuffle_audit::report::chart::count_bars;

/// Every file of a directory, by name.
fn files_of(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| {
            let entry = entry.unwrap();
            (
                entry.file_name().to_string_lossy().into_owned(),
                std::fs::read(entry.path()).unwrap(),
            )
        })
        .collect()
}

fn text(files: &BTreeMap<String, Vec<u8>>, name: &str) -> String {
    String::from_utf8(files[name].clone()).unwrap_or_else(|_| panic!("{name} is not UTF-8"))
}

/// The values of `attribute="..."` in `page`.
fn attribute_values(page: &str, attribute: &str) -> Vec<String> {
    let marker = format!("{attribute}=\"");
    page.match_indices(&marker)
        .map(|(at, _)| {
            let rest = &page[at + marker.len()..];
            rest[..rest.find('"').unwrap()].to_string()
        })
        .collect()
}

/// The checks every report must pass: the page and its twin exist, every SVG is
/// well-formed XML with an `svg` root, the page's links all resolve to files of the
/// report or to anchors on the page, the Markdown's images all resolve, and nothing
/// reaches outside the directory.
fn check_report(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let files = files_of(dir);
    assert!(
        files.contains_key("index.html") && files.contains_key("README.md"),
        "{:?}",
        files.keys()
    );
    for (name, bytes) in &files {
        if name.ends_with(".svg") {
            let svg = std::str::from_utf8(bytes).unwrap();
            let document =
                roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("{name} is not XML: {e}"));
            assert_eq!(document.root_element().tag_name().name(), "svg", "{name}");
        }
    }
    let page = text(&files, "index.html");
    assert!(!page.contains("<script"), "the page has no scripts");
    let ids = attribute_values(&page, "id");
    for link in attribute_values(&page, "href")
        .into_iter()
        .chain(attribute_values(&page, "src"))
    {
        assert!(
            !link.contains("//") && !link.starts_with('/'),
            "link {link} leaves the report"
        );
        match link.strip_prefix('#') {
            Some(anchor) => assert!(ids.contains(&anchor.to_string()), "no element with id {anchor}"),
            None => assert!(files.contains_key(&link), "{link} is not in the report"),
        }
    }
    let markdown = text(&files, "README.md");
    for (at, _) in markdown.match_indices("](") {
        let rest = &markdown[at + 2..];
        let target = &rest[..rest.find(')').unwrap()];
        if !target.starts_with('#') {
            assert!(
                files.contains_key(target),
                "README.md links {target}, which is not in the report"
            );
        }
    }
    // Every chart the page shows is one of the report's files, and every SVG is shown.
    for name in files.keys().filter(|name| name.ends_with(".svg")) {
        assert!(
            page.contains(&format!("src=\"{name}\"")),
            "{name} is not on the page"
        );
        assert!(
            markdown.contains(&format!("]({name})")),
            "{name} is not in README.md"
        );
    }
    files
}

#[test]
fn run_writes_a_self_contained_report_whose_charts_match_the_tallies() {
    let parent = tempfile::tempdir().unwrap();
    let dir = parent.path().join("naive");
    command("run naive-swap fisher-yates --n 3 --trials 60000 --seed 5 --report")
        .arg(&dir)
        .assert()
        .success()
        .stdout(predicate::str::contains("naive-swap: FAIL"))
        .stderr(predicate::str::contains("report written to"));
    let files = check_report(&dir);
    let page = text(&files, "index.html");
    assert!(page.contains("shuffle-audit run naive-swap fisher-yates --n 3 --trials 60000 --seed 5"));
    assert!(page.contains("<span class=\"verdict fail\">fail</span>"));
    // One bar per order of 3 cards, and the tests table with its p-values.
    assert_eq!(count_bars(&text(&files, "01-naive-swap-orders.svg")), 6);
    assert_eq!(count_bars(&text(&files, "02-fisher-yates-orders.svg")), 6);
    assert!(page.contains("<td>permutations</td>"));
    let markdown = text(&files, "README.md");
    assert!(markdown.contains("### <a id=\"01-naive-swap\"></a>naive-swap: FAIL (known to be: biased)"));
    // Nothing of the run depends on timing: the report holds no elapsed time.
    assert!(!page.contains(" s ("), "no timings in a report");

    // A re-run replaces the report as a whole: the charts of naive-swap are gone.
    command("run sattolo --n 4 --trials 20000 --seed 5 --report")
        .arg(&dir)
        .assert()
        .success();
    let files = check_report(&dir);
    assert!(
        files.keys().all(|name| !name.contains("naive-swap")),
        "{:?}",
        files.keys()
    );
    assert!(files.contains_key("01-sattolo-cycles.svg"));
    let leftovers: Vec<PathBuf> = std::fs::read_dir(parent.path())
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    assert_eq!(
        leftovers,
        std::slice::from_ref(&dir),
        "nothing is left beside the report"
    );
}

#[test]
fn a_directory_that_is_not_a_report_is_refused_before_the_run() {
    let parent = tempfile::tempdir().unwrap();
    std::fs::write(parent.path().join("notes.txt"), "mine").unwrap();
    command("run naive-swap --n 3 --trials 1e9 --seed 1 --report")
        .arg(parent.path())
        .timeout(std::time::Duration::from_secs(20))
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains(
            "holds something other than a shuffle-audit report",
        ));
    assert_eq!(files_of(parent.path()).len(), 1);
    let file = parent.path().join("notes.txt");
    command("stream iid --items 3 --report")
        .arg(&file)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not a directory"));
}

#[test]
fn hostile_item_names_are_escaped_in_the_page_the_markdown_and_the_charts() {
    let parent = tempfile::tempdir().unwrap();
    let dir = parent.path().join("hostile");
    shuffle_audit()
        .args([
            "stream",
            "iid",
            "shuffle-bag",
            "--items",
            "<script>alert(1)</script>:1,\"&'<b>:2",
            "--length",
            "300",
            "--streams",
            "50",
            "--seed",
            "3",
            "--report",
        ])
        .arg(&dir)
        .assert()
        .success();
    let files = check_report(&dir);
    for (name, bytes) in &files {
        let content = String::from_utf8_lossy(bytes);
        // Markdown shows code spans and fences literally: only the rest is markup.
        let content = if name == "README.md" {
            outside_code(&content)
        } else {
            content.into_owned()
        };
        assert!(!content.contains("<script>"), "{name} holds a raw <script>");
        assert!(!content.contains("<b>"), "{name} holds a raw <b>");
    }
    let page = text(&files, "index.html");
    assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(page.contains("&quot;&amp;&#39;&lt;b&gt;"));
    let markdown = text(&files, "README.md");
    assert!(
        markdown.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
        "{markdown}"
    );
    let frequencies = text(&files, "01-iid-frequencies.svg");
    // Long labels are shortened with an ellipsis; what is left is escaped.
    assert!(frequencies.contains("&lt;script&gt;alert(1)"), "{frequencies}");
    assert_eq!(count_bars(&frequencies), 2, "one bar per item");
}

#[test]
fn ingest_reports_say_what_the_samples_were_tested_against() {
    // Nothing is known of a user's own samples: every output says what they were tested
    // against (the terminal did; the page and its twin said "known to be: fair").
    let dir = tempfile::tempdir().unwrap();
    let deals = binary::shuffled_lines("fisher-yates", &["A", "B", "C"], 300, 3);
    let deals = binary::write_file(dir.path(), "deals.txt", &deals);
    let picks = binary::write_file(dir.path(), "picks.txt", "A B\nB C\nA C\n".repeat(50));
    let draws = binary::write_file(dir.path(), "draws.txt", "A\nB\nC\nB\n".repeat(50));
    for (line, law) in [
        (format!("ingest {deals}"), "a fair shuffle"),
        (format!("ingest {picks} --kind selections"), "a fair sampler"),
        (format!("ingest {draws} --kind stream"), "independent draws"),
    ] {
        let report = dir.path().join("report");
        let output = command(&line)
            .arg("--report")
            .arg(&report)
            .arg("--force")
            .output()
            .unwrap();
        let stdout = String::from_utf8(output.stdout).unwrap();
        let files = check_report(&report);
        let (page, markdown) = (text(&files, "index.html"), text(&files, "README.md"));
        for (what, shown) in [("terminal", &stdout), ("page", &page), ("Markdown", &markdown)] {
            assert!(
                shown.contains(&format!("tested against: {law}")),
                "{line}: the {what} says {shown}"
            );
            assert!(!shown.contains("known to be"), "{line}: the {what} says {shown}");
        }
        assert!(
            page.contains("<th>tested against</th>"),
            "{line}: the summary's column"
        );
        assert!(
            markdown.contains("| result | tested against |"),
            "{line}: the summary's column"
        );
    }
}

/// Markdown without its fenced blocks and code spans (single backtick runs suffice here:
/// the hostile names hold no backticks).
fn outside_code(markdown: &str) -> String {
    let mut in_fence = false;
    let mut prose = String::new();
    for line in markdown.lines() {
        if line.starts_with("```") {
            in_fence = !in_fence;
        } else if !in_fence {
            prose.extend(line.split('`').step_by(2));
            prose.push('\n');
        }
    }
    prose
}

#[test]
fn the_committed_teaching_report_is_exactly_what_report_writes() {
    let parent = tempfile::tempdir().unwrap();
    let dir = parent.path().join("reports");
    command("report --threads 2 --out")
        .arg(&dir)
        .assert()
        .success()
        .stdout(predicate::str::contains("bag-pick-c"));
    let fresh = check_report(&dir);
    let committed = files_of(&Path::new(env!("CARGO_MANIFEST_DIR")).join("reports"));
    let names = |files: &BTreeMap<String, Vec<u8>>| files.keys().cloned().collect::<Vec<_>>();
    assert_eq!(
        names(&fresh),
        names(&committed),
        "reports/ is out of date: regenerate it with `cargo run --release -- report`"
    );
    for (name, bytes) in &fresh {
        assert!(
            *bytes == committed[name],
            "reports/{name} differs from what `shuffle-audit report` writes now: regenerate it with \
             `cargo run --release -- report`"
        );
    }
}

#[test]
fn the_chart_in_the_readme_is_what_its_command_draws() {
    // README.md shows reports/01-naive-swap-orders.svg as made by this command.
    let parent = tempfile::tempdir().unwrap();
    let dir = parent.path().join("naive3");
    command("run naive-swap fisher-yates --n 3 --trials 600000 --seed 2026 --report")
        .arg(&dir)
        .assert()
        .success();
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports/01-naive-swap-orders.svg");
    assert!(
        std::fs::read(dir.join("01-naive-swap-orders.svg")).unwrap() == std::fs::read(committed).unwrap(),
        "the README's chart is not what its command draws"
    );
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    assert!(readme.contains(
        "shuffle-audit run naive-swap fisher-yates --n 3 --trials 600000 --seed 2026 --report naive3"
    ));
    assert!(readme.contains("](reports/01-naive-swap-orders.svg)"));
}

#[test]
fn places_a_report_cannot_go_are_refused_before_the_run() {
    let parent = tempfile::tempdir().unwrap();
    let dir = parent.path().join("rep");
    command("run naive-swap --n 3 --trials 6000 --seed 1 --report")
        .arg(&dir)
        .assert()
        .success();
    let before = files_of(&dir);
    // An export inside the report would be thrown away with the old report.
    command("run naive-swap --n 3 --trials 1e9 --seed 1 --report")
        .arg(&dir)
        .arg("--json")
        .arg(dir.join("x.json"))
        .timeout(std::time::Duration::from_secs(20))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("is inside the report directory"));
    // The current directory (or one holding it) would leave the shell in a deleted one.
    command("run naive-swap --n 3 --trials 1e9 --seed 1 --report .")
        .current_dir(&dir)
        .timeout(std::time::Duration::from_secs(20))
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "it is the current directory or holds it",
        ));
    assert!(files_of(&dir) == before, "the report is untouched");
    #[cfg(unix)]
    {
        let link = parent.path().join("dangling");
        std::os::unix::fs::symlink(parent.path().join("missing"), &link).unwrap();
        command("run naive-swap --n 3 --trials 1e9 --seed 1 --report")
            .arg(&link)
            .timeout(std::time::Duration::from_secs(20))
            .assert()
            .code(2)
            .stderr(predicate::str::contains("which does not exist"));
    }
}
