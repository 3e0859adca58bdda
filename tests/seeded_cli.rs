//! What every runtime started from a small seed shares, as users meet it on the command
//! line: `--window` and its mistakes, a search stopped by Ctrl-C that says which window
//! resumes it, `ingest --seed-search`, and `ingest` pointing repeated decks to
//! `seeds recover`. Each runtime's own recoveries (real PHP, numpy, CPython, glibc, Go
//! and fast-shuffle deals) are tested beside its model, in `src/seeds/recover/`.

mod binary;

use std::path::{Path, PathBuf};

use binary::{shuffle_audit, usage_error_of};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/recover")
        .join(name)
}

/// The committed PHP fixture: `mt_srand(PHP_SEED)` then `shuffle()` three times, dealt by
/// PHP 8.2 (scripts/seeded/php.php).
const PHP_FIXTURE: &str = "php-seed2026-52.txt";
const PHP_SEED: u64 = 2026;

#[test]
fn a_window_is_refused_outside_the_seeds_and_for_runtimes_not_seeded() {
    let deals = fixture(PHP_FIXTURE);
    let deals = deals.to_str().unwrap();
    for (runtime, window, wanted) in [
        (
            "php",
            "0..4294967297",
            "is not a window of php's seeds, which are 0..4294967296",
        ),
        ("php", "7..7", "is not a window of php's seeds"),
        ("php", "9..3", "is not a window of php's seeds"),
        (
            "go",
            "0..2147483648",
            "is not a window of go's seeds, which are 0..2147483647",
        ),
        ("java", "0..10", "is not started from a small seed"),
        ("php", "10..=20", "the end is excluded"),
    ] {
        let mut command = shuffle_audit();
        command.args([
            "seeds",
            "recover",
            "--runtime",
            runtime,
            deals,
            "--window",
            window,
        ]);
        let error = usage_error_of(command);
        assert!(
            error.contains("--window") && error.contains(wanted),
            "{runtime} {window}: {error}"
        );
    }
}

#[test]
fn a_narrow_window_names_the_seed_and_one_without_it_finds_none() {
    let deals = fixture(PHP_FIXTURE);
    let around = format!("{}..{}", PHP_SEED - 1000, PHP_SEED + 1000);
    let output = shuffle_audit()
        .args(["seeds", "recover", "--runtime", "php", "--window", &around])
        .arg(&deals)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{text}");
    assert!(text.contains(&format!("mt_srand({PHP_SEED})")), "{text}");
    assert!(
        text.contains(&format!("searched seeds {around} (2,000 seeds)")),
        "{text}"
    );
    let elsewhere = format!("{}..{}", PHP_SEED + 1, PHP_SEED + 5000);
    let output = shuffle_audit()
        .args(["seeds", "recover", "--runtime", "php", "--window", &elsewhere])
        .arg(&deals)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stdout).contains("no "));
}

/// Ctrl-C in a whole-space search: the search stops at its next block, says which seeds
/// it searched and the window that resumes it, and exits 130. (A search of 2^32 seeds
/// takes a minute or more: it is still running when the signal comes after 1.5 s.)
#[cfg(unix)]
#[test]
fn ctrl_c_says_the_window_that_resumes_the_search() {
    let deals = fixture(PHP_FIXTURE);
    let args = ["seeds", "recover", "--runtime", "php", "-j", "1"].map(std::ffi::OsStr::new);
    let (status, out, err) = binary::interrupted_after(
        &[&args[..], &[deals.as_os_str()]].concat(),
        std::time::Duration::from_millis(1500),
    );
    assert_eq!(status, Some(130), "{out}{err}");
    let resume = err
        .split("resume with --window ")
        .nth(1)
        .unwrap_or_else(|| panic!("no resume window in: {err}"));
    let (start, end) = resume.trim().split_once("..").unwrap();
    let start: u64 = start.parse().unwrap();
    assert!(start > 0 && start < 1 << 32, "{err}");
    assert_eq!(end, "4294967296");
    assert!(
        out.contains("stopped after") && out.contains(&format!("every seed below {start}")),
        "{out}"
    );
}

/// Ctrl-C in `ingest --seed-search`: the seed search stops, the report is still written
/// and lists the search as interrupted, with the `--seed-search NAME:A..B` that resumes
/// it (the smallest of its fresh and carried decks' windows: a window is searched on
/// both), and the exit status is 130. (The 2^32 seeds take a minute or more on one
/// thread: the search is still running, or not yet started, when the signal comes after
/// 3 s; either way the window resumes it.)
#[cfg(unix)]
#[test]
fn ctrl_c_in_ingest_seed_search_writes_the_report_and_the_window_that_resumes_it() {
    // mt_srand(1635753968): far beyond where one thread gets in 3 s.
    let deals = fixture("php-seed1635753968-52.txt");
    let args = ["ingest", "--seed-search", "php", "-j", "1"].map(std::ffi::OsStr::new);
    let (status, out, err) = binary::interrupted_after(
        &[&args[..], &[deals.as_os_str()]].concat(),
        std::time::Duration::from_secs(3),
    );
    assert_eq!(status, Some(130), "{out}{err}");
    let resume = err
        .split("resume it with --seed-search php:")
        .nth(1)
        .unwrap_or_else(|| panic!("no resume window in: {err}"));
    let (start, end) = resume.trim().split_once("..").unwrap();
    assert!(start.parse::<u64>().unwrap() < 1_635_753_968, "{err}");
    assert_eq!(end, "4294967296");
    assert!(
        out.lines().any(
            |line| line.starts_with("  stopped php (PHP's mt_rand (MT19937)), ")
                && line.ends_with(&format!("to search it: --seed-search php:{start}..4294967296"))
        ),
        "{out}"
    );
    assert!(out.contains("predictability: unknown: "), "{out}");
}

#[test]
fn ingest_seed_search_names_the_seed_and_the_next_deal() {
    let deals = fixture(PHP_FIXTURE);
    let window = format!("php:{}..{}", PHP_SEED - 1000, PHP_SEED + 1000);
    let output = shuffle_audit()
        .args(["ingest", "--seed-search", &window, "--unpredictable"])
        .arg(&deals)
        .output()
        .unwrap();
    let (out, err) = (
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
    );
    assert_eq!(output.status.code(), Some(1), "{out}{err}");
    assert!(
        out.contains("predictable: these deals are") && out.contains(&format!("mt_srand({PHP_SEED})")),
        "{out}"
    );
    // The deal PHP 8.2 dealt fourth after `mt_srand(2026)` (the fixture holds three).
    let fourth = "18 1 50 26 23 45 43 15 17 28 46 38 44 4 35 11 39 34 14 10 8 36 3 25 52 48 47 5 32 12 37 24 9 \
                  49 42 16 29 33 20 41 7 27 19 6 22 13 51 21 40 30 2 31";
    assert!(
        err.contains("predictable: these deals are PHP's mt_rand"),
        "{err}"
    );
    assert!(err.contains(&format!("the next deal will be {fourth}")), "{err}");
    // Without the search, PHP's deals pass as unpredictable: the budgeted check tries
    // only java and node.
    let output = shuffle_audit().arg("ingest").arg(&deals).output().unwrap();
    let out = String::from_utf8_lossy(&output.stdout);
    assert!(!out.contains("predictable: these deals are"), "{out}");
}

#[test]
fn ingest_seed_search_mistakes_are_one_line_errors() {
    let deals = fixture(PHP_FIXTURE);
    let deals = deals.to_str().unwrap();
    for (spec, wanted) in [
        ("java", "is not started from a small seed"),
        ("phq", "did you mean 'php'"),
        ("php:9..3", "is not a window of php's seeds"),
        ("php:0..x", "end of the range"),
    ] {
        let mut command = shuffle_audit();
        command.args(["ingest", "--seed-search", spec, deals]);
        let error = usage_error_of(command);
        assert!(
            error.contains("--seed-search") && error.contains(wanted),
            "{spec}: {error}"
        );
    }
    let mut command = shuffle_audit();
    command.args([
        "ingest",
        "--kind",
        "selections",
        "--k",
        "2",
        "--seed-search",
        "php",
        deals,
    ]);
    let error = usage_error_of(command);
    assert!(
        error.contains("--seed-search") && error.contains("permutations"),
        "{error}"
    );
}

#[test]
fn repeated_decks_point_to_seeds_recover() {
    // 400 deals that are 8 decks over and over: a fair 52-card shuffle never repeats.
    let first: Vec<String> = std::fs::read_to_string(fixture(PHP_FIXTURE))
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    let mut decks = Vec::new();
    for rotation in 0..8 {
        for deal in &first {
            let mut cards: Vec<&str> = deal.split(' ').collect();
            cards.rotate_left(rotation);
            decks.push(cards.join(" "));
        }
    }
    let input: String = (0..400)
        .map(|at| format!("{}\n", decks[at % decks.len()]))
        .collect();
    let output = shuffle_audit()
        .args(["ingest", "-", "--deck"])
        .arg(
            (1..=52)
                .map(|card| card.to_string())
                .collect::<Vec<_>>()
                .join(" "),
        )
        .write_stdin(input)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(
        err.contains("shuffle-audit seeds recover --runtime NAME DEALS --predict 1 (NAME: php"),
        "{err}"
    );
}

#[test]
fn a_small_deck_counts_every_seed_that_deals_it_and_lists_the_first() {
    let output = shuffle_audit()
        .args([
            "seeds",
            "recover",
            "--runtime",
            "php",
            "-",
            "--window",
            "0..100000",
        ])
        .args(["--predict", "1", "--json", "-"])
        .write_stdin("2 1\n")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let document: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    // Two cards show one bit: the seeds are deterministic, and about half of 100,000 deal
    // them (the count is exact; the range only says what it should be near).
    let matching = document["candidates"].as_u64().unwrap();
    assert!((40_000..60_000).contains(&matching), "{matching}");
    assert_eq!(document["seeds_searched"]["searched"], 100_000);
    assert_eq!(document["predicted"], serde_json::json!([]));
    let stderr = String::from_utf8_lossy(&output.stderr);
    // Each deal of 2 cards halves them at most: log2(matching) more deals tell them apart.
    let said = format!(
        "{} PHP's mt_rand (MT19937) seeds deal this deal: give about {} more deals to predict the next",
        shuffle_audit::format::group_thousands(matching),
        (matching as f64).log2().ceil()
    );
    assert!(stderr.contains(&said), "{stderr}");
}
