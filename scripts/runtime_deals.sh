#!/usr/bin/env bash
# Real runtimes deal, `seeds recover` predicts: issue 31's proof against Java and Node
# themselves, not our reading of their source.
#
# Installs what it lacks (Debian's OpenJDK and nodejs, lodash from npm, into a temporary
# folder), then for each runtime and shuffle deals 20 sessions from fresh random states
# (`new Random()`, `Collections.shuffle(list)`'s own generator, `node` without
# --random-seed) at 52 cards and at the smallest deck the recovery supports, and a Node
# program that has drawn for a while, shows `seeds recover` the first deals of each
# session and compares its predictions with the deals the runtime really dealt next. Counter-tests: deals from a fair xoshiro256++,
# from `crypto.getRandomValues`, and a real session with one deal edited must all be
# answered "no state" (exit 1), never with a prediction. Prints one line per case and a
# summary; exits 1 on any wrong answer. Removes its temporary folder on exit.
#
#   scripts/runtime_deals.sh            # 20 sessions per case
#   SESSIONS=5 scripts/runtime_deals.sh # fewer, for a quick look
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/target_dir.sh
SESSIONS=${SESSIONS:-20}

as_root() { if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo "$@"; fi; }
if ! command -v javac >/dev/null 2>&1 || ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    echo "runtime_deals: installing OpenJDK and Node.js (Debian packages)" >&2
    as_root apt-get update -q
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q default-jdk-headless nodejs npm >/dev/null
fi
cargo build --release --quiet
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm init -y >/dev/null && npm install --no-audit --no-fund --silent lodash@4 >/dev/null)

cat >"$work/Deal.java" <<'EOF'
import java.util.*;
// java Deal N DEALS SESSIONS MODE DIR: MODE seeded (new Random()), static
// (Collections.shuffle(list)) or carried (the same list shuffled again).
public class Deal {
    public static void main(String[] a) throws Exception {
        int n = Integer.parseInt(a[0]), deals = Integer.parseInt(a[1]), sessions = Integer.parseInt(a[2]);
        String mode = a[3];
        for (int s = 0; s < sessions; s++) {
            Random rnd = new Random();
            List<Integer> list = new ArrayList<>();
            for (int i = 1; i <= n; i++) list.add(i);
            StringBuilder out = new StringBuilder();
            for (int d = 0; d < deals; d++) {
                if (!mode.equals("carried")) { list.clear(); for (int i = 1; i <= n; i++) list.add(i); }
                if (mode.equals("static")) Collections.shuffle(list); else Collections.shuffle(list, rnd);
                StringJoiner line = new StringJoiner(" ");
                for (int card : list) line.add(Integer.toString(card));
                out.append(line).append('\n');
            }
            try (java.io.FileWriter w = new java.io.FileWriter(a[4] + "/session" + s + ".txt")) { w.write(out.toString()); }
            if (mode.equals("static")) break; // one static generator per JVM: one session per run
        }
    }
}
EOF
cat >"$work/deal.js" <<'EOF'
// node deal.js N DEALS SHUFFLE: SHUFFLE fisher-yates, lodash or crypto; DRAWN=K in the
// environment first draws K numbers, as a program that has run for a while.
const [n, deals, shuffle] = [+process.argv[2], +process.argv[3], process.argv[4]];
for (let k = +(process.env.DRAWN || 0); k > 0; k--) Math.random();
const _ = shuffle === 'lodash' ? require('lodash') : null;
const below = (bound) => {
  // crypto: an unbiased draw from crypto.getRandomValues.
  const limit = Math.floor(2 ** 32 / bound) * bound, word = new Uint32Array(1);
  do crypto.getRandomValues(word); while (word[0] >= limit);
  return word[0] % bound;
};
for (let d = 0; d < deals; d++) {
  let a = Array.from({ length: n }, (_, i) => i + 1);
  if (shuffle === 'lodash') a = _.shuffle(a);
  else for (let i = a.length - 1; i > 0; i--) {
    const j = shuffle === 'crypto' ? below(i + 1) : Math.floor(Math.random() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  console.log(a.join(' '));
}
EOF
(cd "$work" && javac Deal.java)

failures=0
# expect_prediction RUNTIME FILE SHOWN [FLAGS...]: the first SHOWN deals predict the rest.
expect_prediction() {
    local runtime=$1 file=$2 shown=$3
    shift 3
    local total rest predicted
    total=$(wc -l <"$file")
    rest=$((total - shown))
    if ! predicted=$(head -"$shown" "$file" | "$release_bin" seeds recover --runtime "$runtime" - --predict "$rest" "$@" 2>/dev/null |
        sed -n 's/^  [0-9]*: //p'); then
        echo "  wrong: $runtime ${*:-} on $(basename "$file"): no prediction" >&2
        return 1
    fi
    if [[ "$predicted" != "$(tail -n "$rest" "$file")" ]]; then
        echo "  wrong: $runtime ${*:-} on $(basename "$file"): the prediction is not what the runtime dealt" >&2
        return 1
    fi
}
# expect_prediction_by RUNTIME FILE MOST: shows the deals one at a time, as a player
# who sees them does, until a prediction comes (which must be what was dealt) or MOST
# deals gave none; sets `needed` to the deals it took.
expect_prediction_by() {
    local runtime=$1 file=$2 most=$3 shown
    for shown in $(seq 1 "$most"); do
        if head -"$shown" "$file" | "$release_bin" seeds recover --runtime "$runtime" - --predict 1 >/dev/null 2>&1; then
            needed=$shown
            expect_prediction "$runtime" "$file" "$shown"
            return
        fi
    done
    echo "  wrong: $runtime on $(basename "$file"): no prediction from $most deals" >&2
    return 1
}
# expect_no_state RUNTIME FILE: exit 1 and no prediction.
expect_no_state() {
    local status=0 out
    out=$("$release_bin" seeds recover --runtime "$1" "$2" --predict 1 2>/dev/null) || status=$?
    if [[ $status -ne 1 ]] || grep -q '^next ' <<<"$out"; then
        echo "  wrong: $1 on $(basename "$2"): status $status, not 'no state'" >&2
        return 1
    fi
}

# case NAME COUNT COMMAND...: runs COMMAND for each session, counts the right answers.
case_line() {
    local name=$1 right=$2 count=$3 seconds=$4
    printf '%-52s %2d/%-2d right  %5.1f s\n' "$name" "$right" "$count" "$seconds"
    [[ $right -eq $count ]] || failures=$((failures + 1))
}

java_case() { # N DEALS SHOWN MODE [FLAGS]
    local n=$1 deals=$2 shown=$3 mode=$4
    shift 4
    local dir="$work/java-$mode-$n" right=0 count=0 start=$SECONDS
    mkdir -p "$dir"
    if [[ $mode == static ]]; then
        for s in $(seq 0 $((SESSIONS - 1))); do
            (cd "$work" && java Deal "$n" "$deals" 1 static "$dir") && mv "$dir/session0.txt" "$dir/static$s.txt"
        done
    else
        (cd "$work" && java Deal "$n" "$deals" "$SESSIONS" "$mode" "$dir")
    fi
    for file in "$dir"/*.txt; do
        count=$((count + 1))
        expect_prediction java "$file" "$shown" "$@" && right=$((right + 1))
    done
    case_line "java $mode, $n cards: deals shown $shown, predicted $((deals - shown))" "$right" "$count" $((SECONDS - start))
}

node_case() { # N DEALS SHOWN SHUFFLE
    local n=$1 deals=$2 shown=$3 shuffle=$4 right=0 count=0 start=$SECONDS
    local dir="$work/node-$shuffle-$n"
    mkdir -p "$dir"
    for s in $(seq 1 "$SESSIONS"); do
        (cd "$work" && node deal.js "$n" "$deals" "$shuffle") >"$dir/session$s.txt"
        count=$((count + 1))
        expect_prediction node "$dir/session$s.txt" "$shown" && right=$((right + 1))
    done
    case_line "node $shuffle, $n cards: deals shown $shown, predicted $((deals - shown))" "$right" "$count" $((SECONDS - start))
}

# A program that has drawn DRAWN numbers before its first deal, past the 4,096 refills
# within which V8's seeding is traced back: where its first deal ends a cache, a state
# shifted by a place deals the same cards unless a draw at a refill tells them apart
# (about once in the bound of that draw), so the deals are shown one at a time until
# the answer is one state. Nothing but the right deals may ever be predicted.
node_long_running_case() { # DRAWN MOST
    local drawn=$1 most=$2 right=0 count=0 start=$SECONDS dir="$work/node-long-running" needed=0 took=()
    mkdir -p "$dir"
    for s in $(seq 1 "$SESSIONS"); do
        (cd "$work" && DRAWN=$drawn node deal.js 52 $((most + 3)) fisher-yates) >"$dir/session$s.txt"
        count=$((count + 1))
        expect_prediction_by node "$dir/session$s.txt" "$most" && right=$((right + 1)) && took+=("$needed")
    done
    local tally
    tally=$(printf '%s\n' "${took[@]}" | sort -n | uniq -c | awk '{ printf "%s%d deal(s) %d times", sep, $2, $1; sep = ", " }')
    case_line "node fisher-yates, 52 cards after $drawn draws: took $tally" "$right" "$count" $((SECONDS - start))
}

echo "runtime_deals: $(java -version 2>&1 | head -1), node $(node --version), $SESSIONS sessions per case"
java_case 52 4 1 seeded
java_case 52 4 1 static
java_case 52 4 2 carried --carried
java_case 6 24 20 seeded
# A fresh Node gives itself away in its first deal of 52 cards; 4 cards take about 35
# to 40 deals, so 60 leave a wide margin (each deal pins about 3.5 more bits).
node_case 52 4 1 fisher-yates
node_case 52 4 1 lodash
node_case 4 70 60 fisher-yates
node_case 4 70 60 lodash
node_long_running_case 300000 6

# Counter-tests: nothing predicted.
start=$SECONDS
right=0
count=0
python3 - "$work" <<'EOF'
import sys
# xoshiro256++ (Blackman & Vigna), seeded by splitmix64, unbiased bounded draws.
M = (1 << 64) - 1
def splitmix(x):
    while True:
        x = (x + 0x9E3779B97F4A7C15) & M
        z = x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M
        yield z ^ (z >> 31)
def xoshiro(seed):
    g = splitmix(seed)
    s = [next(g) for _ in range(4)]
    rotl = lambda x, k: ((x << k) | (x >> (64 - k))) & M
    while True:
        result = (rotl((s[0] + s[3]) & M, 23) + s[0]) & M
        t = (s[1] << 17) & M
        s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]; s[2] ^= t; s[3] = rotl(s[3], 45)
        yield result
for session in range(4):
    words = xoshiro(1000 + session)
    def below(bound):
        limit = (1 << 64) // bound * bound
        while True:
            w = next(words)
            if w < limit:
                return w % bound
    with open(f"{sys.argv[1]}/xoshiro{session}.txt", "w") as out:
        for _ in range(3):
            deck = list(range(1, 53))
            for i in range(51, 0, -1):
                j = below(i + 1)
                deck[i], deck[j] = deck[j], deck[i]
            out.write(" ".join(map(str, deck)) + "\n")
EOF
for s in 0 1 2 3; do
    (cd "$work" && node deal.js 52 3 crypto) >"$work/crypto$s.txt"
done
# A real Java session and a real Node session, each with its second deal edited.
java_file=$(ls "$work"/java-seeded-52/*.txt | head -1)
node_file=$(ls "$work"/node-fisher-yates-52/*.txt | head -1)
for source in "$java_file" "$node_file"; do
    awk 'NR == 2 { t = $4; $4 = $41; $41 = t } { print }' "$source" >"$work/edited-$(basename "$(dirname "$source")").txt"
done
for file in "$work"/xoshiro*.txt "$work"/crypto*.txt; do
    for runtime in java node; do
        count=$((count + 1))
        expect_no_state "$runtime" "$file" && right=$((right + 1))
    done
done
count=$((count + 2))
expect_no_state java "$work/edited-java-seeded-52.txt" && right=$((right + 1))
expect_no_state node "$work/edited-node-fisher-yates-52.txt" && right=$((right + 1))
case_line "counter-tests (xoshiro, getRandomValues, edited): no state" "$right" "$count" $((SECONDS - start))

if [[ $failures -gt 0 ]]; then
    echo "runtime_deals: $failures case(s) answered wrongly" >&2
    exit 1
fi
echo "runtime_deals: every prediction is what the runtime dealt, and nothing else was predicted"
