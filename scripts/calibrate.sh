#!/usr/bin/env bash
# Measures the false-alarm rate of `shuffle-audit check`: its decision rule (fail below
# alpha; a suspicious result re-run once with an independent seed and 4x the trials) on
# fair shuffles, samplers and streams over 1,000 seeds each:
#   - fisher-yates on 4 and on 52 cards (`run`: every deal test with both tails, and
#     rising sequences);
#   - decks shuffled by Python's random.shuffle and read by `ingest` through a command
#     case (4 and 52 cards): the serial tests of consecutive deals and, on 52 cards, the
#     repeated-deck test, besides the deal tests;
#   - samples of 3 of 10 items by Python's random.sample (`ingest --kind selections`):
#     subsets, inclusion and the overlap of consecutive samples;
#   - a fair stream (independent draws of A:50,B:25,C:20,D:5, 1,000 per stream, one
#     stream per case: what `ingest --kind stream` tests).
#
# Prints how many cases fail the gate against what alpha and the confirmation rule
# predict (with the binomial probability of seeing at least that many), how many first
# runs were suspicious against the 1e-3 band, and a Kolmogorov-Smirnov test that the
# first runs' p-values are uniform, as they must be under the null. The p-value tested
# is the raw p of one test, the permutation test (all n! orders equally likely): the
# smallest Holm-adjusted p over the four tests, which the verdict reads, is not uniform
# under the null (it is a minimum, and adjusted upwards), so it cannot be KS-tested
# against the uniform law. For the stream, the frequency and run-length tests' raw p
# are KS-tested.
#
# For every test it also prints the share of first runs whose raw p-value is below 1e-2
# and 1e-3: a calibrated test is at or below those rates (both tails included: a test
# whose lower tail counts rejects "too even" counts within the same rate).
#
# The card-guessing game's test (issue 22) is in every case above; its rates are printed
# directly (its p-value is exact but discrete, so not KS-tested). `--guessing` runs only the
# game: its false alarms over 1,000 seeds of Fisher-Yates at 52 and 4 cards with the whole
# game, of two samplers and two streams (the item game), and its power against the naive swap, riffles and a dealer who riffles the previous
# deck three times, as samples needed.
#
# Usage: scripts/calibrate.sh [SEEDS] [N] [TRIALS]  or  scripts/calibrate.sh --guessing [SEEDS]
# (`--guessing-items [SEEDS]`: only the samplers' and streams' item game)   (default 1000 seeds, n = 4, 24,000
# trials: 1,000 expected per order, far from the sparse cells that inflate chi-square
# tails). Takes about ten minutes on 2 cores after the build (the command cases start
# Python 4,000 times); not part of CI.
#
# `--small [INPUTS]` is the small-sample sweep (issue 40): fair inputs of 2 to 60 deals of
# 3, 5, 8, 13, 52 and 200 cards read by `ingest` (in-process, examples/calibrate_small.rs:
# the same engine as the command), samplers and streams of a few samples, then a few sizes
# through the binary's `run`, through `check` (a suite of small `ingest` cases dealt by
# Python's random.shuffle) and through the Python module's `ingest` (when it is
# installed; scripts/wheel_test.sh runs it in the wheel's venv). INPUTS fair inputs per
# cell (default 1000). For every test and cell it prints the share of p-values at or below
# 1e-1, 1e-2 and 1e-3 against nominal, how they were computed, and the share of suspicious
# and failing verdicts; it flags a share above nominal beyond binomial noise
# (P(Binomial >= count) < 1e-4) and a cell above 0.5 % suspicious-or-worse beyond noise,
# and exits with 1 when anything is flagged. About 20 minutes on 2 cores at 1,000 inputs
# (most of it `check`'s 52-card cases, each a Python process and ingest's predictability
# check). `run` and `check` are swept by scripts/calibrate_runners.py, the Python module
# by scripts/calibrate_python.py; both share scripts/calibrate_shares.py.
# `--small-lean` is the version CI runs (.ci/run): every deck size at fewer deal counts and
# 300 inputs per cell, `run` at 200 seeds and `check` at 50; about 3 min. The inputs are seeded, so
# a run is repeatable.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/target_dir.sh
source scripts/target_dir.sh

seeds=${1:-1000}
n=${2:-4}
trials=${3:-24000}

cargo build --release --quiet
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# calibrate NAME CASE_TOML_FORMAT KS_TESTS: runs the fair case (a printf format taking the
# seed) over every seed and prints what the gate made of it.
calibrate() {
    local name=$1 what=$2 format=$3 tests=$4
    for ((seed = 1; seed <= seeds; seed++)); do
        # shellcheck disable=SC2059 # the format is ours
        printf "$format" "$seed" "$seed"
    done >"$work/$name.toml"
    local status=0
    "$release_bin" check --config "$work/$name.toml" --json "$work/$name.json" >/dev/null || status=$?
    if [ "$status" -gt 1 ]; then
        echo "calibrate: check stopped with status $status" >&2
        exit "$status"
    fi
    python3 "$work/report.py" "$work/$name.json" "$name" "$what" "$tests"
}

cat >"$work/report.py" <<'PY'
import json
import math
import sys

report = json.load(open(sys.argv[1]))
name = sys.argv[2]
what = sys.argv[3]
ks_tests = sys.argv[4].split(",")
cases = report["cases"]
alpha = report["alpha"]
count = len(cases)
suspicious_below = 1e-3

failing = sum(1 for case in cases if not case["as_expected"])
first_suspicious = sum(1 for case in cases if case["first"]["verdict"] == "suspicious")
first_fail = sum(1 for case in cases if case["first"]["verdict"] == "fail")
confirmed_bad = sum(
    1 for case in cases if case["confirmation"] and case["confirmation"]["verdict"] != "pass"
)


def binomial_tail(k, n, p):
    """P(X >= k) for X ~ Binomial(n, p), as 1 - P(X < k) with each term in log space."""
    def pmf(i):
        return math.exp(
            math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1)
            + i * math.log(p) + (n - i) * math.log1p(-p)
        )
    return max(0.0, 1.0 - sum(pmf(i) for i in range(k)))


# Holm's correction keeps the chance that the smallest adjusted p-value falls below a
# level at most that level under the null, so a fair case is suspicious-or-worse on its
# first run with probability at most 1e-3, fails outright with at most alpha, and fails
# the gate with at most alpha + 1e-3 * 1e-3 (suspicious twice, the runs independent).
p_gate = alpha + suspicious_below * suspicious_below
p_first = suspicious_below
print(f"{name}, {count} seeds, {what} each, alpha {alpha:g}")
print(
    f"cases failing the gate: {failing} of {count}; the rule predicts at most "
    f"{count * p_gate:.4f} (p per case <= {p_gate:.2e}); "
    f"P(at least {failing} | that rate) = {binomial_tail(failing, count, p_gate):.3g}"
    + (": consistent" if binomial_tail(failing, count, p_gate) > 1e-3 else ": NOT consistent")
)
print(
    f"first runs suspicious or worse: {first_suspicious + first_fail} of {count} "
    f"({first_fail} fail); at most {count * p_first:.1f} expected; "
    f"P(at least {first_suspicious + first_fail}) = "
    f"{binomial_tail(first_suspicious + first_fail, count, p_first):.3g}; "
    f"confirmations not passing: {confirmed_bad}"
)

# Kolmogorov-Smirnov test of each named test's raw first-run p-values against U(0, 1).
for test_name in ks_tests:
    ps = sorted(
        test["p_value"]
        for case in cases
        for test in case["first"]["tests"]
        if test["name"] == test_name and test["p_value"] is not None
    )
    m = len(ps)
    d = max(max((i + 1) / m - p, p - i / m) for i, p in enumerate(ps))
    # Asymptotic Kolmogorov distribution with Stephens' small-sample correction.
    t = (math.sqrt(m) + 0.12 + 0.11 / math.sqrt(m)) * d
    ks_p = min(1.0, max(0.0, 2 * sum((-1) ** (j - 1) * math.exp(-2 * j * j * t * t) for j in range(1, 101))))
    deciles = [sum(1 for p in ps if k / 10 <= p < (k + 1) / 10) for k in range(10)]
    below_1e2 = sum(1 for p in ps if p < 1e-2)
    below_1e3 = sum(1 for p in ps if p < 1e-3)
    print(
        f"KS test of the {test_name} test's raw p-values (first runs, {m}) against uniform: "
        f"D = {d:.4f}, p = {ks_p:.3f}"
        + (": consistent with uniform" if ks_p > 1e-3 else ": NOT uniform")
        + f"; per decile (expected {m / 10:.0f} each): {deciles}"
    )
    print(
        f"  {test_name}: raw p < 1e-2 in {below_1e2} of {m} ({100 * below_1e2 / m:.1f} %, nominal 1 %), "
        f"< 1e-3 in {below_1e3} ({100 * below_1e3 / m:.2f} %, nominal 0.1 %); "
        f"P(at least {below_1e2} | 1 %) = {binomial_tail(below_1e2, m, 1e-2):.3g}"
    )

# The repeated-deck test is a count with a discrete p-value (1 when nothing repeats): its
# false-alarm rate is read directly.
repeats = [
    t["p_value"]
    for case in cases
    for t in case["first"]["tests"]
    if t["name"] == "repeats" and t["p_value"] is not None
]
if repeats:
    alarms = sum(1 for p in repeats if p < 1e-3)
    print(f"  repeats (a count): raw p < 1e-3 in {alarms} of {len(repeats)} first runs (nominal at most 0.1 %)")

# The guessing test's p-value is exact and discrete (P(X >= x) of a sum of Bernoullis), or
# for items whose chances depend on the history a martingale bound: at or below nominal at
# every level either way, so its rates are read directly.
guessing = [
    t["p_value"]
    for case in cases
    for t in case["first"]["tests"]
    if t["name"] == "guessing" and t["p_value"] is not None
]
if guessing:
    m = len(guessing)
    below_1e2 = sum(1 for p in guessing if p < 1e-2)
    below_1e3 = sum(1 for p in guessing if p < 1e-3)
    print(
        f"  guessing (exact and discrete, or a conservative bound): raw p < 1e-2 in {below_1e2} of {m} ({100 * below_1e2 / m:.1f} %, "
        f"nominal at most 1 %), < 1e-3 in {below_1e3} ({100 * below_1e3 / m:.2f} %, nominal at most 0.1 %); "
        f"P(at least {below_1e2} | 1 %) = {binomial_tail(below_1e2, m, 1e-2):.3g}"
    )
PY

# Decks and samples from Python's own random module: GEN.py KIND N K COUNT SEED.
cat >"$work/gen.py" <<'PY'
import random
import sys

kind, n, k, count, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
rng = random.Random(seed)
items = list(range(n))
out = []
for _ in range(count):
    if kind == "deck":
        rng.shuffle(items)
        out.append(" ".join(map(str, items)))
    else:
        out.append(" ".join(map(str, rng.sample(items, k))))
sys.stdout.write("\n".join(out) + "\n")
PY

# `calibrate.sh --small [INPUTS]` / `--small-lean`: the small-sample sweep (see the top).
if [ "${1:-}" = "--small" ] || [ "${1:-}" = "--small-lean" ]; then
    mode_lean=0
    if [ "$1" = "--small-lean" ]; then
        mode_lean=1
        inputs=${2:-300}
        binary_inputs=200
        # Each 52-card check case runs ingest's predictability check, which spends its
        # whole budget (2 s) on 20 fair deals: 50 cases, not 100, keep CI in its time.
        check_inputs=50
        deal_counts=2,5,12,20,30,60
        sampler_counts=10,60
        stream_counts=20,100
    else
        inputs=${2:-1000}
        binary_inputs=$inputs
        check_inputs=$inputs
        deal_counts=2,3,5,8,12,16,20,25,30,40,50,60
        sampler_counts=10,20,40,60,200
        stream_counts=10,20,50,100,300
    fi
    cargo build --release --quiet --example calibrate_small
    status=0
    echo "== ingest, in-process: fair Fisher-Yates decks, $inputs inputs per cell"
    markdown=()
    if [ "$mode_lean" = 0 ]; then
        markdown=(--markdown)
    fi
    "$target_dir/release/examples/calibrate_small" --inputs "$inputs" "${markdown[@]}" \
        "permutations:3:$deal_counts" "permutations:5:$deal_counts" "permutations:8:$deal_counts" \
        "permutations:13:$deal_counts" "permutations:52:$deal_counts" "permutations:200:$deal_counts" \
        "selections:4:2:$sampler_counts" "selections:10:3:$sampler_counts" "selections:3:1:$sampler_counts" \
        "stream:50,25,20,5:$stream_counts" "stream:1,1:$stream_counts" || status=1
    echo
    # `run` through the binary, one process per seed: its deals are independent by
    # construction (no serial tests), its p-values the same functions'.
    echo "== run fisher-yates through the binary, $binary_inputs seeds per cell (after ${SECONDS} s)"
    python3 scripts/calibrate_runners.py run "$release_bin" "$binary_inputs" || status=1
    echo
    # `check` reads small inputs the way a CI gate does: a suite of ingest command cases,
    # each dealt by Python's random.shuffle from its own seed, with the gate's rule (a
    # suspicious first run is confirmed by a run with 4x the deals).
    echo "== check: ingest cases of 20 decks of 52 cards and 30 of 3 cards from random.shuffle, $check_inputs seeds each (after ${SECONDS} s)"
    python3 scripts/calibrate_runners.py check "$release_bin" "$work/gen.py" "$work" "$check_inputs" || status=1
    echo
    if python3 -c "import shuffle_audit" 2>/dev/null; then
        echo "== the Python module's ingest"
        if [ "$mode_lean" = 1 ]; then
            python3 scripts/calibrate_python.py 300 3:30 5:20 52:20:50 || status=1
        else
            python3 scripts/calibrate_python.py "$inputs" || status=1
        fi
    else
        echo "== the Python module's ingest: not installed here (scripts/wheel_test.sh runs scripts/calibrate_python.py in the wheel's venv)"
    fi
    if [ "$status" -ne 0 ]; then
        echo "calibrate: the small-sample sweep flagged a cell (above)" >&2
    fi
    exit "$status"
fi

# `calibrate.sh --guessing [SEEDS]`: only the card-guessing game, its false alarms on
# fair shuffles and its power against biased ones (a few minutes).
if [ "${1:-}" = "--guessing" ] || [ "${1:-}" = "--guessing-items" ]; then
    mode=$1
    seeds=${2:-1000}
    if [ "$mode" = "--guessing" ]; then
    calibrate fisher-yates-52-game "16,384 shuffles of 52 cards (the whole game: 8,192 deals studied, 8,192 played)" \
        '[[case]]\nname = "fisher-yates 52 seed %d"\nalgorithm = "fisher-yates"\nn = 52\ntrials = 16384\nseed = %d\nexpect = "fair"\n\n' \
        positions
    echo
    calibrate fisher-yates-4-game "16,384 shuffles of 4 cards" \
        '[[case]]\nname = "fisher-yates 4 seed %d"\nalgorithm = "fisher-yates"\nn = 4\ntrials = 16384\nseed = %d\nexpect = "fair"\n\n' \
        permutations
    echo
    fi
    # The item game of samplers and streams: exact where the chances do not depend on the
    # history (partial-fisher-yates, the 7-bag), the martingale bound where they do (a
    # sorted sample, weighted draws), which is conservative by construction.
    calibrate partial-fisher-yates-game "16,384 samples of 3 of 8 in a random order (exact)" \
        '[[case]]\nname = "partial-fisher-yates seed %d"\nalgorithm = "partial-fisher-yates"\nn = 8\nk = 3\ntrials = 16384\nseed = %d\nexpect = "fair"\n\n' \
        inclusion
    echo
    calibrate bag-pick-game "16,384 samples of 3 of 8 in increasing order (martingale bound)" \
        '[[case]]\nname = "bag-pick seed %d"\nalgorithm = "bag-pick"\nn = 8\nk = 3\ntrials = 16384\nseed = %d\nexpect = "fair"\n\n' \
        inclusion
    echo
    calibrate iid-weighted-game "300 streams of 1,000 draws of A:50,B:25,C:20,D:5 (martingale bound)" \
        '[[case]]\nname = "iid seed %d"\ngenerator = "iid"\nitems = "A:50,B:25,C:20,D:5"\nlength = 1000\nstreams = 300\nseed = %d\nexpect = "fair"\n\n' \
        frequencies
    echo
    calibrate tetris-7-bag-game "300 streams of 700 draws of the 7-bag (exact)" \
        '[[case]]\nname = "tetris seed %d"\ngenerator = "tetris-7-bag"\nitems = "7"\nlength = 700\nstreams = 300\nseed = %d\nexpect = "fair"\n\n' \
        cycle-positions
    echo
    if [ "$mode" = "--guessing-items" ]; then
        exit 0
    fi
    # Samples needed: the fewest deals (half studied, half played) at which the guessing
    # test alone rejects (raw p < 1e-7, below alpha 1e-6 after Holm in a family of up to
    # ten tests) in each of 5 seeds.
    echo "guessing test, samples needed (deals run; the game studies half and plays half, 5 seeds each):"
    for spec in "naive-swap 52" "riffles:1 52" "riffles:3 52" "riffles:5 52" "riffles:6 52" "riffles:7 52" "dealer-riffles:3 52"; do
        set -- $spec
        needed="more than 16,384 (the game's whole size)"
        for deals in 200 400 800 1600 3200 6400 12800 16384; do
            caught=0
            strategies=""
            for seed in 1 2 3 4 5; do
                "$release_bin" run "$1" --n "$2" --trials "$deals" --seed "$seed" --json "$work/power.json" >/dev/null 2>&1 || true
                read -r p strategy < <(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][0]; g=[t for t in r["tests"] if t["name"]=="guessing"]; print(g[0]["log10_p_value"] if g else 0, r["guessing"]["strategy"] if r.get("guessing") else "-")' "$work/power.json")
                if python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) < -7 else 1)' "$p"; then
                    caught=$((caught + 1))
                fi
                strategies="$strategies $strategy"
            done
            if [ "$caught" -eq 5 ]; then
                needed="$deals (strategies:$strategies)"
                break
            fi
        done
        printf '  %-18s %3s cards: %s\n' "$1" "$2" "$needed"
    done
    exit 0
fi

deal_tests=permutations,positions,fixed-points,cycles,rising-sequences
serial_tests=serial-permutations,serial-positions,serial-fixed-points,serial-cycles,serial-rising-sequences
calibrate fisher-yates "$trials shuffles of $n cards" \
    '[[case]]\nname = "fisher-yates seed %d"\nalgorithm = "fisher-yates"\nn = '"$n"'\ntrials = '"$trials"'\nseed = %d\nexpect = "fair"\n\n' \
    "$deal_tests"
echo
calibrate fisher-yates-52 "20,000 shuffles of 52 cards" \
    '[[case]]\nname = "fisher-yates 52 seed %d"\nalgorithm = "fisher-yates"\nn = 52\ntrials = 20000\nseed = %d\nexpect = "fair"\n\n' \
    positions,fixed-points,cycles,rising-sequences
echo
calibrate python-shuffle "$trials decks of $n cards from random.shuffle, read by ingest" \
    '[[case]]\nname = "python seed %d"\ncommand = ["python3", "'"$work"'/gen.py", "deck", "'"$n"'", "0", "{trials}", "{seed}"]\ntrials = '"$trials"'\nseed = %d\ndeck = "'"$(seq -s ' ' 0 $((n - 1)))"'"\nexpect = "fair"\n\n' \
    "$deal_tests,$serial_tests"
echo
calibrate python-shuffle-52 "5,000 decks of 52 cards from random.shuffle, read by ingest" \
    '[[case]]\nname = "python 52 seed %d"\ncommand = ["python3", "'"$work"'/gen.py", "deck", "52", "0", "{trials}", "{seed}"]\ntrials = 5000\nseed = %d\ndeck = "'"$(seq -s ' ' 0 51)"'"\nexpect = "fair"\n\n' \
    "positions,fixed-points,cycles,rising-sequences,serial-positions,serial-fixed-points,serial-cycles,serial-rising-sequences"
echo
calibrate python-sample "12,000 samples of 3 of 10 items from random.sample, read by ingest" \
    '[[case]]\nname = "python sample seed %d"\ncommand = ["python3", "'"$work"'/gen.py", "sample", "10", "3", "{trials}", "{seed}"]\ntrials = 12000\nseed = %d\nkind = "selections"\nk = 3\ndeck = "0 1 2 3 4 5 6 7 8 9"\nexpect = "fair"\n\n' \
    subsets,inclusion,serial-overlap
echo
# The gaps test's p is already a minimum over the items (Bonferroni), so it is not
# uniform under the null and is left out of the KS tests; the gate's count covers it.
calibrate iid-stream "one stream of 1000 draws" \
    '[[case]]\nname = "iid seed %d"\ngenerator = "iid"\nitems = "A:50,B:25,C:20,D:5"\nlength = 1000\nstreams = 1\nseed = %d\nexpect = "fair"\n\n' \
    frequencies,run-lengths
