//! A directory of files written as one: a report's page, its Markdown twin and its charts
//! appear together or not at all.
//!
//! The files are written into a temporary directory beside the target, and that
//! directory is then swapped with the target in one atomic step (`renameat2` with
//! `RENAME_EXCHANGE` on Linux; two renames elsewhere) and the old report, now under the
//! temporary name, removed. So a reader (or a second run) always finds either the old
//! report or the new one at the target, never a page whose charts are missing, and a
//! re-run leaves no chart of an algorithm that is no longer in the run. The write and
//! the interrupt handler exclude each other ([`critical_section`]): Ctrl-C during the
//! write waits the fraction of a second until the new report is in place.
//!
//! Replacing a directory deletes what is in it, so only what the tool wrote may be
//! replaced. Every directory it writes carries a manifest ([`MANIFEST`]: each file's
//! name, size and FNV-1a hash); a directory is replaced only when it is new or empty, or
//! when everything in it is in its manifest, unchanged. A file added since (the shards of
//! a run saved into its report folder, someone's notes) or changed since is named in the
//! refusal, and `--force` replaces the directory anyway. A directory that is not the
//! tool's at all is never replaced, forced or not, and neither is the current directory
//! or one that holds it: `--report .` must not delete someone's work, nor leave their
//! shell in a deleted directory. (Inputs inside the directory are refused earlier, by
//! [`super::plan`], whatever `--force` says.)

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::cleanup::{create_temporary_directory, critical_section, sweep_stale};
use super::destination::{directory_of, probe_directory, write_error};
use super::fnv::fnv1a;
use crate::error::Result;

/// The manifest a written directory carries: what the tool wrote there.
pub const MANIFEST: &str = ".shuffle-audit-manifest.json";

/// The manifest's contents.
#[derive(Debug, Serialize, Deserialize)]
struct Manifest {
    /// `shuffle-audit VERSION`.
    generator: String,
    /// Every file written, in the order written.
    files: Vec<ManifestEntry>,
}

#[derive(Debug, Serialize, Deserialize)]
struct ManifestEntry {
    name: String,
    bytes: u64,
    /// FNV-1a (64 bits) of the contents, in hexadecimal.
    fnv1a64: String,
}

impl ManifestEntry {
    fn of(name: &str, contents: &[u8]) -> Self {
        Self {
            name: name.to_string(),
            bytes: contents.len() as u64,
            fnv1a64: format!("{:016x}", fnv1a(contents)),
        }
    }
}

/// What a directory at the target is, as far as replacing it goes.
#[derive(Debug, PartialEq, Eq)]
enum Ownership {
    /// Not a directory the tool wrote.
    NotOurs,
    /// Written by the tool; `others` names what it holds that the tool did not write.
    Ours { others: Vec<String> },
}

/// Reads what `dir` holds against its manifest. Without a manifest, `legacy` may still
/// recognise a directory an earlier version wrote (returning the names in it that such a
/// version never writes).
fn ownership(dir: &Path, legacy: &dyn Fn(&Path) -> Option<Vec<String>>) -> Ownership {
    let manifest_path = dir.join(MANIFEST);
    let manifest = match std::fs::read(&manifest_path) {
        Ok(bytes) => match serde_json::from_slice::<Manifest>(&bytes) {
            Ok(manifest) => manifest,
            Err(_) => return Ownership::NotOurs,
        },
        Err(_) => {
            return legacy(dir).map_or(Ownership::NotOurs, |others| Ownership::Ours { others });
        }
    };
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ownership::NotOurs;
    };
    let mut others = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name == MANIFEST {
            continue;
        }
        let listed = manifest.files.iter().find(|listed| listed.name == name);
        let is_file = entry.file_type().is_ok_and(|kind| kind.is_file());
        match listed {
            Some(listed) if is_file => {
                let unchanged = std::fs::read(entry.path()).is_ok_and(|contents| {
                    ManifestEntry::of(&name, &contents).fnv1a64 == listed.fnv1a64
                        && contents.len() as u64 == listed.bytes
                });
                if !unchanged {
                    others.push(format!("{name} (changed since)"));
                }
            }
            _ => others.push(name),
        }
    }
    others.sort();
    Ownership::Ours { others }
}

/// Checks, before any work starts, that `path` can take a new directory: it is new,
/// empty, or a directory the tool wrote that holds nothing else (or anything, with
/// `force`), and not the current directory or one that holds it. Returns the absolute
/// path to write, with symbolic links resolved. `legacy` recognises directories written
/// before manifests existed ([`ownership`]).
pub fn check_directory(
    path: &Path,
    legacy: impl Fn(&Path) -> Option<Vec<String>>,
    force: bool,
) -> Result<PathBuf> {
    let refuse = |reason: String| Err(write_error(path, std::io::Error::other(reason)));
    if path.as_os_str().is_empty() {
        return refuse("the directory name is empty".to_string());
    }
    let target = match std::fs::metadata(path) {
        Ok(metadata) if !metadata.is_dir() => return refuse("it exists and is not a directory".to_string()),
        Ok(metadata) => {
            let target = std::fs::canonicalize(path).map_err(|source| write_error(path, source))?;
            let Some(parent) = target.parent() else {
                return refuse("the root directory cannot be replaced".to_string());
            };
            if is_mount_point(&metadata, parent) {
                return refuse(
                    "it is a mount point, which cannot be replaced; give a directory inside it".to_string(),
                );
            }
            let empty = std::fs::read_dir(&target)
                .map_err(|source| write_error(path, source))?
                .next()
                .is_none();
            if !empty {
                match ownership(&target, &legacy) {
                    Ownership::NotOurs => {
                        return refuse(
                            "it is a directory that holds something other than a shuffle-audit report; \
                             give a new or empty directory (a report directory is replaced as a whole)"
                                .to_string(),
                        );
                    }
                    Ownership::Ours { others } if !others.is_empty() && !force => {
                        return refuse(format!(
                            "it holds {} the report did not write: {}; move {} out, or give --force to \
                             replace the directory anyway",
                            if others.len() == 1 { "a file" } else { "files" },
                            list_some(&others),
                            if others.len() == 1 { "it" } else { "them" },
                        ));
                    }
                    Ownership::Ours { .. } => {}
                }
            }
            if let Ok(current) = std::env::current_dir().and_then(std::fs::canonicalize)
                && current.starts_with(&target)
            {
                return refuse(
                    "it is the current directory or holds it; replacing it would leave this shell \
                     in a deleted directory: give a directory below it"
                        .to_string(),
                );
            }
            target
        }
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            if let Ok(link) = std::fs::read_link(path) {
                return refuse(format!(
                    "it is a symbolic link to {}, which does not exist",
                    link.display()
                ));
            }
            let Some(name) = path.file_name() else {
                return refuse("the name does not end in a directory name".to_string());
            };
            let parent = directory_of(path);
            let parent = std::fs::canonicalize(parent).map_err(|source| {
                let reason = format!("the directory {} does not exist ({source})", parent.display());
                write_error(path, std::io::Error::new(source.kind(), reason))
            })?;
            parent.join(name)
        }
        Err(error) => return Err(write_error(path, error)),
    };
    probe_directory(path, directory_of(&target))?;
    Ok(target)
}

/// The first few names of a list, and how many more there are.
fn list_some(names: &[String]) -> String {
    const SHOWN: usize = 5;
    let shown = names[..names.len().min(SHOWN)].join(", ");
    match names.len().saturating_sub(SHOWN) {
        0 => shown,
        more => format!("{shown} and {more} more"),
    }
}

/// Whether the directory with `metadata` is a mount point (on another device than its
/// parent): it cannot be renamed.
fn is_mount_point(metadata: &std::fs::Metadata, parent: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata(parent).is_ok_and(|parent| parent.dev() != metadata.dev())
    }
    #[cfg(not(unix))]
    {
        let _ = (metadata, parent);
        false
    }
}

/// Writes `files` (name, contents), and their manifest, as the only files of the
/// directory `path`, replacing whatever directory [`check_directory`] allows there.
/// Temporaries that killed runs left beside it are removed first.
pub fn write_directory(
    path: &Path,
    files: &[(String, Vec<u8>)],
    legacy: impl Fn(&Path) -> Option<Vec<String>>,
    force: bool,
) -> Result<()> {
    let target = check_directory(path, legacy, force)?;
    let error = |source| write_error(path, source);
    let parent = directory_of(&target);
    sweep_stale(parent);
    let manifest = Manifest {
        generator: concat!("shuffle-audit ", env!("CARGO_PKG_VERSION")).to_string(),
        files: files
            .iter()
            .map(|(name, contents)| ManifestEntry::of(name, contents))
            .collect(),
    };
    let mut manifest_bytes = serde_json::to_vec_pretty(&manifest).expect("a manifest serialises");
    manifest_bytes.push(b'\n');
    // The whole write holds off the interrupt handler: removing the staging directory
    // while files are still being created in it could leave some behind, and a report
    // is written in a fraction of a second, so Ctrl-C waits for it and then finds
    // nothing to clean up.
    let _critical = critical_section();
    let (staging, pending) = create_temporary_directory(parent).map_err(error)?;
    let written = files
        .iter()
        .map(|(name, contents)| (name.as_str(), contents.as_slice()))
        .chain([(MANIFEST, manifest_bytes.as_slice())])
        .try_for_each(|(name, contents)| {
            let mut file = std::fs::File::create(staging.join(name))?;
            file.write_all(contents)?;
            file.sync_all()
        });
    let swapped = written.and_then(|()| swap_into_place(&staging, &target));
    // Whatever is under the temporary name now (the old report, or the new one after a
    // failure) goes; after a plain rename there is nothing left to remove.
    let _ = std::fs::remove_dir_all(&staging);
    drop(pending);
    swapped.map_err(error)
}
/// Puts the directory `staging` at `target`: renamed there if there is nothing, else
/// exchanged with what is there in one step, leaving the old directory at `staging`.
#[cfg(target_os = "linux")]
fn swap_into_place(staging: &Path, target: &Path) -> std::io::Result<()> {
    loop {
        match rename_with(staging, target, libc::RENAME_NOREPLACE) {
            Ok(()) => return Ok(()),
            Err(error) if error.raw_os_error() == Some(libc::EEXIST) => {}
            Err(error) if unsupported(&error) => return swap_by_renames(staging, target),
            Err(error) => return Err(error),
        }
        match rename_with(staging, target, libc::RENAME_EXCHANGE) {
            Ok(()) => return Ok(()),
            // Removed since (another run's swap): try the plain rename again.
            Err(error) if error.raw_os_error() == Some(libc::ENOENT) => {}
            Err(error) if unsupported(&error) => return swap_by_renames(staging, target),
            Err(error) => return Err(error),
        }
    }
}

#[cfg(target_os = "linux")]
fn unsupported(error: &std::io::Error) -> bool {
    matches!(
        error.raw_os_error(),
        Some(libc::EINVAL | libc::ENOSYS | libc::EOPNOTSUPP)
    )
}

/// `renameat2(from, to, flags)`.
#[cfg(target_os = "linux")]
fn rename_with(from: &Path, to: &Path, flags: libc::c_uint) -> std::io::Result<()> {
    use std::os::unix::ffi::OsStrExt;
    let c_path = |path: &Path| {
        std::ffi::CString::new(path.as_os_str().as_bytes())
            .map_err(|_| std::io::Error::new(std::io::ErrorKind::InvalidInput, "a path holds a NUL byte"))
    };
    let (from, to) = (c_path(from)?, c_path(to)?);
    // SAFETY: both paths are NUL-terminated strings that live across the call, and
    // renameat2 reads nothing else.
    let status = unsafe {
        libc::syscall(
            libc::SYS_renameat2,
            libc::AT_FDCWD,
            from.as_ptr(),
            libc::AT_FDCWD,
            to.as_ptr(),
            flags,
        )
    };
    if status == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

#[cfg(not(target_os = "linux"))]
fn swap_into_place(staging: &Path, target: &Path) -> std::io::Result<()> {
    swap_by_renames(staging, target)
}

/// Without an atomic exchange: the old directory is renamed aside, the new one into
/// place, and the old one to the temporary name. The interrupt handler cannot run in
/// between ([`critical_section`]); another process may briefly see no directory.
fn swap_by_renames(staging: &Path, target: &Path) -> std::io::Result<()> {
    if !target.exists() {
        return std::fs::rename(staging, target);
    }
    let aside = staging.with_extension("old");
    std::fs::rename(target, &aside)?;
    if let Err(error) = std::fs::rename(staging, target) {
        let _ = std::fs::rename(&aside, target);
        return Err(error);
    }
    std::fs::rename(&aside, staging)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::files::cleanup::tests::take_turn;

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

    fn never_legacy(_: &Path) -> Option<Vec<String>> {
        None
    }

    #[test]
    fn a_rewrite_replaces_the_whole_directory_and_leaves_nothing_beside_it() {
        let _turn = take_turn();
        let parent = tempfile::tempdir().unwrap();
        let report = parent.path().join("report");
        write_directory(
            &report,
            &files(&["index.html", "a.svg", "b.svg"]),
            never_legacy,
            false,
        )
        .unwrap();
        assert_eq!(listing(&report), [MANIFEST, "a.svg", "b.svg", "index.html"]);
        write_directory(&report, &files(&["index.html", "c.svg"]), never_legacy, false).unwrap();
        assert_eq!(listing(&report), [MANIFEST, "c.svg", "index.html"]);
        assert_eq!(std::fs::read(report.join("c.svg")).unwrap(), b"c.svg");
        assert_eq!(
            listing(parent.path()),
            ["report"],
            "no staging directory left behind"
        );
    }

    #[test]
    fn a_directory_that_is_not_ours_is_never_replaced_even_forced() {
        let _turn = take_turn();
        let parent = tempfile::tempdir().unwrap();
        let precious = parent.path().join("work");
        std::fs::create_dir(&precious).unwrap();
        std::fs::write(precious.join("thesis.tex"), "years of work").unwrap();
        for force in [false, true] {
            let message = write_directory(&precious, &files(&["index.html"]), never_legacy, force)
                .unwrap_err()
                .to_string();
            assert!(
                message.contains("holds something other than a shuffle-audit report"),
                "{message}"
            );
        }
        assert_eq!(listing(&precious), ["thesis.tex"]);
        // An empty directory is fine, and a file's name is refused as not a directory.
        let empty = parent.path().join("empty");
        std::fs::create_dir(&empty).unwrap();
        write_directory(&empty, &files(&["index.html"]), never_legacy, false).unwrap();
        assert_eq!(listing(&empty), [MANIFEST, "index.html"]);
        let message = check_directory(&precious.join("thesis.tex"), never_legacy, false)
            .unwrap_err()
            .to_string();
        assert!(message.contains("not a directory"), "{message}");
    }

    #[test]
    fn files_added_or_changed_in_a_report_are_named_and_kept_unless_forced() {
        let _turn = take_turn();
        let parent = tempfile::tempdir().unwrap();
        let report = parent.path().join("report");
        write_directory(&report, &files(&["index.html", "a.svg"]), never_legacy, false).unwrap();
        std::fs::write(report.join("notes.txt"), "mine").unwrap();
        std::fs::write(report.join("a.svg"), "edited").unwrap();
        let message = write_directory(&report, &files(&["index.html"]), never_legacy, false)
            .unwrap_err()
            .to_string();
        assert!(
            message.ends_with(
                "it holds files the report did not write: a.svg (changed since), notes.txt; move them \
                 out, or give --force to replace the directory anyway"
            ),
            "{message}"
        );
        assert_eq!(std::fs::read_to_string(report.join("notes.txt")).unwrap(), "mine");
        // A subdirectory is not the report's either.
        std::fs::remove_file(report.join("notes.txt")).unwrap();
        std::fs::write(report.join("a.svg"), "a.svg").unwrap();
        std::fs::create_dir(report.join("data")).unwrap();
        let message = check_directory(&report, never_legacy, false)
            .unwrap_err()
            .to_string();
        assert!(
            message.contains("it holds a file the report did not write: data; move it out"),
            "{message}"
        );
        std::fs::remove_dir(report.join("data")).unwrap();
        check_directory(&report, never_legacy, false).unwrap();
        // Forced, the directory is replaced as a whole.
        std::fs::write(report.join("notes.txt"), "mine").unwrap();
        write_directory(&report, &files(&["index.html"]), never_legacy, true).unwrap();
        assert_eq!(listing(&report), [MANIFEST, "index.html"]);
    }

    #[test]
    fn a_directory_from_before_manifests_is_recognised_by_the_legacy_rule() {
        let _turn = take_turn();
        let parent = tempfile::tempdir().unwrap();
        let old = parent.path().join("old");
        std::fs::create_dir(&old).unwrap();
        std::fs::write(old.join("index.html"), "old report").unwrap();
        let legacy = |dir: &Path| dir.join("index.html").exists().then(Vec::new);
        write_directory(&old, &files(&["index.html"]), legacy, false).unwrap();
        assert_eq!(listing(&old), [MANIFEST, "index.html"]);
        // A manifest that does not parse is not the tool's.
        std::fs::write(old.join(MANIFEST), "not json").unwrap();
        assert!(check_directory(&old, legacy, true).is_err());
    }

    #[test]
    fn no_swap_happens_while_the_interrupt_handler_holds_on() {
        let _turn = take_turn();
        let parent = tempfile::tempdir().unwrap();
        let report = parent.path().join("report");
        write_directory(&report, &files(&["index.html", "old.svg"]), never_legacy, false).unwrap();
        // The handler has cleaned up and holds the lock until the process would exit: a
        // writer must not swap anything in meanwhile, nor leave anything behind later.
        let (sender, receiver) = std::sync::mpsc::channel();
        let target = report.clone();
        let writer = std::thread::spawn(move || {
            let interrupted = crate::files::remove_pending_temporaries();
            sender.send(()).unwrap();
            // As long as the handler holds on, the writer waits at the swap.
            std::thread::sleep(std::time::Duration::from_millis(300));
            assert_eq!(
                listing(&target),
                [MANIFEST, "index.html", "old.svg"],
                "nothing swapped"
            );
            drop(interrupted);
        });
        receiver.recv().unwrap();
        let _ = write_directory(&report, &files(&["index.html", "new.svg"]), never_legacy, false);
        writer.join().unwrap();
        assert_eq!(
            listing(parent.path()),
            ["report"],
            "no staging directory left behind"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_link_to_a_report_is_kept_and_its_target_replaced() {
        let _turn = take_turn();
        let parent = tempfile::tempdir().unwrap();
        let real = parent.path().join("real");
        let link = parent.path().join("link");
        write_directory(&real, &files(&["index.html", "old.svg"]), never_legacy, false).unwrap();
        std::os::unix::fs::symlink(&real, &link).unwrap();
        write_directory(&link, &files(&["index.html", "new.svg"]), never_legacy, false).unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        assert_eq!(listing(&real), [MANIFEST, "index.html", "new.svg"]);
    }
}
