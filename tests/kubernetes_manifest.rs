//! The Kubernetes manifests in `deploy/kubernetes/` cannot run here (no cluster), so they
//! are checked as far as a test can: parsed as YAML, the Job is Indexed, the shard flags
//! agree with it (`--shard auto`, `--shards` equal to `completions`, each pod's JSON named
//! by its `JOB_COMPLETION_INDEX`, in the directory the merge Job reads), and the pods'
//! command itself is run here, once per index with the environment Kubernetes would give,
//! and merged: the result must be the same run done whole.

mod binary;

use std::path::Path;

use binary::{command, exits_as_its_json, merged, without_timing};
use serde_yaml_ng::Value;

fn manifest(name: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("deploy/kubernetes")
        .join(name);
    serde_yaml_ng::from_str(&std::fs::read_to_string(&path).unwrap())
        .unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

/// The first container of a Job's pod template.
fn container(job: &Value) -> &Value {
    &job["spec"]["template"]["spec"]["containers"][0]
}

/// The container's command and arguments, as one line of words.
fn command_line(container: &Value) -> String {
    ["command", "args"]
        .iter()
        .filter_map(|key| container[*key].as_sequence())
        .flatten()
        .map(|word| word.as_str().expect("command words are strings").trim())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The value after `flag` in `words`.
fn flag<'a>(words: &[&'a str], flag: &str) -> Option<&'a str> {
    let at = words.iter().position(|word| *word == flag)?;
    words.get(at + 1).copied()
}

const INDEXED: &str = "shuffle-audit-indexed-job.yaml";
const MERGE: &str = "shuffle-audit-merge-job.yaml";

/// The `shuffle-audit run ...` words of the indexed Job's shell command.
fn run_words(line: &str) -> Vec<&str> {
    let start = line
        .find("shuffle-audit run")
        .expect("the pod runs shuffle-audit run");
    line[start..]
        .split(';')
        .next()
        .unwrap()
        .split_whitespace()
        .collect()
}

#[test]
fn the_indexed_job_gives_each_pod_its_shard() {
    let job = manifest(INDEXED);
    assert_eq!(job["apiVersion"], "batch/v1");
    assert_eq!(job["kind"], "Job");
    let spec = &job["spec"];
    assert_eq!(spec["completionMode"], "Indexed");
    let completions = spec["completions"].as_u64().expect("completions is a number");
    let parallelism = spec["parallelism"].as_u64().expect("parallelism is set");
    assert!((1..=completions).contains(&parallelism));
    assert_eq!(spec["template"]["spec"]["restartPolicy"], "Never");

    let line = command_line(container(&job));
    let words = run_words(&line);
    assert_eq!(flag(&words, "--shard"), Some("auto"), "{line}");
    assert_eq!(
        flag(&words, "--shards").map(|count| count.parse::<u64>().unwrap()),
        Some(completions),
        "--shards must equal completions: {line}"
    );
    assert!(flag(&words, "--seed").is_some(), "shards need a seed: {line}");
    let json = flag(&words, "--json").expect("each pod writes its JSON");
    assert!(json.contains("$(JOB_COMPLETION_INDEX)"), "{json}");

    // The JSON lands on the volume, in the directory the merge Job reads.
    let mount = container(&job)["volumeMounts"][0]["mountPath"].as_str().unwrap();
    assert!(
        json.starts_with(&format!("{mount}/")),
        "{json} is not under {mount}"
    );
    let merge = manifest(MERGE);
    let merge_line = command_line(container(&merge));
    let merge_words: Vec<&str> = merge_line.split_whitespace().collect();
    assert_eq!(merge_words[..2], ["shuffle-audit", "merge"], "{merge_line}");
    let shard_dir = Path::new(json).parent().unwrap().to_str().unwrap();
    assert_eq!(merge_words[2], shard_dir, "merge reads the shards' directory");
    let merged = flag(&merge_words, "--json").expect("the merge writes JSON");
    assert!(
        !Path::new(merged).starts_with(shard_dir),
        "{merged} must lie outside the shard directory"
    );
    assert_eq!(
        merge["spec"]["template"]["spec"]["volumes"], job["spec"]["template"]["spec"]["volumes"],
        "both Jobs mount the same volume"
    );
}

#[test]
fn the_pods_command_run_here_merges_into_the_whole_run() {
    let job = manifest(INDEXED);
    let completions = job["spec"]["completions"].as_u64().unwrap();
    let line = command_line(container(&job));
    let words = run_words(&line);
    let mount = container(&job)["volumeMounts"][0]["mountPath"].as_str().unwrap();
    let out = tempfile::tempdir().unwrap();
    let volume = out.path().to_str().unwrap();
    let shard_dir = out.path().join("shards");
    std::fs::create_dir(&shard_dir).unwrap();
    // Each pod as Kubernetes would start it: its index in the environment and in the
    // $(JOB_COMPLETION_INDEX) of its arguments; the volume is a temporary directory.
    for index in 0..completions {
        let arguments: Vec<String> = words[1..]
            .iter()
            .map(|word| {
                word.replace("$(JOB_COMPLETION_INDEX)", &index.to_string())
                    .replacen(mount, volume, 1)
            })
            .collect();
        let mut pod = command("");
        pod.args(&arguments)
            .env_remove("SLURM_ARRAY_TASK_ID")
            .env_remove("SLURM_JOB_ID")
            .env("JOB_COMPLETION_INDEX", index.to_string());
        let json = shard_dir.join(format!("shard-{index}.json"));
        exits_as_its_json(pod, Some(&json));
    }
    // The same run whole: the run's words without the shard and output flags.
    let mut whole_words = Vec::new();
    let mut skip = false;
    for word in &words[1..] {
        if skip {
            skip = false;
        } else if ["--shard", "--shards", "--json", "--threads"].contains(word) {
            skip = true;
        } else {
            whole_words.push(*word);
        }
    }
    let mut whole = command("");
    whole.args(&whole_words).args(["--json", "-"]);
    let whole: serde_json::Value = serde_json::from_slice(&exits_as_its_json(whole, None).stdout).unwrap();
    assert_eq!(without_timing(&merged(&[shard_dir])), without_timing(&whole));
}
