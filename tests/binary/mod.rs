//! Running the real binary from the command-line tests: the helpers every test file
//! would otherwise write again (JSON whose exit status must match it, one-line usage
//! errors, shard runs, timing-free JSON to compare runs by).
#![allow(
    dead_code,
    reason = "each test file compiles this module and uses only some of it"
)]

use std::path::{Path, PathBuf};

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
pub fn json_of(line: &str) -> Value {
    let mut run = command(line);
    run.args(["--json", "-"]);
    let output = exits_as_its_json(run, None);
    serde_json::from_slice(&output.stdout).expect("checked by exits_as_its_json")
}

/// The exit status a command's JSON calls for: 1 when `all_as_expected` is false, else 0.
pub fn status_of(json: &Value) -> i32 {
    match json.get("all_as_expected").and_then(Value::as_bool) {
        Some(false) => 1,
        _ => 0,
    }
}

/// Writes `contents` to the file `name` in `dir` and returns its path as text, for the
/// command line.
pub fn write_file(dir: &std::path::Path, name: &str, contents: impl AsRef<[u8]>) -> String {
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path.to_str().unwrap().to_string()
}

/// Runs `command`, which writes JSON to `json_file` (or, without one, to standard
/// output), and checks that its exit status is the verdict's the JSON gives
/// ([`status_of`]). For runs whose verdicts differ from the catalogue's by design (a
/// flawed source, too few trials): the exit status must still say what the JSON says.
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
    assert_valid(&json);
    assert_eq!(
        output.status.code(),
        Some(status_of(&json)),
        "the exit status and the JSON disagree; standard error: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// The committed schema (`schemas/NAME.schema.json`) a document of the binary answers to,
/// by its `command`; `ingest` writes a run's document, or a stream's (`items_spec`).
pub fn schema_name(document: &Value) -> &'static str {
    match document["command"].as_str() {
        Some("ingest") if document.get("items_spec").is_some() => "stream",
        Some("run" | "ingest") => "run",
        Some("stream") => "stream",
        Some("check") => "check",
        Some("exact") => "exact",
        Some("seeds crack") => "crack",
        Some("seeds reach") => "reach",
        Some("seeds recover") => "recover",
        Some("list") => "list",
        other => panic!("a JSON document of no known command: {other:?}"),
    }
}

/// The validator of the committed schema `schemas/NAME.schema.json`.
pub fn validator(name: &str) -> jsonschema::Validator {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("schemas/{name}.schema.json"));
    let schema: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    jsonschema::validator_for(&schema).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

/// Panics, naming every violation, unless `document` validates against its committed
/// schema ([`schema_name`]) and carries its version: every JSON the tests read from the
/// binary through [`exits_as_its_json`] comes here, so a field the schemas do not know,
/// or one they require and the document lacks, fails the tests.
pub fn assert_valid(document: &Value) {
    let name = schema_name(document);
    let errors: Vec<String> = validator(name)
        .iter_errors(document)
        .take(20)
        .map(|error| format!("{error} at {}", error.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "the {name} document does not match schemas/{name}.schema.json:\n{}",
        errors.join("\n")
    );
    assert_eq!(
        document["schema_version"],
        shuffle_audit::output::json::SCHEMA_VERSION,
        "the {name} document's schema_version"
    );
}

/// `samples` lines, each a deck of `names` shuffled by `algorithm` from seed `seed`.
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

/// `json` without what differs between two runs of the same tallies: thread counts,
/// times, speeds and where the seed came from (also in each result).
pub fn without_timing(json: &Value) -> Value {
    let mut json = json.clone();
    let top = json.as_object_mut().unwrap();
    assert!(top.contains_key("threads"), "every run's JSON has its threads");
    for field in [
        "threads",
        "elapsed_seconds",
        "trials_per_second",
        "draws_per_second",
        "seed_origin",
    ] {
        top.remove(field);
    }
    for result in top["results"].as_array_mut().unwrap() {
        result.as_object_mut().unwrap().remove("elapsed_seconds");
    }
    json
}

/// Runs `line` as `count` shards (`--shard i/count`, alternately on 1 and 2 threads),
/// each writing `shard-i-of-count.json` in `dir`, each exit status checked against its
/// JSON; returns the files in shard order.
pub fn shard_files(dir: &Path, line: &str, count: u64) -> Vec<PathBuf> {
    (1..=count)
        .map(|index| {
            let path = dir.join(format!("shard-{index}-of-{count}.json"));
            let mut shard = command(&format!(
                "{line} --shard {index}/{count} --threads {}",
                1 + index % 2
            ));
            shard.arg("--json").arg(&path);
            exits_as_its_json(shard, Some(&path));
            path
        })
        .collect()
}

/// `merge FILES --json -`, its exit status checked against its JSON, parsed.
pub fn merged(files: &[PathBuf]) -> Value {
    let mut merge = shuffle_audit();
    merge.arg("merge").args(files).args(["--json", "-"]);
    let output = exits_as_its_json(merge, None);
    serde_json::from_slice(&output.stdout).unwrap()
}

/// Runs `command`, which must be refused as bad input: exit status 2, nothing on standard
/// output, one line on standard error starting `shuffle-audit: `. Returns that line
/// (without its line break).
pub fn usage_error_of(mut command: Command) -> String {
    let output = command.output().unwrap();
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert!(output.stdout.is_empty(), "{output:?}");
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("shuffle-audit: "), "{stderr}");
    stderr.trim_end().to_string()
}

/// Runs the binary with `args`, sends it SIGINT after `after`, and returns its exit
/// status, standard output and standard error. The child gets SIGINT's default
/// disposition whatever the test's surroundings: the program keeps SIGINT ignored when it
/// started ignored, and a test run as a shell's background job (`.ci/run &`) passes that
/// on, so what is tested is the program's handler and not the test's surroundings.
#[cfg(unix)]
pub fn interrupted_after(
    args: &[&std::ffi::OsStr],
    after: std::time::Duration,
) -> (Option<i32>, String, String) {
    use std::io::Read;
    use std::os::unix::process::CommandExt;
    use std::process::Stdio;
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_shuffle-audit"));
    // SAFETY: only signal(2), which is async-signal-safe, runs between fork and exec.
    unsafe {
        command.pre_exec(|| {
            libc::signal(libc::SIGINT, libc::SIG_DFL);
            Ok(())
        });
    }
    let mut child = command
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(after);
    // SAFETY: kill(2) on the child's pid, which is still ours (it has not been waited for).
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let status = child.wait().unwrap();
    let (mut out, mut err) = (String::new(), String::new());
    child.stdout.take().unwrap().read_to_string(&mut out).unwrap();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    (status.code(), out, err)
}

/// Runs `command` with `stdin` and returns its exit status, standard output and
/// standard error as text.
pub fn text_of(mut command: Command, stdin: &str) -> (i32, String, String) {
    let output = command.write_stdin(stdin.to_string()).output().unwrap();
    (
        output.status.code().unwrap(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}
