//! Every example in README.md and the guide (`docs/src/*.md`) is run, and what it prints
//! is compared with what the page shows, so that a page which no longer says what the tool
//! does fails `cargo test`.
//!
//! The pages are read by [trycmd](https://docs.rs/trycmd): in each ```` ```console ````
//! block, a line `$ COMMAND` is run and the lines after it must be what it prints (standard
//! output and standard error together), `? STATUS` gives an exit status other than 0, `[..]`
//! matches the rest of a line and a line `...` any number of lines. Blocks of any other
//! language (`sh`, `text`, `toml`, `rust`, …) are not run; a block without a language would
//! be, so every block names one.
//!
//! The commands of a page that writes files run in a temporary copy of the folder
//! `docs/src/PAGE.in/` beside it (the suites and programs the page shows, included into the
//! page by mdbook from the same files), or in an empty temporary folder: such a page has a
//! folder `PAGE.out/` (trycmd's sign for "sandbox"; it holds only `.keep`, so no file is
//! compared). Other pages run in `PAGE.in/` or the repository's root, and write nothing.
//! A pipeline is written `sh -c "…"`, with this build's `shuffle-audit` first on the `PATH`
//! (so this test runs where there is a `/bin/sh`).
#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::time::Duration;

/// Whether `program` can be started from the `PATH` (`program --version` succeeds).
fn found(program: &str) -> bool {
    std::process::Command::new(program)
        .arg("--version")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|status| status.success())
}

#[test]
fn every_example_in_the_readme_and_the_guide_prints_what_it_shows() {
    let binary: PathBuf = trycmd::cargo::cargo_bin!("shuffle-audit").to_path_buf();
    let folder = binary.parent().expect("the binary lies in a folder");
    let path = std::env::var_os("PATH").unwrap_or_default();
    let path =
        std::env::join_paths(std::iter::once(folder.to_path_buf()).chain(std::env::split_paths(&path)))
            .expect("the PATH joins");

    let cases = trycmd::TestCases::new();
    cases
        .register_bin("shuffle-audit", binary.clone())
        .register_bin("sh", Path::new("/bin/sh"))
        .env("PATH", path.to_string_lossy())
        // Each example takes well under a few seconds; one that hangs fails, not CI.
        .timeout(Duration::from_secs(60))
        .case("README.md")
        .case("docs/src/*.md");
    // The pages that audit Python programs need Python; without it they are skipped
    // (and say so) rather than failed: `cargo test` needs only the Rust toolchain.
    if !found("python3") {
        for page in PAGES_WITH_PYTHON {
            eprintln!("docs: {page} skipped: python3 is not installed");
            cases.skip(page);
        }
    }
    cases.run();
}

/// The pages whose examples run `python3`.
const PAGES_WITH_PYTHON: [&str; 2] = ["docs/src/ingest.md", "docs/src/gate.md"];
