//! Running the real binary from the command-line tests.

use assert_cmd::Command;
use serde_json::Value;

/// The binary, without arguments.
pub fn shuffle_audit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_shuffle-audit"))
}

/// The binary with the arguments of `line`, written as on a command line.
pub fn command(line: &str) -> Command {
    let mut command = shuffle_audit();
    command.args(line.split_whitespace());
    command
}

/// Runs `line` and parses the JSON written to standard output.
#[allow(
    dead_code,
    reason = "each test file compiles this module; not all of them read JSON"
)]
pub fn json_of(line: &str) -> Value {
    let output = command(line).args(["--json", "-"]).assert().success();
    serde_json::from_slice(&output.get_output().stdout).expect("valid JSON on standard output")
}

/// Writes `contents` to the file `name` in `dir` and returns its path as text, for the
/// command line.
#[allow(
    dead_code,
    reason = "each test file compiles this module; not all of them write input files"
)]
pub fn write_file(dir: &std::path::Path, name: &str, contents: impl AsRef<[u8]>) -> String {
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path.to_str().unwrap().to_string()
}
