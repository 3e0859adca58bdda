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

/// Runs `line` and parses the JSON written to standard output. The exit status must be
/// the verdict's, as the JSON gives it: 0 when `all_as_expected` is true, 1 when it is
/// false (and 0 for commands without verdicts). So every test that reads JSON also
/// checks that the two never disagree.
#[allow(
    dead_code,
    reason = "each test file compiles this module; not all of them read JSON"
)]
pub fn json_of(line: &str) -> Value {
    let mut run = command(line);
    run.args(["--json", "-"]);
    let output = exits_as_its_json(run, None);
    serde_json::from_slice(&output.stdout).expect("checked by exits_as_its_json")
}

/// The exit status a command's JSON calls for: 1 when `all_as_expected` is false, else 0.
#[allow(
    dead_code,
    reason = "each test file compiles this module; not all of them read JSON"
)]
pub fn status_of(json: &Value) -> i32 {
    match json.get("all_as_expected").and_then(Value::as_bool) {
        Some(false) => 1,
        _ => 0,
    }
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

/// Runs `command`, which writes JSON to `json_file` (or, without one, to standard
/// output), and checks that its exit status is the verdict's the JSON gives
/// ([`status_of`]). For runs whose verdicts differ from the catalogue's by design (a
/// flawed source, too few trials): the exit status must still say what the JSON says.
#[allow(
    dead_code,
    reason = "each test file compiles this module; not all of them read JSON"
)]
pub fn exits_as_its_json(mut command: Command, json_file: Option<&std::path::Path>) -> std::process::Output {
    let output = command.output().unwrap();
    let json: Value = match json_file {
        Some(path) => serde_json::from_slice(&std::fs::read(path).unwrap()),
        None => serde_json::from_slice(&output.stdout),
    }
    .unwrap_or_else(|error| {
        panic!(
            "no JSON ({error}); standard error: {}",
            String::from_utf8_lossy(&output.stderr)
        )
    });
    assert_eq!(
        output.status.code(),
        Some(status_of(&json)),
        "the exit status and the JSON disagree; standard error: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// `samples` lines, each a deck of `names` shuffled by `algorithm` from seed `seed`.
#[allow(
    dead_code,
    reason = "each test file compiles this module; not all of them make samples"
)]
pub fn shuffled_lines(algorithm: &str, names: &[&str], samples: usize, seed: u64) -> String {
    let algorithm = shuffle_audit::catalogue::AlgorithmSpec::parse(algorithm)
        .unwrap()
        .algorithm
        .as_permutation()
        .unwrap();
    let mut rng = shuffle_audit::SimulationSource::from_seed(seed);
    let mut workspace = shuffle_audit::catalogue::Workspace::default();
    let mut out = String::new();
    for _ in 0..samples {
        let mut deck: Vec<usize> = (0..names.len()).collect();
        algorithm.shuffle(&mut deck, &mut rng, &mut workspace);
        let line: Vec<&str> = deck.iter().map(|&card| names[card]).collect();
        out.push_str(&line.join(" "));
        out.push('\n');
    }
    out
}
