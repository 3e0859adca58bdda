//! The committed teaching report in a real browser: `scripts/browser/check_report.mjs`
//! opens `reports/index.html` in headless Chromium (Debian's, driven by npm's
//! playwright-core) and checks that every chart loads, every link into the page lands on
//! an element, every linked file exists and the console logs no error.
//!
//! A byte-for-byte comparison (`tests/report_cli.rs`) proves the report is what the code
//! writes; only a browser proves a reader can read it. Where Chromium, Node or the
//! script's `node_modules` are missing the test says it was skipped and passes, unless
//! `SHUFFLE_AUDIT_REQUIRE_BROWSER` is set (`.ci/run` installs all three and sets it, so CI
//! never skips it silently).

use std::path::Path;
use std::process::Command;

/// Why the browser check cannot run here, if it cannot.
fn missing(root: &Path) -> Option<String> {
    let found = |program: &str| {
        Command::new("which")
            .arg(program)
            .output()
            .is_ok_and(|output| output.status.success())
    };
    if !found("node") {
        return Some("node is not installed".to_string());
    }
    let chromium = std::env::var_os("CHROMIUM").is_some()
        || ["chromium", "chromium-browser", "google-chrome"]
            .iter()
            .any(|name| found(name));
    if !chromium {
        return Some("Chromium is not installed (apt-get install chromium)".to_string());
    }
    if !root.join("scripts/browser/node_modules/playwright-core").is_dir() {
        return Some("playwright-core is not installed (cd scripts/browser && npm ci)".to_string());
    }
    None
}

#[test]
fn the_teaching_report_reads_in_a_real_browser() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    if let Some(why) = missing(root) {
        assert!(
            std::env::var_os("SHUFFLE_AUDIT_REQUIRE_BROWSER").is_none(),
            "the browser check is required here, but {why}"
        );
        eprintln!("skipped: the report in a real browser: {why}");
        return;
    }
    let output = Command::new("node")
        .arg(root.join("scripts/browser/check_report.mjs"))
        .arg("reports/index.html")
        .current_dir(root)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "the report does not read in Chromium:\n{stdout}{stderr}"
    );
    // Every chart of the teaching report was looked at: 171 today, and never none.
    assert!(stdout.contains(" 0 problems"), "{stdout}");
    let charts: usize = stdout
        .split(": ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|count| count.parse().ok())
        .unwrap_or(0);
    assert!(charts > 100, "{stdout}");
}
