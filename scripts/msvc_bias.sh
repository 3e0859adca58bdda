#!/usr/bin/env bash
# How many shuffles it takes to see the modulo bias of `rand() % n` under a perfect
# 52-card Fisher-Yates (issue 7: "about 3.5 x 10^8 at alpha = 1e-6 is our estimate;
# measure it").
#
# First the exact figure: `exact --positions --source msvc-rand-mod` computes the position
# matrix in the source's model (each rand() uniform and independent), the noncentrality
# one shuffle adds to the position test's statistic, and the shuffles that test needs to
# reject at alpha = 1e-6 with 99 % power (also at 1e-6 / 3: a run's verdict compares
# Holm-adjusted p-values of its three tests, which can multiply the smallest by 3).
# Then `run fisher-yates --n 52 --source msvc-rand-mod` (the real generator, not the
# model) at increasing sizes, a few seeds at the sizes near the figure; per run the
# position test's statistic against the model's prediction (mean df + (N-1) * delta,
# sd sqrt(2 (df + 2 N delta))), its p-value, and the verdict. The model knows modulo
# bias only; the real LCG's statistic comes out a few sd above it at 10^8 and more
# shuffles (its low output bits are correlated from draw to draw), so it is caught a
# little sooner than the exact figure says, never later.
#
# Usage: scripts/msvc_bias.sh                 (about 2 * 10^9 shuffles: minutes)
#        SIZES="5e7 1e8" SEEDS="1 2" scripts/msvc_bias.sh
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/target_dir.sh
source scripts/target_dir.sh
cargo build --quiet --release
bin=$release_bin

sizes=${SIZES:-"5e7 1e8 2e8 3.5e8 7e8"}
# Extra seeds at the sizes where the verdict can still go either way.
seeds_near=${SEEDS:-"2 3 4 5"}
near=${NEAR:-"5e7 1e8"}

# Under rand() % n Fisher-Yates is not what the catalogue promises: exit status 1 is the
# verdict, not a failure of this script (2, an error, still stops it).
verdict() { "$@" || [[ $? -eq 1 ]]; }
exact=$(verdict $bin exact fisher-yates --n 52 --positions --source msvc-rand-mod --json - 2>/dev/null)
delta=$(jq -r '.results[0].samples_needed.noncentrality_per_trial' <<<"$exact")
df=$(jq -r '.results[0].samples_needed.df' <<<"$exact")
needed=$(jq -r '.results[0].samples_needed.trials' <<<"$exact")
needed_holm=$(verdict $bin exact fisher-yates --n 52 --positions --source msvc-rand-mod --alpha 3.3333e-7 --json - 2>/dev/null |
    jq -r '.results[0].samples_needed.trials')
echo "exact (msvc-rand-mod model, 52-card fisher-yates, position test, df $df):"
echo "  noncentrality per shuffle: $delta"
echo "  shuffles needed for 99 % power: $needed at alpha 1e-6, $needed_holm at alpha 1e-6/3"
echo
printf "%11s %5s %12s %20s %10s %10s %6s\n" shuffles seed statistic "model mean +- sd" "p-value" verdict "M/s"

measure() {
    local trials=$1 seed=$2
    verdict $bin run fisher-yates --n 52 --source msvc-rand-mod --trials "$trials" --seed "$seed" --json - 2>/dev/null |
        jq -r --argjson delta "$delta" --argjson df "$df" '
            .trials as $n
            | (.results[0].tests[] | select(.name == "positions")) as $t
            | [ $n, $t.statistic, $df + ($n - 1) * $delta, ((2 * ($df + 2 * $n * $delta)) | sqrt),
                $t.p_value, $t.log10_p_value, .results[0].verdict, .trials_per_second / 1e6 ]
            | @tsv' |
        while IFS=$'\t' read -r n statistic mean sd p log10p verdict rate; do
            if awk -v l="$log10p" 'BEGIN { exit !(l < -300) }'; then p="< 1e-300"; else p=$(printf "%.2g" "$p"); fi
            printf "%11.0f %5s %12.1f %12.0f +- %4.0f %10s %10s %6.1f\n" \
                "$n" "$seed" "$statistic" "$mean" "$sd" "$p" "$verdict" "$rate"
        done
}

for trials in $sizes; do
    measure "$trials" 1
    if [[ " $near " == *" $trials "* ]]; then
        for seed in $seeds_near; do
            measure "$trials" "$seed"
        done
    fi
done
