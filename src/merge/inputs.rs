//! What `merge` reads: files named one by one, or a directory standing for every shard
//! file in it, so that the merge step of a job array (`merge shards/`) does not have to
//! know how many tasks there were or list their files.
//!
//! A directory gives each of its `*.json` files (not those in folders below it, nor
//! hidden ones such as an atomic writer's temporaries), sorted by name so that messages
//! come out the same on every machine. A directory without one is an error, not an
//! empty merge: a job array whose tasks all failed must not look like a run of nothing.

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// The shard files `inputs` name: each file as it is, each directory as its `*.json`
/// files in name order.
pub fn shard_paths(inputs: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut paths = Vec::new();
    for input in inputs {
        if input.is_dir() {
            paths.extend(json_files_in(input)?);
        } else {
            paths.push(input.clone());
        }
    }
    Ok(paths)
}

/// The `*.json` files directly in `directory`, sorted by name.
fn json_files_in(directory: &Path) -> Result<Vec<PathBuf>> {
    let shown = directory.display();
    let unreadable =
        |error: std::io::Error| Error::Merge(format!("cannot read the directory {shown}: {error}"));
    let mut files = Vec::new();
    for entry in std::fs::read_dir(directory).map_err(unreadable)? {
        let path = entry.map_err(unreadable)?.path();
        let visible_json = path
            .file_name()
            .and_then(|name| name.to_str())
            .is_some_and(|name| name.ends_with(".json") && !name.starts_with('.'));
        if visible_json && !path.is_dir() {
            files.push(path);
        }
    }
    if files.is_empty() {
        return Err(Error::Merge(format!(
            "{shown} holds no *.json file: merge of a directory reads the shards' JSON in it \
             (written by `run ... --shard I/K --json {shown}/shard-I.json`)"
        )));
    }
    files.sort();
    Ok(files)
}
