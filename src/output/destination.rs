//! Where an export goes: a file, written atomically, or standard output (`-`).
//!
//! A regular file is written to a temporary file in the same directory and renamed over
//! the target only when complete, so a full disk or an interrupted run leaves either the
//! old file or the new one, never a truncated mix. The temporary files in progress are
//! registered so that the Ctrl-C handler can remove them ([`remove_pending_temporaries`]).
//!
//! Renaming is only right for regular files. A symbolic link is written through (its
//! target is replaced, the link stays), and a device, FIFO or socket (a named pipe) is
//! written in place: renaming over it would replace a system file. Names of this
//! process's own descriptors are written in place too (`/dev/stdout` is standard output),
//! never resolved: `/dev/stdout` may stand for a file the shell opened with `>> log`. Paths
//! are classified, and the directory probed for writing, before the run starts
//! ([`Destination::check`]), so that an hour of work never ends in "cannot write".

use std::io::Write;
use std::path::{Component, Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use crate::error::{Error, Result};

/// Where an export goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Destination {
    /// Standard output (`-` on the command line).
    Stdout,
    /// A file path, as the user gave it.
    File(PathBuf),
}

/// What a file path names, and so how it is written.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Target {
    /// A regular file, or a new one: replaced atomically at this path (links resolved).
    Replace(PathBuf),
    /// A device, FIFO or socket: written in place.
    Stream(PathBuf),
}

impl Destination {
    /// `-` (or a name for descriptor 1, such as `/dev/stdout`) means standard output;
    /// anything else is a file path.
    pub fn parse(text: &str) -> Self {
        if matches!(text, "-" | "/dev/stdout" | "/dev/fd/1" | "/proc/self/fd/1") {
            Destination::Stdout
        } else {
            Destination::File(PathBuf::from(text))
        }
    }

    /// Fails now, with the error the write would give, if the destination cannot be
    /// written: a directory, a missing or read-only directory, an empty name.
    pub fn check(&self) -> Result<()> {
        match self {
            Destination::Stdout => Ok(()),
            Destination::File(path) => match target_of(path)? {
                Target::Replace(file) => probe_directory(path, directory_of(&file)),
                Target::Stream(_) => Ok(()),
            },
        }
    }

    /// Whether `self` and `other` would write the same file.
    pub fn same_file_as(&self, other: &Destination) -> bool {
        match (self, other) {
            (Destination::Stdout, Destination::Stdout) => true,
            (Destination::File(a), Destination::File(b)) => identity(a) == identity(b),
            _ => false,
        }
    }

    /// Whether this is a file inside the directory `dir` (an absolute path with its links
    /// resolved, as [`crate::output::check_directory`] gives it).
    pub fn is_inside(&self, dir: &Path) -> bool {
        match self {
            Destination::Stdout => false,
            Destination::File(path) => identity(path).starts_with(dir),
        }
    }

    /// Writes `contents` in full.
    pub fn write(&self, contents: &str) -> Result<()> {
        self.write_with(|out| out.write_all(contents.as_bytes()))
    }

    /// Streams whatever `produce` writes, through a buffer, without holding it all in
    /// memory (a 10-card JSON export is hundreds of megabytes).
    pub fn write_with(&self, produce: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> Result<()> {
        match self {
            Destination::Stdout => {
                let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
                produce(&mut stdout)
                    .and_then(|()| stdout.flush())
                    .map_err(|source| write_error(Path::new("standard output"), source))
            }
            Destination::File(path) => match target_of(path)? {
                Target::Replace(file) => write_atomically(&file, produce),
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
    match std::fs::metadata(path) {
        Ok(metadata) if metadata.is_dir() => refuse("it is a directory"),
        // Canonicalising writes through symbolic links instead of replacing them.
        Ok(metadata) if metadata.is_file() => Ok(Target::Replace(
            std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()),
        )),
        Ok(_) => Ok(Target::Stream(path.to_path_buf())),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            if let Ok(link) = std::fs::read_link(path) {
                // A link to a file that does not exist yet: create the file it names.
                return Ok(Target::Replace(directory_of(path).join(link)));
            }
            if path
                .as_os_str()
                .to_string_lossy()
                .ends_with(std::path::MAIN_SEPARATOR)
            {
                return refuse("the name ends with a separator, as a directory's would");
            }
            Ok(Target::Replace(path.to_path_buf()))
        }
        Err(error) => Err(write_error(path, error)),
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
    temporary_builder()
        .tempfile_in(directory)
        .map(drop)
        .map_err(|source| write_error(path, source))
}

/// Writes what `produce` writes to a temporary file beside `path`, then renames it over
/// `path`. If anything fails on the way, the temporary file is removed and `path` is left
/// as it was.
pub fn write_atomically(
    path: &Path,
    produce: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<()> {
    let error = |source| write_error(path, source);
    probe_directory(path, directory_of(path))?;
    let (mut temporary, _pending) = {
        // Created and registered as one step: an interrupt in between would leave it.
        let _critical = critical_section();
        let temporary = temporary_builder()
            .tempfile_in(directory_of(path))
            .map_err(error)?;
        let pending = Pending::register(Cleanup::File(temporary.path().to_path_buf()));
        (temporary, pending)
    };
    {
        let mut buffered = std::io::BufWriter::new(temporary.as_file_mut());
        produce(&mut buffered)
            .and_then(|()| buffered.flush())
            .map_err(error)?;
    }
    // A file that is replaced keeps the permissions it had.
    if let Ok(existing) = std::fs::metadata(path) {
        temporary
            .as_file()
            .set_permissions(existing.permissions())
            .map_err(error)?;
    }
    temporary.as_file().sync_all().map_err(error)?;
    // Either the interrupt handler removed the temporary file (and holds this lock until
    // the process exits), or the file is renamed into place before the handler looks.
    let _critical = critical_section();
    temporary.persist(path).map_err(|persist| error(persist.error))?;
    Ok(())
}

pub(crate) fn temporary_builder() -> tempfile::Builder<'static, 'static> {
    let mut builder = tempfile::Builder::new();
    builder.prefix(".shuffle-audit-").suffix(".tmp");
    // Temporary files are private (0600) by default, and the rename would keep that: ask
    // for what `File::create` gives instead (0666 less the umask).
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    builder
}

/// What the Ctrl-C handler must undo: temporary files and directories being written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Cleanup {
    /// Remove this file.
    File(PathBuf),
    /// Remove this directory and everything in it.
    Directory(PathBuf),
}

/// Work in progress that an interrupt would leave behind.
static PENDING: Mutex<Vec<Cleanup>> = Mutex::new(Vec::new());

/// Held by a writer while it creates and registers a temporary, and while it renames
/// work into place; held by the interrupt handler from its cleanup until the process
/// exits. So the handler never removes a directory that is being renamed, and a writer
/// never renames anything after the handler has cleaned up.
static CRITICAL: Mutex<()> = Mutex::new(());

/// Holds off the interrupt handler (see [`CRITICAL`]).
pub(crate) fn critical_section() -> MutexGuard<'static, ()> {
    CRITICAL.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Registers a cleanup for as long as this guard lives.
pub(crate) struct Pending(Cleanup);

impl Pending {
    pub(crate) fn register(cleanup: Cleanup) -> Self {
        PENDING
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .push(cleanup.clone());
        Pending(cleanup)
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        PENDING
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .retain(|cleanup| *cleanup != self.0);
    }
}

/// Removes every temporary file and directory being written. For an interrupt handler: the process is about to exit
/// without running destructors, which would otherwise leave them behind.
///
/// Returns a guard that keeps every writer from renaming anything into place: an
/// interrupt handler holds it until the process exits.
#[must_use = "an interrupt handler holds the guard until the process exits"]
pub fn remove_pending_temporaries() -> MutexGuard<'static, ()> {
    let critical = critical_section();
    let pending = std::mem::take(&mut *PENDING.lock().unwrap_or_else(|poisoned| poisoned.into_inner()));
    for cleanup in pending {
        let _ = match cleanup {
            Cleanup::File(path) => std::fs::remove_file(path),
            Cleanup::Directory(path) => std::fs::remove_dir_all(path),
        };
    }
    critical
}

/// The file a path would write, for comparing two destinations: the resolved target with
/// its directory canonicalised where it exists.
fn identity(path: &Path) -> PathBuf {
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

/// The directory a file goes into (`.` for a bare file name).
pub(crate) fn directory_of(path: &Path) -> &Path {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    }
}

/// An error against the path the user named, with the operating system's reason and
/// nothing about our temporary file (tempfile adds its name to the messages it wraps).
pub(crate) fn write_error(path: &Path, source: std::io::Error) -> Error {
    let os_code = source.raw_os_error().or_else(|| {
        let inner = source.get_ref().and_then(|inner| inner.source());
        inner
            .and_then(|inner| inner.downcast_ref::<std::io::Error>())
            .and_then(std::io::Error::raw_os_error)
    });
    let source = match os_code {
        Some(code) => std::io::Error::from_raw_os_error(code),
        None if source.get_ref().is_some_and(|inner| inner.source().is_some()) => {
            std::io::Error::from(source.kind())
        }
        None => source,
    };
    Error::Write {
        path: path.to_path_buf(),
        source,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The registry of pending temporaries is global to the process, and one test empties
    /// it the way an interrupt would: tests that write take turns.
    static WRITING: Mutex<()> = Mutex::new(());

    pub(crate) fn take_turn() -> std::sync::MutexGuard<'static, ()> {
        WRITING.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    #[test]
    fn writes_replace_the_file_and_leave_no_temporary_behind() {
        let _turn = take_turn();
        let directory = tempfile::tempdir().unwrap();
        let path = directory.path().join("out.json");
        write_atomically(&path, |out| out.write_all(b"first")).unwrap();
        write_atomically(&path, |out| out.write_all(b"second")).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "second");
        let names: Vec<_> = std::fs::read_dir(directory.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("out.json")]);
        assert!(PENDING.lock().unwrap().is_empty());
    }

    #[cfg(unix)]
    #[test]
    fn files_get_ordinary_permissions_and_replaced_files_keep_theirs() {
        let _turn = take_turn();
        use std::os::unix::fs::PermissionsExt;
        let directory = tempfile::tempdir().unwrap();
        let mode = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
        let ordinary = directory.path().join("ordinary");
        std::fs::File::create(&ordinary).unwrap();
        let ours = directory.path().join("ours.json");
        write_atomically(&ours, |out| out.write_all(b"{}")).unwrap();
        assert_eq!(mode(&ours), mode(&ordinary), "same mode as File::create");
        std::fs::set_permissions(&ours, std::fs::Permissions::from_mode(0o640)).unwrap();
        write_atomically(&ours, |out| out.write_all(b"[]")).unwrap();
        assert_eq!(mode(&ours), 0o640);
    }

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temporary() {
        let _turn = take_turn();
        let directory = tempfile::tempdir().unwrap();
        let path = directory.path().join("out.json");
        write_atomically(&path, |out| out.write_all(b"complete")).unwrap();
        let failure = write_atomically(&path, |out| {
            out.write_all(b"half")?;
            Err(std::io::Error::other("interrupted"))
        });
        assert!(failure.is_err());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "complete");
        assert_eq!(std::fs::read_dir(directory.path()).unwrap().count(), 1);
    }

    #[test]
    fn pending_temporaries_can_be_removed_by_an_interrupt_handler() {
        let _turn = take_turn();
        let directory = tempfile::tempdir().unwrap();
        let path = directory.path().join("out.json");
        write_atomically(&path, |out| {
            out.write_all(b"partial")?;
            // What the Ctrl-C handler does while a write is under way.
            let pending: Vec<Cleanup> = PENDING.lock().unwrap().clone();
            assert!(
                pending
                    .iter()
                    .any(|p| matches!(p, Cleanup::File(p) if p.starts_with(directory.path())))
            );
            drop(remove_pending_temporaries());
            Ok(())
        })
        .unwrap_err();
        assert_eq!(std::fs::read_dir(directory.path()).unwrap().count(), 0);
    }

    #[cfg(unix)]
    #[test]
    fn links_are_written_through_and_special_files_in_place() {
        let _turn = take_turn();
        let directory = tempfile::tempdir().unwrap();
        let real = directory.path().join("real.json");
        let link = directory.path().join("link.json");
        std::fs::write(&real, "old").unwrap();
        std::os::unix::fs::symlink(&real, &link).unwrap();
        Destination::parse(link.to_str().unwrap()).write("new").unwrap();
        assert!(
            std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(),
            "the link stays"
        );
        assert_eq!(std::fs::read_to_string(&real).unwrap(), "new");
        // /dev/null is a character device: written in place, never renamed over.
        let null = Destination::parse("/dev/null");
        null.check().unwrap();
        null.write("discarded").unwrap();
        assert!(!std::fs::metadata("/dev/null").unwrap().is_file());
    }

    #[test]
    fn impossible_targets_are_refused_before_any_work() {
        let directory = tempfile::tempdir().unwrap();
        let reason = |path: &str| Destination::parse(path).check().unwrap_err().to_string();
        let dir = directory.path().to_str().unwrap().to_string();
        assert_eq!(reason(&dir), format!("cannot write {dir}: it is a directory"));
        assert!(reason(".").ends_with("it is a directory"));
        assert!(reason("").ends_with("the file name is empty"));
        assert!(reason(&format!("{dir}/new/")).contains("ends with a separator"));
        assert_eq!(
            reason("/nonexistent/dir/out.json"),
            "cannot write /nonexistent/dir/out.json: the directory /nonexistent/dir does not exist"
        );
        assert!(Destination::parse("out.json").check().is_ok());
        assert!(Destination::Stdout.check().is_ok());
    }

    #[test]
    fn the_same_file_is_recognised_under_different_spellings() {
        let same = |a: &str, b: &str| Destination::parse(a).same_file_as(&Destination::parse(b));
        assert!(same("same.out", "./same.out"));
        assert!(same("-", "-"));
        assert!(!same("a.json", "a.csv"));
        assert!(!same("-", "a.json"));
    }

    #[test]
    fn dash_means_stdout() {
        assert_eq!(Destination::parse("-"), Destination::Stdout);
        assert_eq!(
            Destination::parse("a.json"),
            Destination::File(PathBuf::from("a.json"))
        );
    }
}
