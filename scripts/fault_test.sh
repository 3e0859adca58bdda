#!/usr/bin/env bash
# Fault injection, in the spirit of SQLite's crash tests (issue 21): kills `run`,
# `ingest`, `merge`, `check` and `report` at random moments with SIGKILL, SIGTERM and
# SIGINT, closes their standard output early, and fills a small disk; after each fault it
# checks that
#   - the exit status is the one README.md promises (the verdict's, or 128 + the signal),
#   - every earlier output is whole and parses (JSON, CSV, JUnit XML, report folders
#     against their manifests),
#   - no input was touched (SHA-256 of every input),
#   - no temporary is left: none after SIGTERM or SIGINT, none after the next run that
#     writes into the same folder after SIGKILL,
#   - no program a `check` case started outlives an interrupted `check`.
# It prints its totals and exits 1 if any check failed. The schedule of faults comes from
# a fixed seed (FAULT_SEED, default 21), so a failure can be replayed; KILLS sets how many
# kills (default 210). Needs root (or unprivileged user namespaces) for the small disk, a
# tmpfs it mounts and unmounts itself; python3 for the checks.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/target_dir.sh
source scripts/target_dir.sh
# Job control: background commands get their own process group and keep SIGINT, as a
# program started from a terminal does (a script's `cmd &` would otherwise ignore it).
set -m

KILLS=${KILLS:-210}
RANDOM=${FAULT_SEED:-21}

cargo build --release --quiet
bin=$release_bin
work=$(mktemp -d)
full=$work/full
cleanup() {
    pkill -f "fault-marker-$$" 2>/dev/null || true
    if mountpoint -q "$full" 2>/dev/null; then umount "$full" || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

inputs=$work/inputs
out=$work/out
mkdir -p "$inputs" "$out" "$full"

# --- Inputs: samples, shards, a suite (with a command case that sleeps, to be killed) ---
# Decks shuffled by Python's random.shuffle: 300,000 of 8 cards, 20,000 of 4.
python3 - "$inputs" <<'EOF'
import random, sys
for name, cards, count, seed in [("fair8.txt", "ABCDEFGH", 300_000, 1), ("fair4.txt", "ABCD", 20_000, 2)]:
    rng, deck = random.Random(seed), list(cards)
    with open(f"{sys.argv[1]}/{name}", "w") as f:
        for _ in range(count):
            rng.shuffle(deck)
            f.write(" ".join(deck) + "\n")
EOF
for i in 1 2 3; do
    "$bin" run fisher-yates --n 7 --trials 3e6 --seed 9 --shard "$i/3" --json "$inputs/s$i.json" >/dev/null 2>&1
done
cat >"$inputs/gate.toml" <<EOF
[[case]]
algorithm = "naive-swap"
n = 4
trials = 300000
expect = "biased"

[[case]]
algorithm = "fisher-yates"
n = 5
trials = 300000
expect = "fair"

[[case]]
name = "a program that deals slowly"
command = "sleep 0.3; cat $inputs/fair4.txt # fault-marker-$$"
expect = "fair"
EOF
(cd "$inputs" && sha256sum ./* >"$work/inputs.sha256")

# The commands under test, each writing every kind of output into $out.
cmd_run=("$bin" run naive-swap fisher-yates --n 8 --trials 1.2e6 --seed 1
    --json "$out/run.json" --csv "$out/run.csv" --report "$out/run-report")
cmd_ingest=("$bin" ingest "$inputs/fair8.txt" --json "$out/ingest.json" --csv "$out/ingest.csv"
    --report "$out/ingest-report")
cmd_merge=("$bin" merge "$inputs/s1.json" "$inputs/s2.json" "$inputs/s3.json"
    --json "$out/merge.json" --report "$out/merge-report")
cmd_check=("$bin" check --config "$inputs/gate.toml" --json "$out/check.json" --junit "$out/junit.xml")
cmd_report=("$bin" report --out "$out/teaching")
names=(run ingest merge check report)

run_named() {
    local -n command="cmd_$1"
    "${command[@]}"
}

# --- The checker: outputs whole, inputs intact, temporaries gone ---
cat >"$work/verify.py" <<'EOF'
"""Prints 'broken lost leftovers' counts for the folder of outputs and the inputs."""
import hashlib, json, os, sys, xml.etree.ElementTree as ET

out, inputs, sums, want_no_temporaries = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == "1"

def fnv1a(data):
    h = 0xcbf29ce484222325
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h

broken = []
for name in sorted(os.listdir(out)):
    path = os.path.join(out, name)
    try:
        if name.endswith(".json"):
            with open(path) as f:
                json.load(f)
        elif name.endswith(".csv"):
            with open(path) as f:
                lines = f.read().split("\n")
            # Whole: a header, a final newline, and the last result's verdict row.
            assert lines[0].endswith(",table,row,column,count,expected") and lines[-1] == ""
            assert ",verdict," in lines[-2], "no verdict row at the end"
        elif name.endswith(".xml"):
            ET.parse(path)
        elif os.path.isdir(path) and not name.startswith(".shuffle-audit-"):
            with open(os.path.join(path, ".shuffle-audit-manifest.json")) as f:
                manifest = json.load(f)
            for entry in manifest["files"]:
                with open(os.path.join(path, entry["name"]), "rb") as f:
                    data = f.read()
                assert len(data) == entry["bytes"], entry["name"] + ": size"
                assert "%016x" % fnv1a(data) == entry["fnv1a64"], entry["name"] + ": hash"
    except Exception as error:  # noqa: BLE001 - any failure is a broken file
        broken.append(f"{name}: {error}")

lost = []
with open(sums) as f:
    for line in f:
        digest, name = line.split()
        path = os.path.join(inputs, name)
        try:
            with open(path, "rb") as g:
                if hashlib.sha256(g.read()).hexdigest() != digest:
                    lost.append(name + " changed")
        except OSError as error:
            lost.append(f"{name}: {error}")

leftovers = [n for n in os.listdir(out) if n.startswith(".shuffle-audit-") and n.endswith(".tmp")]
if not want_no_temporaries:
    leftovers = []
for problem in broken + lost + leftovers:
    print("  problem:", problem, file=sys.stderr)
print(len(broken), len(lost), len(leftovers))
EOF

faults=0 broken=0 lost=0 leftovers=0 wrong_status=0
verify() { # verify WANT_NO_TEMPORARIES -> adds to the totals
    local counts
    read -r -a counts < <(python3 "$work/verify.py" "$out" "$inputs" "$work/inputs.sha256" "$1")
    broken=$((broken + counts[0])); lost=$((lost + counts[1])); leftovers=$((leftovers + counts[2]))
}
status_is() { # status_is GOT WANTED... (a wrong one is counted and said)
    local got=$1; shift
    for wanted in "$@"; do [[ $got == "$wanted" ]] && return 0; done
    echo "  wrong exit status $got (wanted one of: $*) for: $context" >&2
    wrong_status=$((wrong_status + 1))
}

# Earlier outputs, whole, from one complete run of each command (and their durations).
declare -A millis
for name in "${names[@]}"; do
    start=$(date +%s%N)
    run_named "$name" >/dev/null 2>&1 || { echo "fault_test.sh: $name failed before any fault" >&2; exit 2; }
    millis[$name]=$(( ($(date +%s%N) - start) / 1000000 + 1 ))
done
echo "fault_test.sh: durations (ms): run ${millis[run]}, ingest ${millis[ingest]}, merge ${millis[merge]}, check ${millis[check]}, report ${millis[report]}"
verify 1

# --- Kills at random moments ---
signals=(KILL TERM INT)
declare -A number=([KILL]=9 [TERM]=15 [INT]=2)
for ((i = 1; i <= KILLS; i++)); do
    # The teaching report takes seconds: one kill in ten.
    if ((RANDOM % 10 == 0)); then name=report; else name=${names[RANDOM % 4]}; fi
    signal=${signals[RANDOM % 3]}
    # Anywhere from the start to a little past the usual end (the end included: a kill
    # that comes too late must leave the finished outputs alone).
    delay_ms=$(( RANDOM % (millis[$name] * 12 / 10 + 2) ))
    context="$name, SIG$signal after $delay_ms ms"
    # The binary itself in the background (not a function's subshell), so that the
    # signal reaches it.
    command_of="cmd_$name[@]"
    "${!command_of}" >/dev/null 2>&1 &
    pid=$!
    sleep "$(printf '%d.%03d' $((delay_ms / 1000)) $((delay_ms % 1000)))"
    kill "-$signal" "$pid" 2>/dev/null || true
    status=0; wait "$pid" 2>/dev/null || status=$?
    faults=$((faults + 1))
    # Finished before the signal (0), or stopped by it (137, 143, 130).
    status_is "$status" 0 $((128 + number[$signal]))
    if [[ $signal == KILL ]]; then
        pkill -KILL -f "fault-marker-$$" 2>/dev/null || true  # SIGKILL cannot be handled
        verify 0
        # The next run writing into the same folder removes what the killed one left.
        "$bin" run naive-swap --n 3 --trials 1e4 --seed 1 --json "$out/next.json" >/dev/null 2>&1
        verify 1
    else
        if [[ $name == check ]] && pgrep -f "fault-marker-$$" >/dev/null; then
            sleep 0.2
            if pgrep -f "fault-marker-$$" >/dev/null; then
                echo "  a check case's program outlived SIG$signal ($context)" >&2
                leftovers=$((leftovers + 1))
                pkill -KILL -f "fault-marker-$$" || true
            fi
        fi
        verify 1
    fi
done

# --- Standard output closed early: the exit status is still the verdict's ---
biased=$work/biased.txt
python3 -c 'print("A B C\n" * 29999 + "A B C")' >"$biased"
for reader in "| true" "| head -c 1" ">&-"; do
    for name in "${names[@]}" ingest-biased; do
        if [[ $name == ingest-biased ]]; then
            command=("$bin" ingest "$biased"); wanted=1
        else
            local_name="cmd_$name[@]"; command=("${!local_name}"); wanted=0
        fi
        context="$name $reader"
        # The statuses are read, not acted on: errexit would stop at the first 1.
        set +e
        case $reader in
            "| true") "${command[@]}" 2>/dev/null | true; status=${PIPESTATUS[0]} ;;
            "| head -c 1") "${command[@]}" 2>/dev/null | head -c 1 >/dev/null; status=${PIPESTATUS[0]} ;;
            ">&-") "${command[@]}" 2>/dev/null >&-; status=$? ;;
        esac
        set -e
        faults=$((faults + 1))
        status_is "$status" "$wanted"
        verify 1
    done
done

# --- A full disk: refused with the target named, the earlier output kept, nothing left ---
if mount -t tmpfs -o size=256k tmpfs "$full" 2>/dev/null; then
    "$bin" run naive-swap --n 3 --trials 1e4 --seed 1 --json "$full/run.json" --report "$full/report" >/dev/null 2>&1
    earlier=$(sha256sum "$full/run.json" "$full/report/index.html")
    for target in json csv report; do
        case $target in
            json) command=("$bin" run naive-swap --n 8 --trials 2e5 --seed 2 --json "$full/run.json") ;;
            csv) command=("$bin" ingest "$inputs/fair8.txt" --csv "$full/ingest.csv") ;;
            report) command=("$bin" report --out "$full/report" --force) ;;
        esac
        context="disk full, $target"
        status=0; message=$("${command[@]}" 2>&1 >/dev/null) || status=$?
        faults=$((faults + 1))
        status_is "$status" 2
        if [[ $message != *"No space left on device"* || $message == *".shuffle-audit-"* ]]; then
            echo "  disk full, $target: the message does not name the target's problem: $message" >&2
            wrong_status=$((wrong_status + 1))
        fi
        if [[ $(sha256sum "$full/run.json" "$full/report/index.html") != "$earlier" ]]; then
            echo "  disk full, $target: an earlier output changed" >&2
            broken=$((broken + 1))
        fi
        if ls -a "$full" | grep -q '^\.shuffle-audit-.*\.tmp$'; then
            echo "  disk full, $target: a temporary was left" >&2
            leftovers=$((leftovers + 1))
        fi
    done
    umount "$full"
else
    echo "fault_test.sh: cannot mount a tmpfs (not root?); the full-disk faults need it" >&2
    exit 2
fi

echo "$faults faults, $broken broken files, $lost lost inputs, $leftovers leftovers, $wrong_status wrong exit statuses"
if ((broken + lost + leftovers + wrong_status > 0)); then
    exit 1
fi
