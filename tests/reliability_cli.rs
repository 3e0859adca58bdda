//! Nothing lost, no verdict lost: each case of the reliability promise, run as users run
//! it. Inputs inside a report folder are never deleted, a report folder with files the
//! report did not write is kept unless forced, a closed pipe or descriptor never changes
//! the exit status, signals leave no temporary behind and the target untouched, a killed
//! run's temporaries are swept by the next run, and one verdict is said the same way in
//! the headline, JSON, CSV, JUnit, the HTML page and the exit status.

#![cfg(unix)]

mod binary;

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use binary::{command, shuffle_audit, shuffled_lines, write_file};
use predicates::prelude::*;
use serde_json::Value;

const BINARY: &str = env!("CARGO_BIN_EXE_shuffle-audit");

/// The names in `dir`, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

/// Whether `dir` holds a temporary of ours.
fn temporaries_in(dir: &Path) -> Vec<String> {
    listing(dir)
        .into_iter()
        .filter(|name| name.starts_with(".shuffle-audit-") && name.ends_with(".tmp"))
        .collect()
}

/// A report folder written by `run`, and the shards of a small run saved into it.
fn report_with_shards(dir: &Path) -> (PathBuf, Vec<PathBuf>) {
    let report = dir.join("r4");
    command("run naive-swap --n 3 --trials 60000 --seed 5 --report")
        .arg(&report)
        .assert()
        .success();
    let shards = (1..=3)
        .map(|i| {
            let shard = report.join(format!("s{i}.json"));
            command(&format!(
                "run naive-swap --n 3 --trials 60000 --seed 5 --shard {i}/3 --json"
            ))
            .arg(&shard)
            .assert()
            .success();
            shard
        })
        .collect();
    (report, shards)
}

#[test]
fn inputs_inside_the_report_folder_being_replaced_are_never_deleted() {
    let dir = tempfile::tempdir().unwrap();
    let (report, shards) = report_with_shards(dir.path());
    let before: Vec<Vec<u8>> = shards.iter().map(|s| std::fs::read(s).unwrap()).collect();
    for force in [false, true] {
        let mut merge = shuffle_audit();
        merge.arg("merge").args(&shards).arg("--report").arg(&report);
        if force {
            merge.arg("--force");
        }
        merge.assert().code(2).stderr(format!(
            "shuffle-audit: error: {} is an input and lies inside the report directory {}, which \
             --report replaces as a whole; move it out first, or give --report another directory\n",
            shards[0].display(),
            report.display()
        ));
    }
    let after: Vec<Vec<u8>> = shards.iter().map(|s| std::fs::read(s).unwrap()).collect();
    assert_eq!(before, after, "the shards are intact");

    // ingest r3/in.txt --report r3, and the same file as standard input.
    let r3 = dir.path().join("r3");
    let samples = shuffled_lines("fisher-yates", &["A", "B", "C"], 6_000, 1);
    let outside = write_file(dir.path(), "in.txt", &samples);
    command("ingest --report")
        .arg(&r3)
        .arg(&outside)
        .assert()
        .success();
    let inside = write_file(&r3, "in.txt", &samples);
    command("ingest --report")
        .arg(&r3)
        .arg(&inside)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "is an input and lies inside the report directory",
        ));
    // `ingest - < r3/in.txt`: standard input is the file itself (not a pipe).
    let output = Command::new(BINARY)
        .args(["ingest", "-", "--report"])
        .arg(&r3)
        .stdin(std::fs::File::open(&inside).unwrap())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.contains(&format!(
            "standard input ({}) is an input and lies inside",
            std::fs::canonicalize(&inside).unwrap().display()
        )),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&inside).unwrap(), samples);
}

#[test]
fn a_report_folder_with_files_the_report_did_not_write_is_kept_unless_forced() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("report");
    let run = |extra: &[&str]| {
        let mut run = command("run naive-swap --n 3 --trials 60000 --seed 5 --report");
        run.arg(&report).args(extra);
        run
    };
    run(&[]).assert().success();
    assert!(report.join(".shuffle-audit-manifest.json").exists());
    std::fs::write(report.join("notes.txt"), "my notes").unwrap();
    run(&[]).assert().code(2).stderr(predicate::str::contains(
        "it holds a file the report did not write: notes.txt; move it out, or give --force to \
         replace the directory anyway",
    ));
    assert_eq!(
        std::fs::read_to_string(report.join("notes.txt")).unwrap(),
        "my notes"
    );
    run(&["--force"]).assert().success();
    assert!(
        !report.join("notes.txt").exists(),
        "forced, the folder is replaced whole"
    );
    // A folder the tool never wrote is refused, forced or not.
    let mine = dir.path().join("mine");
    std::fs::create_dir(&mine).unwrap();
    std::fs::write(mine.join("thesis.tex"), "years").unwrap();
    command("run naive-swap --n 3 --trials 60000 --seed 5 --force --report")
        .arg(&mine)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "holds something other than a shuffle-audit report",
        ));
    assert_eq!(listing(&mine), ["thesis.tex"]);
}

/// Runs `args` with standard output treated as `how` and gives the exit code.
enum Reader {
    /// `| true`: the pipe is closed before anything is read.
    GoneAtOnce,
    /// `| head -c 1`: one byte is read, then the pipe is closed.
    OneByte,
    /// `>&-`: descriptor 1 is closed before the program starts.
    ClosedDescriptor,
    /// `2>&1 | head -c 1`: standard error goes the same way as standard output.
    BothGone,
}

fn exit_code_with(args: &[&str], reader: Reader, stdin: Option<&Path>) -> i32 {
    let mut process = Command::new(BINARY);
    process.args(args).stderr(Stdio::null());
    if let Some(path) = stdin {
        process.stdin(std::fs::File::open(path).unwrap());
    }
    match reader {
        Reader::ClosedDescriptor => {
            // SAFETY: only close(2), which is async-signal-safe, runs in the child.
            unsafe {
                process.pre_exec(|| {
                    libc_close(1);
                    Ok(())
                });
            }
            process.stdout(Stdio::inherit());
            process.status().unwrap().code().unwrap()
        }
        Reader::GoneAtOnce | Reader::OneByte | Reader::BothGone => {
            process.stdout(Stdio::piped());
            if matches!(reader, Reader::BothGone) {
                // SAFETY: only dup2(2), which is async-signal-safe, runs in the child.
                unsafe {
                    process.pre_exec(|| {
                        libc_dup2(1, 2);
                        Ok(())
                    });
                }
            }
            let mut child = process.spawn().unwrap();
            let mut stdout = child.stdout.take().unwrap();
            if !matches!(reader, Reader::GoneAtOnce) {
                let mut byte = [0u8; 1];
                let _ = stdout.read(&mut byte);
            }
            drop(stdout);
            child.wait().unwrap().code().unwrap()
        }
    }
}

fn libc_close(fd: i32) {
    // SAFETY: closing a descriptor number is defined whatever it refers to.
    unsafe {
        libc::close(fd);
    }
}

fn libc_dup2(old: i32, new: i32) {
    // SAFETY: dup2 on two descriptor numbers.
    unsafe {
        libc::dup2(old, new);
    }
}

#[test]
fn the_exit_status_is_the_verdicts_whatever_happens_to_standard_output() {
    let dir = tempfile::tempdir().unwrap();
    let biased = write_file(dir.path(), "biased.txt", "A B C\n".repeat(30_000));
    let fair = write_file(
        dir.path(),
        "fair.txt",
        shuffled_lines("fisher-yates", &["A", "B", "C"], 30_000, 7),
    );
    let gate = write_file(
        dir.path(),
        "gate.toml",
        "[[case]]\nalgorithm = \"naive-swap\"\nn = 3\ntrials = 60000\nexpect = \"fair\"\n",
    );
    let shards: Vec<String> = (1..=2)
        .map(|i| {
            let path = dir.path().join(format!("s{i}.json"));
            command(&format!(
                "run fisher-yates --n 7 --trials 60000 --seed 4 --shard {i}/2 --json"
            ))
            .arg(&path)
            .assert()
            .success();
            path.to_str().unwrap().to_string()
        })
        .collect();
    // Each command with the status its verdict calls for: a biased sample or a failing
    // gate is 1 whatever the reader does; a pass is 0. The outputs are long enough
    // (tables of 7! and 8! orders) that the writer meets the closed pipe.
    let cases: Vec<(Vec<&str>, i32)> = vec![
        (vec!["ingest", &biased], 1),
        (vec!["ingest", &fair], 0),
        (vec!["ingest", &biased, "--csv", "-"], 1),
        (vec!["check", "--config", &gate], 1),
        (
            vec![
                "run",
                "fisher-yates",
                "--n",
                "8",
                "--trials",
                "100",
                "--seed",
                "1",
            ],
            1,
        ),
        (
            vec![
                "run",
                "naive-swap",
                "--n",
                "8",
                "--trials",
                "100000",
                "--seed",
                "1",
                "--csv",
                "-",
            ],
            0,
        ),
        (vec!["merge", &shards[0], &shards[1], "--json", "-"], 0),
        // At alpha 0.999999 a fair run fails unless every adjusted p is 1: at seed 4 one
        // is below (deterministic; seed 3 passed once the draws were batched, issue 33).
        (vec!["merge", &shards[0], &shards[1], "--alpha", "0.999999"], 1),
    ];
    for (args, wanted) in &cases {
        for reader in [
            Reader::GoneAtOnce,
            Reader::OneByte,
            Reader::ClosedDescriptor,
            Reader::BothGone,
        ] {
            let name = match reader {
                Reader::GoneAtOnce => "| true",
                Reader::OneByte => "| head -c 1",
                Reader::ClosedDescriptor => ">&-",
                Reader::BothGone => "2>&1 | head -c 1",
            };
            assert_eq!(
                exit_code_with(args, reader, None),
                *wanted,
                "{} {name}",
                args.join(" ")
            );
        }
    }
    // Standard input a file, standard output a closed pipe.
    assert_eq!(
        exit_code_with(&["ingest", "-"], Reader::GoneAtOnce, Some(Path::new(&biased))),
        1
    );
}

/// What the export target holds before each signalled run: a run that is stopped must
/// leave it as it is.
const OLD_EXPORT: &str = "the old export";

/// Starts `args`, waits until a temporary appears in `dir` (the export is being
/// written), and sends `signal`; gives the exit code. `None` when the signal missed the
/// write: the run ended before a temporary was seen, or it finished writing `target`
/// (which is then reset to [`OLD_EXPORT`]) before the signal landed, as an idle machine
/// can when the write takes only some milliseconds.
fn signal_while_writing(args: &[&str], dir: &Path, target: &Path, signal: i32) -> Option<i32> {
    use std::os::unix::process::CommandExt;
    let mut command = Command::new(BINARY);
    // The program keeps a signal that was ignored when it started ignored (as `nohup`
    // asks for SIGHUP), and a test run under `nohup` or as a shell's background job
    // passes such dispositions on: give the child the defaults, so that what is tested is
    // the handler and not the test's surroundings.
    // SAFETY: only signal(2), which is async-signal-safe, runs between fork and exec.
    unsafe {
        command.pre_exec(|| {
            for handled in [libc::SIGHUP, libc::SIGINT, libc::SIGTERM] {
                libc::signal(handled, libc::SIG_DFL);
            }
            Ok(())
        });
    }
    let mut child = command
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while temporaries_in(dir).is_empty() {
        if started.elapsed() > Duration::from_secs(60) || child.try_wait().unwrap().is_some() {
            let _ = child.kill();
            return None;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    // Sent directly, not through a `kill` process, so that it lands while the write lasts.
    let pid = i32::try_from(child.id()).expect("a process id fits in pid_t");
    // SAFETY: kill(2) with the pid of our own child, which has not been waited for yet.
    assert_eq!(unsafe { libc::kill(pid, signal) }, 0, "kill -{signal} {pid}");
    let status = child.wait().unwrap();
    use std::os::unix::process::ExitStatusExt;
    // The write may have ended (its temporary renamed over the target) between the look
    // that saw the temporary and the signal: the signal then lands on a program that has
    // nothing left to clean, whatever status it ends with. A loaded machine makes that
    // likelier; it is not what is tested, so try again.
    let finished_first = std::fs::read_to_string(target).map_or(true, |text| text != OLD_EXPORT);
    if finished_first {
        std::fs::write(target, OLD_EXPORT).unwrap();
        return None;
    }
    Some(status.code().unwrap_or_else(|| 128 + status.signal().unwrap()))
}

#[test]
fn signals_remove_the_temporary_and_leave_the_target_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("out.json");
    let target_text = target.to_str().unwrap().to_string();
    // 9 cards: a JSON export of 362,880 orders, tens of megabytes, written after the run.
    let args = [
        "run",
        "fisher-yates",
        "--n",
        "9",
        "--trials",
        "400000",
        "--seed",
        "1",
        "--json",
        &target_text,
    ];
    for (signal, wanted) in [(15, 143), (1, 129), (2, 130)] {
        std::fs::write(&target, OLD_EXPORT).unwrap();
        let mut caught = None;
        // The writing lasts a fraction of a second: try again in the unlikely case the
        // whole write fell between two looks.
        for _ in 0..5 {
            caught = signal_while_writing(&args, dir.path(), &target, signal);
            if caught.is_some() {
                break;
            }
            std::fs::write(&target, OLD_EXPORT).unwrap();
        }
        assert_eq!(caught, Some(wanted), "signal {signal}");
        assert_eq!(
            std::fs::read_to_string(&target).unwrap(),
            OLD_EXPORT,
            "signal {signal}: the target is untouched"
        );
        assert_eq!(
            temporaries_in(dir.path()),
            Vec::<String>::new(),
            "signal {signal}"
        );
    }
    // SIGKILL cannot be handled: the temporary stays, and the next run that writes into
    // the same folder removes it.
    let mut caught = None;
    for _ in 0..5 {
        caught = signal_while_writing(&args, dir.path(), &target, 9);
        if caught.is_some() {
            break;
        }
    }
    assert_eq!(caught, Some(137));
    assert_eq!(
        temporaries_in(dir.path()).len(),
        1,
        "SIGKILL leaves its temporary"
    );
    command("run naive-swap --n 3 --trials 60000 --seed 1 --json")
        .arg(dir.path().join("other.json"))
        .assert()
        .success();
    assert_eq!(
        temporaries_in(dir.path()),
        Vec::<String>::new(),
        "swept by the next run"
    );
    assert_eq!(std::fs::read_to_string(&target).unwrap(), OLD_EXPORT);
}

#[test]
fn two_runs_writing_one_target_at_once_leave_one_whole_file() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("out.json");
    let children: Vec<_> = [1, 2]
        .iter()
        .map(|seed| {
            Command::new(BINARY)
                .args(format!("run fisher-yates --n 7 --trials 300000 --seed {seed} --json").split(' '))
                .arg(&target)
                .stdout(Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut child in children {
        assert!(child.wait().unwrap().success());
    }
    let json: Value = serde_json::from_slice(&std::fs::read(&target).unwrap()).unwrap();
    assert!(json["seed"] == 1 || json["seed"] == 2);
    assert_eq!(listing(dir.path()), ["out.json"]);
}

#[test]
fn links_are_followed_to_the_end_and_read_only_files_need_force() {
    let dir = tempfile::tempdir().unwrap();
    // l1 -> l2 -> missing: the final target is created, the links stay.
    std::os::unix::fs::symlink("l2", dir.path().join("l1")).unwrap();
    std::os::unix::fs::symlink("missing", dir.path().join("l2")).unwrap();
    command("run naive-swap --n 3 --trials 60000 --seed 1 --json")
        .arg(dir.path().join("l1"))
        .assert()
        .success();
    let written: Value = serde_json::from_slice(&std::fs::read(dir.path().join("missing")).unwrap()).unwrap();
    assert_eq!(written["seed"], 1);
    for link in ["l1", "l2"] {
        assert!(
            std::fs::symlink_metadata(dir.path().join(link))
                .unwrap()
                .file_type()
                .is_symlink()
        );
    }
    // A read-only file (mode 0444) is kept, and said so, unless --force.
    use std::os::unix::fs::PermissionsExt;
    let kept = dir.path().join("kept.json");
    std::fs::write(&kept, "precious").unwrap();
    std::fs::set_permissions(&kept, std::fs::Permissions::from_mode(0o444)).unwrap();
    command("run naive-swap --n 3 --trials 60000 --seed 1 --json")
        .arg(&kept)
        .assert()
        .code(2)
        .stderr(format!(
            "shuffle-audit: error: cannot write {}: it is read-only (mode 0444); give --force to \
             replace it anyway\n",
            kept.display()
        ));
    assert_eq!(std::fs::read_to_string(&kept).unwrap(), "precious");
    command("run naive-swap --n 3 --trials 60000 --seed 1 --force --json")
        .arg(&kept)
        .assert()
        .success();
    assert!(std::fs::read_to_string(&kept).unwrap().starts_with('{'));
}

#[test]
fn one_verdict_is_said_the_same_way_everywhere() {
    // 1,000 six-card deals: too few for the 720 orders, so the verdict is inconclusive in
    // the headline, JSON, CSV, the HTML page and the exit status.
    let dir = tempfile::tempdir().unwrap();
    let decks = write_file(
        dir.path(),
        "d6.txt",
        shuffled_lines("fisher-yates", &["A", "B", "C", "D", "E", "F"], 1_000, 3),
    );
    let (json, csv, report) = (
        dir.path().join("d6.json"),
        dir.path().join("d6.csv"),
        dir.path().join("report"),
    );
    let output = command("ingest")
        .arg(&decks)
        .arg("--json")
        .arg(&json)
        .arg("--csv")
        .arg(&csv)
        .arg("--report")
        .arg(&report)
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "inconclusive: too few samples (1000) for every test to run; they need at least 3601",
        ));
    let stdout = String::from_utf8(output.get_output().stdout.clone()).unwrap();
    assert!(
        stdout.contains(": INCONCLUSIVE (tested against: a fair shuffle)"),
        "{stdout}"
    );
    let json: Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(json["results"][0]["verdict"], "inconclusive");
    assert_eq!(json["all_as_expected"], false);
    let csv = std::fs::read_to_string(&csv).unwrap();
    assert!(
        csv.trim_end().ends_with(",verdict,inconclusive,fair,,"),
        "{}",
        csv.lines().last().unwrap()
    );
    let page = std::fs::read_to_string(report.join("index.html")).unwrap();
    assert!(page.contains("INCONCLUSIVE") || page.contains("inconclusive"));
    assert!(!page.contains(">PASS<"), "no badge says pass");

    // JUnit: a check case with too few trials is an inconclusive failure, exit 1.
    let gate = write_file(
        dir.path(),
        "gate.toml",
        "[[case]]\nalgorithm = \"fisher-yates\"\nn = 6\ntrials = 1000\nexpect = \"fair\"\n",
    );
    let junit = dir.path().join("junit.xml");
    command("check --config")
        .arg(&gate)
        .arg("--junit")
        .arg(&junit)
        .assert()
        .code(1);
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(xml.contains("inconclusive"), "{xml}");
}

#[test]
fn the_smaller_ones() {
    let dir = tempfile::tempdir().unwrap();
    // exact refuses a path longer than 10,000 draws at once, even for 10 cards.
    for n in ["4", "10"] {
        command(&format!("exact naive-repeated:4294967295 --n {n}"))
            .timeout(Duration::from_secs(10))
            .assert()
            .code(2)
            .stderr(predicate::str::contains(
                "draws on every path, and enumeration follows paths of at most 10,000 draws",
            ));
    }
    // Control characters in a check command never reach the terminal raw.
    let gate = write_file(
        dir.path(),
        "gate.toml",
        "[[case]]\ncommand = \"sh -c 'exit 3' \\u001b[31m\"\nexpect = \"fair\"\ntrials = 10\n",
    );
    let output = command("check --config").arg(&gate).assert().code(1);
    let all = [
        output.get_output().stdout.clone(),
        output.get_output().stderr.clone(),
    ]
    .concat();
    assert!(!all.contains(&0x1b), "{}", String::from_utf8_lossy(&all));
    assert!(String::from_utf8_lossy(&all).contains("\\u{1b}[31m"));
    // Ingested tokens that a spreadsheet would run as formulas are neutralised.
    let tokens = write_file(dir.path(), "tokens.txt", "=A +B -C @D\n".repeat(10));
    let output = command("ingest --csv -").arg(&tokens).output().unwrap();
    let csv = String::from_utf8(output.stdout).unwrap();
    assert!(csv.contains(",position,'=A,0,"), "{csv}");
    assert!(csv.contains(",position,'-C,"), "{csv}");
    assert!(!csv.contains(",=A"), "{csv}");
    // A shard whose thread count was edited is refused.
    let shard = dir.path().join("s1.json");
    command("run naive-swap --n 3 --trials 60000 --seed 1 --shard 1/2 --json")
        .arg(&shard)
        .assert()
        .success();
    let mut json: Value = serde_json::from_slice(&std::fs::read(&shard).unwrap()).unwrap();
    for threads in [0, u64::MAX] {
        json["threads"] = threads.into();
        let path = write_file(dir.path(), "edited.json", json.to_string());
        command("merge")
            .arg(&path)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(format!(
                "threads is {threads}; a run uses 1 to 256"
            )));
    }
    // One trial: the grammar holds.
    command("run fisher-yates --n 3 --trials 1 --seed 1")
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "too few shuffles to test, and every shuffle gave a possible order",
        ));
}

#[test]
fn a_signal_ignored_at_start_stays_ignored_as_nohup_wants() {
    // `nohup shuffle-audit run ...` ignores SIGHUP: the run must survive a hang-up, and
    // still stop cleanly on SIGTERM.
    let mut run = Command::new(BINARY);
    run.args("run fisher-yates --n 10 --trials 1e9 --seed 1".split(' '))
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    // SAFETY: only signal(2), which is async-signal-safe, runs in the child.
    unsafe {
        run.pre_exec(|| {
            libc::signal(libc::SIGHUP, libc::SIG_IGN);
            Ok(())
        });
    }
    let mut child = run.spawn().unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let pid = child.id().to_string();
    Command::new("kill").args(["-HUP", &pid]).status().unwrap();
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        child.try_wait().unwrap().is_none(),
        "a hang-up ignored at start does not stop it"
    );
    Command::new("kill").args(["-TERM", &pid]).status().unwrap();
    assert_eq!(child.wait().unwrap().code(), Some(143));
}
