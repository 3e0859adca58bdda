//! Everything one command reads and writes, checked against each other before any work.
//!
//! Nothing a user gives the tool may be lost. A command reads inputs (a file of samples,
//! shard files, a suite's config, standard input redirected from a file) and writes
//! outputs (`--json`, `--csv`, `--junit`) and a report folder that replaces whatever
//! report was there. Before any work starts, [`Plan::check`] resolves every name (links
//! followed, hard links and standard input compared by device and inode) and refuses,
//! with exit status 2 and a message naming both sides:
//!
//! - an output that would replace an input;
//! - two outputs that name the same file;
//! - an output, or an input, inside the report folder that is about to be replaced: the
//!   folder goes as a whole, and with it everything in it. `--force` does not lift this
//!   for inputs: it only lets the tool replace a report folder that holds files the
//!   report did not write, and read-only output files.
//!
//! Then each output is checked on its own ([`Destination::check`]) and the report folder
//! too ([`super::check_directory`]: new, empty, or the tool's own), so that an hour of work never
//! ends in "cannot write".

use std::path::{Path, PathBuf};

use super::destination::{Destination, file_id, identity, same_file};
use crate::error::{Error, Result};

/// What a command reads.
#[derive(Clone, Debug)]
enum Input {
    /// A file, as the user named it.
    File(PathBuf),
    /// Standard input, which may be a file the shell opened (`< samples.txt`).
    Stdin,
}

/// The inputs and outputs of one command.
#[derive(Debug, Default)]
pub struct Plan {
    inputs: Vec<Input>,
    outputs: Vec<(&'static str, Destination)>,
    report: Option<(&'static str, PathBuf)>,
    force: bool,
}

/// How a report folder is recognised as the tool's (see [`super::check_directory`]).
pub type LegacyRule = fn(&Path) -> Option<Vec<String>>;

impl Plan {
    /// An empty plan; `force` lets a report folder holding files the report did not
    /// write be replaced anyway.
    pub fn new(force: bool) -> Self {
        Self {
            force,
            ..Self::default()
        }
    }

    /// Adds an input file.
    pub fn reads(mut self, path: &Path) -> Self {
        self.inputs.push(Input::File(path.to_path_buf()));
        self
    }

    /// Adds standard input.
    pub fn reads_stdin(mut self) -> Self {
        self.inputs.push(Input::Stdin);
        self
    }

    /// Adds an output of option `option` (`--json`), if one was asked for.
    pub fn writes(mut self, option: &'static str, destination: Option<&Destination>) -> Self {
        if let Some(destination) = destination {
            self.outputs.push((option, destination.clone()));
        }
        self
    }

    /// Adds the report folder of option `option` (`--report`), if one was asked for.
    pub fn replaces(mut self, option: &'static str, directory: Option<&Path>) -> Self {
        if let Some(directory) = directory {
            self.report = Some((option, directory.to_path_buf()));
        }
        self
    }

    /// Checks everything (see the module docs), before any work. `legacy` recognises
    /// report folders written before manifests ([`super::check_directory`]). Returns the report
    /// folder's resolved path, when there is one.
    pub fn check(&self, legacy: LegacyRule) -> Result<Option<PathBuf>> {
        self.check_outputs_apart()?;
        self.check_outputs_against_inputs()?;
        for (_, destination) in &self.outputs {
            destination.check()?;
        }
        let Some((option, directory)) = &self.report else {
            return Ok(None);
        };
        self.check_nothing_inside(option, directory)?;
        let target = super::check_directory(directory, legacy, self.force)?;
        Ok(Some(target))
    }

    fn check_outputs_apart(&self) -> Result<()> {
        for (i, (first_option, first)) in self.outputs.iter().enumerate() {
            for (second_option, second) in &self.outputs[i + 1..] {
                if first.same_file_as(second) {
                    return Err(Error::Usage(match first.path() {
                        None => format!(
                            "{first_option} - and {second_option} - cannot both go to standard output; \
                             give one a file name"
                        ),
                        Some(path) => format!(
                            "{first_option} and {second_option} both name {}; give them different files",
                            path.display()
                        ),
                    }));
                }
            }
        }
        Ok(())
    }

    fn check_outputs_against_inputs(&self) -> Result<()> {
        for input in &self.inputs {
            for (option, output) in &self.outputs {
                let Some(output_path) = output.path() else {
                    continue;
                };
                let clash = match input {
                    Input::File(path) => same_file(path, output_path),
                    Input::Stdin => stdin_id().is_some() && stdin_id() == file_id(output_path),
                };
                if clash {
                    return Err(Error::Usage(format!(
                        "{option} names {}, which is also {}; give the output another file",
                        output_path.display(),
                        match input {
                            Input::File(_) => "an input",
                            Input::Stdin => "standard input, the input",
                        }
                    )));
                }
            }
        }
        Ok(())
    }

    /// Refuses outputs and inputs inside the report folder that will be replaced.
    fn check_nothing_inside(&self, option: &str, directory: &Path) -> Result<()> {
        let Ok(folder) = std::fs::canonicalize(directory) else {
            // Not there yet: nothing can be inside it.
            return Ok(());
        };
        for (output_option, output) in &self.outputs {
            if let Some(path) = output.path()
                && output.is_inside(&folder)
            {
                return Err(Error::Usage(format!(
                    "{output_option} {} is inside the report directory {}, which is replaced as a whole; \
                     write it elsewhere",
                    path.display(),
                    directory.display()
                )));
            }
        }
        let inside = files_under(&folder);
        for input in &self.inputs {
            let found = match input {
                Input::File(path) => {
                    let by_name = identity(path).starts_with(&folder)
                        || std::fs::canonicalize(path).is_ok_and(|real| real.starts_with(&folder));
                    let by_id = file_id(path).and_then(|id| inside.iter().find(|(other, _)| *other == id));
                    by_name || by_id.is_some()
                }
                Input::Stdin => stdin_id().is_some_and(|id| inside.iter().any(|(other, _)| *other == id)),
            };
            if found {
                let name = match input {
                    Input::File(path) => path.display().to_string(),
                    Input::Stdin => {
                        let id = stdin_id();
                        let file = inside.iter().find(|(other, _)| Some(*other) == id);
                        format!(
                            "standard input ({})",
                            file.map_or_else(|| "a file".to_string(), |(_, path)| path.display().to_string())
                        )
                    }
                };
                return Err(Error::Usage(format!(
                    "{name} is an input and lies inside the report directory {}, which {option} replaces \
                     as a whole; move it out first, or give {option} another directory",
                    directory.display()
                )));
            }
        }
        Ok(())
    }
}

/// Standard input's file identity, when it is a regular file (`< samples.txt`).
fn stdin_id() -> Option<(u64, u64)> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let metadata = std::fs::metadata("/dev/stdin").ok()?;
        metadata.is_file().then(|| (metadata.dev(), metadata.ino()))
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// Every file under `folder` (links not followed), with its identity; a report folder is
/// small, and a deep one is not the tool's anyway.
fn files_under(folder: &Path) -> Vec<((u64, u64), PathBuf)> {
    const MOST: usize = 100_000;
    let mut found = Vec::new();
    let mut to_visit = vec![folder.to_path_buf()];
    while let Some(directory) = to_visit.pop() {
        let Ok(entries) = std::fs::read_dir(&directory) else {
            continue;
        };
        for entry in entries.flatten() {
            if found.len() >= MOST {
                return found;
            }
            match entry.file_type() {
                Ok(kind) if kind.is_dir() => to_visit.push(entry.path()),
                Ok(kind) if kind.is_file() => {
                    if let Some(id) = file_id(&entry.path()) {
                        found.push((id, entry.path()));
                    }
                }
                _ => {}
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn never_legacy(_: &Path) -> Option<Vec<String>> {
        None
    }

    fn out(path: &Path) -> Destination {
        Destination::parse(path.to_str().unwrap())
    }

    fn report_folder(parent: &Path) -> PathBuf {
        let folder = parent.join("report");
        crate::files::write_directory(
            &folder,
            &[("index.html".to_string(), b"page".to_vec())],
            never_legacy,
            false,
        )
        .unwrap();
        folder
    }

    #[test]
    fn inputs_inside_the_report_folder_are_refused_even_forced() {
        let _turn = crate::files::cleanup::tests::take_turn();
        let parent = tempfile::tempdir().unwrap();
        let folder = report_folder(parent.path());
        let shard = folder.join("s1.json");
        std::fs::write(&shard, "{}").unwrap();
        for force in [false, true] {
            let message = Plan::new(force)
                .reads(&shard)
                .replaces("--report", Some(&folder))
                .check(never_legacy)
                .unwrap_err()
                .to_string();
            assert_eq!(
                message,
                format!(
                    "{} is an input and lies inside the report directory {}, which --report replaces as \
                     a whole; move it out first, or give --report another directory",
                    shard.display(),
                    folder.display()
                )
            );
        }
        assert!(shard.exists());
    }

    #[cfg(unix)]
    #[test]
    fn an_input_reached_through_a_link_or_a_hard_link_is_recognised() {
        let _turn = crate::files::cleanup::tests::take_turn();
        let parent = tempfile::tempdir().unwrap();
        let folder = report_folder(parent.path());
        let inside = folder.join("in.txt");
        std::fs::write(&inside, "A B C\n").unwrap();
        let link = parent.path().join("link.txt");
        std::os::unix::fs::symlink(&inside, &link).unwrap();
        let hard = parent.path().join("hard.txt");
        std::fs::hard_link(&inside, &hard).unwrap();
        for input in [&link, &hard] {
            let refused = Plan::new(true)
                .reads(input)
                .replaces("--report", Some(&folder))
                .check(never_legacy);
            assert!(refused.is_err(), "{}", input.display());
        }
    }

    #[test]
    fn outputs_that_replace_inputs_or_each_other_are_refused() {
        let _turn = crate::files::cleanup::tests::take_turn();
        let parent = tempfile::tempdir().unwrap();
        let input = parent.path().join("samples.txt");
        std::fs::write(&input, "A B\n").unwrap();
        let message = Plan::new(false)
            .reads(&input)
            .writes("--json", Some(&out(&input)))
            .check(never_legacy)
            .unwrap_err()
            .to_string();
        assert!(message.starts_with("--json names"), "{message}");
        assert!(message.contains("which is also an input"), "{message}");
        let both = parent.path().join("both.out");
        let message = Plan::new(false)
            .writes("--json", Some(&out(&both)))
            .writes("--csv", Some(&out(&both)))
            .check(never_legacy)
            .unwrap_err()
            .to_string();
        assert!(message.contains("--json and --csv both name"), "{message}");
        let message = Plan::new(false)
            .writes("--json", Some(&Destination::Stdout))
            .writes("--csv", Some(&Destination::Stdout))
            .check(never_legacy)
            .unwrap_err()
            .to_string();
        assert!(message.contains("cannot both go to standard output"), "{message}");
    }

    #[test]
    fn an_output_inside_the_report_folder_is_refused() {
        let _turn = crate::files::cleanup::tests::take_turn();
        let parent = tempfile::tempdir().unwrap();
        let folder = report_folder(parent.path());
        let message = Plan::new(true)
            .writes("--json", Some(&out(&folder.join("run.json"))))
            .replaces("--report", Some(&folder))
            .check(never_legacy)
            .unwrap_err()
            .to_string();
        assert!(message.contains("is inside the report directory"), "{message}");
        // Beside the folder is fine, and the folder's path comes back resolved.
        let target = Plan::new(false)
            .reads(&parent.path().join("elsewhere.txt"))
            .writes("--json", Some(&out(&parent.path().join("run.json"))))
            .replaces("--report", Some(&folder))
            .check(never_legacy)
            .unwrap();
        assert_eq!(target, Some(std::fs::canonicalize(&folder).unwrap()));
    }
}
