#!/usr/bin/env bash
# Repeated decks at scale (issue 14): `shuffle-audit ingest` reads 20,000,000 deals of 52
# cards from a file, dealt as a program that seeds its generator from a 32-bit number
# would (examples/repeat_counter.rs --print: deal i is Fisher–Yates from a seed drawn from
# 0..2^32), and counts the decks dealt twice. Prints the file's size, ingest's wall time
# and peak memory (GNU time), and what it found: the repeats against what 2^32 decks
# expect (about 46,500) and the deck-space estimate, which should say about 2^32.
#
# The goal: under 30 s and under 1 GB on 2 cores. Usage: scripts/bench_repeats.sh [DEALS]
# (default 20,000,000). The file (about 2.8 GB) is written to a temporary directory
# ($TMPDIR) and removed at the end. Not part of CI.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/target_dir.sh
source scripts/target_dir.sh

deals=${1:-20000000}
cargo build --release --quiet --bin shuffle-audit --example repeat_counter
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

start=$(date +%s.%N)
"$target_dir"/release/examples/repeat_counter --print "$deals" >"$work/deals.txt"
echo "wrote $deals deals of 52 cards in $(echo "$(date +%s.%N) - $start" | bc | xargs printf '%.1f') s: $(du -h "$work/deals.txt" | cut -f1)"

status=0
/usr/bin/time -f "ingest: %e s wall, %U s user, %S s system, %M KB peak resident memory" \
    "$release_bin" ingest "$work/deals.txt" --json "$work/report.json" \
    >"$work/report.txt" 2>"$work/time.txt" || status=$?
if [ "$status" -gt 1 ]; then
    cat "$work/time.txt" >&2
    exit "$status"
fi
grep '^ingest:' "$work/time.txt"
python3 - "$work/report.json" <<'PY'
import json, sys
result = json.load(open(sys.argv[1]))["results"][0]
repeats = result["repeats"]
print(f"verdict: {result['verdict']}")
print(f"repeats: {repeats['count']} among {repeats['deals']:,} deals (a fair shuffle: {repeats['expected']:.2e})")
if repeats["estimated_decks"]:
    print(f"the program deals {repeats['estimated_decks']['text']}")
PY
