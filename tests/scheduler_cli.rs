//! Shards under a job scheduler, through the real binary: `run --shard auto` with the
//! environment a Slurm array task or a Kubernetes Indexed Job pod gets (set here by the
//! test, the rest of the scheduler's variables removed), `merge` of the directory the
//! tasks wrote into, and the run identity (`run_id`) that keeps the shards of different
//! runs apart. Every refusal is one line with exit status 2.

mod binary;

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use binary::{command, exits_as_its_json, merged, shuffle_audit, usage_error_of, without_timing};
use serde_json::Value;
use shuffle_audit::simulate::scheduler::VARIABLES;

/// 3 full chunks of 16,384 and 5 trials more: 4 chunks, so up to 4 shards.
const TRIALS: u64 = 3 * 16_384 + 5;

fn line(seed: u64) -> String {
    format!("run naive-swap fisher-yates --n 4 --trials {TRIALS} --seed {seed}")
}

fn read_json(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// `line` with none of the scheduler's variables but `environment`.
fn under(line: &str, environment: &[(&str, String)]) -> Command {
    let mut run = command(line);
    for name in VARIABLES {
        run.env_remove(name);
    }
    run.envs(environment.iter().map(|(name, value)| (name, value)));
    run
}

/// The environment of task `id` of `sbatch --array=min-max`.
fn slurm_task(id: u64, min: u64, max: u64) -> Vec<(&'static str, String)> {
    vec![
        ("SLURM_JOB_ID", "811".to_string()),
        ("SLURM_ARRAY_JOB_ID", "810".to_string()),
        ("SLURM_ARRAY_TASK_ID", id.to_string()),
        ("SLURM_ARRAY_TASK_MIN", min.to_string()),
        ("SLURM_ARRAY_TASK_MAX", max.to_string()),
        ("SLURM_ARRAY_TASK_COUNT", (max - min + 1).to_string()),
        ("SLURM_ARRAY_TASK_STEP", "1".to_string()),
    ]
}

/// Runs `line --shard auto {extra}` under `environment`, writing `dir/name`; the exit
/// status is checked against the JSON.
fn auto_shard(dir: &Path, name: &str, line: &str, extra: &str, environment: &[(&str, String)]) -> PathBuf {
    let path = dir.join(name);
    let mut run = under(&format!("{line} --shard auto {extra}"), environment);
    run.arg("--json").arg(&path);
    exits_as_its_json(run, Some(&path));
    path
}

/// `merge DIR --json -`, parsed.
fn merged_directory(dir: &Path) -> Value {
    merged(&[dir.to_path_buf()])
}

#[test]
fn slurm_array_tasks_merge_from_their_directory_into_the_whole_run() {
    let dir = tempfile::tempdir().unwrap();
    let shards = dir.path().join("shards");
    std::fs::create_dir(&shards).unwrap();
    let whole = exits_as_its_json(command(&format!("{} --json -", line(7))), None);
    let whole: Value = serde_json::from_slice(&whole.stdout).unwrap();
    // --array=0-3: task ids from 0 still make shards 1/4 to 4/4.
    for id in 0..4 {
        let file = auto_shard(
            &shards,
            &format!("shard-{id}.json"),
            &line(7),
            "",
            &slurm_task(id, 0, 3),
        );
        let json = read_json(&file);
        assert_eq!(json["shard"]["index"], id + 1);
        assert_eq!(json["shard"]["count"], 4);
        assert_eq!(json["run_id"], whole["run_id"], "a shard is of the whole run");
    }
    let merged = merged_directory(&shards);
    assert_eq!(without_timing(&merged), without_timing(&whole));
    let run_id = whole["run_id"].as_str().unwrap();
    assert_eq!(run_id.len(), 64);
    assert!(run_id.chars().all(|c| c.is_ascii_hexdigit()));
}

#[test]
fn kubernetes_indexed_pods_merge_into_the_whole_run() {
    let dir = tempfile::tempdir().unwrap();
    let whole = exits_as_its_json(command(&format!("{} --json -", line(8))), None);
    let whole: Value = serde_json::from_slice(&whole.stdout).unwrap();
    for index in 0..3 {
        auto_shard(
            dir.path(),
            &format!("shard-{index}.json"),
            &line(8),
            "--shards 3",
            &[("JOB_COMPLETION_INDEX", index.to_string())],
        );
    }
    assert_eq!(
        without_timing(&merged_directory(dir.path())),
        without_timing(&whole)
    );
    // A reproduce line names the shard the scheduler chose, so it runs anywhere.
    let output = under(
        &format!("{} --shard auto --shards 3", line(8)),
        &[("JOB_COMPLETION_INDEX", "1".to_string())],
    )
    .assert()
    .success();
    let text = String::from_utf8_lossy(&output.get_output().stdout).to_string();
    assert!(text.contains("--seed 8 --shard 2/3"), "{text}");
}

#[test]
fn bad_scheduler_environments_are_one_line_errors_naming_the_variables() {
    let refused = |extra: &str, environment: &[(&str, String)], words: &[&str]| {
        let error = usage_error_of(under(&format!("{} {extra}", line(1)), environment));
        for word in words {
            assert!(error.contains(word), "'{word}' not in: {error}");
        }
    };
    let set = |pairs: &[(&'static str, &str)]| -> Vec<(&'static str, String)> {
        pairs
            .iter()
            .map(|(name, value)| (*name, value.to_string()))
            .collect()
    };
    refused(
        "--shard auto",
        &[],
        &[
            "--shard auto: found no scheduler",
            "SLURM_ARRAY_TASK_ID",
            "JOB_COMPLETION_INDEX",
        ],
    );
    refused(
        "--shard auto",
        &set(&[("SLURM_JOB_ID", "12")]),
        &["not a job array"],
    );
    let mut stepped = slurm_task(3, 1, 7);
    stepped.push(("SLURM_ARRAY_TASK_STEP", "2".to_string()));
    stepped.push(("SLURM_ARRAY_TASK_COUNT", "4".to_string()));
    refused("--shard auto", &stepped, &["SLURM_ARRAY_TASK_STEP is 2"]);
    let mut gaps = slurm_task(2, 1, 5);
    gaps.push(("SLURM_ARRAY_TASK_COUNT", "3".to_string()));
    refused("--shard auto", &gaps, &["SLURM_ARRAY_TASK_COUNT is 3", "spans 5"]);
    refused(
        "--shard auto --shards 2",
        &slurm_task(1, 1, 4),
        &["--shards is 2", "4 tasks"],
    );
    refused(
        "--shard auto",
        &set(&[("SLURM_ARRAY_TASK_ID", "x"), ("SLURM_ARRAY_TASK_MIN", "1")]),
        &["SLURM_ARRAY_TASK_ID is 'x'"],
    );
    refused(
        "--shard auto",
        &set(&[("JOB_COMPLETION_INDEX", "0")]),
        &["JOB_COMPLETION_INDEX", "--shards K"],
    );
    refused(
        "--shard auto --shards 4",
        &set(&[("JOB_COMPLETION_INDEX", "4")]),
        &["JOB_COMPLETION_INDEX is 4", "0 to 3"],
    );
    // The scheduler's split must fit the run: 4 chunks make at most 4 shards.
    refused(
        "--shard auto",
        &slurm_task(1, 1, 8),
        &["--shard 1/8", "only 4 chunks"],
    );
    refused("--shard 2/4 --shards 3", &[], &["--shards says 3"]);
    // --shards alone, or of no shards, is a usage error clap reports.
    refused("--shards 4", &[], &["--shard"]);
    refused("--shard auto --shards 0", &[], &["--shards"]);
}

/// Writes `file` changed by `edit` to `dir/name`.
fn tampered(file: &Path, dir: &Path, name: &str, edit: impl FnOnce(&mut Value)) -> PathBuf {
    let mut json = read_json(file);
    edit(&mut json);
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_vec(&json).unwrap()).unwrap();
    path
}

#[test]
fn merge_of_a_directory_refuses_incomplete_doubled_or_mixed_sets() {
    let dir = tempfile::tempdir().unwrap();
    let shards_of = |name: &str, seed: u64, count: u64| -> PathBuf {
        let shards = dir.path().join(name);
        std::fs::create_dir(&shards).unwrap();
        for id in 1..=count {
            auto_shard(
                &shards,
                &format!("shard-{id}.json"),
                &line(seed),
                "",
                &slurm_task(id, 1, count),
            );
        }
        shards
    };
    let refused = |inputs: &[PathBuf], words: &[&str]| {
        let mut merge = shuffle_audit();
        merge.arg("merge").args(inputs);
        let error = usage_error_of(merge);
        for word in words {
            assert!(error.contains(word), "'{word}' not in: {error}");
        }
    };
    let four = shards_of("four", 1, 4);
    let other = shards_of("other", 2, 2);

    // Incomplete: the missing shard numbers are named.
    std::fs::rename(four.join("shard-2.json"), dir.path().join("aside-2.json")).unwrap();
    std::fs::rename(four.join("shard-4.json"), dir.path().join("aside-4.json")).unwrap();
    refused(std::slice::from_ref(&four), &["shards 2/4 and 4/4 are missing"]);
    std::fs::rename(dir.path().join("aside-2.json"), four.join("shard-2.json")).unwrap();
    refused(std::slice::from_ref(&four), &["shard 4/4 is missing"]);
    std::fs::rename(dir.path().join("aside-4.json"), four.join("shard-4.json")).unwrap();
    merged(std::slice::from_ref(&four));

    // A shard twice: a copy in the directory, or the directory and a file of it.
    refused(
        &[four.clone(), four.join("shard-3.json")],
        &["shard 3/4 is given twice"],
    );
    std::fs::copy(four.join("shard-1.json"), four.join("shard-1-again.json")).unwrap();
    refused(
        std::slice::from_ref(&four),
        &["shard 1/4 is given twice", "shard-1-again.json"],
    );
    std::fs::remove_file(four.join("shard-1-again.json")).unwrap();

    // Another run's shard (another seed) among them: its identity differs.
    refused(
        &[four.clone(), other.join("shard-2.json")],
        &["another run (run_id", "seed is 2"],
    );
    // A whole run of the same settings shares the identity; its shard count differs.
    let whole = dir.path().join("whole.json");
    exits_as_its_json(
        {
            let mut run = command(&line(1));
            run.arg("--json").arg(&whole);
            run
        },
        Some(&whole),
    );
    assert_eq!(
        read_json(&whole)["run_id"],
        read_json(&four.join("shard-1.json"))["run_id"]
    );
    refused(&[four.clone(), whole.clone()], &["shard count is 1"]);

    // A file whose settings were edited no longer matches its own identity; one without
    // an identity is refused too.
    let edited = dir.path().join("edited");
    std::fs::create_dir(&edited).unwrap();
    let seed_changed = tampered(&other.join("shard-1.json"), &edited, "shard-1.json", |json| {
        json["seed"] = 1.into()
    });
    refused(&[seed_changed], &["run_id is", "its settings make", "edited"]);
    let no_id = tampered(&other.join("shard-1.json"), &edited, "shard-1.json", |json| {
        json.as_object_mut().unwrap().remove("run_id");
    });
    refused(&[no_id], &["no run_id"]);

    // A directory with nothing to merge.
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    std::fs::write(empty.join("notes.txt"), "not a shard").unwrap();
    std::fs::write(empty.join(".shard-1.json.tmp.json"), "{}").unwrap();
    refused(&[empty], &["holds no *.json file"]);
}
