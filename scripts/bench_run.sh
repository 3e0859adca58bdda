#!/usr/bin/env bash
# What users run, timed as they run it (issue 43): `shuffle-audit run SHUFFLE --n N --json`
# on every core, its `trials_per_second`, beside
#   - the same command of another build: the previous release (the commit that set
#     Cargo.toml's version) or the commit given by --against REV, built on the side in
#     a git worktree under cargo's target directory (kept, so the next run reuses it);
#   - the plain loop a user would write (examples/plain_loop.rs: draw with rand's
#     random_range, swap, tally the same tables the plain way; no batching, no tricks).
# Prints, for Fisher-Yates on 3, 6, 10, 13, 20, 32, 52, 100, 200 and 2,000 cards and the
# naive swap on 52, the three speeds and the ratios; then every catalogue shuffle at 52
# cards against the other build; then `exact naive-swap` at n = 8 and 9.
#
# Each figure is the best of ROUNDS (default 3) runs, the builds taking turns, so that
# both see the same machine; a run simulates for about a second (trials chosen by two
# short pilots).
#
# With --sizes, it runs instead every catalogue shuffle on every deck size of a ladder
# (2, 3, 4, 6, 8, 10, 13, 20, 32, 52, 100, 200 and 2,000 cards, or the sizes given in
# SIZES) against the other build, best of ROUNDS (default 2) runs of about half a second
# each, and prints the table of ratios and the slowest cells: "every size at its best"
# (issue 43) measured size by size. About 20 minutes on 2 cores; SHUFFLES="riffles
# overhand" runs only those rows.
#
# Usage: scripts/bench_run.sh [--against REV] [--sizes]
#   scripts/bench_run.sh --against a7a2deb            # the build before batched draws
#   scripts/bench_run.sh --against a7a2deb --sizes    # every shuffle, every size
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/target_dir.sh
source scripts/target_dir.sh

against=""
sizes=false
while [[ $# -gt 0 ]]; do
    case $1 in
    --against)
        against=${2:?"--against needs a commit"}
        shift 2
        ;;
    --sizes)
        sizes=true
        shift
        ;;
    *)
        echo "bench_run.sh: unknown argument '$1' (usage: scripts/bench_run.sh [--against REV] [--sizes])" >&2
        exit 2
        ;;
    esac
done
if [[ -z $against ]]; then
    against=$(git log -1 --format=%H -G '^version = ' -- Cargo.toml)
    label="the previous release ($(git show -s --format=%h "$against"), $(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml))"
else
    label=$against
fi
sha=$(git rev-parse --verify --quiet "$against^{commit}") || {
    echo "bench_run.sh: --against $against is not a commit of this repository" >&2
    exit 2
}
if $sizes; then rounds=${ROUNDS:-2}; else rounds=${ROUNDS:-3}; fi

cargo build --quiet --release --bin shuffle-audit --example plain_loop
this=$release_bin
plain=$target_dir/release/examples/plain_loop

# The other build: a worktree of that commit, built once with this checkout's toolchain
# into a target directory of its own, and kept as one binary per commit.
side=$target_dir/bench-against
other=$side/shuffle-audit-$sha
if [[ ! -x $other ]]; then
    mkdir -p "$side"
    tree=$side/tree-$sha
    git worktree add --quiet --detach "$tree" "$sha"
    echo "building $label on the side (once; kept in $side)" >&2
    (cd "$tree" && CARGO_TARGET_DIR=$side/target cargo build --quiet --release --bin shuffle-audit)
    cp "$side/target/release/shuffle-audit" "$other.tmp"
    mv "$other.tmp" "$other"
    git worktree remove --force "$tree"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# trials_per_second of `BIN run SHUFFLE --n N --trials T`, in millions. Status 1 (a
# verdict of fail or inconclusive) is a verdict, not an error of the bench.
run_speed() {
    local bin=$1 shuffle=$2 n=$3 trials=$4
    "$bin" run "$shuffle" --n "$n" --trials "$trials" --seed 1 --json "$work/run.json" >/dev/null 2>&1 ||
        [[ $? -eq 1 ]] || { echo "bench_run.sh: $bin run $shuffle --n $n failed" >&2; exit 2; }
    # Read with sed, not a JSON parser: a 2,000-card run's JSON holds its 4 million
    # positions (hundreds of MB), which Python takes seconds and a gigabyte to load.
    sed -n 's/^ *"trials_per_second": *\([0-9.eE+-]*\),*$/\1/p' "$work/run.json" | head -n 1 |
        awk '{ print $1 / 1e6 }'
}
plain_speed() {
    "$plain" "$1" "$2" "$3" | python3 -c 'import json, sys; print(json.load(sys.stdin)["trials_per_second"] / 1e6)'
}
# Trials for about a second of simulation: `run`'s figure counts its whole time, the
# analysis after the simulation too (a fixed cost: the 3,628,800 orders of 10 cards),
# so the rate is read from two pilots, at PILOT and 4 x PILOT trials, as the trials the
# second did more over the time it took more.
trials_for() {
    local shuffle=$1 n=$2 pilot=$3 small large
    small=$(run_speed "$this" "$shuffle" "$n" "$pilot")
    large=$(run_speed "$this" "$shuffle" "$n" $((4 * pilot)))
    python3 -c '
import sys
pilot, small, large = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3])
more_time = 4 * pilot / large - pilot / small
rate = 3 * pilot / more_time if more_time > 0 else large
print(max(4 * pilot, int(rate * 1e6)))' "$pilot" "$small" "$large"
}
# Trials for about SECONDS (default 0.5) of simulation of a shuffle whose speed is not
# known (naive-repeated on 2,000 cards does hundreds a second, Fisher-Yates on 3 cards
# a billion): pilots from 256 trials up, eight times more each, until one takes a
# twentieth of that; then trials_for's two pilots, the second four times the first.
trials_for_time() {
    local shuffle=$1 n=$2 seconds=${3:-0.5} pilot=256 rate
    while :; do
        rate=$(run_speed "$this" "$shuffle" "$n" "$pilot")
        python3 -c 'import sys; sys.exit(0 if int(sys.argv[1]) / (float(sys.argv[2]) * 1e6) >= float(sys.argv[3]) / 20 else 1)' \
            "$pilot" "$rate" "$seconds" && break
        pilot=$((pilot * 8))
    done
    python3 -c 'import sys; print(max(int(sys.argv[1]), int(float(sys.argv[2]) * float(sys.argv[3]))))' \
        "$pilot" "$(trials_for "$shuffle" "$n" "$pilot")" "$seconds"
}
best() { python3 -c 'import sys; print(max(float(x) for x in sys.argv[1:]))' "$@"; }
ratio() { python3 -c 'import sys; print("%.2f" % (float(sys.argv[1]) / float(sys.argv[2])))' "$1" "$2"; }

shuffles_of() {
    "$1" list --json 2>/dev/null | python3 -c '
import json, sys
print(" ".join(e["name"] for e in json.load(sys.stdin)["entries"] if e["kind"] == "shuffle"))'
}

if $sizes; then
    ladder=${SIZES:-"2 3 4 6 8 10 13 20 32 52 100 200 2000"}
    echo "every catalogue shuffle at every size: run ... --json, trials per second on $(nproc) cores,"
    echo "this build over $label, best of $rounds runs of about 0.5 s each"
    printf '%-26s' "shuffle \\ cards"
    for n in $ladder; do printf ' %6s' "$n"; done
    echo
    theirs_listed=" $(shuffles_of "$other") "
    : >"$work/cells"
    for shuffle in ${SHUFFLES:-$(shuffles_of "$this")}; do
        [[ $theirs_listed == *" $shuffle "* ]] || continue
        printf '%-26s' "$shuffle"
        for n in $ladder; do
            trials=$(trials_for_time "$shuffle" "$n")
            ours=() theirs=()
            for _ in $(seq "$rounds"); do
                ours+=("$(run_speed "$this" "$shuffle" "$n" "$trials")")
                theirs+=("$(run_speed "$other" "$shuffle" "$n" "$trials")")
            done
            cell=$(ratio "$(best "${ours[@]}")" "$(best "${theirs[@]}")")
            printf ' %6s' "$cell"
            echo "$cell $shuffle $n $(best "${ours[@]}") $(best "${theirs[@]}")" >>"$work/cells"
        done
        echo
    done
    echo
    echo "the ten slowest cells (ratio, shuffle, cards, this M/s, against M/s):"
    sort -g "$work/cells" | head -n 10 | sed 's/^/  /'
    awk '{ if ($1 < 1) below++ } END { printf "%d of %d cells below 1.00\n", below, NR }' "$work/cells"
    exit 0
fi

echo "shuffle-audit run ... --json, trials per second on $(nproc) cores, best of $rounds;"
echo "against: $label"
printf '%-22s %12s %12s %12s %10s %10s\n' "shuffle, cards" "this (M/s)" "against" "plain loop" "/against" "/plain"
for case in fisher-yates:3 fisher-yates:6 fisher-yates:10 fisher-yates:13 fisher-yates:20 \
    fisher-yates:32 fisher-yates:52 naive-swap:52 fisher-yates:100 fisher-yates:200 fisher-yates:2000; do
    shuffle=${case%:*} n=${case#*:}
    trials=$(trials_for "$shuffle" "$n" $((20000000 / n + 1000)))
    # The plain loop is slower (16 times, on 3 cards): its own second's worth, from a
    # pilot (it times its loop alone, so one pilot is enough).
    plain_trials=$(python3 -c 'import sys; print(max(100000, int(float(sys.argv[1]) * 1e6)))' \
        "$(plain_speed "$shuffle" "$n" $((20000000 / n + 1000)))")
    ours=() theirs=() plains=()
    for _ in $(seq "$rounds"); do
        ours+=("$(run_speed "$this" "$shuffle" "$n" "$trials")")
        theirs+=("$(run_speed "$other" "$shuffle" "$n" "$trials")")
        plains+=("$(plain_speed "$shuffle" "$n" "$plain_trials")")
    done
    a=$(best "${ours[@]}") b=$(best "${theirs[@]}") c=$(best "${plains[@]}")
    printf '%-22s %12.2f %12.2f %12.2f %10s %10s\n' "$shuffle, $n" "$a" "$b" "$c" "$(ratio "$a" "$b")" "$(ratio "$a" "$c")"
done

echo
echo "every catalogue shuffle at 52 cards (trials per second, best of $rounds)"
printf '%-22s %12s %12s %10s\n' "shuffle" "this (M/s)" "against" "/against"
theirs_listed=" $(shuffles_of "$other") "
for shuffle in $(shuffles_of "$this"); do
    trials=$(trials_for "$shuffle" 52 100000)
    ours=() theirs=()
    for _ in $(seq "$rounds"); do
        ours+=("$(run_speed "$this" "$shuffle" 52 "$trials")")
        # A shuffle the other build does not have is timed here alone.
        [[ $theirs_listed == *" $shuffle "* ]] && theirs+=("$(run_speed "$other" "$shuffle" 52 "$trials")")
    done
    a=$(best "${ours[@]}")
    if [[ ${#theirs[@]} -gt 0 ]]; then
        b=$(best "${theirs[@]}")
        printf '%-22s %12.3f %12.3f %10s\n' "$shuffle" "$a" "$b" "$(ratio "$a" "$b")"
    else
        printf '%-22s %12.3f %12s %10s\n' "$shuffle" "$a" "(none)" "-"
    fi
done

echo
echo "exact naive-swap, wall time end to end (best of $rounds at n = 8, of 1 at n = 9)"
printf '%-22s %12s %12s %10s\n' "cards" "this (s)" "against" "/against"
TIMEFORMAT=%R
for n in 8 9; do
    times_this=() times_other=()
    tries=$rounds
    [[ $n -eq 9 ]] && tries=1
    for _ in $(seq "$tries"); do
        times_this+=("$( { time "$this" exact naive-swap --n "$n" >/dev/null; } 2>&1)")
        times_other+=("$( { time "$other" exact naive-swap --n "$n" >/dev/null; } 2>&1)")
    done
    a=$(python3 -c 'import sys; print(min(float(x) for x in sys.argv[1:]))' "${times_this[@]}")
    b=$(python3 -c 'import sys; print(min(float(x) for x in sys.argv[1:]))' "${times_other[@]}")
    # A time: the ratio is theirs over ours, so that above 1 is faster here too.
    printf '%-22s %12.2f %12.2f %10s\n' "$n ($n^$n paths)" "$a" "$b" "$(ratio "$b" "$a")"
done
