//! `--shard auto`: which shard this process is, read from the batch scheduler that
//! started it, so that one job script serves every task of a job array.
//!
//! Two schedulers say it in their environment:
//!
//! - **Slurm job arrays** (`sbatch --array=1-4`) give each task `SLURM_ARRAY_TASK_ID`, with
//!   the array's `SLURM_ARRAY_TASK_MIN`, `SLURM_ARRAY_TASK_MAX`, `SLURM_ARRAY_TASK_COUNT`
//!   and `SLURM_ARRAY_TASK_STEP`. The shard is `ID − MIN + 1` of `COUNT` (or of
//!   `MAX − MIN + 1`), so `--array=0-3` and `--array=1-4` both make shards 1/4 to 4/4.
//!   An array with a step (`--array=1-7:2`) or a list with gaps (`--array=1,2,5`) is
//!   refused: its task ids are not the consecutive shard numbers merge expects, and a
//!   task would otherwise run a shard that no other task completes.
//! - **Kubernetes Indexed Jobs** give each pod `JOB_COMPLETION_INDEX`, from 0; Kubernetes
//!   does not export the number of completions, so it comes from `--shards K`.
//!
//! The reading is a pure function of a map of variables ([`shard_from_environment`]), so
//! every case is tested without touching the process's environment; the binary collects
//! [`VARIABLES`] from its own. Every refusal is one line that names the variables.

use std::collections::BTreeMap;

use super::Shard;

/// The Slurm array task's id.
pub const SLURM_TASK_ID: &str = "SLURM_ARRAY_TASK_ID";
/// The smallest task id of the array.
pub const SLURM_TASK_MIN: &str = "SLURM_ARRAY_TASK_MIN";
/// The largest task id of the array.
pub const SLURM_TASK_MAX: &str = "SLURM_ARRAY_TASK_MAX";
/// How many tasks the array has.
pub const SLURM_TASK_COUNT: &str = "SLURM_ARRAY_TASK_COUNT";
/// The step between task ids (`--array=1-7:2` has 2).
pub const SLURM_TASK_STEP: &str = "SLURM_ARRAY_TASK_STEP";
/// Set in every Slurm job, array or not: only used to say that a job is not an array.
pub const SLURM_JOB_ID: &str = "SLURM_JOB_ID";
/// The Kubernetes Indexed Job's completion index, from 0.
pub const KUBERNETES_INDEX: &str = "JOB_COMPLETION_INDEX";

/// Every variable [`shard_from_environment`] reads.
pub const VARIABLES: [&str; 7] = [
    SLURM_TASK_ID,
    SLURM_TASK_MIN,
    SLURM_TASK_MAX,
    SLURM_TASK_COUNT,
    SLURM_TASK_STEP,
    SLURM_JOB_ID,
    KUBERNETES_INDEX,
];

/// What `--shard` asks for: a shard given as `I/K`, or the one the scheduler says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShardRequest {
    /// `--shard I/K`.
    Given(Shard),
    /// `--shard auto`.
    Auto,
}

impl ShardRequest {
    /// Parses `auto` or `I/K`.
    pub fn parse(text: &str) -> Result<Self, String> {
        if text.trim() == "auto" {
            Ok(Self::Auto)
        } else {
            Shard::parse(text)
                .map(Self::Given)
                .map_err(|problem| format!("{problem}; or 'auto', the shard the scheduler says"))
        }
    }

    /// The shard to run: the one given, or the scheduler's from `variables`; `shards` is
    /// `--shards K`, which must agree with either.
    pub fn resolve(self, variables: &BTreeMap<String, String>, shards: Option<u64>) -> Result<Shard, String> {
        match self {
            Self::Auto => {
                shard_from_environment(variables, shards).map_err(|problem| format!("auto: {problem}"))
            }
            Self::Given(shard) => match shards {
                Some(count) if count != shard.count => Err(format!(
                    "--shard {shard} is one of {} shards, but --shards says {count}",
                    shard.count
                )),
                _ => Ok(shard),
            },
        }
    }
}

/// The shard a scheduler's task runs, from its environment `variables`: a Slurm array's
/// (`SLURM_ARRAY_TASK_*`) or a Kubernetes Indexed Job's (`JOB_COMPLETION_INDEX`, with
/// `shards` from `--shards K`). `shards`, when given, must agree with a Slurm array's
/// size. The error is one line naming the variables.
pub fn shard_from_environment(
    variables: &BTreeMap<String, String>,
    shards: Option<u64>,
) -> Result<Shard, String> {
    if shards == Some(0) {
        return Err("--shards must be at least 1".to_string());
    }
    let get = |name: &str| variables.get(name).map(String::as_str);
    let slurm = get(SLURM_TASK_ID).is_some();
    let kubernetes = get(KUBERNETES_INDEX).is_some();
    let (index, count) = match (slurm, kubernetes) {
        (true, true) => {
            return Err(format!(
                "both {SLURM_TASK_ID} (Slurm) and {KUBERNETES_INDEX} (Kubernetes) are set: \
                 give --shard I/K to say which shard this is"
            ));
        }
        (true, false) => slurm_shard(&get, shards)?,
        (false, true) => kubernetes_shard(&get, shards)?,
        (false, false) => return Err(no_scheduler(get(SLURM_JOB_ID).is_some())),
    };
    Shard::new(index, count).map_err(|problem| format!("the scheduler's shard is {problem}"))
}

/// Why no shard was found: no scheduler at all, or a Slurm job that is not an array.
fn no_scheduler(slurm_job: bool) -> String {
    if slurm_job {
        format!(
            "{SLURM_JOB_ID} is set but {SLURM_TASK_ID} is not: this Slurm job is not a job array \
             (submit it with sbatch --array=1-K, or give --shard I/K)"
        )
    } else {
        format!(
            "found no scheduler: neither {SLURM_TASK_ID} (a Slurm job array) nor {KUBERNETES_INDEX} \
             (a Kubernetes Indexed Job) is set; give --shard I/K outside them"
        )
    }
}

/// A variable's value as a number, or a one-line reason naming it.
fn number(name: &str, value: &str) -> Result<u64, String> {
    value
        .trim()
        .parse::<u64>()
        .map_err(|_| format!("{name} is '{value}', not a whole number"))
}

/// The variable `name` as a number, if set.
fn optional<'a>(get: &impl Fn(&str) -> Option<&'a str>, name: &str) -> Result<Option<u64>, String> {
    get(name).map(|value| number(name, value)).transpose()
}

/// `(index, count)` of a Slurm array task.
fn slurm_shard<'a>(
    get: &impl Fn(&str) -> Option<&'a str>,
    shards: Option<u64>,
) -> Result<(u64, u64), String> {
    let id = optional(get, SLURM_TASK_ID)?.unwrap_or_default();
    let Some(min) = optional(get, SLURM_TASK_MIN)? else {
        return Err(format!(
            "{SLURM_TASK_ID} is set but {SLURM_TASK_MIN} is not: not the environment of a Slurm array task"
        ));
    };
    if let Some(step) = optional(get, SLURM_TASK_STEP)?
        && step != 1
    {
        return Err(format!(
            "{SLURM_TASK_STEP} is {step}: the array's task ids are not consecutive, so they are not \
             shard numbers (use --array=1-K with no step)"
        ));
    }
    let max = optional(get, SLURM_TASK_MAX)?;
    let count = optional(get, SLURM_TASK_COUNT)?;
    if let Some(max) = max
        && max < min
    {
        return Err(format!(
            "{SLURM_TASK_MAX} is {max}, below {SLURM_TASK_MIN} ({min})"
        ));
    }
    let span = max.map(|max| max - min + 1);
    let count = match (count, span) {
        (Some(count), Some(span)) if count != span => {
            return Err(format!(
                "{SLURM_TASK_COUNT} is {count}, but {SLURM_TASK_MIN}..{SLURM_TASK_MAX} spans {span} ids: \
                 the array has gaps, so its task ids are not shard numbers (use --array=1-K)"
            ));
        }
        (Some(count), _) => count,
        (None, Some(span)) => span,
        (None, None) => {
            return Err(format!(
                "{SLURM_TASK_ID} is set but neither {SLURM_TASK_COUNT} nor {SLURM_TASK_MAX} is: \
                 not the environment of a Slurm array task"
            ));
        }
    };
    if count == 0 {
        return Err(format!("{SLURM_TASK_COUNT} is 0: an array has at least one task"));
    }
    if id < min || id - min >= count {
        return Err(format!(
            "{SLURM_TASK_ID} is {id}, outside the array's ids {min} to {}",
            (min + count).saturating_sub(1)
        ));
    }
    if let Some(shards) = shards
        && shards != count
    {
        return Err(format!(
            "--shards is {shards}, but the Slurm array has {count} tasks ({SLURM_TASK_COUNT} or \
             {SLURM_TASK_MIN}..{SLURM_TASK_MAX}); leave --shards out under Slurm or make them agree"
        ));
    }
    Ok((id - min + 1, count))
}

/// `(index, count)` of a Kubernetes Indexed Job's pod.
fn kubernetes_shard<'a>(
    get: &impl Fn(&str) -> Option<&'a str>,
    shards: Option<u64>,
) -> Result<(u64, u64), String> {
    let index = optional(get, KUBERNETES_INDEX)?.unwrap_or_default();
    let Some(count) = shards else {
        return Err(format!(
            "{KUBERNETES_INDEX} is {index} (a Kubernetes Indexed Job), which does not say how many \
             shards there are: give --shards K, the Job's completions"
        ));
    };
    if index >= count {
        return Err(format!(
            "{KUBERNETES_INDEX} is {index}, but --shards {count} numbers the pods 0 to {}",
            count.saturating_sub(1)
        ));
    }
    Ok((index + 1, count))
}

#[cfg(test)]
mod tests;
