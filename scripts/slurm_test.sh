#!/usr/bin/env bash
# Proves the Slurm path on a real Slurm (issue 17): a one-node cluster on this machine,
# a 4-task job array of one `run` (scripts/slurm/run_array.sbatch, `--shard auto`) and
# the merge job that depends on it (scripts/slurm/merge.sbatch, submitted by
# scripts/slurm/submit.sh), and the merged JSON compared with the same run done whole:
# the tallies must be identical. Not part of CI (it installs packages and starts daemons).
#
# What it does, in order:
#   1. installs Debian's slurm-wlm and munge when missing (apt-get, as root; a temporary
#      policy-rc.d keeps the packages from starting their own daemons);
#   2. builds the release binary;
#   3. writes, under a fresh temporary directory, a munge key and a one-node slurm.conf
#      on localhost: slurmctld and slurmd as root, no accounting, proctrack/linuxproc
#      and task/none (a container has no cgroups to give), its own ports, state and
#      spool directories, and munge socket, so nothing of the machine's is used or
#      changed;
#   4. starts munged, slurmctld and slurmd in the background (SLURM_CONF points every
#      Slurm command at the private configuration) and waits until sinfo shows the node
#      idle;
#   5. submits the array and the merge job, polls `scontrol show job` until they end;
#   6. runs the same run whole, outside Slurm, and compares the JSON minus timing;
#   7. on exit, whatever happened: cancels the cluster's jobs, stops the three daemons
#      it started (by their process ids) and removes the temporary directory.
#
# Environment: SLURM_TEST_KEEP=1 keeps the temporary directory (logs, JSON) for a look;
# SLURM_TEST_PORT (default 16817) is the first of the two ports slurmctld and slurmd use.
# Prints a summary; exit status 0 when the merged run is the whole run, else 1.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/target_dir.sh
source scripts/target_dir.sh
repo=$(pwd)

run="fisher-yates --n 6 --trials 2e6 --seed 7"
tasks=4
port=${SLURM_TEST_PORT:-16817}

say() { printf 'slurm_test: %s\n' "$*"; }
fail() {
    say "FAILED: $*"
    exit 1
}

as_root() {
    if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo "$@"; fi
}

# 1. Packages.
missing=()
command -v slurmctld >/dev/null 2>&1 || missing+=(slurmctld)
command -v slurmd >/dev/null 2>&1 || missing+=(slurmd)
command -v sbatch >/dev/null 2>&1 || missing+=(slurm-client)
command -v munged >/dev/null 2>&1 || missing+=(munge)
command -v python3 >/dev/null 2>&1 || missing+=(python3)
if [[ ${#missing[@]} -gt 0 ]]; then
    say "installing slurm-wlm munge (missing: ${missing[*]})"
    # Debian's maintainer scripts would start the packages' own daemons; a policy-rc.d
    # that answers 101 ("not allowed") keeps them down, and is removed again.
    policy_made=
    if [[ ! -e /usr/sbin/policy-rc.d ]]; then
        printf '#!/bin/sh\nexit 101\n' | as_root tee /usr/sbin/policy-rc.d >/dev/null
        as_root chmod +x /usr/sbin/policy-rc.d
        policy_made=1
    fi
    as_root apt-get update -q >/dev/null
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
        slurm-wlm munge python3 >/dev/null 2>&1 || fail "apt-get install slurm-wlm munge failed"
    [[ -n $policy_made ]] && as_root rm -f /usr/sbin/policy-rc.d
fi
say "$(slurmctld -V) and $(munged --version 2>&1 | awk '{print $1; exit}')"

# 2. The binary.
say "building the release binary"
cargo build --release --quiet
binary=$release_bin

# 3. A private cluster.
tmp=$(mktemp -d /tmp/shuffle-audit-slurm.XXXXXX)
chmod 700 "$tmp"
pids=()
array=
merge=
cleanup() {
    local status=$?
    set +e
    if [[ -n ${SLURM_CONF:-} && -n ${array:-}${merge:-} ]]; then
        # shellcheck disable=SC2086
        scancel --quiet ${array:-} ${merge:-} 2>/dev/null
        # Let the steps of cancelled jobs end before their slurmd does.
        for _ in $(seq 20); do
            [[ -z $(squeue --noheader 2>/dev/null) ]] && break
            sleep 0.5
        done
    fi
    local pid
    for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
        pid=${pids[i]}
        kill "$pid" 2>/dev/null
        for _ in $(seq 50); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.1
        done
        kill -KILL "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
    done
    if [[ ${#pids[@]} -gt 0 ]]; then
        say "stopped slurmd, slurmctld and munged (pids ${pids[*]})"
    fi
    if [[ -n ${SLURM_TEST_KEEP:-} ]]; then
        say "kept $tmp"
    else
        rm -rf "$tmp"
    fi
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

node=$(hostname -s)
cpus=$(nproc)
((cpus > 2)) && cpus=2
# slurmd -C measures the node; a little memory is left for the system.
memory=$(slurmd -C 2>/dev/null | sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p')
memory=$((${memory:-2048} * 9 / 10))
mkdir -p "$tmp/state" "$tmp/spool" "$tmp/log" "$tmp/out"

# A private munge key and socket: the machine's munged (if any) is left alone.
dd if=/dev/urandom of="$tmp/munge.key" bs=1024 count=1 status=none
chmod 600 "$tmp/munge.key"
cat >"$tmp/slurm.conf" <<CONF
ClusterName=shuffleaudit
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$tmp/munge.socket
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
MinJobAge=600
SlurmdTimeout=60
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$tmp/slurm.conf

# 4. The daemons, each in the background with its own log.
munged --force --foreground --socket="$tmp/munge.socket" --key-file="$tmp/munge.key" \
    --pid-file="$tmp/munged.pid" --log-file="$tmp/log/munged.log" --seed-file="$tmp/munge.seed" \
    >"$tmp/log/munged.out" 2>&1 &
pids+=($!)
for _ in $(seq 50); do
    [[ -S $tmp/munge.socket ]] && break
    sleep 0.1
done
[[ -S $tmp/munge.socket ]] || fail "munged did not start: $(tail -3 "$tmp/log/munged.out" "$tmp/log/munged.log" 2>/dev/null)"
slurmctld -D -f "$SLURM_CONF" >"$tmp/log/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" -N "$node" >"$tmp/log/slurmd.out" 2>&1 &
pids+=($!)
say "started munged, slurmctld and slurmd (pids ${pids[*]}) with SLURM_CONF=$SLURM_CONF"

state=
for _ in $(seq 120); do
    state=$(sinfo --noheader --nodes="$node" --format=%T 2>/dev/null || true)
    [[ $state == idle ]] && break
    for pid in "${pids[@]}"; do
        kill -0 "$pid" 2>/dev/null || fail "a daemon (pid $pid) died; see $tmp/log (SLURM_TEST_KEEP=1 keeps it)"
    done
    sleep 0.5
done
[[ $state == idle ]] || fail "the node is '${state:-unknown}', not idle, after 60 s"
say "node $node is idle: $(sinfo --noheader --format='%P %D node, %c CPUs, %m MB')"

# 5. The array and its merge, as a user would submit them.
submitted=$(TASKS=$tasks SHUFFLE_AUDIT=$binary scripts/slurm/submit.sh "$tmp/out" $run)
say "submitted: $submitted"
array=$(sed -n 's/^array job \([0-9]*\).*/\1/p' <<<"$submitted")
merge=$(sed -n 's/.*merge job \([0-9]*\).*/\1/p' <<<"$submitted")

# The states of a job's tasks (an array's, or one job's), one per line.
states() { scontrol show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p'; }
deadline=$((SECONDS + 600))
while :; do
    array_states=$(states "$array" | sort | uniq -c | xargs)
    merge_state=$(states "$merge")
    if [[ $merge_state == COMPLETED ]]; then
        break
    fi
    case $merge_state in
    FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY | BOOT_FAIL | DEADLINE)
        fail "merge job $merge ended $merge_state (array: $array_states); $(cat "$tmp/out/logs/merge.out" 2>/dev/null)"
        ;;
    esac
    ((SECONDS < deadline)) || fail "the jobs did not end within 600 s (array: $array_states, merge: $merge_state)"
    sleep 1
done
say "array job $array: $(states "$array" | sort | uniq -c | xargs) (each task's shard: $(ls "$tmp/out/shards" | xargs))"
say "merge job $merge: $merge_state; it said: $(head -1 "$tmp/out/logs/merge.out")"

# 6. The same run whole, outside Slurm, and the comparison.
set +e
"$binary" run $run --json "$tmp/whole.json" >/dev/null
whole_status=$?
set -e
[[ $whole_status -le 1 ]] || fail "the whole run exited $whole_status"
python3 - "$tmp/whole.json" "$tmp/out/merged.json" "$tmp/out/shards" <<'PY'
import json, os, sys

whole_path, merged_path, shard_dir = sys.argv[1:]

def timeless(path):
    """The run's JSON without what differs between two runs of the same tallies."""
    with open(path) as file:
        run = json.load(file)
    for field in ("threads", "elapsed_seconds", "trials_per_second", "seed_origin"):
        run.pop(field, None)
    for result in run["results"]:
        result.pop("elapsed_seconds", None)
    return run

whole, merged = timeless(whole_path), timeless(merged_path)
shards = [json.load(open(os.path.join(shard_dir, name))) for name in sorted(os.listdir(shard_dir))]
for shard in shards:
    assert shard["run_id"] == whole["run_id"], "a shard's run_id is not the whole run's"
print("slurm_test: shards: " + ", ".join(
    f"{s['shard']['index']}/{s['shard']['count']} {s['trials']:,} shuffles" for s in shards))
result = merged["results"][0]
print(f"slurm_test: run_id {whole['run_id']} (whole, merged and every shard)")
print(f"slurm_test: merged {merged['trials']:,} shuffles of {result['algorithm']} on {merged['n']} cards, "
      f"verdict {result['verdict']}; {len(result['permutations'])} orders tallied")
if merged != whole:
    differing = sorted(k for k in set(whole) | set(merged) if whole.get(k) != merged.get(k))
    print(f"slurm_test: the merged JSON differs from the whole run's in: {', '.join(differing)}")
    sys.exit(1)
print("slurm_test: the merged JSON is the whole run's, tallies and statistics identical (timing aside)")
PY
say "PASSED: a $tasks-task Slurm array and its dependent merge gave exactly the whole run"
