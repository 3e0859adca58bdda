#!/usr/bin/env bash
# Watching must cost little (issue 20): a catalogue run under `serve` against `run` with
# the same arguments. For `run`, its own trials per second (from its JSON: simulation
# time only); for `serve`, trials divided by the wall time from the request that starts
# the run to the end of its event stream (steps, tallies added, snapshots drawn and sent:
# everything watching costs). Each case runs twice, alternating, and the best of each
# is compared; the machine's other load moves both alike.
#
# Usage: [CASE="ALGORITHM N TRIALS"] scripts/bench_serve.sh [THREADS]   (default: all cores)
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/target_dir.sh
source scripts/target_dir.sh
cargo build --quiet --release
bin=$release_bin
threads=${1:-$(nproc)}
out=$(mktemp -d)
trap 'kill "${server:-}" 2>/dev/null || true; rm -rf "$out"' EXIT
source scripts/serve_start.sh
start_serve "$bin" "$threads" "$out/serve.log"

now() { date +%s.%N; }

serve_rate() { # algorithm n trials
    local started id finished
    started=$(now)
    id=$(curl -sf -X POST "$url/api/runs" -H 'content-type: application/json' \
        -d "{\"algorithm\":\"$1\",\"n\":\"$2\",\"trials\":\"$3\",\"seed\":\"1\"}" | sed 's/.*"id":"\([0-9a-f]*\)".*/\1/')
    curl -sfN "$url/api/runs/$id/events" >"$out/events"
    finished=$(now)
    grep -q "\"phase\":\"done\"" "$out/events" || { echo "serve: the run did not finish: $(tail -c 300 "$out/events")" >&2; exit 1; }
    curl -sf "$url/api/runs/$id/json" >"$out/serve.json"
    awk -v t="$3" -v a="$started" -v b="$finished" 'BEGIN { printf "%.0f", t / (b - a) }'
}

run_rate() { # algorithm n trials
    "$bin" run "$1" --n "$2" --trials "$3" --seed 1 --threads "$threads" --json "$out/run.json" >/dev/null || true
    python3 -c 'import json,sys; print(round(json.load(open(sys.argv[1]))["trials_per_second"]))' "$out/run.json"
}

best() { tr ' ' '\n' | sort -n | tail -1; }

# CASE="ALGORITHM N TRIALS" runs that one case only.
if [[ -n ${CASE:-} ]]; then
    cases=("$CASE")
else
    cases=("naive-swap 3 4e8" "fisher-yates 52 2e7" "naive-swap 10 5e7")
fi
for case in "${cases[@]}"; do
    set -- $case
    runs=""; serves=""
    for _ in 1 2; do
        runs+=" $(run_rate "$@")"
        serves+=" $(serve_rate "$@")"
    done
    r=$(echo $runs | best); s=$(echo $serves | best)
    # The download is run's JSON for the same arguments (timing aside).
    python3 - "$out/run.json" "$out/serve.json" <<'PY'
import json, sys
def strip(j):
    for f in ["threads", "elapsed_seconds", "trials_per_second", "draws_per_second", "seed_origin"]:
        j.pop(f, None)
    for r in j["results"]:
        r.pop("elapsed_seconds", None)
    return j
a, b = (strip(json.load(open(p))) for p in sys.argv[1:])
sys.exit(0 if a == b else "serve's JSON differs from run's")
PY
    awk -v c="$1 --n $2 --trials $3" -v r="$r" -v s="$s" -v j="$threads" 'BEGIN {
        printf "%-32s run %12.0f/s   serve %12.0f/s   serve/run %.3f   (%d threads, best of 2; JSON identical)\n", c, r, s, s / r, j }'
done
