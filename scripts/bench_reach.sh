#!/usr/bin/env bash
# `seeds reach` throughput (issue 7): seeds dealt per second of wall-clock time on all
# cores, and CPU time per seed (user + system over seeds: the figure to compare on a
# shared machine, where wall-clock rates depend on the other jobs), for a few cases: the
# exact bitset (12 cards), the distinct sample (52 and 2,000 cards), each source, and
# the online-poker seed space (a day of milliseconds). Then, unless --quick is given,
# the full 2^32-seed runs of delphi + fisher-yates on 12 and on 52 cards (a few minutes
# each on 2 cores) with their wall time and peak memory.
#
# Usage: scripts/bench_reach.sh [--quick]
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/target_dir.sh
source scripts/target_dir.sh
cargo build --quiet --release
bin=$release_bin
out=$(mktemp)
trap 'rm -f "$out" "$out.time"' EXIT

# Runs `seeds reach ARGS` and prints its rates and peak memory.
reach() {
    /usr/bin/time -f "%U %S %M" -o "$out.time" "$bin" seeds reach "$@" --json "$out" >/dev/null
    read -r user system peak_kb <"$out.time"
    jq -r --arg user "$user" --arg system "$system" --arg peak "$peak_kb" --arg args "$*" '
        (.seeds.count) as $seeds
        | "\($args): \($seeds) seeds in \(.elapsed_seconds * 100 | round / 100) s, "
          + "\(.seeds_per_second / 1e6 * 10 | round / 10) M seeds/s on \(.threads) threads, "
          + "\((($user | tonumber) + ($system | tonumber)) / $seeds * 1e9 | round) ns CPU a seed, "
          + "\($peak | tonumber / 1024 | round) MiB peak; reachable \(.reachable.estimate | round)"
          + (if .reachable.exact then " (exact)" else " ± \(.reachable.standard_error | round)" end)' "$out"
}

reach --source delphi --n 12 --seed-bits 26
reach --source msvc-rand-mod --n 12 --seed-bits 26
reach --source delphi --n 52 --seed-bits 26
reach --source msvc-rand-mod --n 52 --seed-bits 26
reach --source xoshiro --n 52 --seed-bits 26
reach --source delphi --algorithm asf-poker --n 52 --seed-bits 26
reach --source delphi --n 2000 --seed-bits 18
# The online-poker case: every millisecond of a day, dealt by the 1999 shuffle.
reach --source clock-reseed --algorithm asf-poker --n 52

if [ "${1:-}" != "--quick" ]; then
    reach --source delphi --n 12
    reach --source delphi --n 52
fi
