//! `command` cases: an outside program (a shuffle written in any language) prints samples
//! on standard output, and `ingest` audits them.
//!
//! The program is run directly (`command = ["prog", "arg"]`) or through `sh -c`
//! (`command = "prog --seed {seed} | tail -n +2"`). Its standard output is piped into the
//! audit, its standard error passes through to ours (so its own diagnostics stay visible),
//! and its standard input is empty. `{seed}` and `{trials}` in the command are replaced by
//! the run's seed and trials, which is what lets a suspicious first run be confirmed: the
//! re-run asks the program for an independent seed and four times the samples. Without
//! `{seed}` a re-run would read the same samples again, so a suspicious result stays
//! suspicious (and the output says why).
//!
//! A program that cannot be started is a configuration error (the whole `check` stops,
//! exit 2); a program that exits with an error makes its case an error (`check` goes on
//! and exits 1), since its output cannot be trusted.

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::Duration;

use serde::Deserialize;

use super::watchdog::{Watchdog, own_process_group};
use super::{Findings, RunOutcome};
use crate::error::{Error, Result};
use crate::format::escaped_for_terminals;
use crate::ingest::{IngestSettings, Input, ingest};
use crate::simulate::NoProgress;

/// The placeholder replaced by the run's seed.
pub const SEED_PLACEHOLDER: &str = "{seed}";
/// The placeholder replaced by the run's trials.
pub const TRIALS_PLACEHOLDER: &str = "{trials}";

/// How the program is started.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum CommandLine {
    /// A shell command, run with `sh -c`.
    Shell(String),
    /// A program and its arguments, run directly (no shell, no quoting).
    Program(Vec<String>),
}

impl CommandLine {
    /// Every word a placeholder may appear in.
    fn words(&self) -> &[String] {
        match self {
            CommandLine::Shell(text) => std::slice::from_ref(text),
            CommandLine::Program(words) => words,
        }
    }

    /// Whether `placeholder` appears anywhere in it.
    pub fn contains(&self, placeholder: &str) -> bool {
        self.words().iter().any(|word| word.contains(placeholder))
    }

    /// The command with `{seed}` and `{trials}` replaced.
    pub fn substituted(&self, seed: u64, trials: u64) -> CommandLine {
        let fill = |word: &String| {
            word.replace(SEED_PLACEHOLDER, &seed.to_string())
                .replace(TRIALS_PLACEHOLDER, &trials.to_string())
        };
        match self {
            CommandLine::Shell(text) => CommandLine::Shell(fill(text)),
            CommandLine::Program(words) => CommandLine::Program(words.iter().map(fill).collect()),
        }
    }

    /// The program that is started: `sh` for a shell command.
    pub fn program(&self) -> &str {
        match self {
            CommandLine::Shell(_) => "sh",
            CommandLine::Program(words) => words.first().map_or("", String::as_str),
        }
    }

    /// The command as one line, for the table and error messages: control and
    /// bidirectional characters escaped (`\u{1b}`), so that a config cannot drive the
    /// terminal of whoever reads the log, nor put bytes XML forbids into JUnit.
    pub fn display(&self) -> String {
        escaped_for_terminals(&match self {
            CommandLine::Shell(text) => text.clone(),
            CommandLine::Program(words) => words.join(" "),
        })
    }

    fn to_process(&self) -> Command {
        match self {
            CommandLine::Shell(text) => {
                let mut command = Command::new("sh");
                command.arg("-c").arg(text);
                command
            }
            CommandLine::Program(words) => {
                let mut command = Command::new(&words[0]);
                command.args(&words[1..]);
                command
            }
        }
    }
}

/// A case that audits an outside program's output.
#[derive(Clone, Debug, PartialEq)]
pub struct CommandCase {
    /// The program, placeholders not yet filled in.
    pub line: CommandLine,
    /// The value of `{trials}` for the first run (required when the command has it).
    pub trials: Option<u64>,
    /// How its output is read, as `ingest` would read it (checked when the suite was
    /// read, with the suite's threads and α).
    pub ingest: IngestSettings,
    /// How long one run of the program may take before it is killed.
    pub timeout: Duration,
}

/// How long a program may run when its case gives no `timeout`: ten minutes, far more
/// than printing millions of samples takes, far less than a CI job's limit.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(600);

impl CommandCase {
    /// Whether a re-run can ask the program for independent samples.
    pub fn takes_seed(&self) -> bool {
        self.line.contains(SEED_PLACEHOLDER)
    }

    /// Runs the program once with this seed and these trials and audits its output.
    ///
    /// `Err` (the suite stops, exit 2) when the program cannot be started; `Ok(Err(..))`
    /// (the case is an error) when it exits with an error.
    pub fn run(&self, case: &str, seed: u64, trials: u64) -> Result<RunOutcome> {
        let line = self.line.substituted(seed, trials);
        let mut process = line.to_process();
        own_process_group(&mut process);
        process
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        // Registered while it runs: an interrupted `check` kills the program's group.
        let (mut child, _running) = crate::files::spawn_registered(&mut process).map_err(|error| {
            let why = match error.kind() {
                std::io::ErrorKind::NotFound => "program not found".to_string(),
                std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
                _ => error.to_string(),
            };
            Error::Usage(format!(
                "case '{case}': cannot start '{}': {why}",
                escaped_for_terminals(line.program())
            ))
        })?;
        let stdout = child.stdout.take().expect("standard output is piped");
        let watchdog = Watchdog::start(child.id(), self.timeout);
        let audited = ingest_output(stdout, &line.display(), &self.ingest);
        let outcome = self.finish(case, &line, &mut child, audited);
        if watchdog.stop() {
            // Whatever was read before the kill is not the program's whole output.
            return Ok(Err(format!(
                "case '{case}': the command did not finish within {} s (its `timeout`) and was killed: {}",
                self.timeout.as_secs(),
                line.display()
            )));
        }
        outcome
    }

    /// Waits for the program and reads its outcome together with the audit's.
    fn finish(
        &self,
        case: &str,
        line: &CommandLine,
        child: &mut std::process::Child,
        audited: Result<RunOutcome>,
    ) -> Result<RunOutcome> {
        if matches!(audited, Ok(Err(_)) | Err(_)) {
            // The audit stopped, perhaps before the end of the output. Its end of the pipe
            // is closed, so a program still writing gets a broken pipe and ends; one that
            // ignores that is killed after a grace period. A program that failed on its
            // own comes first in the message, the audit's finding after it.
            let failure = ended_with_failure(child);
            return audited.map(|outcome| {
                outcome.map_err(|problem| match failure {
                    Some(failure) => format!(
                        "case '{case}': the command {failure}: {} (and its output: {problem})",
                        line.display()
                    ),
                    None => format!("case '{case}': the output of {}: {problem}", line.display()),
                })
            });
        }
        let status = child.wait().map_err(|error| {
            Error::Usage(format!(
                "case '{case}': waiting for '{}': {error}",
                line.program()
            ))
        })?;
        if !status.success() {
            // Its output is not to be trusted, whatever the audit made of it.
            let how = match status.code() {
                Some(code) => format!("exited with status {code}"),
                None => "was killed by a signal".to_string(),
            };
            return Ok(Err(format!(
                "case '{case}': the command {how}: {}",
                line.display()
            )));
        }
        audited
    }
}

/// Waits a moment for a program whose output was abandoned and kills it if it is still
/// running; `Some("exited with status 3")` when it ended on a failure of its own (not a
/// broken pipe, not our kill).
fn ended_with_failure(child: &mut std::process::Child) -> Option<String> {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(2);
    loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                return status
                    .code()
                    .filter(|&code| code != 0)
                    .map(|code| format!("exited with status {code}"));
            }
            Ok(None) if std::time::Instant::now() < deadline => {
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
        }
    }
}

/// Audits a program's output with `ingest`, as `shuffle-audit ingest` would read it.
///
/// `Ok(Err(..))` when the output is not a valid sample file (a malformed line, no
/// samples): that is the case's failure, not a mistake in the suite.
fn ingest_output(
    output: impl Read + Send + 'static,
    source: &str,
    settings: &IngestSettings,
) -> Result<RunOutcome> {
    match ingest(Input::reader(output), source, settings, &NoProgress) {
        Ok(report) => Ok(Ok(Findings {
            samples_read: Some(report.samples()),
            predictable: report.input().predictable().map(|found| found.sentence()),
            ..Findings::from_tests(report.verdict(), report.tests(), report.samples(), settings.alpha)
        })),
        Err(Error::Input(problem)) => Ok(Err(problem)),
        Err(error) => Err(error),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_filled_in_every_word() {
        let shell = CommandLine::Shell("prog --seed {seed} -n {trials} # {seed}".to_string());
        assert!(shell.contains(SEED_PLACEHOLDER));
        assert_eq!(shell.substituted(7, 400).display(), "prog --seed 7 -n 400 # 7");
        let program = CommandLine::Program(vec!["prog".into(), "--seed={seed}".into(), "{trials}".into()]);
        assert_eq!(
            program.substituted(1, 2),
            CommandLine::Program(vec!["prog".into(), "--seed=1".into(), "2".into()])
        );
        let fixed = CommandLine::Program(vec!["prog".into(), "samples.txt".into()]);
        assert!(!fixed.contains(SEED_PLACEHOLDER));
        assert_eq!(fixed.substituted(1, 2), fixed);
    }
}
