#!/usr/bin/env bash
# Simulation throughput against loops that only make the same random draws, on all
# cores (issue 2's speed goal: 3-card Fisher-Yates with every tally at >= 0.8x its
# draw-only loop). Prints each figure and the ratio, then shuffle-bag stream throughput
# in draws per second (issue 3); see benches/throughput.rs. Then exact enumeration times.
#
# Usage: scripts/bench.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo bench --quiet --bench throughput

# Exact enumeration (issue 5's goal: naive swap on 8 cards, 8^8 = 16.8 M paths, in under
# 1 s, and on 9 cards, 9^9 = 387 M paths, in under 30 s, on 2 cores), timed end to end
# through the command line, best of three.
cargo build --quiet --release
TIMEFORMAT=%R
for cards in 8 9; do
    times=""
    for _ in 1 2 3; do
        times+=" $( { time ./target/release/shuffle-audit exact naive-swap --n "$cards" >/dev/null; } 2>&1 )"
    done
    echo "$times" | awk -v n="$cards" '{ best = $1; for (i = 2; i <= NF; i++) if ($i < best) best = $i;
        printf "exact naive-swap, %d cards (%d^%d paths): %.2f s (best of 3)\n", n, n, n, best }'
done

# ingest (issue 6's goal: 10 million 4-item lines in under 2 s on 2 cores, end to end
# including the analysis). The file (80 MB of Fisher-Yates shuffles of `0 1 2 3`, made by
# awk with a fixed seed) is generated once and kept in target/; best of three.
samples=target/bench-ingest-10M.txt
if [ ! -s "$samples" ]; then
    awk 'BEGIN { srand(7); for (i = 0; i < 10000000; i++) {
        a[0] = 0; a[1] = 1; a[2] = 2; a[3] = 3
        for (j = 3; j > 0; j--) { r = int(rand() * (j + 1)); t = a[j]; a[j] = a[r]; a[r] = t }
        print a[0] " " a[1] " " a[2] " " a[3] } }' > "$samples.tmp"
    mv "$samples.tmp" "$samples"
fi
times=""
for _ in 1 2 3; do
    times+=" $( { time ./target/release/shuffle-audit ingest "$samples" >/dev/null; } 2>&1 )"
done
echo "$times" | awk '{ best = $1; for (i = 2; i <= NF; i++) if ($i < best) best = $i;
    printf "ingest, 10,000,000 lines of 4 items (80 MB file): %.2f s (best of 3)\n", best }'
