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
        match self {
            Destination::Stdout => {
                let mut stdout = std::io::stdout().lock();
                stdout
                    .write_all(contents.as_bytes())
                    .and_then(|()| stdout.flush())
                    .map_err(|source| Error::Write {
                        path: PathBuf::from("standard output"),
                        source,
                    })
            }
            Destination::File(path) => write_atomically(path, contents.as_bytes()),
        }
    }
}

/// Writes `contents` to a temporary file beside `path`, then renames it over `path`.
pub fn write_atomically(path: &Path, contents: &[u8]) -> Result<()> {
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
    let mut temporary = tempfile::Builder::new()
        .prefix(".shuffle-audit-")
        .suffix(".tmp")
        .tempfile_in(directory)
        .map_err(error)?;
    temporary.write_all(contents).map_err(error)?;
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
        write_atomically(&path, b"first").unwrap();
        write_atomically(&path, b"second").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "second");
        let names: Vec<_> = std::fs::read_dir(directory.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("out.json")]);
    }

    #[test]
    fn a_missing_directory_is_a_clear_error() {
        let error = write_atomically(Path::new("/nonexistent/dir/out.json"), b"x").unwrap_err();
        assert!(
            error
                .to_string()
                .starts_with("cannot write /nonexistent/dir/out.json"),
            "{error}"
        );
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
