//! The real binary on a few cases of the grid, end to end: the report directory written
//! and well formed, the exit status the verdict's, nothing panicking; and the
//! combinations that mean nothing refused in one line with status 2.

use std::path::Path;

use assert_cmd::Command;

use super::binary::{command, usage_error_of, write_file};
use super::grid::deal_lines;
use super::well_formed::check_report;

/// Runs `line` with `--report DIR` (in `dir`) and checks it exits with `status`, says
/// nothing of a panic, and writes a well-formed report; returns its page.
fn report_of(dir: &Path, line: &str, status: i32) -> String {
    report_of_command(dir, line, command(line), status)
}

/// [`report_of`] for a command built by the caller (`line` names it).
fn report_of_command(dir: &Path, line: &str, mut run: Command, status: i32) -> String {
    let report = dir.join("report");
    let output = run.arg("--report").arg(&report).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "{line}: {stderr}");
    assert_eq!(output.status.code(), Some(status), "{line}: {stderr}");
    let files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&report)
        .unwrap()
        .map(|entry| {
            let entry = entry.unwrap();
            (
                entry.file_name().to_string_lossy().into_owned(),
                std::fs::read(entry.path()).unwrap(),
            )
        })
        .filter(|(name, _)| !name.starts_with('.'))
        .collect();
    check_report(line, &files);
    std::fs::read_to_string(report.join("index.html")).unwrap()
}

#[test]
fn three_deals_of_twelve_cards_give_a_report_not_a_panic() {
    // The case of issue 30: 3 deals of 12 cards panicked in the heat map (exit 101).
    let dir = tempfile::tempdir().unwrap();
    let file = write_file(dir.path(), "three12.txt", deal_lines(12, 3, false));
    let page = report_of(dir.path(), &format!("ingest {file}"), 1);
    assert!(
        page.contains("too few trials"),
        "the page says why nothing was tested"
    );
    let markdown = std::fs::read_to_string(dir.path().join("report/README.md")).unwrap();
    assert!(markdown.contains("too few trials"));
}

#[test]
fn few_trials_still_give_a_report_of_every_kind() {
    let dir = tempfile::tempdir().unwrap();
    for line in [
        "run fisher-yates sattolo --n 13 --trials 1 --seed 1",
        "run fisher-yates --n 2000 --trials 2 --seed 1",
        "run bag-pick partial-fisher-yates --n 12 --k 6 --trials 3 --seed 1",
    ] {
        let page = report_of(dir.path(), line, 1);
        assert!(page.contains("too few trials"), "{line}");
    }
    let identical = write_file(dir.path(), "identical.txt", deal_lines(52, 10, true));
    report_of(dir.path(), &format!("ingest {identical}"), 1);
    let picks: String = deal_lines(64, 2, false)
        .lines()
        .map(|line| line.split(' ').take(32).collect::<Vec<_>>().join(" ") + "\n")
        .collect();
    let picks = write_file(dir.path(), "picks.txt", picks);
    let line = format!("ingest {picks} --kind selections --ordered");
    let mut ingest = command(&line);
    ingest.arg("--deck").arg(deck(64));
    report_of_command(dir.path(), &line, ingest, 1);
    report_of(
        dir.path(),
        "stream iid shuffle-bag-csharp --items 200 --length 2 --streams 1 --seed 1",
        1,
    );
    let shard = dir.path().join("whole.json");
    command("run sattolo --n 65 --trials 1 --seed 1 --json")
        .arg(&shard)
        .assert()
        .code(1);
    report_of(dir.path(), &format!("merge {}", shard.display()), 1);
    report_of(dir.path(), "exact naive-swap --n 3", 0);
    report_of(dir.path(), "exact fisher-yates riffles:3 --n 200 --positions", 1);
}

#[test]
fn what_cannot_be_tested_is_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let one = write_file(dir.path(), "one.txt", "7\n");
    for (line, says) in [
        (
            "exact fisher-yates --n 2000",
            "must be at most 10 to enumerate every order",
        ),
        ("stream iid --items 3 --length 1", "--length must be at least 2"),
        (
            "stream iid --items 2000",
            "--items needs between 2 and 1000 items",
        ),
        (
            &format!("ingest {one} --kind stream") as &str,
            "holds only one distinct item",
        ),
    ] {
        let mut refused = command(line);
        refused.arg("--report").arg(dir.path().join("refused"));
        let error = usage_error_of(refused);
        assert!(error.contains(says), "{line}: {error}");
        assert!(!dir.path().join("refused").exists(), "{line} wrote a report");
    }
    let mut one_item = command(&format!("ingest {one} --kind stream"));
    one_item.arg("--deck").arg(deck(10));
    let error = usage_error_of(one_item);
    assert!(error.contains("a stream needs at least 2"), "{error}");
}

/// The deck `1 2 … n`, as `--deck` takes it.
fn deck(n: usize) -> String {
    (1..=n).map(|card| card.to_string()).collect::<Vec<_>>().join(" ")
}
