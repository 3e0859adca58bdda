#!/usr/bin/env bash
# What a full view (heat map, bars, every test, the verdict) costs under `serve` while a
# 10-card run runs: the processor time each view took (the snapshot's `view_ms`), over
# the views of a few seconds of the run, for a fair shuffle, a flawed source and a
# carried deck. Prints the median and the largest, and how many views came.
#
# Usage: [SECONDS_PER_CASE=6] scripts/bench_serve_views.sh [THREADS]   (default: all cores)
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/target_dir.sh
source scripts/target_dir.sh
cargo build --quiet --release
bin=$release_bin
threads=${1:-$(nproc)}
seconds=${SECONDS_PER_CASE:-6}
out=$(mktemp -d)
trap 'kill "${server:-}" 2>/dev/null || true; rm -rf "$out"' EXIT
source scripts/serve_start.sh
start_serve "$bin" "$threads" "$out/serve.log"

for body in \
    '{"algorithm":"naive-swap","n":"10","trials":"1e10","seed":"1"}' \
    '{"algorithm":"fisher-yates","n":"10","trials":"1e10","seed":"1","source":"delphi"}' \
    '{"algorithm":"dealer-riffles","n":"10","trials":"1e10","seed":"1"}'; do
    id=$(curl -sf -X POST "$url/api/runs" -H 'content-type: application/json' -d "$body" |
        sed 's/.*"id":"\([0-9a-f]*\)".*/\1/')
    timeout "$seconds" curl -sfN "$url/api/runs/$id/events" >"$out/events" || true
    curl -sf -X POST "$url/api/runs/$id/stop" >/dev/null || true
    python3 - "$body" "$out/events" "$seconds" <<'PY'
import json, sys
body, path, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
snaps = [json.loads(l[6:]) for l in open(path) if l.startswith("data: {")]
costs = sorted(s["view_ms"] for s in snaps if s.get("view_ms") is not None)
if not costs:
    sys.exit(f"no views for {body}")
print(f"{json.loads(body)['algorithm']:15} {json.loads(body).get('source', 'xoshiro'):8} "
      f"{len(snaps):4d} updates, {len(costs):4d} views in {seconds:.0f} s; view cost median "
      f"{costs[len(costs) // 2]:8.2f} ms, largest {costs[-1]:8.2f} ms")
PY
done
