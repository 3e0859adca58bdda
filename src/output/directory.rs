//! A directory of files written as one: a report's page, its Markdown twin and its charts
//! appear together or not at all.
//!
//! The files are written into a temporary directory beside the target and the whole
//! directory is renamed into place, so an interrupted run never leaves a page whose
//! charts are missing, or new charts beside an old page. A directory already there is
//! moved aside first and removed after the rename, so a re-run replaces the old report
//! cleanly (no chart of an algorithm that is no longer in the run stays behind). Only a
//! directory that is empty or that the caller recognises as its own is ever replaced:
//! `--report .` must not delete someone's working directory.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::destination::{Cleanup, Pending, directory_of, probe_directory, temporary_builder, write_error};
use crate::error::Result;

/// Checks, before any work starts, that `path` can take a new directory: it is new,
/// empty, or a directory `is_ours` recognises. Returns the path to write, with a
/// symbolic link resolved to the directory it names.
pub fn check_directory(path: &Path, is_ours: impl Fn(&Path) -> bool) -> Result<PathBuf> {
    let refuse = |reason: String| Err(write_error(path, std::io::Error::other(reason)));
    if path.as_os_str().is_empty() {
        return refuse("the directory name is empty".to_string());
    }
    let target = match std::fs::metadata(path) {
        Ok(metadata) if !metadata.is_dir() => return refuse("it exists and is not a directory".to_string()),
        Ok(_) => {
            let target = std::fs::canonicalize(path).map_err(|source| write_error(path, source))?;
            let empty = std::fs::read_dir(&target)
                .map_err(|source| write_error(path, source))?
                .next()
                .is_none();
            if !empty && !is_ours(&target) {
                return refuse(
                    "it is a directory that holds something other than a shuffle-audit report; \
                     give a new or empty directory (a report directory is replaced as a whole)"
                        .to_string(),
                );
            }
            if target.parent().is_none() {
                return refuse("the root directory cannot be replaced".to_string());
            }
            target
        }
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => path.to_path_buf(),
        Err(error) => return Err(write_error(path, error)),
    };
    probe_directory(path, directory_of(&target))?;
    Ok(target)
}

/// Writes `files` (name, contents) as the only files of the directory `path`, replacing
/// whatever directory `check_directory` allowed there.
pub fn write_directory(
    path: &Path,
    files: &[(String, Vec<u8>)],
    is_ours: impl Fn(&Path) -> bool,
) -> Result<()> {
    let target = check_directory(path, is_ours)?;
    let error = |source| write_error(path, source);
    let parent = directory_of(&target);
    let mut builder = temporary_builder();
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o777));
    let staging = builder.tempdir_in(parent).map_err(error)?;
    let _staging_pending = Pending::register(Cleanup::Directory(staging.path().to_path_buf()));
    for (name, contents) in files {
        let mut file = std::fs::File::create(staging.path().join(name)).map_err(error)?;
        file.write_all(contents)
            .and_then(|()| file.sync_all())
            .map_err(error)?;
    }
    if target.exists() {
        // An empty directory to rename the old report onto: renaming a directory over an
        // empty one is allowed, and this way the name is ours alone.
        let aside_path = builder.tempdir_in(parent).map_err(error)?.keep();
        let _restore = Pending::register(Cleanup::Restore {
            moved: aside_path.clone(),
            to: target.clone(),
        });
        if let Err(source) = std::fs::rename(&target, &aside_path) {
            let _ = std::fs::remove_dir(&aside_path);
            return Err(error(source));
        }
        if let Err(source) = std::fs::rename(staging.path(), &target) {
            let _ = std::fs::rename(&aside_path, &target);
            return Err(error(source));
        }
        let _ = std::fs::remove_dir_all(&aside_path);
    } else {
        std::fs::rename(staging.path(), &target).map_err(error)?;
    }
    // The staging directory now lives at `target`: nothing left for its guard to remove.
    let _ = staging.keep();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::destination::tests::take_turn;

    fn files(names: &[&str]) -> Vec<(String, Vec<u8>)> {
        names
            .iter()
            .map(|name| (name.to_string(), name.as_bytes().to_vec()))
            .collect()
    }

    fn listing(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_rewrite_replaces_the_whole_directory_and_leaves_nothing_beside_it() {
        let _turn = take_turn();
        let parent = tempfile::tempdir().unwrap();
        let report = parent.path().join("report");
        let ours = |dir: &Path| dir.join("index.html").exists();
        write_directory(&report, &files(&["index.html", "a.svg", "b.svg"]), ours).unwrap();
        assert_eq!(listing(&report), ["a.svg", "b.svg", "index.html"]);
        write_directory(&report, &files(&["index.html", "c.svg"]), ours).unwrap();
        assert_eq!(listing(&report), ["c.svg", "index.html"]);
        assert_eq!(std::fs::read(report.join("c.svg")).unwrap(), b"c.svg");
        assert_eq!(
            listing(parent.path()),
            ["report"],
            "no staging directory left behind"
        );
    }

    #[test]
    fn a_directory_that_is_not_ours_is_never_replaced() {
        let _turn = take_turn();
        let parent = tempfile::tempdir().unwrap();
        let precious = parent.path().join("work");
        std::fs::create_dir(&precious).unwrap();
        std::fs::write(precious.join("thesis.tex"), "years of work").unwrap();
        let message = write_directory(&precious, &files(&["index.html"]), |_| false)
            .unwrap_err()
            .to_string();
        assert!(
            message.contains("holds something other than a shuffle-audit report"),
            "{message}"
        );
        assert_eq!(listing(&precious), ["thesis.tex"]);
        // An empty directory is fine, and so is a file's name only if it is not a file.
        let empty = parent.path().join("empty");
        std::fs::create_dir(&empty).unwrap();
        write_directory(&empty, &files(&["index.html"]), |_| false).unwrap();
        assert_eq!(listing(&empty), ["index.html"]);
        let message = check_directory(&precious.join("thesis.tex"), |_| true)
            .unwrap_err()
            .to_string();
        assert!(message.contains("not a directory"), "{message}");
    }

    #[test]
    fn an_interrupt_between_the_renames_puts_the_old_report_back() {
        let _turn = take_turn();
        let parent = tempfile::tempdir().unwrap();
        let target = parent.path().join("report");
        let aside = parent.path().join(".aside");
        std::fs::create_dir(&aside).unwrap();
        std::fs::write(aside.join("index.html"), "old").unwrap();
        let staging = parent.path().join(".staging");
        std::fs::create_dir(&staging).unwrap();
        // The old report is aside and the new one not yet in place: Ctrl-C now.
        let _staging = Pending::register(Cleanup::Directory(staging.clone()));
        let _restore = Pending::register(Cleanup::Restore {
            moved: aside.clone(),
            to: target.clone(),
        });
        crate::output::remove_pending_temporaries();
        assert_eq!(listing(parent.path()), ["report"]);
        assert_eq!(std::fs::read_to_string(target.join("index.html")).unwrap(), "old");
        // Once the new report is in place, the old one is only removed.
        std::fs::create_dir(&aside).unwrap();
        let _restore = Pending::register(Cleanup::Restore {
            moved: aside,
            to: target,
        });
        crate::output::remove_pending_temporaries();
        assert_eq!(listing(parent.path()), ["report"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_link_to_a_report_is_kept_and_its_target_replaced() {
        let _turn = take_turn();
        let parent = tempfile::tempdir().unwrap();
        let real = parent.path().join("real");
        let link = parent.path().join("link");
        let ours = |dir: &Path| dir.join("index.html").exists();
        write_directory(&real, &files(&["index.html", "old.svg"]), ours).unwrap();
        std::os::unix::fs::symlink(&real, &link).unwrap();
        write_directory(&link, &files(&["index.html", "new.svg"]), ours).unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        assert_eq!(listing(&real), ["index.html", "new.svg"]);
    }
}
