#!/usr/bin/env bash
# How fast `seeds recover` answers (issue 31's goals: java.util.Random from one 52-card
# deal in at most 1 s on one core; V8's Math.random from at most 3 deals of 52 cards in at
# most 10 s on 2 cores). Each case runs 5 times; the median of the search time the JSON
# reports (elapsed_seconds) is printed beside its goal. Fair deals (Python's random, not
# any runtime modelled) time the "no state" answer, which searches everything.
#
#   scripts/bench_recover.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/target_dir.sh
cargo build --release --quiet
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fixtures=tests/fixtures/recover
python3 - "$work" <<'PY'
import random, sys
r = random.Random(2026)
for n, deals in [(52, 3), (10, 12)]:
    with open(f"{sys.argv[1]}/fair{n}.txt", "w") as out:
        for _ in range(deals):
            deck = list(range(1, n + 1)); r.shuffle(deck)
            out.write(" ".join(map(str, deck)) + "\n")
PY
head -1 $fixtures/java-seed42-52.txt >"$work/java1.txt"
head -1 $fixtures/node-fisher-yates-seed7-52.txt >"$work/node1.txt"
head -1 $fixtures/node-lodash-seed9-52.txt >"$work/lodash1.txt"
head -40 $fixtures/node-lodash-seed4-4.txt >"$work/lodash40.txt"

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# bench LABEL GOAL THREADS RUNTIME FILE
bench() {
    local label=$1 goal=$2 threads=$3 runtime=$4 file=$5 times=()
    for _ in 1 2 3 4 5; do
        times+=("$("$release_bin" seeds recover --runtime "$runtime" "$file" -j "$threads" --json - 2>/dev/null |
            python3 -c 'import json,sys; print(json.load(sys.stdin)["elapsed_seconds"])' || true)")
    done
    printf '%-58s %8.3f s   %s\n' "$label" "$(printf '%s\n' "${times[@]}" | median)" "$goal"
}
echo "seeds recover, median of 5 runs ($(nproc) cores here)"
bench "java: 1 deal of 52 cards, 1 thread" "goal <= 1 s on one core" 1 java "$work/java1.txt"
bench "java: 3 fair deals of 52 cards (no state), 1 thread" "" 1 java "$work/fair52.txt"
bench "java: 12 fair deals of 10 cards (no state), 2 threads" "" 2 java "$work/fair10.txt"
bench "node: 1 deal of 52 cards, Fisher-Yates, 2 threads" "goal <= 10 s on 2 cores" 2 node "$work/node1.txt"
bench "node: 1 deal of 52 cards, lodash, 2 threads" "goal <= 10 s on 2 cores" 2 node "$work/lodash1.txt"
bench "node: 40 deals of 4 cards, lodash, 2 threads" "" 2 node "$work/lodash40.txt"
bench "node: 40 deals of 10 cards, Fisher-Yates, 2 threads" "" 2 node "$fixtures/node-fisher-yates-seed-5-10.txt"
bench "node: 3 fair deals of 52 cards (no state), 2 threads" "" 2 node "$work/fair52.txt"
