#!/usr/bin/env bash
# First what users run (issue 43; scripts/bench_run.sh, which takes --against REV):
# `run ... --json` itself beside the plain loop a user would write and beside another
# build, for Fisher-Yates on 3 to 2,000 cards, every catalogue shuffle at 52, and
# `exact` at n = 8 and 9. Then simulation throughput against loops that only make the
# same random draws, on all cores (issue 33's goal: Fisher-Yates and naive swap on 3 to 6 cards with every tally at
# >= 0.9x a loop that makes the same batched draws). Prints each figure and the ratio,
# then a table; then (issue 15) run's default 52-card
# naive swap and Fisher-Yates, and Fisher-Yates on 200 and 2,000 cards, beside the plain
# loop of benches/common/plain_loop.rs, with the ratio; then every catalogue shuffle at 52
# cards beside a plain loop of the same shuffle, each in full and then as one table of
# ratios (`cargo bench --bench throughput -- all52` runs that part alone); then
# shuffle-bag stream throughput in draws per second (issue 3); see benches/throughput.rs. Then
# the wall time of the default `assert_fair_shuffle` (issue 6).
#
# Usage: scripts/bench.sh [--against REV]
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/target_dir.sh
source scripts/target_dir.sh
scripts/bench_run.sh "$@"
echo
cargo bench --quiet --bench throughput

# Exact enumeration (issue 5's goal: naive swap on 8 cards in under 1 s, on 9 cards in
# under 30 s, on 2 cores) is timed by scripts/bench_run.sh above, beside the other build.
cargo build --quiet --release
TIMEFORMAT=%R
# The default assertion (`assert_fair_shuffle`: 6 cards, 300,000 shuffles) on a user's
# Fisher-Yates, as the example prints it: in an optimised build, and in a dev build, the
# way a user's `cargo test` compiles it by default (issue 6: quick even unoptimised).
cargo build --quiet --release --example audit_my_shuffle
echo "release: $("$target_dir"/release/examples/audit_my_shuffle | sed -n 1p)"
cargo build --quiet --example audit_my_shuffle
echo "dev:     $("$target_dir"/debug/examples/audit_my_shuffle | sed -n 1p)"
# Merging shards (issue 6): two 10-card shards of 2,000,000 shuffles each, every one of
# the 3,628,800 orders in each shard's JSON (about 207 MB each), read, checked, added and
# analysed by `merge`; wall time and peak memory of the merge alone.
# 4e6 shuffles cannot test 10! orders (inconclusive, exit status 1): a verdict, not a
# failure of the script; 2 (an error) still stops it.
verdict() { "$@" || [[ $? -eq 1 ]]; }
shards=$(mktemp -d)
trap 'rm -rf "$shards"' EXIT
for shard in 1 2; do
    verdict "$release_bin" run fisher-yates --n 10 --trials 4e6 --seed 1 \
        --shard "$shard/2" --json "$shards/shard-$shard.json" >/dev/null 2>&1
done
verdict /usr/bin/time -f "merge of two 10-card shards (%e s, %M KB peak)" \
    "$release_bin" merge "$shards"/shard-*.json --json "$shards/merged.json" >/dev/null
# The default `check` suite (issue 6's goal: the whole catalogue in under a minute on 2
# cores, ~20 s or less so that CI can afford it), timed end to end, best of three.
times=""
for _ in 1 2 3; do
    times+=" $( { time "$release_bin" check -j 2 >/dev/null; } 2>&1 )"
done
echo "$times" | awk '{ best = $1; for (i = 2; i <= NF; i++) if ($i < best) best = $i;
    printf "check (default suite, 2 threads): %.2f s (best of 3)\n", best }'
# ingest (issue 6's goal: 10 million 4-item lines in under 2 s on 2 cores, end to end
# including the analysis). The file (80 MB of Fisher-Yates shuffles of `0 1 2 3`, made by
# awk with a fixed seed) is generated once and kept in cargo's target directory; best of three.
samples=$target_dir/bench-ingest-10M.txt
if [ ! -s "$samples" ]; then
    awk 'BEGIN { srand(7); for (i = 0; i < 10000000; i++) {
        a[0] = 0; a[1] = 1; a[2] = 2; a[3] = 3
        for (j = 3; j > 0; j--) { r = int(rand() * (j + 1)); t = a[j]; a[j] = a[r]; a[r] = t }
        print a[0] " " a[1] " " a[2] " " a[3] } }' > "$samples.tmp"
    mv "$samples.tmp" "$samples"
fi
times=""
for _ in 1 2 3; do
    times+=" $( { time "$release_bin" ingest "$samples" >/dev/null; } 2>&1 )"
done
echo "$times" | awk '{ best = $1; for (i = 2; i <= NF; i++) if ($i < best) best = $i;
    printf "ingest, 10,000,000 lines of 4 items (80 MB file): %.2f s (best of 3)\n", best }'
# ingest --kind stream (issue 6: 10 million items well under 2 s on 2 cores, end to end
# including the analysis). The file (20 MB: 10,000,000 i.i.d. draws of A:50,B:25,C:20,D:5,
# 10 per line, made by awk with a fixed seed) is generated once and kept in cargo's target directory; best
# of three, with the items given by --weights (one pass) and taken from the input (two).
stream=$target_dir/bench-ingest-stream-10M.txt
if [ ! -s "$stream" ]; then
    awk 'BEGIN { srand(7); for (i = 0; i < 1000000; i++) { line = ""
        for (j = 0; j < 10; j++) { r = rand() * 100
            line = line (r < 50 ? "A" : r < 75 ? "B" : r < 95 ? "C" : "D") (j < 9 ? " " : "") }
        print line } }' > "$stream.tmp"
    mv "$stream.tmp" "$stream"
fi
for items in "--weights A:50,B:25,C:20,D:5" ""; do
    times=""
    for _ in 1 2 3; do
        # shellcheck disable=SC2086
        # Both runs end in `fail` (status 1), which does not change the timing: without
        # --weights the items are tested as equally likely; with them, the gaps test
        # catches mawk's rand() itself (gaps p about 1e-191 over 10 million draws, where
        # Python's random passes), a real weakness of the generator that made the file.
        times+=" $( { time "$release_bin" ingest "$stream" --kind stream $items >/dev/null 2>&1 || true; } 2>&1 )"
    done
    echo "$times" | awk -v items="${items:-the tokens seen (two passes)}" '{ best = $1
        for (i = 2; i <= NF; i++) if ($i < best) best = $i
        printf "ingest --kind stream, 10,000,000 items (20 MB file), items %s: %.2f s (best of 3)\n", items, best }'
done
