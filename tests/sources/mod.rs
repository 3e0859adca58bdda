//! Reading the crate's own sources, for the tests that check their shape
//! (`tests/layers.rs`, `tests/circles.rs`): where they are, every file, and a line
//! without its comment.

use std::path::{Path, PathBuf};

/// `src/` of this crate.
pub fn source_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `dir`, sorted.
pub fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|extension| extension == "rs") {
            files.push(path);
        }
    }
    files.sort();
    files
}

/// A line without its `//` comment (a `//` inside a string literal ends the line early:
/// at worst a path in a string is not read).
pub fn without_comment(line: &str) -> &str {
    line.find("//").map_or(line, |at| &line[..at])
}
