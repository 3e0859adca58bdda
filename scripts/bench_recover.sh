#!/usr/bin/env bash
# How fast `seeds recover` answers (issue 31's goals: java.util.Random from one 52-card
# deal in at most 1 s on one core; V8's Math.random from at most 3 deals of 52 cards in at
# most 10 s on 2 cores; issue 41's for the engines that add their words: one deal in at
# most 10 s, three in at most 2). Each case runs 5 times; the median of the search time the JSON
# reports (elapsed_seconds) is printed beside its goal. Fair deals (Python's random, not
# any runtime modelled) time the "no state" answer, which searches everything.
#
# Then the runtimes seeded from 32 bits (issue 32's goals on 2 cores: c-rand and
# fast-shuffle's 2^32 seeds in at most 3 minutes, python's and go's in at most 20 with a
# window of 10^7 in seconds, php's and numpy's in at most 2, and issue 41's: dotnet's 2^31 - 1
# in at most 2; at least 0.5x the seed rate of
# openwall's php_mt_seed): one search each of the whole seed space for the first deal of
# a fixture (fast-shuffle: two), its seeds per second and time. SKIP_PYTHON_WHOLE=1 leaves
# out python's whole space (several minutes). With PHP_MT_SEED naming a php_mt_seed
# binary (https://github.com/openwall/php_mt_seed, built outside this repository with its
# Makefile, which passes -march=native), php_mt_seed searches the same PHP deal, given its
# first 8 draws (`j j 0 i` for each mt_rand_range(0, i)), and its rate and ours/theirs are
# printed; its time includes its search of PHP 3.0.7 to 5.2.0's seeds (a fraction of a
# second) and it tests PHP 5.2.1 to 7.0's generator beside 7.1's on every seed. Both
# searches use every core (php_mt_seed through OpenMP). SEEDED_WINDOW=START..END narrows
# our searches for a quick look (the rates are then of that window, and php_mt_seed is
# not run).
#
#   scripts/bench_recover.sh
#   PHP_MT_SEED=/tmp/php_mt_seed/php_mt_seed scripts/bench_recover.sh
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

# Issue 41: the engines that add xorshift128+'s words, from real deals of Chromium 156,
# Deno 2.9.8 and 2.8.3 and Firefox ESR 153 (goals on 2 cores: 1 deal <= 10 s, 3 deals <= 2 s).
head -1 $fixtures/chromium156-fisher-yates-52.txt >"$work/chromium1.txt"
head -3 $fixtures/chromium156-fisher-yates-52.txt >"$work/chromium3.txt"
head -1 $fixtures/firefox153-lodash-52.txt >"$work/firefox1.txt"
head -1 $fixtures/deno2.9-fisher-yates-52.txt >"$work/deno1.txt"
head -1 $fixtures/deno2.8-fisher-yates-52.txt >"$work/deno28-1.txt"
head -3 $fixtures/deno2.8-fisher-yates-52.txt >"$work/deno28-3.txt"
bench "v8: Chromium 156, 1 deal of 52 cards, Fisher-Yates, 2 threads" "goal <= 10 s" 2 v8 "$work/chromium1.txt"
bench "v8: Chromium 156, 3 deals of 52 cards, Fisher-Yates, 2 threads" "goal <= 2 s" 2 v8 "$work/chromium3.txt"
bench "v8: Deno 2.9.8, 1 deal of 52 cards, Fisher-Yates, 2 threads" "goal <= 10 s" 2 v8 "$work/deno1.txt"
bench "v8: Deno 2.8.3 (read backwards), 1 deal of 52, 2 threads" "goal <= 10 s" 2 v8 "$work/deno28-1.txt"
bench "v8: Deno 2.8.3 (read backwards), 3 deals of 52, 2 threads" "goal <= 2 s" 2 v8 "$work/deno28-3.txt"
bench "spidermonkey: Firefox 153, 1 deal of 52, lodash, 2 threads" "goal <= 10 s" 2 spidermonkey "$work/firefox1.txt"
bench "js: Firefox 153, 1 deal of 52, lodash, every engine, 2 threads" "" 2 js "$work/firefox1.txt"

# seeded RUNTIME FILE GOAL [WINDOW]: one search of the whole seed space (or WINDOW, or
# SEEDED_WINDOW) with every core; prints its rate and time, and leaves the rate in $rate.
seeded() {
    local runtime=$1 file=$2 goal=$3 window=() what
    what=${4:-${SEEDED_WINDOW:-}}
    [[ -n $what ]] && window=(--window "$what")
    read -r rate seconds searched seed < <("$release_bin" seeds recover --runtime "$runtime" "$file" \
        -j "$(nproc)" "${window[@]}" --json - 2>/dev/null |
        python3 -c 'import json, sys
d = json.load(sys.stdin); s = d["seeds_searched"]["searched"]; t = d["elapsed_seconds"]
print(s / t, t, s, "none" if d["seed"] is None else d["seed"])')
    printf '%-70s %8.1f s   %6.1f M seeds/s (%d seeds, found seed %s)   %s\n' \
        "$runtime: $(wc -l <"$file") deal(s) of 52 cards, ${what:-every seed}, $(nproc) threads" \
        "$seconds" "$(python3 -c "print($rate / 1e6)")" "$searched" "$seed" "$goal"
}
head -1 $fixtures/php-seed1635753968-52.txt >"$work/php1.txt"
head -1 $fixtures/numpy-seed2499700527-52.txt >"$work/numpy1.txt"
head -1 $fixtures/python-seed3735928559-52.txt >"$work/python1.txt"
head -1 $fixtures/c-rand-seed3000000000-52.txt >"$work/c1.txt"
head -1 $fixtures/go-seed1000000-52.txt >"$work/go1.txt"
head -2 $fixtures/fast-shuffle-seed-1234567-52.txt >"$work/fs2.txt"
head -1 $fixtures/dotnet-seed1000000-52.txt >"$work/dotnet1.txt"
echo
echo "seeded runtimes, one search each ($(uptime | sed 's/.*load/load/'))"
seeded c-rand "$work/c1.txt" "goal <= 180 s for 2^32 (glibc and Microsoft)"
seeded go "$work/go1.txt" "goal <= 1200 s for 2^31 - 1 (r.Shuffle and r.Perm)"
seeded dotnet "$work/dotnet1.txt" "goal <= 120 s for 2^31 - 1 (issue 41)"
seeded fast-shuffle "$work/fs2.txt" "goal <= 180 s for 2^32 (createShuffle)"
seeded python "$work/python1.txt" "goal: seconds for 10^7" 3735000000..3745000000
[[ -n ${SKIP_PYTHON_WHOLE:-} ]] || seeded python "$work/python1.txt" "goal <= 1200 s for 2^32"
seeded numpy "$work/numpy1.txt" "goal <= 120 s for 2^32"
seeded php "$work/php1.txt" "goal <= 120 s for 2^32"
ours=$rate
if [[ -n ${PHP_MT_SEED:-} && -z ${SEEDED_WINDOW:-} ]]; then
    # The deal's first 8 draws as php_mt_seed's "min max range_min range_max" groups.
    args=$(python3 - "$work/php1.txt" <<'PY'
import sys
dealt = [int(card) - 1 for card in open(sys.argv[1]).read().split()]
n = len(dealt); deck = list(range(n)); place = list(range(n)); groups = []
for i in range(n - 1, n - 9, -1):
    j = place[dealt[i]]
    groups.append(f"{j} {j} 0 {i}")
    deck[i], deck[j] = deck[j], deck[i]; place[deck[i]] = i; place[deck[j]] = j
print(" ".join(groups))
PY
)
    start=$(date +%s.%N)
    # shellcheck disable=SC2086 # the groups are separate arguments
    found=$("$PHP_MT_SEED" $args 2>/dev/null | grep -o 'seed = [^ ]* = [0-9]* (PHP 7.1.0+)' | tr '\n' ' ')
    seconds=$(python3 -c "print($(date +%s.%N) - $start)")
    theirs=$(python3 -c "print(2**32 / $seconds)")
    printf '%-70s %8.1f s   %6.1f M seeds/s (%s)\n' "php_mt_seed: the same deal's first 8 draws, 2^32 seeds" \
        "$seconds" "$(python3 -c "print($theirs / 1e6)")" "${found:-no seed found}"
    printf '%-70s %8.2f x   goal >= 0.5, aim 1.0\n' "php: our seeds/s over php_mt_seed's" "$(python3 -c "print($ours / $theirs)")"
fi
