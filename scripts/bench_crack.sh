#!/usr/bin/env bash
# `seeds crack` speed (issue 7's goals: a whole day of Delphi's Randomize seeds,
# 86,400,000, in under 30 s on 2 cores; a clock-synchronised window of 120,000 seeds
# well under a second). Deals the poker deck of 14:00:12.345 with `seeds deal`, takes
# the five cards its first player sees (two hole cards, three on the flop), and cracks
# them over both windows with delphi + asf-poker, timed end to end through the command
# line (process start and thread pool included), best of three.
#
# Usage: scripts/bench_crack.sh [THREADS]   (default: all cores)
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/target_dir.sh
source scripts/target_dir.sh
cargo build --quiet --release
binary=$release_bin
threads=${1:-$(nproc)}
poker=(--source delphi --algorithm asf-poker)
read -r -a deck <<<"$("$binary" seeds deal "${poker[@]}" --seed 14:00:12.345)"
seen=(--seen "${deck[0]}" --seen-at "6:${deck[5]},12:${deck[11]},13:${deck[12]},14:${deck[13]}")
TIMEFORMAT=%R
for window in 13:59:00..14:01:00 00:00:00..24:00:00; do
    times=""
    for _ in 1 2 3; do
        times+=" $( { time "$binary" seeds crack "${poker[@]}" --window "$window" "${seen[@]}" \
            --threads "$threads" >/dev/null; } 2>&1 )"
    done
    seeds=$("$binary" seeds crack "${poker[@]}" --window "$window" "${seen[@]}" --json - \
        | sed -n 's/^ *"seeds": \([0-9]*\),*$/\1/p')
    echo "$times" | awk -v window="$window" -v seeds="$seeds" -v threads="$threads" '{
        best = $1; for (i = 2; i <= NF; i++) if ($i < best) best = $i;
        printf "seeds crack, delphi + asf-poker, %s (%d seeds), %d thread%s: %.3f s (best of 3), %.1f M seeds/s\n",
            window, seeds, threads, threads == 1 ? "" : "s", best, seeds / best / 1e6 }'
done
