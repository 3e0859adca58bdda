#!/usr/bin/env bash
# Submits a shuffle-audit run as a Slurm job array of TASKS shards plus the merge job
# that waits for them (--dependency=afterok), and prints both job ids.
#
#   scripts/slurm/submit.sh OUT_DIR ALGORITHM... --n N --trials T --seed S
#
# The shards land in OUT_DIR/shards/, the merged run in OUT_DIR/merged.json, the jobs'
# logs in OUT_DIR/logs/. OUT_DIR must be on a file system every node sees.
#
# Environment:
#   TASKS          shards, one array task each (default 4; at most the run's chunks of
#                  16,384 trials)
#   SHUFFLE_AUDIT  the binary, as the nodes see it (default: shuffle-audit on the PATH)
#   MERGE_ARGS     more options for merge, e.g. "--report OUT/report --alpha 1e-6"
#   SBATCH_ARGS    more options for both sbatch calls, e.g. "--partition=short"
# sbatch's own variables (SBATCH_PARTITION, SBATCH_ACCOUNT, ...) apply as usual.
set -euo pipefail

if [[ $# -lt 2 ]]; then
    echo "usage: $0 OUT_DIR ALGORITHM... --n N --trials T --seed S" >&2
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$1"
out=$(cd "$1" && pwd)
shift
tasks=${TASKS:-4}
mkdir -p "$out/shards" "$out/logs"
read -r -a sbatch_args <<<"${SBATCH_ARGS:-}"
read -r -a merge_args <<<"${MERGE_ARGS:-}"

# --parsable prints "jobid" or "jobid;cluster".
array=$(sbatch --parsable "${sbatch_args[@]}" --array="1-$tasks" --chdir="$out" \
    --output="$out/logs/shard-%a.out" \
    "$here/run_array.sbatch" "$out/shards" "$@")
array=${array%%;*}
merge=$(sbatch --parsable "${sbatch_args[@]}" --dependency="afterok:$array" --kill-on-invalid-dep=yes \
    --chdir="$out" --output="$out/logs/merge.out" \
    "$here/merge.sbatch" "$out/shards" "$out/merged.json" "${merge_args[@]}")
merge=${merge%%;*}
echo "array job $array ($tasks shards into $out/shards), merge job $merge (into $out/merged.json)"
