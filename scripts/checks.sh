# Sourced by the end-to-end scripts (wheel_test.sh, npm_test.sh): the helpers that count
# checks and print them. `started` (the script's $SECONDS at its start) must be set first.
# A check's failure is counted, not fatal; the script prints `passed` and `failures` at
# its end and exits 1 when any failed.

# step TITLE: a heading with the seconds so far.
step() { printf '\n== %s (%d s so far)\n' "$1" $((SECONDS - started)); }
passed=0
failures=()
ok() { echo "  ok    $1"; passed=$((passed + 1)); }
bad() { echo "  FAIL  $1"; failures+=("$1"); }
# check NAME COMMAND...: one check; its failure is counted, not fatal.
check() {
    local name=$1
    shift
    if "$@"; then ok "$name"; else bad "$name"; fi
}
# run_status FILE COMMAND...: runs COMMAND with its output in FILE, and prints its exit
# status (a verdict's 1, or a failing test run, is an answer here, not an error that
# should stop the script).
run_status() {
    local file=$1 status=0
    shift
    "$@" >"$file" 2>&1 || status=$?
    echo "$status"
}
# has FILE TEXT: FILE holds the line fragment TEXT (shown when it does not).
has() {
    grep -qF -- "$2" "$1" || {
        echo "        expected '$2' in:" >&2
        sed 's/^/        | /' "$1" | head -40 >&2
        return 1
    }
}
