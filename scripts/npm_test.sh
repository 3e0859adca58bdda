#!/usr/bin/env bash
# The npm package, end to end (issue 34): what a JavaScript user gets from
# `npm install shuffle-audit`. It
#   1. takes the binary from $SHUFFLE_AUDIT_BUILT_BIN, or builds it (`cargo build --release`
#      into cargo's own target directory: scripts/target_dir.sh),
#   2. stages npm/ in a temporary folder, puts the binary (stripped, as maturin strips the
#      wheel's) into the platform package's bin/ and the licences beside each package.json,
#      and `npm pack`s both packages (shuffle-audit, @shuffle-audit/linux-x64); the working
#      tree is not written to,
#   3. installs both tarballs into a fresh folder in one `npm install`, with vitest, lodash
#      and typescript from the registry. The platform package is not published: named as a
#      tarball in the same command, it satisfies the main package's optional dependency, and
#      npm asks no registry for it (checked). There it runs
#        - examples/node's tests with node:test and with vitest (a Fisher–Yates passes, sort
#          with a random comparator is caught),
#        - the assertion's message for that sort, and the error cases: a shuffle that throws,
#          returns the wrong length or a repeated card, returns a Promise, or never returns
#          (stopped at its 2 s time limit, node going on), and input the binary refuses,
#        - lodash's `_.shuffle`, used as its README shows: audit() of its deals (must pass)
#          and assertFairShuffle(_.shuffle) (a shuffle that returns a new array),
#        - tsc on a file that imports the package and one that requires it,
#   4. installs the main tarball alone into another folder (npm skips the platform package
#      it cannot fetch, as on a platform without one) and checks the message naming the
#      three places the binary is looked for, then SHUFFLE_AUDIT_BIN and the PATH,
#   5. removes everything it made and prints a summary; it exits 1 if any check failed, and
#      stops at once (exit 1, naming the line) when a step that is not a check fails.
#
# Needs node (20 or later), npm, and the npm registry (vitest, lodash, typescript; the
# shuffle-audit tarballs themselves install offline).
#
# Usage: scripts/npm_test.sh     (SHUFFLE_AUDIT_BUILT_BIN=path/to/shuffle-audit to skip the build)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
started=$SECONDS

work=$(mktemp -d "${TMPDIR:-/tmp}/shuffle-audit-npm.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'echo "npm_test: stopped: line $LINENO failed: $BASH_COMMAND" >&2' ERR

# shellcheck source=scripts/checks.sh
source scripts/checks.sh
# lacks FILE TEXT: FILE does not hold TEXT (the lines that do are shown).
lacks() {
    if grep -qF -- "$2" "$1"; then
        grep -F -- "$2" "$1" | head -5 | sed 's/^/        unexpected: /' >&2
        return 1
    fi
}
# line_has FILE START TEXT...: the first line of FILE that holds START holds every TEXT too.
line_has() {
    local file=$1 start=$2 line text
    shift 2
    line=$(grep -F -- "$start" "$file" | head -1)
    for text in "$@"; do
        [[ $line == *"$text"* ]] || {
            echo "        expected '$text' in the line of '$start': ${line:-(no such line)}" >&2
            return 1
        }
    done
}
quiet_npm() { npm --no-audit --no-fund --no-update-notifier "$@"; }

# --- 1. The binary -----------------------------------------------------------------------
step "the binary"
node_bin=$(command -v node) || { echo "npm_test: node is not installed" >&2; exit 1; }
echo "  node $(node --version), npm $(npm --version)"
if [[ -n ${SHUFFLE_AUDIT_BUILT_BIN:-} ]]; then
    built=$SHUFFLE_AUDIT_BUILT_BIN
    echo "  from SHUFFLE_AUDIT_BUILT_BIN: $built"
else
    # shellcheck source=scripts/target_dir.sh
    source scripts/target_dir.sh
    export CARGO_TARGET_DIR=$target_dir
    cargo build --release --quiet --bin shuffle-audit
    built=$release_bin
    echo "  built: $built"
fi
[[ -x $built ]] || { echo "npm_test: no executable binary at $built" >&2; exit 1; }
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -1)
check "the binary says shuffle-audit $version (Cargo.toml's)" test "$("$built" --version)" = "shuffle-audit $version"
for file in npm/package.json npm/linux-x64/package.json; do
    check "$file is version $version" grep -q "\"version\": \"$version\"" "$file"
done
check "the main package's optional dependency is @shuffle-audit/linux-x64 $version" \
    grep -q "\"@shuffle-audit/linux-x64\": \"$version\"" npm/package.json

# --- 2. Pack both packages -----------------------------------------------------------------
step "npm pack"
stage=$work/stage
mkdir -p "$stage" "$work/packs"
cp -R npm/. "$stage/"
rm -rf "$stage/node_modules" "$stage/linux-x64/bin" "$stage"/*.tgz
mkdir -p "$stage/linux-x64/bin"
# Stripped where binutils' strip can (a third of the size); copied as it is otherwise.
strip -o "$stage/linux-x64/bin/shuffle-audit" "$built" 2>/dev/null ||
    cp "$built" "$stage/linux-x64/bin/shuffle-audit"
chmod 755 "$stage/linux-x64/bin/shuffle-audit"
for dir in "$stage" "$stage/linux-x64"; do cp LICENSE-MIT LICENSE-APACHE "$dir/"; done
(cd "$stage" && quiet_npm pack --pack-destination "$work/packs" >/dev/null 2>"$work/pack.log")
(cd "$stage/linux-x64" && quiet_npm pack --pack-destination "$work/packs" >/dev/null 2>>"$work/pack.log")
main_tgz=$work/packs/shuffle-audit-$version.tgz
platform_tgz=$work/packs/shuffle-audit-linux-x64-$version.tgz
[[ -f $main_tgz && -f $platform_tgz ]] || {
    echo "npm_test: npm pack did not make both tarballs: $(ls "$work/packs")" >&2
    exit 1
}
echo "  $(basename "$main_tgz"): $(du -k "$main_tgz" | cut -f1) KiB; $(basename "$platform_tgz"): $(du -k "$platform_tgz" | cut -f1) KiB"
tar -tzf "$main_tgz" | sort >"$work/main.list"
tar -tvzf "$platform_tgz" >"$work/platform.list"
check "the main tarball holds the code, both types, README and licences, and nothing else" \
    diff <(printf 'package/%s\n' LICENSE-APACHE LICENSE-MIT README.md index.cjs index.d.mts index.d.ts index.mjs package.json) \
    "$work/main.list"
check "the platform tarball holds bin/shuffle-audit, executable" \
    grep -qE '^-rwxr-xr-x .* package/bin/shuffle-audit$' "$work/platform.list"

# --- 3. A fresh project: both tarballs in one install --------------------------------------
step "npm install of both tarballs into a fresh folder"
project=$work/project
mkdir -p "$project"
cp examples/node/shuffle.mjs examples/node/fair.test.mjs examples/node/fair.spec.mjs \
    examples/node/vitest.config.mjs "$project/"
# vitest 5 asks for node 22; on node 20 the newest vitest that supports it is 4.
node_major=$(node -p 'process.versions.node.split(".")[0]')
vitest=vitest@latest
((node_major >= 22)) || vitest='vitest@^4.1'
cd "$project"
printf '{ "name": "fresh-project", "private": true, "type": "module" }\n' >package.json
install_started=$SECONDS
status=$(run_status "$work/install.log" quiet_npm install --loglevel http \
    "$main_tgz" "$platform_tgz" "$vitest" 'lodash@^4.17' 'typescript@^5')
echo "  installed in $((SECONDS - install_started)) s: shuffle-audit, @shuffle-audit/linux-x64, $(node -p 'require("vitest/package.json").version' 2>/dev/null | sed 's/^/vitest /'), lodash, typescript"
check "npm install of both tarballs (and vitest, lodash, typescript) exits 0" test "$status" -eq 0
# The main package's optional dependency is met by the tarball named beside it: npm never
# asks the registry for the unpublished platform package.
check "npm asked no registry for @shuffle-audit/linux-x64" lacks "$work/install.log" "@shuffle-audit%2flinux-x64"
check "the platform package came from its tarball" \
    node -e 'const lock = require("./package-lock.json").packages["node_modules/@shuffle-audit/linux-x64"];
             process.exit(lock && lock.resolved.startsWith("file:") ? 0 : 1)'
check "node_modules/@shuffle-audit/linux-x64/bin/shuffle-audit is executable" \
    test -x node_modules/@shuffle-audit/linux-x64/bin/shuffle-audit
# The tests below must find the binary in the platform package, not elsewhere.
unset SHUFFLE_AUDIT_BIN
node --input-type=module -e 'import { findBinary } from "shuffle-audit"; console.log(findBinary().from)' >"$work/from.txt" 2>&1 || true
check "the binary is found in the platform package" has "$work/from.txt" "the package @shuffle-audit/linux-x64"

step "node:test: examples/node/fair.test.mjs"
status=$(run_status "$work/node-test.out" timeout 120 node --test)
grep -E '^(not )?ok |^# (pass|fail)' "$work/node-test.out" | sed 's/^/  | /'
check "node --test exits 0" test "$status" -eq 0
check "node --test: 2 tests pass" has "$work/node-test.out" "# pass 2"
check "node --test: none fails" has "$work/node-test.out" "# fail 0"

step "vitest: examples/node/fair.spec.mjs"
status=$(run_status "$work/vitest.out" timeout 120 env NO_COLOR=1 FORCE_COLOR=0 npx --no-install vitest run)
grep -E '✓|✗|×|Test Files|Tests ' "$work/vitest.out" | sed 's/^/  | /'
check "vitest run exits 0" test "$status" -eq 0
check "vitest: 2 tests pass" grep -qE 'Tests +2 passed' "$work/vitest.out"

step "the assertion's message, and a shuffle that misbehaves"
# Each case on one line: its error's class, code, deal and time, then its message. The time
# limit is 2 s here; the shuffle that never returns must be stopped in about that.
cat >errors.mjs <<'EOF'
import { assertFairShuffle, audit } from "shuffle-audit";
import { sortShuffle } from "./shuffle.mjs";

const oneLine = (text) => text.replaceAll("\n", " / ");
async function report(name, start) {
  const started = performance.now();
  try {
    const result = await start();
    console.log(`${name}: resolved: ${result.verdict}`);
  } catch (error) {
    const ms = Math.round(performance.now() - started);
    const cause = error.cause ? ` cause ${error.cause.name}` : "";
    console.log(`${name}: ${error.name} ${error.code} deal ${error.deal} in ${ms} ms${cause}: ${oneLine(error.message)}`);
  }
}
// Seeded shuffles, so that these two verdicts are the same on every run. A Fisher–Yates on
// mulberry32 is fair; leaky() skips the shuffle on 0.35 % of the deals. Seed 2 makes
// leaky's first 16,458 deals suspicious (smallest adjusted p 5.1e-5, between alpha 1e-6 and
// 1e-3 by a factor of 20 either way); the 65,832 deals of the confirmation catch it (1.3e-16).
function mulberry32(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const fisherYatesOn = (random) => (deck) => {
  for (let i = deck.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
};
const leakyRandom = mulberry32(2);
const shuffleLeakyRandom = fisherYatesOn(leakyRandom);
const leaky = (deck) => (leakyRandom() < 0.0035 ? undefined : shuffleLeakyRandom(deck));

const options = { trials: 1000, timeLimit: 2000 };
let calls = 0;
await report("sort", () => assertFairShuffle(sortShuffle));
await report("leaky", () => assertFairShuffle(leaky, { trials: 16458 }));
await report("too few", () => assertFairShuffle(fisherYatesOn(mulberry32(7)), { trials: 3000 }));
await report("throws", () => assertFairShuffle(() => { if (++calls === 500) throw new RangeError("no cards today"); }, options));
await report("wrong length", () => assertFairShuffle((deck) => deck.slice(1), options));
calls = 0;
await report("repeated card", () => assertFairShuffle((deck) => { if (++calls === 3) deck[0] = deck[1]; }, options));
await report("Promise", () => assertFairShuffle((deck) => Promise.resolve(deck), options));
await report("refused input", () => audit([["A", "B", "C"], ["A", "B", "Z"]]));
await report("never returns", () => assertFairShuffle((deck) => { while (deck.length) {} }, options));
console.log("node goes on");
EOF
# Under a minute's limit: a time limit that failed to stop the shuffle would hang here.
status=$(run_status "$work/errors.out" timeout 60 node errors.mjs)
cut -c1-160 "$work/errors.out" | sed 's/^/  | /'
check "the error cases' script exits 0 (no crash, no hang: 124 is a hang)" test "$status" -eq 0
check "sort: an AssertionError with the headline" has "$work/errors.out" "sort: AssertionError ERR_ASSERTION deal undefined"
check "sort: the headline is the verdict's" has "$work/errors.out" ": sortShuffle: FAIL (tested against: a fair shuffle)"
check "sort: the caught-by line" line_has "$work/errors.out" "sort: " " /   caught by " " (adjusted p "
check "sort: the deals, from --deals-needed, and the in-place detection" line_has "$work/errors.out" "sort: " \
    "what \`shuffle-audit ingest --deals-needed 5\` says" "shuffled in place (detected: "
check "sort: the reproduce hint" has "$work/errors.out" "reproduce: assertFairShuffle(sortShuffle, { n: 5, trials: "
check "leaky: suspicious, then dealt again with four times the deals, whose FAIL counts" \
    line_has "$work/errors.out" "leaky: AssertionError" "leaky: FAIL (tested against: a fair shuffle)" \
    "the first 16,458 deals were suspicious (smallest adjusted p-value 5.1e-5, cycles), so 65,832 more were dealt"
check "too few deals: a fair shuffle's pass on 3,000 is INCONCLUSIVE (--powered)" \
    line_has "$work/errors.out" "too few: AssertionError" "INCONCLUSIVE (tested against: a fair shuffle)" "underpowered"
check "throws: ShuffleError naming deal 500, the error as its cause" \
    has "$work/errors.out" "throws: ShuffleError THREW deal 500 in"
check "throws: the message names the deal and the error" \
    has "$work/errors.out" "deal 500 of 1,000: the shuffle threw RangeError: no cards today"
check "throws: cause is the RangeError" line_has "$work/errors.out" "throws: " "cause RangeError"
check "wrong length: named, with the deal" \
    has "$work/errors.out" "wrong length: ShuffleError WRONG_LENGTH deal 1 in"
check "wrong length: the deal shown" has "$work/errors.out" "the shuffle returned 4 cards, not 5: [ 1, 2, 3, 4 ]"
check "repeated card: named, with the deal" \
    has "$work/errors.out" "deal 3 of 1,000: card 1 appears twice (every deal holds each of 0 to 4 once): [ 1, 1, 2, 3, 4 ]"
check "Promise: refused, asking for a synchronous function" \
    line_has "$work/errors.out" "Promise: ShuffleError PROMISE deal 1" "pass a synchronous function"
check "never returns: stopped at the time limit, deal 1 named" \
    has "$work/errors.out" "deal 1 of 1,000: the shuffle did not return within the time limit of 2 s"
never_ms=$(sed -n 's/^never returns: ShuffleError TIMEOUT deal 1 in \([0-9]*\) ms.*/\1/p' "$work/errors.out")
echo "  the shuffle that never returns was stopped after ${never_ms:-?} ms (time limit 2,000 ms)"
check "never returns: stopped in 2 to 4 s" test "${never_ms:-0}" -ge 1900 -a "${never_ms:-0}" -le 4000
check "refused input: the binary's one-line message" \
    has "$work/errors.out" "refused input: ShuffleAuditError BAD_INPUT deal undefined in"
check "refused input: it names the line (the deal)" has "$work/errors.out" "shuffle-audit: error: line 2: unknown item 'Z'"
check "node goes on after all of them" has "$work/errors.out" "node goes on"

step "a shuffle from npm: lodash's _.shuffle, through require()"
# As lodash's README shows it: `var _ = require('lodash'); _.shuffle([1, 2, 3, 4])`. Its
# deals are audited, as many as `--deals-needed 5` asks for (so `--powered` lets a pass
# stand), with check's rule for a suspicious run (four times the deals, the second verdict
# counts): a fair shuffle then fails this about once in a million runs.
cat >lodash.cjs <<'EOF'
const _ = require("lodash");
const { execFileSync } = require("node:child_process");
const { assertFairShuffle, audit, findBinary } = require("shuffle-audit");

const deck = ["A", "K", "Q", "J", "10"];
function* deals(count) {
  for (let i = 0; i < count; i++) yield _.shuffle(deck);
}
(async () => {
  const needed = Number(execFileSync(findBinary().path, ["ingest", "--deals-needed", "5"]));
  let result = await audit(deals(needed), { deck, powered: true });
  console.log(result.text.replace(/^/gm, "audit: "));
  if (result.verdict === "suspicious") {
    result = await audit(deals(4 * needed), { deck, powered: true });
    console.log(result.text.replace(/^/gm, "confirmation: "));
  }
  console.log(`audit verdict: ${result.verdict} on ${result.trials} deals (${needed} needed)`);
  const asserted = await assertFairShuffle(_.shuffle);
  console.log(`assertFairShuffle(_.shuffle): ${asserted.verdict}, detected: ${asserted.detected}`);
})().catch((error) => {
  console.log(`error: ${error.message}`);
  process.exitCode = 1;
});
EOF
status=$(run_status "$work/lodash.out" timeout 120 node lodash.cjs)
sed 's/^/  | /' "$work/lodash.out"
check "lodash: exits 0" test "$status" -eq 0
check "lodash: audit() of _.shuffle's deals passes" has "$work/lodash.out" "audit verdict: pass on "
check "lodash: assertFairShuffle(_.shuffle) passes, detected as returning a new array" \
    has "$work/lodash.out" "assertFairShuffle(_.shuffle): pass, detected: returned"

step "predictable: a Fisher-Yates over Math.random passes, and says its deals give it away"
# Issue 42: fair by every test, yet 26 deals of 5 cards pin node's Math.random. The pass
# resolves with `predictable` set and emits a PredictableWarning; `unpredictable: true`
# fails it. A Fisher-Yates over crypto.randomInt is not predictable by any generator tried.
cat >predictable.cjs <<'EOF'
const crypto = require("node:crypto");
const { assertFairShuffle, audit } = require("shuffle-audit");

function mathRandomShuffle(deck) {
  for (let i = deck.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
}
function cryptoShuffle(deck) {
  for (let i = deck.length - 1; i > 0; i--) {
    const j = crypto.randomInt(i + 1);
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
}
process.on("warning", (warning) => console.log(`warning: ${warning.name}: ${warning.message.slice(0, 100)}`));
(async () => {
  const passed = await assertFairShuffle(mathRandomShuffle);
  const noted = passed.notes.some((note) => note.startsWith("predictable: "));
  console.log(`math: ${passed.verdict}, ${passed.predictability.verdict}, notes: ${noted}`);
  await new Promise((resolve) => setImmediate(resolve));
  try {
    await assertFairShuffle(mathRandomShuffle, { unpredictable: true });
    console.log("unpredictable: resolved");
  } catch (error) {
    console.log(`unpredictable: ${error.name} ${error.actual}: ${error.message.split("\n")[0].slice(0, 130)}`);
  }
  const crypt = await assertFairShuffle(cryptoShuffle, { unpredictable: true });
  console.log(`crypto: ${crypt.verdict}, ${crypt.predictability.verdict}, predictable: ${crypt.predictable}`);
  try {
    await audit([[0, 1]], { seedSearch: 5 });
  } catch (error) {
    console.log(`seedSearch: ${error.name}: ${error.message}`);
  }
})().catch((error) => {
  console.log(`error: ${error.message}`);
  process.exitCode = 1;
});
EOF
status=$(run_status "$work/predictable.out" timeout 180 node predictable.cjs)
sed 's/^/  | /' "$work/predictable.out"
check "predictable: exits 0" test "$status" -eq 0
check "predictable: Math.random's Fisher-Yates passes, predictable, said in the notes" \
    has "$work/predictable.out" "math: pass, predictable, notes: true"
check "predictable: and emits a PredictableWarning naming V8's Math.random" \
    has "$work/predictable.out" "warning: PredictableWarning: mathRandomShuffle: passes, but predictable: these deals are V8's Math.random's"
check "predictable: unpredictable: true rejects it with an AssertionError" \
    has "$work/predictable.out" "unpredictable: AssertionError predictable: mathRandomShuffle: predictable (unpredictable: true)"
check "predictable: crypto.randomInt's Fisher-Yates passes; unknown, as the seeded runtimes were not asked for" \
    has "$work/predictable.out" "crypto: pass, unknown, predictable: null"
check "predictable: a wrong seedSearch is a TypeError naming it" \
    has "$work/predictable.out" "seedSearch: TypeError: audit: seedSearch must be a runtime's name"

step "types: tsc on an import and a require"
cat >types.mts <<'EOF'
import { assertFairShuffle, audit, ShuffleError, type ShuffleResult } from "shuffle-audit";
const result: ShuffleResult = await assertFairShuffle((deck) => deck.reverse(), { n: 6 });
const detected: "in place" | "returned" = result.detected;
const audited = await audit([["A", "B"], ["B", "A"]], { deck: ["A", "B"], kind: "permutations" });
const failure: unknown = null;
if (failure instanceof ShuffleError) console.log(failure.deal, failure.code);
console.log(detected, audited.pValue);
// @ts-expect-error: a misspelt option is refused by the types too
await assertFairShuffle(() => {}, { trails: 5 });
EOF
cat >types.cts <<'EOF'
import shuffleAudit = require("shuffle-audit");
shuffleAudit.assertFairShuffle((deck) => { deck.sort(); }).then((result) => console.log(result.verdict));
EOF
printf '%s\n' '{ "compilerOptions": { "module": "nodenext", "moduleResolution": "nodenext", "target": "es2022",' \
    '  "strict": true, "noEmit": true, "types": [] }, "files": ["types.mts", "types.cts"] }' >tsconfig.json
status=$(run_status "$work/tsc.out" npx --no-install tsc -p .)
sed 's/^/  | /' "$work/tsc.out"
check "tsc (nodenext) accepts both and the misspelt option is an error" test "$status" -eq 0

# --- 4. The main package alone: where the binary is looked for ---------------------------
step "npm install of the main tarball alone; the binary-not-found message"
bare=$work/bare
mkdir -p "$bare" "$work/empty" "$work/on-path"
cd "$bare"
printf '{ "name": "bare-project", "private": true }\n' >package.json
# As on a platform without a package of its own: npm cannot fetch the optional dependency
# (it is not published) and goes on without it.
status=$(run_status "$work/bare-install.log" quiet_npm install "$main_tgz")
check "npm install of the main tarball alone exits 0" test "$status" -eq 0
check "the platform package is absent there" test ! -e node_modules/@shuffle-audit
cat >where.cjs <<'EOF'
const { audit, findBinary } = require("shuffle-audit");
audit([["a", "b", "c"], ["c", "b", "a"]])
  .then((result) => console.log(`found via ${findBinary().from}: ${result.headline}`))
  .catch((error) => console.log(`${error.name} ${error.code}: ${error.message}`));
EOF
# node by its full path; the PATH holds one empty folder.
env -u SHUFFLE_AUDIT_BIN PATH="$work/empty" "$node_bin" where.cjs >"$work/none.out" 2>&1 || true
sed 's/^/  | /' "$work/none.out"
check "nothing found: one error, BINARY_NOT_FOUND" has "$work/none.out" "ShuffleAuditError BINARY_NOT_FOUND: shuffle-audit: no shuffle-audit binary found"
check "it names the platform package" has "$work/none.out" "the package @shuffle-audit/linux-x64: not installed"
check "it names SHUFFLE_AUDIT_BIN" has "$work/none.out" "SHUFFLE_AUDIT_BIN: not set"
check "it names the PATH" has "$work/none.out" "the PATH: no shuffle-audit in its one folder"
env SHUFFLE_AUDIT_BIN="$built" PATH="$work/empty" "$node_bin" where.cjs >"$work/env.out" 2>&1 || true
sed 's/^/  | /' "$work/env.out"
check "SHUFFLE_AUDIT_BIN is used" has "$work/env.out" "found via SHUFFLE_AUDIT_BIN: deals: "
ln -s "$built" "$work/on-path/shuffle-audit"
env -u SHUFFLE_AUDIT_BIN PATH="$work/empty:$work/on-path" "$node_bin" where.cjs >"$work/path.out" 2>&1 || true
sed 's/^/  | /' "$work/path.out"
check "the PATH is used" has "$work/path.out" "found via the PATH: deals: "
cd "$root"

# --- 5. Summary --------------------------------------------------------------------------
echo
echo "npm_test: whole test $((SECONDS - started)) s"
echo "npm_test: ${passed} passed, ${#failures[@]} failed"
if ((${#failures[@]})); then
    printf '  failed: %s\n' "${failures[@]}"
    exit 1
fi
