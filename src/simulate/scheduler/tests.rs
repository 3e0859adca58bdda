use super::*;

/// The environment made of `pairs`.
fn env(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(name, value)| (name.to_string(), value.to_string()))
        .collect()
}

/// A Slurm array task's environment as sbatch sets it for `--array=min-max`.
fn slurm(id: u64, min: u64, max: u64) -> BTreeMap<String, String> {
    let (id, min, max, count) = (
        id.to_string(),
        min.to_string(),
        max.to_string(),
        (max - min + 1).to_string(),
    );
    env(&[
        (SLURM_JOB_ID, "4242"),
        (SLURM_TASK_ID, &id),
        (SLURM_TASK_MIN, &min),
        (SLURM_TASK_MAX, &max),
        (SLURM_TASK_COUNT, &count),
        (SLURM_TASK_STEP, "1"),
    ])
}

fn shard(index: u64, count: u64) -> Shard {
    Shard::new(index, count).unwrap()
}

/// `shard_from_environment` fails with one line containing every one of `words`.
fn refused(variables: &BTreeMap<String, String>, shards: Option<u64>, words: &[&str]) {
    let message = shard_from_environment(variables, shards).unwrap_err();
    assert!(!message.contains('\n'), "{message}");
    for word in words {
        assert!(message.contains(word), "'{word}' not in: {message}");
    }
}

#[test]
fn a_slurm_array_task_is_its_shard_whatever_the_first_id() {
    for (min, max) in [(1, 4), (0, 3), (10, 13)] {
        for id in min..=max {
            assert_eq!(
                shard_from_environment(&slurm(id, min, max), None),
                Ok(shard(id - min + 1, 4)),
                "--array={min}-{max}, task {id}"
            );
        }
    }
    // A one-task array is the whole run as its single shard.
    assert_eq!(shard_from_environment(&slurm(1, 1, 1), None), Ok(shard(1, 1)));
    // --shards may repeat the array's size.
    assert_eq!(shard_from_environment(&slurm(3, 1, 4), Some(4)), Ok(shard(3, 4)));
}

#[test]
fn slurm_count_or_max_alone_gives_the_size() {
    let only_count = env(&[
        (SLURM_TASK_ID, "2"),
        (SLURM_TASK_MIN, "1"),
        (SLURM_TASK_COUNT, "3"),
    ]);
    assert_eq!(shard_from_environment(&only_count, None), Ok(shard(2, 3)));
    let only_max = env(&[(SLURM_TASK_ID, "7"), (SLURM_TASK_MIN, "5"), (SLURM_TASK_MAX, "8")]);
    assert_eq!(shard_from_environment(&only_max, None), Ok(shard(3, 4)));
}

#[test]
fn slurm_arrays_that_are_not_shard_numbers_are_refused() {
    // --array=1-7:2: ids 1, 3, 5, 7.
    let mut stepped = slurm(3, 1, 7);
    stepped.insert(SLURM_TASK_STEP.into(), "2".into());
    stepped.insert(SLURM_TASK_COUNT.into(), "4".into());
    refused(&stepped, None, &[SLURM_TASK_STEP, "is 2", "--array=1-K"]);
    // --array=1,2,5: three tasks over five ids.
    let mut gaps = slurm(2, 1, 5);
    gaps.insert(SLURM_TASK_COUNT.into(), "3".into());
    refused(
        &gaps,
        None,
        &[
            SLURM_TASK_COUNT,
            "is 3",
            SLURM_TASK_MIN,
            SLURM_TASK_MAX,
            "spans 5",
        ],
    );
    // --shards that disagrees with the array.
    refused(
        &slurm(1, 1, 4),
        Some(8),
        &["--shards is 8", "has 4 tasks", SLURM_TASK_COUNT],
    );
}

#[test]
fn malformed_slurm_variables_are_named() {
    let with = |name: &str, value: Option<&str>| {
        let mut variables = slurm(2, 1, 4);
        match value {
            Some(value) => variables.insert(name.to_string(), value.to_string()),
            None => variables.remove(name),
        };
        variables
    };
    for name in [
        SLURM_TASK_ID,
        SLURM_TASK_MIN,
        SLURM_TASK_MAX,
        SLURM_TASK_COUNT,
        SLURM_TASK_STEP,
    ] {
        refused(
            &with(name, Some("two")),
            None,
            &[name, "'two'", "not a whole number"],
        );
        refused(&with(name, Some("-1")), None, &[name, "'-1'"]);
    }
    refused(&with(SLURM_TASK_MIN, None), None, &[SLURM_TASK_MIN, "is not"]);
    let mut neither = with(SLURM_TASK_MAX, None);
    neither.remove(SLURM_TASK_COUNT);
    refused(&neither, None, &[SLURM_TASK_COUNT, SLURM_TASK_MAX, "neither"]);
    refused(&with(SLURM_TASK_ID, Some("9")), None, &["is 9", "ids 1 to 4"]);
    refused(&with(SLURM_TASK_ID, Some("0")), None, &["is 0", "ids 1 to 4"]);
    refused(&with(SLURM_TASK_MAX, Some("0")), None, &[SLURM_TASK_MAX, "below"]);
    let mut empty = with(SLURM_TASK_MAX, None);
    empty.insert(SLURM_TASK_COUNT.into(), "0".into());
    refused(&empty, None, &[SLURM_TASK_COUNT, "is 0"]);
}

#[test]
fn a_kubernetes_index_counts_from_zero_and_needs_shards() {
    for index in 0..4 {
        assert_eq!(
            shard_from_environment(&env(&[(KUBERNETES_INDEX, &index.to_string())]), Some(4)),
            Ok(shard(index + 1, 4))
        );
    }
    let pod = env(&[(KUBERNETES_INDEX, "2")]);
    refused(&pod, None, &[KUBERNETES_INDEX, "--shards K"]);
    refused(&pod, Some(2), &[KUBERNETES_INDEX, "is 2", "0 to 1"]);
    refused(&pod, Some(0), &["--shards must be at least 1"]);
    refused(
        &env(&[(KUBERNETES_INDEX, "first")]),
        Some(4),
        &[KUBERNETES_INDEX, "'first'"],
    );
}

#[test]
fn no_scheduler_or_two_are_refused_naming_the_variables() {
    refused(&env(&[]), None, &[SLURM_TASK_ID, KUBERNETES_INDEX, "--shard I/K"]);
    refused(
        &env(&[(SLURM_JOB_ID, "17")]),
        None,
        &[SLURM_JOB_ID, "not a job array", "--array"],
    );
    let mut both = slurm(1, 1, 4);
    both.insert(KUBERNETES_INDEX.into(), "0".into());
    refused(&both, Some(4), &[SLURM_TASK_ID, KUBERNETES_INDEX, "both"]);
}

#[test]
fn a_request_is_auto_or_a_given_shard() {
    assert_eq!(ShardRequest::parse("auto"), Ok(ShardRequest::Auto));
    assert_eq!(ShardRequest::parse("2/4"), Ok(ShardRequest::Given(shard(2, 4))));
    let message = ShardRequest::parse("automatic").unwrap_err();
    assert!(
        message.contains("is not I/K") && message.contains("'auto'"),
        "{message}"
    );
    // A given shard ignores the environment, and --shards must agree with it.
    let given = ShardRequest::Given(shard(2, 4));
    assert_eq!(given.resolve(&slurm(1, 1, 8), None), Ok(shard(2, 4)));
    assert_eq!(given.resolve(&env(&[]), Some(4)), Ok(shard(2, 4)));
    let message = given.resolve(&env(&[]), Some(3)).unwrap_err();
    assert!(message.contains("--shards says 3"), "{message}");
    assert_eq!(ShardRequest::Auto.resolve(&slurm(4, 1, 4), None), Ok(shard(4, 4)));
}
