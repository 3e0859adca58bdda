//! Where an export goes: a file, written atomically, or standard output (`-`).
//!
//! A regular file is written to a temporary file in the same directory and renamed over
//! the target only when complete, so a full disk, an interrupted run or a second run
//! writing the same file at the same moment leaves either the old file or a new one,
//! never a truncated mix. The temporaries are registered so that the signal handler can
//! remove them, and named after their writer so that the next run removes those a killed
//! run left ([`super::cleanup`]).
//!
//! Renaming is only right for regular files. A symbolic link is written through (its
//! final target, after every link of a chain, is replaced; the links stay), and a
//! device, FIFO or socket (a named pipe) is written in place: renaming over it would
//! replace a system file. Names of this process's own descriptors are written in place
//! too (`/dev/stdout` is standard output), never resolved: `/dev/stdout` may stand for a
//! file the shell opened with `>> log`. A file without write permission is someone's
//! decision that it should not change: it is refused unless the user forces it
//! ([`Destination::forced`], `--force`). Paths are classified, and the directory probed
//! for writing, before the run starts ([`Destination::check`]), so that an hour of work
//! never ends in "cannot write".
//!
//! Standard output is the reader's: when the reader leaves (`| head`, a pager that is
//! closed), the printing stops quietly and the command goes on to write its files and
//! exit with the status of its verdict. A closed pipe must never turn a failing gate into
//! a passing one, nor a passing one into an error.

use std::io::Write;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use super::cleanup::{create_temporary_file, critical_section, sweep_stale};
use crate::error::{Error, Result};

/// Where an export goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Destination {
    /// Standard output (`-` on the command line).
    Stdout,
    /// A file path, as the user gave it.
    File {
        /// The path as given.
        path: PathBuf,
        /// Replace the file even when it is read-only (`--force`).
        replace_read_only: bool,
    },
}

/// What a file path names, and so how it is written.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Target {
    /// A regular file, or a new one: replaced atomically at this path (links resolved).
    Replace(PathBuf),
    /// A device, FIFO or socket: written in place.
    Stream(PathBuf),
}

/// How many symbolic links a chain may have before it is taken for a loop (Linux's own
/// limit).
const MOST_LINKS: usize = 40;

/// Set when standard output's reader has gone: nothing more is printed.
static STDOUT_GONE: AtomicBool = AtomicBool::new(false);

impl Destination {
    /// `-` (or a name for descriptor 1, such as `/dev/stdout`) means standard output;
    /// anything else is a file path.
    pub fn parse(text: &str) -> Self {
        if matches!(text, "-" | "/dev/stdout" | "/dev/fd/1" | "/proc/self/fd/1") {
            Destination::Stdout
        } else {
            Destination::File {
                path: PathBuf::from(text),
                replace_read_only: false,
            }
        }
    }

    /// The same destination, replacing a read-only file when `force` is set.
    pub fn forced(self, force: bool) -> Self {
        match self {
            Destination::File { path, .. } => Destination::File {
                path,
                replace_read_only: force,
            },
            Destination::Stdout => Destination::Stdout,
        }
    }

    /// The file path, unless this is standard output.
    pub fn path(&self) -> Option<&Path> {
        match self {
            Destination::Stdout => None,
            Destination::File { path, .. } => Some(path),
        }
    }

    /// Fails now, with the error the write would give, if the destination cannot be
    /// written: a directory, a missing or read-only directory, an empty name, a chain of
    /// links that loops, a read-only file (unless forced).
    pub fn check(&self) -> Result<()> {
        match self {
            Destination::Stdout => Ok(()),
            Destination::File {
                path,
                replace_read_only,
            } => match target_of(path)? {
                Target::Replace(file) => {
                    refuse_read_only(path, &file, *replace_read_only)?;
                    probe_directory(path, directory_of(&file))
                }
                Target::Stream(_) => Ok(()),
            },
        }
    }

    /// Whether `self` and `other` would write the same file.
    pub fn same_file_as(&self, other: &Destination) -> bool {
        match (self.path(), other.path()) {
            (None, None) => true,
            (Some(a), Some(b)) => same_file(a, b),
            _ => false,
        }
    }

    /// Whether this is a file inside the directory `dir` (an absolute path with its links
    /// resolved, as [`crate::files::check_directory`] gives it).
    pub fn is_inside(&self, dir: &Path) -> bool {
        self.path().is_some_and(|path| identity(path).starts_with(dir))
    }

    /// Writes `contents` in full.
    pub fn write(&self, contents: &str) -> Result<()> {
        self.write_with(|out| out.write_all(contents.as_bytes()))
    }

    /// Streams whatever `produce` writes, through a buffer, without holding it all in
    /// memory (a 10-card JSON export is hundreds of megabytes).
    pub fn write_with(&self, produce: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> Result<()> {
        match self {
            Destination::Stdout => write_to_stdout(produce),
            Destination::File {
                path,
                replace_read_only,
            } => match target_of(path)? {
                Target::Replace(file) => {
                    refuse_read_only(path, &file, *replace_read_only)?;
                    write_atomically_as(path, &file, produce)
                }
                Target::Stream(special) => {
                    // Appending: a descriptor name may stand for a file the shell opened
                    // for appending, whose contents must stay.
                    let opened = std::fs::OpenOptions::new().append(true).open(&special);
                    let file = opened.map_err(|source| write_error(path, source))?;
                    let mut buffered = std::io::BufWriter::new(file);
                    produce(&mut buffered)
                        .and_then(|()| buffered.flush())
                        .map_err(|source| write_error(path, source))
                }
            },
        }
    }
}

/// Writes to standard output until its reader leaves; from then on nothing more is
/// printed, and that is not an error.
fn write_to_stdout(produce: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> Result<()> {
    if STDOUT_GONE.load(Ordering::Relaxed) {
        return Ok(());
    }
    let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
    match produce(&mut stdout).and_then(|()| stdout.flush()) {
        Ok(()) => Ok(()),
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => {
            STDOUT_GONE.store(true, Ordering::Relaxed);
            // What is still buffered cannot reach a reader that has gone.
            let _ = stdout.into_parts();
            Ok(())
        }
        Err(error) => Err(write_error(Path::new("standard output"), error)),
    }
}

/// Whether standard output's reader has gone (a closed pipe): the command printed what
/// it could and carries on.
pub fn stdout_reader_gone() -> bool {
    STDOUT_GONE.load(Ordering::Relaxed)
}

/// Follows `path` through every symbolic link of a chain to the name it finally stands
/// for, with that name's metadata (`None` when nothing is there: a dangling chain names
/// the file to create).
fn follow_links(path: &Path) -> std::io::Result<(PathBuf, Option<std::fs::Metadata>)> {
    let mut current = path.to_path_buf();
    for _ in 0..=MOST_LINKS {
        match std::fs::symlink_metadata(&current) {
            Ok(metadata) if metadata.file_type().is_symlink() => {
                let link = std::fs::read_link(&current)?;
                // A relative link is read from the directory that holds it.
                current = directory_of(&current).join(link);
            }
            Ok(metadata) => return Ok((current, Some(metadata))),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok((current, None)),
            Err(error) => return Err(error),
        }
    }
    Err(std::io::Error::other(format!(
        "it is a chain of more than {MOST_LINKS} symbolic links (a loop?)"
    )))
}

/// Classifies `path`: what is there now decides how it will be written.
fn target_of(path: &Path) -> Result<Target> {
    let refuse = |reason: &str| Err(write_error(path, std::io::Error::other(reason.to_string())));
    if path.as_os_str().is_empty() {
        return refuse("the file name is empty");
    }
    // `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N` name a descriptor this process has
    // open, often a file the shell opened (`2>> log`): resolving the link and renaming
    // over its target would destroy that file. Such names are written in place.
    let text = path.as_os_str().to_string_lossy();
    if text == "/dev/stderr" || text.starts_with("/dev/fd/") || text.starts_with("/proc/self/fd/") {
        return Ok(Target::Stream(path.to_path_buf()));
    }
    let (last, metadata) = follow_links(path).map_err(|source| write_error(path, source))?;
    match metadata {
        Some(metadata) if metadata.is_dir() => refuse("it is a directory"),
        // The final target of the links is replaced; the links stay.
        Some(metadata) if metadata.is_file() => {
            Ok(Target::Replace(std::fs::canonicalize(&last).unwrap_or(last)))
        }
        Some(_) => Ok(Target::Stream(path.to_path_buf())),
        None => {
            if last
                .as_os_str()
                .to_string_lossy()
                .ends_with(std::path::MAIN_SEPARATOR)
            {
                return refuse("the name ends with a separator, as a directory's would");
            }
            Ok(Target::Replace(last))
        }
    }
}

/// Refuses to replace `file` (what `path` resolves to) when it exists and is read-only,
/// unless `force`: its mode has no write permission, or this user may not write it.
fn refuse_read_only(path: &Path, file: &Path, force: bool) -> Result<()> {
    if force {
        return Ok(());
    }
    let Ok(metadata) = std::fs::metadata(file) else {
        return Ok(());
    };
    if metadata.permissions().readonly() || !writable_by_us(file) {
        let mode = mode_of(&metadata).map_or_else(String::new, |mode| format!(" (mode {mode:04o})"));
        return Err(write_error(
            path,
            std::io::Error::new(
                std::io::ErrorKind::PermissionDenied,
                format!("it is read-only{mode}; give --force to replace it anyway"),
            ),
        ));
    }
    Ok(())
}

/// Whether this user may write `file` (root may write anything, which is why the mode
/// itself is read too).
fn writable_by_us(file: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let Ok(name) = std::ffi::CString::new(file.as_os_str().as_bytes()) else {
            return true;
        };
        // SAFETY: a NUL-terminated path that lives across the call.
        unsafe { libc::access(name.as_ptr(), libc::W_OK) == 0 }
    }
    #[cfg(not(unix))]
    {
        let _ = file;
        true
    }
}

fn mode_of(metadata: &std::fs::Metadata) -> Option<u32> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        Some(metadata.permissions().mode() & 0o7777)
    }
    #[cfg(not(unix))]
    {
        let _ = metadata;
        None
    }
}

/// Checks that files can be created in `directory`, by creating (and removing) one.
pub(crate) fn probe_directory(path: &Path, directory: &Path) -> Result<()> {
    if !directory.is_dir() {
        let reason = format!("the directory {} does not exist", directory.display());
        return Err(write_error(
            path,
            std::io::Error::new(std::io::ErrorKind::NotFound, reason),
        ));
    }
    let (file, probe, pending) = {
        let _critical = critical_section();
        create_temporary_file(directory).map_err(|source| write_error(path, source))?
    };
    drop(file);
    let _ = std::fs::remove_file(probe);
    drop(pending);
    Ok(())
}

/// Writes what `produce` writes to a temporary file beside `path`, then renames it over
/// `path`. If anything fails on the way, the temporary file is removed and `path` is left
/// as it was. Temporaries that killed runs left in the directory are removed first.
pub fn write_atomically(
    path: &Path,
    produce: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<()> {
    write_atomically_as(path, path, produce)
}

/// [`write_atomically`] to `file`, with errors against `named` (the path the user gave,
/// which may be a link to `file`).
fn write_atomically_as(
    named: &Path,
    file: &Path,
    produce: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<()> {
    let error = |source| write_error(named, source);
    let directory = directory_of(file);
    if !directory.is_dir() {
        return probe_directory(named, directory);
    }
    sweep_stale(directory);
    let (temporary, temporary_path, pending) = {
        // Created and registered as one step: an interrupt in between would leave it.
        let _critical = critical_section();
        create_temporary_file(directory).map_err(error)?
    };
    let written = (|| {
        let mut buffered = std::io::BufWriter::new(&temporary);
        produce(&mut buffered)?;
        buffered.flush()?;
        drop(buffered);
        // A file that is replaced keeps the permissions it had.
        if let Ok(existing) = std::fs::metadata(file) {
            temporary.set_permissions(existing.permissions())?;
        }
        temporary.sync_all()
    })();
    drop(temporary);
    let renamed = written.and_then(|()| {
        // Either the interrupt handler removed the temporary file (and holds this lock
        // until the process exits), or the file is renamed into place before it looks.
        let _critical = critical_section();
        std::fs::rename(&temporary_path, file)
    });
    if renamed.is_err() {
        let _ = std::fs::remove_file(&temporary_path);
    }
    drop(pending);
    renamed.map_err(error)
}

/// The file a path would write, for comparing two destinations: the resolved target with
/// its directory canonicalised where it exists.
pub(crate) fn identity(path: &Path) -> PathBuf {
    let file = match target_of(path) {
        Ok(Target::Replace(file) | Target::Stream(file)) => file,
        Err(_) => path.to_path_buf(),
    };
    let absolute = std::path::absolute(&file).unwrap_or(file);
    let normal: PathBuf = absolute
        .components()
        .filter(|part| *part != Component::CurDir)
        .collect();
    match (
        normal.parent().and_then(|p| std::fs::canonicalize(p).ok()),
        normal.file_name(),
    ) {
        (Some(directory), Some(name)) => directory.join(name),
        _ => normal,
    }
}

/// Whether two paths name the same file: the same resolved name, or (both existing) the
/// same file on disk under two names.
pub(crate) fn same_file(a: &Path, b: &Path) -> bool {
    identity(a) == identity(b) || matches!((file_id(a), file_id(b)), (Some(x), Some(y)) if x == y)
}

/// A file's identity on disk (device and inode), following links.
pub(crate) fn file_id(path: &Path) -> Option<(u64, u64)> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        None
    }
}

/// The directory a file goes into (`.` for a bare file name).
pub(crate) fn directory_of(path: &Path) -> &Path {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    }
}

/// An error against the path the user named.
pub(crate) fn write_error(path: &Path, source: std::io::Error) -> Error {
    Error::Write {
        path: path.to_path_buf(),
        source,
    }
}

#[cfg(test)]
mod tests;
