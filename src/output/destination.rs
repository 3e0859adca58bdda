//! Where an export goes: a file, written atomically, or standard output (`-`).
//!
//! A file is written to a temporary file in the same directory and renamed over the
//! target only when complete, so an interrupted run or a full disk leaves either the old
//! file or the new one, never a truncated mix.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// Where an export goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Destination {
    /// Standard output (`-` on the command line).
    Stdout,
    /// A file, replaced atomically.
    File(PathBuf),
}

impl Destination {
    /// `-` means standard output; anything else is a file path.
    pub fn parse(text: &str) -> Self {
        if text == "-" {
            Destination::Stdout
        } else {
            Destination::File(PathBuf::from(text))
        }
    }

    /// Fails now, with the error the write would give, if the file cannot be written
    /// into its directory: a run that takes an hour must not end by discovering a typo.
    pub fn check(&self) -> Result<()> {
        match self {
            Destination::Stdout => Ok(()),
            Destination::File(path) => {
                let directory = directory_of(path);
                if directory.is_dir() {
                    Ok(())
                } else {
                    Err(missing_directory(path, directory))
                }
            }
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
                    .map_err(|source| Error::Write {
                        path: PathBuf::from("standard output"),
                        source,
                    })
            }
            Destination::File(path) => write_atomically(path, produce),
        }
    }
}

/// Writes what `produce` writes to a temporary file beside `path`, then renames it over
/// `path`. If anything fails on the way, the temporary file is removed and `path` is left
/// as it was.
pub fn write_atomically(
    path: &Path,
    produce: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<()> {
    // The user named `path`, not our temporary file: report the failure against it, with
    // the operating system's reason and nothing about the temporary name.
    let error = |source: std::io::Error| Error::Write {
        path: path.to_path_buf(),
        source: match source.raw_os_error() {
            Some(code) => std::io::Error::from_raw_os_error(code),
            None => source,
        },
    };
    let directory = directory_of(path);
    if !directory.is_dir() {
        return Err(missing_directory(path, directory));
    }
    let mut builder = tempfile::Builder::new();
    builder.prefix(".shuffle-audit-").suffix(".tmp");
    // Temporary files are private (0600) by default, and the rename would keep that: ask
    // for what `File::create` gives instead (0666 less the umask).
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    let mut temporary = builder.tempfile_in(directory).map_err(error)?;
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
    temporary.persist(path).map_err(|persist| error(persist.error))?;
    Ok(())
}

/// The directory a file goes into (`.` for a bare file name).
fn directory_of(path: &Path) -> &Path {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    }
}

fn missing_directory(path: &Path, directory: &Path) -> Error {
    Error::Write {
        path: path.to_path_buf(),
        source: std::io::Error::new(
            std::io::ErrorKind::NotFound,
            format!("the directory {} does not exist", directory.display()),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_replace_the_file_and_leave_no_temporary_behind() {
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
    }

    #[test]
    fn a_missing_directory_is_a_clear_error() {
        let error =
            write_atomically(Path::new("/nonexistent/dir/out.json"), |out| out.write_all(b"x")).unwrap_err();
        assert!(
            error
                .to_string()
                .starts_with("cannot write /nonexistent/dir/out.json"),
            "{error}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn files_get_ordinary_permissions_and_replaced_files_keep_theirs() {
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
    fn a_missing_directory_is_found_before_any_work() {
        let destination = Destination::parse("/nonexistent/dir/out.json");
        assert!(
            destination
                .check()
                .unwrap_err()
                .to_string()
                .contains("does not exist")
        );
        assert!(Destination::parse("out.json").check().is_ok());
        assert!(Destination::Stdout.check().is_ok());
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
