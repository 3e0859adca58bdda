#!/usr/bin/env bash
# The Python wheel, end to end (issues 17 and 34): what a Python user gets from
# `pip install shuffle-audit`: the module `shuffle_audit` and the `shuffle-audit` command. It
#   1. makes sure Python 3 with venv is there (Debian's python3 and python3-venv, installed
#      with apt-get when missing: root, or sudo),
#   2. installs maturin from PyPI into a throwaway virtual environment and builds the wheel
#      (and the sdist, only to check what it holds: no reports/, no target/),
#   3. installs the wheel into a fresh virtual environment, with pytest, numpy, mypy and
#      nbclient/ipykernel from PyPI, and there, from that environment's PATH (not target/), runs
#        - `shuffle-audit --version`,
#        - the README's main command at the seed the README shows, whose verdicts, exit
#          status and counts must be the README's,
#        - `ingest` of decks dealt by Python's own `random.shuffle` (must PASS, exit 0)
#          and by a naive swap written in Python (must FAIL, exit 1),
#        - `ingest` of picks made by numpy and random.sample (fair), and by numpy's
#          choice(shuffle=False), whose order is not random (must FAIL with --ordered),
#        - the module's own tests (python/tests: verdicts, every broken shuffle's error,
#          the time limit, Jupyter's HTML) and its doctests,
#        - the small-sample calibration through the module's `ingest`
#          (scripts/calibrate_python.py, lean: a few hundred fair inputs of 20 to 30 deals),
#        - the pytest example of examples/python/ (three lines: a project's shuffle and
#          random.shuffle pass, the legacy naive swap is caught),
#        - the notebook examples/python/teaching.ipynb, executed by nbclient, whose cells
#          must show verdict badges and heat maps,
#        - mypy on a file that uses the module (the stubs and py.typed), and on one that
#          misuses it (must be refused),
#        - scripts/bench_python.py, which prints the assertion's overhead (not checked:
#          speed is measured, not tested),
#   4. removes everything it made (the environments, wheel, samples) and prints a summary;
#      it exits 1 if any check failed, and stops at once (exit 1, naming the step) when a
#      step that is not a check, such as the build, fails.
#
# The build reuses cargo's own target directory (scripts/target_dir.sh: CARGO_TARGET_DIR,
# a cargo config's build.target-dir, or the repository's target/), so
# the dependencies compiled by an earlier `cargo build --release` are not compiled again;
# only the binary is, because maturin strips it with its own rustc flag.
# Needs network access to PyPI (maturin, pytest, numpy); the wheel itself installs offline.
#
# Usage: scripts/wheel_test.sh            (PYTHON=python3.12 to test another Python)
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/target_dir.sh
source scripts/target_dir.sh
root=$PWD
started=$SECONDS
PYTHON=${PYTHON:-python3}
export CARGO_TARGET_DIR=$target_dir

work=$(mktemp -d "${TMPDIR:-/tmp}/shuffle-audit-wheel.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'echo "wheel_test: stopped: line $LINENO failed: $BASH_COMMAND" >&2' ERR

# shellcheck source=scripts/checks.sh
source scripts/checks.sh

# --- 1. Python 3 with venv -------------------------------------------------------------
step "Python"
if ! command -v "$PYTHON" >/dev/null 2>&1 || ! "$PYTHON" -c 'import venv, ensurepip' 2>/dev/null; then
    # Debian splits venv's ensurepip into python3-venv; a plain `python3 -m venv` fails
    # without it.
    echo "wheel_test: installing Debian's python3 and python3-venv" >&2
    sudo=()
    [[ $(id -u) -eq 0 ]] || sudo=(sudo)
    "${sudo[@]}" apt-get update -q >/dev/null
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q python3 python3-venv >/dev/null
    PYTHON=python3
fi
echo "  $("$PYTHON" --version) at $(command -v "$PYTHON")"

# --- 2. Build the wheel (and the sdist) with maturin from PyPI -------------------------
step "maturin from PyPI"
"$PYTHON" -m venv "$work/build"
"$work/build/bin/pip" install --quiet --disable-pip-version-check 'maturin>=1.9,<2'
echo "  $("$work/build/bin/maturin" --version)"

step "build the wheel (cargo target dir $CARGO_TARGET_DIR)"
build_started=$SECONDS
"$work/build/bin/maturin" build --release --quiet --out "$work/dist" 2>&1 | sed 's/^/  /'
"$work/build/bin/maturin" sdist --out "$work/dist" 2>&1 | sed 's/^/  /'
build_seconds=$((SECONDS - build_started))
wheels=("$work"/dist/*.whl)
sdists=("$work"/dist/*.tar.gz)
[[ ${#wheels[@]} -eq 1 && -f ${wheels[0]} && ${#sdists[@]} -eq 1 && -f ${sdists[0]} ]] || {
    echo "wheel_test: expected one wheel and one sdist in $work/dist, found: $(ls "$work/dist")" >&2
    exit 1
}
wheel=${wheels[0]}
echo "  $(basename "$wheel"): $(du -k "$wheel" | cut -f1) KiB, built in ${build_seconds} s"

# What the archives hold: the wheel, the binary and its metadata; the sdist, what cargo
# needs to build it. Neither may carry the committed teaching report or a build folder.
"$work/build/bin/python" -m zipfile -l "$wheel" | awk 'NR > 1 { print $1 }' >"$work/wheel.list"
tar -tzf "${sdists[0]}" >"$work/sdist.list"
check "the wheel holds the module, its stubs and py.typed" bash -c 'for file in __init__.py _cli.py _native.pyi py.typed; do
        grep -qx "shuffle_audit/$file" "$1" || exit 1; done; grep -qE "^shuffle_audit/_native\.abi3\.so$" "$1"' _ "$work/wheel.list"
check "the wheel holds nothing but the module and its metadata" \
    bash -c '! grep -vE "^shuffle_audit/|\.dist-info/" "$1"' _ "$work/wheel.list"
"$work/build/bin/python" - "$wheel" >"$work/entry_points.txt" <<'PY'
import sys
import zipfile

wheel = zipfile.ZipFile(sys.argv[1])
print(wheel.read(next(name for name in wheel.namelist() if name.endswith("entry_points.txt"))).decode())
PY
check "the wheel's shuffle-audit command runs the module's command line" \
    grep -qE '^shuffle-audit ?= ?shuffle_audit\._cli:main$' "$work/entry_points.txt"
check "the sdist holds Cargo.toml, Cargo.lock, src/ and python/" \
    bash -c 'grep -q "/Cargo.toml$" "$1" && grep -q "/Cargo.lock$" "$1" && grep -q "/src/main.rs$" "$1" && grep -q "/python/src/lib.rs$" "$1" && grep -q "/python/shuffle_audit/__init__.py$" "$1"' _ "$work/sdist.list"
check "the sdist holds no reports/, target/, docs/ or tests/" \
    bash -c '! grep -E "^[^/]+/(reports|target|docs|tests)/" "$1"' _ "$work/sdist.list"

# --- 3. Install into a fresh environment and use it from there -------------------------
step "install the wheel into a fresh virtual environment"
venv=$work/venv
"$PYTHON" -m venv "$venv"
# The wheel has no dependencies: installed with --no-index, it needs no network.
"$venv/bin/pip" install --quiet --disable-pip-version-check --no-index "$wheel"
"$venv/bin/pip" install --quiet --disable-pip-version-check pytest mypy nbclient ipykernel
export PATH="$venv/bin:$PATH" VIRTUAL_ENV=$venv
hash -r
check "shuffle-audit on the PATH is the environment's ($venv/bin)" \
    test "$(command -v shuffle-audit)" = "$venv/bin/shuffle-audit"

step "shuffle-audit --version"
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -1)
status=$(run_status "$work/version.txt" shuffle-audit --version)
sed 's/^/  /' "$work/version.txt"
check "--version exits 0 and says $version (Cargo.toml's)" \
    bash -c '[[ $1 -eq 0 ]] && grep -qx "shuffle-audit $2" "$3"' _ "$status" "$version" "$work/version.txt"

step "the README's main command"
# The README's first console example: its main command at a fixed seed. The main command
# itself takes its seed from the OS, and a fair shuffle is `suspicious` at about one seed in
# a thousand; at the README's seed the verdicts, and every count, are known.
"$venv/bin/python" - "$root/README.md" "$work/readme" <<'EOF'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
block = re.search(r"```console\n\$ (shuffle-audit run [^\n]*)\n(.*?)```", text, re.S)
if block is None:
    sys.exit("wheel_test: README.md has no ```console block with `$ shuffle-audit run ...`")
open(sys.argv[2] + ".cmd", "w").write(block.group(1) + "\n")
open(sys.argv[2] + ".expected", "w", encoding="utf-8").write(block.group(2))
EOF
read -r -a readme_command <"$work/readme.cmd"
echo "  \$ ${readme_command[*]}"
status=$(run_status "$work/readme.out" "${readme_command[@]}")
sed -n '/^summary/,/^reproduce/p' "$work/readme.out" | sed 's/^/  | /'
check "the main command exits 0 (every verdict as known)" test "$status" -eq 0
check "naive-swap: FAIL (known to be: biased)" has "$work/readme.out" "naive-swap: FAIL (known to be: biased)"
check "fisher-yates: PASS (known to be: fair)" has "$work/readme.out" "fisher-yates: PASS (known to be: fair)"
# Line by line as the README shows it, `[..]` matching the rest of a line, as
# tests/docs.rs compares it: the wheel's binary is the tool the README describes.
check "the output is the README's, line for line" "$venv/bin/python" - "$work/readme.expected" "$work/readme.out" <<'EOF'
import sys
expected = open(sys.argv[1], encoding="utf-8").read().rstrip("\n").split("\n")
actual = open(sys.argv[2], encoding="utf-8").read().rstrip("\n").split("\n")
for number, (want, got) in enumerate(zip(expected, actual), 1):
    prefix, dots, _ = want.partition("[..]")
    if not (got.startswith(prefix) if dots else got == want):
        sys.exit(f"        line {number}: README shows {want!r}, the wheel printed {got!r}")
if len(expected) != len(actual):
    sys.exit(f"        README shows {len(expected)} lines, the wheel printed {len(actual)}")
EOF

step "ingest: decks dealt in Python"
# 100,000 decks of 4 cards each, about 4,167 per order. The naive swap's bias on 4 cards
# (total variation 0.065; `shuffle-audit exact naive-swap --n 4`) is caught at alpha 1e-6
# with 99 % power after about 3,025 deals: 100,000 is 33 times that, and its p-value lies
# beyond 1e-300, so the FAIL is certain. A fair shuffle gets a uniform p-value; at a fixed
# seed the decks, and so the verdict, are the same on every run (Python's Random(seed) and
# shuffle are stable across versions), and seed 17 was not picked for its result: its
# smallest adjusted p is 0.815 (cycles), far from the 1e-3 of `suspicious`.
"$venv/bin/python" - "$work" <<'EOF'
import random, sys
deck = ["A", "K", "Q", "J"]
with open(f"{sys.argv[1]}/python-shuffle.txt", "w") as out:
    rng = random.Random(17)
    for _ in range(100_000):
        cards = deck[:]
        rng.shuffle(cards)
        out.write(" ".join(cards) + "\n")
with open(f"{sys.argv[1]}/naive-swap.txt", "w") as out:
    rng = random.Random(17)
    for _ in range(100_000):
        cards = deck[:]
        for i in range(len(cards)):  # the naive swap: j anywhere in the deck
            j = rng.randrange(len(cards))
            cards[i], cards[j] = cards[j], cards[i]
        out.write(" ".join(cards) + "\n")
EOF
cd "$work" # so that the headlines name the files alone
status=$(run_status fair.out shuffle-audit ingest python-shuffle.txt)
grep -E '^python-shuffle.txt:|total variation|caught by' fair.out | sed 's/^/  /'
check "random.shuffle: ingest exits 0" test "$status" -eq 0
check "random.shuffle: PASS" has fair.out "python-shuffle.txt: PASS (tested against: a fair shuffle)"
status=$(run_status naive.out shuffle-audit ingest naive-swap.txt)
grep -E '^naive-swap.txt:|total variation|caught by' naive.out | sed 's/^/  /'
check "naive swap: ingest exits 1" test "$status" -eq 1
check "naive swap: FAIL" has naive.out "naive-swap.txt: FAIL (tested against: a fair shuffle)"
cd "$root"

step "shuffles no one here wrote: numpy and random.sample"
# Samplers from libraries, audited as a user would audit them. numpy is pinned so that its
# streams, and so these verdicts, stay put (numpy does not promise the same stream across
# versions). 100,000 samples at seed 11: 833 per order of 5 cards, 1,667 per ordered pick
# of 3 of 5; each fair one's smallest adjusted p is printed, and lies far above the 1e-3
# of `suspicious` (0.168, 0.195 and 0.186 with numpy 2.4.6 and Python 3.11). numpy's `choice(..., replace=False, shuffle=False)` returns a fair
# *set* in an order that is not random (numpy documents that shuffle=False skips the
# shuffle; `a d e` only ever comes out in that order): a program that deals the picks in
# the order returned is biased, and `--ordered` must say so (p beyond 1e-300).
"$venv/bin/pip" install --quiet --disable-pip-version-check 'numpy==2.4.6'
"$venv/bin/python" - "$work" <<'PY'
import random, sys
import numpy as np
deck = ["a", "b", "c", "d", "e"]
def write(name, draw):
    with open(f"{sys.argv[1]}/{name}", "w") as out:
        for _ in range(100_000):
            out.write(" ".join(str(card) for card in draw()) + "\n")
cards = np.array(deck)
rng = np.random.default_rng(11)
write("numpy-permutation.txt", lambda: cards[rng.permutation(5)])
rng = np.random.default_rng(11)
write("numpy-choice.txt", lambda: rng.choice(cards, 3, replace=False))
rng = np.random.default_rng(11)
write("numpy-choice-noshuffle.txt", lambda: rng.choice(cards, 3, replace=False, shuffle=False))
py = random.Random(11)
write("random-sample.txt", lambda: py.sample(deck, 3))
PY
cd "$work"
for spec in "numpy-permutation.txt 0 PASS" "numpy-choice.txt 0 PASS" \
    "random-sample.txt 0 PASS" "numpy-choice-noshuffle.txt 1 FAIL"; do
    read -r file want verdict <<<"$spec"
    options=()
    law="a fair shuffle"
    [[ $file == numpy-permutation.txt ]] || { options=(--kind selections --deck "a b c d e" --ordered); law="a fair sampler"; }
    status=$(run_status "$file.out" shuffle-audit ingest "$file" "${options[@]}")
    grep -E "^$file:|caught by" "$file.out" | head -2 | sed 's/^/  /'
    # The smallest Holm-adjusted p of the test table (its last column).
    awk '/^  test /{t=1; next} /total variation/{exit}
         t && $1 ~ /^[a-z-]+$/ && $2 ~ /^[0-9.]+$/ {print ($(NF-1) == "<" ? "<" : "") $NF}' "$file.out" |
        sort -g | head -1 | sed 's/^/    smallest adjusted p: /'
    check "$file: ingest exits $want" test "$status" -eq "$want"
    check "$file: $verdict" has "$file.out" "$file: $verdict (tested against: $law)"
done
cd "$root"

step "the module: python/tests and the doctests"
# From a copy, so that pytest imports the installed module, never the source tree, and
# leaves no cache in the repository.
cp -R python/tests "$work/module-tests"
status=$(cd "$work" && run_status "$work/module.out" python -m pytest -p no:cacheprovider -q module-tests)
tail -3 "$work/module.out" | sed 's/^/  | /'
check "pytest python/tests exits 0" test "$status" -eq 0
status=$(cd "$work" && run_status "$work/doctest.out" python -m pytest -p no:cacheprovider -q --doctest-modules --pyargs shuffle_audit)
tail -2 "$work/doctest.out" | sed 's/^/  | /'
check "the docstrings' examples pass (pytest --doctest-modules)" test "$status" -eq 0
check "every public function has a doctest" has "$work/doctest.out" "passed"

step "small inputs through the module's ingest (issue 40; scripts/calibrate_python.py, lean)"
# Fair deals from random.shuffle, 300 inputs of 30 decks of 3 cards and of 20 of 5, 50
# of 20 of 52 (each spends the predictability check's whole budget, 2 s): no test above
# its nominal rate beyond binomial noise, suspicious-or-worse not above 0.5 % beyond
# noise. The inputs are seeded: the same figures every run.
status=$(run_status "$work/calibrate.out" python scripts/calibrate_python.py 300 3:30 5:20 52:20:50)
sed 's/^/  | /' "$work/calibrate.out"
check "the module's ingest of small fair inputs meets the calibration goals" test "$status" -eq 0

step "pytest: examples/python (three lines of pytest)"
cp examples/python/test_shuffle_fair.py "$work/example.py"
mkdir -p "$work/example" && mv "$work/example.py" "$work/example/test_shuffle_fair.py"
status=$(cd "$work/example" && run_status "$work/pytest.out" pytest -p no:cacheprovider -v)
sed 's/^/  | /' "$work/pytest.out" | grep -E 'PASSED|FAILED|ERROR|passed|failed|error' || true
check "pytest examples/python exits 0" test "$status" -eq 0
check "random.shuffle and the project's shuffle pass, the naive swap is caught" \
    bash -c 'grep -c PASSED "$1" | grep -qx 3' _ "$work/pytest.out"

step "the notebook: examples/python/teaching.ipynb, executed"
status=$(run_status "$work/notebook.out" python - examples/python/teaching.ipynb <<'PY'
import sys
import nbclient
import nbformat

notebook = nbformat.read(sys.argv[1], as_version=4)
nbclient.NotebookClient(notebook, timeout=300, kernel_name="python3").execute()
shown = []
for cell in notebook.cells:
    for output in cell.get("outputs", []):
        if output.get("output_type") == "error":
            sys.exit(f"a cell raised {output['ename']}: {output['evalue']}")
        html = output.get("data", {}).get("text/html", "")
        if html:
            badge = "fail" if 'class="verdict fail"' in html else "pass" if 'class="verdict pass"' in html else "?"
            images = html.count("data:image/svg+xml;base64,")
            shown.append((badge, images))
            print(f"cell {len(shown)}: verdict {badge}, {images} charts inline")
want = ["fail", "pass", "fail", "pass"]
if [badge for badge, _ in shown] != want or any(images < 2 for _, images in shown):
    sys.exit(f"expected verdicts {want} each with charts, got {shown}")
PY
)
sed 's/^/  | /' "$work/notebook.out"
check "the notebook runs and shows each verdict with its heat map" test "$status" -eq 0

step "types: mypy on the module's stubs"
cat >"$work/uses.py" <<'PY'
import random
from shuffle_audit import AuditResult, assert_fair_shuffle, ingest, run

result: AuditResult = assert_fair_shuffle(random.shuffle, n=5, seed=1)
verdict: str = run("naive-swap", n=3, trials=1000).verdict
p: "float | None" = ingest([[1, 2], [2, 1]]).p_value
PY
cat >"$work/misuses.py" <<'PY'
from shuffle_audit import run

verdict: int = run("naive-swap", n="three").verdict
PY
status=$(cd "$work" && run_status "$work/mypy.out" mypy --strict --no-incremental uses.py)
sed 's/^/  | /' "$work/mypy.out"
check "mypy --strict accepts the module's use" test "$status" -eq 0
status=$(cd "$work" && run_status "$work/mypy-bad.out" mypy --strict --no-incremental misuses.py)
sed 's/^/  | /' "$work/mypy-bad.out" | head -4
check "mypy refuses a wrong type (n=\"three\", an int verdict)" \
    bash -c '[[ $1 -eq 1 ]] && grep -q "arg-type" "$2" && grep -q "assignment" "$2"' _ "$status" "$work/mypy-bad.out"

step "speed: scripts/bench_python.py (printed, not checked)"
(cd "$work" && python "$root/scripts/bench_python.py") 2>&1 | sed 's/^/  /' || true

# --- 4. Summary --------------------------------------------------------------------------
echo
echo "wheel_test: $(basename "$wheel"), built in ${build_seconds} s; whole test $((SECONDS - started)) s"
echo "wheel_test: ${passed} passed, ${#failures[@]} failed"
if ((${#failures[@]})); then
    printf '  failed: %s\n' "${failures[@]}"
    exit 1
fi
